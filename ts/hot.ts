// Event objects folded by their parts: the four text delta events, nearly every event of a
// stream, go to wasm as their strings (`MsgHandle.appendDelta`, `SessionHandle.applyDelta`)
// instead of as the JSON text of the whole object. The reducer's rules stay in Rust; this
// module only tells which objects have the one shape whose parts say all their JSON text
// would (the shape the core decoder's fast path reads), and remembers the ids the wasm
// side already holds, so that a delta of the same block crosses alone.

/** `String.prototype.isWellFormed` where the runtime has it; else "has no surrogate". */
const wellFormed: (s: string) => boolean =
  typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === "function"
    ? (s) => (s as unknown as { isWellFormed(): boolean }).isWellFormed()
    : (s) => !/[\uD800-\uDFFF]/.test(s);

/** Whether `m` is absent or an empty plain object (what a delta's `metadata` mostly is). */
function emptyMetadata(m: unknown): boolean {
  if (m === undefined) return true;
  if (typeof m !== "object" || m === null || Object.getPrototypeOf(m) !== Object.prototype) return false;
  for (const _ in m) return false;
  return true;
}

/** An event object as this module reads it. */
export interface DeltaObject {
  type?: unknown;
  id?: unknown;
  created_at?: unknown;
  metadata?: unknown;
  reply_id?: unknown;
  block_id?: unknown;
  tool_call_id?: unknown;
  delta?: unknown;
  toJSON?: unknown;
}

/** The parts {@link deltaKind} read off its last event (each read once). */
export const parts = { reply: "", target: "", delta: "", id: undefined as string | undefined };

/**
 * The kind the wasm side numbers (0 `TEXT_BLOCK_DELTA`, 1 `THINKING_BLOCK_DELTA`, 2
 * `TOOL_CALL_DELTA`, 3 `TOOL_RESULT_TEXT_DELTA`) of a plain event object (its prototype
 * `Object.prototype`) whose wire JSON the decoder would read as exactly its parts: string
 * `reply_id`, block or tool call id and `delta`; `id` and `created_at` absent or strings;
 * no string with a lone surrogate (JSON text keeps one as an escape, the wasm boundary
 * would not); `metadata` absent or `{}`; no `toJSON`. The parts are left in {@link parts},
 * each property read once (as `JSON.stringify` reads it); copy them out before any other
 * code runs. -1 for any other value (and for one whose getter throws): it goes as JSON
 * text. Left to the app, as checking each property would cost more than the rest of the
 * fold of a delta (`Object.hasOwn` of three keys alone: +60 ns): what `JSON.stringify`
 * leaves out but this reads (a non-enumerable own property, a key a Proxy hides, a key
 * inherited from a polluted `Object.prototype`), and an extra key `JSON.stringify` cannot
 * write (a BigInt, a cycle), which is not read here: such a delta is applied where its JSON
 * text would be refused.
 */
export function deltaKind(event: DeltaObject): number {
  try {
    if (Object.getPrototypeOf(event) !== Object.prototype) return -1;
    let kind: number;
    switch (event.type) {
      case "TEXT_BLOCK_DELTA":
        kind = 0;
        break;
      case "THINKING_BLOCK_DELTA":
        kind = 1;
        break;
      case "TOOL_CALL_DELTA":
        kind = 2;
        break;
      case "TOOL_RESULT_TEXT_DELTA":
        kind = 3;
        break;
      default:
        return -1;
    }
    const { delta, reply_id: reply, id, created_at: at } = event;
    const target = kind < 2 ? event.block_id : event.tool_call_id;
    if (typeof delta !== "string" || typeof reply !== "string" || typeof target !== "string") return -1;
    if ((id !== undefined && typeof id !== "string") || (at !== undefined && typeof at !== "string")) return -1;
    if (event.toJSON !== undefined || !emptyMetadata(event.metadata)) return -1;
    if (!wellFormed(delta) || !wellFormed(reply) || !wellFormed(target)) return -1;
    if ((id !== undefined && !wellFormed(id)) || (at !== undefined && !wellFormed(at))) return -1;
    parts.reply = reply;
    parts.target = target;
    parts.delta = delta;
    parts.id = id;
    return kind;
  } catch {
    return -1;
  }
}

/** What a message's wasm handle offers for text deltas (`MsgHandle`). */
export interface DeltaSink {
  appendDelta(kind: number, replyId: string | undefined, targetId: string | undefined, delta: string, markRead: boolean): number;
  appendJoined(text: string, markRead: boolean, count: number): number;
  deltaRoom(): number;
  limits(): ArrayLike<number>;
}

/**
 * The text deltas of one message on their way to wasm. A delta goes alone
 * ({@link DeltaBatch.send}: the ids only when they changed); when the reducer appended it
 * exactly to a block's string, a *run* opens: the next deltas of the same kind, reply and
 * block join it in JS ({@link DeltaBatch.joinable}, {@link DeltaBatch.commit}) while each
 * is within the per-delta cap
 * and all within the room the reducer gave (`deltaRoom`: what no cap refuses and the
 * string's spare capacity holds, counted as 3 bytes per UTF-16 unit), and go to wasm as
 * one text at the next other call ({@link DeltaBatch.flush}). Whatever the reducer would
 * do with each of them it does with the joined text: the same block, the same bytes, no
 * refusal. Any other call on the message flushes first.
 */
export class DeltaBatch {
  // the ids the wasm side holds (`undefined`: unknown, pass them)
  #reply: string | undefined;
  #target: string | undefined;
  // the open run: its kind, the code `appendDelta` gave (4 * block + where its string is),
  // the room left and the per-delta cap (bytes), and the text joined and not yet sent
  #kind = -1;
  #code = -1;
  #room = 0;
  #maxDelta = 0;
  #pending = "";
  #count = 0;

  /** The code of the open run (`4 * block + at`) when a delta of this kind, reply and
   * block may join it; -1 when it must be sent. Changes nothing: {@link DeltaBatch.commit}
   * joins it. */
  joinable(kind: number, reply: string, target: string, delta: string): number {
    if (this.#code < 0 || kind !== this.#kind || reply !== this.#reply || target !== this.#target) return -1;
    const bytes = delta.length * 3;
    // (an empty delta changes nothing: it goes alone, as the reducer skips it)
    if (bytes === 0) return -1;
    return bytes <= this.#maxDelta && bytes <= this.#room ? this.#code : -1;
  }

  /** Joins a delta {@link DeltaBatch.joinable} accepted. */
  commit(delta: string): void {
    this.#pending += delta;
    this.#room -= delta.length * 3;
    this.#count++;
  }

  /**
   * Flushes, then sends one delta alone: `appendDelta`'s code (-1 unchanged, -2 changed
   * otherwise, else `4 * block + at`, which opens a run). Throws what it throws (then the
   * ids are passed again next time).
   */
  send(sink: DeltaSink, kind: number, reply: string, target: string, delta: string, markRead: boolean): number {
    this.flush(sink, markRead);
    const r = reply === this.#reply ? undefined : reply;
    const t = target === this.#target ? undefined : target;
    let code: number;
    try {
      code = sink.appendDelta(kind, r, t, delta, markRead);
    } catch (e) {
      this.forget();
      throw e;
    }
    this.#reply = reply;
    this.#target = target;
    if (code >= 0) {
      this.#kind = kind;
      this.#code = code;
      this.#room = sink.deltaRoom();
      this.#maxDelta = sink.limits()[0] || Infinity;
    }
    return code;
  }

  /**
   * Sends the joined deltas (if any) and closes the run: -1 when nothing was joined, else
   * `appendJoined`'s code, which is the run's when the text went where its deltas did.
   * Throws what it throws (the joined text is then dropped, the ids forgotten; the room
   * given makes this never happen).
   */
  flush(sink: DeltaSink, markRead: boolean): number {
    const text = this.#pending;
    const code = this.#code;
    const count = this.#count;
    this.#code = -1;
    if (text === "") return -1;
    this.#pending = "";
    this.#count = 0;
    let done: number;
    try {
      done = sink.appendJoined(text, markRead, count);
    } catch (e) {
      this.forget();
      throw e;
    }
    return done === code ? done : -2;
  }

  /** Forgets the ids and the run (a handle that threw, or was replaced). */
  forget(): void {
    this.#reply = undefined;
    this.#target = undefined;
    this.#code = -1;
    this.#pending = "";
    this.#count = 0;
  }
}
