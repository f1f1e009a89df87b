import { MsgError } from "./errors.js";
import type { AgentEvent } from "./event.js";
import type { Msg, ContentBlockInput, MsgJSON } from "./message.js";
import type { SessionState, SessionView } from "./sessions.js";
import type { ChatPendingAction, McpProgress } from "./app-state.js";
/**
 * Where the reply of a {@link Chat} is, whatever the event stream's connection does (see
 * {@link ChatConnection}): `ready` (idle: a message may be sent), `submitted` (an input is
 * being posted or was posted, its reply has not started), `streaming` (a reply is in
 * flight, also while the stream reconnects), `stopping` (from `stop()` until the reply
 * ends, the service drops the turn, or a parked reply is found still parked),
 * `awaiting_input` (a tool call waits for a
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
 * `open` (events come: on this chat's own stream, or relayed by the chat of another tab
 * that holds the session's one stream, see `shareStream`), `reconnecting` (it dropped,
 * stalled or was refused: reconnecting with backoff, `error` says why), `idle` (the session
 * is at rest and no stream is held, see `idleStreamMs`: the chat asks the service's status
 * every `statusPollMs` and connects again, from where it was, as soon as anything runs),
 * `lost` (the attempts ran out, or the session does not exist: `reconnect()` tries again),
 * `closed`.
 */
export type ChatConnection = "connecting" | "open" | "reconnecting" | "idle" | "lost" | "closed";
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
    /**
     * A `REPLY_END` the stream never brought (the reply ended while the stream was stalled,
     * refused or reconnecting past it), made from the stored reply when the history shows
     * it ended: `reply_id`, `session_id`, `finished_reason`, `error`, `created_at` (the
     * reply's `finished_at`), no `id`. Passed once per end; false for any other event.
     */
    readonly rebuilt: boolean;
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
    /**
     * How long the session stays at rest (nothing posted, streaming or stopping, no run the
     * service or another tab said runs) before its event stream is closed (connection
     * `idle`); ms. The chat then asks the service's status every `statusPollMs` and opens
     * the stream again (from the latest page's `event_cursor`: the service replays what it
     * missed) before its own `send` / `confirm` / `submitExternal` / `stop`, when the status
     * says the session runs, or when another tab of the page's origin says it sent. A
     * browser keeps at most 6 HTTP/1.1 connections per host: a stream held by every open chat
     * would leave none for their requests. Default 2,000 where `BroadcastChannel` and
     * `navigator.locks` exist (a browser page), Infinity (the stream is always held)
     * elsewhere; Infinity keeps it.
     */
    idleStreamMs?: number;
    /**
     * Whether the chats of one session in the tabs of one origin share one event stream
     * (default: true where `BroadcastChannel` and `navigator.locks` exist and the transport
     * has `streamKey`): the chat holding the session's Web Lock streams and relays each
     * frame on a `BroadcastChannel` to the others, which take them in as their own stream's;
     * when it closes (or its tab goes) the lock passes to the next chat that needs the
     * stream, which connects from its own cursor. false: every chat holds its own stream.
     */
    shareStream?: boolean;
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
/** The options as the chat uses them: checked, defaults filled in. */
export type Settings = Required<Pick<ChatOptions, "stallMs" | "throttleMs" | "busyWaitMs" | "statusPollMs" | "lostRunMs" | "idleStreamMs" | "shareStream">> & ChatOptions;
/** Whether this runtime shares tabs' streams (a page: `BroadcastChannel`, `navigator.locks` and a `document`), the defaults of `idleStreamMs` and `shareStream`. */
export declare function tabsShare(): boolean;
/** The reconnect backoff (`ChatOptions.retry`), defaults filled in. */
export type Retry = {
    initialMs: number;
    maxMs: number;
    attempts: number;
};
/** The options checked and defaulted; `invalid_argument` for a bad one. */
export declare function normalizeOptions(options: ChatOptions): [Settings, Retry];
export {};
