// The factories, queries and `createPermissionContext` of `agentscope-message/compat`
// (`@agentscope-ai/agentscope`'s `createMsg`, `UserMsg`, `AssistantMsg`, `SystemMsg`,
// `getTextContent`, `getContentBlocks`, `hasContentBlocks`), on plain objects; re-exported
// by compat.ts.
import { MsgHandle } from "./wasm/agentscope_message.js";
import { MsgError, call, expectString, toJSONText } from "./errors.js";
import type {
  ContentBlock,
  ContentBlockType,
  DataBlock,
  ErrorInfo,
  HintBlock,
  JSONSerializableObject,
  Msg,
  PermissionContext,
  TextBlock,
  ThinkingBlock,
  ToolCallBlock,
  ToolResultBlock,
  Usage,
} from "./compat-types.js";
import { PermissionMode, type ReplyFinishedReason } from "./compat-enums.js";


/** A block as the factories take it: `id` and `created_at` may be left out (generated). */
export type ContentBlockInput = ContentBlock extends infer B
  ? B extends ContentBlock
    ? Omit<B, "id" | "created_at"> & Partial<Pick<B, "id" | "created_at">>
    : never
  : never;

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

/** The plain object of a new message, validated and filled in by the core. */
function plain(handle: MsgHandle): Msg {
  try {
    return JSON.parse(handle.toJSONString()) as Msg;
  } finally {
    handle.free();
  }
}

/** The options without the keys the reference fills when null or empty. */
function fields(options: object): Record<string, unknown> {
  if (typeof options !== "object" || options === null) {
    throw new MsgError("invalid_argument", "the factories take one options object: { name, content, ... }");
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined) continue;
    if ((key === "id" || key === "created_at" || key === "metadata") && (value === null || value === "")) continue;
    out[key] = value;
  }
  return out;
}

function make(role: "user" | "assistant" | "system", options: MsgOptions): Msg {
  const { name, content, ...rest } = fields(options);
  const contentJSON = typeof content === "string" ? JSON.stringify(content) : toJSONText(content, "content");
  return plain(call(() => MsgHandle.create(role, expectString(name, "name"), contentJSON, toJSONText(rest, "the options"))));
}

/**
 * A `user` message as a plain object: a string content becomes one text block; only text
 * and data blocks are allowed (`MsgError` `role_violation`); `finished_at` defaults to
 * `created_at`.
 */
export function UserMsg(options: MsgOptions): Msg {
  return make("user", options);
}

/** An `assistant` message as a plain object (any blocks); `finished_at` stays null. */
export function AssistantMsg(options: AssistantMsgOptions): Msg {
  return make("assistant", options);
}

/** A `system` message as a plain object: only text blocks; `finished_at` defaults to `created_at`. */
export function SystemMsg(options: MsgOptions): Msg {
  return make("system", options);
}

/**
 * A message of any role as a plain object, with the reference's defaults (`id`,
 * `created_at` generated, `metadata` `{}`, the rest null: no role default for
 * `finished_at`). Throws `MsgError` (`role_violation`, `invalid_role`,
 * `invalid_content`, `invalid_msg`, `invalid_url`).
 */
export function createMsg(options: CreateMsgOptions): Msg {
  const { content, ...rest } = fields(options);
  const blocks = typeof content === "string" ? [{ type: "text", text: content }] : content;
  return plain(call(() => MsgHandle.fromJSON(toJSONText({ ...rest, content: blocks }, "a message"))));
}

/** A message as the queries need it. */
type WithContent = { readonly content: readonly unknown[] };

/**
 * The texts of the `text` blocks joined with `separator` (default `"\n"`); `null` when
 * there is none. Thinking, hints and tool outputs are not included.
 */
export function getTextContent(msg: WithContent, separator = "\n"): string | null {
  const texts = blocksOf(msg, ["text"]).map((b) => (b as TextBlock).text);
  return texts.length === 0 ? null : texts.join(expectString(separator, "separator"));
}

/** The blocks of a type, or of any of several (the `content` list itself when omitted or null,
 * as in the reference). */
export function getContentBlocks<M extends WithContent>(msg: M): M["content"][number][];
export function getContentBlocks(msg: WithContent, type: "text"): TextBlock[];
export function getContentBlocks(msg: WithContent, type: "thinking"): ThinkingBlock[];
export function getContentBlocks(msg: WithContent, type: "hint"): HintBlock[];
export function getContentBlocks(msg: WithContent, type: "data"): DataBlock[];
export function getContentBlocks(msg: WithContent, type: "tool_call"): ToolCallBlock[];
export function getContentBlocks(msg: WithContent, type: "tool_result"): ToolResultBlock[];
export function getContentBlocks(msg: WithContent, type?: ContentBlockType | readonly ContentBlockType[] | null): ContentBlock[];
export function getContentBlocks(msg: WithContent, type?: ContentBlockType | readonly ContentBlockType[] | null): unknown[] {
  return blocksOf(msg, type);
}

/** Whether the message has a block of the type (or of any of several; any block when omitted). */
export function hasContentBlocks(msg: WithContent, type?: ContentBlockType | readonly ContentBlockType[] | null): boolean {
  return blocksOf(msg, type).length > 0;
}

function blocksOf(msg: WithContent, type: unknown): unknown[] {
  if (typeof msg !== "object" || msg === null || !Array.isArray(msg.content)) {
    throw new MsgError("invalid_argument", "a message object with a content list is needed");
  }
  if (type === undefined || type === null) return msg.content as unknown[];
  const types = typeof type === "string" ? [type] : type;
  if (!Array.isArray(types) || !types.every((t) => typeof t === "string")) {
    throw new MsgError("invalid_argument", "a block type filter must be a type string or a list of them");
  }
  return msg.content.filter((b) => types.includes((b as { type?: unknown } | null)?.type as string));
}

/**
 * An empty permission context (no working directories, no rules), as
 * `createPermissionContext(mode?)` of `@agentscope-ai/agentscope/permission`; `mode`
 * defaults to `default`. Throws `MsgError` `invalid_argument` for another mode.
 */
export function createPermissionContext(mode: PermissionMode = PermissionMode.DEFAULT): PermissionContext {
  if (!(Object.values(PermissionMode) as unknown[]).includes(mode)) {
    throw new MsgError("invalid_argument", `createPermissionContext: mode must be one of ${Object.values(PermissionMode).join(", ")}; got ${JSON.stringify(mode)}`);
  }
  return { mode, working_directories: {}, allow_rules: {}, deny_rules: {}, ask_rules: {} };
}
