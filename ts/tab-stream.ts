// One event stream per session for the chats of one origin (a browser's tabs): a browser
// keeps at most 6 HTTP/1.1 connections per host, so a stream held by each tab's chat
// would leave none for their requests. The chat that needs the stream asks for the
// session's Web Lock (`navigator.locks`); the one holding it is the only one connected,
// and relays each whole SSE frame it reads on a `BroadcastChannel`, which every chat of
// the session hears and takes in as its own stream's bytes (the `Session` drops what it
// had by event id). A chat that starts waiting for the lock mid-reply asks the holder to
// catch it up: every chat keeps the frames it took in since the session last came to rest
// (`forget`), relayed to it or read and relayed by it (the last `CATCH_UP_BYTES` of them:
// a holder that took over has what the former holder relayed, which its own connection's
// replay may lack), and the holder sends them to that chat alone, which takes them in as
// a replay before the frames relayed meanwhile (held back until then, or for
// `CATCH_UP_WAIT_MS` if no holder answers). When the holder closes, comes to rest or its
// tab goes, the lock passes to the next chat waiting, which connects from its own cursor.
// A chat that posts an input tells the others (they wake, see `idleStreamMs`), and one
// whose interrupt was answered tells them the run is being stopped. Used by chat.ts and
// chat-steer.ts (the shell); the core never sees it: to it, relayed frames are stream bytes.
//
// The channel is the origin's: a script of the same origin can post on it (as it can call
// the service or change the page); what comes on it is taken as the holder's.

/** What goes over the channel. */
type Relayed =
  /** Whole SSE frames the holder read. */
  | { readonly t: "frames"; readonly data: Uint8Array }
  /** The holder's connection opened: what follows replays from its cursor. */
  | { readonly t: "open" }
  /** A chat posted an input: the session is about to run. */
  | { readonly t: "wake" }
  /** A chat's interrupt was answered: the session's run is being stopped. */
  | { readonly t: "stop" }
  /** A chat started waiting for the lock: the holder catches it up. */
  | { readonly t: "hello"; readonly from: string }
  /** The holder's frames since its connection opened, for the chat `to` alone. */
  | { readonly t: "catchup"; readonly to: string; readonly data: Uint8Array };

/** The most bytes of relayed frames a holder keeps for the chats that come late (the latest). */
export const CATCH_UP_BYTES = 8 * 1024 * 1024;
/** How long a chat that asked to be caught up holds back relayed frames when no holder answers, in ms. */
export const CATCH_UP_WAIT_MS = 1000;

/** What {@link TabStream} tells its chat. */
export interface TabStreamHost {
  /** Whole frames of the session's stream, read by the chat holding it. */
  frames(data: Uint8Array): void;
  /** The holder's connection opened (a replay from its cursor follows). */
  opened(): void;
  /** Another chat posted an input. */
  woken(): void;
  /** Another chat stopped the session's run (its interrupt was answered). */
  stopped(): void;
}

interface Locks {
  request(name: string, options: { signal?: AbortSignal }, run: () => Promise<void>): Promise<void>;
}

/** The Web Locks of this page, or undefined. */
function locks(): Locks | undefined {
  const l = (globalThis as { navigator?: { locks?: Locks } }).navigator?.locks;
  return typeof l?.request === "function" ? l : undefined;
}

/** Whether `TabStream` can work here: `BroadcastChannel` and `navigator.locks`. */
export function tabStreamAvailable(): boolean {
  return typeof (globalThis as { BroadcastChannel?: unknown }).BroadcastChannel === "function" && locks() !== undefined;
}

/** The share of one session's event stream by one chat (see the module comment). */
export class TabStream {
  readonly #channel: BroadcastChannel;
  readonly #lock: string;
  readonly #host: TabStreamHost;
  /** what the chat does with the lock: nothing, waiting for it, or holding it (streaming) */
  #state: "none" | "waiting" | "holding" = "none";
  /** aborts the wait for the lock */
  #wait: AbortController | undefined;
  /** the bytes read after the last whole frame (relayed once their frame is whole) */
  #rest: Uint8Array = new Uint8Array();
  /** the frames this chat took in (relayed to it, or relayed by it), the latest CATCH_UP_BYTES */
  #log: Uint8Array[] = [];
  #logBytes = 0;
  /** this chat's name in hello / catchup */
  readonly #me = Math.random().toString(36).slice(2) + Date.now().toString(36);
  /** (waiting, asked to be caught up) the frames relayed meanwhile, held back, and the wait's end */
  #held: { frames: Uint8Array[]; timer: ReturnType<typeof setTimeout> } | undefined;
  #closed = false;

  /** `key`: the session's stream across tabs (`ChatTransport.streamKey`). */
  constructor(key: string, host: TabStreamHost) {
    this.#host = host;
    const name = `agentscope-message:stream:${key}`;
    this.#lock = name;
    this.#channel = new BroadcastChannel(name);
    this.#channel.onmessage = (e: MessageEvent) => {
      const m = e.data as Relayed | null;
      if (this.#closed || typeof m !== "object" || m === null) return;
      if (m.t === "frames" && m.data instanceof Uint8Array) {
        // (a chat holding the stream reads it itself: what a former holder still relays is old)
        if (this.#state === "holding") return;
        if (this.#held !== undefined) this.#held.frames.push(m.data);
        else this.#take(m.data);
      } else if (m.t === "open") {
        if (this.#state === "holding") return;
        // (a new connection replays from the holder's cursor: no catch-up needed; what the
        // former holder relayed, held back, came before it)
        this.#release(true);
        this.#host.opened();
      } else if (m.t === "wake") {
        this.#host.woken();
      } else if (m.t === "stop") {
        this.#host.stopped();
      } else if (m.t === "hello" && typeof m.from === "string") {
        if (this.#state === "holding" && this.#log.length > 0) this.#post({ t: "catchup", to: m.from, data: concat(this.#log) });
      } else if (m.t === "catchup" && m.to === this.#me && m.data instanceof Uint8Array) {
        if (this.#held === undefined || this.#state === "holding") return;
        const held = this.#held;
        this.#release(false);
        this.#host.opened();
        this.#take(m.data);
        for (const f of held.frames) this.#take(f);
      }
    };
  }

  /** Whether this chat holds the session's stream (the lock). */
  get holding(): boolean {
    return this.#state === "holding";
  }

  /** Whether this chat waits for the lock (another chat holds it). */
  get waiting(): boolean {
    return this.#state === "waiting";
  }

  /**
   * Asks for the lock (unless asked already or held): once it comes, `stream` runs (the
   * chat connects and relays) if `wanted()` still says so (the chat may have come to rest
   * meanwhile); the lock goes when it resolves. `after`: once nothing is asked or held
   * any more.
   */
  lead(stream: () => Promise<void>, wanted: () => boolean, after: () => void): void {
    const l = locks();
    if (this.#closed || this.#state !== "none" || l === undefined) return;
    const wait = new AbortController();
    this.#wait = wait;
    this.#state = "waiting";
    // a holder's frames since it connected come first: what it relays meanwhile waits for them
    this.#held = { frames: [], timer: setTimeout(() => this.#release(true), CATCH_UP_WAIT_MS) };
    this.#post({ t: "hello", from: this.#me });
    l.request(this.#lock, { signal: wait.signal }, async () => {
      this.#wait = undefined;
      this.#release(true);
      if (this.#closed || !wanted()) return;
      this.#state = "holding";
      this.#rest = new Uint8Array();
      try {
        await stream();
      } finally {
        this.#rest = new Uint8Array();
      }
    }).then(
      () => {
        this.#none(wait);
        after();
      },
      () => this.#none(wait), // (aborted: the wait was given up)
    );
  }

  /** Frames this chat took in (relayed, or read and relayed as the holder): kept for a late chat's catch-up. */
  #keep(frames: Uint8Array): void {
    this.#log.push(frames);
    this.#logBytes += frames.length;
    while (this.#logBytes > CATCH_UP_BYTES && this.#log.length > 1) this.#logBytes -= this.#log.shift()!.length;
  }

  /** Frames relayed to this chat: taken in (and kept). */
  #take(frames: Uint8Array): void {
    this.#keep(frames);
    this.#host.frames(frames);
  }

  /** Ends the hold on relayed frames (`flush`: what was held back goes to the chat now). */
  #release(flush: boolean): void {
    const held = this.#held;
    if (held === undefined) return;
    this.#held = undefined;
    clearTimeout(held.timer);
    if (flush && !this.#closed) for (const f of held.frames) this.#take(f);
  }

  #none(wait: AbortController): void {
    if (this.#wait === wait || this.#wait === undefined) {
      this.#wait = undefined;
      this.#state = "none";
    }
  }

  /** Stops waiting for the lock (the chat came to rest before it came). */
  unwait(): void {
    if (this.#state !== "waiting") return;
    this.#release(true);
    this.#wait?.abort();
    this.#wait = undefined;
    this.#state = "none";
  }

  /** The held connection opened: the others are told (what follows replays from its cursor). */
  opened(): void {
    this.#rest = new Uint8Array();
    this.#post({ t: "open" });
  }

  /** A chunk of the held stream: its whole frames go to the others (the rest waits for its end). */
  relay(chunk: Uint8Array): void {
    let bytes = chunk;
    if (this.#rest.length > 0) {
      bytes = new Uint8Array(this.#rest.length + chunk.length);
      bytes.set(this.#rest);
      bytes.set(chunk, this.#rest.length);
    }
    const end = lastFrameEnd(bytes);
    this.#rest = bytes.slice(end);
    if (end === 0) return;
    const frames = bytes.slice(0, end);
    this.#keep(frames);
    this.#post({ t: "frames", data: frames });
  }

  /** The session came to rest (its stored page holds what ran): the frames kept for a late chat's catch-up go. */
  forget(): void {
    this.#log = [];
    this.#logBytes = 0;
  }

  /** This chat posted an input: the others wake. */
  wake(): void {
    this.#post({ t: "wake" });
  }

  /** This chat's interrupt was answered: the others take their turns as stopped. */
  stop(): void {
    this.#post({ t: "stop" });
  }

  #post(m: Relayed): void {
    if (this.#closed) return;
    try {
      this.#channel.postMessage(m);
    } catch {
      // a channel closed under the page (its unload): nobody listens any more
    }
  }

  /** The chat closed: it stops listening and waiting (a held lock goes when its stream's loop ends). */
  close(): void {
    this.#release(false);
    this.#closed = true;
    this.unwait();
    this.#log = [];
    this.#channel.close();
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}

/**
 * Where the last whole SSE frame of `bytes` ends (after its blank line: LF LF, CR LF CR
 * LF, or CR CR not followed by LF), or 0.
 */
export function lastFrameEnd(bytes: Uint8Array): number {
  for (let i = bytes.length - 1; i >= 1; i--) {
    const c = bytes[i];
    if (c === 10 && (bytes[i - 1] === 10 || (bytes[i - 1] === 13 && bytes[i - 2] === 10))) return i + 1;
    // (a CR CR at the very end may be the start of CR LF: its frame ends with the next byte)
    if (c === 13 && bytes[i - 1] === 13 && i + 1 < bytes.length && bytes[i + 1] !== 10) return i + 1;
  }
  return 0;
}
