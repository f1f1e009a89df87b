import { MsgError } from "./errors.js";
import type * as T from "./compat-types.js";
/** What `safeParse` returns: the value, or the `MsgError` that `parse` would throw. */
export type SafeParseResult<V> = {
    success: true;
    data: V;
    error?: undefined;
} | {
    success: false;
    data?: undefined;
    error: MsgError;
};
/**
 * A run-time schema as the SDK's zod schemas are called: `parse(input)` returns the
 * validated value with its defaults filled in, or throws `MsgError`; `safeParse(input)`
 * returns `{success, data}` or `{success: false, error}` instead of throwing.
 */
export interface Schema<V> {
    parse(input: unknown): V;
    safeParse(input: unknown): SafeParseResult<V>;
}
/** A schema over a parse function (errors other than `MsgError` are not caught). */
export declare function schema<V>(parse: (input: unknown) => V): Schema<V>;
/** `input` as a plain object (not null, not a list), else `MsgError` `code`. */
export declare function objectOf(input: unknown, code: "invalid_content" | "invalid_msg" | "invalid_event" | "invalid_argument", what: string): Record<string, unknown>;
/** A `text` block, defaults filled (`id`, `created_at`, `finished_at: null`). */
export declare const TextBlockSchema: Schema<T.TextBlock>;
/** A `thinking` block, extra keys kept. */
export declare const ThinkingBlockSchema: Schema<T.ThinkingBlock>;
/** A base64 source. */
export declare const Base64SourceSchema: Schema<T.Base64Source>;
/** A URL source, the URL normalised (`MsgError` `invalid_url` for one that is not absolute). */
export declare const URLSourceSchema: Schema<T.URLSource>;
/** A base64 or URL source. */
export declare const DataSourceSchema: Schema<T.Base64Source | T.URLSource>;
/** A `data` block. */
export declare const DataBlockSchema: Schema<T.DataBlock>;
/** A `hint` block (`finished_at` now when absent, as in Python). */
export declare const HintBlockSchema: Schema<T.HintBlock>;
/** A `tool_call` block (`id`, `name`, `input` required). */
export declare const ToolCallBlockSchema: Schema<T.ToolCallBlock>;
/** A `tool_result` block (`id`, `name`, `output` required). */
export declare const ToolResultBlockSchema: Schema<T.ToolResultBlock>;
/** Any of the six blocks, by its `type`. */
export declare const ContentBlockSchema: Schema<T.ContentBlock>;
/** A usage: `input_tokens` and `output_tokens` required (integers), the cache counters 0 when absent. */
export declare const UsageSchema: Schema<T.Usage>;
/**
 * A message, validated as `Msg.model_validate` validates it: `name`, `role` and a
 * `content` list required, the roles' block rules (`MsgError` `role_violation` with the
 * reference's text), `id` / `created_at` generated and the rest null or `{}` when absent,
 * every block filled in. The SDK's `MsgSchema` (which calls `createMsg`).
 */
export declare const MsgSchema: Schema<T.Msg>;
/**
 * One event, validated and filled as `TypeAdapter(AgentEvent).validate_python` does:
 * `id`, `created_at`, `metadata` and every defaulted field filled in, unknown keys
 * dropped. The SDK's `AgentEventSchema`.
 */
export declare const AgentEventSchema: Schema<T.AgentEvent>;
/**
 * Parses an untrusted content block (an object, snake_case keys as on the wire) and fills
 * its defaults, as the SDK's `parseContentBlock` and Python's block models do. Throws
 * `MsgError` `invalid_content` (not an object, an unknown `type`, a missing or mistyped
 * field), `invalid_url`.
 */
export declare function parseContentBlock(input: unknown): T.ContentBlock;
/**
 * Parses an untrusted message (an object of wire JSON) as `Msg.model_validate` does
 * (see {@link MsgSchema}) and returns it as a plain object with every key. Throws
 * `MsgError` `invalid_msg` (not an object, a missing or mistyped field), `invalid_role`,
 * `invalid_content`, `role_violation`, `invalid_url`.
 */
export declare function parseMsg(input: unknown): T.Msg;
/**
 * Parses an untrusted event (an object of wire JSON) as the reference's
 * `TypeAdapter(AgentEvent)` does and returns it with every field (see
 * {@link AgentEventSchema}). Throws `MsgError` `invalid_event` (not an object, an unknown
 * `type`, a missing or mistyped field, both or neither of `data` / `url`).
 */
export declare function parseAgentEvent(input: unknown): T.AgentEvent;
/** The fields of each event that the reference gives a default (§3 of its spec). */
interface Defaulted {
    REPLY_START: "role";
    REPLY_END: "finished_reason" | "error";
    MODEL_CALL_END: "cache_input_tokens" | "cache_creation_input_tokens" | "finished_reason";
    TEXT_BLOCK_END: "text";
    DATA_BLOCK_START: "name";
    DATA_BLOCK_DELTA: "data" | "url";
    HINT_BLOCK: "source";
    TOOL_RESULT_DATA_DELTA: "block_id" | "data" | "url";
    CUSTOM: "value";
}
type DefaultedOf<E> = E extends {
    type: infer K;
} ? (K extends keyof Defaulted ? Defaulted[K] & keyof E : never) : never;
/** An event as {@link createEvent} takes it: `id`, `created_at`, `metadata` and each
 * field with a default in the reference may be left out. */
export type AgentEventInput = T.AgentEvent extends infer E ? E extends T.AgentEvent ? Omit<E, keyof T.EventBase | DefaultedOf<E>> & Partial<T.EventBase> & Partial<Pick<E, DefaultedOf<E>>> : never : never;
/**
 * A complete event from its fields, as the SDK's `createEvent` and Python's event
 * constructors make it: `id` (the id factory), `created_at` (the timestamp factory) and
 * `metadata` (`{}`) when left out, and each field's default (`role: "assistant"`,
 * `finished_reason: "completed"`, `error: null`, the cache counters 0, a generated
 * `block_id` and the absent one of `data` / `url` null for `TOOL_RESULT_DATA_DELTA`,
 * `value: {}` for `CUSTOM`, …). The event is validated as Python validates it (the SDK
 * checks only `data` / `url`): `MsgError` `invalid_event`, e.g. "Exactly one of `data`
 * or `url` must be provided.". Unknown keys are dropped, as in Python.
 */
export declare function createEvent(input: AgentEventInput): T.AgentEvent;
export {};
