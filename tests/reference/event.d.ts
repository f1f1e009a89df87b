import type { AgentEvent } from "./wasm/agentscope_message.js";
import type { Wire } from "./message.js";
import type { EventOf } from "./event-type.js";
export * from "./event-type.js";
/**
 * An event as {@link parseEvent} returns it: every declared key present (`id`,
 * `created_at`, `metadata` and the defaulted fields filled in), read-only.
 */
export type ParsedEvent = Wire<AgentEvent>;
/**
 * Parses and validates an event (wire JSON text or object) like the reference's
 * `TypeAdapter(AgentEvent)`, filling `id`, `created_at`, `metadata` and defaulted fields.
 * Throws `MsgError` (`invalid_json`, `invalid_event`; the message names the field).
 */
export declare function parseEvent<T extends AgentEvent>(event: T): Wire<EventOf<T["type"]>>;
export declare function parseEvent(event: AgentEvent | string): ParsedEvent;
