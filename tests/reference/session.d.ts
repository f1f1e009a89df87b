import type { AgentEvent } from "./event.js";
import type { ContentBlock, MsgJSON, ToolCallBlock } from "./message.js";
import { MsgError } from "./errors.js";
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
export type SkipCode = "foreign_reply" | "ignored_type" | "unknown_block" | "stale" | "duplicate" | "unknown_reply" | "named_sse_event" | "unknown_event_type" | "after_end" | "duplicate_block" | "after_block_end" | "unclosed_blocks" | "asked_again" | "invalid_json" | "invalid_event" | "custom";
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
export type StreamSource = Response | ReadableStream<Uint8Array | string> | AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;
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
export declare class Session {
    #private;
    /** A new session. Throws `MsgError` (`invalid_argument`) for unknown options. */
    constructor(options?: SessionOptions);
    /**
     * What the session's messages took in together, in bytes (each message's wire JSON when
     * it was opened or added, plus every event applied since: a delta its payload, any other
     * event its wire JSON; and the calls asked about but never started); `maxSessionBytes`
     * caps it.
     */
    get takenBytes(): number;
    /**
     * A session from {@link Session.checkpoint} text, with the options it was taken with.
     * With `dedup`, replaying the stream from any earlier point then gives the same
     * messages. Throws `MsgError` (`invalid_checkpoint`, or a message's validation error).
     */
    static restore(checkpoint: string): Session;
    /**
     * Feeds a chunk of the stream as it came off the network (bytes, or text), split
     * anywhere; applies every event it completes and returns how many were applied.
     * Throws the first refused event's `MsgError` (with `index`, `eventId`, `sseId`); the
     * events after it in the chunk stay queued and are applied by the next `feed` (an empty
     * chunk will do) or `end`. Bytes after `end()` are an `invalid_stream` error (see
     * `restartStream`).
     */
    feed(chunk: Uint8Array | ArrayBuffer | string): number;
    /**
     * Ends the stream: a final frame without its blank line (or line end) is applied; an
     * unclosed JSON array is an `invalid_stream` error. Returns the events applied.
     */
    end(): number;
    /**
     * A new connection's bytes follow (a reconnect, e.g. with `Last-Event-ID:
     * session.lastEventId`): drops what the old connection left of an unfinished frame
     * and detects the framing again. Messages, dedup ids and `lastEventId` are kept.
     */
    restartStream(): void;
    /**
     * Adds a message that events with its `id` as `reply_id` go to: a stored reply (e.g. one
     * parked on a confirmation, from the service's history) that a resumed stream continues
     * with a second `REPLY_START`. A message with the same id is replaced. Follows the Rust
     * `Session::insert`. Throws `MsgError` for a message `Msg.fromJSON` refuses.
     */
    insert(msg: MsgJSON | string): void;
    /**
     * Whether the reply's last `REPLY_START` was followed by its `REPLY_END`: false while
     * it streams, after a continuation `REPLY_START`, for a message added with `insert`, and
     * for an unknown reply.
     */
    isEnded(replyId: string): boolean;
    /**
     * Applies one event (an object or its wire JSON text) and tells what happened:
     * `"applied"` or the skip code. Throws `MsgError` for a refused event.
     *
     * Cost: a text delta object crosses as its strings; while no listener is subscribed, the
     * deltas of one block are joined into one text until the next other call (as
     * `Msg.appendEvent`; never one whose `id` a `dedup` session records). Any other event
     * crosses as JSON text.
     */
    apply(event: AgentEvent | string): Outcome;
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
    read(source: StreamSource, options?: ReadOptions): Promise<void>;
    /** The reply messages (frozen wire JSON): `getSnapshot().messages`. */
    get messages(): readonly MsgJSON[];
    /** The message of a reply, or `undefined`. */
    get(replyId: string): MsgJSON | undefined;
    /** What the session skipped or warned about so far, in stream order. */
    get diagnostics(): readonly Diagnostic[];
    /** Returns the diagnostics collected so far and forgets them (for long streams). */
    takeDiagnostics(): Diagnostic[];
    /**
     * Takes the events kept since the last call (option `keepEvents`; always empty
     * without it), in stream order: every event that decoded, applied or skipped (a
     * duplicate, a `CUSTOM`, an event of an unknown reply, …) with its outcome; not a
     * refused event, a frame that did not decode, an unknown event type or a named SSE
     * frame. They accumulate in wasm memory until taken: take them after each `feed`.
     */
    takeEvents(): KeptEvent[];
    /**
     * The session as JSON text (options, messages, ended replies, applied event ids, last
     * SSE id) for {@link Session.restore}. A frame not yet complete is not included (with
     * the high surrogate a text chunk may have ended on, which belongs to it): a restored
     * session starts a new stream, as after {@link Session.restartStream}, and the source
     * sends that frame again (with `dedup`, replaying from any earlier point is safe).
     */
    checkpoint(): string;
    /** The SSE `id:` of the last event handled (what to send as `Last-Event-ID`), or null. */
    get lastEventId(): string | null;
    /** How the input is framed, once the first bytes told; null before. */
    get framing(): Framing | null;
    /** Number of events seen (applied, skipped and refused). */
    get events(): number;
    /**
     * Calls `listener` after each `feed` / `end` / `apply` that changed a message (once per
     * call, not per event; never while another call runs). Returns the unsubscribe
     * function. Bound: pass `session.subscribe` as is (e.g. to `useSyncExternalStore`).
     */
    subscribe: (listener: () => void) => (() => void);
    /**
     * The current snapshot: the same object until a message changes; then a new frozen
     * object in which unchanged messages and blocks keep their identity, and a block whose
     * streamed text grew is `old + tail`. Equal to each message's `toJSON()` wire JSON.
     * Bound: pass `session.getSnapshot` as is. Throws `MsgError` (`limit_exceeded`) when a
     * string of it would be longer than a JS string may be (2^29 − 24 UTF-16 units in V8)
     * or no memory is left for it; the session stays usable (`feed`, `insert`, `free`, …).
     */
    getSnapshot: () => SessionSnapshot;
    /** Releases the wasm memory now; later calls throw `MsgError` with code `freed`. */
    free(): void;
    /** `using session = new Session()` frees it at the end of the scope. */
    [Symbol.dispose](): void;
}
/**
 * A key for a block in a UI list (React `key`): unique within its message and stable
 * while it streams (blocks are only ever appended). A tool call and its result share an
 * `id`, and providers may reuse ids, so `id` alone collides.
 */
export declare function blockKey(block: ContentBlock, index: number): string;
/**
 * The blocks a message holds without their end (no `finished_at`; a hint has no end to
 * wait for), with their positions: after the reply's `REPLY_END` (the message's
 * `finished_at` set, e.g. a failed run) a UI can draw them as interrupted rather than
 * streaming. The same rule as the session's `unclosed_blocks` diagnostic. Throws
 * `MsgError` `invalid_argument` for an argument that is not a message, or a `content`
 * entry that is not an object.
 */
export declare function openBlocks(msg: MsgJSON): {
    block: ContentBlock;
    index: number;
}[];
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
export declare function pendingActions(source: SessionSnapshot | readonly MsgJSON[] | MsgJSON): PendingAction[];
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
export declare function parseToolInput(block: ToolCallBlock | string): unknown;
/**
 * The JSON text of every AgentScope event in a whole stream (a recorded log: SSE, JSON
 * Lines or a JSON array), framed by the same rules as {@link Session.feed}; SSE frames
 * named other than `message` are left out. Throws `MsgError` (`invalid_stream`,
 * `invalid_json`) for a stream that cannot be framed.
 */
export declare function splitEvents(stream: string | Uint8Array): string[];
