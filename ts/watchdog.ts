// The run watchdog of the chat client: while a reply is in flight (or an input was
// posted, or a run is taken as lost) and no event came for a while, it asks the service
// whether the run still goes; a run the service still says runs, with no progress for
// `lostRunMs`, is taken as lost. `POST /chat/` answers before its run takes the session,
// so a service found at rest ends an input posted within `lostRunMs` only once the
// service showed its run. It owns the timer and the clocks; what an answer means for the
// messages is its chat's (the host).
import type { ServiceStatus } from "./transport.js";
import { now } from "./timing.js";

/** How long a stop that came right after an answer waits for the answer's run to show (its interrupt goes again then), ms. */
const STOP_WAIT_MS = 10_000;

/** What {@link RunWatchdog} needs of its chat. */
export interface WatchdogHost {
  /** Whether the chat was closed: nothing is asked then, and an answer that comes after is dropped. */
  closed(): boolean;
  /**
   * What there is to watch now: `stopping` (a reply being stopped: asked after 250 ms of
   * silence, so that a turn stopped before its reply started ends quietly), `run` (a reply
   * in flight or an input posted, or a run taken as lost until the service is free: asked
   * after `statusPollMs`), or null (nothing).
   */
  watched(): "run" | "stopping" | null;
  /**
   * Whether silence may be taken as a lost run: the event stream is open (no stream, no
   * events: silence says nothing then) and the run is not taken as lost already.
   */
  mayLose(): boolean;
  /**
   * Whether the reply being stopped waits for the run of an answer posted before the stop
   * (the interrupt goes again once it shows): at rest says nothing yet, for a while.
   */
  stopWaits(): boolean;
  /** The session's status, asked of the service. */
  status(): Promise<ServiceStatus>;
  /** The service says `running` and nothing progressed for `quietMs` (at least `lostRunMs`): the run is taken as lost. */
  lost(quietMs: number): void;
  /**
   * Whether the input posted last may still be waiting for its run to take the session:
   * nothing of its run came on the stream (no reply of it started, the answered reply
   * unchanged) and, asked of the service, the session is held again or the store shows
   * nothing of it (a user message not stored, the answered calls still waiting). False
   * at once when nothing posted is waiting.
   */
  awaited(): Promise<boolean>;
  /** The service runs nothing: the run is over, with or without its end. */
  over(): Promise<void>;
  /** Errors nobody awaits (a failed status request). */
  report(error: unknown): void;
  /**
   * Whether the session is watched at rest (nothing to watch, and no event stream held:
   * `idleStreamMs`): its status is asked every `statusPollMs`. Absent: never.
   */
  resting?(): boolean;
  /** The status asked at rest says the session runs (another tab's, or another client's, run). */
  running?(): void;
  /**
   * Every 4th question at rest: whether anything ran since the chat's page (a run that
   * began and ended between two questions: the stored page moved on). True: `running`.
   */
  moved?(): Promise<boolean>;
}

/**
 * Asks the service, on a timer, about a run that went quiet (see {@link WatchdogHost}).
 * Its chat tells it when the service was heard from (`heard`), when a message changed
 * (`progressed`) and when a post goes out and comes back (`postStarted` / `postEnded`:
 * nothing is asked meanwhile).
 */
export class RunWatchdog {
  readonly #host: WatchdogHost;
  readonly #statusPollMs: number;
  readonly #lostRunMs: number;
  /** when the service was last heard from (an event of the stream, an answered post) or asked */
  #lastEvent = now();
  /** when an event last changed a message, or an input was posted (the run-lost clock) */
  #lastProgress = now();
  /** POST /chat/ requests in flight (nothing is asked meanwhile) */
  #posting = 0;
  /** when a POST /chat/ last came back, or the service last said `running` (the grace of an input whose run has not shown) */
  #waitFrom = -Infinity;
  /** counts what makes an answer in flight stale: an event heard, a post, a stop */
  #news = 0;
  #watch: ReturnType<typeof setInterval> | undefined;
  /** the questions asked at rest */
  #restAsked = 0;

  /** `statusPollMs` and `lostRunMs`: the chat's options of those names, checked. */
  constructor(host: WatchdogHost, options: { statusPollMs: number; lostRunMs: number }) {
    this.#host = host;
    this.#statusPollMs = options.statusPollMs;
    this.#lostRunMs = options.lostRunMs;
  }

  /** Starts the timer: a tick every `statusPollMs`, but at least every second and at most every 50 ms. */
  start(): void {
    this.#watch = setInterval(() => void this.#check(), Math.max(50, Math.min(this.#statusPollMs, 1000)));
  }

  /** Stops the timer (the chat closed). */
  close(): void {
    clearInterval(this.#watch);
  }

  /** The service was heard from (an event of the stream, an answered post): the next question waits again. */
  heard(): void {
    this.#lastEvent = now();
    this.#news += 1;
  }

  /** The next tick asks the service without waiting out the clock (after a stop). */
  askNow(): void {
    this.#lastEvent = -Infinity;
    this.#news += 1;
  }

  /** A run was seen from elsewhere (another tab's send): the clocks start again, as after a post. */
  woken(): void {
    this.#lastEvent = now();
    this.#lastProgress = now();
    this.#waitFrom = now();
    this.#news += 1;
  }

  /** An event changed a message: the run-lost clock starts again. */
  progressed(): void {
    this.#lastProgress = now();
  }

  /** A `POST /chat/` goes out: nothing is asked until it is back. */
  postStarted(): void {
    this.#posting += 1;
    this.#news += 1;
  }

  /** A `POST /chat/` is back (answered or failed): both clocks start again. */
  postEnded(): void {
    this.#posting -= 1;
    this.#lastEvent = now();
    this.#lastProgress = now();
    this.#waitFrom = now();
    this.#news += 1;
  }

  /**
   * A tick: while there is something to watch and no event came for `statusPollMs` (250 ms
   * while stopping), ask the service. An answer is news only if nothing came meanwhile (an
   * event, a post, a stop): else it is dropped and asked again. `running` with no progress
   * for `lostRunMs`: the run is lost. Anything else: the run is over (a run over without a
   * `REPLY_END`: a stale confirmation, a stray `REPLY_START`, a run whose instance died),
   * except while an input posted less than `lostRunMs` after its `POST /chat/` came back
   * (or after the service last said `running`) may still wait for its run to take the
   * session (`awaited`): then it is asked again.
   */
  async #check(): Promise<void> {
    if (this.#host.closed() || this.#posting > 0) return;
    const watched = this.#host.watched();
    if (watched === null) return this.#rest();
    if (now() - this.#lastEvent < (watched === "stopping" ? 250 : this.#statusPollMs)) return;
    this.#lastEvent = now();
    const news = this.#news;
    // (asked before an event, a post or a stop: the answer may predate the run)
    const stale = () => this.#host.closed() || this.#posting > 0 || this.#news !== news;
    const status = await this.#ask(() => this.#host.status());
    if (status === undefined || stale()) return;
    if (status === "running") {
      this.#waitFrom = now();
      if (this.#host.mayLose() && now() - this.#lastProgress >= this.#lostRunMs) {
        this.#host.lost(now() - this.#lastProgress);
        this.#lastProgress = now();
      }
      return;
    }
    // POST /chat/ answers before its run takes the session (and a run queued behind
    // another takes it a moment after that one lets go): at rest says nothing yet of an
    // input whose run has not shown
    const watching = this.#host.watched();
    const grace = watching === "run" ? this.#lostRunMs : watching === "stopping" && this.#host.stopWaits() ? Math.min(this.#lostRunMs, STOP_WAIT_MS) : 0;
    if (now() - this.#waitFrom < grace) {
      const awaited = await this.#ask(() => this.#host.awaited());
      if (awaited !== false || stale()) return;
    }
    await this.#host.over();
  }

  /** At rest with no stream (`resting`): every `statusPollMs`, is the session running? Then `running`. */
  async #rest(): Promise<void> {
    if (this.#host.resting?.() !== true || now() - this.#lastEvent < this.#statusPollMs) return;
    this.#lastEvent = now();
    const news = this.#news;
    let status = await this.#ask(() => this.#host.status());
    // (a run short enough to fit between two questions shows in the stored page: asked every 4th time)
    if (status !== undefined && status !== "running" && ++this.#restAsked % 4 === 0 && this.#host.moved !== undefined) {
      if ((await this.#ask(() => this.#host.moved!())) === true) status = "running";
    }
    if (status !== "running" || this.#host.closed() || this.#news !== news || this.#host.resting?.() !== true) return;
    // (the run-lost clock starts now: the rest before was no silence of a run)
    this.#waitFrom = now();
    this.#lastProgress = now();
    this.#host.running?.();
  }

  /** Asks the service (through the host); a failure is reported (unless the chat closed meanwhile) and gives undefined. */
  async #ask<T>(question: () => Promise<T>): Promise<T | undefined> {
    try {
      return await question();
    } catch (e) {
      if (!this.#host.closed()) this.#host.report(e);
      return undefined;
    }
  }
}
