import type { ContentBlock, ContentBlockType, DataBlock, ErrorInfo, HintBlock, JSONSerializableObject, Msg, PermissionContext, TextBlock, ThinkingBlock, ToolCallBlock, ToolResultBlock, Usage } from "./compat-types.js";
import { PermissionMode, type ReplyFinishedReason } from "./compat-enums.js";
/** A block as the factories take it: `id` and `created_at` may be left out (generated). */
export type ContentBlockInput = ContentBlock extends infer B ? B extends ContentBlock ? Omit<B, "id" | "created_at"> & Partial<Pick<B, "id" | "created_at">> : never : never;
/** A usage as the factories take it: the cache counters default to 0. */
export type UsageInput = Pick<Usage, "input_tokens" | "output_tokens"> & Partial<Usage>;
/** The options of `UserMsg` / `SystemMsg`. */
export interface MsgOptions {
    /** Speaker name. */
    name: string;
    /** A string (one new text block) or blocks. */
    content: string | (ContentBlock | ContentBlockInput)[];
    /** `{}` when absent. */
    metadata?: Record<string, JSONSerializableObject> | null;
    /** Generated (32 hex characters, the id factory) when absent, null or empty. */
    id?: string | null;
    /** Now (the timestamp factory) when absent, null or empty. */
    created_at?: string | null;
    /** User and system messages: `created_at` when absent. */
    finished_at?: string | null;
    finished_reason?: ReplyFinishedReason | null;
}
/** The options of `AssistantMsg`: also usage and structured output. */
export interface AssistantMsgOptions extends MsgOptions {
    usage?: UsageInput | null;
    structured_output?: Record<string, JSONSerializableObject> | null;
}
/** The options of `createMsg`: a role, and every field (no role defaults). */
export interface CreateMsgOptions extends AssistantMsgOptions {
    role: Msg["role"];
    error?: ErrorInfo | null;
}
/**
 * A `user` message as a plain object: a string content becomes one text block; only text
 * and data blocks are allowed (`MsgError` `role_violation`); `finished_at` defaults to
 * `created_at`.
 */
export declare function UserMsg(options: MsgOptions): Msg;
/** An `assistant` message as a plain object (any blocks); `finished_at` stays null. */
export declare function AssistantMsg(options: AssistantMsgOptions): Msg;
/** A `system` message as a plain object: only text blocks; `finished_at` defaults to `created_at`. */
export declare function SystemMsg(options: MsgOptions): Msg;
/**
 * A message of any role as a plain object, with the reference's defaults (`id`,
 * `created_at` generated, `metadata` `{}`, the rest null: no role default for
 * `finished_at`). Throws `MsgError` (`role_violation`, `invalid_role`,
 * `invalid_content`, `invalid_msg`, `invalid_url`).
 */
export declare function createMsg(options: CreateMsgOptions): Msg;
/** A message as the queries need it. */
type WithContent = {
    readonly content: readonly unknown[];
};
/**
 * The texts of the `text` blocks joined with `separator` (default `"\n"`); `null` when
 * there is none. Thinking, hints and tool outputs are not included.
 */
export declare function getTextContent(msg: WithContent, separator?: string): string | null;
/** The blocks of a type, or of any of several (the `content` list itself when omitted or null,
 * as in the reference). */
export declare function getContentBlocks<M extends WithContent>(msg: M): M["content"][number][];
export declare function getContentBlocks(msg: WithContent, type: "text"): TextBlock[];
export declare function getContentBlocks(msg: WithContent, type: "thinking"): ThinkingBlock[];
export declare function getContentBlocks(msg: WithContent, type: "hint"): HintBlock[];
export declare function getContentBlocks(msg: WithContent, type: "data"): DataBlock[];
export declare function getContentBlocks(msg: WithContent, type: "tool_call"): ToolCallBlock[];
export declare function getContentBlocks(msg: WithContent, type: "tool_result"): ToolResultBlock[];
export declare function getContentBlocks(msg: WithContent, type?: ContentBlockType | readonly ContentBlockType[] | null): ContentBlock[];
/** Whether the message has a block of the type (or of any of several; any block when omitted). */
export declare function hasContentBlocks(msg: WithContent, type?: ContentBlockType | readonly ContentBlockType[] | null): boolean;
/**
 * An empty permission context (no working directories, no rules), as
 * `createPermissionContext(mode?)` of `@agentscope-ai/agentscope/permission`; `mode`
 * defaults to `default`. Throws `MsgError` `invalid_argument` for another mode.
 */
export declare function createPermissionContext(mode?: PermissionMode): PermissionContext;
export {};
