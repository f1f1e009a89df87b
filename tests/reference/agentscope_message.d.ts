/* tslint:disable */
/* eslint-disable */
/**
 * A block of text. Wire: `{type: "text", text, id, created_at, finished_at}`.
 */
export interface TextBlock {
    /**
     * The text.
     */
    text: string;
    /**
     * Block id (generated when absent).
     */
    id?: string;
    /**
     * When the block was created (ISO 8601 string, not validated).
     */
    created_at?: string;
    /**
     * When streaming of the block ended, or null.
     */
    finished_at?: string | null;
}

/**
 * A chat message: `{name, content, role, id, metadata, created_at, usage, finished_at,
 * finished_reason, structured_output, error}` on the wire, in that order.
 *
 * `content` is reached through [`Msg::content`] / [`Msg::content_mut`] so that the
 * message can keep an index of its blocks by `(type, id)`: a streamed delta finds its
 * block in O(1) instead of scanning the list (the reference scans; the first match wins
 * in both).
 */
export interface Msg {
    /**
     * Speaker name.
     */
    name: string;
    content: ContentBlock[];
    /**
     * Speaker role.
     */
    role: Role;
    /**
     * Message id (the `reply_id` of the events that build it).
     */
    id: string;
    /**
     * Free-form metadata (key order kept).
     */
    metadata: Record<string, unknown>;
    /**
     * Creation time.
     */
    created_at: string;
    /**
     * Summed token usage, or null.
     */
    usage: Usage | null;
    /**
     * When the reply ended, or null.
     */
    finished_at: string | null;
    /**
     * Why the reply ended, or null.
     */
    finished_reason: ReplyFinishedReason | null;
    /**
     * Structured output of the reply, or null.
     */
    structured_output: Record<string, unknown> | null;
    /**
     * The error the reply ended with, or null.
     */
    error: ErrorInfo | null;
}

/**
 * A hint for the model (e.g. a system reminder). Wire: `{type: "hint", hint, id, source,
 * created_at, finished_at}`; `finished_at` defaults to now, not null.
 */
export interface HintBlock {
    /**
     * The hint: a string or text/data blocks.
     */
    hint: TextOrBlocks;
    /**
     * Block id (generated when absent).
     */
    id?: string;
    /**
     * Free-form source label, or null.
     */
    source?: string | null;
    /**
     * When the block was created.
     */
    created_at?: string;
    /**
     * When the block was finished (defaults to now).
     */
    finished_at?: string | null;
}

/**
 * A permission rule suggested with a tool call. Wire: `{tool_name, rule_content,
 * behavior, source}`.
 */
export interface PermissionRule {
    /**
     * The tool the rule applies to.
     */
    tool_name: string;
    /**
     * The rule's pattern, or null. Required, though it may be null, as in the reference.
     */
    rule_content: string | null;
    /**
     * What the rule does.
     */
    behavior: PermissionBehavior;
    /**
     * Where the rule comes from.
     */
    source: string;
}

/**
 * A string or a list of text / data blocks (`HintBlock.hint`, `ToolResultBlock.output`).
 */
export type TextOrBlocks = string | TextOrData[];

/**
 * A text or data block: the items of a hint list and of a tool result's output.
 */
export type TextOrData = ({ type: "text" } & TextBlock) | ({ type: "data" } & DataBlock);

/**
 * A tool call. Wire: `{type: "tool_call", id, name, input, state, suggested_rules,
 * created_at, finished_at}`; `input` is the raw JSON string of the arguments, never
 * parsed here (it may be truncated JSON).
 */
export interface ToolCallBlock {
    /**
     * The tool call id (required).
     */
    id: string;
    /**
     * The tool name.
     */
    name: string;
    /**
     * The arguments as a raw JSON string.
     */
    input: string;
    /**
     * The call's state.
     */
    state?: ToolCallState;
    /**
     * Rules suggested when asking the user.
     */
    suggested_rules?: PermissionRule[];
    /**
     * When the block was created.
     */
    created_at?: string;
    /**
     * When streaming of the arguments ended, or null.
     */
    finished_at?: string | null;
}

/**
 * A tool result. Wire: `{type: "tool_result", id, name, output, state, metadata,
 * created_at, finished_at}`; `id` is the tool call's id.
 */
export interface ToolResultBlock {
    /**
     * The id of the tool call this answers (required).
     */
    id: string;
    /**
     * The tool name.
     */
    name: string;
    /**
     * A string, or text/data blocks.
     */
    output: TextOrBlocks;
    /**
     * The result's state.
     */
    state?: ToolResultState;
    /**
     * Free-form metadata (key order kept).
     */
    metadata?: Record<string, unknown>;
    /**
     * When the block was created.
     */
    created_at?: string;
    /**
     * When the result was finished, or null.
     */
    finished_at?: string | null;
}

/**
 * Binary data (image, audio, file). Wire: `{type: "data", id, source, name, created_at,
 * finished_at}`.
 */
export interface DataBlock {
    /**
     * Block id (generated when absent).
     */
    id?: string;
    /**
     * Inline base64 or a URL.
     */
    source: DataSource;
    /**
     * Optional file name.
     */
    name?: string | null;
    /**
     * When the block was created.
     */
    created_at?: string;
    /**
     * When streaming of the block ended, or null.
     */
    finished_at?: string | null;
}

/**
 * Category of a reply error: `authentication`, `permission`, `rate_limit`,
 * `invalid_request`, `upstream`, `connection`, `internal`, `setup`, `unknown`.
 */
export type ErrorType = "authentication" | "permission" | "rate_limit" | "invalid_request" | "upstream" | "connection" | "internal" | "setup" | "unknown";

/**
 * Data behind a URL. `url` is normalised on construction as pydantic's `AnyUrl` does
 * (`https://example.com` → `https://example.com/`; scheme and host lower-cased; default
 * port dropped; spaces and non-ASCII percent-encoded).
 */
export interface URLSource {
    /**
     * The normalised URL.
     */
    url: string;
    /**
     * MIME type, e.g. `image/png`.
     */
    media_type: string;
}

/**
 * Inline data. `data` is kept as received (it is not validated, as in the reference)
 * until streamed chunks are appended to it; from then on it is kept as bytes and encoded
 * only when serialised or read, so that accumulating N bytes costs O(N).
 */
export interface Base64Source {
    data: string;
    /**
     * MIME type, e.g. `image/png`.
     */
    media_type: string;
}

/**
 * Model reasoning. Wire: `{type: "thinking", thinking, id, created_at, finished_at,
 * ...extras}`; unknown keys (e.g. Anthropic `signature`) are kept after the declared
 * ones (`extra="allow"`).
 */
export type ThinkingBlock = { thinking: string; id?: string; created_at?: string; finished_at?: string | null } & Record<string, unknown>;

/**
 * One block of a message's `content`, tagged by `type` on the wire.
 */
export type ContentBlock = ({ type: "text" } & TextBlock) | ({ type: "thinking" } & ThinkingBlock) | ({ type: "data" } & DataBlock) | ({ type: "hint" } & HintBlock) | ({ type: "tool_call" } & ToolCallBlock) | ({ type: "tool_result" } & ToolResultBlock);

/**
 * One of the 28 AgentScope events (`AgentEvent`), tagged by `type`. Serialises to
 * the wire JSON of its variant.
 */
export type AgentEvent = ({ type: "REPLY_START" } & ReplyStartEvent) | ({ type: "REPLY_END" } & ReplyEndEvent) | ({ type: "MODEL_CALL_START" } & ModelCallStartEvent) | ({ type: "MODEL_CALL_END" } & ModelCallEndEvent) | ({ type: "TEXT_BLOCK_START" } & TextBlockStartEvent) | ({ type: "TEXT_BLOCK_DELTA" } & TextBlockDeltaEvent) | ({ type: "TEXT_BLOCK_END" } & TextBlockEndEvent) | ({ type: "DATA_BLOCK_START" } & DataBlockStartEvent) | ({ type: "DATA_BLOCK_DELTA" } & DataBlockDeltaEvent) | ({ type: "DATA_BLOCK_END" } & DataBlockEndEvent) | ({ type: "THINKING_BLOCK_START" } & ThinkingBlockStartEvent) | ({ type: "THINKING_BLOCK_DELTA" } & ThinkingBlockDeltaEvent) | ({ type: "THINKING_BLOCK_END" } & ThinkingBlockEndEvent) | ({ type: "HINT_BLOCK" } & HintBlockEvent) | ({ type: "TOOL_CALL_START" } & ToolCallStartEvent) | ({ type: "TOOL_CALL_DELTA" } & ToolCallDeltaEvent) | ({ type: "TOOL_CALL_END" } & ToolCallEndEvent) | ({ type: "TOOL_RESULT_START" } & ToolResultStartEvent) | ({ type: "TOOL_RESULT_TEXT_DELTA" } & ToolResultTextDeltaEvent) | ({ type: "TOOL_RESULT_DATA_DELTA" } & ToolResultDataDeltaEvent) | ({ type: "TOOL_RESULT_END" } & ToolResultEndEvent) | ({ type: "EXCEED_MAX_ITERS" } & ExceedMaxItersEvent) | ({ type: "REQUIRE_USER_CONFIRM" } & RequireUserConfirmEvent) | ({ type: "REQUIRE_EXTERNAL_EXECUTION" } & RequireExternalExecutionEvent) | ({ type: "USER_CONFIRM_RESULT" } & UserConfirmResultEvent) | ({ type: "USER_INTERRUPT" } & UserInterruptEvent) | ({ type: "EXTERNAL_EXECUTION_RESULT" } & ExternalExecutionResultEvent) | ({ type: "CUSTOM" } & CustomEvent);

/**
 * State of a tool call: `pending`, `asking`, `allowed`, `submitted`, `finished`.
 */
export type ToolCallState = "pending" | "asking" | "allowed" | "submitted" | "finished";

/**
 * State of a tool result: `success`, `error`, `interrupted`, `denied`, `running`.
 */
export type ToolResultState = "success" | "error" | "interrupted" | "denied" | "running";

/**
 * The `type` of a content block.
 */
export type BlockKind = "text" | "thinking" | "data" | "hint" | "tool_call" | "tool_result";

/**
 * The error a reply ended with. Wire: `{type, message}`.
 */
export interface ErrorInfo {
    /**
     * The category (default `unknown`).
     */
    type?: ErrorType;
    /**
     * Human-readable text.
     */
    message: string;
}

/**
 * The source of a [`crate::DataBlock`]: inline base64 or a URL. Wire JSON is tagged by
 * `type`: `{"type": "base64", "data", "media_type"}` or `{"type": "url", "url",
 * "media_type"}`.
 */
export type DataSource = ({ type: "base64" } & Base64Source) | ({ type: "url" } & URLSource);

/**
 * The user's answer to one tool call of a `REQUIRE_USER_CONFIRM`. Wire: `{confirmed,
 * tool_call, rules}`.
 */
export interface ConfirmResult {
    /**
     * Whether the call may run (read in pydantic's lax mode: `1`, `"yes"`, …).
     */
    confirmed: boolean;
    /**
     * The tool call answered (only its `id` is used by the reducer).
     */
    tool_call: ToolCallBlock;
    /**
     * Rules the user chose to remember, or null.
     */
    rules?: PermissionRule[] | null;
}

/**
 * Token usage, summed over the model calls of a reply. Wire: `{input_tokens,
 * output_tokens, cache_input_tokens, cache_creation_input_tokens}`.
 */
export interface Usage {
    /**
     * Prompt tokens.
     */
    input_tokens: number;
    /**
     * Completion tokens.
     */
    output_tokens: number;
    /**
     * Prompt tokens read from the provider's cache.
     */
    cache_input_tokens?: number;
    /**
     * Prompt tokens written to the provider's cache.
     */
    cache_creation_input_tokens?: number;
}

/**
 * What a permission rule does: `allow`, `deny`, `ask`, `passthrough`.
 */
export type PermissionBehavior = "allow" | "deny" | "ask" | "passthrough";

/**
 * Who speaks: `user`, `assistant` or `system`.
 */
export type Role = "user" | "assistant" | "system";

/**
 * Why a model call ended: `completed` or `interrupted` (`FinishedReason`).
 */
export type FinishedReason = "completed" | "interrupted";

/**
 * Why a reply ended: `completed`, `interrupted`, `exceed_max_iters`, `error`.
 */
export type ReplyFinishedReason = "completed" | "interrupted" | "exceed_max_iters" | "error";

/**
 * `CUSTOM`: an application event; it has no `reply_id` and never changes a message.
 */
export interface CustomEvent {
    /**
     * Event id (generated when absent).
     */
    id?: string;
    /**
     * When the event was made (ISO 8601 string, not validated; now when absent).
     */
    created_at?: string;
    /**
     * Free-form metadata (key order kept; `{}` when absent).
     */
    metadata?: Record<string, unknown>;
    /**
     * The event name.
     */
    name: string;
    /**
     * Free-form payload.
     *
     */
    value?: Record<string, unknown>;
}

/**
 * `DATA_BLOCK_DELTA`: a base64 chunk (`data`) or a URL (`url`); exactly one is set.
 */
export interface DataBlockDeltaEvent {
    /**
     * Event id (generated when absent).
     */
    id?: string;
    /**
     * When the event was made (ISO 8601 string, not validated; now when absent).
     */
    created_at?: string;
    /**
     * Free-form metadata (key order kept; `{}` when absent).
     */
    metadata?: Record<string, unknown>;
    /**
     * The reply.
     */
    reply_id: string;
    /**
     * The block.
     */
    block_id: string;
    /**
     * MIME type (ignored for base64 chunks).
     */
    media_type: string;
    /**
     * A base64 chunk, or null.
     *
     */
    data?: string | null;
    /**
     * A URL, or null.
     *
     */
    url?: string | null;
}

/**
 * `DATA_BLOCK_END`: a data block closes.
 */
export interface DataBlockEndEvent {
    /**
     * Event id (generated when absent).
     */
    id?: string;
    /**
     * When the event was made (ISO 8601 string, not validated; now when absent).
     */
    created_at?: string;
    /**
     * Free-form metadata (key order kept; `{}` when absent).
     */
    metadata?: Record<string, unknown>;
    /**
     * The reply.
     */
    reply_id: string;
    /**
     * The block.
     */
    block_id: string;
}

/**
 * `DATA_BLOCK_START`: a data block opens with an empty base64 source.
 */
export interface DataBlockStartEvent {
    /**
     * Event id (generated when absent).
     */
    id?: string;
    /**
     * When the event was made (ISO 8601 string, not validated; now when absent).
     */
    created_at?: string;
    /**
     * Free-form metadata (key order kept; `{}` when absent).
     */
    metadata?: Record<string, unknown>;
    /**
     * The reply.
     */
    reply_id: string;
    /**
     * The new block's id.
     */
    block_id: string;
    /**
     * MIME type.
     */
    media_type: string;
    /**
     * File name, or null.
     *
     */
    name?: string | null;
}

/**
 * `EXCEED_MAX_ITERS` (deprecated): the agent hit its iteration limit.
 */
export interface ExceedMaxItersEvent {
    /**
     * Event id (generated when absent).
     */
    id?: string;
    /**
     * When the event was made (ISO 8601 string, not validated; now when absent).
     */
    created_at?: string;
    /**
     * Free-form metadata (key order kept; `{}` when absent).
     */
    metadata?: Record<string, unknown>;
    /**
     * The reply.
     */
    reply_id: string;
    /**
     * The agent name.
     */
    name: string;
}

/**
 * `EXTERNAL_EXECUTION_RESULT`: results of externally executed calls.
 */
export interface ExternalExecutionResultEvent {
    /**
     * Event id (generated when absent).
     */
    id?: string;
    /**
     * When the event was made (ISO 8601 string, not validated; now when absent).
     */
    created_at?: string;
    /**
     * Free-form metadata (key order kept; `{}` when absent).
     */
    metadata?: Record<string, unknown>;
    /**
     * The reply.
     */
    reply_id: string;
    /**
     * The results, appended unless a result with the same id exists.
     */
    execution_results: ToolResultBlock[];
}

/**
 * `HINT_BLOCK`: a whole hint block.
 */
export interface HintBlockEvent {
    /**
     * Event id (generated when absent).
     */
    id?: string;
    /**
     * When the event was made (ISO 8601 string, not validated; now when absent).
     */
    created_at?: string;
    /**
     * Free-form metadata (key order kept; `{}` when absent).
     */
    metadata?: Record<string, unknown>;
    /**
     * The reply.
     */
    reply_id: string;
    /**
     * The new block's id.
     */
    block_id: string;
    /**
     * Source label, or null.
     *
     */
    source?: string | null;
    /**
     * The hint: a string or text/data blocks.
     */
    hint: TextOrBlocks;
}

/**
 * `MODEL_CALL_END`: a model call ended, with its token usage.
 */
export interface ModelCallEndEvent {
    /**
     * Event id (generated when absent).
     */
    id?: string;
    /**
     * When the event was made (ISO 8601 string, not validated; now when absent).
     */
    created_at?: string;
    /**
     * Free-form metadata (key order kept; `{}` when absent).
     */
    metadata?: Record<string, unknown>;
    /**
     * The reply.
     */
    reply_id: string;
    /**
     * Prompt tokens.
     */
    input_tokens: number;
    /**
     * Completion tokens.
     */
    output_tokens: number;
    /**
     * Cached prompt tokens read.
     *
     */
    cache_input_tokens?: number;
    /**
     * Cached prompt tokens written.
     *
     */
    cache_creation_input_tokens?: number;
    /**
     * Why the call ended (ignored by the reducer).
     *
     */
    finished_reason?: FinishedReason;
}

/**
 * `MODEL_CALL_START`: a model call begins.
 */
export interface ModelCallStartEvent {
    /**
     * Event id (generated when absent).
     */
    id?: string;
    /**
     * When the event was made (ISO 8601 string, not validated; now when absent).
     */
    created_at?: string;
    /**
     * Free-form metadata (key order kept; `{}` when absent).
     */
    metadata?: Record<string, unknown>;
    /**
     * The reply.
     */
    reply_id: string;
    /**
     * The model.
     */
    model_name: string;
}

/**
 * `REPLY_END`: the reply ended.
 */
export interface ReplyEndEvent {
    /**
     * Event id (generated when absent).
     */
    id?: string;
    /**
     * When the event was made (ISO 8601 string, not validated; now when absent).
     */
    created_at?: string;
    /**
     * Free-form metadata (key order kept; `{}` when absent).
     */
    metadata?: Record<string, unknown>;
    /**
     * The chat session.
     */
    session_id: string;
    /**
     * The reply.
     */
    reply_id: string;
    /**
     * Why it ended (default `completed`).
     *
     */
    finished_reason?: ReplyFinishedReason;
    /**
     * The error, or null.
     *
     */
    error?: ErrorInfo | null;
}

/**
 * `REPLY_START`: a reply begins (or continues, after a confirmation).
 */
export interface ReplyStartEvent {
    /**
     * Event id (generated when absent).
     */
    id?: string;
    /**
     * When the event was made (ISO 8601 string, not validated; now when absent).
     */
    created_at?: string;
    /**
     * Free-form metadata (key order kept; `{}` when absent).
     */
    metadata?: Record<string, unknown>;
    /**
     * The chat session.
     */
    session_id: string;
    /**
     * The reply (= message id).
     */
    reply_id: string;
    /**
     * Speaker name.
     */
    name: string;
    /**
     * Speaker role (default `assistant`).
     *
     */
    role?: Role;
}

/**
 * `REQUIRE_EXTERNAL_EXECUTION`: these calls are to be run by the client.
 */
export interface RequireExternalExecutionEvent {
    /**
     * Event id (generated when absent).
     */
    id?: string;
    /**
     * When the event was made (ISO 8601 string, not validated; now when absent).
     */
    created_at?: string;
    /**
     * Free-form metadata (key order kept; `{}` when absent).
     */
    metadata?: Record<string, unknown>;
    /**
     * The reply.
     */
    reply_id: string;
    /**
     * The calls (matched by id).
     */
    tool_calls: ToolCallBlock[];
}

/**
 * `REQUIRE_USER_CONFIRM`: these calls wait for the user's confirmation.
 */
export interface RequireUserConfirmEvent {
    /**
     * Event id (generated when absent).
     */
    id?: string;
    /**
     * When the event was made (ISO 8601 string, not validated; now when absent).
     */
    created_at?: string;
    /**
     * Free-form metadata (key order kept; `{}` when absent).
     */
    metadata?: Record<string, unknown>;
    /**
     * The reply.
     */
    reply_id: string;
    /**
     * The calls (matched by id; their `suggested_rules` are copied).
     */
    tool_calls: ToolCallBlock[];
}

/**
 * `TEXT_BLOCK_DELTA`: text appended to a block.
 */
export interface TextBlockDeltaEvent {
    /**
     * Event id (generated when absent).
     */
    id?: string;
    /**
     * When the event was made (ISO 8601 string, not validated; now when absent).
     */
    created_at?: string;
    /**
     * Free-form metadata (key order kept; `{}` when absent).
     */
    metadata?: Record<string, unknown>;
    /**
     * The reply.
     */
    reply_id: string;
    /**
     * The block.
     */
    block_id: string;
    /**
     * The text to append.
     */
    delta: string;
}

/**
 * `TEXT_BLOCK_END`: a text block closes, optionally with its final text.
 */
export interface TextBlockEndEvent {
    /**
     * Event id (generated when absent).
     */
    id?: string;
    /**
     * When the event was made (ISO 8601 string, not validated; now when absent).
     */
    created_at?: string;
    /**
     * Free-form metadata (key order kept; `{}` when absent).
     */
    metadata?: Record<string, unknown>;
    /**
     * The reply.
     */
    reply_id: string;
    /**
     * The block.
     */
    block_id: string;
    /**
     * When not null, replaces the block's text.
     *
     */
    text?: string | null;
}

/**
 * `TEXT_BLOCK_START`: a text block opens.
 */
export interface TextBlockStartEvent {
    /**
     * Event id (generated when absent).
     */
    id?: string;
    /**
     * When the event was made (ISO 8601 string, not validated; now when absent).
     */
    created_at?: string;
    /**
     * Free-form metadata (key order kept; `{}` when absent).
     */
    metadata?: Record<string, unknown>;
    /**
     * The reply.
     */
    reply_id: string;
    /**
     * The new block's id.
     */
    block_id: string;
}

/**
 * `THINKING_BLOCK_DELTA`: reasoning text appended to a block.
 */
export interface ThinkingBlockDeltaEvent {
    /**
     * Event id (generated when absent).
     */
    id?: string;
    /**
     * When the event was made (ISO 8601 string, not validated; now when absent).
     */
    created_at?: string;
    /**
     * Free-form metadata (key order kept; `{}` when absent).
     */
    metadata?: Record<string, unknown>;
    /**
     * The reply.
     */
    reply_id: string;
    /**
     * The block.
     */
    block_id: string;
    /**
     * The text to append.
     */
    delta: string;
}

/**
 * `THINKING_BLOCK_END`: a thinking block closes.
 */
export interface ThinkingBlockEndEvent {
    /**
     * Event id (generated when absent).
     */
    id?: string;
    /**
     * When the event was made (ISO 8601 string, not validated; now when absent).
     */
    created_at?: string;
    /**
     * Free-form metadata (key order kept; `{}` when absent).
     */
    metadata?: Record<string, unknown>;
    /**
     * The reply.
     */
    reply_id: string;
    /**
     * The block.
     */
    block_id: string;
}

/**
 * `THINKING_BLOCK_START`: a thinking block opens.
 */
export interface ThinkingBlockStartEvent {
    /**
     * Event id (generated when absent).
     */
    id?: string;
    /**
     * When the event was made (ISO 8601 string, not validated; now when absent).
     */
    created_at?: string;
    /**
     * Free-form metadata (key order kept; `{}` when absent).
     */
    metadata?: Record<string, unknown>;
    /**
     * The reply.
     */
    reply_id: string;
    /**
     * The new block's id.
     */
    block_id: string;
}

/**
 * `TOOL_CALL_DELTA`: a piece of the call's raw JSON arguments.
 */
export interface ToolCallDeltaEvent {
    /**
     * Event id (generated when absent).
     */
    id?: string;
    /**
     * When the event was made (ISO 8601 string, not validated; now when absent).
     */
    created_at?: string;
    /**
     * Free-form metadata (key order kept; `{}` when absent).
     */
    metadata?: Record<string, unknown>;
    /**
     * The reply.
     */
    reply_id: string;
    /**
     * The call id.
     */
    tool_call_id: string;
    /**
     * The text to append to `input`.
     */
    delta: string;
}

/**
 * `TOOL_CALL_END`: the call's arguments are complete.
 */
export interface ToolCallEndEvent {
    /**
     * Event id (generated when absent).
     */
    id?: string;
    /**
     * When the event was made (ISO 8601 string, not validated; now when absent).
     */
    created_at?: string;
    /**
     * Free-form metadata (key order kept; `{}` when absent).
     */
    metadata?: Record<string, unknown>;
    /**
     * The reply.
     */
    reply_id: string;
    /**
     * The call id.
     */
    tool_call_id: string;
}

/**
 * `TOOL_CALL_START`: a tool call opens with empty input.
 */
export interface ToolCallStartEvent {
    /**
     * Event id (generated when absent).
     */
    id?: string;
    /**
     * When the event was made (ISO 8601 string, not validated; now when absent).
     */
    created_at?: string;
    /**
     * Free-form metadata (key order kept; `{}` when absent).
     */
    metadata?: Record<string, unknown>;
    /**
     * The reply.
     */
    reply_id: string;
    /**
     * The call id.
     */
    tool_call_id: string;
    /**
     * The tool name.
     */
    tool_call_name: string;
}

/**
 * `TOOL_RESULT_DATA_DELTA`: a data chunk (`data`) or URL (`url`) for a tool result;
 * exactly one is set.
 */
export interface ToolResultDataDeltaEvent {
    /**
     * Event id (generated when absent).
     */
    id?: string;
    /**
     * When the event was made (ISO 8601 string, not validated; now when absent).
     */
    created_at?: string;
    /**
     * Free-form metadata (key order kept; `{}` when absent).
     */
    metadata?: Record<string, unknown>;
    /**
     * The reply.
     */
    reply_id: string;
    /**
     * The call id.
     */
    tool_call_id: string;
    /**
     * The data block's id (generated when absent).
     *
     */
    block_id?: string;
    /**
     * MIME type.
     */
    media_type: string;
    /**
     * A base64 chunk, or null.
     *
     */
    data?: string | null;
    /**
     * A URL, or null.
     *
     */
    url?: string | null;
}

/**
 * `TOOL_RESULT_END`: a tool result is complete; the call becomes `finished`.
 */
export interface ToolResultEndEvent {
    /**
     * Event id (generated when absent).
     */
    id?: string;
    /**
     * When the event was made (ISO 8601 string, not validated; now when absent).
     */
    created_at?: string;
    /**
     * Free-form metadata (key order kept; `{}` when absent).
     */
    metadata?: Record<string, unknown>;
    /**
     * The reply.
     */
    reply_id: string;
    /**
     * The call id.
     */
    tool_call_id: string;
    /**
     * The result's final state.
     */
    state: ToolResultState;
}

/**
 * `TOOL_RESULT_START`: a running tool result opens with an empty output list.
 */
export interface ToolResultStartEvent {
    /**
     * Event id (generated when absent).
     */
    id?: string;
    /**
     * When the event was made (ISO 8601 string, not validated; now when absent).
     */
    created_at?: string;
    /**
     * Free-form metadata (key order kept; `{}` when absent).
     */
    metadata?: Record<string, unknown>;
    /**
     * The reply.
     */
    reply_id: string;
    /**
     * The call id.
     */
    tool_call_id: string;
    /**
     * The tool name.
     */
    tool_call_name: string;
}

/**
 * `TOOL_RESULT_TEXT_DELTA`: text appended to a tool result's output.
 */
export interface ToolResultTextDeltaEvent {
    /**
     * Event id (generated when absent).
     */
    id?: string;
    /**
     * When the event was made (ISO 8601 string, not validated; now when absent).
     */
    created_at?: string;
    /**
     * Free-form metadata (key order kept; `{}` when absent).
     */
    metadata?: Record<string, unknown>;
    /**
     * The reply.
     */
    reply_id: string;
    /**
     * The call id.
     */
    tool_call_id: string;
    /**
     * The text to append.
     */
    delta: string;
}

/**
 * `USER_CONFIRM_RESULT`: the user's answers.
 */
export interface UserConfirmResultEvent {
    /**
     * Event id (generated when absent).
     */
    id?: string;
    /**
     * When the event was made (ISO 8601 string, not validated; now when absent).
     */
    created_at?: string;
    /**
     * Free-form metadata (key order kept; `{}` when absent).
     */
    metadata?: Record<string, unknown>;
    /**
     * The reply.
     */
    reply_id: string;
    /**
     * One answer per call.
     */
    confirm_results: ConfirmResult[];
}

/**
 * `USER_INTERRUPT`: the user interrupted the reply.
 */
export interface UserInterruptEvent {
    /**
     * Event id (generated when absent).
     */
    id?: string;
    /**
     * When the event was made (ISO 8601 string, not validated; now when absent).
     */
    created_at?: string;
    /**
     * Free-form metadata (key order kept; `{}` when absent).
     */
    metadata?: Record<string, unknown>;
    /**
     * The reply.
     */
    reply_id: string;
}


/**
 * Owns one message in wasm memory; the TS `Msg` class wraps it. Events go in as wire
 * JSON text and are applied in place, so streaming never copies the message across the
 * boundary; reads hand out wire JSON per block, with revision counters so that the TS
 * layer re-reads only the blocks that changed.
 */
export class MsgHandle {
    private constructor();
    free(): void;
    [Symbol.dispose](): void;
    /**
     * Applies one of the four text delta events given by its parts, as `appendEvent` would
     * apply its wire JSON: `kind` 0 `TEXT_BLOCK_DELTA`, 1 `THINKING_BLOCK_DELTA`, 2
     * `TOOL_CALL_DELTA`, 3 `TOOL_RESULT_TEXT_DELTA`; `reply_id` and `target_id` (the
     * `block_id` or `tool_call_id`) `undefined` keep the previous call's (see the core's
     * `HotDelta`: only the delta crosses per event). The TS layer calls it only for an
     * event of the decoder's fast-path shape. Returns -1 when the message did not change
     * (skipped), -2 when it changed otherwise than below, and `4 * i + at` when the change
     * is exactly `delta` appended to block `i`'s streamed string (`at`: 0 `text`, 1
     * `thinking`, 2 `input`, 3 the last output's `text`); with `mark_read` that change is
     * then also marked read when it is all `readChanges` would hand out (else -2).
     * Throws `MsgError` as `appendEvent`; the message is then unchanged.
     */
    appendDelta(kind: number, reply_id: string | null | undefined, target_id: string | null | undefined, delta: string, mark_read: boolean): number;
    /**
     * Applies one event given as wire JSON text; the message is unchanged on error.
     */
    appendEvent(event_json: string): void;
    /**
     * Appends `text`, deltas the TS layer joined (each already within the per-delta cap,
     * together within `deltaRoom()`), as one more delta to the block of the last
     * `appendDelta`; returns as `appendDelta`. The per-delta cap is not applied to the
     * joined text.
     */
    appendJoined(text: string, mark_read: boolean): number;
    /**
     * A deep copy in a new handle.
     */
    clone(): MsgHandle;
    /**
     * Positions of the blocks `get_content_blocks(types)` returns.
     */
    contentBlockIndices(types: any): Uint32Array;
    /**
     * `UserMsg` / `AssistantMsg` / `SystemMsg`: `role` is `user`, `assistant` or
     * `system`; `content_json` a JSON string or array of blocks; `options_json` an
     * object of the optional fields. Throws `MsgError` (`role_violation`, …).
     */
    static create(role: string, name: string, content_json: string, options_json: string): MsgHandle;
    /**
     * The UTF-8 bytes the block of the last `appendDelta` may take in further deltas
     * with nothing refusing them (the core's `Msg::tail_room`), when that call returned
     * a block (else 0).
     */
    deltaRoom(): number;
    /**
     * Parses and validates a message from wire JSON (`Msg.model_validate_json`).
     */
    static fromJSON(json: string): MsgHandle;
    /**
     * `get_text_content(separator)`; `undefined` when there is no text block.
     */
    getTextContent(separator: string): string | undefined;
    /**
     * `has_content_blocks(types)`.
     */
    hasContentBlocks(types: any): boolean;
    /**
     * The caps, in the order `setLimits` takes them.
     */
    limits(): Uint32Array;
    /**
     * The changes since the previous call, as JSON text (see the core's
     * `SnapshotReader::read`): the header, the block count, and per changed block the
     * whole block or the tail appended to its streamed string.
     * Throws `MsgError` (`limit_exceeded`) when a string of it would be longer than a JS
     * string may be, or there is no memory for it; the next call reads the same changes.
     */
    readChanges(): string;
    /**
     * The message's revision counter (grows on every change).
     */
    revision(): number;
    /**
     * Sets the caps on what events may add (the core's `Limits`, in its field order:
     * `max_delta_bytes`, `max_block_bytes`, `max_message_bytes`, `max_blocks`; 0 is no
     * cap). The TS layer checks the values.
     */
    setLimits(max_delta_bytes: number, max_block_bytes: number, max_message_bytes: number, max_blocks: number): void;
    /**
     * What the message took in, in bytes (the core's `Msg::taken_bytes`).
     */
    takenBytes(): number;
    /**
     * The whole message as wire JSON text.
     */
    toJSONString(): string;
}

/**
 * Owns a session in wasm memory; the TS `Session` class wraps it. Bytes go in as they
 * come off the network (no event is parsed in JS); reads hand out only what changed.
 */
export class SessionHandle {
    private constructor();
    free(): void;
    [Symbol.dispose](): void;
    /**
     * Applies one of the four text delta events given by its parts (as `MsgHandle.appendDelta`:
     * `kind` 0–3, `reply_id` / `target_id` `undefined` keep the previous call's); `id` is
     * the event's own id (`undefined`: none, never deduplicated). Returns `applied` or
     * the skip code as `applyJSON` does, except `true` for `applied` (no string made per
     * event), or `undefined` with the option `keep_events` (the event's text is needed:
     * use `applyJSON`). Throws as `applyJSON`.
     */
    applyDelta(kind: number, reply_id: string | null | undefined, target_id: string | null | undefined, id: string | null | undefined, delta: string): any;
    /**
     * Applies one event (wire JSON text); returns `applied` or the skip code.
     */
    applyJSON(json: string): string;
    /**
     * Applies `text`, `count` deltas the TS layer joined (each within the per-delta cap,
     * together within `deltaRoom()`), to the block of the last `applyDelta`, as one event
     * counted `count` times. Returns as `applyDelta`.
     */
    applyJoined(text: string, count: number): any;
    /**
     * The checkpoint JSON text.
     */
    checkpoint(): string;
    /**
     * Drops the diagnostics held (after the TS layer has read them).
     */
    clearDiagnostics(): void;
    /**
     * A session with options as JSON text (the core's `SessionOptions`). Throws
     * `MsgError` (`invalid_argument`) for unknown or mistyped options.
     */
    static create(options_json: string): SessionHandle;
    /**
     * The UTF-8 bytes the block of the last `applyDelta` may take in further deltas with
     * nothing refusing them and nothing to report (see the core's `Msg::tail_room`), when
     * that call appended exactly its delta with no diagnostic; else 0.
     */
    deltaRoom(): number;
    /**
     * Number of diagnostics held.
     */
    diagnosticCount(): number;
    /**
     * The diagnostics from position `from` on, as a JSON array.
     */
    diagnosticsJSON(from: number): string;
    /**
     * Ends the stream (a final frame without its blank line is applied).
     */
    end(): number;
    /**
     * Number of events seen.
     */
    events(): number;
    /**
     * Feeds raw bytes; returns the number of events applied. Throws the first refused
     * event's `MsgError` (with `index`, `eventId`, `sseId`).
     */
    feedBytes(chunk: Uint8Array | number[]): number;
    /**
     * Feeds text (its UTF-8 bytes).
     */
    feedText(chunk: string): number;
    /**
     * `sse`, `json_lines`, `json_array`, or `undefined` before the first bytes.
     */
    framing(): string | undefined;
    /**
     * Adds (or replaces) a message that events with its id as `reply_id` go to (see the
     * core's `Session::insert`). Throws `MsgError` for text that is not a valid message.
     */
    insert(msg_json: string): void;
    /**
     * Whether the reply's last `REPLY_START` was followed by its `REPLY_END` (false for
     * an unknown reply and for a message added with `insert`).
     */
    isEnded(reply_id: string): boolean;
    /**
     * The per-delta cap (`max_delta_bytes`, 0: none) and whether the session
     * deduplicates (`dedup`), for the TS layer's runs of joined deltas (an event with an
     * `id` of a deduplicating session is never joined: its id must be recorded).
     */
    joinRules(): Float64Array;
    /**
     * The SSE id of the last event handled, or `undefined`.
     */
    lastEventId(): string | undefined;
    /**
     * Message `i` as wire JSON text (`undefined` when out of range).
     */
    messageJSON(i: number): string | undefined;
    /**
     * Frames raw bytes without applying their events (see the core's `Session::push`):
     * the TS layer hands a large chunk in pieces, then applies with `feedBytes`.
     */
    pushBytes(chunk: Uint8Array | number[]): void;
    /**
     * Frames text (its UTF-8 bytes) without applying (see `pushBytes`).
     */
    pushText(chunk: string): void;
    /**
     * The changes since the previous call, as JSON text: `{"count": <messages>,
     * "messages": [[i, <message changes>], ...], "unstarted": [[reply_id, kind,
     * tool_call], ...]}` with a message's changes as the core's `SnapshotReader::read`
     * writes them (unchanged messages are left out) and every `Session::unstarted_calls`.
     * Throws `MsgError` (`limit_exceeded`) when a string of it would be longer than a JS
     * string may be, or there is no memory for it: nothing is read then (the next call
     * hands out the same changes, and messages read whole again).
     */
    readChanges(): string;
    /**
     * A new connection's bytes follow (see the core's `Session::restart_stream`).
     */
    restartStream(): void;
    /**
     * A session from `checkpoint()` text. Throws `MsgError` (`invalid_checkpoint`, …).
     */
    static restore(checkpoint: string): SessionHandle;
    /**
     * A counter that grows whenever a message changes.
     */
    revision(): number;
    /**
     * Takes the events kept (option `keep_events`) since the last call, as one JSON array
     * text: `[{"index":1,"outcome":"applied","event":<the event's JSON text, as it
     * came>},…]` (see the core's `Session::take_events`).
     */
    takeEventsJSON(): string;
    /**
     * What the session's messages took in together, in bytes (`Session::taken_bytes`).
     */
    takenBytes(): number;
}

/**
 * Parses one event from wire JSON and returns its normalised wire JSON (defaults
 * filled). Throws `MsgError` (`invalid_json`, `invalid_event`).
 */
export function parseEvent(json: string): string;

/**
 * Replaces the id factory: `fn` returns a fresh id string; `null` restores the default
 * (uuid4 as 32 lowercase hex characters). A call that throws or returns a non-string
 * falls back to the default.
 */
export function setIdFactory(factory?: Function | null): void;

/**
 * Replaces the timestamp factory: `fn` returns a timestamp string; `null` restores the
 * default (`new Date().toISOString()`, UTC with milliseconds). A call that throws or
 * returns a non-string falls back to the default.
 */
export function setTimestampFactory(factory?: Function | null): void;

/**
 * The JSON text of every AgentScope event in a whole stream (SSE, JSON Lines or a JSON
 * array, detected as a `Session` does; SSE frames named other than `message` left out).
 * Throws `MsgError` (`invalid_stream`, `invalid_json`) for a stream that cannot be framed.
 */
export function splitEvents(stream: Uint8Array | number[]): string[];

/**
 * Installs the JS clock and pooled randomness as the default factories when the module
 * starts (the core has no clock on wasm32-unknown-unknown).
 */
export function start(): void;

export type InitInput = string | URL | ArrayBuffer | ArrayBufferView | object;

export interface InitOutput {
    readonly memory: { readonly buffer: ArrayBuffer };
    readonly __wbg_msghandle_free: (a: number, b: number) => void;
    readonly __wbg_sessionhandle_free: (a: number, b: number) => void;
    readonly msghandle_appendDelta: (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number, i: number) => [number, number, number];
    readonly msghandle_appendEvent: (a: number, b: number, c: number) => [number, number];
    readonly msghandle_appendJoined: (a: number, b: number, c: number, d: number) => [number, number, number];
    readonly msghandle_clone: (a: number) => number;
    readonly msghandle_contentBlockIndices: (a: number, b: any) => [number, number];
    readonly msghandle_create: (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number) => [number, number, number];
    readonly msghandle_deltaRoom: (a: number) => number;
    readonly msghandle_fromJSON: (a: number, b: number) => [number, number, number];
    readonly msghandle_getTextContent: (a: number, b: number, c: number) => [number, number];
    readonly msghandle_hasContentBlocks: (a: number, b: any) => number;
    readonly msghandle_limits: (a: number) => [number, number];
    readonly msghandle_readChanges: (a: number) => [number, number, number, number];
    readonly msghandle_revision: (a: number) => number;
    readonly msghandle_setLimits: (a: number, b: number, c: number, d: number, e: number) => void;
    readonly msghandle_takenBytes: (a: number) => number;
    readonly msghandle_toJSONString: (a: number) => [number, number];
    readonly parseEvent: (a: number, b: number) => [number, number, number, number];
    readonly sessionhandle_applyDelta: (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number, i: number, j: number) => [number, number, number];
    readonly sessionhandle_applyJSON: (a: number, b: number, c: number) => [number, number, number, number];
    readonly sessionhandle_applyJoined: (a: number, b: number, c: number, d: number) => [number, number, number];
    readonly sessionhandle_checkpoint: (a: number) => [number, number];
    readonly sessionhandle_clearDiagnostics: (a: number) => void;
    readonly sessionhandle_create: (a: number, b: number) => [number, number, number];
    readonly sessionhandle_deltaRoom: (a: number) => number;
    readonly sessionhandle_diagnosticCount: (a: number) => number;
    readonly sessionhandle_diagnosticsJSON: (a: number, b: number) => [number, number];
    readonly sessionhandle_end: (a: number) => [number, number, number];
    readonly sessionhandle_events: (a: number) => number;
    readonly sessionhandle_feedBytes: (a: number, b: number, c: number) => [number, number, number];
    readonly sessionhandle_feedText: (a: number, b: number, c: number) => [number, number, number];
    readonly sessionhandle_framing: (a: number) => [number, number];
    readonly sessionhandle_insert: (a: number, b: number, c: number) => [number, number];
    readonly sessionhandle_isEnded: (a: number, b: number, c: number) => number;
    readonly sessionhandle_joinRules: (a: number) => [number, number];
    readonly sessionhandle_lastEventId: (a: number) => [number, number];
    readonly sessionhandle_messageJSON: (a: number, b: number) => [number, number];
    readonly sessionhandle_pushBytes: (a: number, b: number, c: number) => [number, number];
    readonly sessionhandle_pushText: (a: number, b: number, c: number) => [number, number];
    readonly sessionhandle_readChanges: (a: number) => [number, number, number, number];
    readonly sessionhandle_restartStream: (a: number) => void;
    readonly sessionhandle_restore: (a: number, b: number) => [number, number, number];
    readonly sessionhandle_revision: (a: number) => number;
    readonly sessionhandle_takeEventsJSON: (a: number) => [number, number];
    readonly sessionhandle_takenBytes: (a: number) => number;
    readonly setIdFactory: (a: number) => void;
    readonly setTimestampFactory: (a: number) => void;
    readonly splitEvents: (a: number, b: number) => [number, number, number, number];
    readonly start: () => void;
    readonly __wbindgen_malloc: (a: number, b: number) => number;
    readonly __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
    readonly __wbindgen_free: (a: number, b: number, c: number) => void;
    readonly __wbindgen_exn_store: (a: number) => void;
    readonly __externref_table_alloc: () => number;
    readonly __wbindgen_externrefs: unknown;
    readonly __externref_table_dealloc: (a: number) => void;
    readonly __externref_drop_slice: (a: number, b: number) => void;
    readonly __wbindgen_start: () => void;
}

export type SyncInitInput = ArrayBuffer | ArrayBufferView | object;

/**
 * Instantiates the given `module`, which can either be bytes or
 * a precompiled `WebAssembly.Module`.
 *
 * @param {{ module: SyncInitInput }} module - Passing `SyncInitInput` directly is deprecated.
 *
 * @returns {InitOutput}
 */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;

/**
 * If `module_or_path` is {RequestInfo} or {URL}, makes a request and
 * for everything else, calls `WebAssembly.instantiate` directly.
 *
 * @param {{ module_or_path: InitInput | Promise<InitInput> }} module_or_path - Passing `InitInput` directly is deprecated.
 *
 * @returns {Promise<InitOutput>}
 */
export default function __wbg_init (module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>): Promise<InitOutput>;
