import { Session, type ReadOptions, type SessionOptions, type SessionSnapshot } from "./session.js";
/**
 * The session's current snapshot; the component re-renders when a `feed` / `end` /
 * `apply` changed a message (`useSyncExternalStore` over `session.subscribe` and
 * `session.getSnapshot`). With `null`, an empty snapshot.
 */
export declare function useSession(session: Session | null): SessionSnapshot;
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
export declare function useEventStream(url: string | URL | null, options?: EventStreamOptions): EventStreamState;
