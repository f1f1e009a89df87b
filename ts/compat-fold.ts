// `appendEvent` on plain message objects (`agentscope-message/compat`): each object the
// app passes back is tied (WeakMap) to a wasm-held message, and every event's change is
// applied to the plain object itself: a delta appended to its string, a new block pushed,
// a changed block's fields set. The wasm side hands out only what changed (the core's
// `SnapshotReader`), so an event costs what it changes, not the message's size. An object
// the map does not know (a deep copy, a message from the server) is first rebuilt from
// its JSON: a cost proportional to the message.
import { MsgHandle, parseEvent as wasmParseEvent } from "./wasm/agentscope_message.js";
import { MsgError, call, toJSONText } from "./errors.js";
import type { EventInput } from "./compat-types.js";

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
  /** The header values last written, by key (identity: an app's change is seen). */
  header: Map<string, unknown>;
  /** Their JSON text, to tell which ones the next read changed. */
  headerJSON: Map<string, string>;
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
  const s = states.get(msg) ?? states.get(msg.content);
  if (s === undefined || msg.content !== s.content || msg.content.length !== s.count) return undefined;
  for (const [key, value] of s.header) if (msg[key] !== value) return undefined;
  return s;
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
  const s: State = { handle, content: msg.content, count: msg.content.length, header: new Map(), headerJSON: new Map() };
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
    s.headerJSON.set(key, JSON.stringify(value));
    s.header.set(key, msg[key]);
  }
  return s;
}

/** The JSON text of an event argument; `invalid_argument` for anything else. */
function eventText(event: EventInput): string {
  return typeof event === "string" ? event : toJSONText(event, "an event");
}

/** Applies `json` to the state's message and reads what changed (`undefined`: nothing).
 * A rejected event changes nothing; a read that fails after the event went in unties
 * `msg` (rebuilt from its JSON next time). */
function apply(s: State, json: string, msg: Plain): Changes | undefined {
  const before = s.handle.revision();
  call(() => s.handle.appendEvent(json));
  if (s.handle.revision() === before) return undefined;
  try {
    return read(s);
  } catch (e) {
    if (states.get(msg) === s) states.delete(msg);
    if (states.get(msg.content) === s) states.delete(msg.content);
    s.handle.free();
    throw e;
  }
}

/** The state for `msg`, rebuilt when needed; `undefined` when the event cannot change it
 * (`CUSTOM`, another reply's): then it is only validated, without a rebuild. */
function stateFor(msg: Plain, json: string): State | undefined {
  const s = inSync(msg);
  if (s !== undefined) return s;
  const parsed = JSON.parse(call(() => wasmParseEvent(json))) as { type: string; reply_id?: string };
  if (parsed.type === "CUSTOM" || parsed.reply_id !== msg.id) return undefined;
  return rebuild(msg);
}

/** Writes the header keys whose value changed into `target`; records what was written. */
function writeHeader(s: State, header: Record<string, unknown>, target: Plain): void {
  for (const [key, value] of Object.entries(header)) {
    if (key === "content") continue;
    const json = JSON.stringify(value);
    if (s.headerJSON.get(key) !== json) {
      target[key] = value;
      s.headerJSON.set(key, json);
    }
    s.header.set(key, target[key]);
  }
}

function isObject(v: unknown): v is Record<string | number, unknown> {
  return typeof v === "object" && v !== null;
}

/**
 * Makes `old` hold `now`'s values in place: nested objects and lists are kept and synced
 * (keys `now` lacks removed), strings and numbers set. At a block's top level (`top`),
 * keys `now` lacks are kept: the wire has every declared key, so those are the app's.
 */
function syncInto(old: Record<string | number, unknown>, now: Record<string | number, unknown>, top = false): void {
  if (Array.isArray(old) && Array.isArray(now)) {
    if (old.length > now.length) old.length = now.length;
  } else if (!top) {
    for (const key of Object.keys(old)) if (!Object.hasOwn(now, key)) delete old[key];
  }
  for (const key of Object.keys(now)) {
    const a = old[key];
    const b = now[key];
    if (isObject(a) && isObject(b) && Array.isArray(a) === Array.isArray(b) && (a as { type?: unknown }).type === (b as { type?: unknown }).type) {
      syncInto(a, b);
    } else if (Array.isArray(old) && Number(key) === old.length) {
      old.push(b); // as the reference grows a list (an observed list sees a push)
    } else if (a !== b) {
      old[key] = b;
    }
  }
}

// For a base64 payload (cut to `keep` before each append: its last 4-character group may
// change), the object holding it → the string last written there and its stable prefix,
// built by appends only (slicing the previous string would flatten it in V8 and make
// every event cost the payload's size)
const prefixes = new WeakMap<object, { value: string; keep: number; prefix: string }>();

/** The string at `holder[key]` grown: `old + tail`, or `old.slice(0, keep) + tail`. */
function grown(holder: Record<string | number, unknown>, key: string | number, keep: number | null, tail: string): string {
  const old = holder[key] as string;
  if (keep === null) return old + tail;
  const cached = prefixes.get(holder);
  const prefix = cached !== undefined && cached.value === old && cached.keep === keep ? cached.prefix : old.slice(0, keep);
  const value = prefix + tail;
  // a padded last group is the one the next append may change
  const partial = tail.endsWith("=") ? 4 : 0;
  return remember(holder, value, value.length - partial, prefix + tail.slice(0, tail.length - partial));
}

function remember(holder: object, value: string, keep: number, prefix: string): string {
  prefixes.set(holder, { value, keep, prefix });
  return value;
}

/** Grows the string at `path` of `block` in place. */
function growInPlace(block: unknown, path: (string | number)[], keep: number | null, tail: string): void {
  let holder = block as Record<string | number, unknown>;
  for (let j = 0; j < path.length - 1; j++) holder = holder[path[j]!] as Record<string | number, unknown>;
  const key = path[path.length - 1]!;
  holder[key] = grown(holder, key, keep, tail);
}

/** A copy of `node` with the string at `path` grown (the copies along the path only). */
function growCopy(node: unknown, path: (string | number)[], keep: number | null, tail: string): unknown {
  const [key, ...rest] = path as [string | number, ...(string | number)[]];
  const holder = node as Record<string | number, unknown>;
  const copy = (Array.isArray(node) ? [...node] : { ...holder }) as Record<string | number, unknown>;
  if (rest.length > 0) {
    copy[key] = growCopy(holder[key], rest, keep, tail);
    return copy;
  }
  if (keep === null) {
    copy[key] = (holder[key] as string) + tail;
    return copy;
  }
  const value = grown(holder, key, keep, tail);
  copy[key] = value;
  const cached = prefixes.get(holder)!;
  prefixes.delete(holder);
  prefixes.set(copy, { ...cached, value });
  return copy;
}

/** Ties `msg` (and its content list) to `s` as what was last written. */
function tie(s: State, msg: Plain): void {
  s.content = msg.content;
  s.count = msg.content.length;
  states.set(msg, s);
  states.set(msg.content, s);
}

/**
 * Applies one event to a plain message object **in place** and returns it, like
 * `appendEvent(msg, event)` of `@agentscope-ai/agentscope` (the reducer is the Python
 * reference's `Msg.append_event`, run in wasm). Events of another `reply_id`, `CUSTOM`
 * events and deltas for unknown blocks are skipped.
 *
 * Cost: passing back the object this function last wrote (or a shallow copy of it that
 * keeps its `content` list), an event costs what it changes: a delta is appended to its
 * string, a new block pushed, a changed block's fields set; blocks keep their identity.
 * Any other object (a deep copy, a message from the server, one whose top-level fields
 * or `content` list the app replaced) is first rebuilt from its JSON, at a cost
 * proportional to the message. Blocks the app changed in place are not noticed: give
 * such a message a new `content` list.
 *
 * Throws `MsgError` (`invalid_event`, `invalid_json`, `invalid_base64`, `invalid_url`,
 * `base64_after_url`, `limit_exceeded`; for a message that must be rebuilt, the codes of
 * `Msg.fromJSON`; `invalid_argument` for a message without a content list); the object
 * is then unchanged.
 */
export function appendEvent<M extends object>(msg: M, event: EventInput): M {
  const plain = expectPlain(msg, "appendEvent");
  const json = eventText(event);
  const s = stateFor(plain, json);
  if (s === undefined) return msg;
  const changes = apply(s, json, plain);
  if (changes !== undefined) {
    writeHeader(s, changes.header, plain);
    const content = plain.content;
    if (content.length > changes.count) content.length = changes.count;
    for (const change of changes.changes) {
      const i = change[0];
      if (change.length === 2) {
        const old = content[i];
        const now = change[1] as Record<string, unknown>;
        if (isObject(old) && old.type === now.type) syncInto(old, now, true);
        // a new block is pushed, as the reference does (an observed list, Vue 2's, sees
        // a push but not an assignment past its end)
        else if (i === content.length) content.push(now);
        else content[i] = now;
        stats.blocksWritten++;
      } else {
        growInPlace(content[i], change[1], change[2], change[3]);
        stats.tailsWritten++;
      }
    }
  }
  tie(s, plain);
  return msg;
}

/**
 * The immutable form of {@link appendEvent}, for store-based apps (zustand, redux):
 * returns a new message object with the event applied and leaves `prev` as it was.
 * Unchanged blocks are shared (`next.content[i] === prev.content[i]`); a changed block is
 * a new object (a grown one shares its unchanged parts). When the event changes nothing
 * (another reply, `CUSTOM`, an unknown block), `prev` itself is returned.
 *
 * Cost: with the `prev` this function last returned, what the event changes plus one copy
 * of the `content` list (pointers); any other `prev` is first rebuilt from its JSON (a
 * cost proportional to the message). Throws as {@link appendEvent}, `prev` unchanged.
 */
export function appendEventImmutable<M extends object>(prev: M, event: EventInput): M {
  const plain = expectPlain(prev, "appendEventImmutable");
  const json = eventText(event);
  const s = stateFor(plain, json);
  if (s === undefined) return prev;
  const changes = apply(s, json, plain);
  if (changes === undefined) {
    tie(s, plain);
    return prev;
  }
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
  return next as M;
}
