// `agentscope-message/react`: React hooks over a `Session` (react is an optional peer
// dependency of the package; this subpath is the only one that imports it).
import "#init";
import { useEffect, useState, useSyncExternalStore } from "react";
import { Session, type ReadOptions, type SessionOptions, type SessionSnapshot } from "./session.js";

const EMPTY: SessionSnapshot = Object.freeze({ messages: Object.freeze([]) });
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
  /** The messages so far. */
  snapshot: SessionSnapshot;
  /** The session reading the stream (null before the first request, or with no URL). */
  session: Session | null;
  /** Why the stream stopped early (an HTTP error, a network error, a refused event), or null. */
  error: unknown;
  /** Whether the stream ended (completely or with `error`). */
  done: boolean;
}

/**
 * Streams `url` (SSE, JSON Lines or a JSON array of AgentScope events) into a new
 * `Session` and re-renders as messages change. A new URL starts a new session; the old
 * request is aborted and its session freed. `null` streams nothing.
 */
export function useEventStream(url: string | URL | null, options: EventStreamOptions = {}): EventStreamState {
  const [session, setSession] = useState<Session | null>(null);
  const [status, setStatus] = useState<{ error: unknown; done: boolean }>(IDLE);
  const key = url === null ? null : String(url);
  const { init, onError, ...sessionOptions } = options;
  const optionsKey = JSON.stringify(sessionOptions);
  useEffect(() => {
    if (key === null) {
      // no URL: back to the initial state (not the previous stream's freed session)
      setSession(null);
      setStatus(IDLE);
      return;
    }
    const next = new Session(JSON.parse(optionsKey) as SessionOptions);
    const controller = new AbortController();
    setSession(next);
    setStatus(IDLE);
    const reading = fetch(key, { ...init, signal: controller.signal })
      .then((response) => next.read(response, { signal: controller.signal, onError }))
      .then(
        () => {
          // a stream that ended just as its URL changed must not mark the next one done
          if (!controller.signal.aborted) setStatus({ error: null, done: true });
        },
        (error: unknown) => {
          if (!controller.signal.aborted) setStatus({ error, done: true });
        },
      );
    return () => {
      controller.abort();
      // a snapshot of a freed session stays readable, so a late render is safe
      void reading.finally(() => next.free());
    };
    // `init` and `onError` are read when a stream starts; a new URL or new session
    // options start a new stream
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, optionsKey]);
  const snapshot = useSession(session);
  return { snapshot, session, ...status };
}
