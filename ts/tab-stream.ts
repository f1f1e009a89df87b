// One event stream per session for the chats of one origin (a browser's tabs): a browser
// keeps at most 6 HTTP/1.1 connections per host, so a stream held by each tab's chat
// would leave none for their requests. The chat that needs the stream asks for the
// session's Web Lock (`navigator.locks`); the one holding it is the only one connected,
// and relays each whole SSE frame it reads on a `BroadcastChannel`, which every chat of
// the session hears and takes in as its own stream's bytes (the `Session` drops what it
// had by event id). When the holder closes, comes to rest or its tab goes, the lock
// passes to the next chat waiting, which connects from its own cursor. A chat that posts
// an input tells the others (they wake, see `idleStreamMs`). Used by chat.ts (the shell);
// the core never sees it: to it, relayed frames are stream bytes.

/** What goes over the channel. */
type Relayed =
  /** Whole SSE frames the holder read. */
  | { readonly t: "frames"; readonly data: Uint8Array }
  /** The holder's connection opened: what follows replays from its cursor. */
  | { readonly t: "open" }
  /** A chat posted an input: the session is about to run. */
  | { readonly t: "wake" };

/** What {@link TabStream} tells its chat. */
export interface TabStreamHost {
  /** Whole frames of the session's stream, read by the chat holding it. */
  frames(data: Uint8Array): void;
  /** The holder's connection opened (a replay from its cursor follows). */
  opened(): void;
  /** Another chat posted an input. */
  woken(): void;
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
        if (this.#state !== "holding") this.#host.frames(m.data);
      } else if (m.t === "open") {
        if (this.#state !== "holding") this.#host.opened();
      } else if (m.t === "wake") {
        this.#host.woken();
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
    l.request(this.#lock, { signal: wait.signal }, async () => {
      this.#wait = undefined;
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

  #none(wait: AbortController): void {
    if (this.#wait === wait || this.#wait === undefined) {
      this.#wait = undefined;
      this.#state = "none";
    }
  }

  /** Stops waiting for the lock (the chat came to rest before it came). */
  unwait(): void {
    if (this.#state !== "waiting") return;
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
    if (end > 0) this.#post({ t: "frames", data: bytes.slice(0, end) });
  }

  /** This chat posted an input: the others wake. */
  wake(): void {
    this.#post({ t: "wake" });
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
    this.#closed = true;
    this.unwait();
    this.#channel.close();
  }
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
