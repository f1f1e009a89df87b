// `agentscope-message/angular`: Angular signals over a `Chat` and a `SessionsClient`
// (@angular/core is an optional peer dependency; this subpath is the only one that imports
// it). Called in an injection context (a component's field initialiser or constructor),
// each closes with the context's `DestroyRef`. Importing it does not load the .wasm:
// `Chat.open` does, when a component opens a chat.
import { DestroyRef, Injector, assertInInjectionContext, computed, effect, inject, signal, untracked, type Signal } from "@angular/core";
import { bindChat, bindSessions, forwardActions, forwardSessionsActions, isChatOf, openingView, perViewKey, sessionsKey, type ChatActions, type ChatBindingOptions, type ChatHandle, type ChatView, type SessionsActions, type SessionsBindingOptions, type SessionsHandle, type SessionsView } from "./binding.js";
import type { Chat } from "./chat.js";
import { MsgError } from "./errors.js";
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

type Signals<T> = { readonly [K in keyof T]: Signal<T[K]> };

/** What {@link injectChat} returns: a signal per value of the React hook's result, and its actions. */
export interface InjectChatResult extends Signals<Omit<ChatView, "chat">>, ChatActions {
  /** The chat itself, once open. */
  chat: Signal<Chat | null>;
}

const read = <T>(v: ValueOrSignal<T>): T => (typeof v === "function" ? (v as () => T)() : v);

/** `read`, or undefined while it throws (a required input read before it is set: NG0950). */
function readInput<T>(v: ValueOrSignal<T>): T | undefined {
  try {
    return read(v);
  } catch {
    return undefined;
  }
}

/** The injector to run in: `injector`, or the current injection context's (else Angular's NG0203 error naming `caller`). */
function injectorOf(options: InjectOptions, caller: (...args: never[]) => unknown): Injector {
  if (options.injector !== undefined) return options.injector;
  assertInInjectionContext(caller);
  return inject(Injector);
}

/**
 * Binds `open` to `injector`'s lifetime: `close` runs when it is destroyed (registered
 * first: a destroyed injector throws NG0205 before anything opens), and an effect calls
 * `open(options)` at its first run (once the component's inputs are set) and again when
 * `changed(options, last)` says the options differ from those it last opened with.
 */
function follow<O>(injector: Injector, options: () => O, changed: (now: O, last: O) => boolean, open: (options: O) => void, close: () => void): void {
  injector.get(DestroyRef).onDestroy(close);
  let last: { options: O } | undefined;
  effect(
    () => {
      const now = options();
      if (last !== undefined && !changed(now, last.options)) return;
      last = { options: now };
      untracked(() => open(now));
    },
    { injector },
  );
}

/** A handle whose actions wait for the first one opened (or reject `closed` if none ever is). */
function firstOf<H>(closed: () => H): { current: () => H | Promise<H>; set(handle: H): void; destroyed(): void } {
  let handle: H | undefined;
  let first!: (handle: H) => void;
  const opened = new Promise<H>((resolve) => (first = resolve));
  return {
    current: () => handle ?? opened,
    set(next) {
      handle = next;
      first(next);
    },
    destroyed: () => first(closed()),
  };
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
export function injectChat(options: InjectChatOptions): InjectChatResult {
  const injector = injectorOf(options, injectChat);
  const { injector: _, ...rest } = options;
  // before the first open, the view of the sessionId given (a required input not set yet: none)
  const bound = signal<ChatView | null>(null);
  const view = computed(() => bound() ?? openingView(readInput(rest.sessionId)));
  const handles = firstOf(() => bindChat({ sessionId: null }, () => {}));
  let handle: ChatHandle | undefined;
  const key = (o: ChatBindingOptions): string => JSON.stringify([o.sessionId === undefined, o.sessionId ?? null, o.baseUrl ?? null, o.userId ?? null, o.agentId ?? null]);
  let opened: ChatBindingOptions | undefined;
  follow<ChatBindingOptions>(
    injector,
    () => ({
      ...rest,
      sessionId: read(rest.sessionId),
      baseUrl: read(rest.baseUrl),
      userId: read(rest.userId),
      agentId: read(rest.agentId),
      transport: read(rest.transport),
    }),
    // (a transport by identity)
    (now, last) => key(now) !== key(last) || now.transport !== last.transport,
    (o) => {
      // a new sessionId that is the id of the chat shown (the session it created, passed back) keeps it
      const last = opened;
      opened = o;
      if (handle !== undefined && last !== undefined && key({ ...o, sessionId: last.sessionId }) === key(last) && o.transport === last.transport && isChatOf(handle.view(), o.sessionId)) return;
      handle?.close();
      const next = bindChat(o, (v) => {
        if (handle === next) bound.set(v);
      }, () => rest as ChatBindingOptions);
      handle = next;
      handles.set(next);
      bound.set(next.view());
    },
    () => (handle === undefined ? handles.destroyed() : handle.close()),
  );
  return {
    ...(perViewKey((k) => computed(() => view()[k])) as Signals<Omit<ChatView, "chat">>),
    chat: computed(() => view().chat),
    ...forwardActions(handles.current),
  };
}

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
export function injectSessions(options: ValueOrSignal<SessionsBindingOptions>, how: InjectOptions = {}): InjectSessionsResult {
  const injector = injectorOf(how, injectSessions);
  const view = signal<SessionsView>(Object.freeze({ sessions: Object.freeze([]), loading: true, error: null }));
  const client = signal<SessionsClient | null>(null);
  const handles = firstOf((): SessionsHandle => {
    const closed = async (): Promise<never> => {
      throw new MsgError("closed", "the session list was destroyed before it opened");
    };
    return { view, client: null, share: () => () => {}, close: () => {}, refresh: closed, create: closed, rename: closed, remove: closed, setPermissionMode: closed };
  });
  let handle: SessionsHandle | undefined;
  follow(
    injector,
    () => read(options),
    (now, last) => sessionsKey(now) !== sessionsKey(last),
    (o) => {
      handle?.close();
      const next = bindSessions(o, (v) => {
        if (handle === next) view.set(v);
      });
      handle = next;
      handles.set(next);
      view.set(next.view());
      client.set(next.client);
    },
    () => (handle === undefined ? handles.destroyed() : handle.close()),
  );
  return {
    sessions: computed(() => view().sessions),
    loading: computed(() => view().loading),
    error: computed(() => view().error),
    client: client.asReadonly(),
    ...forwardSessionsActions(handles.current),
  };
}
