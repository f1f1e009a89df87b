import type { AgentEvent } from "./event.js";
import type { MsgJSON } from "./message.js";
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
 * `failover`, optional). `Chat` never gives it a session id that is not one path segment
 * (empty, `.`, `..`) nor an input with a lone surrogate or a data block's URL that is not
 * http(s). Calls reject with `MsgError`: `busy` (HTTP 409), `http_error` (another
 * status, `status` set; or an answer that is not the JSON it should be),
 * `service_unavailable` (the request did not reach the service, or its connection failed
 * before an answer: then it may have been applied; with `cause` `"timeout"` when it got
 * no answer in time and may still be on its way, so that `Chat` never sends it again).
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
     * Optional. A key naming the event stream of `sessionId` (the same key: the same
     * service, user and session, so the same events). Chats of one origin (a browser's
     * tabs) whose transports give the same key share one stream (`shareStream`); without
     * it each chat holds its own.
     */
    streamKey?(sessionId: string): string;
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
     * A request with no whole answer (its headers and its body) for this long is given up,
     * as a failed connection (a hung instance); ms, default 15,000; Infinity: never. Not the event
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
 * `X-User-ID` header and `agent_id`. Refused with `invalid_argument` before any request:
 * a session id that is not one path segment (empty, `.`, `..`), a body holding a lone
 * surrogate (stored, agentscope 2.0.11 answers 500 on its lists for good) or a data
 * block whose URL source is not http(s) (the service reads a `file:` URL from its disk).
 * An answer that is not the JSON it should be (`null`, a message that is not an object)
 * is `http_error`.
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
     * (for requests safe to repeat; with one instance, such a request is tried there once
     * more, a timed-out one aside). Rejects with `MsgError`: `invalid_argument` (nothing
     * sent) for a body with a lone surrogate or a data block's URL that is not http(s),
     * `busy` (409), `http_error` (another status, `status` set; `message` has the
     * service's `detail`), `service_unavailable`.
     */
    request(method: string, path: string, options?: {
        query?: Record<string, string | null | undefined>;
        body?: unknown;
        signal?: AbortSignal;
        retry?: "unsent" | "any";
    }): Promise<Response>;
    /** The service's instances, the user and the agent, and `sessionId`: chats with the same key share one stream (`shareStream`). */
    streamKey(sessionId: string): string;
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
 * Checks the messages of a history page as the chat reads them: each an object with a
 * string `id` and `role` and a `content` list of blocks, each block an object with a
 * string `type` (a tool call or result also a string `id`). Throws `http_error` (with
 * `status`, the answer's) for the first that is not, before anything of the page is used.
 */
export declare function checkMessages(messages: unknown, what: string, status?: number): asserts messages is MsgJSON[];
export {};
