// The parsers of `@agentscope-ai/agentscope` (`agentscope-message/compat`): the schemas
// of its message and event modules (`TextBlockSchema` … `MsgSchema`, `AgentEventSchema`),
// `parseContentBlock`, `parseMsg`, `parseAgentEvent` and `createEvent`. The SDK builds them
// with zod; here each schema is an object with zod's `parse` / `safeParse`, and the
// validation and the defaults are the wasm core's (`Msg.fromJSON`, `parseEvent`), i.e. the
// Python reference's `Msg.model_validate` and `TypeAdapter(AgentEvent)` (agentscope 2.0.11).
import { MsgHandle, parseEvent as wasmParseEvent } from "./wasm/agentscope_message.js";
import { MsgError, call, toJSONText } from "./errors.js";
import type * as T from "./compat-types.js";
import { coreBlocks } from "./compat-blocks.js";

/** What `safeParse` returns: the value, or the `MsgError` that `parse` would throw. */
export type SafeParseResult<V> = { success: true; data: V; error?: undefined } | { success: false; data?: undefined; error: MsgError };

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
export function schema<V>(parse: (input: unknown) => V): Schema<V> {
  return Object.freeze({
    parse,
    safeParse(input: unknown): SafeParseResult<V> {
      try {
        return { success: true, data: parse(input) };
      } catch (error) {
        if (error instanceof MsgError) return { success: false, error };
        throw error;
      }
    },
  });
}

/** `input` as a plain object (not null, not a list), else `MsgError` `code`. */
export function objectOf(input: unknown, code: "invalid_content" | "invalid_msg" | "invalid_event" | "invalid_argument", what: string): Record<string, unknown> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new MsgError(code, `${what} must be an object, got ${input === null ? "null" : Array.isArray(input) ? "a list" : typeof input}`);
  }
  return input as Record<string, unknown>;
}

/** A block schema: the `type` tag checked, then the core's validation and defaults. */
function blockSchema<B>(types: readonly string[], what: string): Schema<B> {
  return schema((input) => {
    const block = objectOf(input, "invalid_content", what);
    if (!types.includes(block.type as string)) {
      throw new MsgError("invalid_content", `${what}: type must be ${types.map((t) => JSON.stringify(t)).join(" or ")}, got ${JSON.stringify(block.type)}`);
    }
    return coreBlocks([block])[0] as B;
  });
}

/** A data source, checked and normalised inside a data block. */
function sourceSchema<S>(types: readonly string[], what: string): Schema<S> {
  return schema((input) => {
    const source = objectOf(input, "invalid_content", what);
    if (!types.includes(source.type as string)) {
      throw new MsgError("invalid_content", `${what}: type must be ${types.map((t) => JSON.stringify(t)).join(" or ")}, got ${JSON.stringify(source.type)}`);
    }
    return (coreBlocks([{ type: "data", id: "-", created_at: "-", source }])[0] as T.DataBlock).source as S;
  });
}

/** A `text` block, defaults filled (`id`, `created_at`, `finished_at: null`). */
export const TextBlockSchema: Schema<T.TextBlock> = blockSchema(["text"], "a text block");
/** A `thinking` block, extra keys kept. */
export const ThinkingBlockSchema: Schema<T.ThinkingBlock> = blockSchema(["thinking"], "a thinking block");
/** A base64 source. */
export const Base64SourceSchema: Schema<T.Base64Source> = sourceSchema(["base64"], "a base64 source");
/** A URL source, the URL normalised (`MsgError` `invalid_url` for one that is not absolute). */
export const URLSourceSchema: Schema<T.URLSource> = sourceSchema(["url"], "a URL source");
/** A base64 or URL source. */
export const DataSourceSchema: Schema<T.Base64Source | T.URLSource> = sourceSchema(["base64", "url"], "a data source");
/** A `data` block. */
export const DataBlockSchema: Schema<T.DataBlock> = blockSchema(["data"], "a data block");
/** A `hint` block (`finished_at` now when absent, as in Python). */
export const HintBlockSchema: Schema<T.HintBlock> = blockSchema(["hint"], "a hint block");
/** A `tool_call` block (`id`, `name`, `input` required). */
export const ToolCallBlockSchema: Schema<T.ToolCallBlock> = blockSchema(["tool_call"], "a tool call block");
/** A `tool_result` block (`id`, `name`, `output` required). */
export const ToolResultBlockSchema: Schema<T.ToolResultBlock> = blockSchema(["tool_result"], "a tool result block");
/** Any of the six blocks, by its `type`. */
export const ContentBlockSchema: Schema<T.ContentBlock> = blockSchema(["text", "thinking", "hint", "tool_call", "tool_result", "data"], "a content block");

/** A usage: `input_tokens` and `output_tokens` required (integers), the cache counters 0 when absent. */
export const UsageSchema: Schema<T.Usage> = schema((input) => {
  const usage = objectOf(input, "invalid_msg", "a usage");
  return parseMsg({ name: "", role: "assistant", id: "-", created_at: "-", content: [], usage }).usage as T.Usage;
});

/**
 * A message, validated as `Msg.model_validate` validates it: `name`, `role` and a
 * `content` list required, the roles' block rules (`MsgError` `role_violation` with the
 * reference's text), `id` / `created_at` generated and the rest null or `{}` when absent,
 * every block filled in. The SDK's `MsgSchema` (which calls `createMsg`).
 */
export const MsgSchema: Schema<T.Msg> = schema((input) => parseMsg(input));

/**
 * One event, validated and filled as `TypeAdapter(AgentEvent).validate_python` does:
 * `id`, `created_at`, `metadata` and every defaulted field filled in, unknown keys
 * dropped. The SDK's `AgentEventSchema`.
 */
export const AgentEventSchema: Schema<T.AgentEvent> = schema((input) => parseAgentEvent(input));

/**
 * Parses an untrusted content block (an object, snake_case keys as on the wire) and fills
 * its defaults, as the SDK's `parseContentBlock` and Python's block models do. Throws
 * `MsgError` `invalid_content` (not an object, an unknown `type`, a missing or mistyped
 * field), `invalid_url`.
 */
export function parseContentBlock(input: unknown): T.ContentBlock {
  return ContentBlockSchema.parse(input);
}

/**
 * Parses an untrusted message (an object of wire JSON) as `Msg.model_validate` does
 * (see {@link MsgSchema}) and returns it as a plain object with every key. Throws
 * `MsgError` `invalid_msg` (not an object, a missing or mistyped field), `invalid_role`,
 * `invalid_content`, `role_violation`, `invalid_url`.
 */
export function parseMsg(input: unknown): T.Msg {
  const json = toJSONText(objectOf(input, "invalid_msg", "a message"), "a message");
  const handle = call(() => MsgHandle.fromJSON(json));
  try {
    return JSON.parse(handle.toJSONString()) as T.Msg;
  } finally {
    handle.free();
  }
}

/**
 * Parses an untrusted event (an object of wire JSON) as the reference's
 * `TypeAdapter(AgentEvent)` does and returns it with every field (see
 * {@link AgentEventSchema}). Throws `MsgError` `invalid_event` (not an object, an unknown
 * `type`, a missing or mistyped field, both or neither of `data` / `url`).
 */
export function parseAgentEvent(input: unknown): T.AgentEvent {
  const json = toJSONText(objectOf(input, "invalid_event", "an event"), "an event");
  return JSON.parse(call(() => wasmParseEvent(json))) as T.AgentEvent;
}

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
type DefaultedOf<E> = E extends { type: infer K } ? (K extends keyof Defaulted ? Defaulted[K] & keyof E : never) : never;

/** An event as {@link createEvent} takes it: `id`, `created_at`, `metadata` and each
 * field with a default in the reference may be left out. */
export type AgentEventInput = T.AgentEvent extends infer E
  ? E extends T.AgentEvent
    ? Omit<E, keyof T.EventBase | DefaultedOf<E>> & Partial<T.EventBase> & Partial<Pick<E, DefaultedOf<E>>>
    : never
  : never;

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
export function createEvent(input: AgentEventInput): T.AgentEvent {
  return parseAgentEvent(input);
}
