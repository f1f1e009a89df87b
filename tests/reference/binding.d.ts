import { Chat, type ChatInput, type ChatOptions, type ChatSnapshot, type ChatTransport, type ExternalResult, type SendInput } from "./chat.js";
import { MsgError } from "./errors.js";
import { SessionsClient, type CreateSessionOptions, type PermissionMode, type SessionRecord, type SessionView } from "./sessions.js";
/** The options of a bound chat (the React hook's `UseChatOptions`, as plain values). */
export interface ChatBindingOptions extends Omit<ChatOptions, "sessionId"> {
    /** Resume this session; `null`: open nothing (status `closed`); absent: a new session. */
    sessionId?: string | null;
    /** The service's base URL, or the instances of one service (failover). */
    baseUrl?: string | readonly string[];
    /** Sent as `X-User-ID`. */
    userId?: string;
    /** The agent. */
    agentId?: string;
    /** A transport of one's own instead of `baseUrl` / `userId` / `agentId`. */
    transport?: ChatTransport;
    /** The `fetch` of the default transport. */
    fetch?: typeof fetch;
    /** More fields of `POST /sessions/` for a new session, for the default transport. */
    session?: Record<string, unknown>;
}
/** What a bound chat shows: the chat's snapshot, its session id, `hasMore` and the chat once open. */
export interface ChatView extends ChatSnapshot {
    /** The session id, once the chat is open. */
    readonly sessionId: string | null;
    /** Whether older stored messages exist (`Chat.hasMore`). */
    readonly hasMore: boolean;
    /** The chat itself, once open (null before). */
    readonly chat: Chat | null;
}
/** The actions of a bound chat: the `Chat`'s, each waiting for the open (rejecting `closed` with `sessionId: null` or once closed). */
export interface ChatActions {
    send: (input: SendInput) => Promise<void>;
    post: (input: ChatInput) => Promise<void>;
    stop: () => Promise<void>;
    confirm: (toolCallId: string, confirmed: boolean, options?: {
        rules?: readonly unknown[] | null;
    }) => Promise<void>;
    submitExternal: (results: ExternalResult | readonly ExternalResult[]) => Promise<void>;
    loadOlder: () => Promise<boolean>;
}
/** A bound chat: its view now, its actions, and `close`. */
export interface ChatHandle extends ChatActions {
    view(): ChatView;
    close(): void;
}
/**
 * Opens a chat now (unless `sessionId` is null) and calls `onChange` with each new view
 * (throttled by the chat: `throttleMs`, 16 ms unless given). `latest` gives the options
 * whose `onError` / `onFinish` / `onEvent` are called (default: `options`).
 */
export declare function bindChat(options: ChatBindingOptions, onChange: (view: ChatView) => void, latest?: () => ChatBindingOptions): ChatHandle;
/** The options of a bound session list (the React hook's `UseSessionsOptions`). */
export interface SessionsBindingOptions {
    /** The service's base URL, or several (the instances of one service). */
    baseUrl: string | readonly string[];
    /** Sent as `X-User-ID`. */
    userId: string;
    /** The agent whose sessions are listed. */
    agentId: string;
    /** The `fetch` to use. */
    fetch?: typeof fetch;
    /** More headers for every request. */
    headers?: Record<string, string>;
    /** Fields of every `POST /sessions/` body, e.g. `{chat_model_config}`. */
    session?: Record<string, unknown>;
}
/** What a bound session list shows. */
export interface SessionsView {
    /** The agent's sessions as last listed; empty before the first list. */
    readonly sessions: readonly SessionView[];
    /** Whether a list request is in flight (true until the first list arrives). */
    readonly loading: boolean;
    /** Why the last list request (or the options: `invalid_argument`) failed, or null. */
    readonly error: MsgError | null;
}
/** The actions of a bound session list; each action lists again and resolves once the new list is shown. */
export interface SessionsActions {
    refresh: () => Promise<void>;
    create: (options?: CreateSessionOptions) => Promise<string>;
    rename: (sessionId: string, name: string) => Promise<SessionRecord>;
    remove: (sessionId: string) => Promise<void>;
    setPermissionMode: (sessionId: string, mode: PermissionMode) => Promise<SessionRecord>;
}
/** A bound session list. */
export interface SessionsHandle extends SessionsActions {
    view(): SessionsView;
    /** The client (null for invalid options). */
    readonly client: SessionsClient | null;
    close(): void;
}
/** A key of the options by value (`fetch` aside): equal keys keep the client. */
export declare function sessionsKey(o: SessionsBindingOptions): string;
/** Makes a client for `options` and lists the sessions now; `onChange` gets each new view. */
export declare function bindSessions(options: SessionsBindingOptions, onChange: (view: SessionsView) => void): SessionsHandle;
