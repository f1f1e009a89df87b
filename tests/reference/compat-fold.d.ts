import { MsgError } from "./errors.js";
import type { EventInput } from "./compat-types.js";
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
/** A copy of the work counters since the start or the last {@link resetFoldStats}. */
export declare function foldStats(): FoldStats;
/** Sets the work counters to 0. */
export declare function resetFoldStats(): void;
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
/**
 * Sets the options every `appendEvent` / `appendEventImmutable` call without its own
 * takes (see {@link AppendEventOptions}); `{}` restores the defaults.
 */
export declare function setAppendEventOptions(options: AppendEventOptions): void;
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
export declare function appendEvent<M extends object>(msg: M, event: EventInput, options?: AppendEventOptions): M;
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
export declare function appendEventImmutable<M extends object>(prev: M, event: EventInput, options?: AppendEventOptions): M;
