// `agentscope-message/svelte`: Svelte stores over a `Chat` and a `SessionsClient` (svelte
// is an optional peer dependency; this subpath is the only one that imports it). Each
// store keeps Svelte's store contract (`$chat` in a component, `get(chat)` anywhere) and
// carries the actions. Importing it does not load the .wasm: `Chat.open` does, when a
// component creates a chat.
import { onDestroy } from "svelte";
import type { Readable } from "svelte/store";
import { bindChat, bindSessions, forwardActions, isChatOf, perViewKey, type VIEW_KEYS, type ChatActions, type ChatBindingOptions, type ChatHandle, type ChatView, type SessionsActions, type SessionsBindingOptions, type SessionsView } from "./binding.js";
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
export type ChatValueStores = { readonly [K in (typeof VIEW_KEYS)[number]]: Readable<ChatView[K]> };

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

/** Calls `f` when the component being initialised is destroyed; outside a component the caller closes. */
function whenDestroyed(f: () => void): void {
  try {
    onDestroy(f);
  } catch {
    // not in a component's initialisation
  }
}

/** A tiny writable-like holder with Svelte's store contract. */
function holder<T>(initial: T): { store: Readable<T>; set(value: T): void; get(): T } {
  let value = initial;
  const listeners = new Set<(value: T) => void>();
  return {
    store: {
      subscribe(run) {
        const listener = (v: T): void => run(v);
        listeners.add(listener);
        run(value);
        return () => listeners.delete(listener);
      },
    },
    set(next) {
      value = next;
      for (const l of [...listeners]) l(next);
    },
    get: () => value,
  };
}

/** The store of one value of `view`: its subscribers are called when that value changes (`Object.is`). */
function valueStore<K extends keyof ChatView>(view: Readable<ChatView>, key: K): Readable<ChatView[K]> {
  return {
    subscribe(run) {
      let seen = false;
      let last: ChatView[K] | undefined;
      return view.subscribe((v) => {
        if (seen && Object.is(v[key], last)) return;
        seen = true;
        last = v[key];
        run(v[key]);
      });
    },
  };
}

const isStore = (x: unknown): x is Readable<string | null | undefined> => typeof x === "object" && x !== null && typeof (x as Readable<unknown>).subscribe === "function";

/**
 * A chat with an AgentScope 2.0 service (see `Chat`), for a component's `<script>`: opens
 * it now (`sessionId`; with none, a new chat whose first `send` creates the session), updates the store at most once per `throttleMs`
 * (16 ms unless given), closes it when the component is destroyed. `sessionId: null` opens
 * nothing (status `closed`); a `sessionId` store opens a new chat per new id (but the id
 * of the chat open keeps it: the session it created, passed back).
 */
export function createChat(options: CreateChatOptions): ChatStore {
  const { sessionId, ...rest } = options;
  let handle: ChatHandle | undefined;
  let current: string | null | undefined;
  let started = false;
  // the store's first value is the first chat's view (a store of ids calls back at once)
  const view = holder<ChatView>(undefined as unknown as ChatView);
  const open = (id: string | null | undefined): void => {
    if (started && id === current) return;
    // a new id that is the chat's own (the session it created, passed back) keeps it
    const keep = started && handle !== undefined && isChatOf(handle.view(), id);
    started = true;
    current = id;
    if (keep) return;
    handle?.close();
    const next = bindChat({ ...rest, ...(id === undefined ? {} : { sessionId: id }) }, (v) => {
      if (handle === next) view.set(v);
    });
    handle = next;
    view.set(next.view());
  };
  const stopFollowing = isStore(sessionId) ? sessionId.subscribe(open) : (open(sessionId), () => {});
  const close = (): void => {
    stopFollowing();
    handle?.close();
    // (the store's readers see it closed)
    if (handle !== undefined) view.set(handle.view());
  };
  whenDestroyed(close);
  return {
    subscribe: view.store.subscribe,
    ...(perViewKey((k) => valueStore(view.store, k)) as ChatValueStores),
    close,
    ...forwardActions(() => handle!),
  };
}

/** `createChat` under the name of Svelte's store factories. */
export const chatStore = createChat;

/** What {@link createSessions} returns: a store of the list, the client, its actions, and `close`. */
export interface SessionsStore extends Readable<SessionsView>, SessionsActions {
  /** The client (null for invalid options). */
  readonly client: SessionsClient | null;
  close(): void;
}

/** The sessions of one agent (see the React hook `useSessions`): lists them now and after each action. Loads no `.wasm`. */
export function createSessions(options: SessionsBindingOptions): SessionsStore {
  let view: ReturnType<typeof holder<SessionsView>> | undefined;
  const handle = bindSessions(options, (v) => view?.set(v));
  view = holder(handle.view());
  whenDestroyed(handle.close);
  return {
    subscribe: view.store.subscribe,
    client: handle.client,
    close: handle.close,
    refresh: handle.refresh,
    create: handle.create,
    rename: handle.rename,
    remove: handle.remove,
    setPermissionMode: handle.setPermissionMode,
  };
}
