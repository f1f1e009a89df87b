import { Injector, type Signal } from "@angular/core";
import { type ChatActions, type ChatBindingOptions, type ChatView, type SessionsActions, type SessionsBindingOptions, type SessionsView } from "./binding.js";
import type { Chat } from "./chat.js";
import type { SessionsClient } from "./sessions.js";
export type { ChatActions, ChatBindingOptions, ChatView, SessionsActions, SessionsBindingOptions, SessionsView } from "./binding.js";
/** A value, or a signal (any function) giving it: read again whenever it changes. */
export type ValueOrSignal<T> = T | (() => T);
/** Where {@link injectChat} and {@link injectSessions} run: the current injection context unless `injector` is given. */
export interface InjectOptions {
    /** Runs outside an injection context with this injector (its `DestroyRef` closes the chat). */
    injector?: Injector;
}
/**
 * Options of {@link injectChat}: the React hook's; `sessionId`, `baseUrl`, `userId`,
 * `agentId` and `transport` may be signals (a new value opens a new chat).
 */
export interface InjectChatOptions extends Omit<ChatBindingOptions, "sessionId" | "baseUrl" | "userId" | "agentId" | "transport">, InjectOptions {
    sessionId?: ValueOrSignal<string | null | undefined>;
    baseUrl?: ValueOrSignal<string | readonly string[] | undefined>;
    userId?: ValueOrSignal<string | undefined>;
    agentId?: ValueOrSignal<string | undefined>;
    transport?: ValueOrSignal<ChatBindingOptions["transport"]>;
}
type Signals<T> = {
    readonly [K in keyof T]: Signal<T[K]>;
};
/** What {@link injectChat} returns: a signal per value of the React hook's result, and its actions. */
export interface InjectChatResult extends Signals<Omit<ChatView, "chat">>, ChatActions {
    /** The chat itself, once open. */
    chat: Signal<Chat | null>;
}
/**
 * A chat with an AgentScope 2.0 service (see `Chat`), for a component's field initialiser:
 * opens it at the first change detection (`sessionId`; with none, a new chat whose first
 * `send` creates the session; the component's
 * inputs are set by then: status `connecting` until, with the `sessionId` given once it
 * can be read), updates its signals at most once per
 * `throttleMs` (16 ms unless given), opens a new chat when a signal option changes
 * (`sessionId` null: nothing open, status `closed`; the id of the chat shown keeps it:
 * the session it created, passed back), and closes it when the injection
 * context is destroyed. The actions wait for the open. Outside an injection context
 * without `injector`: Angular's NG0203; in a reactive context: NG0602.
 */
export declare function injectChat(options: InjectChatOptions): InjectChatResult;
/** What {@link injectSessions} returns: signals of the list and the client, and its actions. */
export interface InjectSessionsResult extends Signals<SessionsView>, SessionsActions {
    /** The client (null for invalid options). */
    client: Signal<SessionsClient | null>;
}
/**
 * The sessions of one agent (see the React hook `useSessions`): lists them now and after
 * each action; options given as a signal are compared by value (`fetch` aside) and new ones
 * make a new client and list again. Loads no `.wasm`.
 */
export declare function injectSessions(options: ValueOrSignal<SessionsBindingOptions>, how?: InjectOptions): InjectSessionsResult;
