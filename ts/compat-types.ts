// The message and event types of `@agentscope-ai/agentscope` 0.0.15 as its apps use them
// (`agentscope-message/compat`): plain mutable interfaces, keys required or optional as in
// the reference, so that an app can assign them into its own mutable types and build
// block literals as it did; `ReadonlyMsg` and friends are the read-only view. The JSON
// these hold is the wire JSON of AgentScope 2.0 (snake_case keys), as elsewhere in the
// package.
import type * as Gen from "./wasm/agentscope_message.js";
import type { ErrorType, PermissionBehavior, PermissionMode, ReplyFinishedReason } from "./compat-enums.js";
import type { EventType } from "./event-type.js";

/** A JSON value. */
export type JSONSerializableObject =
  | string
  | number
  | boolean
  | null
  | JSONSerializableObject[]
  | { [key: string]: JSONSerializableObject };

/** `pending`, `asking`, `allowed`, `submitted` or `finished`. */
export type ToolCallState = Gen.ToolCallState;
/** `success`, `error`, `interrupted`, `denied` or `running`. */
export type ToolResultState = Gen.ToolResultState;

/** A permission rule a confirmation suggests or answers with. */
export interface PermissionRule {
  tool_name: string;
  rule_content: string | null;
  behavior: PermissionBehavior;
  source: string;
}

/** A directory added to the permission scope (`PermissionContext.working_directories`). */
export interface AdditionalWorkingDirectory {
  path: string;
  /** Where it was added (`session`, `userSettings`, …). */
  source: string;
}

/**
 * A session's permission state as the service sends it (`state.permission_context`, in
 * the session list and in `CUSTOM state_updated`): its mode, working directories and
 * rules by tool name (`@agentscope-ai/agentscope/permission`).
 */
export interface PermissionContext {
  mode: PermissionMode;
  working_directories: Record<string, AdditionalWorkingDirectory>;
  allow_rules: Record<string, PermissionRule[]>;
  deny_rules: Record<string, PermissionRule[]>;
  ask_rules: Record<string, PermissionRule[]>;
}

/** One task of a session's task list (`TaskCreate` / `TaskUpdate`; `@agentscope-ai/agentscope/state`). */
export interface Task {
  id: string;
  subject: string;
  description: string;
  metadata: Record<string, unknown>;
  created_at: string;
  state: "pending" | "in_progress" | "completed";
  owner: string | null;
  /** Ids of the tasks this one blocks. */
  blocks: string[];
  /** Ids of the tasks that block this one. */
  blocked_by: string[];
}

/** A session's task list as the service sends it (`state.tasks_context`). */
export interface TaskContext {
  tasks: Task[];
}

/** A `text` block. */
export interface TextBlock {
  type: "text";
  text: string;
  id: string;
  /** ISO-8601 creation time. */
  created_at: string;
  /** ISO-8601 end time (`null` while streaming). */
  finished_at?: string | null;
}

/** A `thinking` block; a provider's extra keys (a `signature`, …) are kept, as in the
 * reference (`extra="allow"`) and the SDK (its index signature). */
export interface ThinkingBlock {
  [key: string]: unknown;
  type: "thinking";
  thinking: string;
  id: string;
  created_at: string;
  finished_at?: string | null;
}

/** Base64 data (`data` without the `data:` prefix). */
export interface Base64Source {
  type: "base64";
  data: string;
  media_type: string;
}

/** Data behind a URL. */
export interface URLSource {
  type: "url";
  url: string;
  media_type: string;
}

/** A `data` block: an image, audio, a file. */
export interface DataBlock {
  type: "data";
  source: Base64Source | URLSource;
  id: string;
  /** A file name; `null` (the wire's value) when there is none. */
  name?: string | null;
  created_at: string;
  finished_at?: string | null;
}

/** A `hint` block: text (or text and data) given to the model as a user turn. */
export interface HintBlock {
  type: "hint";
  hint: string | (TextBlock | DataBlock)[];
  id: string;
  /** Who sent it (a team member's name, `system`), or `null`. */
  source?: string | null;
  created_at: string;
  finished_at?: string | null;
}

/** A `tool_call` block (`input` is the raw JSON text of the arguments, possibly partial). */
export interface ToolCallBlock {
  type: "tool_call";
  name: string;
  id: string;
  input: string;
  state: ToolCallState;
  suggested_rules?: PermissionRule[];
  created_at: string;
  finished_at?: string | null;
}

/** A `tool_result` block (`id` is the id of its call). */
export interface ToolResultBlock {
  type: "tool_result";
  id: string;
  name: string;
  output: string | (TextBlock | DataBlock)[];
  state: ToolResultState;
  metadata?: Record<string, unknown>;
  created_at: string;
  finished_at?: string | null;
}

/** A content block, tagged by `type`. */
export type ContentBlock = TextBlock | ThinkingBlock | HintBlock | ToolCallBlock | ToolResultBlock | DataBlock;
/** One of `text`, `thinking`, `hint`, `tool_call`, `tool_result`, `data`. */
export type ContentBlockType = ContentBlock["type"];
/** A block type or a list of them (the filter of `getContentBlocks` / `hasContentBlocks`). */
export type ContentBlockTypes = ContentBlockType | ContentBlockType[];

/** Token usage summed over a reply's model calls. */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_input_tokens: number;
  cache_creation_input_tokens: number;
}

/** The error a reply ended with (when `finished_reason` is `error`). */
export interface ErrorInfo {
  type: ErrorType;
  message: string;
}

/** A message as a plain object: wire JSON, every key present (`null` where empty). */
export interface Msg {
  id: string;
  name: string;
  role: "user" | "assistant" | "system";
  content: ContentBlock[];
  metadata: Record<string, JSONSerializableObject>;
  /** ISO-8601 creation time. */
  created_at: string;
  /** ISO-8601 end time; `null` until `REPLY_END` (user and system messages: `created_at`). */
  finished_at: string | null;
  /** Why the reply ended; `null` until `REPLY_END`. */
  finished_reason: ReplyFinishedReason | null;
  structured_output: Record<string, JSONSerializableObject> | null;
  /** Set when `finished_reason` is `error`. */
  error: ErrorInfo | null;
  usage: Usage | null;
}

/** A read-only view of a value and everything in it. */
export type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;
/**
 * A message, read-only all the way down: what `Chat` / `useChat` hand out
 * (`chat.messages`) is one, and a {@link Msg} is one. Its free-form maps (`metadata`,
 * `structured_output`) read as `unknown` values, as the chat types them.
 */
export type ReadonlyMsg = DeepReadonly<Omit<Msg, "metadata" | "structured_output">> & {
  readonly metadata: { readonly [key: string]: unknown };
  readonly structured_output: { readonly [key: string]: unknown } | null;
};
/** A content block, read-only all the way down. */
export type ReadonlyContentBlock = DeepReadonly<ContentBlock>;

/** What every event has: `id` and `created_at` (on the wire), `metadata` when sent. */
export interface EventBase {
  id: string;
  created_at: string;
  metadata?: Record<string, unknown>;
}

/** Where the reference's event shapes differ from the core's input types. */
interface Overrides {
  /** always on the wire */
  REPLY_END: { finished_reason: ReplyFinishedReason };
  /** a string, as in the reference (an AgentScope 2.0 delta may carry a `url` instead,
   * and then has no `data`) */
  DATA_BLOCK_DELTA: { data: string };
  USER_CONFIRM_RESULT: { confirm_results: ConfirmResult[] };
  CUSTOM: { value: Record<string, unknown> };
}
type Override<T extends EventType> = T extends keyof Overrides ? Overrides[T] : unknown;

/** The event of type `T` as a plain object (the core's shape, with the reference's base
 * and {@link Overrides}). */
type EventOf<T extends EventType> = Omit<Extract<Gen.AgentEvent, { type: T }>, "id" | "created_at" | "metadata" | keyof Override<T>> &
  EventBase &
  Override<T>;

/** One answer of `USER_CONFIRM_RESULT`. */
export interface ConfirmResult {
  confirmed: boolean;
  tool_call: ToolCallBlock | Gen.ToolCallBlock;
  rules?: PermissionRule[] | null;
}

/** `REPLY_START` */
export type ReplyStartEvent = EventOf<"REPLY_START">;
/** `REPLY_END` */
export type ReplyEndEvent = EventOf<"REPLY_END">;
/** `MODEL_CALL_START` */
export type ModelCallStartEvent = EventOf<"MODEL_CALL_START">;
/** `MODEL_CALL_END` */
export type ModelCallEndEvent = EventOf<"MODEL_CALL_END">;
/** `TEXT_BLOCK_START` */
export type TextBlockStartEvent = EventOf<"TEXT_BLOCK_START">;
/** `TEXT_BLOCK_DELTA` */
export type TextBlockDeltaEvent = EventOf<"TEXT_BLOCK_DELTA">;
/** `TEXT_BLOCK_END` */
export type TextBlockEndEvent = EventOf<"TEXT_BLOCK_END">;
/** `DATA_BLOCK_START` */
export type DataBlockStartEvent = EventOf<"DATA_BLOCK_START">;
/** `DATA_BLOCK_DELTA` (`data` a string, as the reference types it) */
export type DataBlockDeltaEvent = EventOf<"DATA_BLOCK_DELTA">;
/** `DATA_BLOCK_END` */
export type DataBlockEndEvent = EventOf<"DATA_BLOCK_END">;
/** `THINKING_BLOCK_START` */
export type ThinkingBlockStartEvent = EventOf<"THINKING_BLOCK_START">;
/** `THINKING_BLOCK_DELTA` */
export type ThinkingBlockDeltaEvent = EventOf<"THINKING_BLOCK_DELTA">;
/** `THINKING_BLOCK_END` */
export type ThinkingBlockEndEvent = EventOf<"THINKING_BLOCK_END">;
/** `HINT_BLOCK` */
export type HintBlockEvent = EventOf<"HINT_BLOCK">;
/** `TOOL_CALL_START` */
export type ToolCallStartEvent = EventOf<"TOOL_CALL_START">;
/** `TOOL_CALL_DELTA` */
export type ToolCallDeltaEvent = EventOf<"TOOL_CALL_DELTA">;
/** `TOOL_CALL_END` */
export type ToolCallEndEvent = EventOf<"TOOL_CALL_END">;
/** `TOOL_RESULT_START` */
export type ToolResultStartEvent = EventOf<"TOOL_RESULT_START">;
/** `TOOL_RESULT_TEXT_DELTA` */
export type ToolResultTextDeltaEvent = EventOf<"TOOL_RESULT_TEXT_DELTA">;
/** `TOOL_RESULT_DATA_DELTA` */
export type ToolResultDataDeltaEvent = EventOf<"TOOL_RESULT_DATA_DELTA">;
/** `TOOL_RESULT_END` */
export type ToolResultEndEvent = EventOf<"TOOL_RESULT_END">;
/** `EXCEED_MAX_ITERS` */
export type ExceedMaxItersEvent = EventOf<"EXCEED_MAX_ITERS">;
/** `REQUIRE_USER_CONFIRM` */
export type RequireUserConfirmEvent = EventOf<"REQUIRE_USER_CONFIRM">;
/** `REQUIRE_EXTERNAL_EXECUTION` */
export type RequireExternalExecutionEvent = EventOf<"REQUIRE_EXTERNAL_EXECUTION">;
/** `USER_CONFIRM_RESULT` */
export type UserConfirmResultEvent = EventOf<"USER_CONFIRM_RESULT">;
/** `USER_INTERRUPT` */
export type UserInterruptEvent = EventOf<"USER_INTERRUPT">;
/** `EXTERNAL_EXECUTION_RESULT` */
export type ExternalExecutionResultEvent = EventOf<"EXTERNAL_EXECUTION_RESULT">;
/** `CUSTOM` */
export type CustomEvent = EventOf<"CUSTOM">;

/** One of the 28 events, tagged by `type`. */
export type AgentEvent = { [T in EventType]: EventOf<T> }[EventType];

/** What `appendEvent` takes: an event as above, one as the core's input types allow
 * (defaulted keys left out), or its wire JSON text. */
export type EventInput = AgentEvent | Gen.AgentEvent | string;
