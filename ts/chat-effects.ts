// What the chat's shell (chat.ts) does for each effect the state machine (chat-core.ts)
// asks for: a reload of the stored page, `onFinish` / `onEvent`, a report to `onError`,
// the watchdog's news, the transport's failover, an interrupt, the stream's connection
// aborted; and how its listeners are told. docs/chat.md, "How the chat is built".
import type { AppState } from "./app-state.js";
import type { ChatCore } from "./chat-core.js";
import type { Reloader } from "./chat-io.js";
import type { Effect } from "./chat-state.js";
import { now } from "./timing.js";
import type { ChatTransport } from "./transport.js";
import type { RunWatchdog } from "./watchdog.js";

/** What the effects act on: the chat's parts. */
export interface EffectTarget {
  readonly core: ChatCore;
  /** the app state the stream carries (state, session record, progress, team workers' calls) */
  readonly app: AppState;
  readonly watchdog: RunWatchdog;
  readonly reloader: Reloader;
  readonly transport: ChatTransport;
  readonly sessionId: string;
  /** the chat's lifetime (aborted at its close) */
  readonly signal: AbortSignal;
  /** the event stream's connection now, if any */
  connection(): AbortController | undefined;
  /** calls the app's code; what it throws is reported */
  call(f: () => void): void;
  report(error: unknown): void;
}

/** Performs one effect of the core on `to`. */
export function perform(effect: Effect, to: EffectTarget): void {
  switch (effect.type) {
    case "reload":
      void to.reloader.refresh(effect.untilIdle);
      break;
    case "finish":
      to.call(() => to.core.options.onFinish?.(effect.message));
      break;
    case "event":
      to.app.apply(effect.event);
      to.call(() => to.core.options.onEvent?.(effect.event, effect.info));
      break;
    case "report":
      to.report(effect.error);
      break;
    case "heard":
      to.watchdog.heard();
      break;
    case "progressed":
      to.watchdog.progressed();
      break;
    case "failover":
      to.call(() => to.transport.failover?.());
      break;
    case "interrupt":
      to.transport.interrupt(to.sessionId, { signal: to.signal }).then(
        () => to.watchdog.askNow(),
        (e: unknown) => {
          if (!to.core.closed) to.report(e);
        },
      );
      break;
    case "abort_stream":
      to.connection()?.abort(effect.error);
      break;
  }
}

/** The chat's listeners (`subscribe`): told at most once per macrotask (or per `throttleMs`), never inside a call of the chat. */
export class Listeners {
  readonly #set = new Set<() => void>();
  readonly #call: (f: () => void) => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #last = -Infinity;

  /** `call`: calls a listener (what it throws is reported). */
  constructor(call: (f: () => void) => void) {
    this.#call = call;
  }

  /** Adds `listener`; returns the function that removes it. */
  add(listener: () => void): () => void {
    this.#set.add(listener);
    return () => void this.#set.delete(listener);
  }

  /** Tells the listeners at the next macrotask (or `throttleMs` after the last time). */
  notify(throttleMs: number): void {
    if (this.#timer !== undefined || this.#set.size === 0) return;
    const wait = Math.max(0, this.#last + throttleMs - now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#last = now();
      for (const listener of [...this.#set]) this.#call(listener);
    }, wait);
  }

  /** The chat closed: they are told once more, now, and dropped. */
  close(): void {
    clearTimeout(this.#timer);
    const listeners = [...this.#set];
    this.#set.clear();
    for (const listener of listeners) this.#call(listener);
  }
}
