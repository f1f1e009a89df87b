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
export declare function appendEvent<M extends object>(msg: M, event: EventInput): M;
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
export declare function appendEventImmutable<M extends object>(prev: M, event: EventInput): M;
