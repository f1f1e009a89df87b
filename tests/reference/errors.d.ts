/**
 * The stable codes of {@link MsgError}, as the Rust core defines them, plus `freed` (a
 * message used after `free()`), `invalid_argument` (a JS argument of the wrong type),
 * `not_writable` (a plain message object `agentscope-message/compat`'s in-place
 * `appendEvent` could not write into: frozen, sealed, a Proxy that refuses; it is left as
 * it was),
 * `init_failed` (`init()` could not load the .wasm) and `not_initialized` (the explicit
 * entry `agentscope-message/init` used before its `init()` resolved).
 * `unknown_block`, `unknown_reply`, `after_end`, `after_block_end`, `duplicate_block`, `foreign_reply` and
 * `unknown_event_type` come from a strict `Session` only.
 * The chat client (`agentscope-message/chat`) adds `busy` (the service runs another reply:
 * HTTP 409, or a reply of this chat is in flight), `http_error` (another HTTP status, in
 * `status`, or a service answer that is not the JSON it should be),
 * `service_unavailable` (a request or the event stream did not reach the service, or the
 * stream stalled), `run_failed` (a reply ended with an error), `run_lost` (a reply with
 * no event past `lostRunMs` while the service still says it runs: its instance is likely
 * gone), `closed` (a chat used after `close()`) and `aborted` (a request whose `signal`
 * the app aborted: `cause` is the signal's reason); it refuses with `invalid_argument`,
 * before any request, what agentscope 2.0.11 would choke on: a lone surrogate in
 * anything sent, a data block whose URL is not http(s), a session id `.` or `..`.
 */
export type MsgErrorCode = "role_violation" | "invalid_role" | "invalid_content" | "invalid_msg" | "invalid_event" | "invalid_json" | "invalid_base64" | "invalid_url" | "base64_after_url" | "no_reply" | "invalid_stream" | "invalid_checkpoint" | "limit_exceeded" | "unknown_block" | "unknown_reply" | "after_end" | "after_block_end" | "duplicate_block" | "foreign_reply" | "unknown_event_type" | "freed" | "not_writable" | "invalid_argument" | "init_failed" | "not_initialized" | "busy" | "http_error" | "service_unavailable" | "run_failed" | "run_lost" | "closed" | "aborted";
/**
 * Every error this package throws: bad messages, bad events, events the reducer rejects.
 * `code` is stable; `message` carries the reference's text where it has one (e.g.
 * "User message can only contain text blocks or data blocks."). A rejected event leaves
 * the message exactly as it was.
 */
export declare class MsgError extends Error {
    /** The stable error code. */
    readonly code: MsgErrorCode;
    /** For an event a `Session` refused: its 1-based position in the session. */
    readonly index?: number;
    /** For an event a `Session` refused: its `id`, when it was on the wire. */
    readonly eventId?: string;
    /** For an event a `Session` refused: the SSE `id:` of its frame, if any. */
    readonly sseId?: string;
    /** For an HTTP error of the chat client: the response's status (409 for `busy`). */
    readonly status?: number;
    /**
     * `where.cause`: the standard `Error.cause`. The chat client's transport gives a
     * `service_unavailable` of a request that got no answer in time the cause `"timeout"`
     * (it may still reach the service: `Chat` never sends such an input again).
     */
    constructor(code: MsgErrorCode, message: string, where?: {
        index?: number;
        eventId?: string;
        sseId?: string;
        status?: number;
        cause?: unknown;
    });
}
/** Called once the .wasm is instantiated (`load.ts`). */
export declare function markReady(): void;
/** Keeps the zero-config load's failure for the first call to throw (`load.ts`). */
export declare function markFailed(error: MsgError): void;
/**
 * Runs `f`, turning an error thrown by the wasm core into a {@link MsgError}; before the
 * .wasm is loaded, throws `not_initialized` instead of calling it (every handle is made
 * through here, so a method of an existing one needs no check).
 */
export declare function call<T>(f: () => T): T;
/** Throws `e`, an error the wasm core threw turned into a {@link MsgError} (for a method
 * of a handle that exists, called without {@link call}). */
export declare function rethrow(e: unknown): never;
/** Throws `invalid_argument` unless `value` is a string. */
export declare function expectString(value: unknown, what: string): string;
/** JSON text of an object argument (`JSON.stringify`); `invalid_argument` for anything
 * else, and for what `JSON.stringify` throws on (BigInt, cycles, a throwing getter, too
 * deep a nesting). */
export declare function toJSONText(value: unknown, what: string): string;
declare global {
    interface SymbolConstructor {
        readonly dispose: unique symbol;
    }
}
/** Session options that are byte or block counts, with their Rust names. */
declare const CAPS: {
    readonly maxFrameBytes: "max_frame_bytes";
    readonly maxDeltaBytes: "max_delta_bytes";
    readonly maxBlockBytes: "max_block_bytes";
    readonly maxMessageBytes: "max_message_bytes";
    readonly maxBlocks: "max_blocks";
    readonly maxSessionBytes: "max_session_bytes";
};
/**
 * The caps given in `options` as Rust-named keys; throws `invalid_argument` for one that
 * is not an integer from 0 (no cap) to 2^32 - 1 (a `usize` in wasm32).
 */
export declare function capsJSON(options: Partial<Record<keyof typeof CAPS, unknown>>, what: string): Record<string, number>;
/** A UTF-16 surrogate without its other half (in a string). */
export declare const LONE_SURROGATE: RegExp;
/**
 * The JSON text of a request body (`JSON.stringify`); `invalid_argument` for a value it
 * cannot write (a cycle, a BigInt, a throwing getter) or that holds a lone surrogate in
 * any string or key.
 */
export declare function bodyJSON(value: unknown, what: string): string;
/**
 * Throws `invalid_argument` for a `data` block anywhere in `value` (a message, an event,
 * a request body) whose source is a URL that is not http(s): the service would read a
 * `file:` URL from its own disk. `value` is JSON-like (a cycle ends the walk there).
 */
export declare function checkDataUrls(value: unknown, what: string): void;
/**
 * Throws `invalid_argument` unless `id` is a session id that is one plain path segment
 * once encoded: a non-empty string, not `.` or `..` (a URL reads them as the folder or its
 * parent: `DELETE /sessions/..` is `DELETE /`), without a lone surrogate.
 */
export declare function sessionIdSegment(id: unknown, what: string): string;
/**
 * A call's options (`{signal?, ...}`): `{}` when absent; `invalid_argument` for options
 * that are not an object (null included) or a `signal` that is not an `AbortSignal`.
 */
export declare function optionsObject<T extends object>(options: T | undefined, what: string): T;
/** The error of a request whose `signal` was aborted: its reason if a `MsgError` (the chat's `closed`), else `aborted` with the reason as `cause`. */
export declare function abortedError(signal: AbortSignal): MsgError;
export {};
