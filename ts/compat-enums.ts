// The enums of `@agentscope-ai/agentscope` as run-time values (`agentscope-message/compat`):
// each a frozen object of its string values plus the type of those strings, so that
// `msg.finished_reason === ReplyFinishedReason.ERROR` works as with the reference's TS
// enums. Imports nothing at run time (the .wasm is not needed for them).
import type * as Gen from "./wasm/agentscope_message.js";
import type { PermissionMode as SessionPermissionMode } from "./sessions.js";

export { EventType } from "./event-type.js";

/** `true` when the two string unions are the same (checked below for every enum). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;

/** Why a reply ended (`REPLY_END.finished_reason`, `Msg.finished_reason`). */
export const ReplyFinishedReason = Object.freeze({
  COMPLETED: "completed",
  INTERRUPTED: "interrupted",
  EXCEED_MAX_ITERS: "exceed_max_iters",
  ERROR: "error",
} as const);
/** One of `completed`, `interrupted`, `exceed_max_iters`, `error`. */
export type ReplyFinishedReason = (typeof ReplyFinishedReason)[keyof typeof ReplyFinishedReason];

/** @deprecated The reference's older name; use {@link ReplyFinishedReason}. */
export const ReplyEndReason = Object.freeze({
  COMPLETED: "completed",
  INTERRUPTED: "interrupted",
  EXCEED_MAX_ITERS: "exceed_max_iters",
} as const);
/** @deprecated Use {@link ReplyFinishedReason}. */
export type ReplyEndReason = (typeof ReplyEndReason)[keyof typeof ReplyEndReason];

/** The kind of error a reply ended with (`ErrorInfo.type`). */
export const ErrorType = Object.freeze({
  AUTHENTICATION: "authentication",
  PERMISSION: "permission",
  RATE_LIMIT: "rate_limit",
  INVALID_REQUEST: "invalid_request",
  UPSTREAM: "upstream",
  CONNECTION: "connection",
  INTERNAL: "internal",
  SETUP: "setup",
  UNKNOWN: "unknown",
} as const);
/** One of the `ErrorType` strings. */
export type ErrorType = (typeof ErrorType)[keyof typeof ErrorType];

/** Why one model call ended (`MODEL_CALL_END.finished_reason`). */
export const FinishedReason = Object.freeze({
  COMPLETED: "completed",
  INTERRUPTED: "interrupted",
} as const);
/** `completed` or `interrupted`. */
export type FinishedReason = (typeof FinishedReason)[keyof typeof FinishedReason];

/** What a permission rule does (`PermissionRule.behavior`). */
export const PermissionBehavior = Object.freeze({
  ALLOW: "allow",
  DENY: "deny",
  ASK: "ask",
  PASSTHROUGH: "passthrough",
} as const);
/** One of `allow`, `deny`, `ask`, `passthrough`. */
export type PermissionBehavior = (typeof PermissionBehavior)[keyof typeof PermissionBehavior];

/** Why a generation stopped to wait (the SDK's `GenerateReason` of its message module;
 * not a field of AgentScope 2.0's wire JSON). */
export const GenerateReason = Object.freeze({
  AWAITING_TOOL_RESULT: "AWAITING_TOOL_RESULT",
  AWAITING_USER_CONFIRMATION: "AWAITING_USER_CONFIRMATION",
} as const);
/** `AWAITING_TOOL_RESULT` or `AWAITING_USER_CONFIRMATION`. */
export type GenerateReason = (typeof GenerateReason)[keyof typeof GenerateReason];

/** A session's permission mode (`PermissionContext.mode`; `@agentscope-ai/agentscope/permission`). */
export const PermissionMode = Object.freeze({
  DEFAULT: "default",
  ACCEPT_EDITS: "accept_edits",
  EXPLORE: "explore",
  BYPASS: "bypass",
  DONT_ASK: "dont_ask",
} as const);
/** One of `default`, `accept_edits`, `explore`, `bypass`, `dont_ask`. */
export type PermissionMode = (typeof PermissionMode)[keyof typeof PermissionMode];

// every enum names each string of the core's union, and no other
type _Checked = [
  Assert<Same<ReplyFinishedReason, Gen.ReplyFinishedReason>>,
  Assert<Same<ErrorType, Gen.ErrorType>>,
  Assert<Same<FinishedReason, Gen.FinishedReason>>,
  Assert<Same<PermissionBehavior, Gen.PermissionBehavior>>,
  Assert<Same<PermissionMode, SessionPermissionMode>>,
];
