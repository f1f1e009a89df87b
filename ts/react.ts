// `agentscope-message/react`: React hooks over a `Session` and a `Chat` (react is an
// optional peer dependency of the package; this subpath is the only one that imports it).
// Importing it does not load the .wasm: the hooks call `init()` themselves (idempotent),
// so a page that imports them paints before the .wasm arrives. With the explicit entry
// (`agentscope-message/init`) or the zero-config one, the same loaded module is used.
// `useChat` and `useSessions` are thin hooks over ts/binding.ts (as the Vue, Svelte and Angular ones).
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { bindChat, bindSessions, defer, forwardActions, isChatOf, openingView, sessionsKey, type ChatActions, type ChatHandle, type ChatView, type SessionsHandle, type SessionsView } from "./binding.js";
import { Chat, type ChatInput, type ChatOptions, type ChatSnapshot, type ChatTransport, type ExternalResult, type SendInput } from "./chat.js";
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
   * picks sessions from its own list shows "nothing open"); absent: a new chat, status
   * `ready` with no request, whose first `send` (or `post` of messages) creates the
   * session (`POST /sessions/`), opens it and sends (a page load makes no empty session).
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
  /**
   * More headers for every request of the default transport (e.g. the `Authorization` an
   * auth proxy checks); read when the chat opens.
   */
  headers?: Record<string, string>;
  /** More fields of `POST /sessions/` for a new session (e.g. its `chat_model_config`), for the default transport. */
  session?: Record<string, unknown>;
}

/** What {@link useChat} returns. */
export interface UseChatResult {
  /** User and assistant messages in order (history, then live). */
  messages: readonly MsgJSON[];
  /** See `ChatStatus`; `connecting` until the chat is open, `closed` while `sessionId` is null; a new chat is `ready` from the first render. */
  status: ChatSnapshot["status"];
  /** See `ChatConnection`: the event stream's state (`closed` while `sessionId` is null, and on a new chat before its first send). */
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
  /** The session id: the `sessionId` given, from the first render on; for a new chat, null until its first send has created and opened its session. */
  sessionId: string | null;
  /** The chat itself, once open (null before). */
  chat: Chat | null;
  /**
   * `Chat.send` (waits for the chat to open): text, blocks, `{content, metadata}` or a user
   * message. A new chat's first send creates its session first (rejecting with the
   * create's `MsgError`, the chat still new: a later send tries again).
   */
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

/**
 * A chat with an AgentScope 2.0 service (see `Chat`): opens it on mount (resuming
 * `sessionId`; with none, a new chat asks nothing until its first `send` creates the
 * session), re-renders at most once per `throttleMs` (default
 * 16 ms here, about a frame; 0 for once per macrotask), closes it on unmount.
 * StrictMode-safe: the open is deferred past React's dev-only unmount and remount, so one
 * session, one stream and one POST per `send` reach the service. A new `baseUrl` / `userId` / `agentId` / `sessionId` / `transport` opens a
 * new chat (keep a `transport` of one's own stable: module scope or `useMemo`), but a
 * `sessionId` that is the id of the chat shown keeps it (the id of the session it created,
 * passed back); `sessionId` says the id given from the first render on; `onError`
 * and `onFinish` are read when called, the other options when the chat opens. A failed
 * open shows status `error` until one of those options changes. The .wasm loads on first
 * use, not on import.
 */
export function useChat(options: UseChatOptions): UseChatResult {
  const { userId, agentId, sessionId, transport } = options;
  // compared by value: `baseUrl={[a, b]}` makes a new array on every render
  const baseUrl = Array.isArray(options.baseUrl) ? options.baseUrl.join("\n") : (options.baseUrl as string | undefined);
  const latest = useRef(options);
  latest.current = options;
  const handle = useRef<ChatHandle | null>(null);
  const [bound, setBound] = useState<{ view: ChatView; deps: readonly unknown[] } | null>(null);
  // the chat's session: a new `sessionId` is a new chat unless it is the id of the chat
  // shown (the app passes back the id of the session the chat created): that one stays
  const [session, setSession] = useState({ id: sessionId, chat: 0 });
  let chatOf = session;
  if (!Object.is(session.id, sessionId)) {
    const [b, u, a, , t] = bound?.deps ?? [];
    const keep = bound !== null && bound.deps[3] === session.chat && Object.is(b, baseUrl) && Object.is(u, userId) && Object.is(a, agentId) && Object.is(t, transport) && isChatOf(bound.view, sessionId);
    chatOf = { id: sessionId, chat: keep ? session.chat : session.chat + 1 };
    setSession(chatOf);
  }
  const deps = [baseUrl, userId, agentId, chatOf.chat, transport];
  useEffect(() => {
    const mine = bindChat(latest.current, (view) => handle.current === mine && setBound({ view, deps }), () => latest.current, true);
    handle.current = mine;
    setBound({ view: mine.view(), deps });
    return () => mine.close();
  }, deps);
  // until the effect binds the chat of new options: connecting (or closed), not the old chat or error
  const view = bound !== null && bound.deps.every((d, i) => Object.is(d, deps[i])) ? bound.view : openingView(sessionId);
  const act = useCallback((): ChatHandle => {
    if (handle.current === null) throw new MsgError("closed", "the chat is not open");
    return handle.current;
  }, []);
  const actions = useMemo((): ChatActions => forwardActions(act), [act]);
  const { sessionId: id, hasMore, chat, ...snapshot } = view;
  return { ...snapshot, sessionId: id, chat, hasMore, ...actions };
}

// ------------------------------------------------------------------ useSessions
// (imports of this section: declarations are hoisted, so they may stand here)
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
  const key = sessionsKey(options);
  const latest = useRef(options);
  latest.current = options;
  // made in render (a client and no request); listed from the effect, deferred past StrictMode's remount
  const handle = useMemo((): SessionsHandle => {
    const made: SessionsHandle = bindSessions(latest.current, (view) => setShown({ handle: made, view }), false);
    return made;
  }, [key]);
  const [shown, setShown] = useState<{ handle: SessionsHandle; view: SessionsView } | null>(null);
  useEffect(() => {
    // one of the page's lists while mounted (not the one a StrictMode render throws away)
    const unshare = handle.share();
    const cancel = defer(() => void handle.refresh());
    return () => {
      cancel();
      unshare();
    };
  }, [handle]);
  const { sessions, loading, error } = shown?.handle === handle ? shown.view : handle.view();
  const { client, refresh, create, rename, remove, setPermissionMode } = handle;
  return { sessions, loading, error, client, refresh, create, rename, remove, setPermissionMode };
}
