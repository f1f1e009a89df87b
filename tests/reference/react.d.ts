import { Chat, type ChatInput, type ChatOptions, type ChatSnapshot, type ChatTransport, type ExternalResult, type SendInput } from "./chat.js";
import { MsgError } from "./errors.js";
import type { MsgJSON } from "./message.js";
import { Session, type ReadOptions, type SessionOptions, type SessionSnapshot } from "./session.js";
/**
 * The session's current snapshot; the component re-renders when a `feed` / `end` /
 * `apply` changed a message (`useSyncExternalStore` over `session.subscribe` and
 * `session.getSnapshot`). With `null`, an empty snapshot.
 */
export declare function useSession(session: Session | null): SessionSnapshot;
/** Options of {@link useEventStream}: the session's, the request's, and `onError`. */
export interface EventStreamOptions extends SessionOptions {
    /** Passed to `fetch` (method, headers, body, …); its `signal` is replaced. */
    init?: RequestInit;
    /** Called with each refused event; without it the first one ends the stream with `error`. */
    onError?: ReadOptions["onError"];
}
/** What {@link useEventStream} returns. */
export interface EventStreamState {
    /** The messages so far (after a stop, what had arrived). */
    snapshot: SessionSnapshot;
    /** The session reading the stream (null before the first request). */
    session: Session | null;
    /** Why the stream stopped early (an HTTP error, a network error, a refused event), or null. */
    error: unknown;
    /** Whether the stream ended (completely, with `error`, or stopped with `null`). */
    done: boolean;
}
/**
 * Streams `url` (SSE, JSON Lines or a JSON array of AgentScope events) into a new
 * `Session` and re-renders as messages change. A new URL starts a new session (the old
 * request is aborted, its session freed). `null` stops the request and keeps what had
 * arrived (`done` true); a later URL starts afresh. Loads the .wasm first (`init()`).
 * For a chat with an AgentScope service, {@link useChat} does all of it.
 */
export declare function useEventStream(url: string | URL | null, options?: EventStreamOptions): EventStreamState;
/** Options of {@link useChat}: where the service is (or a transport), and the chat's options. */
export interface UseChatOptions extends Omit<ChatOptions, "sessionId"> {
    /**
     * Resume this session; `null`: open nothing (status `closed`, no request: a page that
     * picks sessions from its own list shows "nothing open"); absent: a new chat, status
     * `ready` with no request, whose first `send` (or `post` of messages) creates the
     * session (`POST /sessions/`), opens it and sends (a page load makes no empty session).
     */
    sessionId?: string | null;
    /**
     * The service's base URL (with `userId` and `agentId`), for an {@link AgentScopeTransport};
     * or several, the instances of one service (failover). A new array with the same URLs
     * keeps the chat.
     */
    baseUrl?: string | readonly string[];
    /** Sent as `X-User-ID`. */
    userId?: string;
    /** The agent. */
    agentId?: string;
    /** A transport of one's own instead of `baseUrl` / `userId` / `agentId`. */
    transport?: ChatTransport;
    /** The `fetch` of the default transport. */
    fetch?: typeof fetch;
    /**
     * More headers for every request of the default transport (e.g. the `Authorization` an
     * auth proxy checks); read when the chat opens.
     */
    headers?: Record<string, string>;
    /** More fields of `POST /sessions/` for a new session (e.g. its `chat_model_config`), for the default transport. */
    session?: Record<string, unknown>;
}
/** What {@link useChat} returns. */
export interface UseChatResult {
    /** User and assistant messages in order (history, then live). */
    messages: readonly MsgJSON[];
    /** See `ChatStatus`; `connecting` until the chat is open, `closed` while `sessionId` is null; a new chat is `ready` from the first render. */
    status: ChatSnapshot["status"];
    /** See `ChatConnection`: the event stream's state (`closed` while `sessionId` is null, and on a new chat before its first send). */
    connection: ChatSnapshot["connection"];
    /** The last error, or null. */
    error: MsgError | null;
    /** Tool calls waiting for `confirm` / `submitExternal` (a team worker's with `worker` set). */
    pendingActions: ChatSnapshot["pendingActions"];
    /** The session's tasks and permission context (`ChatSnapshot.state`), or null. */
    state: ChatSnapshot["state"];
    /** The session's record from the session list (`ChatSnapshot.session`), or null. */
    session: ChatSnapshot["session"];
    /** MCP progress of running tool calls, by tool call id (`ChatSnapshot.progress`). */
    progress: ChatSnapshot["progress"];
    /** Replies joined mid-way (they show what arrived). */
    partial: readonly string[];
    /** The session id: the `sessionId` given, from the first render on; for a new chat, null until its first send has created and opened its session. */
    sessionId: string | null;
    /** The chat itself, once open (null before). */
    chat: Chat | null;
    /**
     * `Chat.send` (waits for the chat to open): text, blocks, `{content, metadata}` or a user
     * message. A new chat's first send creates its session first (rejecting with the
     * create's `MsgError`, the chat still new: a later send tries again).
     */
    send: (input: SendInput) => Promise<void>;
    /** `Chat.post`: any `POST /chat/` input, with `send`'s rules. */
    post: (input: ChatInput) => Promise<void>;
    /** `Chat.stop`. */
    stop: () => Promise<void>;
    /** `Chat.confirm`. */
    confirm: (toolCallId: string, confirmed: boolean, options?: {
        rules?: readonly unknown[] | null;
    }) => Promise<void>;
    /** `Chat.submitExternal`. */
    submitExternal: (results: ExternalResult | readonly ExternalResult[]) => Promise<void>;
    /** Whether older stored messages exist (`Chat.hasMore`). */
    hasMore: boolean;
    /** `Chat.loadOlder`: loads the page before the oldest message shown; resolves whether more remain. */
    loadOlder: () => Promise<boolean>;
}
/**
 * A chat with an AgentScope 2.0 service (see `Chat`): opens it on mount (resuming
 * `sessionId`; with none, a new chat asks nothing until its first `send` creates the
 * session), re-renders at most once per `throttleMs` (default
 * 16 ms here, about a frame; 0 for once per macrotask), closes it on unmount.
 * StrictMode-safe: the open is deferred past React's dev-only unmount and remount, so one
 * session, one stream and one POST per `send` reach the service. A new `baseUrl` / `userId` / `agentId` / `sessionId` / `transport` opens a
 * new chat (keep a `transport` of one's own stable: module scope or `useMemo`), but a
 * `sessionId` that is the id of the chat shown keeps it (the id of the session it created,
 * passed back); `sessionId` says the id given from the first render on; `onError`
 * and `onFinish` are read when called, the other options when the chat opens. A failed
 * open shows status `error` until one of those options changes. The .wasm loads on first
 * use, not on import.
 */
export declare function useChat(options: UseChatOptions): UseChatResult;
import { SessionsClient, type CreateSessionOptions, type PermissionMode, type SessionRecord, type SessionView } from "./sessions.js";
/** Options of {@link useSessions}: where the service is, whose sessions, and the fields of a new session. */
export interface UseSessionsOptions {
    /** The service's base URL, or several (the instances of one service; compared by value). */
    baseUrl: string | readonly string[];
    /** Sent as `X-User-ID`. */
    userId: string;
    /** The agent whose sessions are listed. */
    agentId: string;
    /** The `fetch` to use (read when the options change, not on every render). */
    fetch?: typeof fetch;
    /** More headers for every request (compared by value). */
    headers?: Record<string, string>;
    /** Fields of every `POST /sessions/` body, e.g. `{chat_model_config}` (compared by value). */
    session?: Record<string, unknown>;
}
/** What {@link useSessions} returns. */
export interface UseSessionsResult {
    /** The agent's sessions as the service last listed them (`GET /sessions/`), in its order; empty before the first load. */
    sessions: readonly SessionView[];
    /** Whether a list request is in flight (true from mount until the first list arrives). */
    loading: boolean;
    /** Why the last list request (or the options: `invalid_argument`) failed, or null. */
    error: MsgError | null;
    /** The client itself (null for invalid options). */
    client: SessionsClient | null;
    /** Lists the sessions again; resolves when the list is in `sessions` (never rejects: see `error`). */
    refresh: () => Promise<void>;
    /** `SessionsClient.create`, then a refresh; resolves the new session's id. */
    create: (options?: CreateSessionOptions) => Promise<string>;
    /** `SessionsClient.rename`, then a refresh. */
    rename: (sessionId: string, name: string) => Promise<SessionRecord>;
    /** `SessionsClient.remove`, then a refresh. */
    remove: (sessionId: string) => Promise<void>;
    /** `SessionsClient.setPermissionMode`, then a refresh. */
    setPermissionMode: (sessionId: string, mode: PermissionMode) => Promise<SessionRecord>;
}
/**
 * The sessions of one agent on an AgentScope 2.0 service, for a session list: loads the
 * list after mount (deferred past StrictMode's dev-only unmount and remount: one
 * `GET /sessions/` per mount, in development too), and lists again after each action
 * (`create`, `rename`, `remove`, `setPermissionMode`; each resolves once the new list is
 * in `sessions`). An action rejects with the client's `MsgError` (`busy` while a run
 * holds the session, `http_error`, `invalid_argument`, …) and leaves the list as it was.
 * New options (by value) make a new client and list again. Loads no `.wasm`.
 */
export declare function useSessions(options: UseSessionsOptions): UseSessionsResult;
