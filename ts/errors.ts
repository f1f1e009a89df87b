/**
 * The stable codes of {@link MsgError}, as the Rust core defines them, plus `freed` (a
 * message used after `free()`) and `invalid_argument` (a JS argument of the wrong type).
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
  | "freed"
  | "invalid_argument";

/**
 * Every error this package throws: bad messages, bad events, events the reducer rejects.
 * `code` is stable; `message` carries the reference's text where it has one (e.g.
 * "User message can only contain text blocks or data blocks."). A rejected event leaves
 * the message exactly as it was.
 */
export class MsgError extends Error {
  /** The stable error code. */
  readonly code: MsgErrorCode;

  constructor(code: MsgErrorCode, message: string) {
    super(message);
    this.name = "MsgError";
    this.code = code;
  }
}

/** Runs `f`, turning an error thrown by the wasm core into a {@link MsgError}. */
export function call<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof Error && e.name === "MsgError" && !(e instanceof MsgError)) {
      throw new MsgError((e as Error & { code: MsgErrorCode }).code, e.message);
    }
    throw e;
  }
}

/** Throws `invalid_argument` unless `value` is a string. */
export function expectString(value: unknown, what: string): string {
  if (typeof value !== "string") throw new MsgError("invalid_argument", `${what} must be a string, got ${typeof value}`);
  return value;
}
