import type { AgentEvent } from "./wasm/agentscope_message.js";
export type { AgentEvent };
/**
 * The `type` strings of the 28 events, as a value (`EventType.TEXT_BLOCK_DELTA`) and as
 * a type (`EventType` is the union of the strings), like AgentScope's `EventType`.
 */
export declare const EventType: {
    readonly REPLY_START: "REPLY_START";
    readonly REPLY_END: "REPLY_END";
    readonly MODEL_CALL_START: "MODEL_CALL_START";
    readonly MODEL_CALL_END: "MODEL_CALL_END";
    readonly TEXT_BLOCK_START: "TEXT_BLOCK_START";
    readonly TEXT_BLOCK_DELTA: "TEXT_BLOCK_DELTA";
    readonly TEXT_BLOCK_END: "TEXT_BLOCK_END";
    readonly DATA_BLOCK_START: "DATA_BLOCK_START";
    readonly DATA_BLOCK_DELTA: "DATA_BLOCK_DELTA";
    readonly DATA_BLOCK_END: "DATA_BLOCK_END";
    readonly THINKING_BLOCK_START: "THINKING_BLOCK_START";
    readonly THINKING_BLOCK_DELTA: "THINKING_BLOCK_DELTA";
    readonly THINKING_BLOCK_END: "THINKING_BLOCK_END";
    readonly HINT_BLOCK: "HINT_BLOCK";
    readonly TOOL_CALL_START: "TOOL_CALL_START";
    readonly TOOL_CALL_DELTA: "TOOL_CALL_DELTA";
    readonly TOOL_CALL_END: "TOOL_CALL_END";
    readonly TOOL_RESULT_START: "TOOL_RESULT_START";
    readonly TOOL_RESULT_TEXT_DELTA: "TOOL_RESULT_TEXT_DELTA";
    readonly TOOL_RESULT_DATA_DELTA: "TOOL_RESULT_DATA_DELTA";
    readonly TOOL_RESULT_END: "TOOL_RESULT_END";
    readonly EXCEED_MAX_ITERS: "EXCEED_MAX_ITERS";
    readonly REQUIRE_USER_CONFIRM: "REQUIRE_USER_CONFIRM";
    readonly REQUIRE_EXTERNAL_EXECUTION: "REQUIRE_EXTERNAL_EXECUTION";
    readonly USER_CONFIRM_RESULT: "USER_CONFIRM_RESULT";
    readonly USER_INTERRUPT: "USER_INTERRUPT";
    readonly EXTERNAL_EXECUTION_RESULT: "EXTERNAL_EXECUTION_RESULT";
    readonly CUSTOM: "CUSTOM";
};
/** One of the 28 event type strings. */
export type EventType = (typeof EventType)[keyof typeof EventType];
/** The event of a given `type`. */
export type EventOf<T extends EventType> = Extract<AgentEvent, {
    type: T;
}>;
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
/** `DATA_BLOCK_DELTA` */
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
