// The chat's stream, steered (`idleStreamMs`, `shareStream`): held only while wanted, closed
// after `idleStreamMs` at rest, and in a browser shared by the tabs of one session (one
// holds it, the others follow its relayed frames: tab-stream.ts). Part of the chat's shell
// (chat.ts): it opens and ends the stream loop (chat-io.ts `runStream`) and sets the idle
// timer; what it decides from is the core's (chat-core.ts) and the chat's `wanted()`.
// docs/chat.md, "Many tabs".
import { MsgError } from "./errors.js";
import type { ChatCore } from "./chat-core.js";
import { runStream, type StreamHost } from "./chat-io.js";
import { TabStream } from "./tab-stream.js";
import type { ChatStatus } from "./chat-types.js";

/** What the steering needs of its chat. */
export interface SteerHost {
  readonly core: ChatCore;
  /** what the stream's loop needs (its `opened` / `relay` call the steering's) */
  readonly stream: StreamHost;
  /** runs a transition of the core, then performs its effects */
  do<T>(transition: () => T): T;
  /** whether the session's stream is wanted now */
  wanted(): boolean;
  /** the chat's status now */
  status(): ChatStatus;
  /** another tab posted an input (the watchdog asks the service soon) */
  woken(): void;
  /** another tab stopped the run (the watchdog asks the service now) */
  askNow(): void;
}

/** The stream of a steered chat (see the module comment). */
export class StreamSteer {
  readonly #host: SteerHost;
  /** the key of the session's stream shared by the tabs (`shareStream`), or null */
  readonly #shareKey: string | null;
  /** the tabs' share of the session's stream (from the start on), or null */
  #tabs: TabStream | null = null;
  /** the chat opened: the stream is steered from now on */
  #started = false;
  /** this chat's own stream loop while it runs (`until` ends it: the session came to rest) */
  #own: { until: AbortController } | undefined;
  /** the next own loop reloads the page before it connects (after `reconnect()`); else it connects from the chat's cursor */
  #reloadFirst = false;
  /** closes the stream once the session stayed at rest for `idleStreamMs` */
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  #steering = false;

  constructor(host: SteerHost, shareKey: string | null) {
    this.#host = host;
    this.#shareKey = shareKey;
  }

  /** Whether this chat runs no stream loop of its own now (the status is watched then, at rest). */
  get resting(): boolean {
    return this.#own === undefined;
  }

  /** The chat opened: its stream is steered from now on (at rest: none, the status is watched; else held, or shared with other tabs). */
  start(): void {
    const { core } = this.#host;
    if (this.#shareKey !== null) {
      this.#tabs = new TabStream(this.#shareKey, {
        frames: (data) => this.#relayed(data),
        opened: () => {
          // (a chat waiting for the stream takes the holder's new connection as its own)
          if (!core.closed && this.#tabs?.waiting === true) this.#host.do(() => core.streamOpened());
        },
        woken: () => {
          if (core.closed) return;
          this.#host.woken();
          this.#host.do(() => core.runSeen());
        },
        stopped: () => {
          // (another tab stopped the run: a turn posted here that it dropped goes quietly)
          const status = this.#host.status();
          if (core.closed || (status !== "streaming" && status !== "submitted")) return;
          this.#host.do(() => core.stoppedElsewhere());
          this.#host.askNow();
        },
      });
    }
    this.#started = true;
    if (!this.#host.wanted()) this.#host.do(() => core.streamIdle());
    else this.steer();
  }

  /**
   * After each transition: a stream wanted is opened (or, shared, the lock asked for); one
   * held (or waited for, or followed) at rest is let go after `idleStreamMs` at rest.
   */
  steer(): void {
    const { core } = this.#host;
    if (!this.#started || this.#steering || core.closed || core.fatal) return;
    this.#steering = true;
    try {
      if (this.#host.wanted()) {
        clearTimeout(this.#idleTimer);
        this.#idleTimer = undefined;
        this.#wake();
      } else if (this.#idleTimer === undefined && (this.#own !== undefined || this.#tabs?.waiting === true || core.link !== "idle")) {
        this.#idleTimer = setTimeout(() => {
          this.#idleTimer = undefined;
          if (!this.#host.wanted()) this.#rest();
        }, core.options.idleStreamMs);
      }
    } finally {
      this.#steering = false;
    }
  }

  /** After `reconnect()`: the next loop reloads the page first (not wanted now: the page is reloaded alone, `reload`). */
  restart(reload: () => void): void {
    if (!this.#host.wanted()) reload();
    else this.#reloadFirst = true;
    this.steer();
  }

  /** The held connection opened: the other tabs are told. */
  opened(): void {
    this.#tabs?.opened();
  }

  /** A chunk of the held stream: relayed to the other tabs. */
  relay(chunk: Uint8Array): void {
    this.#tabs?.relay(chunk);
  }

  /** This chat posted an input: the other tabs wake. */
  posted(): void {
    this.#tabs?.wake();
  }

  /** This chat's interrupt was answered: the other tabs take their turns as stopped. */
  stopped(): void {
    this.#tabs?.stop();
  }

  /** The chat closed: its loop ends, the tabs' share goes, the idle timer stops. */
  close(): void {
    this.#own?.until.abort(new MsgError("closed", "the chat was closed"));
    this.#tabs?.close();
    clearTimeout(this.#idleTimer);
  }

  /** The stream is wanted: this chat's own, or (shared) the lock asked for, following the holder meanwhile. */
  #wake(): void {
    // (connecting from now on, also while a loop let go at rest still winds down)
    this.#host.do(() => this.#host.core.streamWaking());
    if (this.#own !== undefined) return;
    if (this.#tabs !== null) {
      if (this.#tabs.holding || this.#tabs.waiting) return;
      this.#tabs.lead(
        () => this.#runOwn(),
        () => this.#host.wanted(),
        () => this.steer(),
      );
      return;
    }
    void this.#runOwn();
  }

  /** This chat's own stream loop (`runStream`), from the latest page's cursor (reloaded first, but at the first connect). */
  async #runOwn(): Promise<void> {
    const own = { until: new AbortController() };
    this.#own = own;
    // (from the chat's cursor: the service replays what ran since, a run missed at rest included)
    const reloadFirst = this.#reloadFirst;
    this.#reloadFirst = false;
    try {
      await runStream(this.#host.stream, reloadFirst, own.until.signal);
    } finally {
      // (a frame cut when it stopped is no start for what comes relayed next; a loop started
      // since, once this one was let go at rest, reads on)
      if (this.#own === own || this.#own === undefined) {
        this.#own = undefined;
        if (!this.#host.core.closed) this.#host.core.session.restartStream();
      }
    }
    if (this.#tabs === null) this.steer();
  }

  /** The session stayed at rest for `idleStreamMs`: its stream is closed (connection `idle`; the status is watched). */
  #rest(): void {
    const { core } = this.#host;
    if (core.closed) return;
    this.#tabs?.unwait();
    // (a chat opened later reads what ran from the stored page: a catch-up starts at the next run)
    this.#tabs?.forget();
    // (let go at once: a send meanwhile starts another loop, this one ends at its next step)
    const own = this.#own;
    this.#own = undefined;
    own?.until.abort(new MsgError("closed", "the session is at rest: its stream is closed"));
    this.#host.do(() => core.streamIdle());
  }

  /** Frames relayed by the chat (of another tab) holding the session's stream: taken in as this chat's stream's. */
  #relayed(data: Uint8Array): void {
    const { core } = this.#host;
    if (core.closed) return;
    this.#host.do(() => {
      core.feed(data);
      if (this.#tabs?.waiting === true) core.streamFollowed();
    });
  }
}
