// `appendEvent` on plain message objects (`agentscope-message/compat`): each object the
// app passes back is tied (WeakMap) to a wasm-held message, and every event's change is
// applied to the plain object itself: a delta appended to its string, a new block pushed,
// a changed block's fields set. The wasm side hands out only what changed (the core's
// `SnapshotReader`), so an event costs what it changes, not the message's size. An object
// the map does not know (a deep copy, a message from the server) is first rebuilt from
// its JSON: a cost proportional to the message.
import { MsgHandle, parseEvent as wasmParseEvent } from "./wasm/agentscope_message.js";
import { MsgError, call, rethrow, toJSONText, type MsgErrorCode } from "./errors.js";
import type { EventInput } from "./compat-types.js";
import { DeltaBatch, deltaKind, parts, type DeltaObject } from "./hot.js";
import { append, cut, growCopy, growInPlace, isObject, own, put, syncInto, undoing } from "./compat-write.js";

/** A plain message as this module needs it: an object with a `content` list. */
interface Plain {
  content: unknown[];
  [key: string]: unknown;
}

/** One change of `readChanges()`: a whole block, or a tail appended to a string. */
type Change = [number, unknown] | [number, (string | number)[], number | null, string];

/** What `readChanges()` returns, parsed. */
interface Changes {
  header: Record<string, unknown>;
  count: number;
  changes: Change[];
}

/** A wasm message and what was last written from it into plain objects. */
interface State {
  handle: MsgHandle;
  /** The content list last written (identity). */
  content: unknown[];
  /** Its length then. */
  count: number;
  /** The blocks it held then, by position (a list of this module's own: an app that
   * reorders its `content` in place, a sort, keeps the list and its length, and a change
   * written by position would go into another block). */
  blocks: unknown[];
  /** The header values last written, by key (identity: an app's change is seen). */
  header: Header;
  /** Their JSON text (a string, number or null as itself), to tell which ones the next
   * read changed. */
  headerJSON: Map<string, unknown>;
  /** The object last written (the immutable form's last result). */
  latest: Plain | undefined;
  /** The text deltas on their way to the wasm message (see `hot.ts`). */
  deltas: DeltaBatch;
  /** Where the open run of deltas is written: the block (position and object) and the
   * object and key of its string (the block itself, or its last output item). */
  run: Run | undefined;
}

interface Run {
  index: number;
  block: unknown;
  holder: Record<string, unknown>;
  key: string;
}

// plain message → state, and its content list → state (a shallow copy `{...msg}` keeps
// the list, and with it the state: no rebuild)
const states = new WeakMap<object, State>();

/** Work counters of the fold (for tests and benchmarks). */
export interface FoldStats {
  /** Messages rebuilt from a plain object's JSON (an object not known, or changed). */
  rebuilds: number;
  /** Blocks written whole (a new block, or a block changed otherwise than by growing). */
  blocksWritten: number;
  /** Strings grown by a tail (a delta). */
  tailsWritten: number;
  /** UTF-16 units read from the wasm side (rebuilds included). */
  unitsRead: number;
}

const stats: FoldStats = { rebuilds: 0, blocksWritten: 0, tailsWritten: 0, unitsRead: 0 };

/** A copy of the work counters since the start or the last {@link resetFoldStats}. */
export function foldStats(): FoldStats {
  return { ...stats };
}

/** Sets the work counters to 0. */
export function resetFoldStats(): void {
  stats.rebuilds = 0;
  stats.blocksWritten = 0;
  stats.tailsWritten = 0;
  stats.unitsRead = 0;
}

function expectPlain(msg: unknown, what: string): Plain {
  if (typeof msg !== "object" || msg === null || !Array.isArray((msg as Plain).content)) {
    throw new MsgError("invalid_argument", `${what} takes a message object with a content list`);
  }
  return msg as Plain;
}

/** The state `msg` is in sync with, or `undefined` when it must be rebuilt. */
function inSync(msg: Plain): State | undefined {
  const s = lookup(msg);
  if (s === undefined || msg.content !== s.content || msg.content.length !== s.count) return undefined;
  if (!headerSame(s, msg) || !sameBlocks(s, msg.content)) return undefined;
  return s;
}

/** Whether `content` holds the blocks last written, each where it was written; with
 * `index`, the block at that position only (a delta's: the other blocks are checked at
 * the next event that is not a delta, which costs a crossing of its JSON anyway). */
function sameBlocks(s: State, content: unknown[], index?: number): boolean {
  const blocks = s.blocks;
  if (index !== undefined) return content[index] === blocks[index];
  for (let i = 0; i < blocks.length; i++) if (content[i] !== blocks[i]) return false;
  return true;
}

function read(s: State): Changes {
  const text = call(() => s.handle.readChanges());
  stats.unitsRead += text.length;
  return JSON.parse(text) as Changes;
}

/** A new wasm message from `msg`'s JSON (validated as `Msg.model_validate`). */
function rebuild(msg: Plain): State {
  const handle = call(() => MsgHandle.fromJSON(toJSONText(msg, "a message")));
  stats.rebuilds++;
  const s: State = { handle, content: msg.content, count: msg.content.length, blocks: msg.content.slice(), header: newHeader(), headerJSON: new Map(), deltas: new DeltaBatch(), run: undefined, latest: undefined };
  // the first read hands out everything: what the plain object already holds
  let first: Changes;
  try {
    first = read(s);
  } catch (e) {
    handle.free();
    throw e;
  }
  for (const [key, value] of Object.entries(first.header)) {
    if (key === "content") continue;
    s.headerJSON.set(key, headerJSON(value));
    headerSet(s, key, msg[key]);
  }
  return s;
}

/** The JSON text of an event argument; `invalid_argument` for anything else. */
function eventText(event: EventInput): string {
  return typeof event === "string" ? event : toJSONText(event, "an event");
}

/** Applies `json` to the state's message and reads what changed (`undefined`: nothing).
 * A rejected event changes nothing. */
function apply(s: State, json: string, msg: Plain): Changes | undefined {
  const before = s.handle.revision();
  call(() => s.handle.appendEvent(json));
  if (s.handle.revision() === before) return undefined;
  return readOrUntie(s, msg);
}

/** The changes of a read; a read that fails after an event went in unties `msg` (rebuilt
 * from its JSON next time). */
function readOrUntie(s: State, msg: Plain): Changes {
  try {
    return read(s);
  } catch (e) {
    untie(s, msg);
    throw e;
  }
}

/** The state for `msg`, rebuilt when needed; `undefined` when the event cannot change it
 * (`CUSTOM`, another reply's): then it is only validated, without a rebuild. */
function stateFor(msg: Plain, json: string): State | undefined {
  const s = inSync(msg);
  if (s !== undefined && flushed(s, msg)) return s;
  const parsed = JSON.parse(call(() => wasmParseEvent(json))) as { type: string; reply_id?: string };
  if (parsed.type === "CUSTOM" || parsed.reply_id !== msg.id) return undefined;
  return rebuild(msg);
}

/** The message fields but `content` (the wire's, REFERENCE.md §2), as last written. */
interface Header {
  name: unknown;
  role: unknown;
  id: unknown;
  metadata: unknown;
  created_at: unknown;
  usage: unknown;
  finished_at: unknown;
  finished_reason: unknown;
  structured_output: unknown;
  error: unknown;
}

function newHeader(): Header {
  const u = undefined;
  return { name: u, role: u, id: u, metadata: u, created_at: u, usage: u, finished_at: u, finished_reason: u, structured_output: u, error: u };
}

/** Whether `msg`'s fields are the values last written (an app's change is seen): each
 * named, so that the check of every delta is a few loads, not a loop of keyed ones. */
function headerSame(s: State, m: Plain): boolean {
  const h = s.header;
  return (
    m.id === h.id &&
    m.name === h.name &&
    m.role === h.role &&
    m.metadata === h.metadata &&
    m.created_at === h.created_at &&
    m.usage === h.usage &&
    m.finished_at === h.finished_at &&
    m.finished_reason === h.finished_reason &&
    m.structured_output === h.structured_output &&
    m.error === h.error
  );
}

/** Records `value` as the one last written at header field `key` (a field the wire adds
 * later than this module is not recorded, and not checked). */
function headerSet(s: State, key: string, value: unknown): void {
  if (Object.hasOwn(s.header, key)) s.header[key as keyof Header] = value;
}

/** What a header value is compared by: a string, number or null itself, an object its
 * JSON text. */
function headerJSON(value: unknown): unknown {
  return typeof value === "object" && value !== null ? JSON.stringify(value) : value;
}

/** Writes the header keys whose value changed into `target`; records what was written. */
function writeHeader(s: State, header: Record<string, unknown>, target: Plain): void {
  for (const key in header) {
    if (key === "content" || !Object.hasOwn(header, key)) continue;
    const value = header[key];
    const json = headerJSON(value);
    if (s.headerJSON.get(key) !== json) {
      put(target, key, value);
      s.headerJSON.set(key, json);
    }
    headerSet(s, key, own(target, key));
  }
}

/** Runs `write` (see `undoing`); when it throws, unties `s` (the next call rebuilds the
 * wasm message from the object as it is) and throws `not_writable`. */
function writing(s: State, msg: Plain, write: () => void): void {
  try {
    undoing(write);
  } catch (e) {
    untie(s, msg);
    throw notWritable(e);
  }
}

/** Drops the tie of `msg` to `s` and frees `s`'s wasm message. */
function untie(s: State, msg: Plain): void {
  if (recent === s) recent = undefined;
  if (states.get(msg) === s) states.delete(msg);
  if (states.get(msg.content) === s) states.delete(msg.content);
  s.handle.free();
}

/** Ties `msg` (and its content list) to `s` as what was last written. */
function tie(s: State, msg: Plain): void {
  s.content = msg.content;
  s.count = msg.content.length;
  s.blocks = msg.content.slice();
  s.latest = msg;
  register(s, msg);
}

/** The WeakMap entries of {@link tie}. */
function register(s: State, msg: Plain): void {
  states.set(msg, s);
  states.set(msg.content, s);
}

// The state whose latest object is not in `states` yet: a delta of the immutable form makes
// a new message object per event, and two WeakMap entries per event cost more than the
// event. They are made once another message's object is folded.
let recent: State | undefined;

/** {@link tie} for a copy of the message tied to `s` that differs from it in the block
 * `run` names only (a delta's), the WeakMap entries made only when another state is tied
 * later. */
function tieLater(s: State, msg: Plain, run: Run): void {
  if (recent !== s) {
    if (recent?.latest !== undefined) register(recent, recent.latest);
    recent = s;
  }
  s.content = msg.content;
  s.count = msg.content.length;
  s.blocks[run.index] = run.block;
  s.latest = msg;
}

/** The state `msg` (or its content list) was tied to, if any. */
function lookup(msg: Plain): State | undefined {
  if (recent !== undefined && (recent.latest === msg || recent.content === msg.content)) return recent;
  return states.get(msg) ?? states.get(msg.content);
}

/** How `appendEvent` / `appendEventImmutable` treat an event the reducer refuses. */
export interface AppendEventOptions {
  /**
   * Throw the refused event's `MsgError` (default `false`: the message is left as the
   * reference leaves it, the call returns it, and the refusal goes to `onRefused`, or,
   * without one, to `console.warn` once per error code).
   */
  strict?: boolean;
  /** Told of each refused event when not `strict`: its `MsgError` and the event. */
  onRefused?: ((error: MsgError, event: EventInput) => void) | null;
}

let defaults: AppendEventOptions = {};
const warned = new Set<MsgErrorCode>();

/**
 * Sets the options every `appendEvent` / `appendEventImmutable` call without its own
 * takes (see {@link AppendEventOptions}); `{}` restores the defaults.
 */
export function setAppendEventOptions(options: AppendEventOptions): void {
  if (typeof options !== "object" || options === null) {
    throw new MsgError("invalid_argument", "setAppendEventOptions takes an options object");
  }
  defaults = { ...options };
}

// errors of the call itself, not of the event: thrown whatever the options say
const NOT_REFUSALS: ReadonlySet<MsgErrorCode> = new Set(["invalid_argument", "not_writable", "not_initialized", "init_failed", "freed"]);

/** What a fold threw: thrown again (strict, or not a refusal), or reported. */
function refused(e: unknown, event: EventInput, options: AppendEventOptions | undefined): void {
  const o = options ?? defaults;
  if (o.strict === true || !(e instanceof MsgError) || NOT_REFUSALS.has(e.code)) throw e;
  if (typeof o.onRefused === "function") {
    o.onRefused(e, event);
  } else if (!warned.has(e.code)) {
    warned.add(e.code);
    console.warn(`agentscope-message/compat: an event was refused and skipped (${e.code}: ${e.message}); further ${e.code} refusals are not logged (pass onRefused to hear of each, or strict to throw)`);
  }
}

/** The state `msg` is tied to for a text delta: the tie, its content list and its header
 * fields (an app's change of one rebuilds the message, as for any event). */
function tiedForDelta(msg: Plain): State | undefined {
  const s = lookup(msg);
  if (s === undefined || msg.content !== s.content || msg.content.length !== s.count || !headerSame(s, msg)) return undefined;
  return s;
}

/** Sends the deltas joined into `s` (marked read: the plain objects have them) and closes
 * its run; false when the wasm side did not take them as planned: `s` is then untied (the
 * object is rebuilt from its JSON). */
function flushed(s: State, msg: Plain): boolean {
  s.run = undefined;
  let code: number;
  try {
    code = s.deltas.flush(s.handle, true);
  } catch {
    code = -2;
  }
  if (code !== -2) return true;
  untie(s, msg);
  return false;
}

function notWritable(e: unknown): MsgError {
  return new MsgError(
    "not_writable",
    `the message object refused a write (frozen, sealed, or a Proxy that refuses): ${(e as Error)?.message ?? String(e)}; it was left as it was (use appendEventImmutable for frozen state)`,
    { cause: e },
  );
}

const TAIL_FIELDS = ["text", "thinking", "input"] as const;

/** The object and key of the string `code` (of `appendDelta`: `4 * block + at`) names in
 * `content`, when it is an own string there. */
function tailOf(content: unknown[], code: number): Run | undefined {
  const index = code >> 2;
  const block = content[index];
  if (!isObject(block)) return undefined;
  const at = code & 3;
  let holder: unknown = block;
  if (at === 3) {
    const output = own(block, "output");
    holder = Array.isArray(output) ? output[output.length - 1] : undefined;
  }
  const key = at < 3 ? TAIL_FIELDS[at]! : "text";
  if (!isObject(holder) || typeof own(holder, key) !== "string") return undefined;
  return { index, block, holder: holder as Record<string, unknown>, key };
}


/** The run of `s` flushed, then one delta sent alone (`appendDelta`'s code, the change
 * marked read); `undefined` when the flush went otherwise than planned (`s` untied: the
 * object is rebuilt). Throws the delta's refusal (`MsgError`). */
function sendAlone(s: State, plain: Plain, kind: number, reply: string, target: string, delta: string): number | undefined {
  if (!flushed(s, plain)) return undefined;
  try {
    return s.deltas.send(s.handle, kind, reply, target, delta, true);
  } catch (error) {
    rethrow(error);
  }
}

/**
 * A text delta folded in place into the message `s` is tied to (see `hot.ts`): joined to
 * the open run (written into the plain string, sent to wasm later), or sent alone and its
 * change written. False when the object must be rebuilt (the general path does it).
 */
function foldDeltaInPlace(s: State, plain: Plain, kind: number, reply: string, target: string, delta: string): boolean {
  const run = s.run;
  if (run !== undefined && s.deltas.joinable(kind, reply, target, delta) >= 0 && plain.content[run.index] === run.block) {
    const old = run.holder[run.key];
    if (typeof old === "string") {
      try {
        run.holder[run.key] = old + delta;
      } catch (error) {
        // nothing went to wasm: the tie stays as it was
        throw notWritable(error);
      }
      s.deltas.commit(delta);
      stats.tailsWritten++;
      return true;
    }
  }
  const code = sendAlone(s, plain, kind, reply, target, delta);
  if (code === undefined) return false;
  if (code === -1) return true;
  // a change is written by position: the blocks must be where they were written (else
  // rebuilt from the object, the event applied again)
  if (code === -2) {
    if (!sameBlocks(s, plain.content)) {
      untie(s, plain);
      return false;
    }
    writeChanges(s, plain, readOrUntie(s, plain));
    return true;
  }
  const tail = tailOf(plain.content, code);
  if (tail === undefined || tail.block !== s.blocks[tail.index]) {
    // the app changed or moved the block: rebuilt from the object, the event applied again
    untie(s, plain);
    return false;
  }
  try {
    tail.holder[tail.key] = (tail.holder[tail.key] as string) + delta;
  } catch (error) {
    untie(s, plain);
    throw notWritable(error);
  }
  s.run = tail;
  stats.tailsWritten++;
  return true;
}

/** `plain` with `delta` appended to the string of `tail`: new objects along the way to it
 * (message, content list, block, output list and item), the rest shared; `undefined`
 * when the string is not there. */
function grownCopy(plain: Plain, tail: Run, delta: string): { next: Plain; run: Run } | undefined {
  const block = plain.content[tail.index];
  if (!isObject(block)) return undefined;
  const copy: Record<string, unknown> = { ...block };
  let holder = copy;
  if (tail.holder !== block) {
    const output = own(block, "output");
    if (!Array.isArray(output) || output[output.length - 1] !== tail.holder) return undefined;
    holder = { ...tail.holder };
    const list = output.slice();
    list[list.length - 1] = holder;
    copy.output = list;
  }
  const old = own(holder, tail.key);
  if (typeof old !== "string") return undefined;
  holder[tail.key] = old + delta;
  const content = plain.content.slice();
  content[tail.index] = copy;
  const next: Plain = { ...plain };
  next.content = content;
  return { next, run: { index: tail.index, block: copy, holder, key: tail.key } };
}

/** {@link foldDeltaInPlace} for {@link appendEventImmutable}: the next object, or
 * `undefined` when the general path must rebuild. */
function foldDeltaImmutable(s: State, plain: Plain, kind: number, reply: string, target: string, delta: string): Plain | undefined {
  const run = s.run;
  if (run !== undefined && s.deltas.joinable(kind, reply, target, delta) >= 0 && plain.content[run.index] === run.block) {
    const grown = grownCopy(plain, run, delta);
    if (grown !== undefined) {
      s.deltas.commit(delta);
      stats.tailsWritten++;
      tieLater(s, grown.next, grown.run);
      s.run = grown.run;
      return grown.next;
    }
  }
  const code = sendAlone(s, plain, kind, reply, target, delta);
  if (code === undefined) return undefined;
  if (code === -1) return plain;
  if (!sameBlocks(s, plain.content, code === -2 ? undefined : code >> 2)) {
    untie(s, plain);
    return undefined;
  }
  if (code === -2) return writeCopy(s, plain, readOrUntie(s, plain));
  const tail = tailOf(plain.content, code);
  const grown = tail === undefined ? undefined : grownCopy(plain, tail, delta);
  if (grown === undefined) {
    untie(s, plain);
    return undefined;
  }
  stats.tailsWritten++;
  tieLater(s, grown.next, grown.run);
  s.run = grown.run;
  return grown.next;
}

/** `appendEvent` without the refusal handling. */
function foldInPlace(plain: Plain, event: EventInput): void {
  if (typeof event === "object" && event !== null) {
    const e = event as DeltaObject;
    const kind = deltaKind(e);
    if (kind >= 0) {
      // (the parts copied before the tie is looked up: a getter of the message may fold)
      const { reply, target, delta } = parts;
      const s = tiedForDelta(plain);
      if (s !== undefined && foldDeltaInPlace(s, plain, kind, reply, target, delta)) return;
    }
  }
  const json = eventText(event);
  const s = stateFor(plain, json);
  if (s === undefined) return;
  const changes = apply(s, json, plain);
  if (changes !== undefined) writeChanges(s, plain, changes);
  else tie(s, plain);
}

/** Writes what a read handed out into `plain` in place (atomically) and ties it. */
function writeChanges(s: State, plain: Plain, changes: Changes): void {
  writing(s, plain, () => {
    writeHeader(s, changes.header, plain);
    const content = plain.content;
    if (content.length > changes.count) cut(content, changes.count);
    for (const change of changes.changes) {
      const i = change[0];
      if (change.length === 2) {
        const old = content[i];
        const now = change[1] as Record<string, unknown>;
        if (isObject(old) && own(old, "type") === now.type) syncInto(old, now, true);
        // a new block is pushed, as the reference does (an observed list, Vue 2's, sees
        // a push but not an assignment past its end)
        else if (i === content.length) append(content, now);
        else put(content as unknown as Record<number, unknown>, i, now);
        stats.blocksWritten++;
      } else {
        growInPlace(content[i], change[1], change[2], change[3]);
        stats.tailsWritten++;
      }
    }
  });
  tie(s, plain);
}

/**
 * Applies one event to a plain message object **in place** and returns it, like
 * `appendEvent(msg, event)` of `@agentscope-ai/agentscope` (the reducer is the Python
 * reference's `Msg.append_event`, run in wasm). Events of another `reply_id`, `CUSTOM`
 * events and deltas for unknown blocks are skipped.
 *
 * Cost: passing back the object this function last wrote (or a shallow copy of it that
 * keeps its `content` list), an event costs what it changes: a text delta (text,
 * thinking, tool call input, tool result text) crosses into wasm as its strings and is
 * appended to the plain string; a new block is pushed, a changed block's fields set;
 * blocks keep their identity. Any other object (a deep copy, a message from the server,
 * one whose top-level fields or `content` list the app replaced, an Immer draft) is first
 * rebuilt from its JSON, at a cost proportional to the message; so is one whose `content`
 * list the app reordered in place (a sort): each change goes to the block the event names.
 * A block whose own fields the app changed in place is not noticed: give such a message
 * a new `content` list.
 *
 * Safe: every key of the data (`__proto__`, `constructor`, `prototype`, at any depth) is
 * written as an own data property; nothing reaches a prototype.
 *
 * A refused event (`invalid_event`, `invalid_json`, `invalid_base64`, `invalid_url`,
 * `base64_after_url`, `limit_exceeded`; for a message that must be rebuilt, the codes of
 * `Msg.fromJSON`) leaves the object as the reference leaves it (unchanged) and, as the
 * SDK does, does not throw: it goes to `options.onRefused` (or `console.warn`, once per
 * code) unless `options.strict` (see {@link AppendEventOptions},
 * {@link setAppendEventOptions}). Always thrown (`MsgError`): `invalid_argument` for a
 * message without a content list or an event that is not an object or JSON text;
 * `not_writable` when the object refuses a write (frozen, sealed, a Proxy): it is then
 * left exactly as it was, and rebuilt from its JSON at the next call.
 */
export function appendEvent<M extends object>(msg: M, event: EventInput, options?: AppendEventOptions): M {
  const plain = expectPlain(msg, "appendEvent");
  try {
    foldInPlace(plain, event);
  } catch (e) {
    refused(e, event, options);
  }
  return msg;
}

/**
 * The immutable form of {@link appendEvent}, for store-based apps (zustand, redux, Immer's
 * frozen state): returns a new message object with the event applied and never writes
 * into `prev` (which may be frozen). Unchanged blocks are shared (`next.content[i] ===
 * prev.content[i]`); a changed block is a new object (a grown one shares its unchanged
 * parts). When the event changes nothing (another reply, `CUSTOM`, an unknown block, a
 * refused event when not strict), `prev` itself is returned.
 *
 * Cost: with the `prev` this function last returned, what the event changes plus one copy
 * of the `content` list (pointers); a text delta crosses into wasm as its strings. Any
 * other `prev` is first rebuilt from its JSON (a cost proportional to the message).
 * Refusals and errors as {@link appendEvent}, `prev` unchanged.
 */
export function appendEventImmutable<M extends object>(prev: M, event: EventInput, options?: AppendEventOptions): M {
  const plain = expectPlain(prev, "appendEventImmutable");
  try {
    return foldImmutable(plain, event) as M;
  } catch (e) {
    refused(e, event, options);
    return prev;
  }
}

function foldImmutable(plain: Plain, event: EventInput): Plain {
  if (typeof event === "object" && event !== null) {
    const e = event as DeltaObject;
    const kind = deltaKind(e);
    if (kind >= 0) {
      const { reply, target, delta } = parts;
      const s = tiedForDelta(plain);
      const next = s === undefined ? undefined : foldDeltaImmutable(s, plain, kind, reply, target, delta);
      if (next !== undefined) return next;
    }
  }
  const json = eventText(event);
  const s = stateFor(plain, json);
  if (s === undefined) return plain;
  const changes = apply(s, json, plain);
  if (changes === undefined) {
    tie(s, plain);
    return plain;
  }
  return writeCopy(s, plain, changes);
}

/** A new message object with what a read handed out; unchanged blocks shared. Ties it. */
function writeCopy(s: State, plain: Plain, changes: Changes): Plain {
  const next: Plain = { ...plain };
  writeHeader(s, changes.header, next);
  const content = plain.content.slice(0, changes.count);
  for (const change of changes.changes) {
    const i = change[0];
    if (change.length === 2) {
      content[i] = change[1];
      stats.blocksWritten++;
    } else {
      content[i] = growCopy(content[i], change[1], change[2], change[3]);
      stats.tailsWritten++;
    }
  }
  next.content = content;
  tie(s, next);
  return next;
}
