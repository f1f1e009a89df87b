// `agentscope-message/vue`: Vue 3 composables over a `Chat` and a `SessionsClient` (vue is
// an optional peer dependency; this subpath is the only one that imports it). The chat is
// held raw (`markRaw` in a `shallowRef`): Vue's deep proxy would hide its private fields.
// Importing it does not load the .wasm: `Chat.open` does, when a component opens a chat.
import { computed, getCurrentScope, markRaw, onScopeDispose, shallowRef, toValue, watch, type ComputedRef, type MaybeRefOrGetter, type ShallowRef } from "vue";
import { bindChat, bindSessions, forwardActions, forwardSessionsActions, isChatOf, perViewKey, sessionsKey, type ChatActions, type ChatBindingOptions, type ChatHandle, type ChatView, type SessionsActions, type SessionsBindingOptions, type SessionsHandle, type SessionsView } from "./binding.js";
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

type Refs<T> = { readonly [K in keyof T]: ComputedRef<T[K]> };

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
export function useChat(options: UseChatOptions): UseChatResult {
  const view = shallowRef<ChatView>();
  const chat = shallowRef<Chat | null>(null);
  let handle: ChatHandle | undefined;
  const resolved = (): ChatBindingOptions => ({
    ...options,
    sessionId: toValue(options.sessionId),
    baseUrl: toValue(options.baseUrl),
    userId: toValue(options.userId),
    agentId: toValue(options.agentId),
    transport: toValue(options.transport),
  });
  const key = (): unknown[] => {
    const o = resolved();
    return [o.sessionId === undefined ? undefined : o.sessionId, JSON.stringify(o.baseUrl ?? null), o.userId, o.agentId, o.transport];
  };
  const open = (): void => {
    handle?.close();
    const next = bindChat(resolved(), (v) => {
      if (handle !== next) return;
      view.value = v;
      chat.value = v.chat === null ? null : markRaw(v.chat);
    }, () => options as ChatBindingOptions);
    handle = next;
    view.value = next.view();
    chat.value = null;
  };
  watch(key, (now, before) => {
    const changed = now.map((v, i) => !Object.is(v, before[i]));
    if (!changed.some(Boolean)) return;
    // a new sessionId that is the id of the chat shown (the session it created, passed back) keeps it
    if (changed.every((c, i) => !c || i === 0) && isChatOf(view.value!, now[0] as string | undefined)) return;
    open();
  });
  open();
  if (getCurrentScope()) {
    onScopeDispose(() => {
      handle?.close();
      // (what still reads the refs sees the chat closed)
      if (handle !== undefined) view.value = handle.view();
    });
  }
  return {
    ...(perViewKey((k) => computed(() => view.value![k])) as Refs<Omit<ChatView, "chat">>),
    chat,
    ...forwardActions(() => handle!),
  };
}

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
export function useSessions(options: MaybeRefOrGetter<SessionsBindingOptions>): UseSessionsResult {
  const view = shallowRef<SessionsView>();
  const client = shallowRef<SessionsClient | null>(null);
  let handle: SessionsHandle | undefined;
  const open = (): void => {
    handle?.close();
    const next = bindSessions(toValue(options), (v) => {
      if (handle === next) view.value = v;
    });
    handle = next;
    view.value = next.view();
    client.value = next.client === null ? null : markRaw(next.client);
  };
  watch(() => sessionsKey(toValue(options)), open);
  open();
  if (getCurrentScope()) onScopeDispose(() => handle?.close());
  return {
    sessions: computed(() => view.value!.sessions),
    loading: computed(() => view.value!.loading),
    error: computed(() => view.value!.error),
    client,
    ...forwardSessionsActions(() => handle!),
  };
}
