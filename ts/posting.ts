// The rules by which the chat client posts an input (`POST /chat/`) so that the service
// never applies it twice: a 409 retried while a run that just ended saves, a failed
// connection checked with the service before anything is sent again, a request given up
// for time never sent again. The service keeps no record of inputs (no idempotency key).
import { MsgError } from "./errors.js";
import { now, sleep } from "./timing.js";
import { readPage } from "./chat-io.js";
import { pendingActions } from "./session.js";
import type { ChatTransport } from "./transport.js";

/** How long after a failed `POST /chat/` the chat asks the service whether it was applied (its run takes the session lock within milliseconds). */
const VERIFY_MS = 1000;
/** How long the check of a failed send waits for the session to be idle or the message stored, ms. */
export const VERIFY_WAIT_MS = 10_000;
/** How many times a `POST /chat/` whose connection failed is sent again (each after a check). */
const MAX_RESENDS = 2;

/** What {@link postInput} needs of its chat. */
export interface PostOptions {
  /** Sends the input once (the transport's `chat`). */
  post: (signal: AbortSignal) => Promise<void>;
  /** The chat's lifetime: aborted, nothing more is tried. */
  signal: AbortSignal;
  /** How long a 409 is retried, ms. */
  busyWaitMs: number;
  /** Moves the transport to the next instance. */
  failover: () => void;
  /** Errors nobody awaits. */
  report: (error: unknown) => void;
  /** Called at each 409 before it is tried again (another run holds the session). */
  busy?: () => void;
}

/**
 * Posts an input (`how.post`, one `POST /chat/`), retrying a 409 for `busyWaitMs` (a run that just ended still saves). After
 * `service_unavailable` (the instance is gone, or the connection broke after the request
 * went out) it moves to the next instance, waits `VERIFY_MS` and asks the service whether
 * the input was applied (`applied`): if so it resolves; if it is not, twice `VERIFY_MS`
 * apart, it sends again (at most `MAX_RESENDS` times). A check that fails rejects
 * `service_unavailable` saying the input may still run (a 404 of the session: that 404).
 */
export async function postInput(applied: () => Promise<boolean>, how: PostOptions): Promise<void> {
  const t0 = now();
  let wait = 100;
  let resends = 0;
  for (;;) {
    try {
      await how.post(how.signal);
      return;
    } catch (e) {
      if (how.signal.aborted || !(e instanceof MsgError)) throw e;
      if (e.code === "service_unavailable" && resends < MAX_RESENDS) {
        resends += 1;
        how.report(e);
        how.failover();
        await sleep(VERIFY_MS, how.signal);
        // a request given up for time may still arrive (held by a proxy, a slow
        // instance): the service keeps no record of inputs, so a second one would run the
        // turn twice. It is waited for, never sent again.
        const mayArrive = e.cause === "timeout";
        let done: boolean;
        try {
          done = await applied();
          // a request that went out just before its connection broke reaches the service
          // late under load (its run takes the session's lock after the answer): "not
          // applied" must be seen twice, VERIFY_MS apart, before the input is sent again
          if (!done && !mayArrive) {
            await sleep(VERIFY_MS, how.signal);
            done = await applied();
          }
          for (const t0 = now(); mayArrive && !done && now() - t0 < VERIFY_WAIT_MS && !how.signal.aborted; ) {
            await sleep(500, how.signal);
            done = await applied();
          }
        } catch (c) {
          if (!(c instanceof MsgError) || how.signal.aborted) throw e;
          // the session is gone: that is the answer
          if (c.code === "http_error" && c.status === 404) throw c;
          // any other failure of the check (a 5xx, a page it cannot read): nobody can tell
          // whether the input was taken, and the rejection must not say it was not
          const held = /cannot tell/.test(c.message) ? ` (the session stayed held for ${VERIFY_WAIT_MS / 1000} s)` : " (the check failed: whether it was taken is unknown)";
          throw new MsgError(
            "service_unavailable",
            `${e.message}; then ${c.message}${held}: it may still run once the session is free, so wait for the chat before sending it again`,
          );
        }
        if (done) return;
        if (mayArrive) {
          throw new MsgError(
            "service_unavailable",
            `${e.message}, and the service did not show it in ${VERIFY_WAIT_MS / 1000} s: not sent again, since it may still arrive and run; wait for the chat before sending it again`,
          );
        }
        continue;
      }
      if (e.code !== "busy" || now() - t0 + wait > how.busyWaitMs) throw e;
      how.busy?.();
    }
    await sleep(wait, how.signal);
    wait = Math.min(wait * 1.5, 1000);
  }
}

/** Where an input was posted: the service and session asked, the chat's lifetime. */
export interface Posted {
  transport: ChatTransport;
  sessionId: string;
  signal: AbortSignal;
  /** whether the chat closed (nothing more is asked) */
  closed: () => boolean;
}

/**
 * Whether a sent user turn (the last message `msgId`) was applied, for {@link postInput}: a
 * run stores its user message as it starts. Stored: applied. Idle and not stored: not
 * applied. Held (by this message's run about to store it, or by another run: one saving,
 * or one whose instance died with its lock) and not stored: asked again every 250 ms until
 * `VERIFY_WAIT_MS`, then rejects `service_unavailable` (nobody can tell).
 */
export async function sendApplied(at: Posted, msgId: string): Promise<boolean> {
  const stored = async () => (await readPage(at.transport, at.sessionId, { signal: at.signal })).messages.some((m) => m?.id === msgId);
  const t0 = now();
  for (;;) {
    if (await stored()) return true;
    if ((await at.transport.status(at.sessionId, { signal: at.signal })) === "idle") return stored();
    if (now() - t0 >= VERIFY_WAIT_MS || at.closed()) {
      throw new MsgError("service_unavailable", "cannot tell whether the message was taken");
    }
    await sleep(250, at.signal);
  }
}

/**
 * Whether an answer to the calls `callIds` of the stored reply `replyId` was applied, for
 * {@link postInput}: not applied only while the service still waits on those calls.
 */
export async function answerApplied(at: Posted, replyId: string, callIds: readonly string[]): Promise<boolean> {
  const status = await at.transport.status(at.sessionId, { signal: at.signal });
  if (status !== "awaiting_permission" && status !== "awaiting_external_result") return true;
  const page = await readPage(at.transport, at.sessionId, { signal: at.signal });
  const reply = page.messages.find((m) => m?.id === replyId);
  const waiting = reply === undefined ? [] : pendingActions(reply).map((a) => a.toolCall.id);
  return !callIds.every((id) => waiting.includes(id));
}

/** The `POST /chat/` in flight (one at a time), for `stop()` to wait for. */
export class InFlight {
  #posting: Promise<unknown> | undefined;

  /** Tracks `posting` until it settles; returns it. */
  track<T>(posting: Promise<T>): Promise<T> {
    const mine = posting.then(
      () => {},
      () => {},
    );
    this.#posting = mine;
    void mine.then(() => {
      if (this.#posting === mine) this.#posting = undefined;
    });
    return posting;
  }

  /** Resolves once no post is in flight (one started meanwhile is waited for too). */
  async settled(): Promise<void> {
    while (this.#posting !== undefined) await this.#posting;
  }
}
