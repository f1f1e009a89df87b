// The framework-free state the React, Vue, Svelte and Angular bindings
// (`agentscope-message/react`, `/vue`, `/svelte`, `/angular`) wrap: a chat that is
// "connecting" (or "closed", or "error") before `Chat.open` resolves, with actions that
// wait for the open (a chat of no `sessionId`: "ready" with no request, its session made
// by its first send), and a session list that lists again after each action. Each binding
// only maps `view()` and `onChange` onto its own reactivity. Imports no framework and
// loads no .wasm on import.
// The option and action types come from the core's (`ChatOptions`, the transport's
// options, `Chat`'s and `SessionsClient`'s methods); the React hooks' spell them out.
import { AgentScopeTransport, Chat, type AgentScopeTransportOptions, type ChatOptions, type ChatSnapshot, type ChatTransport } from "./chat.js";
import { postedInput, sendMessage } from "./chat-input.js";
import { MsgError, checkDataUrls } from "./errors.js";
import { init } from "./load.js";
import type { MsgJSON } from "./message.js";
import { SessionsClient, type CreateSessionOptions, type PermissionMode, type SessionView } from "./sessions.js";

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
export const VIEW_KEYS = ["messages", "status", "connection", "error", "pendingActions", "state", "session", "progress", "partial", "sessionId", "hasMore"] as const satisfies readonly (keyof ChatView)[];

// (every value of the view but `chat` is in VIEW_KEYS: else this does not compile)
const everyKey: [Exclude<keyof ChatView, (typeof VIEW_KEYS)[number] | "chat">] extends [never] ? true : never = true;
void everyKey;

/** `{ messages: make("messages"), …, hasMore: make("hasMore") }`: one value per key of {@link VIEW_KEYS}. */
export function perViewKey<R>(make: (key: (typeof VIEW_KEYS)[number]) => R): Record<(typeof VIEW_KEYS)[number], R> {
  return Object.fromEntries(VIEW_KEYS.map((k) => [k, make(k)])) as Record<(typeof VIEW_KEYS)[number], R>;
}

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
export function forwardActions(target: () => ChatActions | Promise<ChatActions>): ChatActions {
  return {
    send: async (input) => (await target()).send(input),
    post: async (input) => (await target()).post(input),
    stop: async () => (await target()).stop(),
    confirm: async (toolCallId, confirmed, o) => (await target()).confirm(toolCallId, confirmed, o),
    submitExternal: async (results) => (await target()).submitExternal(results),
    loadOlder: async () => (await target()).loadOlder(),
  };
}

/** A bound chat: its view now, its actions, and `close`. */
export interface ChatHandle extends ChatActions {
  view(): ChatView;
  close(): void;
}

const CONNECTING: ChatView = Object.freeze({
  messages: Object.freeze([]),
  status: "connecting",
  connection: "connecting",
  error: null,
  pendingActions: Object.freeze([]),
  state: null,
  session: null,
  progress: Object.freeze({}),
  partial: Object.freeze([]),
  sessionId: null,
  hasMore: false,
  chat: null,
});
const CLOSED: ChatView = Object.freeze({ ...CONNECTING, status: "closed", connection: "closed" });
/** A new chat before its first send: one can type into it; no session, no stream yet. */
const FRESH: ChatView = Object.freeze({ ...CONNECTING, status: "ready", connection: "closed" });

/**
 * The view of a chat before it opens: `closed` for `sessionId` null, `ready` with no
 * session for no `sessionId` (a new chat: its first send makes the session), else
 * `connecting`, with the `sessionId` given (an app that mirrors it into the URL keeps the
 * session).
 */
export function openingView(sessionId: string | null | undefined): ChatView {
  if (sessionId === null) return CLOSED;
  if (sessionId === undefined) return FRESH;
  return typeof sessionId === "string" && sessionId !== "" ? Object.freeze({ ...CONNECTING, sessionId }) : CONNECTING;
}

/**
 * Whether a chat showing `view` is the chat of `sessionId`: open on that session, or
 * opening (or failed to open) with that id given. A change of the `sessionId` option to
 * it keeps the chat (an app that passes back the id of the session the chat created).
 */
export function isChatOf(view: ChatView, sessionId: string | null | undefined): boolean {
  return typeof sessionId === "string" && sessionId !== "" && view.sessionId === sessionId;
}

/**
 * The page's session lists, by service (`baseUrl`, `userId`, `agentId`): a session that a
 * chat creates or whose record it sees change (auto-naming, a rename: `CUSTOM
 * session_updated`), or that a list creates, renames or removes, makes every other list
 * of that service list again, so every binding of the page shows it without app code.
 */
const pageLists = new Map<string, Set<() => Promise<void>>>();

/** The service a binding's options name (lists and chats of one key share changes). */
function serviceKey(o: { baseUrl?: string | readonly string[]; userId?: string; agentId?: string }): string {
  return JSON.stringify([typeof o.baseUrl === "string" ? [o.baseUrl] : (o.baseUrl ?? []), o.userId ?? "", o.agentId ?? ""]);
}

/** Every list of the page for `key`, but `except` (one that lists again itself), lists again. */
function sessionsChanged(key: string, except?: () => Promise<void>): void {
  for (const refresh of pageLists.get(key) ?? []) if (refresh !== except) void refresh();
}

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
export function bindChat(options: ChatBindingOptions, onChange: (view: ChatView) => void, latest: () => ChatBindingOptions = () => options, deferred = false): ChatHandle {
  let chat: Chat | null = null;
  let cancel = (): void => {};
  let closed = false;
  let unsubscribe = (): void => {};
  let view = openingView(options.sessionId);
  let resolve!: (chat: Chat) => void;
  let reject!: (error: unknown) => void;
  const opened = new Promise<Chat>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  opened.catch(() => {});
  // the session lists of the page hear of the session this chat made and of its record's
  // changes (a chat on a transport of its own names no service: they hear nothing)
  const key = options.transport === undefined ? serviceKey(options) : null;
  // undefined: the first record of the chat's session is news to the lists
  let record: ChatView["session"] | undefined = options.sessionId === undefined ? undefined : null;
  const show = (next: ChatView): void => {
    view = Object.freeze(next);
    onChange(view);
  };
  const publish = (): void => {
    if (chat === null) return;
    view = Object.freeze({ ...chat.getSnapshot(), sessionId: chat.sessionId, hasMore: chat.hasMore, chat });
    if (view.session !== record && view.session !== null) {
      // (the first record of a session given is the list's own: nothing new)
      if (key !== null && record !== null) sessionsChanged(key);
      record = view.session;
    }
    onChange(view);
  };
  const typed = (e: unknown): MsgError => (e instanceof MsgError ? e : new MsgError("invalid_argument", String(e)));
  // (`notify` false while bindChat runs: the binding reads `view()` once it returns, and its
  // onChange may not know this handle yet)
  const fail = (e: unknown, notify = true): void => {
    const error = typed(e);
    view = Object.freeze({ ...openingView(options.sessionId), status: "error", error });
    if (notify) onChange(view);
    reject(error);
  };
  const { transport: t, baseUrl: b, userId: u, agentId: a, fetch: f, headers: h, session: s, sessionId: id, ...rest } = options;
  const callbacks: Pick<ChatOptions, "onError" | "onFinish" | "onEvent"> = {
    onError: (e) => {
      const handler = latest().onError;
      if (handler) handler(e);
      else console.error("agentscope-message/chat:", e);
    },
    onFinish: (m) => latest().onFinish?.(m),
    onEvent: (event, info) => latest().onEvent?.(event, info),
  };
  const transportOf = (): ChatTransport => t ?? new AgentScopeTransport({ baseUrl: b ?? "", userId: u ?? "", agentId: a ?? "", fetch: f, headers: h, session: s });
  const closedError = (): MsgError => new MsgError("closed", "the chat was closed");
  /** `Chat.open` on `how`; the chat becomes this handle's (`publish`: shown at once). */
  const openOn = (how: ChatTransport, sessionId: string | undefined, shown: boolean): Promise<Chat> =>
    Chat.open(how, { throttleMs: 16, ...rest, ...(sessionId === undefined ? {} : { sessionId }), ...callbacks }).then((c) => {
      if (closed) {
        c.close();
        throw closedError();
      }
      chat = c;
      unsubscribe = c.subscribe(publish);
      if (shown) publish();
      resolve(c);
      return c;
    });
  // a new chat: its transport, made now (bad options: status error at once, no request)
  let fresh: ChatTransport | null = null;
  if (id === null) reject(new MsgError("closed", "no chat is open (sessionId is null)"));
  else if (id === undefined) {
    try {
      fresh = transportOf();
    } catch (e) {
      fail(e, false);
    }
  } else {
    const open = (notify: boolean): void => {
      try {
        openOn(transportOf(), id, true).catch((e: unknown) => {
          if (!closed) fail(e);
        });
      } catch (e) {
        fail(e, notify);
      }
    };
    if (deferred) cancel = defer(() => open(true));
    else open(false);
  }
  // a new chat's session: made by the first send, shared by the sends racing it
  let creating: Promise<Chat> | null = null;
  let created: string | null = null;
  // (a close while the session is made aborts its request)
  const making = new AbortController();
  const create = (how: ChatTransport, msgs: readonly MsgJSON[]): Promise<Chat> => {
    show({ ...FRESH, status: "submitted", connection: "connecting", messages: Object.freeze([...msgs]) });
    const made = (async () => {
      if (created === null) {
        created = await how.createSession({ signal: making.signal });
        // the page's lists hear of it now (its record, once the chat shows it, is no news)
        if (key !== null) sessionsChanged(key);
        record = null;
      }
      if (closed) throw closedError();
      return openOn(how, created, false);
    })().catch((e: unknown) => {
      creating = null;
      const error = closed ? closedError() : typed(e);
      if (!closed) show({ ...FRESH, error });
      throw error;
    });
    creating = made;
    return made;
  };
  const ready = (): Promise<Chat> => (chat !== null ? Promise.resolve(chat) : opened);
  /** The chat to act on, to wait for; null: a new chat whose session is not made (nor being made). */
  const target = (): Promise<Chat> | null => (closed || fresh === null || chat !== null ? ready() : creating);
  /** Sends `msgs` (checked) through `go`: on the chat, or on the chat of the session made now. */
  const first = async (msgs: readonly MsgJSON[], go: (c: Chat) => Promise<void>): Promise<void> => {
    const waiting = target();
    if (waiting !== null) return go(await waiting);
    const c = await create(fresh!, msgs);
    const sent = go(c);
    // (the message shown from the open on: no view of the chat without it)
    publish();
    return sent;
  };
  /** The .wasm's load for a new chat's first send (a `stop()` meanwhile waits for it, then for the session). */
  let loading: Promise<void> | null = null;
  /** Loads the .wasm for a new chat's first send; a failed load shows (`init_failed`) as the send's other failures do. */
  const load = (): Promise<void> =>
    (loading = init().then(undefined, (e: unknown) => {
      const error = typed(e);
      if (!closed) show({ ...FRESH, error });
      throw error;
    }));
  /** The chat to act on, or null: {@link target}, after a first send's load on its way (its session is made then). */
  const settled = async (): Promise<Promise<Chat> | null> => {
    const now = target();
    if (now !== null || loading === null) return now;
    await loading.catch(() => {});
    return target();
  };
  const userName = rest.userName ?? "user";
  return {
    view: () => view,
    close: () => {
      if (closed) return;
      closed = true;
      cancel();
      unsubscribe();
      chat?.close();
      making.abort(closedError());
      // (read by `view()` from now on; nothing is told: the binding let go of this handle)
      view = Object.freeze({ ...CLOSED, sessionId: view.sessionId });
      reject(closedError());
    },
    send: async (input) => {
      const waiting = target();
      if (waiting !== null) return (await waiting).send(input);
      // refused before a session is made: what `Chat.send` refuses before any request
      await load();
      const msg = sendMessage(input, userName);
      checkDataUrls(msg.content, "send");
      return first([msg], (c) => c.send(msg));
    },
    post: async (input) => {
      const waiting = target();
      if (waiting !== null) return (await waiting).post(input);
      await load();
      const posted = postedInput(input);
      if (posted.kind === "answer") {
        const now = target();
        if (now !== null) return (await now).post(input);
        throw new MsgError("invalid_argument", "post: no tool call waits (the chat has no session yet: its first send makes it)");
      }
      for (const msg of posted.msgs) checkDataUrls(msg.content, "post");
      return first(posted.msgs, (c) => c.post(posted.msgs.length === 1 ? posted.msgs[0]! : posted.msgs));
    },
    stop: async () => {
      const waiting = await settled();
      if (waiting !== null) return (await waiting).stop();
    },
    confirm: async (toolCallId, confirmed, o) => {
      const waiting = target();
      if (waiting !== null) return (await waiting).confirm(toolCallId, confirmed, o);
      throw new MsgError("invalid_argument", `confirm: the tool call ${JSON.stringify(String(toolCallId))} is not waiting (the chat has no session yet)`);
    },
    submitExternal: async (results) => {
      const waiting = target();
      if (waiting !== null) return (await waiting).submitExternal(results);
      throw new MsgError("invalid_argument", "submitExternal: no tool call waits (the chat has no session yet)");
    },
    loadOlder: async () => {
      const waiting = await settled();
      return waiting === null ? false : (await waiting).loadOlder();
    },
  };
}

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
export function forwardSessionsActions(target: () => SessionsActions | Promise<SessionsActions>): SessionsActions {
  return {
    refresh: async () => (await target()).refresh(),
    create: async (o) => (await target()).create(o),
    rename: async (id, name) => (await target()).rename(id, name),
    remove: async (id) => (await target()).remove(id),
    setPermissionMode: async (id, mode) => (await target()).setPermissionMode(id, mode),
  };
}

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
export function sessionsKey(o: SessionsBindingOptions): string {
  return JSON.stringify([o.baseUrl, o.userId, o.agentId, o.headers ?? null, o.session ?? null]);
}

/** Calls `f` after a macrotask, unless the returned cancel comes first (StrictMode's dev-only unmount). */
export function defer(f: () => void): () => void {
  const timer = setTimeout(f, 0);
  return () => clearTimeout(timer);
}

/**
 * Makes a client for `options` and lists the sessions now, one of the page's lists (`listNow`
 * false: at the first `refresh`, still `loading` until then, and shared by `share()`);
 * `onChange` gets each new view.
 */
export function bindSessions(options: SessionsBindingOptions, onChange: (view: SessionsView) => void, listNow = true): SessionsHandle {
  let client: SessionsClient | null = null;
  let view: SessionsView;
  try {
    const transport = new AgentScopeTransport({ ...options, baseUrl: options.baseUrl as string | string[] });
    client = new SessionsClient(transport, { session: options.session });
    view = Object.freeze({ sessions: Object.freeze([]), loading: true, error: null });
  } catch (e) {
    const error = e instanceof MsgError ? e : new MsgError("invalid_argument", String(e));
    view = Object.freeze({ sessions: Object.freeze([]), loading: false, error });
  }
  let generation = 0;
  let closed = false;
  const set = (next: Partial<SessionsView>): void => {
    view = Object.freeze({ ...view, ...next });
    onChange(view);
  };
  const refresh = async (): Promise<void> => {
    if (client === null || closed) return;
    const mine = ++generation;
    if (!view.loading) set({ loading: true });
    try {
      const sessions = await client.list();
      if (!closed && mine === generation) set({ sessions, error: null, loading: false });
    } catch (e) {
      const error = e instanceof MsgError ? e : new MsgError("service_unavailable", String(e));
      if (!closed && mine === generation) set({ error, loading: false });
    }
  };
  const key = serviceKey(options);
  const act =
    <A extends unknown[], R>(f: (c: SessionsClient, ...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (client === null) throw view.error ?? new MsgError("invalid_argument", "no sessions client");
      const result = await f(client, ...args);
      sessionsChanged(key, refresh);
      await refresh();
      return result;
    };
  const share = (): (() => void) => {
    if (client === null) return () => {};
    const lists = pageLists.get(key) ?? new Set();
    lists.add(refresh);
    pageLists.set(key, lists);
    return () => {
      lists.delete(refresh);
      if (lists.size === 0 && pageLists.get(key) === lists) pageLists.delete(key);
    };
  };
  const unshare = listNow ? share() : () => {};
  if (listNow) void refresh();
  return {
    view: () => view,
    client,
    share,
    close: () => {
      closed = true;
      unshare();
    },
    refresh,
    create: act((c, o?: CreateSessionOptions) => c.create(o)),
    rename: act((c, id: string, name: string) => c.rename(id, name)),
    remove: act((c, id: string) => c.remove(id)),
    setPermissionMode: act((c, id: string, mode: PermissionMode) => c.setPermissionMode(id, mode)),
  };
}
