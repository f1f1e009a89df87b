import type { Readable } from "svelte/store";
import { type VIEW_KEYS, type ChatActions, type ChatBindingOptions, type ChatView, type SessionsActions, type SessionsBindingOptions, type SessionsView } from "./binding.js";
import type { SessionsClient } from "./sessions.js";
export type { ChatActions, ChatBindingOptions, ChatView, SessionsActions, SessionsBindingOptions, SessionsView } from "./binding.js";
/** Options of {@link createChat}: the React hook's; `sessionId` may be a readable store (a new id opens a new chat). */
export interface CreateChatOptions extends Omit<ChatBindingOptions, "sessionId"> {
    sessionId?: string | null | Readable<string | null | undefined>;
}
/**
 * One store per value of the chat's view (`messages`, `status`, `connection`, `error`,
 * `pendingActions`, `state`, `session`, `progress`, `partial`, `sessionId`, `hasMore`),
 * each calling its subscribers only when its value changes (`Object.is`): a reply's
 * deltas change `messages`, not `status`.
 */
export type ChatValueStores = {
    readonly [K in (typeof VIEW_KEYS)[number]]: Readable<ChatView[K]>;
};
/**
 * What {@link createChat} returns: a store of the chat's whole view (the React hook's
 * values; `$chat` changes with any of them, once per delta while a reply streams), a
 * store per value (`const { messages, status } = chat`, then `$status`: changes only when
 * the status does), its actions, and `close`.
 */
export interface ChatStore extends Readable<ChatView>, ChatValueStores, ChatActions {
    /** Closes the chat (done by itself when the component that created it is destroyed). */
    close(): void;
}
/**
 * A chat with an AgentScope 2.0 service (see `Chat`), for a component's `<script>`: opens
 * it now (`sessionId`; with none, a new chat whose first `send` creates the session), updates the store at most once per `throttleMs`
 * (16 ms unless given), closes it when the component is destroyed. `sessionId: null` opens
 * nothing (status `closed`); a `sessionId` store opens a new chat per new id (but the id
 * of the chat open keeps it: the session it created, passed back).
 */
export declare function createChat(options: CreateChatOptions): ChatStore;
/** `createChat` under the name of Svelte's store factories. */
export declare const chatStore: typeof createChat;
/** What {@link createSessions} returns: a store of the list, the client, its actions, and `close`. */
export interface SessionsStore extends Readable<SessionsView>, SessionsActions {
    /** The client (null for invalid options). */
    readonly client: SessionsClient | null;
    close(): void;
}
/** The sessions of one agent (see the React hook `useSessions`): lists them now and after each action. Loads no `.wasm`. */
export declare function createSessions(options: SessionsBindingOptions): SessionsStore;
