import type { AgentEvent } from "./event.js";
import { MsgError } from "./errors.js";
import { Msg, type ContentBlock, type ContentBlockInput, type MsgJSON, type ToolCallBlock } from "./message.js";
import { type Diagnostic, type PendingAction } from "./session.js";
import { type PermissionMode, type SessionState, type SessionView } from "./sessions.js";
type EventOf<T extends string> = Extract<AgentEvent, {
    type: T;
}>;
/** The `USER_CONFIRM_RESULT` event `confirm` posts. */
export type UserConfirmResultInput = EventOf<"USER_CONFIRM_RESULT">;
/** The `EXTERNAL_EXECUTION_RESULT` event `submitExternal` posts. */
export type ExternalExecutionResultInput = EventOf<"EXTERNAL_EXECUTION_RESULT">;
/** What `POST /chat/` takes as `input`: user message(s), a human-in-the-loop answer, or null. */
export type ChatInput = MsgJSON | readonly MsgJSON[] | UserConfirmResultInput | ExternalExecutionResultInput | null;
/** The service's session status (`GET /sessions/{sid}/status`). */
export type ServiceStatus = "running" | "idle" | "awaiting_permission" | "awaiting_external_result";
/** One page of stored history (`GET /sessions/{sid}/messages`). */
export interface HistoryPage {
    /** Stored messages, oldest first. */
    readonly messages: readonly MsgJSON[];
    /** The replay cursor: the latest event these messages already hold (`after` of the stream), or null. */
    readonly eventCursor: string | null;
    /** Whether a run holds the session now. */
    readonly isRunning: boolean;
    /** Whether older messages exist (load them with `before`: the oldest id of this page). */
    readonly hasMore: boolean;
}
/**
 * How a {@link Chat} talks to a service. {@link AgentScopeTransport} speaks the AgentScope
 * 2.0 app API; a custom one (another auth, a proxy) implements the same six calls (and
 * `failover`, optional). Calls reject with `MsgError`: `busy` (HTTP 409), `http_error`
 * (another status; `status` set), `service_unavailable` (the request did not reach the
 * service, or its connection failed before an answer: then it may have been applied; with
 * `cause` `"timeout"` when it got no answer in time and may still be on its way, so that
 * `Chat` never sends it again).
 */
export interface ChatTransport {
    /** Creates a session; resolves its id (`POST /sessions/`). */
    createSession(options?: {
        signal?: AbortSignal;
    }): Promise<string>;
    /** A page of stored messages, the latest without `before` (`GET /sessions/{sid}/messages`). */
    history(sessionId: string, options?: {
        before?: string;
        signal?: AbortSignal;
    }): Promise<HistoryPage>;
    /** Opens the session's event stream (SSE), replaying after `after` (`GET /sessions/{sid}/stream`). */
    stream(sessionId: string, options: {
        after: string | null;
        signal: AbortSignal;
    }): Promise<Response>;
    /** Starts a run with `input`; resolves once scheduled (`POST /chat/`). */
    chat(sessionId: string, input: ChatInput, options?: {
        signal?: AbortSignal;
    }): Promise<void>;
    /** Asks the run to stop (`POST /sessions/{sid}/interrupt`). */
    interrupt(sessionId: string, options?: {
        signal?: AbortSignal;
    }): Promise<void>;
    /** The session's status (`GET /sessions/{sid}/status`). */
    status(sessionId: string, options?: {
        signal?: AbortSignal;
    }): Promise<ServiceStatus>;
    /**
     * Optional. The chat calls it when the event stream dropped, stalled or could not be
     * opened, and when a `chat` call failed with `service_unavailable`, before it tries
     * again: a transport over several instances of one service moves to the next.
     */
    failover?(): void;
}
/** Options of {@link AgentScopeTransport}. */
export interface AgentScopeTransportOptions {
    /**
     * The service's base URL, e.g. `http://127.0.0.1:8000` (a path prefix is kept); in a page
     * also a path such as `/api` (read against the page's URL). Or several: the instances of
     * one service on one Redis (agentscope's `RedisStorage` and `RedisMessageBus`). Requests
     * go to one of them; see {@link AgentScopeTransport} for when the next one is tried.
     */
    baseUrl: string | URL | readonly (string | URL)[];
    /** Sent as `X-User-ID` with every request. */
    userId: string;
    /** The agent the sessions belong to. */
    agentId: string;
    /** The `fetch` to use (default: the global one). */
    fetch?: typeof fetch;
    /** More headers for every request (e.g. an `Authorization` a proxy checks). */
    headers?: Record<string, string>;
    /**
     * A request with no answer (its headers) for this long is given up, as a failed
     * connection (a hung instance); ms, default 15,000; Infinity: never. Not the event
     * stream: the chat watches it (`stallMs`; a proxy may hold an idle stream's headers
     * until the first heartbeat).
     */
    timeoutMs?: number;
    /**
     * More fields of the `POST /sessions/` body of a new session, e.g. its
     * `chat_model_config` (`{type, credential_id, model, parameters}`: the model is a setting
     * of the session, not of the agent, in agentscope 2.0.11) or `name`.
     */
    session?: Record<string, unknown>;
}
/**
 * The AgentScope 2.0 app API (agentscope 2.0.11 `create_app`) over `fetch`: `POST
 * /sessions/`, `GET /sessions/{sid}/messages`, `GET /sessions/{sid}/stream`, `POST /chat/`,
 * `POST /sessions/{sid}/interrupt`, `GET /sessions/{sid}/status`, each with the
 * `X-User-ID` header and `agent_id`.
 *
 * Several base URLs (instances of one service): every request goes to the current one.
 * A request that could not connect (connection refused, no such host, connect timeout:
 * it was never sent) is sent to the next instance at once, each instance tried once;
 * the reads, the interrupt (which the service treats as idempotent) and `POST /sessions/`
 * (at worst an unused empty session is left) are also tried on the next after any failed
 * connection or an HTTP 502 / 503 / 504. A `POST /chat/` whose connection broke after the
 * request went out is not repeated here (it may have been applied: in a browser, whose
 * "Failed to fetch" never says which, also a refused one): it rejects with
 * `service_unavailable`, and `Chat` asks the service before it sends again.
 * `failover()` moves to the next instance.
 */
export declare class AgentScopeTransport implements ChatTransport {
    #private;
    /** Throws `MsgError` (`invalid_argument`) for a missing option or a base URL that is not a URL. */
    constructor(options: AgentScopeTransportOptions);
    /** The agent the sessions belong to. */
    get agentId(): string;
    /** The instance the next request goes to (its base URL, without a trailing slash). */
    get baseUrl(): string;
    /** Every instance's base URL, in the order they are tried. */
    get baseUrls(): readonly string[];
    /** The next requests go to the next instance (the first after the last); one instance: nothing changes. */
    failover(): void;
    /**
     * One request to the service at `path` (e.g. `/sessions/`), with the `X-User-ID` header,
     * `query` (absent values left out) and a JSON `body`; resolves the `Response` of a 2xx.
     * `retry` says when it goes to the next instance: `"unsent"` (the default) only when the
     * connection was never made, `"any"` also after a broken connection or a 502/503/504
     * (for requests safe to repeat). Rejects with `MsgError`: `busy` (409), `http_error`
     * (another status, `status` set; `message` has the service's `detail`),
     * `service_unavailable`.
     */
    request(method: string, path: string, options?: {
        query?: Record<string, string | null | undefined>;
        body?: unknown;
        signal?: AbortSignal;
        retry?: "unsent" | "any";
    }): Promise<Response>;
    createSession(options?: {
        signal?: AbortSignal;
    }): Promise<string>;
    history(sessionId: string, options?: {
        before?: string;
        signal?: AbortSignal;
    }): Promise<HistoryPage>;
    stream(sessionId: string, options: {
        after: string | null;
        signal: AbortSignal;
    }): Promise<Response>;
    chat(sessionId: string, input: ChatInput, options?: {
        signal?: AbortSignal;
    }): Promise<void>;
    interrupt(sessionId: string, options?: {
        signal?: AbortSignal;
    }): Promise<void>;
    status(sessionId: string, options?: {
        signal?: AbortSignal;
    }): Promise<ServiceStatus>;
}
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
/**
 * A tool call waiting for an answer: the session's own ({@link PendingAction}), or with
 * `worker` a team worker's, which the service projects onto the leader's stream as `CUSTOM
 * subagent_require_user_confirm` (`replyId` is then the worker's reply; `confirm` /
 * `submitExternal` answer it through the leader session, where the service expects it,
 * and `CUSTOM subagent_user_confirm_result` clears it). A worker's call does not change
 * the leader's `status`.
 */
export interface ChatPendingAction extends PendingAction {
    /** The team worker asking (absent for the session's own calls). */
    readonly worker?: {
        readonly sessionId: string;
        readonly agentId: string;
        readonly agentName: string;
    };
}
/** The value of a `CUSTOM mcp_progress` event: an MCP tool's progress notification. */
export interface McpProgress {
    readonly progress: number;
    readonly total: number | null;
    readonly message: string | null;
    readonly reply_id: string;
    readonly tool_call_id: string;
    readonly [key: string]: unknown;
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
     * ms, default 120,000; Infinity: never.
     */
    lostRunMs?: number;
    /** Speaker name of user turns sent as text (default `"user"`). */
    userName?: string;
    /** Called with errors nobody awaits: a refused event, a lost connection, a listener that threw. */
    onError?: (error: unknown) => void;
    /** Called with each reply once its `REPLY_END` arrived. */
    onFinish?: (message: MsgJSON) => void;
    /**
     * Called with every event of the session's stream, of every type (`CUSTOM` included:
     * `session_updated`, `state_updated`, `team_updated`, `subagent_require_user_confirm`,
     * `mcp_progress`, …; see docs/chat.md), once per event `id` across reconnects and
     * replays, in stream order, after the reducer applied it (the snapshot already holds
     * it). The events the chat makes up itself (to open a reply it joined mid-way) are not
     * passed. A listener that throws is reported to `onError`.
     */
    onEvent?: (event: AgentEvent) => void;
}
/**
 * What `Chat.send` takes: text; the blocks of a user message (text and data blocks); the
 * content and metadata of one; or a whole user message.
 */
export type SendInput = string | readonly ContentBlockInput[] | {
    readonly content: string | readonly ContentBlockInput[];
    readonly metadata?: Record<string, unknown>;
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
     * for an unknown session, `service_unavailable`, `invalid_argument`).
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
     * back); `invalid_argument` for text with a lone surrogate, and the model's errors for a
     * message the reference refuses (`invalid_msg`, `role_violation` for a block a user
     * message may not hold, …).
     */
    send(input: SendInput): Promise<void>;
    /**
     * Posts any input `POST /chat/` takes (`ChatInput`), with `send`'s rules: user
     * message(s) as `send` (shown at once, never applied twice; each checked as a `Msg`), a
     * `USER_CONFIRM_RESULT` or `EXTERNAL_EXECUTION_RESULT` as `confirm` / `submitExternal`
     * (its calls must be waiting: `invalid_argument` otherwise, since answering a call that
     * does not wait parks the service). Rejects as those do; `invalid_argument` for
     * anything else (null included: it starts nothing the chat could follow).
     */
    post(input: ChatInput): Promise<void>;
    /**
     * Answers a tool call waiting for a confirmation (`REQUIRE_USER_CONFIRM`): the reply
     * continues (the call runs, or ends `denied`). A team worker's call (`worker` set in
     * `pendingActions`) is answered the same way, through this session. `rules`: permission rules to remember
     * (e.g. the call's `suggested_rules`, "always allow"). Rejects with `invalid_argument`
     * when that call is not waiting (answering twice would park the service), or the
     * transport's `MsgError`.
     */
    confirm(toolCallId: string, confirmed: boolean, options?: {
        rules?: readonly unknown[] | null;
    }): Promise<void>;
    /**
     * Answers tool calls waiting for an external executor (`REQUIRE_EXTERNAL_EXECUTION`,
     * e.g. an AskUser tool) with their results; the reply continues. Rejects with
     * `invalid_argument` for a call that is not waiting, or the transport's `MsgError`.
     */
    submitExternal(results: ExternalResult | readonly ExternalResult[]): Promise<void>;
    /**
     * Stops the reply in flight (the service's interrupt): it ends with `finished_reason`
     * `"interrupted"` and keeps what it had; a reply waiting for an answer ends so too (its
     * waiting calls get an `interrupted` result). Works from the moment `send()` was called:
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
     * session (409), `invalid_argument` for an empty name or a transport without `request`.
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
export * from "./sessions.js";
