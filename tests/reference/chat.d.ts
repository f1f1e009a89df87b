import type { AgentEvent } from "./event.js";
import { MsgError } from "./errors.js";
import { Msg, type ContentBlock, type ContentBlockInput, type MsgJSON, type ToolCallBlock } from "./message.js";
import { type Diagnostic } from "./session.js";
import { type ChatPendingAction, type McpProgress } from "./app-state.js";
import { type PermissionMode, type SessionState, type SessionView } from "./sessions.js";
import type { ChatInput, ChatTransport } from "./transport.js";
/**
 * Where the reply of a {@link Chat} is, whatever the event stream's connection does (see
 * {@link ChatConnection}): `ready` (idle: a message may be sent), `submitted` (an input is
 * being posted or was posted, its reply has not started), `streaming` (a reply is in
 * flight, also while the stream reconnects), `stopping` (from `stop()` until the reply
 * ends or the service drops the turn), `awaiting_input` (a tool call waits for a
 * confirmation or an external result: a message sent now is refused with `busy`, since
 * the service would end the turn with an error), `error` (see `error`; a failed run, a
 * run lost with its instance (`run_lost`), or a lost service after the reconnect
 * attempts), `closed` (after `close()`; in `useChat` also while `sessionId` is null).
 * `connecting` is only `useChat`'s, until its chat has opened (loaded the history): a
 * `Chat` never has it.
 */
export type ChatStatus = "connecting" | "ready" | "submitted" | "streaming" | "stopping" | "awaiting_input" | "error" | "closed";
/**
 * The event stream's connection: `connecting` (the first connect: the chat works already,
 * a message sent now streams once the stream is open, from the service's replay log),
 * `open`, `reconnecting` (it dropped, stalled or was refused: reconnecting with backoff,
 * `error` says why), `lost` (the attempts ran out, or the session does not exist:
 * `reconnect()` tries again), `closed`.
 */
export type ChatConnection = "connecting" | "open" | "reconnecting" | "lost" | "closed";
/** What a UI renders of a {@link Chat}; frozen, the same object until something changes. */
export interface ChatSnapshot {
    /** User and assistant messages in order: stored history, then what this page sent and streamed. */
    readonly messages: readonly MsgJSON[];
    /** See {@link ChatStatus}: the reply's state (kept apart from the connection's). */
    readonly status: ChatStatus;
    /** See {@link ChatConnection}: the event stream's state. */
    readonly connection: ChatConnection;
    /** The last error (a failed request, a failed run, a lost connection), or null. */
    readonly error: MsgError | null;
    /**
     * Tool calls waiting for `confirm` or `submitExternal`: this session's, then those of its
     * team's workers projected onto it (`worker` set; see {@link ChatPendingAction}).
     */
    readonly pendingActions: readonly ChatPendingAction[];
    /**
     * The session's app state: its task list (`tasks_context`) and permission context (mode
     * and rules), loaded when the chat opens and replaced by each `CUSTOM state_updated`;
     * null until known (or with a transport that has no `request`).
     */
    readonly state: SessionState | null;
    /**
     * The session's record as the session list has it (name, status, team, config), loaded
     * when the chat opens and again after each `CUSTOM session_updated` (auto-naming, a
     * rename) or `team_updated`; null until known.
     */
    readonly session: SessionView | null;
    /**
     * The last `CUSTOM mcp_progress` of each tool call still running, by its `tool_call_id`
     * (`{progress, total, message, reply_id, tool_call_id}`); a call leaves it when its
     * result ends.
     */
    readonly progress: Readonly<Record<string, McpProgress>>;
    /**
     * Ids of replies this page joined mid-way (a reload, or a reconnect, past the service's
     * replay log: events may be missing): they show what arrived, until the stored one
     * replaces them once the run has saved.
     */
    readonly partial: readonly string[];
}
/** What `onEvent` is told beside the event. */
export interface EventInfo {
    /** A `REPLY_START` that continues a reply already met (a parked reply going on); false for any other event. */
    readonly continued: boolean;
}
/** Options of {@link Chat.open}. */
export interface ChatOptions {
    /** Resume this session (history, then the live stream); without it a new session is created. */
    sessionId?: string;
    /** A stream with no byte (not even a heartbeat) for this long is dropped and reconnected; ms, default 45,000. */
    stallMs?: number;
    /** Notifications: at most one per macrotask (0, the default) or one per this many ms. */
    throttleMs?: number;
    /** Reconnect backoff: first delay, ms (default 250), doubling up to `maxMs` (default 5,000). */
    retry?: {
        initialMs?: number;
        maxMs?: number;
        attempts?: number;
    };
    /** How long a `send` retries the service's 409 right after a reply ended (the run still saves); ms, default 10,000. */
    busyWaitMs?: number;
    /** While a reply is in flight and no event came for this long, ask the service whether it still runs; ms, default 5,000. */
    statusPollMs?: number;
    /**
     * A reply with no event for this long while the service still says `running` is taken
     * as lost (the instance running it went away: the service keeps the session locked for
     * up to 10 minutes): it shows `finished_reason: "interrupted"`, status `error` (or
     * `submitted` while a message of this chat waits behind it), error `run_lost`. An event
     * for it later takes that back; the chat keeps asking the service until it is free.
     * Also how long an input whose `POST /chat/` came back waits for its run to show while
     * the service says it runs nothing (the POST answers before the run takes the session;
     * see docs/chat.md, "The run watchdog"). ms, default 120,000; Infinity: never.
     */
    lostRunMs?: number;
    /** Speaker name of user turns sent as text (default `"user"`). */
    userName?: string;
    /** Called with errors nobody awaits: a refused event, a lost connection, a listener that threw. */
    onError?: (error: unknown) => void;
    /**
     * Called once with each reply that ends while the chat is open: when its `REPLY_END`
     * arrived, or, for one that ended while the stream was away (stalled, reconnecting), when
     * the stored history shows it ended. Called after the chat's state says it is over (a
     * `send` from inside it is not refused `busy`).
     */
    onFinish?: (message: MsgJSON) => void;
    /**
     * Called with every event of the session's stream, of every type (`CUSTOM` included:
     * `session_updated`, `state_updated`, `team_updated`, `subagent_require_user_confirm`,
     * `mcp_progress`, …; see docs/chat.md), once per event `id` across reconnects and
     * replays, in stream order, after the reducer applied it (the snapshot already holds
     * it). The events the chat makes up itself (to open a reply it joined mid-way) are not
     * passed, nor those the stream never brought (a `REPLY_END` of a reply that ended while
     * the stream reconnected: `onFinish` is still called for it). `info.continued` is true
     * for a `REPLY_START` that continues a reply already met (after a confirmation or an
     * external result; the Rust `Update`'s `continued`), false otherwise. A listener that
     * throws is reported to `onError`.
     */
    onEvent?: (event: AgentEvent, info: EventInfo) => void;
}
/** `T` with every list read-only or not (a mutable list is one too), all the way down. */
type ReadonlyDeep<T> = T extends readonly (infer U)[] ? readonly ReadonlyDeep<U>[] : T extends object ? {
    readonly [K in keyof T]: ReadonlyDeep<T[K]>;
} : T;
/**
 * A block as `Chat.send` takes it: a content block's wire JSON, the keys with a default
 * optional, its lists read-only or mutable. So the chat's own blocks (`ContentBlock` of a
 * message it handed out), blocks built for `agentscope-message/compat` (`TextBlock({...})`,
 * its `ContentBlock` / `ReadonlyContentBlock`) and literals all fit.
 */
export type SendBlock = ReadonlyDeep<ContentBlockInput>;
/**
 * What `Chat.send` takes: text; the blocks of a user message (text and data blocks); the
 * content and metadata of one; or a whole user message (a `Msg`, its JSON, or a
 * `agentscope-message/compat` message).
 */
export type SendInput = string | readonly SendBlock[] | {
    readonly content: string | readonly SendBlock[];
    readonly metadata?: {
        readonly [key: string]: unknown;
    };
} | Msg | MsgJSON;
/** An answer to an external execution (`submitExternal`): the tool result's output. */
export interface ExternalResult {
    /** The id of the tool call answered. */
    toolCallId: string;
    /** The result: a string, or text/data blocks. */
    output: string | ContentBlockInput[];
    /** The result's state (default `"success"`). */
    state?: "success" | "error" | "interrupted" | "denied";
    /**
     * The result's metadata. AgentScope's `AskUser` requires `{answers: [{question,
     * selected: [...]}]}` on a success (without it the run ends with an error and the call
     * stays waiting).
     */
    metadata?: Record<string, unknown>;
}
/**
 * A chat with one session of an AgentScope 2.0 service. Open it with {@link Chat.open};
 * render `getSnapshot()` (for React: `useSyncExternalStore(chat.subscribe,
 * chat.getSnapshot)`, or `useChat`). Every event of the session's stream goes into one
 * `Session` with `dedup` (each connect replays the current run), so a reconnect neither
 * loses nor doubles text, and each reply is exactly the message the service stores.
 *
 * Status, errors and reconnects: see {@link ChatStatus} and {@link ChatOptions}. After
 * `close()` every method but the readers and `subscribe` (a no-op then) throws `MsgError`
 * (`closed`).
 */
export declare class Chat {
    #private;
    /** The session's id (given, or created by `open`). */
    readonly sessionId: string;
    private constructor();
    /**
     * Opens a chat: loads the .wasm if needed (`init()`), creates a session (or takes
     * `options.sessionId`), loads its latest stored history and opens its event stream.
     * Resolves once the history is loaded (the stream connects in the background: status
     * `connecting`, then `ready`). Rejects with `MsgError` (`http_error` with `status` 404
     * for an unknown session, or for an answer that is not the JSON it should be;
     * `service_unavailable`; `invalid_argument`, before any request, for a `sessionId` that
     * is not one path segment: empty, `.`, `..`, or with a lone surrogate).
     */
    static open(transport: ChatTransport, options?: ChatOptions): Promise<Chat>;
    /** The current snapshot (bound: pass `chat.getSnapshot` as is). */
    getSnapshot: () => ChatSnapshot;
    /** `getSnapshot().messages`. */
    get messages(): readonly MsgJSON[];
    /** `getSnapshot().status`. */
    get status(): ChatStatus;
    /** `getSnapshot().error`. */
    get error(): MsgError | null;
    /** `getSnapshot().pendingActions`. */
    get pendingActions(): readonly ChatPendingAction[];
    /**
     * Resolves with the first snapshot (now or later) whose status is `ready`,
     * `awaiting_input`, `error` or `closed`: the reply in flight has ended, parked, or failed.
     * For scripts and tests; a UI subscribes instead.
     */
    settled(): Promise<ChatSnapshot>;
    /** Whether older stored messages exist (see {@link Chat.loadOlder}). */
    get hasMore(): boolean;
    /** What the stream's `Session` skipped (the last 200): stale replays, events of replies it never saw start. */
    get diagnostics(): readonly Diagnostic[];
    /**
     * Calls `listener` when the snapshot changed: at most once per macrotask (or per
     * `throttleMs`), never inside a call of the chat. A listener that throws is reported to
     * `onError` (or the console) and the others still run. Returns the unsubscribe function.
     */
    subscribe: (listener: () => void) => (() => void);
    /**
     * Loads the page of stored messages before the oldest one shown; resolves whether more
     * remain. Rejects with the transport's `MsgError`.
     */
    loadOlder(): Promise<boolean>;
    /**
     * Sends a user turn and starts a run: text; blocks (text and data blocks, e.g.
     * attachments from `dataBlock`); `{content, metadata?}` (a string or blocks, and the
     * message's metadata); or a whole user `Msg` / its JSON. The turn shows at once
     * (replaced by the stored one once the run ends), status `submitted` until the reply
     * starts. Rejects with `MsgError`: `busy` while a reply of this chat is in flight or a
     * tool call waits for an answer (nothing is sent: the service would end the turn with an
     * error; keep the text in the composer), or when the service stayed busy for
     * `busyWaitMs`; the transport's `http_error` / `service_unavailable` (the turn is taken
     * back); `invalid_argument` for text with a lone surrogate or a data block whose URL
     * source is not http(s) (the service reads a `file:` URL from its own disk; nothing is
     * sent), and the model's errors for a message the reference refuses (`invalid_msg`,
     * `role_violation` for a block a user message may not hold, …).
     */
    send(input: SendInput): Promise<void>;
    /**
     * Posts any input `POST /chat/` takes (`ChatInput`), with `send`'s rules: user
     * message(s) as `send` (shown at once, never applied twice; each checked as a `Msg`), a
     * `USER_CONFIRM_RESULT` or `EXTERNAL_EXECUTION_RESULT` as `confirm` / `submitExternal`
     * (its calls must be waiting: `invalid_argument` otherwise, since answering a call that
     * does not wait parks the service; refused as those are for a lone surrogate or a data
     * block's URL that is not http(s)). Rejects as those do; `invalid_argument` for
     * anything else (null included: it starts nothing the chat could follow).
     */
    post(input: ChatInput): Promise<void>;
    /**
     * Answers a tool call waiting for a confirmation (`REQUIRE_USER_CONFIRM`): the reply
     * continues (the call runs, or ends `denied`). A team worker's call (`worker` set in
     * `pendingActions`) is answered the same way, through this session. `rules`: permission rules to remember
     * (e.g. the call's `suggested_rules`, "always allow"). Rejects with `invalid_argument`
     * when that call is not waiting (answering twice would park the service) or, before
     * anything is sent, for `rules` holding a lone surrogate or a data block whose URL is
     * not http(s); or the transport's `MsgError`.
     */
    confirm(toolCallId: string, confirmed: boolean, options?: {
        rules?: readonly unknown[] | null;
    }): Promise<void>;
    /**
     * Answers tool calls waiting for an external executor (`REQUIRE_EXTERNAL_EXECUTION`,
     * e.g. an AskUser tool) with their results; the reply continues. Rejects with
     * `invalid_argument` for a call that is not waiting, and, before anything is sent, for
     * results holding a lone surrogate anywhere (output text, blocks, names, metadata:
     * stored with the reply, agentscope 2.0.11 then answers 500 on the session's
     * `GET /messages` for good) or a data block whose URL source is not http(s) (the
     * service would read a `file:` URL from its own disk and hand it to the model); or the
     * transport's `MsgError`.
     */
    submitExternal(results: ExternalResult | readonly ExternalResult[]): Promise<void>;
    /**
     * Stops the reply in flight (the service's interrupt): it ends with `finished_reason`
     * `"interrupted"` and keeps what it had. A reply parked on a call waiting for an answer
     * may stay parked (agentscope 2.0.11 ends it or leaves it waiting, by timing): status
     * `awaiting_input` again, answer the call. Works from the moment `send()` was called:
     * while its `POST /chat/` is still on its way, the interrupt waits for it (an interrupt
     * that reached an idle service first would be lost, and the turn would run whole); a
     * turn whose reply had not started is dropped by the service and goes quietly (not
     * stored, no error). Status `stopping` until the reply ends. Does nothing when no reply
     * is in flight (the service answers an idle interrupt with a stray `REPLY_START`).
     * Rejects with the transport's `MsgError` (then the status is what it was).
     */
    stop(): Promise<void>;
    /**
     * Renames the session (`PATCH /sessions/{sid}` with `name`; it turns the service's
     * auto-naming off), then reloads `session`. Rejects with `busy` while a run holds the
     * session (409), `invalid_argument` for an empty name, a name with a lone surrogate
     * (nothing is sent: stored, it makes agentscope 2.0.11 answer 500 on `GET /sessions/`
     * for good) or a transport without `request`.
     */
    rename(name: string): Promise<void>;
    /**
     * Sets the session's permission mode (`PATCH /sessions/{sid}` with `permission_mode`:
     * `default`, `accept_edits`, `explore`, `bypass`, `dont_ask`), then reloads `session`
     * and `state` (the service streams no event for it). Rejects as {@link Chat.rename}.
     */
    setPermissionMode(mode: PermissionMode): Promise<void>;
    /** After status `error` from a lost service: tries the stream again (resets the attempts). */
    reconnect(): void;
    /** Ends the stream, stops the timers and frees the wasm memory; the last snapshot (status `closed`) stays readable. */
    close(): void;
    /** `using chat = await Chat.open(...)` closes it at the end of the scope. */
    [Symbol.dispose](): void;
}
/** The tool result of a call in a message list (a `tool_result` block with the call's id), or undefined. */
export declare function toolResultOf(messages: readonly MsgJSON[], call: ToolCallBlock): Extract<ContentBlock, {
    type: "tool_result";
}> | undefined;
export type { PendingAction } from "./session.js";
export { MsgError } from "./errors.js";
export { blockKey, pendingActions, parseToolInput } from "./session.js";
export * from "./sessions.js";
export * from "./transport.js";
export type { ChatPendingAction, McpProgress } from "./app-state.js";
