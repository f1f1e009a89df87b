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
export type MsgErrorCode =
  | "role_violation"
  | "invalid_role"
  | "invalid_content"
  | "invalid_msg"
  | "invalid_event"
  | "invalid_json"
  | "invalid_base64"
  | "invalid_url"
  | "base64_after_url"
  | "no_reply"
  | "invalid_stream"
  | "invalid_checkpoint"
  | "limit_exceeded"
  | "unknown_block"
  | "unknown_reply"
  | "after_end"
  | "after_block_end"
  | "duplicate_block"
  | "foreign_reply"
  | "unknown_event_type"
  | "freed"
  | "not_writable"
  | "invalid_argument"
  | "init_failed"
  | "not_initialized"
  | "busy"
  | "http_error"
  | "service_unavailable"
  | "run_failed"
  | "run_lost"
  | "closed"
  | "aborted";

/**
 * Every error this package throws: bad messages, bad events, events the reducer rejects.
 * `code` is stable; `message` carries the reference's text where it has one (e.g.
 * "User message can only contain text blocks or data blocks."). A rejected event leaves
 * the message exactly as it was.
 */
export class MsgError extends Error {
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
  constructor(code: MsgErrorCode, message: string, where?: { index?: number; eventId?: string; sseId?: string; status?: number; cause?: unknown }) {
    super(message, where?.cause === undefined ? undefined : { cause: where.cause });
    this.name = "MsgError";
    this.code = code;
    if (where?.index !== undefined) this.index = where.index;
    if (where?.eventId !== undefined) this.eventId = where.eventId;
    if (where?.sseId !== undefined) this.sseId = where.sseId;
    if (where?.status !== undefined) this.status = where.status;
  }
}

let ready = false;
/** Why the zero-config load failed where it may not throw at import (`load.ts`). */
let failure: MsgError | undefined;

/** Called once the .wasm is instantiated (`load.ts`). */
export function markReady(): void {
  ready = true;
  failure = undefined;
}

/** Keeps the zero-config load's failure for the first call to throw (`load.ts`). */
export function markFailed(error: MsgError): void {
  failure = error;
}

/**
 * Runs `f`, turning an error thrown by the wasm core into a {@link MsgError}; before the
 * .wasm is loaded, throws `not_initialized` instead of calling it (every handle is made
 * through here, so a method of an existing one needs no check).
 */
export function call<T>(f: () => T): T {
  if (!ready) {
    if (failure !== undefined) throw new MsgError(failure.code, failure.message);
    throw new MsgError(
      "not_initialized",
      "agentscope-message is not loaded yet: await init() from agentscope-message/init first",
    );
  }
  try {
    return f();
  } catch (e) {
    rethrow(e);
  }
}

/** Throws `e`, an error the wasm core threw turned into a {@link MsgError} (for a method
 * of a handle that exists, called without {@link call}). */
export function rethrow(e: unknown): never {
  if (e instanceof Error && e.name === "MsgError" && !(e instanceof MsgError)) {
    const w = e as Error & { code: MsgErrorCode; index?: number; eventId?: string; sseId?: string };
    throw new MsgError(w.code, e.message, { index: w.index, eventId: w.eventId, sseId: w.sseId });
  }
  throw e;
}

/** Throws `invalid_argument` unless `value` is a string. */
export function expectString(value: unknown, what: string): string {
  if (typeof value !== "string") throw new MsgError("invalid_argument", `${what} must be a string, got ${typeof value}`);
  return value;
}

/** JSON text of an object argument (`JSON.stringify`); `invalid_argument` for anything
 * else, and for what `JSON.stringify` throws on (BigInt, cycles, a throwing getter, too
 * deep a nesting). */
export function toJSONText(value: unknown, what: string): string {
  if (typeof value !== "object" || value === null) {
    throw new MsgError("invalid_argument", `${what} must be an object or JSON text, got ${value === null ? "null" : typeof value}`);
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (e) {
    throw new MsgError("invalid_argument", `${what} cannot be written as JSON: ${(e as Error).message}`);
  }
  // a `toJSON()` may return undefined (or a function): no JSON text at all
  if (typeof text !== "string") throw new MsgError("invalid_argument", `${what} has no JSON text (its toJSON() gave none)`);
  return text;
}

// `[Symbol.dispose]` in the declarations must type-check in a project whose `lib` lacks
// "esnext.disposable" (the Vite react-ts template, with skipLibCheck off): the symbol is
// declared here as @types/node and the lib declare it (identical declarations merge).
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

/** Session options that are byte or block counts, with their Rust names. */
const CAPS = {
  maxFrameBytes: "max_frame_bytes",
  maxDeltaBytes: "max_delta_bytes",
  maxBlockBytes: "max_block_bytes",
  maxMessageBytes: "max_message_bytes",
  maxBlocks: "max_blocks",
  maxSessionBytes: "max_session_bytes",
} as const;

/**
 * The caps given in `options` as Rust-named keys; throws `invalid_argument` for one that
 * is not an integer from 0 (no cap) to 2^32 - 1 (a `usize` in wasm32).
 */
export function capsJSON(options: Partial<Record<keyof typeof CAPS, unknown>>, what: string): Record<string, number> {
  const caps: Record<string, number> = {};
  for (const [name, rust] of Object.entries(CAPS)) {
    const value = options[name as keyof typeof CAPS];
    if (value === undefined) continue;
    if (!(typeof value === "number" && Number.isSafeInteger(value) && value >= 0 && value < 2 ** 32)) {
      throw new MsgError("invalid_argument", `${what} ${name} must be an integer from 0 (no cap) to 2^32 - 1`);
    }
    caps[rust] = value;
  }
  return caps;
}

// The inputs agentscope 2.0.11 chokes on, refused before any request (issue 36): a lone
// surrogate stored in a session (its record or a message) makes `GET /sessions/` or the
// session's `GET /messages` answer 500 for good; a data block's URL source other than
// http(s) is read by the service on its side (`file:///etc/hostname` goes to the model).

/** A UTF-16 surrogate without its other half (in a string). */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** A JSON escape of a lone surrogate (`JSON.stringify` writes one so since ES2019), not after an escaped backslash. */
const LONE_SURROGATE_ESCAPE = /(?<!\\)(?:\\\\)*\\ud[89a-f][0-9a-f]{2}/i;

/**
 * The JSON text of a request body (`JSON.stringify`); `invalid_argument` for a value it
 * cannot write (a cycle, a BigInt, a throwing getter) or that holds a lone surrogate in
 * any string or key.
 */
export function bodyJSON(value: unknown, what: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (e) {
    throw new MsgError("invalid_argument", `${what} cannot be written as JSON: ${(e as Error).message}`);
  }
  if (typeof text === "string" && LONE_SURROGATE_ESCAPE.test(text)) {
    throw new MsgError("invalid_argument", `${what} has a lone surrogate (not Unicode text; the service could not list it again)`);
  }
  return text ?? "null";
}

/** Whether `url` is an absolute http(s) URL. */
function httpUrl(url: unknown): boolean {
  if (typeof url !== "string" || !/^https?:/i.test(url)) return false;
  try {
    const { protocol } = new URL(url);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * Throws `invalid_argument` for a `data` block anywhere in `value` (a message, an event,
 * a request body) whose source is a URL that is not http(s): the service would read a
 * `file:` URL from its own disk. `value` is JSON-like (a cycle ends the walk there).
 */
export function checkDataUrls(value: unknown, what: string): void {
  const seen = new Set<object>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== "object" || v === null || seen.has(v)) continue;
    seen.add(v);
    const { type, source } = v as { type?: unknown; source?: { type?: unknown; url?: unknown } };
    if (type === "data" && typeof source === "object" && source !== null && source.type === "url" && !httpUrl(source.url)) {
      throw new MsgError(
        "invalid_argument",
        `${what}: a data block's URL must be http(s), got ${JSON.stringify(String(source.url).slice(0, 60))} (the service would read it on its side)`,
      );
    }
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (typeof child === "object" && child !== null) stack.push(child);
  }
}

/**
 * Throws `invalid_argument` unless `id` is a session id that is one plain path segment
 * once encoded: a non-empty string, not `.` or `..` (a URL reads them as the folder or its
 * parent: `DELETE /sessions/..` is `DELETE /`), without a lone surrogate.
 */
export function sessionIdSegment(id: unknown, what: string): string {
  if (typeof id !== "string" || id === "") throw new MsgError("invalid_argument", `${what} must be a non-empty string`);
  if (id === "." || id === "..") throw new MsgError("invalid_argument", `${what} must not be ${JSON.stringify(id)} (not a session's path segment)`);
  if (LONE_SURROGATE.test(id)) throw new MsgError("invalid_argument", `${what} has a lone surrogate`);
  return id;
}

/**
 * A call's options (`{signal?, ...}`): `{}` when absent; `invalid_argument` for options
 * that are not an object (null included) or a `signal` that is not an `AbortSignal`.
 */
export function optionsObject<T extends object>(options: T | undefined, what: string): T {
  if (options === undefined) return {} as T;
  if (typeof options !== "object" || options === null || Array.isArray(options)) throw new MsgError("invalid_argument", `${what}: options must be an object`);
  const signal = (options as { signal?: unknown }).signal;
  if (signal !== undefined && (typeof signal !== "object" || signal === null || typeof (signal as AbortSignal).aborted !== "boolean" || typeof (signal as AbortSignal).addEventListener !== "function")) {
    throw new MsgError("invalid_argument", `${what}: signal must be an AbortSignal`);
  }
  return options;
}

/** The error of a request whose `signal` was aborted: its reason if a `MsgError` (the chat's `closed`), else `aborted` with the reason as `cause`. */
export function abortedError(signal: AbortSignal): MsgError {
  const reason: unknown = signal.reason;
  return reason instanceof MsgError ? reason : new MsgError("aborted", "the request was aborted (its signal)", { cause: reason });
}
