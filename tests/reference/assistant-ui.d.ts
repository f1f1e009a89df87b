import { type AppendMessage, type AssistantRuntime, type AttachmentAdapter, type ThreadMessageLike } from "@assistant-ui/react";
import type { ChatStatus } from "./chat.js";
import type { ContentBlockInput, DataBlock, MsgJSON, ToolCallBlock, ToolResultBlock } from "./message.js";
import { type UseChatOptions, type UseChatResult } from "./react.js";
import { type DataBlockOptions } from "./sessions.js";
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
 * other file as a file part; `onNew` sends them with the text.
 */
export declare function attachmentAdapter(options?: {
    accept?: string;
} & Pick<DataBlockOptions, "maxBytes">): AttachmentAdapter;
/** Options of {@link useChatRuntime}. */
export interface ChatRuntimeOptions {
    /** The composer's attachment adapter (default {@link attachmentAdapter}`()`; `null`: no attachments). */
    attachments?: AttachmentAdapter | null;
}
/** Options of {@link useAgentScopeRuntime}: useChat's, and the runtime's. */
export interface AgentScopeRuntimeOptions extends UseChatOptions, ChatRuntimeOptions {
}
/**
 * An assistant-ui runtime over a {@link useChat} result, for an app that also reads the
 * chat (its `state`, `session`, `pendingActions`, …): messages converted
 * ({@link convertMessages}), `isRunning` from the status, `onNew` → `send` (text and
 * attachments as data blocks), `onCancel` → `stop`, `onRespondToToolApproval` →
 * `confirm`, `onAddToolResult` → `submitExternal`, `onLoadEarlier` → `loadOlder`;
 * sending disabled while a confirmation waits and while no chat is open.
 */
export declare function useChatRuntime(chat: UseChatResult, options?: ChatRuntimeOptions): AssistantRuntime;
/**
 * The one call of an assistant-ui app over an AgentScope service: {@link useChat} with
 * these options, as an assistant-ui runtime ({@link useChatRuntime}). Pass it to
 * `<AssistantRuntimeProvider runtime={…}>`.
 */
export declare function useAgentScopeRuntime(options: AgentScopeRuntimeOptions): AssistantRuntime;
export {};
