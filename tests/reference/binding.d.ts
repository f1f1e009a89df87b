import { Chat, type AgentScopeTransportOptions, type ChatOptions, type ChatSnapshot, type ChatTransport } from "./chat.js";
import { MsgError } from "./errors.js";
import { SessionsClient, type SessionView } from "./sessions.js";
/** The options of a bound chat (the React hook's `UseChatOptions`, as plain values): the chat's, and where the service is. */
export interface ChatBindingOptions extends Omit<ChatOptions, "sessionId">, Partial<Pick<AgentScopeTransportOptions, "userId" | "agentId" | "fetch" | "headers" | "session">> {
    /**
     * Resume this session; `null`: open nothing (status `closed`); absent: a new chat,
     * `ready` at once with no request, whose first `send` / `post` of messages creates its
     * session (`createSession`), opens it and sends.
     */
    sessionId?: string | null;
    /** The service's base URL, or the instances of one service (failover). */
    baseUrl?: string | readonly string[];
    /** A transport of one's own instead of `baseUrl` / `userId` / `agentId`. */
    transport?: ChatTransport;
}
/** What a bound chat shows: the chat's snapshot, its session id, `hasMore` and the chat once open. */
export interface ChatView extends ChatSnapshot {
    /**
     * The session id: the `sessionId` given, from the first view on (connecting, or an open
     * that failed); for a new chat (no `sessionId`), null until its first send has created
     * and opened its session, then that session's id.
     */
    readonly sessionId: string | null;
    /** Whether older stored messages exist (`Chat.hasMore`). */
    readonly hasMore: boolean;
    /** The chat itself, once open (null before). */
    readonly chat: Chat | null;
}
/** The values of a chat's view that the Vue and Angular bindings give one reactive value each (`chat` aside). */
export declare const VIEW_KEYS: readonly ["messages", "status", "connection", "error", "pendingActions", "state", "session", "progress", "partial", "sessionId", "hasMore"];
/** `{ messages: make("messages"), …, hasMore: make("hasMore") }`: one value per key of {@link VIEW_KEYS}. */
export declare function perViewKey<R>(make: (key: (typeof VIEW_KEYS)[number]) => R): Record<(typeof VIEW_KEYS)[number], R>;
/**
 * The actions of a bound chat: the `Chat`'s, each waiting for the open (rejecting `closed`
 * with `sessionId: null` or once closed). On a new chat whose session is not made yet,
 * `send` (and `post` of messages) makes it; `stop` does nothing, `loadOlder` resolves
 * false, and `confirm`, `submitExternal` and `post` of an answer reject `invalid_argument`
 * (no call waits), all with no request.
 */
export type ChatActions = Pick<Chat, "send" | "post" | "stop" | "confirm" | "submitExternal" | "loadOlder">;
/**
 * The six actions, each forwarded to the actions `target` gives when it is called (the
 * chat once open, the binding's current handle): what every binding returns.
 */
export declare function forwardActions(target: () => ChatActions | Promise<ChatActions>): ChatActions;
/** A bound chat: its view now, its actions, and `close`. */
export interface ChatHandle extends ChatActions {
    view(): ChatView;
    close(): void;
}
/**
 * The view of a chat before it opens: `closed` for `sessionId` null, `ready` with no
 * session for no `sessionId` (a new chat: its first send makes the session), else
 * `connecting`, with the `sessionId` given (an app that mirrors it into the URL keeps the
 * session).
 */
export declare function openingView(sessionId: string | null | undefined): ChatView;
/**
 * Whether a chat showing `view` is the chat of `sessionId`: open on that session, or
 * opening (or failed to open) with that id given. A change of the `sessionId` option to
 * it keeps the chat (an app that passes back the id of the session the chat created).
 */
export declare function isChatOf(view: ChatView, sessionId: string | null | undefined): boolean;
/**
 * Opens a chat now on the `sessionId` given (nothing for null) and calls `onChange` with
 * each new view (throttled by the chat: `throttleMs`, 16 ms unless given). With no
 * `sessionId` it asks nothing: the view is `ready` with no session until the first `send`
 * (or `post` of messages), which creates the session (one for sends racing it), shows the
 * message, opens the chat on the session and sends; the page's session lists hear of it.
 * A failed create or open rejects that send and leaves the chat new (`ready`, `error` set):
 * a later send tries again (on the session made, if the create got through). `latest`
 * gives the options whose `onError` / `onFinish` / `onEvent` are called (default:
 * `options`). `deferred`: the open waits a macrotask, and a `close` before then opens
 * nothing (React StrictMode's dev-only unmount and remount: one session, one stream, one
 * history load per mount).
 */
export declare function bindChat(options: ChatBindingOptions, onChange: (view: ChatView) => void, latest?: () => ChatBindingOptions, deferred?: boolean): ChatHandle;
/** The options of a bound session list (the React hook's `UseSessionsOptions`): the transport's. */
export interface SessionsBindingOptions extends Pick<AgentScopeTransportOptions, "userId" | "agentId" | "fetch" | "headers" | "session"> {
    /** The service's base URL, or several (the instances of one service). */
    baseUrl: string | readonly string[];
}
/** What a bound session list shows: the sessions as last listed, whether a list is in flight, and why the last failed. */
export interface SessionsView {
    readonly sessions: readonly SessionView[];
    readonly loading: boolean;
    readonly error: MsgError | null;
}
/** The actions of a bound session list: `SessionsClient`'s, each listing again and resolving once the new list is shown. */
export interface SessionsActions extends Pick<SessionsClient, "create" | "rename" | "remove" | "setPermissionMode"> {
    refresh: () => Promise<void>;
}
/** The five session-list actions, each forwarded to the handle `target` gives when it is called (the binding's current one). */
export declare function forwardSessionsActions(target: () => SessionsActions | Promise<SessionsActions>): SessionsActions;
/** A bound session list. */
export interface SessionsHandle extends SessionsActions {
    view(): SessionsView;
    /** The client (null for invalid options). */
    readonly client: SessionsClient | null;
    /**
     * Makes the list one of the page's (it lists again when a chat or another list of the
     * same service changes a session); returns the undo. Done by `bindSessions` itself unless
     * `listNow` is false (React: from an effect, so that a list made in a render React
     * throws away, or unmounted, hears nothing).
     */
    share(): () => void;
    close(): void;
}
/** A key of the options by value (`fetch` aside): equal keys keep the client. */
export declare function sessionsKey(o: SessionsBindingOptions): string;
/** Calls `f` after a macrotask, unless the returned cancel comes first (StrictMode's dev-only unmount). */
export declare function defer(f: () => void): () => void;
/**
 * Makes a client for `options` and lists the sessions now, one of the page's lists (`listNow`
 * false: at the first `refresh`, still `loading` until then, and shared by `share()`);
 * `onChange` gets each new view.
 */
export declare function bindSessions(options: SessionsBindingOptions, onChange: (view: SessionsView) => void, listNow?: boolean): SessionsHandle;
