import { type AppendMessage, type AssistantRuntime, type AttachmentAdapter, type ExternalStoreThreadData, type ExternalStoreThreadListAdapter, type ThreadMessageLike } from "@assistant-ui/react";
import type { ChatStatus } from "./chat.js";
import type { ContentBlockInput, DataBlock, MsgJSON, ToolCallBlock, ToolResultBlock } from "./message.js";
import { type UseChatOptions, type UseChatResult, type UseSessionsResult } from "./react.js";
import { type DataBlockOptions, type SessionView } from "./sessions.js";
type Part = Exclude<ThreadMessageLike["content"], string>[number];
type ToolPart = Extract<Part, {
    type: "tool-call";
}>;
/** The result shown for a denied call (`approval.approved` is `false` too). */
export declare const DENIED = "denied";
/** What {@link convertMessage} needs besides the message. */
export interface ConvertContext {
    /** Tool results by tool call id, from any message of the thread (default: the message's own). */
    results?: ReadonlyMap<string, ToolResultBlock>;
    /** Ids of the tool calls anywhere in the thread: a result of one of them is shown with its call, not here. */
    calls?: ReadonlySet<string>;
    /** Whether this message's reply is streaming now (its status `running`). */
    running?: boolean;
}
/** A tool call (with its result, if any) as one assistant-ui tool-call part. */
export declare function toolPart(call: ToolCallBlock, result: ToolResultBlock | undefined): ToolPart;
/** A data block as an image part (`image/*`) or a file part (base64 data, or a URL). */
export declare function dataPart(block: DataBlock): Part;
/**
 * One AgentScope message as an assistant-ui message (`ThreadMessageLike`, id and
 * creation time kept). A tool result whose call is in this message (or, with
 * `context.results`, anywhere) is folded into the call's part; a result whose call is
 * nowhere becomes a part of its own.
 */
export declare function convertMessage(msg: MsgJSON, context?: ConvertContext): ThreadMessageLike;
/**
 * The thread's messages as assistant-ui messages: tool results matched to their calls
 * across messages, the last assistant message `running` while `status` is `submitted`,
 * `streaming` or `stopping` and it has not finished.
 */
export declare function convertMessages(messages: readonly MsgJSON[], status?: ChatStatus): ThreadMessageLike[];
/** Whether a chat in `status` is running a reply (assistant-ui's `isRunning`). */
export declare function isRunning(status: ChatStatus): boolean;
/**
 * What a composer's message sends (`Chat.send` input): its text parts as text blocks,
 * its image / file parts and its attachments' parts as data blocks.
 */
export declare function toSendInput(message: Pick<AppendMessage, "content"> & {
    attachments?: AppendMessage["attachments"];
}): ContentBlockInput[];
/**
 * An assistant-ui attachment adapter that turns each file into a `data` block
 * (`dataBlock`, inline base64, capped at `maxBytes`): an image as an image part, any
 * other file as a file part; `onNew` sends them with the text. `accept`: assistant-ui's
 * list of media types and extensions (`"image/*,.pdf"`); default `"*"`, any file
 * (assistant-ui takes only `"*"` for any file: the MIME wildcard of both parts refuses
 * every file).
 */
export declare function attachmentAdapter(options?: {
    accept?: string;
} & Pick<DataBlockOptions, "maxBytes">): AttachmentAdapter;
/** Options of {@link useChatRuntime}. */
export interface ChatRuntimeOptions {
    /** The composer's attachment adapter (default {@link attachmentAdapter}`()`; `null`: no attachments). */
    attachments?: AttachmentAdapter | null;
    /** assistant-ui's thread list (`adapters.threadList`), e.g. {@link useSessionThreads}' `threadList`. */
    threadList?: ExternalStoreThreadListAdapter;
    /**
     * What the composer's first message does while no chat is open (status `closed`), e.g.
     * {@link useSessionThreads}' `sendNew`; absent: sending is disabled while none is open.
     */
    sendNew?: (input: ContentBlockInput[]) => Promise<void>;
}
/** Options of {@link useAgentScopeRuntime}: useChat's, and the runtime's. */
export interface AgentScopeRuntimeOptions extends UseChatOptions, Omit<ChatRuntimeOptions, "threadList" | "sendNew"> {
}
/**
 * An assistant-ui runtime over a {@link useChat} result, for an app that also reads the
 * chat (its `state`, `session`, `pendingActions`, …): messages converted
 * ({@link convertMessages}), `isRunning` from the status, `onNew` → `send` (text and
 * attachments as data blocks), `onCancel` → `stop`, `onRespondToToolApproval` →
 * `confirm`, `onAddToolResult` → `submitExternal`, `onLoadEarlier` → `loadOlder`;
 * sending disabled while a confirmation waits and while no chat is open (unless
 * `sendNew` is given: then the first message goes there).
 */
export declare function useChatRuntime(chat: UseChatResult, options?: ChatRuntimeOptions): AssistantRuntime;
/**
 * The one call of an assistant-ui app over an AgentScope service: {@link useChat} with
 * these options, as an assistant-ui runtime ({@link useChatRuntime}). Pass it to
 * `<AssistantRuntimeProvider runtime={…}>`. With no `sessionId`, no session is made until
 * the composer's first message (as {@link useChat}'s new chat).
 */
export declare function useAgentScopeRuntime(options: AgentScopeRuntimeOptions): AssistantRuntime;
/** The thread id of the new thread (no session yet): assistant-ui's main thread while nothing is open. */
export declare const NEW_THREAD_ID = "agentscope-new-thread";
/** A session as an assistant-ui thread: its id, and its name (`session.config.name`) as the title. */
export declare function sessionThread(view: SessionView): ExternalStoreThreadData<"regular">;
/** Options of {@link useSessionThreads} (and of {@link useAgentScopeThreadsRuntime}). */
export interface SessionThreadsOptions extends Omit<UseChatOptions, "sessionId" | "transport" | "baseUrl" | "userId" | "agentId"> {
    /** The service's base URL, or several (the instances of one service). */
    baseUrl: string | readonly string[];
    /** Sent as `X-User-ID`. */
    userId: string;
    /** The agent whose sessions are the threads. */
    agentId: string;
    /** More headers for every request (the session list's and the chat's). */
    headers?: Record<string, string>;
    /** The session open at first (default: none, the new thread). */
    sessionId?: string | null;
}
/** What {@link useSessionThreads} returns. */
export interface SessionThreadsResult {
    /** The open session's chat (`useChat`; status `closed` on the new thread). */
    chat: UseChatResult;
    /** The agent's sessions (`useSessions`). */
    sessions: UseSessionsResult;
    /** The open session's id, or null on the new thread. */
    sessionId: string | null;
    /** Opens a session (its chat), or the new thread (`null`). */
    open: (sessionId: string | null) => void;
    /** assistant-ui's thread list over the sessions (`adapters.threadList`). */
    threadList: ExternalStoreThreadListAdapter;
    /** The new thread's first message: creates the session (`POST /sessions/`), opens it and sends. */
    sendNew: (input: ContentBlockInput[]) => Promise<void>;
}
/**
 * The agent's sessions as assistant-ui threads, with the open one's chat: `threads` from
 * `GET /sessions/` (title `session.config.name`; the list is read again when the open
 * session's name changes, i.e. after `CUSTOM session_updated` auto-names it), switching
 * opens that session's chat, the new thread opens nothing and creates no session until
 * its first message is sent (`sendNew`), rename → `PATCH {name}`, delete →
 * `DELETE /sessions/{sid}` (deleting the open one goes to the new thread).
 */
export declare function useSessionThreads(options: SessionThreadsOptions): SessionThreadsResult;
/** Options of {@link useAgentScopeThreadsRuntime}: {@link useSessionThreads}' and the composer's attachments. */
export interface AgentScopeThreadsRuntimeOptions extends SessionThreadsOptions, Omit<ChatRuntimeOptions, "threadList" | "sendNew"> {
}
/**
 * An assistant-ui runtime with a thread list over the agent's sessions
 * ({@link useSessionThreads} through {@link useChatRuntime}): `ThreadListPrimitive`
 * shows the sessions, New opens an empty thread (no session is created until its first
 * message), switching opens that session's chat, rename and delete reach the service.
 */
export declare function useAgentScopeThreadsRuntime(options: AgentScopeThreadsRuntimeOptions): AssistantRuntime;
export {};
