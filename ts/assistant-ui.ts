// `agentscope-message/assistant-ui`: an assistant-ui runtime over a `Chat`
// (assistant-ui's external-store runtime). react and `@assistant-ui/react` are optional
// peer dependencies of the package; this subpath is the only one that imports the latter.
// Like `agentscope-message/react`, importing it does not load the .wasm.
//
// Messages convert block by block: text → text part, thinking → reasoning part, a
// tool call and its result → one tool-call part (args, argsText, result, isError; a call
// `asking` carries an `approval` the tool UI answers with `respondToApproval`, a denied
// call `approval.approved === false` and the result "denied" instead of the
// model-facing reminder), data → image / file parts; hints are left out (they are
// addressed to the model).
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import {
  useExternalStoreRuntime,
  type AppendMessage,
  type AssistantRuntime,
  type AttachmentAdapter,
  type CompleteAttachment,
  type ExternalStoreAdapter,
  type ExternalStoreThreadData,
  type ExternalStoreThreadListAdapter,
  type PendingAttachment,
  type ThreadMessageLike,
} from "@assistant-ui/react";
import type { ChatStatus } from "./chat.js";
import type { ContentBlock, ContentBlockInput, DataBlock, MsgJSON, ToolCallBlock, ToolResultBlock } from "./message.js";
import { readPartialJson } from "./partial-json.js";
import { useChat, useSessions, type UseChatOptions, type UseChatResult, type UseSessionsResult } from "./react.js";
import { dataBlock, type DataBlockOptions, type SessionView } from "./sessions.js";

type Part = Exclude<ThreadMessageLike["content"], string>[number];
type ToolPart = Extract<Part, { type: "tool-call" }>;
type JsonObject = NonNullable<ToolPart["args"]>;

/** The result shown for a denied call (`approval.approved` is `false` too). */
export const DENIED = "denied";

/** What {@link convertMessage} needs besides the message. */
export interface ConvertContext {
  /** Tool results by tool call id, from any message of the thread (default: the message's own). */
  results?: ReadonlyMap<string, ToolResultBlock>;
  /** Ids of the tool calls anywhere in the thread: a result of one of them is shown with its call, not here. */
  calls?: ReadonlySet<string>;
  /** Whether this message's reply is streaming now (its status `running`). */
  running?: boolean;
}

/** A tool result's output as a tool part's `result`: the string, the texts joined when all are text, else the blocks. */
function outputOf(output: ToolResultBlock["output"]): unknown {
  if (typeof output === "string") return output;
  if (output.every((b) => b.type === "text")) return output.map((b) => (b as { text: string }).text).join("");
  return output;
}

function argsOf(input: string): JsonObject {
  if (input.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(input);
  } catch {
    try {
      parsed = readPartialJson(input);
    } catch {
      parsed = undefined;
    }
  }
  return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as JsonObject) : {};
}

/** A tool call (with its result, if any) as one assistant-ui tool-call part. */
export function toolPart(call: ToolCallBlock, result: ToolResultBlock | undefined): ToolPart {
  const state = result?.state;
  const denied = state === "denied";
  const part: { -readonly [K in keyof ToolPart]: ToolPart[K] } = {
    type: "tool-call",
    toolCallId: call.id,
    toolName: call.name,
    args: argsOf(call.input),
    argsText: call.input,
  };
  if (result !== undefined) {
    if (denied) part.result = DENIED;
    else part.result = outputOf(result.output);
    if (state === "running") part.isPreliminary = true;
    if (state === "error" || denied) part.isError = true;
  }
  if (call.state === "asking" && result === undefined) part.approval = { id: call.id };
  else if (denied) part.approval = { id: call.id, approved: false };
  return part;
}

/** A data block as an image part (`image/*`) or a file part (base64 data, or a URL). */
export function dataPart(block: DataBlock): Part {
  const source = block.source;
  const filename = block.name ?? undefined;
  const named = filename === undefined ? {} : { filename };
  if (source.type === "base64") {
    if (source.media_type.startsWith("image/")) return { type: "image", image: `data:${source.media_type};base64,${source.data}`, ...named };
    return { type: "file", data: source.data, mimeType: source.media_type, ...named };
  }
  if (source.media_type.startsWith("image/")) return { type: "image", image: source.url, ...named };
  return { type: "file", data: source.url, mimeType: source.media_type, sourceType: "url", ...named };
}

function statusOf(msg: MsgJSON, running: boolean, parts: readonly Part[]): ThreadMessageLike["status"] {
  if (parts.some((p) => p.type === "tool-call" && "approval" in p && p.approval !== undefined && p.approval.approved === undefined)) {
    return { type: "requires-action", reason: "tool-calls" };
  }
  if (running) return { type: "running" };
  switch (msg.finished_reason) {
    case "completed":
      return { type: "complete", reason: "stop" };
    case "interrupted":
      return { type: "incomplete", reason: "cancelled" };
    case "exceed_max_iters":
      return { type: "incomplete", reason: "length" };
    case "error":
      return { type: "incomplete", reason: "error", error: msg.error?.message ?? null };
    default:
      return msg.finished_at === null ? { type: "incomplete", reason: "other" } : { type: "complete", reason: "unknown" };
  }
}

/**
 * One AgentScope message as an assistant-ui message (`ThreadMessageLike`, id and
 * creation time kept). A tool result whose call is in this message (or, with
 * `context.results`, anywhere) is folded into the call's part; a result whose call is
 * nowhere becomes a part of its own.
 */
export function convertMessage(msg: MsgJSON, context: ConvertContext = {}): ThreadMessageLike {
  const content = msg.content as readonly ContentBlock[];
  const calls = new Set<string>();
  const own = new Map<string, ToolResultBlock>();
  for (const b of content) {
    if (b.type === "tool_call") calls.add(b.id);
    else if (b.type === "tool_result") own.set(b.id, b);
  }
  const results = context.results ?? own;
  const parts: Part[] = [];
  for (const b of content) {
    switch (b.type) {
      case "text":
        parts.push({ type: "text", text: b.text });
        break;
      case "thinking":
        parts.push({ type: "reasoning", text: b.thinking });
        break;
      case "data":
        parts.push(dataPart(b));
        break;
      case "tool_call":
        parts.push(toolPart(b, results.get(b.id) ?? own.get(b.id)));
        break;
      case "tool_result":
        if (!calls.has(b.id) && context.calls?.has(b.id) !== true) {
          parts.push(toolPart({ id: b.id, name: b.name, input: "" } as ToolCallBlock, b));
        }
        break;
      default:
        // hints are addressed to the model
        break;
    }
  }
  const role = msg.role === "system" ? "system" : msg.role;
  const base = { id: msg.id, createdAt: new Date(msg.created_at), metadata: { custom: { agentscope: { name: msg.name } } } };
  if (role !== "assistant") {
    // assistant-ui's user and system messages take no tool or reasoning parts
    const kept = parts.filter((p) => p.type === "text" || (role === "user" && (p.type === "image" || p.type === "file")));
    return { role, content: kept, ...base };
  }
  return { role, content: parts, status: statusOf(msg, context.running === true, parts), ...base };
}

/**
 * The thread's messages as assistant-ui messages: tool results matched to their calls
 * across messages, the last assistant message `running` while `status` is `submitted`,
 * `streaming` or `stopping` and it has not finished.
 */
export function convertMessages(messages: readonly MsgJSON[], status: ChatStatus = "ready"): ThreadMessageLike[] {
  const results = new Map<string, ToolResultBlock>();
  const callIds = new Set<string>();
  for (const m of messages) {
    for (const b of m.content as readonly ContentBlock[]) {
      if (b.type === "tool_result") results.set(b.id, b);
      else if (b.type === "tool_call") callIds.add(b.id);
    }
  }
  const running = isRunning(status);
  const last = messages.length - 1;
  return messages.map((m, i) => convertMessage(m, { results, calls: callIds, running: running && i === last && m.role === "assistant" && m.finished_at === null }));
}

/** Whether a chat in `status` is running a reply (assistant-ui's `isRunning`). */
export function isRunning(status: ChatStatus): boolean {
  return status === "submitted" || status === "streaming" || status === "stopping";
}

/**
 * What a composer's message sends (`Chat.send` input): its text parts as text blocks,
 * its image / file parts and its attachments' parts as data blocks.
 */
export function toSendInput(message: Pick<AppendMessage, "content"> & { attachments?: AppendMessage["attachments"] }): ContentBlockInput[] {
  const blocks: ContentBlockInput[] = [];
  const add = (part: { type: string } & Record<string, unknown>) => {
    if (part.type === "text" && typeof part.text === "string") {
      if (part.text !== "") blocks.push({ type: "text", text: part.text });
    } else if (part.type === "image" && typeof part.image === "string") {
      blocks.push(dataInput(part.image, undefined, part.filename as string | undefined));
    } else if (part.type === "file" && typeof part.data === "string" && typeof part.mimeType === "string") {
      blocks.push(dataInput(part.data, part.mimeType, part.filename as string | undefined, part.sourceType === "url"));
    }
  };
  for (const part of message.content) add(part as unknown as { type: string } & Record<string, unknown>);
  for (const a of message.attachments ?? []) for (const part of a.content) add(part as unknown as { type: string } & Record<string, unknown>);
  return blocks;
}

const DATA_URL = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s;

function dataInput(data: string, mediaType: string | undefined, name: string | undefined, isUrl = false): ContentBlockInput {
  const named = name === undefined ? {} : { name };
  const m = DATA_URL.exec(data);
  if (m !== null) return { type: "data", source: { type: "base64", media_type: m[1]!, data: m[2]! }, ...named };
  if (isUrl || /^(https?|blob):/.test(data)) return { type: "data", source: { type: "url", url: data, media_type: mediaType ?? "application/octet-stream" }, ...named };
  return { type: "data", source: { type: "base64", media_type: mediaType ?? "application/octet-stream", data }, ...named };
}

/**
 * An assistant-ui attachment adapter that turns each file into a `data` block
 * (`dataBlock`, inline base64, capped at `maxBytes`): an image as an image part, any
 * other file as a file part; `onNew` sends them with the text. `accept`: assistant-ui's
 * list of media types and extensions (`"image/*,.pdf"`); default `"*"`, any file
 * (assistant-ui takes only `"*"` for any file: the MIME wildcard of both parts refuses
 * every file).
 */
export function attachmentAdapter(options: { accept?: string } & Pick<DataBlockOptions, "maxBytes"> = {}): AttachmentAdapter {
  return {
    accept: options.accept ?? "*",
    async add({ file }): Promise<PendingAttachment> {
      return {
        id: `${file.name}-${Date.now()}-${Math.random().toString(36).slice(2)}`,
        type: file.type.startsWith("image/") ? "image" : "file",
        name: file.name,
        contentType: file.type,
        file,
        status: { type: "requires-action", reason: "composer-send" },
      };
    },
    async remove(): Promise<void> {},
    async send(attachment): Promise<CompleteAttachment> {
      const block = await dataBlock(attachment.file, { maxBytes: options.maxBytes, name: attachment.name });
      const part = dataPart(block as unknown as DataBlock);
      return { ...attachment, status: { type: "complete" }, content: [part as CompleteAttachment["content"][number]] };
    },
  };
}

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
export interface AgentScopeRuntimeOptions extends UseChatOptions, Omit<ChatRuntimeOptions, "threadList" | "sendNew"> {}

/**
 * An assistant-ui runtime over a {@link useChat} result, for an app that also reads the
 * chat (its `state`, `session`, `pendingActions`, …): messages converted
 * ({@link convertMessages}), `isRunning` from the status, `onNew` → `send` (text and
 * attachments as data blocks), `onCancel` → `stop`, `onRespondToToolApproval` →
 * `confirm`, `onAddToolResult` → `submitExternal`, `onLoadEarlier` → `loadOlder`;
 * sending disabled while a confirmation waits and while no chat is open (unless
 * `sendNew` is given: then the first message goes there).
 */
export function useChatRuntime(chat: UseChatResult, options: ChatRuntimeOptions = {}): AssistantRuntime {
  const { messages, status, pendingActions, send, stop, confirm, submitExternal, loadOlder, hasMore } = chat;
  const { sendNew, threadList } = options;
  const converted = useMemo(() => convertMessages(messages, status), [messages, status]);
  const attachments = useMemo(() => (options.attachments === undefined ? attachmentAdapter() : options.attachments), [options.attachments]);
  const closed = status === "closed";
  const onNew = useCallback(
    async (message: AppendMessage) => (closed && sendNew !== undefined ? sendNew(toSendInput(message)) : send(toSendInput(message))),
    [send, sendNew, closed],
  );
  const onCancel = useCallback(async () => stop(), [stop]);
  const onLoadEarlier = useCallback(async () => void (await loadOlder()), [loadOlder]);
  const waiting = pendingActions.some((a) => a.kind === "confirm");
  const adapters = attachments === null && threadList === undefined ? undefined : { ...(attachments === null ? {} : { attachments }), ...(threadList === undefined ? {} : { threadList }) };
  const adapter: ExternalStoreAdapter<ThreadMessageLike> = {
    messages: converted,
    convertMessage: (m) => m,
    isRunning: isRunning(status),
    isLoading: status === "connecting",
    isSendDisabled: waiting || (closed && sendNew === undefined) || (status === "error" && chat.chat === null),
    hasEarlier: hasMore,
    onLoadEarlier,
    onNew,
    onCancel,
    onRespondToToolApproval: ({ approvalId, approved }) => confirm(approvalId, approved),
    onAddToolResult: ({ toolCallId, result, isError }) =>
      submitExternal({ toolCallId, output: typeof result === "string" ? result : JSON.stringify(result), state: isError ? "error" : "success" }),
    adapters,
  };
  return useExternalStoreRuntime(adapter);
}

/**
 * The one call of an assistant-ui app over an AgentScope service: {@link useChat} with
 * these options, as an assistant-ui runtime ({@link useChatRuntime}). Pass it to
 * `<AssistantRuntimeProvider runtime={…}>`. With no `sessionId`, no session is made until
 * the composer's first message (as {@link useChat}'s new chat).
 */
export function useAgentScopeRuntime(options: AgentScopeRuntimeOptions): AssistantRuntime {
  const { attachments, ...chatOptions } = options;
  return useChatRuntime(useChat(chatOptions), { attachments });
}

// ------------------------------------------------------------------ threads over the sessions

/** The thread id of the new thread (no session yet): assistant-ui's main thread while nothing is open. */
export const NEW_THREAD_ID = "agentscope-new-thread";

/** A session as an assistant-ui thread: its id, and its name (`session.config.name`) as the title. */
export function sessionThread(view: SessionView): ExternalStoreThreadData<"regular"> {
  return { status: "regular", id: view.session.id, remoteId: view.session.id, title: view.session.config.name };
}

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

interface Pending {
  sessionId: string;
  input: ContentBlockInput[];
  resolve: () => void;
  reject: (e: unknown) => void;
}

/**
 * The agent's sessions as assistant-ui threads, with the open one's chat: `threads` from
 * `GET /sessions/` (title `session.config.name`; the list is read again when the open
 * session's name changes, i.e. after `CUSTOM session_updated` auto-names it), switching
 * opens that session's chat, the new thread opens nothing and creates no session until
 * its first message is sent (`sendNew`), rename → `PATCH {name}`, delete →
 * `DELETE /sessions/{sid}` (deleting the open one goes to the new thread).
 */
export function useSessionThreads(options: SessionThreadsOptions): SessionThreadsResult {
  const { baseUrl, userId, agentId, headers, sessionId: initial, ...rest } = options;
  const sessions = useSessions({ baseUrl, userId, agentId, headers, fetch: options.fetch, session: options.session });
  const [sessionId, setSessionId] = useState<string | null>(initial ?? null);
  const chat = useChat({ ...rest, baseUrl, userId, agentId, headers, sessionId });
  const pending = useRef<Pending | null>(null);
  const open = useCallback((id: string | null) => {
    const p = pending.current;
    if (p !== null && p.sessionId !== id) {
      pending.current = null;
      p.reject(new Error("another thread was opened before the first message was sent"));
    }
    setSessionId(id);
  }, []);
  // the first message of a new thread goes out once its session's chat is open
  const opened = chat.chat;
  const failed = chat.status === "error" && opened === null;
  useEffect(() => {
    const p = pending.current;
    if (p === null || sessionId !== p.sessionId) return;
    if (opened !== null && opened.sessionId === p.sessionId) {
      pending.current = null;
      opened.send(p.input).then(p.resolve, p.reject);
    } else if (failed) {
      pending.current = null;
      p.reject(chat.error);
    }
  }, [opened, sessionId, failed, chat.error]);
  const { create, rename, remove } = sessions;
  const sendNew = useCallback(
    async (input: ContentBlockInput[]) => {
      const id = await create();
      await new Promise<void>((resolve, reject) => {
        pending.current = { sessionId: id, input, resolve, reject };
        setSessionId(id);
      });
    },
    [create],
  );
  // (the open session renamed, auto-named after its first reply: the page's lists read
  // theirs again, binding.ts)
  const threads = useMemo(() => sessions.sessions.map(sessionThread), [sessions.sessions]);
  const threadList: ExternalStoreThreadListAdapter = useMemo(
    () => ({
      threadId: sessionId ?? NEW_THREAD_ID,
      isLoading: sessions.loading && threads.length === 0,
      threads,
      onSwitchToThread: (id: string) => open(id),
      onSwitchToNewThread: () => open(null),
      onRename: async (id: string, title: string) => void (await rename(id, title)),
      onDelete: async (id: string) => {
        await remove(id);
        if (id === sessionId) open(null);
      },
    }),
    [sessionId, sessions.loading, threads, open, rename, remove],
  );
  return { chat, sessions, sessionId, open, threadList, sendNew };
}

/** Options of {@link useAgentScopeThreadsRuntime}: {@link useSessionThreads}' and the composer's attachments. */
export interface AgentScopeThreadsRuntimeOptions extends SessionThreadsOptions, Omit<ChatRuntimeOptions, "threadList" | "sendNew"> {}

/**
 * An assistant-ui runtime with a thread list over the agent's sessions
 * ({@link useSessionThreads} through {@link useChatRuntime}): `ThreadListPrimitive`
 * shows the sessions, New opens an empty thread (no session is created until its first
 * message), switching opens that session's chat, rename and delete reach the service.
 */
export function useAgentScopeThreadsRuntime(options: AgentScopeThreadsRuntimeOptions): AssistantRuntime {
  const { attachments, ...threadOptions } = options;
  const { chat, threadList, sendNew } = useSessionThreads(threadOptions);
  return useChatRuntime(chat, { attachments, threadList, sendNew });
}
