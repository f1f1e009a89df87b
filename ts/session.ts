// `Session`: one AgentScope event stream, from network bytes to UI snapshots, over the
// wasm core's `Session` (framing, decoding, routing by reply_id, reducing, diagnostics).
import { SessionHandle, splitEvents as wasmSplitEvents } from "./wasm/agentscope_message.js";
import type { AgentEvent } from "./event.js";
import type { ContentBlock, MsgJSON, ToolCallBlock } from "./message.js";
import { MsgError, call, capsJSON, expectString, rethrow, toJSONText } from "./errors.js";
import { DeltaBatch, deltaKind, parts, type DeltaObject, type DeltaSink } from "./hot.js";
import { applyChanges, deepFreeze, type MessageChanges } from "./snapshot.js";
import { readPartialJson } from "./partial-json.js";

/**
 * The largest piece of a chunk copied into wasm at once, in bytes (or UTF-16 units of a
 * string): a chunk of 200 MiB is framed and applied piece by piece, so the frame cap
 * drops an oversized frame as it comes instead of after a copy of the whole chunk, and
 * the frames of the whole chunk never wait all at once.
 */
const PIECE = 1 << 20;

const FREED: SessionSnapshot = Object.freeze({ messages: Object.freeze([]), unstartedCalls: Object.freeze([]) });

// A handle made by `Session.restore`, adopted by the next constructor call.
let adopt: SessionHandle | undefined;

/** Options of a {@link Session}; all off by default, which reproduces the reference exactly. */
export interface SessionOptions {
  /**
   * Refuse (throw `MsgError`, session unchanged) what the lenient session skips or only
   * warns about: a delta or end for a block never started (`unknown_block`), a second
   * start of a block id (`duplicate_block`), an event after its reply's `REPLY_END`
   * (`after_end`), a delta for a block after its end (`after_block_end`), a confirmation
   * asked again for a call already allowed (`asked_again`), an event of a
   * reply never opened (`unknown_reply`), an unknown event
   * type (`unknown_event_type`), an event of a reply whose `REPLY_START` had an empty
   * `reply_id` (`foreign_reply`).
   */
  strict?: boolean;
  /**
   * Apply an event whose `id` was already applied only once (a resumed stream, a proxy
   * retry); repeats are skipped with a `duplicate` diagnostic. Events without an `id`
   * on the wire are never deduplicated.
   */
  dedup?: boolean;
  /**
   * Skip a frame that is not JSON (`invalid_json`) or not an AgentScope event
   * (`invalid_event`) with a diagnostic of that code, instead of throwing `MsgError`; the
   * events behind it are applied. Off by default: the reference raises on such an event.
   */
  skipInvalid?: boolean;
  /**
   * Keep every event that decoded, in stream order, with what became of it, for
   * {@link Session.takeEvents} (e.g. to hand each event on as it comes). The caller must
   * take them: they accumulate until taken. Not part of a checkpoint (the option is).
   */
  keepEvents?: boolean;
  /**
   * Which tool call (and result) a repeated tool-call id names: `"first"` (the reference)
   * or `"newest"` (for providers that number tool calls per round, `search:0` each time).
   */
  toolCallMatch?: "first" | "newest";
  /**
   * Which text, thinking or data block a repeated block id names: `"first"` (the
   * reference's `_find_block`) or `"newest"` (for producers that reuse one id for every
   * block of a kind, as AgentScope-Java's `"text"` and `"thinking"`): a start after the
   * end of the id's newest block then opens a new block without a diagnostic, and later
   * deltas and ends go to it. A start while that block is still open stays a
   * `duplicate_block` (refused when `strict`).
   */
  blockMatch?: "first" | "newest";
  /**
   * The longest frame (an SSE event's data, a JSON Lines line, a JSON array element), in
   * bytes; default 64 MiB, 0 for no cap. A longer one throws `MsgError`
   * (`limit_exceeded`) and is dropped without being held whole; SSE and JSON Lines
   * streams go on after it.
   */
  maxFrameBytes?: number;
  /**
   * The payload of one delta event (its `delta`, or a data delta's `data` or `url`), in
   * UTF-8 bytes; default 64 MiB, 0 for no cap. Past it the event throws `MsgError`
   * (`limit_exceeded`) and changes nothing.
   */
  maxDeltaBytes?: number;
  /**
   * What one block takes in (its wire JSON when the message was made, plus each payload
   * applied to it), in bytes; default 256 MiB, 0 for no cap (`limit_exceeded`).
   */
  maxBlockBytes?: number;
  /**
   * What one message takes in (its wire JSON when made, plus each event applied: a delta
   * its payload, any other event its wire JSON), in bytes; default 512 MiB, 0 for no cap
   * (`limit_exceeded`).
   */
  maxMessageBytes?: number;
  /** The blocks of one message; default 100,000, 0 for no cap (`limit_exceeded`). */
  maxBlocks?: number;
  /**
   * What all the session's messages take in together, in bytes; default 1 GiB, 0 for no
   * cap (`limit_exceeded`). With the defaults one session stays well inside the 4 GiB of
   * wasm memory, its snapshots included.
   */
  maxSessionBytes?: number;
}


/** How the session framed its input, detected from the first bytes. */
export type Framing = "sse" | "json_lines" | "json_array";

/** Why an event was skipped or is suspicious (the stable codes of the Rust `Skip`). */
export type SkipCode =
  | "foreign_reply"
  | "ignored_type"
  | "unknown_block"
  | "stale"
  | "duplicate"
  | "unknown_reply"
  | "named_sse_event"
  | "unknown_event_type"
  | "after_end"
  | "duplicate_block"
  | "after_block_end"
  | "unclosed_blocks"
  | "asked_again"
  | "invalid_json"
  | "invalid_event"
  | "custom";

/** What `apply` did with one event: `"applied"`, or why it was skipped. */
export type Outcome = "applied" | SkipCode;

/** An event the session skipped or warned about (lenient mode), in stream order. */
export interface Diagnostic {
  /** 1-based position of the event in the session. */
  readonly index: number;
  /** The stable code. */
  readonly code: SkipCode;
  /** What happened, for people. */
  readonly message: string;
  /** The event's `type`, when it could be read. */
  readonly event_type: string | null;
  /** The event's `id`, when it was on the wire. */
  readonly event_id: string | null;
  /** The event's `reply_id`, when it has one. */
  readonly reply_id: string | null;
  /** The SSE `id:` of the frame, when it came from SSE. */
  readonly sse_id: string | null;
  /** A `CUSTOM` event's `name` (code `custom` only; absent otherwise). */
  readonly name?: string;
  /** A `CUSTOM` event's `value`, an object (code `custom` only; absent otherwise). */
  readonly value?: Record<string, unknown>;
}

/**
 * An event the session handled, kept with the option `keepEvents` and handed out by
 * {@link Session.takeEvents}.
 */
export interface KeptEvent {
  /** 1-based position of the event in the session, as {@link Diagnostic.index} counts it. */
  readonly index: number;
  /** `"applied"`, or why it was skipped (`duplicate`, `unknown_reply`, `custom`, …). */
  readonly outcome: Outcome;
  /** The event, parsed from its JSON text exactly as it came. */
  readonly event: AgentEvent;
}

/**
 * What a UI renders: the reply messages as frozen wire JSON. Unchanged messages and
 * blocks keep their identity (`===`) from one snapshot to the next.
 */
export interface SessionSnapshot {
  /** The reply messages, in order of their first `REPLY_START`. */
  readonly messages: readonly MsgJSON[];
  /**
   * Tool calls a `REQUIRE_USER_CONFIRM` (`confirm`) or `REQUIRE_EXTERNAL_EXECUTION`
   * (`external`) asks about that their reply never started (ag-ui#1168): the reducer
   * skips such an ask, as the reference does, but the service waits for the answer all the
   * same. Kept until a `USER_CONFIRM_RESULT` / `EXTERNAL_EXECUTION_RESULT` names the call;
   * {@link pendingActions} lists them (`started: false`). Not kept by a checkpoint.
   */
  readonly unstartedCalls: readonly PendingAction[];
}

/** A source {@link Session.read} can read: a fetch `Response`, a stream, or chunks. */
export type StreamSource =
  | Response
  | ReadableStream<Uint8Array | string>
  | AsyncIterable<Uint8Array | string>
  | Iterable<Uint8Array | string>;

/** Options of {@link Session.read}. */
export interface ReadOptions {
  /** Stops reading (the promise rejects with the signal's reason). */
  signal?: AbortSignal;
  /**
   * Called with each refused event's `MsgError`; reading then goes on with the next
   * event. Without it the first refused event rejects the promise.
   */
  onError?: (error: MsgError) => void;
}

/**
 * One AgentScope event stream: bytes in (SSE, JSON Lines or a JSON array, split
 * anywhere), reply messages out. It frames, decodes and routes every event by `reply_id`
 * in wasm (the same Rust `Session` as the backend's), opening an `AssistantMsg` per
 * `REPLY_START` and continuing it on a later `REPLY_START` of the same reply.
 *
 * For UI frameworks, `subscribe` / `getSnapshot` fit React's `useSyncExternalStore`:
 * listeners run once after each `feed` / `end` / `apply` that changed something, never
 * inside another call; a snapshot costs what changed since the previous one.
 *
 * Memory: the session lives in wasm memory until `free()` (or `using`), or until it is
 * garbage-collected. After `free()` every method throws `MsgError` (`freed`) but the
 * snapshot readers (`getSnapshot`, `messages`, `get`: the last snapshot) and `subscribe`
 * (a no-op), so that a UI may render once more.
 */
export class Session {
  #handle: SessionHandle | undefined;
  // text deltas on their way to wasm (hot.ts): sent by their parts, a run of one block's
  // joined while nobody listens; `#sink` is the handle as `DeltaBatch` calls it, with the
  // event's id and the outcome of the last delta sent alone
  #deltas = new DeltaBatch();
  #eventId: string | undefined;
  #outcome: unknown;
  #rules: Float64Array | number[] | undefined;
  #sink: DeltaSink = {
    appendDelta: (kind, reply, target, delta) => {
      this.#outcome = this.#handle!.applyDelta(kind, reply, target, this.#eventId, delta);
      return this.#outcome === true ? 0 : -2;
    },
    appendJoined: (text, _markRead, count) => (this.#handle!.applyJoined(text, count) === true ? 0 : -2),
    deltaRoom: () => this.#handle!.deltaRoom(),
    limits: () => [this.#joinRules()[0]!],
  };
  #listeners = new Set<() => void>();
  #snapshot: SessionSnapshot | undefined;
  #revision = -1;
  // the last snapshot's messages and, per message, its blocks: private lists changed in
  // place (see applyChanges), copied once per read
  #messages: MsgJSON[] = [];
  #blocks: unknown[][] = [];
  #diagnostics: Diagnostic[] = [];
  #frozenDiagnostics: readonly Diagnostic[] | undefined;
  #notified = 0;
  #notifying = false;
  #again = false;
  // a high surrogate at the end of a text chunk, held for the low one in the next chunk
  #high = "";
  // bytes were fed (or the stream ended) since the last restart: a read() starts a new stream
  #streamed = false;
  // a read() is under way: a second one would interleave two streams' bytes
  #reading = false;

  /** A new session. Throws `MsgError` (`invalid_argument`) for unknown options. */
  constructor(options: SessionOptions = {}) {
    const handle = adopt;
    adopt = undefined;
    if (handle !== undefined) {
      this.#handle = handle;
      this.#notified = handle.revision();
      return;
    }
    if (typeof options !== "object" || options === null || Array.isArray(options)) {
      throw new MsgError("invalid_argument", "session options must be an object");
    }
    const { strict, dedup, skipInvalid, keepEvents, toolCallMatch, blockMatch, maxFrameBytes, maxDeltaBytes, maxBlockBytes, maxMessageBytes, maxBlocks, maxSessionBytes, ...rest } =
      options;
    const unknown = Object.keys(rest);
    if (unknown.length > 0) throw new MsgError("invalid_argument", `unknown session option ${unknown[0]}`);
    for (const [name, value] of [["strict", strict], ["dedup", dedup], ["skipInvalid", skipInvalid], ["keepEvents", keepEvents]] as const) {
      if (value !== undefined && typeof value !== "boolean") {
        throw new MsgError("invalid_argument", `session option ${name} must be a boolean`);
      }
    }
    for (const [name, value] of [["toolCallMatch", toolCallMatch], ["blockMatch", blockMatch]] as const) {
      if (value !== undefined && value !== "first" && value !== "newest") {
        throw new MsgError("invalid_argument", `session option ${name} must be "first" or "newest"`);
      }
    }
    const caps = capsJSON({ maxFrameBytes, maxDeltaBytes, maxBlockBytes, maxMessageBytes, maxBlocks, maxSessionBytes }, "session option");
    const json = JSON.stringify({ strict: !!strict, dedup: !!dedup, skip_invalid: !!skipInvalid, keep_events: !!keepEvents, tool_call_match: toolCallMatch ?? "first", block_match: blockMatch ?? "first", ...caps });
    this.#handle = call(() => SessionHandle.create(json));
  }

  /**
   * What the session's messages took in together, in bytes (each message's wire JSON when
   * it was opened or added, plus every event applied since: a delta its payload, any other
   * event its wire JSON; and the calls asked about but never started); `maxSessionBytes`
   * caps it.
   */
  get takenBytes(): number {
    return this.#h.takenBytes();
  }

  /**
   * A session from {@link Session.checkpoint} text, with the options it was taken with.
   * With `dedup`, replaying the stream from any earlier point then gives the same
   * messages. Throws `MsgError` (`invalid_checkpoint`, or a message's validation error).
   */
  static restore(checkpoint: string): Session {
    adopt = call(() => SessionHandle.restore(expectString(checkpoint, "checkpoint")));
    return new Session();
  }

  /** The handle, with the deltas joined so far sent (every call but a joined delta's). */
  get #h(): SessionHandle {
    const handle = this.#handle;
    if (handle === undefined) throw new MsgError("freed", "this session was freed");
    try {
      this.#deltas.flush(this.#sink, false);
    } catch (error) {
      rethrow(error);
    }
    return handle;
  }

  /** The session's per-delta cap (`Infinity`: none) and whether it deduplicates (1). */
  #joinRules(): Float64Array | number[] {
    if (this.#rules === undefined) {
      // (the raw handle: `#h` would flush the run this may be opening)
      const handle = this.#handle;
      if (handle === undefined) throw new MsgError("freed", "this session was freed");
      const [maxDelta, dedup] = handle.joinRules();
      this.#rules = [maxDelta || Infinity, dedup!];
    }
    return this.#rules;
  }

  /**
   * Feeds a chunk of the stream as it came off the network (bytes, or text), split
   * anywhere; applies every event it completes and returns how many were applied.
   * Throws the first refused event's `MsgError` (with `index`, `eventId`, `sseId`); the
   * events after it in the chunk stay queued and are applied by the next `feed` (an empty
   * chunk will do) or `end`. Bytes after `end()` are an `invalid_stream` error (see
   * `restartStream`).
   */
  feed(chunk: Uint8Array | ArrayBuffer | string): number {
    const h = this.#h;
    this.#streamed = true;
    try {
      if (typeof chunk === "string") {
        // text split inside a surrogate pair: hold the high half for the next chunk
        let text = this.#high + chunk;
        this.#high = "";
        const last = text.charCodeAt(text.length - 1);
        if (last >= 0xd800 && last <= 0xdbff) {
          this.#high = text.slice(-1);
          text = text.slice(0, -1);
        }
        // a large chunk goes in pieces, each applied as it comes (see PIECE); after a
        // refused event the rest is framed and waits, as for one piece
        const pieces: string[] = [];
        let at = 0;
        while (text.length - at > PIECE) {
          let end = at + PIECE;
          const unit = text.charCodeAt(end - 1);
          if (unit >= 0xd800 && unit <= 0xdbff) end -= 1; // not inside a surrogate pair
          pieces.push(text.slice(at, end));
          at = end;
        }
        pieces.push(at === 0 ? text : text.slice(at));
        let applied = 0;
        for (let i = 0; i < pieces.length; i++) {
          try {
            applied += call(() => h.feedText(pieces[i]!));
          } catch (e) {
            for (const rest of pieces.slice(i + 1)) call(() => h.pushText(rest));
            throw e;
          }
        }
        return applied;
      }
      let bytes: unknown = chunk;
      try {
        if (chunk instanceof ArrayBuffer) bytes = new Uint8Array(chunk);
      } catch (e) {
        throw new MsgError("invalid_argument", `feed could not read the bytes: ${(e as Error).message}`);
      }
      if (!(bytes instanceof Uint8Array)) {
        throw new MsgError("invalid_argument", "feed takes a Uint8Array, an ArrayBuffer or a string");
      }
      const held = this.#flushHigh(h);
      return held + call(() => {
        try {
          const all = bytes as Uint8Array;
          if (all.length <= PIECE) return h.feedBytes(all);
          let applied = 0;
          for (let at = 0; at < all.length; at += PIECE) {
            try {
              applied += h.feedBytes(all.subarray(at, at + PIECE));
            } catch (e) {
              for (let rest = at + PIECE; rest < all.length; rest += PIECE) h.pushBytes(all.subarray(rest, rest + PIECE));
              throw e;
            }
          }
          return applied;
        } catch (e) {
          // the glue could not copy the bytes (a detached buffer): nothing reached wasm
          if (e instanceof TypeError) throw new MsgError("invalid_argument", `feed could not read the bytes: ${e.message}`);
          throw e;
        }
      });
    } finally {
      this.#notify();
    }
  }

  /** Feeds a held high surrogate alone (it becomes U+FFFD, as in any lone surrogate). */
  #flushHigh(h: SessionHandle): number {
    if (this.#high === "") return 0;
    const high = this.#high;
    this.#high = "";
    return call(() => h.feedText(high));
  }

  /**
   * Ends the stream: a final frame without its blank line (or line end) is applied; an
   * unclosed JSON array is an `invalid_stream` error. Returns the events applied.
   */
  end(): number {
    const h = this.#h;
    this.#streamed = true;
    try {
      return this.#flushHigh(h) + call(() => h.end());
    } finally {
      this.#notify();
    }
  }

  /**
   * A new connection's bytes follow (a reconnect, e.g. with `Last-Event-ID:
   * session.lastEventId`): drops what the old connection left of an unfinished frame
   * and detects the framing again. Messages, dedup ids and `lastEventId` are kept.
   */
  restartStream(): void {
    this.#h.restartStream();
    this.#high = "";
    this.#streamed = false;
  }

  /**
   * Adds a message that events with its `id` as `reply_id` go to: a stored reply (e.g. one
   * parked on a confirmation, from the service's history) that a resumed stream continues
   * with a second `REPLY_START`. A message with the same id is replaced. Follows the Rust
   * `Session::insert`. Throws `MsgError` for a message `Msg.fromJSON` refuses.
   */
  insert(msg: MsgJSON | string): void {
    const json = typeof msg === "string" ? msg : toJSONText(msg, "a message");
    const h = this.#h;
    try {
      call(() => h.insert(json));
    } finally {
      this.#notify();
    }
  }

  /**
   * Whether the reply's last `REPLY_START` was followed by its `REPLY_END`: false while
   * it streams, after a continuation `REPLY_START`, for a message added with `insert`, and
   * for an unknown reply.
   */
  isEnded(replyId: string): boolean {
    return this.#h.isEnded(expectString(replyId, "replyId"));
  }

  /**
   * Applies one event (an object or its wire JSON text) and tells what happened:
   * `"applied"` or the skip code. Throws `MsgError` for a refused event.
   *
   * Cost: a text delta object crosses as its strings; while no listener is subscribed, the
   * deltas of one block are joined into one text until the next other call (as
   * `Msg.appendEvent`; never one whose `id` a `dedup` session records). Any other event
   * crosses as JSON text.
   */
  apply(event: AgentEvent | string): Outcome {
    if (typeof event === "object" && event !== null) {
      const e = event as DeltaObject;
      const kind = deltaKind(e);
      const handle = this.#handle;
      if (kind >= 0 && handle !== undefined) {
        // a text delta crosses as its strings, or joins the run of its block (hot.ts): only
        // while nobody listens (each apply is told), and never one whose id a deduplicating
        // session must record
        const deltas = this.#deltas;
        const { reply, target, delta, id } = parts;
        if (this.#listeners.size === 0 && (id === undefined || this.#joinRules()[1] === 0) && deltas.joinable(kind, reply, target, delta) >= 0) {
          deltas.commit(delta);
          return "applied";
        }
        this.#eventId = id;
        this.#outcome = undefined;
        try {
          deltas.send(this.#sink, kind, reply, target, delta, false);
        } catch (error) {
          this.#notify();
          rethrow(error);
        }
        // `undefined`: the session keeps events' text (`keepEvents`), which needs the JSON
        const outcome = this.#outcome;
        if (outcome !== undefined) {
          this.#notify();
          return outcome === true ? "applied" : (outcome as Outcome);
        }
      }
    }
    const h = this.#h;
    const json = typeof event === "string" ? event : toJSONText(event, "an event");
    try {
      return call(() => h.applyJSON(json)) as Outcome;
    } finally {
      this.#notify();
    }
  }

  /**
   * Reads a whole source into the session and ends it: a fetch `Response` (its body), a
   * `ReadableStream`, or an (async) iterable of chunks. Bytes go to wasm as they arrive.
   * Rejects on an HTTP error status (`invalid_stream`), on the signal, or on the first
   * refused event unless `onError` takes it. A framing error (`invalid_stream`: a stream
   * that is neither SSE, JSON Lines nor a JSON array, a broken JSON array) ends the
   * stream: with `onError` it is reported once and the rest of the source is not read.
   *
   * Each `read` is a stream of its own (a request, a reconnect): when the session was fed
   * before, it starts with {@link Session.restartStream} (what an earlier connection left
   * of an unfinished frame is dropped; messages, dedup ids and `lastEventId` are kept), so
   * one session can read phase after phase of a reply without any other call.
   */
  async read(source: StreamSource, options: ReadOptions = {}): Promise<void> {
    if (this.#reading) throw new MsgError("invalid_argument", "this session is already reading a stream: await that read() first");
    this.#reading = true;
    try {
      await this.#read(source, options);
    } finally {
      this.#reading = false;
    }
  }

  async #read(source: StreamSource, options: ReadOptions): Promise<void> {
    const { signal, onError } = options;
    signal?.throwIfAborted();
    if (this.#streamed) this.restartStream();
    let chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;
    if (typeof Response !== "undefined" && source instanceof Response) {
      if (!source.ok) throw new MsgError("invalid_stream", `HTTP ${source.status} ${source.statusText}`.trim());
      if (source.bodyUsed) throw new MsgError("invalid_argument", "the response body was already read");
      if (source.body === null) return void this.#settle(() => this.end(), onError);
      chunks = fromStream(source.body, signal);
    } else if (typeof ReadableStream !== "undefined" && source instanceof ReadableStream) {
      if (source.locked) throw new MsgError("invalid_argument", "the stream is locked by another reader");
      chunks = fromStream(source, signal);
    } else if (source !== null && typeof source === "object" && Symbol.asyncIterator in source) {
      chunks = abortable(source as AsyncIterable<Uint8Array | string>, signal);
    } else if (source !== null && typeof source === "object" && Symbol.iterator in source) {
      chunks = source as Iterable<Uint8Array | string>;
    } else {
      throw new MsgError("invalid_argument", "read takes a Response, a ReadableStream or an iterable of chunks");
    }
    for await (const chunk of chunks) {
      signal?.throwIfAborted();
      // (leaving the loop cancels a stream source)
      if (this.#settle(() => this.feed(chunk), onError)) return;
    }
    signal?.throwIfAborted();
    this.#settle(() => this.end(), onError);
  }

  /**
   * Runs a feed/end; with `onError`, reports refusals and goes on with the queued events.
   * True when it reported a framing error: the stream has ended.
   */
  #settle(step: () => number, onError: ((error: MsgError) => void) | undefined): boolean {
    let framing = false;
    for (;;) {
      try {
        step();
        return framing;
      } catch (e) {
        if (onError === undefined || !(e instanceof MsgError) || e.index === undefined) throw e;
        onError(e);
        framing ||= e.code === "invalid_stream";
        // (an empty text keeps a held high surrogate for the next chunk)
        step = () => this.feed("");
      }
    }
  }

  /** The reply messages (frozen wire JSON): `getSnapshot().messages`. */
  get messages(): readonly MsgJSON[] {
    return this.getSnapshot().messages;
  }

  /** The message of a reply, or `undefined`. */
  get(replyId: string): MsgJSON | undefined {
    expectString(replyId, "replyId");
    return this.getSnapshot().messages.find((m) => m.id === replyId);
  }

  /** What the session skipped or warned about so far, in stream order. */
  get diagnostics(): readonly Diagnostic[] {
    this.#pullDiagnostics();
    this.#frozenDiagnostics ??= Object.freeze(this.#diagnostics.slice());
    return this.#frozenDiagnostics;
  }

  /** Returns the diagnostics collected so far and forgets them (for long streams). */
  takeDiagnostics(): Diagnostic[] {
    this.#pullDiagnostics();
    const all = this.#diagnostics;
    this.#diagnostics = [];
    this.#frozenDiagnostics = undefined;
    return all;
  }

  /**
   * Takes the events kept since the last call (option `keepEvents`; always empty
   * without it), in stream order: every event that decoded, applied or skipped (a
   * duplicate, a `CUSTOM`, an event of an unknown reply, …) with its outcome; not a
   * refused event, a frame that did not decode, an unknown event type or a named SSE
   * frame. They accumulate in wasm memory until taken: take them after each `feed`.
   */
  takeEvents(): KeptEvent[] {
    return JSON.parse(this.#h.takeEventsJSON()) as KeptEvent[];
  }

  #pullDiagnostics(): void {
    const h = this.#h;
    if (h.diagnosticCount() === 0) return;
    const more = JSON.parse(h.diagnosticsJSON(0)) as Diagnostic[];
    h.clearDiagnostics();
    for (const d of more) this.#diagnostics.push(Object.freeze(d));
    this.#frozenDiagnostics = undefined;
  }

  /**
   * The session as JSON text (options, messages, ended replies, applied event ids, last
   * SSE id) for {@link Session.restore}. A frame not yet complete is not included (with
   * the high surrogate a text chunk may have ended on, which belongs to it): a restored
   * session starts a new stream, as after {@link Session.restartStream}, and the source
   * sends that frame again (with `dedup`, replaying from any earlier point is safe).
   */
  checkpoint(): string {
    return this.#h.checkpoint();
  }

  /** The SSE `id:` of the last event handled (what to send as `Last-Event-ID`), or null. */
  get lastEventId(): string | null {
    return this.#h.lastEventId() ?? null;
  }

  /** How the input is framed, once the first bytes told; null before. */
  get framing(): Framing | null {
    return (this.#h.framing() as Framing | undefined) ?? null;
  }

  /** Number of events seen (applied, skipped and refused). */
  get events(): number {
    return this.#h.events();
  }

  /**
   * Calls `listener` after each `feed` / `end` / `apply` that changed a message (once per
   * call, not per event; never while another call runs). Returns the unsubscribe
   * function. Bound: pass `session.subscribe` as is (e.g. to `useSyncExternalStore`).
   */
  subscribe = (listener: () => void): (() => void) => {
    if (typeof listener !== "function") throw new MsgError("invalid_argument", "a listener must be a function");
    if (this.#handle === undefined) return () => {};
    // changes made while nobody listened are not announced (#notify skips them)
    if (this.#listeners.size === 0) this.#notified = this.#h.revision();
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  };

  /**
   * The current snapshot: the same object until a message changes; then a new frozen
   * object in which unchanged messages and blocks keep their identity, and a block whose
   * streamed text grew is `old + tail`. Equal to each message's `toJSON()` wire JSON.
   * Bound: pass `session.getSnapshot` as is. Throws `MsgError` (`limit_exceeded`) when a
   * string of it would be longer than a JS string may be (2^29 − 24 UTF-16 units in V8)
   * or no memory is left for it; the session stays usable (`feed`, `insert`, `free`, …).
   */
  getSnapshot = (): SessionSnapshot => {
    const h = this.#handle;
    // after free() the last snapshot stays readable (a UI may render once more)
    if (h === undefined) return this.#snapshot ?? FREED;
    const revision = this.#h.revision();
    if (this.#snapshot !== undefined && revision === this.#revision) return this.#snapshot;
    // MsgError `limit_exceeded` when a string of it would be longer than a JS string may
    // be (or no memory is left for it): nothing is read, the session stays usable
    const read = JSON.parse(call(() => h.readChanges())) as {
      count: number;
      messages: [number, MessageChanges][];
      unstarted: [string, "confirm" | "external", ToolCallBlock][];
    };
    // what changed, then one copy of the list (the new snapshot's `messages`)
    const messages = this.#messages;
    messages.length = Math.min(messages.length, read.count);
    this.#blocks.length = messages.length;
    for (const [i, changes] of read.messages) {
      const blocks = (this.#blocks[i] ??= []);
      messages[i] = applyChanges(blocks, changes) as MsgJSON;
    }
    const unstartedCalls = read.unstarted.map(([replyId, kind, toolCall]) =>
      Object.freeze({ kind, replyId, toolCall: deepFreeze(toolCall), index: -1, started: false }),
    );
    this.#snapshot = Object.freeze({ messages: Object.freeze(messages.slice()), unstartedCalls: Object.freeze(unstartedCalls) });
    this.#revision = revision;
    return this.#snapshot;
  };

  #notify(): void {
    // nobody to tell: a listener added later is told of the next change
    if (this.#handle === undefined || this.#listeners.size === 0) return;
    if (this.#notifying) {
      this.#again = true;
      return;
    }
    this.#notifying = true;
    try {
      do {
        this.#again = false;
        const revision = this.#handle?.revision() ?? this.#notified;
        if (revision === this.#notified) break;
        this.#notified = revision;
        for (const listener of [...this.#listeners]) {
          try {
            listener();
          } catch (e) {
            // a throwing listener must not break the others or the feed that called it
            queueMicrotask(() => {
              throw e;
            });
          }
        }
      } while (this.#again);
    } finally {
      this.#notifying = false;
    }
  }

  /** Releases the wasm memory now; later calls throw `MsgError` with code `freed`. */
  free(): void {
    this.#handle?.free();
    this.#handle = undefined;
    this.#listeners.clear();
  }

  /** `using session = new Session()` frees it at the end of the scope. */
  [Symbol.dispose](): void {
    this.free();
  }
}

/**
 * The chunks of an async iterable; an abort of `signal` ends a pending `next()` at once
 * (rejecting with the signal's reason) and asks the iterable to finish (`return()`).
 */
async function* abortable<T>(source: AsyncIterable<T>, signal: AbortSignal | undefined): AsyncIterable<T> {
  if (signal === undefined) {
    yield* source;
    return;
  }
  const it = source[Symbol.asyncIterator]();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  aborted.catch(() => {});
  let finished = false;
  try {
    for (;;) {
      const step = await Promise.race([it.next(), aborted]);
      if (step.done) {
        finished = true;
        return;
      }
      yield step.value;
    }
  } finally {
    signal.removeEventListener("abort", onAbort!);
    // stopped early: let the source go (not awaited: it may be the one that hangs)
    if (!finished) void Promise.resolve(it.return?.()).catch(() => {});
  }
}

/** The chunks of a stream; an abort of `signal` cancels the stream (a pending read ends). */
async function* fromStream(
  stream: ReadableStream<Uint8Array | string>,
  signal: AbortSignal | undefined,
): AsyncIterable<Uint8Array | string> {
  const reader = stream.getReader();
  const cancel = () => void reader.cancel(signal?.reason).catch(() => {});
  signal?.addEventListener("abort", cancel, { once: true });
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    signal?.removeEventListener("abort", cancel);
    // stopped early (an abort, a refused event): let the source go, e.g. close the connection
    if (!finished) await reader.cancel(signal?.reason).catch(() => {});
    reader.releaseLock();
  }
}

/**
 * A key for a block in a UI list (React `key`): unique within its message and stable
 * while it streams (blocks are only ever appended). A tool call and its result share an
 * `id`, and providers may reuse ids, so `id` alone collides.
 */
export function blockKey(block: ContentBlock, index: number): string {
  if (typeof block !== "object" || block === null) throw new MsgError("invalid_argument", "blockKey takes a content block");
  return `${index}:${block.type}:${block.id}`;
}

/**
 * The blocks a message holds without their end (no `finished_at`; a hint has no end to
 * wait for), with their positions: after the reply's `REPLY_END` (the message's
 * `finished_at` set, e.g. a failed run) a UI can draw them as interrupted rather than
 * streaming. The same rule as the session's `unclosed_blocks` diagnostic. Throws
 * `MsgError` `invalid_argument` for an argument that is not a message, or a `content`
 * entry that is not an object.
 */
export function openBlocks(msg: MsgJSON): { block: ContentBlock; index: number }[] {
  if (typeof msg !== "object" || msg === null || !Array.isArray(msg.content)) {
    throw new MsgError("invalid_argument", "openBlocks takes a message");
  }
  const out: { block: ContentBlock; index: number }[] = [];
  msg.content.forEach((block, index) => {
    if (typeof block !== "object" || block === null) throw new MsgError("invalid_argument", `openBlocks: content[${index}] is not a content block`);
    if (block.type !== "hint" && block.finished_at === null) out.push({ block, index });
  });
  return out;
}

/** A tool call waiting for the user (`asking`: approve or deny) or an external executor (`submitted`). */
export interface PendingAction {
  /** `confirm` (state `asking`) or `external` (state `submitted`). */
  readonly kind: "confirm" | "external";
  /** The reply (message id) the call belongs to. */
  readonly replyId: string;
  /** The tool call block. */
  readonly toolCall: ToolCallBlock;
  /** The block's position in the message's content; -1 for a call never started. */
  readonly index: number;
  /**
   * Whether the call was started in its message; false for an ask about a call its reply
   * never started (see {@link SessionSnapshot.unstartedCalls}): answer it as any other.
   */
  readonly started: boolean;
}

/**
 * The tool calls awaiting a human or an external executor, in order: calls in state
 * `asking` (after `REQUIRE_USER_CONFIRM`) and `submitted` (after
 * `REQUIRE_EXTERNAL_EXECUTION`); from a session snapshot, then the asks about calls never
 * started (`started: false`, see {@link SessionSnapshot.unstartedCalls}). Takes a session
 * snapshot, a list of messages or one; anything else, or a message whose `content` is not
 * a list of objects, is `MsgError` `invalid_argument`.
 */
export function pendingActions(source: SessionSnapshot | readonly MsgJSON[] | MsgJSON): PendingAction[] {
  const bad = () => new MsgError("invalid_argument", "pendingActions takes a session snapshot, a list of messages or a message");
  if (typeof source !== "object" || source === null) throw bad();
  const messages: readonly MsgJSON[] = Array.isArray(source)
    ? source
    : "messages" in source
      ? (source as SessionSnapshot).messages
      : [source as MsgJSON];
  const out: PendingAction[] = [];
  for (const msg of messages) {
    if (typeof msg !== "object" || msg === null || !Array.isArray(msg.content)) throw bad();
    msg.content.forEach((block, index) => {
      if (typeof block !== "object" || block === null) throw new MsgError("invalid_argument", `pendingActions: content[${index}] of message ${JSON.stringify(msg.id)} is not a content block`);
      if (block.type !== "tool_call") return;
      if (block.state === "asking") out.push({ kind: "confirm", replyId: msg.id, toolCall: block, index, started: true });
      else if (block.state === "submitted") out.push({ kind: "external", replyId: msg.id, toolCall: block, index, started: true });
    });
  }
  if (!Array.isArray(source) && "messages" in source) out.push(...((source as SessionSnapshot).unstartedCalls ?? []));
  return out;
}

const parsedInputs = new WeakMap<object, unknown>();

/**
 * A best-effort parsed view of a tool call's streamed `input` (partial JSON), for a UI
 * showing the arguments while they stream. It never shows what the rest of the text
 * could contradict: each value in the view of a prefix of the final text is in the
 * final `JSON.parse(input)` at the same place, of the same type.
 *
 * - `""` (or only whitespace) reads as `{}`; a prefix of an object is an object, of an
 *   array an array, with the arrays and objects still open read as far as they got.
 * - A string is shown as far as it got, decoded, so it only grows
 *   (`{"q": "hel` → `{q: "hel"}`); an escape cut short (`\`, `\u00`) and the first half
 *   of a surrogate pair (`\ud83d` before its `\ude00`) wait for the rest: no string
 *   ends in half a character.
 * - A key is shown once its value has begun: `{"pa`, `{"path"` and `{"path":` read as
 *   `{}`, `{"path": "` as `{path: ""}`, `{"a": [` as `{a: []}`.
 * - A number is shown once a character after it is seen (`{"n": 12` reads as `{}`, as
 *   the next character may be a digit; `{"n": 12,` or `{"n": 12}` as `{n: 12}`), and
 *   `true`, `false`, `null` once complete (`{"overwrite": tru` → `{}`).
 * - A key given twice: the view follows the occurrence read so far (`JSON.parse` keeps
 *   the last), so the rules above hold for objects without repeated keys.
 * - The complete text reads exactly as `JSON.parse` reads it. A bare number as the whole
 *   text (`12`) reads as that number: the rule above is kept for objects and arrays,
 *   which tool arguments are.
 * - Text that is not the beginning of a JSON text reads as `null`: `LOST`, `{"a" 1`, an
 *   invalid escape (`{"pattern":"\d+`), text after the complete value (`{}}`). So
 *   does a bare `true`, `false`, `null` or number not yet complete (`tru`, `-`).
 *
 * Never throws for a string; an argument that is neither a block nor a string is
 * `invalid_argument`. `block.input` itself stays the exact concatenation of the deltas.
 * Computed when read, once per block object (snapshots make a new object only when the
 * block changed); frozen.
 */
export function parseToolInput(block: ToolCallBlock | string): unknown {
  if (typeof block === "string") return deepFreeze(readPartialJson(block));
  if (typeof block !== "object" || block === null) {
    throw new MsgError("invalid_argument", "parseToolInput takes a tool call block or its input text");
  }
  if (parsedInputs.has(block)) return parsedInputs.get(block);
  const value = deepFreeze(readPartialJson(expectString(block.input, "input")));
  parsedInputs.set(block, value);
  return value;
}

/**
 * The JSON text of every AgentScope event in a whole stream (a recorded log: SSE, JSON
 * Lines or a JSON array), framed by the same rules as {@link Session.feed}; SSE frames
 * named other than `message` are left out. Throws `MsgError` (`invalid_stream`,
 * `invalid_json`) for a stream that cannot be framed.
 */
export function splitEvents(stream: string | Uint8Array): string[] {
  const bytes = typeof stream === "string" ? new TextEncoder().encode(stream) : stream;
  if (!(bytes instanceof Uint8Array)) throw new MsgError("invalid_argument", "splitEvents takes a string or a Uint8Array");
  return call(() => wasmSplitEvents(bytes));
}
