// `agentscope-message/react`: React hooks over a `Session` and a `Chat` (react is an
// optional peer dependency of the package; this subpath is the only one that imports it).
// Importing it does not load the .wasm: the hooks call `init()` themselves (idempotent),
// so a page that imports them paints before the .wasm arrives. With the explicit entry
// (`agentscope-message/init`) or the zero-config one, the same loaded module is used.
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { AgentScopeTransport, Chat, type ChatInput, type ChatOptions, type ChatSnapshot, type ChatTransport, type ExternalResult, type SendInput } from "./chat.js";
import { MsgError } from "./errors.js";
import { init } from "./load.js";
import type { MsgJSON } from "./message.js";
import { Session, type ReadOptions, type SessionOptions, type SessionSnapshot } from "./session.js";

const EMPTY: SessionSnapshot = Object.freeze({ messages: Object.freeze([]), unstartedCalls: Object.freeze([]) });
const noSubscribe = (): (() => void) => () => {};
const emptySnapshot = (): SessionSnapshot => EMPTY;
const IDLE: { error: unknown; done: boolean } = { error: null, done: false };

/**
 * The session's current snapshot; the component re-renders when a `feed` / `end` /
 * `apply` changed a message (`useSyncExternalStore` over `session.subscribe` and
 * `session.getSnapshot`). With `null`, an empty snapshot.
 */
export function useSession(session: Session | null): SessionSnapshot {
  return useSyncExternalStore(
    session ? session.subscribe : noSubscribe,
    session ? session.getSnapshot : emptySnapshot,
    session ? session.getSnapshot : emptySnapshot,
  );
}

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
export function useEventStream(url: string | URL | null, options: EventStreamOptions = {}): EventStreamState {
  const [session, setSession] = useState<Session | null>(null);
  const [status, setStatus] = useState<{ error: unknown; done: boolean }>(IDLE);
  const key = url === null ? null : String(url);
  const { init: request, onError, ...sessionOptions } = options;
  const optionsKey = JSON.stringify(sessionOptions);
  useEffect(() => {
    if (key === null) {
      // stopped: the previous stream's request was aborted by its cleanup; its messages stay
      setStatus((s) => (s.done ? s : { error: s.error, done: true }));
      return;
    }
    const controller = new AbortController();
    let next: Session | undefined;
    setStatus(IDLE);
    const reading = init()
      .then(() => {
        controller.signal.throwIfAborted();
        next = new Session(JSON.parse(optionsKey) as SessionOptions);
        setSession((old) => {
          // the previous URL's session (kept for display after a stop) goes now
          if (old !== null && old !== next) old.free();
          return next!;
        });
        return fetch(key, { ...request, signal: controller.signal });
      })
      .then((response) => next!.read(response, { signal: controller.signal, onError }))
      .then(
        () => {
          if (!controller.signal.aborted) setStatus({ error: null, done: true });
        },
        (error: unknown) => {
          if (!controller.signal.aborted) setStatus({ error, done: true });
        },
      );
    return () => {
      controller.abort();
      void reading;
    };
    // `init` and `onError` are read when a stream starts; a new URL or new session
    // options start a new stream
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, optionsKey]);
  // the last session is freed when the component goes
  const last = useRef<Session | null>(null);
  last.current = session;
  useEffect(() => () => last.current?.free(), []);
  const snapshot = useSession(session);
  return { snapshot, session, ...status };
}

/** Options of {@link useChat}: where the service is (or a transport), and the chat's options. */
export interface UseChatOptions extends Omit<ChatOptions, "sessionId"> {
  /**
   * Resume this session; `null`: open nothing (status `closed`, no request: a page that
   * picks sessions from its own list shows "nothing open"); absent: a new session is
   * created.
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
  /** More fields of `POST /sessions/` for a new session (e.g. its `chat_model_config`), for the default transport. */
  session?: Record<string, unknown>;
}

/** What {@link useChat} returns. */
export interface UseChatResult {
  /** User and assistant messages in order (history, then live). */
  messages: readonly MsgJSON[];
  /** See `ChatStatus`; `connecting` until the chat is open, `closed` while `sessionId` is null. */
  status: ChatSnapshot["status"];
  /** See `ChatConnection`: the event stream's state (`closed` while `sessionId` is null). */
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
  /** The session id, once the chat is open. */
  sessionId: string | null;
  /** The chat itself, once open (null before). */
  chat: Chat | null;
  /** `Chat.send` (waits for the chat to open): text, blocks, `{content, metadata}` or a user message. */
  send: (input: SendInput) => Promise<void>;
  /** `Chat.post`: any `POST /chat/` input, with `send`'s rules. */
  post: (input: ChatInput) => Promise<void>;
  /** `Chat.stop`. */
  stop: () => Promise<void>;
  /** `Chat.confirm`. */
  confirm: (toolCallId: string, confirmed: boolean, options?: { rules?: readonly unknown[] | null }) => Promise<void>;
  /** `Chat.submitExternal`. */
  submitExternal: (results: ExternalResult | readonly ExternalResult[]) => Promise<void>;
  /** Whether older stored messages exist (`Chat.hasMore`). */
  hasMore: boolean;
  /** `Chat.loadOlder`: loads the page before the oldest message shown; resolves whether more remain. */
  loadOlder: () => Promise<boolean>;
}

interface Gate {
  promise: Promise<Chat>;
  resolve: (chat: Chat) => void;
  reject: (error: unknown) => void;
}

function makeGate(): Gate {
  let resolve!: (chat: Chat) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<Chat>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => {});
  return { promise, resolve, reject };
}

const CONNECTING: ChatSnapshot = Object.freeze({
  messages: Object.freeze([]),
  status: "connecting",
  connection: "connecting",
  error: null,
  pendingActions: Object.freeze([]),
  state: null,
  session: null,
  progress: Object.freeze({}),
  partial: Object.freeze([]),
});
const OFF: ChatSnapshot = Object.freeze({ ...CONNECTING, status: "closed", connection: "closed" });

/**
 * A chat with an AgentScope 2.0 service (see `Chat`): opens it on mount (creating a
 * session, or resuming `sessionId`), re-renders at most once per `throttleMs` (default
 * 16 ms here, about a frame; 0 for once per macrotask), closes it on unmount.
 * StrictMode-safe: the open is deferred past React's dev-only unmount and remount, so one
 * session, one stream and one POST per `send` reach the service. A new `baseUrl` / `userId` / `agentId` / `sessionId` / `transport` opens a
 * new chat (keep a `transport` of one's own stable: module scope or `useMemo`); `onError`
 * and `onFinish` are read when called, the other options when the chat opens. A failed
 * open shows status `error` until one of those options changes. The .wasm loads on first
 * use, not on import.
 */
export function useChat(options: UseChatOptions): UseChatResult {
  const { userId, agentId, sessionId, transport } = options;
  // compared by value: `baseUrl={[a, b]}` makes a new array on every render
  const baseUrl = Array.isArray(options.baseUrl) ? options.baseUrl.join("\n") : (options.baseUrl as string | undefined);
  const [chat, setChat] = useState<Chat | null>(null);
  // a failed open, with the options it failed for: new options show `connecting` at once
  const [openError, setOpenError] = useState<{ error: MsgError; deps: readonly unknown[] } | null>(null);
  const deps = [baseUrl, userId, agentId, sessionId, transport];
  const latest = useRef(options);
  latest.current = options;
  const opening = useRef<Gate | null>(null);
  useEffect(() => {
    let cancelled = false;
    let opened: Chat | undefined;
    const gate = makeGate();
    opening.current = gate;
    const failed = (e: unknown) => setOpenError({ error: e as MsgError, deps: [baseUrl, userId, agentId, sessionId, transport] });
    if (sessionId === null) {
      // nothing to open
      gate.reject(new MsgError("closed", "no chat is open (sessionId is null)"));
      return () => {
        if (opening.current === gate) opening.current = null;
      };
    }
    // deferred: StrictMode's dev-only unmount comes first and cancels it
    const timer = setTimeout(() => {
      const { transport: t, baseUrl: b, userId: u, agentId: a, fetch: f, session: s, sessionId: id, ...rest } = latest.current;
      const chatOptions: ChatOptions = { ...rest, ...(id === null || id === undefined ? {} : { sessionId: id }) };
      let how: ChatTransport;
      try {
        how = t ?? new AgentScopeTransport({ baseUrl: b ?? "", userId: u ?? "", agentId: a ?? "", fetch: f, session: s });
      } catch (e) {
        failed(e);
        gate.reject(e);
        return;
      }
      // the callbacks are read when they are called: a closure over newer state is used
      const callbacks: Pick<ChatOptions, "onError" | "onFinish" | "onEvent"> = {
        onError: (e) => {
          const f = latest.current.onError;
          if (f) f(e);
          else console.error("agentscope-message/chat:", e);
        },
        onFinish: (m) => latest.current.onFinish?.(m),
        onEvent: (event) => latest.current.onEvent?.(event),
      };
      Chat.open(how, { throttleMs: 16, ...chatOptions, ...callbacks }).then(
        (c) => {
          if (cancelled) return c.close();
          opened = c;
          setChat(c);
          gate.resolve(c);
        },
        (e: unknown) => {
          if (cancelled) return;
          failed(e);
          gate.reject(e);
        },
      );
    }, 0);
    return () => {
      cancelled = true;
      clearTimeout(timer);
      opened?.close();
      setChat(null);
      gate.reject(new MsgError("closed", "the chat was closed (the component unmounted or its options changed)"));
      if (opening.current === gate) opening.current = null;
    };
  }, [baseUrl, userId, agentId, sessionId, transport]);
  const none = sessionId === null ? () => OFF : () => CONNECTING;
  const snapshot = useSyncExternalStore(chat ? chat.subscribe : noSubscribe, chat ? chat.getSnapshot : none, chat ? chat.getSnapshot : none);
  const ready = useCallback(async (): Promise<Chat> => {
    if (chat !== null) return chat;
    if (opening.current === null) throw new MsgError("closed", "the chat is not open");
    return opening.current.promise;
  }, [chat]);
  const send = useCallback(async (input: SendInput) => (await ready()).send(input), [ready]);
  const post = useCallback(async (input: ChatInput) => (await ready()).post(input), [ready]);
  const stop = useCallback(async () => (await ready()).stop(), [ready]);
  const confirm = useCallback(
    async (toolCallId: string, confirmed: boolean, o?: { rules?: readonly unknown[] | null }) => (await ready()).confirm(toolCallId, confirmed, o),
    [ready],
  );
  const submitExternal = useCallback(async (results: ExternalResult | readonly ExternalResult[]) => (await ready()).submitExternal(results), [ready]);
  const loadOlder = useCallback(async () => (await ready()).loadOlder(), [ready]);
  const failed = chat === null && openError !== null && openError.deps.every((d, i) => Object.is(d, deps[i])) ? openError.error : null;
  const error = failed ?? snapshot.error;
  const status = failed !== null ? "error" : snapshot.status;
  return {
    messages: snapshot.messages,
    status,
    connection: snapshot.connection,
    error,
    pendingActions: snapshot.pendingActions,
    state: snapshot.state,
    session: snapshot.session,
    progress: snapshot.progress,
    partial: snapshot.partial,
    sessionId: chat?.sessionId ?? null,
    chat,
    send,
    post,
    stop,
    confirm,
    submitExternal,
    hasMore: chat?.hasMore ?? false,
    loadOlder,
  };
}

// ------------------------------------------------------------------ useSessions
// (imports of this section: declarations are hoisted, so they may stand here)
import { useMemo } from "react";
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

const NO_SESSIONS: readonly SessionView[] = Object.freeze([]);

/**
 * The sessions of one agent on an AgentScope 2.0 service, for a session list: loads the
 * list after mount (deferred past StrictMode's dev-only unmount and remount: one
 * `GET /sessions/` per mount, in development too), and lists again after each action
 * (`create`, `rename`, `remove`, `setPermissionMode`; each resolves once the new list is
 * in `sessions`). An action rejects with the client's `MsgError` (`busy` while a run
 * holds the session, `http_error`, `invalid_argument`, …) and leaves the list as it was.
 * New options (by value) make a new client and list again. Loads no `.wasm`.
 */
export function useSessions(options: UseSessionsOptions): UseSessionsResult {
  const { userId, agentId } = options;
  const baseUrl = Array.isArray(options.baseUrl) ? options.baseUrl.join("\n") : (options.baseUrl as string);
  const headers = options.headers === undefined ? undefined : JSON.stringify(options.headers);
  const session = options.session === undefined ? undefined : JSON.stringify(options.session);
  const latestFetch = useRef(options.fetch);
  latestFetch.current = options.fetch;
  const made = useMemo((): { client: SessionsClient | null; error: MsgError | null } => {
    try {
      const body = session === undefined ? undefined : (JSON.parse(session) as Record<string, unknown>);
      const transport = new AgentScopeTransport({
        baseUrl: typeof baseUrl === "string" && baseUrl.includes("\n") ? baseUrl.split("\n") : baseUrl,
        userId,
        agentId,
        fetch: latestFetch.current,
        headers: headers === undefined ? undefined : (JSON.parse(headers) as Record<string, string>),
        session: body,
      });
      return { client: new SessionsClient(transport, { session: body }), error: null };
    } catch (e) {
      return { client: null, error: e instanceof MsgError ? e : new MsgError("invalid_argument", String(e)) };
    }
  }, [baseUrl, userId, agentId, headers, session]);
  const { client } = made;
  const [list, setList] = useState<{ client: SessionsClient | null; sessions: readonly SessionView[]; error: MsgError | null }>({ client: null, sessions: NO_SESSIONS, error: null });
  // the latest list request wins (an older one that ends later is dropped); loading until it ends
  const generation = useRef(0);
  const [requests, setRequests] = useState({ started: 0, ended: 0 });
  const mounted = useRef(false);
  const refresh = useCallback(async (): Promise<void> => {
    if (client === null || !mounted.current) return;
    const mine = ++generation.current;
    setRequests((r) => ({ ...r, started: mine }));
    try {
      const sessions = await client.list();
      if (mounted.current && mine === generation.current) setList({ client, sessions, error: null });
    } catch (e) {
      const error = e instanceof MsgError ? e : new MsgError("service_unavailable", String(e));
      if (mounted.current && mine === generation.current) setList((old) => ({ client, sessions: old.client === client ? old.sessions : NO_SESSIONS, error }));
    } finally {
      if (mounted.current && mine === generation.current) setRequests((r) => ({ ...r, ended: mine }));
    }
  }, [client]);
  useEffect(() => {
    mounted.current = true;
    // deferred: StrictMode's dev-only unmount comes first and cancels it
    const timer = setTimeout(() => void refresh(), 0);
    return () => {
      mounted.current = false;
      generation.current += 1;
      clearTimeout(timer);
    };
  }, [refresh]);
  const act = useCallback(
    <A extends unknown[], R>(f: (c: SessionsClient, ...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        if (client === null) throw made.error ?? new MsgError("invalid_argument", "useSessions: no client");
        const result = await f(client, ...args);
        await refresh();
        return result;
      },
    [client, made.error, refresh],
  );
  const create = useMemo(() => act((c, o?: CreateSessionOptions) => c.create(o)), [act]);
  const rename = useMemo(() => act((c, id: string, name: string) => c.rename(id, name)), [act]);
  const remove = useMemo(() => act((c, id: string) => c.remove(id)), [act]);
  const setPermissionMode = useMemo(() => act((c, id: string, mode: PermissionMode) => c.setPermissionMode(id, mode)), [act]);
  const current = list.client === client && client !== null;
  return {
    sessions: current ? list.sessions : NO_SESSIONS,
    // until this client's first list arrives (or fails), it is loading
    loading: client !== null && (requests.started !== requests.ended || !current),
    error: made.error ?? (current ? list.error : null),
    client,
    refresh,
    create,
    rename,
    remove,
    setPermissionMode,
  };
}
