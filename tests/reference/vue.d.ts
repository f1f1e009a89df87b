import { type ComputedRef, type MaybeRefOrGetter, type ShallowRef } from "vue";
import { type ChatActions, type ChatBindingOptions, type ChatView, type SessionsActions, type SessionsBindingOptions, type SessionsView } from "./binding.js";
import type { Chat } from "./chat.js";
import type { SessionsClient } from "./sessions.js";
export type { ChatActions, ChatBindingOptions, ChatView, SessionsActions, SessionsBindingOptions, SessionsView } from "./binding.js";
/**
 * Options of {@link useChat}: the React hook's; `sessionId`, `baseUrl`, `userId`,
 * `agentId` and `transport` may be refs or getters (a new value opens a new chat).
 */
export interface UseChatOptions extends Omit<ChatBindingOptions, "sessionId" | "baseUrl" | "userId" | "agentId" | "transport"> {
    sessionId?: MaybeRefOrGetter<string | null | undefined>;
    baseUrl?: MaybeRefOrGetter<string | readonly string[] | undefined>;
    userId?: MaybeRefOrGetter<string | undefined>;
    agentId?: MaybeRefOrGetter<string | undefined>;
    transport?: MaybeRefOrGetter<ChatBindingOptions["transport"]>;
}
type Refs<T> = {
    readonly [K in keyof T]: ComputedRef<T[K]>;
};
/** What {@link useChat} returns: a ref per value of the React hook's result, and its actions. */
export interface UseChatResult extends Refs<Omit<ChatView, "chat">>, ChatActions {
    /** The chat itself, once open (raw: call its methods directly). */
    chat: Readonly<ShallowRef<Chat | null>>;
}
/**
 * A chat with an AgentScope 2.0 service (see `Chat`), for a component's `setup`: opens it
 * now (`sessionId`; with none, a new chat whose first `send` creates the session), updates its refs at most once per `throttleMs`
 * (16 ms unless given), opens a new chat when a reactive option changes (`sessionId`
 * null: nothing open, status `closed`; the id of the chat shown keeps it), and closes it
 * when the scope is disposed.
 */
export declare function useChat(options: UseChatOptions): UseChatResult;
/** What {@link useSessions} returns: refs of the list, the client, and its actions. */
export interface UseSessionsResult extends Refs<SessionsView>, SessionsActions {
    /** The client (null for invalid options). */
    client: Readonly<ShallowRef<SessionsClient | null>>;
}
/**
 * The sessions of one agent (see the React hook `useSessions`): lists them now and after
 * each action; options given as a ref or getter are compared by value (`fetch` aside) and
 * new ones make a new client and list again. Loads no `.wasm`.
 */
export declare function useSessions(options: MaybeRefOrGetter<SessionsBindingOptions>): UseSessionsResult;
