// Timing helpers of the chat client: a sleep that an abort ends, a wait an abort gives up,
// the monotonic clock its durations are measured on, and the check of an option in
// milliseconds (or a count).
import { MsgError } from "./errors.js";

/** Resolves after `ms`, or at once when `signal` aborts. */
export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });

/**
 * `promise`, or a rejection with `signal.reason` as soon as `signal` aborts (what a `fetch`
 * that ignores its signal would never give). The promise left behind is not awaited.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => {}); // (settles later, or never: nobody waits for it)
      reject(signal.reason);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

/**
 * Now on a monotonic clock, in ms (`performance.now()`): what every duration of the chat
 * is measured on (a wall clock stepped by NTP, a resumed laptop or a user changing it would
 * make a throttle or a watchdog wait for the length of the jump, or fire at once).
 */
export const now = (): number => performance.now();

/** The longest delay `setTimeout` takes (2^31 - 1 ms, about 24.8 days). */
export const MAX_DELAY = 2 ** 31 - 1;

/** A chat option in ms (or a count): `fallback` when absent; `invalid_argument` outside `min`…2^31 - 1 (Infinity where `infinite`). */
export function number(value: unknown, name: string, fallback: number, min = 0, infinite = false, what = "chat option"): number {
  if (value === undefined) return fallback;
  const ok = typeof value === "number" && value >= min && (value <= MAX_DELAY || (infinite && value === Infinity));
  if (!ok) throw new MsgError("invalid_argument", `${what} ${name} must be a number from ${min} to ${MAX_DELAY}${infinite ? " (or Infinity)" : ""}`);
  return value as number;
}
