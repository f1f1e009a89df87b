export { EventType } from "./event-type.js";
/** Why a reply ended (`REPLY_END.finished_reason`, `Msg.finished_reason`). */
export declare const ReplyFinishedReason: Readonly<{
    readonly COMPLETED: "completed";
    readonly INTERRUPTED: "interrupted";
    readonly EXCEED_MAX_ITERS: "exceed_max_iters";
    readonly ERROR: "error";
}>;
/** One of `completed`, `interrupted`, `exceed_max_iters`, `error`. */
export type ReplyFinishedReason = (typeof ReplyFinishedReason)[keyof typeof ReplyFinishedReason];
/** @deprecated The reference's older name; use {@link ReplyFinishedReason}. */
export declare const ReplyEndReason: Readonly<{
    readonly COMPLETED: "completed";
    readonly INTERRUPTED: "interrupted";
    readonly EXCEED_MAX_ITERS: "exceed_max_iters";
}>;
/** @deprecated Use {@link ReplyFinishedReason}. */
export type ReplyEndReason = (typeof ReplyEndReason)[keyof typeof ReplyEndReason];
/** The kind of error a reply ended with (`ErrorInfo.type`). */
export declare const ErrorType: Readonly<{
    readonly AUTHENTICATION: "authentication";
    readonly PERMISSION: "permission";
    readonly RATE_LIMIT: "rate_limit";
    readonly INVALID_REQUEST: "invalid_request";
    readonly UPSTREAM: "upstream";
    readonly CONNECTION: "connection";
    readonly INTERNAL: "internal";
    readonly SETUP: "setup";
    readonly UNKNOWN: "unknown";
}>;
/** One of the `ErrorType` strings. */
export type ErrorType = (typeof ErrorType)[keyof typeof ErrorType];
/** Why one model call ended (`MODEL_CALL_END.finished_reason`). */
export declare const FinishedReason: Readonly<{
    readonly COMPLETED: "completed";
    readonly INTERRUPTED: "interrupted";
}>;
/** `completed` or `interrupted`. */
export type FinishedReason = (typeof FinishedReason)[keyof typeof FinishedReason];
/** What a permission rule does (`PermissionRule.behavior`). */
export declare const PermissionBehavior: Readonly<{
    readonly ALLOW: "allow";
    readonly DENY: "deny";
    readonly ASK: "ask";
    readonly PASSTHROUGH: "passthrough";
}>;
/** One of `allow`, `deny`, `ask`, `passthrough`. */
export type PermissionBehavior = (typeof PermissionBehavior)[keyof typeof PermissionBehavior];
/** Why a generation stopped to wait (the SDK's `GenerateReason` of its message module;
 * not a field of AgentScope 2.0's wire JSON). */
export declare const GenerateReason: Readonly<{
    readonly AWAITING_TOOL_RESULT: "AWAITING_TOOL_RESULT";
    readonly AWAITING_USER_CONFIRMATION: "AWAITING_USER_CONFIRMATION";
}>;
/** `AWAITING_TOOL_RESULT` or `AWAITING_USER_CONFIRMATION`. */
export type GenerateReason = (typeof GenerateReason)[keyof typeof GenerateReason];
/** A session's permission mode (`PermissionContext.mode`; `@agentscope-ai/agentscope/permission`). */
export declare const PermissionMode: Readonly<{
    readonly DEFAULT: "default";
    readonly ACCEPT_EDITS: "accept_edits";
    readonly EXPLORE: "explore";
    readonly BYPASS: "bypass";
    readonly DONT_ASK: "dont_ask";
}>;
/** One of `default`, `accept_edits`, `explore`, `bypass`, `dont_ask`. */
export type PermissionMode = (typeof PermissionMode)[keyof typeof PermissionMode];
