// `agentscope-message/compat`: the functional API of `@agentscope-ai/agentscope` 0.0.15
// as its apps call it, on plain objects: the factories `createMsg`, `UserMsg`,
// `AssistantMsg`, `SystemMsg` (plain functions returning plain objects), the queries,
// `appendEvent` in place and `appendEventImmutable`, the enums as run-time values and
// the reference's types. The reducer and the validation are the wasm core's.
export * from "./compat-msg.js";
export * from "./compat-enums.js";
export type * from "./compat-types.js";
export {
  appendEvent,
  appendEventImmutable,
  foldStats,
  resetFoldStats,
  setAppendEventOptions,
  type AppendEventOptions,
  type FoldStats,
} from "./compat-fold.js";
export { setIdFactory, setTimestampFactory } from "./message.js";
export { MsgError, type MsgErrorCode } from "./errors.js";
// the rest of the SDK's message, event, permission and state modules
export {
  TextBlock,
  ThinkingBlock,
  Base64Source,
  URLSource,
  DataBlock,
  HintBlock,
  ToolCallBlock,
  ToolResultBlock,
  type TextBlockInput,
  type ThinkingBlockInput,
  type DataBlockInput,
  type HintBlockInput,
  type ToolCallBlockInput,
  type ToolResultBlockInput,
  type TextOrDataInput,
} from "./compat-blocks.js";
export {
  TextBlockSchema,
  ThinkingBlockSchema,
  Base64SourceSchema,
  URLSourceSchema,
  DataSourceSchema,
  DataBlockSchema,
  HintBlockSchema,
  ToolCallBlockSchema,
  ToolResultBlockSchema,
  ContentBlockSchema,
  UsageSchema,
  MsgSchema,
  AgentEventSchema,
  parseContentBlock,
  parseMsg,
  parseAgentEvent,
  createEvent,
  type AgentEventInput,
  type Schema,
  type SafeParseResult,
} from "./compat-parse.js";
export {
  createPermissionDecision,
  PermissionEngine,
  PermissionRuleSchema,
  AdditionalWorkingDirectorySchema,
  PermissionContextSchema,
  PermissionDecisionSchema,
  parsePermissionRule,
  parsePermissionContext,
  parsePermissionDecision,
  type PermissionDecision,
  type CreatePermissionDecisionOptions,
  type MaybePromise,
  type PermissionTool,
} from "./compat-permission.js";
export {
  createTask,
  TaskSchema,
  parseTask,
  ToolContext,
  ReplyContext,
  TaskContext,
  AgentState,
  AgentStateSchema,
  parseAgentState,
  type TaskState,
  type CreateTaskOptions,
  type ReadCacheEntry,
  type ToolContextWire,
  type ToolContextOptions,
  type JSONSchema,
  type StructuredSchema,
  type ReplyContextWire,
  type TaskContextWire,
  type StateSummary,
  type AgentStateWire,
  type AgentStateOptions,
} from "./compat-state.js";

