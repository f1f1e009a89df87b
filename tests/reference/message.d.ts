import type * as Gen from "./wasm/agentscope_message.js";
import type { ReplyFinishedReason, Role } from "./wasm/agentscope_message.js";
import type { AgentEvent } from "./wasm/agentscope_message.js";
export { EventType } from "./event-type.js";
export { MsgError, type MsgErrorCode } from "./errors.js";
export type { AgentEvent } from "./event-type.js";
/**
 * The shape of wire JSON as this package hands it out: every declared key present
 * (`null` where empty), as the reference's `model_dump(mode="json")` writes it. (The
 * generated input types mark keys with defaults as optional.)
 */
export type Wire<T> = T extends readonly (infer U)[] ? readonly Wire<U>[] : T extends object ? {
    readonly [K in keyof T]-?: Wire<Exclude<T[K], undefined>>;
} : T;
/** A content block as read from a message, tagged by `type`. */
export type ContentBlock = Wire<Gen.ContentBlock>;
/** A `text` block. */
export type TextBlock = Extract<ContentBlock, {
    type: "text";
}>;
/** A `thinking` block (extra provider keys are kept). */
export type ThinkingBlock = Extract<ContentBlock, {
    type: "thinking";
}>;
/** A `data` block with a base64 or URL source. */
export type DataBlock = Extract<ContentBlock, {
    type: "data";
}>;
/** A `hint` block. */
export type HintBlock = Extract<ContentBlock, {
    type: "hint";
}>;
/** A `tool_call` block (`input` is the raw JSON string of the arguments). */
export type ToolCallBlock = Extract<ContentBlock, {
    type: "tool_call";
}>;
/** A `tool_result` block. */
export type ToolResultBlock = Extract<ContentBlock, {
    type: "tool_result";
}>;
/** A content block as given to a constructor: defaulted keys may be left out. */
export type ContentBlockInput = Gen.ContentBlock;
/** One of `text`, `thinking`, `data`, `hint`, `tool_call`, `tool_result`. */
export type ContentBlockType = ContentBlock["type"];
/** The data source of a data block. */
export type DataSource = Wire<Gen.DataSource>;
/** Token usage summed over a reply's model calls. */
export type Usage = Wire<Gen.Usage>;
/** The error a reply ended with. */
export type ErrorInfo = Wire<Gen.ErrorInfo>;
export type { Role, ReplyFinishedReason, FinishedReason, ToolCallState, ToolResultState, ErrorType, PermissionBehavior, BlockKind, } from "./wasm/agentscope_message.js";
/** A message's wire JSON: `{name, content, role, id, metadata, created_at, usage,
 * finished_at, finished_reason, structured_output, error}`, keys in that order. */
export type MsgJSON = Wire<Gen.Msg>;
/** What `new Msg(...)` / `Msg.fromJSON(...)` take: wire JSON; defaulted keys optional. */
export interface MsgInit {
    name: string;
    content: ContentBlockInput[];
    role: Role;
    id?: string;
    metadata?: Record<string, unknown>;
    created_at?: string;
    usage?: Gen.Usage | null;
    finished_at?: string | null;
    finished_reason?: ReplyFinishedReason | null;
    structured_output?: Record<string, unknown> | null;
    error?: Gen.ErrorInfo | null;
}
/** The options of `UserMsg` / `AssistantMsg` / `SystemMsg` (the reference's factories). */
export interface MsgOptions {
    /** Speaker name. */
    name: string;
    /** A string (one new text block) or blocks. */
    content: string | ContentBlockInput[];
    /** Message id; generated (32 hex characters) when absent or empty. */
    id?: string;
    /** Metadata; `{}` when absent. */
    metadata?: Record<string, unknown>;
    /** Creation time; now when absent or empty. */
    created_at?: string;
    /** End time; user and system messages default it to `created_at`. */
    finished_at?: string | null;
    /** Why the reply ended. */
    finished_reason?: ReplyFinishedReason | null;
}
/** `AssistantMsg` options: also structured output and usage. */
export interface AssistantMsgOptions extends MsgOptions {
    structured_output?: Record<string, unknown> | null;
    usage?: Gen.Usage | null;
}
/**
 * Caps on what events may add to a message, in UTF-8 bytes (base64 text for data) and
 * blocks; 0 is no cap. An event past one throws `MsgError` (`limit_exceeded`) and
 * changes nothing. The reference has no caps: the defaults are far above what a model or
 * a tool sends, and keep a broken or hostile stream from exhausting wasm memory.
 */
export interface MsgLimits {
    /** The payload of one delta event (its `delta`, `data` or `url`); default 64 MiB. */
    maxDeltaBytes?: number;
    /** What one block takes in (its wire JSON when made, plus each payload); default 256 MiB. */
    maxBlockBytes?: number;
    /** What the message takes in (see {@link Msg.takenBytes}); default 512 MiB. */
    maxMessageBytes?: number;
    /** The number of blocks; default 100,000. */
    maxBlocks?: number;
}
/**
 * A message, held in wasm memory and rebuilt from events with {@link Msg.appendEvent}
 * (the same Rust code as the backend's `Msg::append_event`).
 *
 * Reads (`toJSON()`, `content`, `name`, …) return a frozen snapshot that is cached per
 * revision. A read costs what changed since the previous one: unchanged blocks keep their
 * object identity (UI frameworks can skip them), and a block whose text only grew is
 * rebuilt as `old + tail` (no re-serialisation of the whole block).
 *
 * Memory: the message lives until it is garbage-collected (weak references free the
 * wasm side), or until `free()` / `using msg = ...` releases it at once.
 */
export declare class Msg {
    #private;
    /**
     * Builds and validates a message from wire JSON, like the reference's `Msg(...)`:
     * `content` must be a list; role rules apply (user: text and data blocks; system:
     * text blocks). Throws `MsgError` (`role_violation`, `invalid_role`,
     * `invalid_content`, `invalid_msg`, `invalid_url`).
     */
    constructor(init: MsgInit);
    /** Parses and validates a message from wire JSON (an object or its text). */
    static fromJSON(json: MsgInit | MsgJSON | string): Msg;
    /**
     * Applies one event (an object, or its wire JSON text as received from SSE) and
     * returns this message. Events of another `reply_id`, `CUSTOM` events, and deltas for
     * unknown blocks are skipped, as in the reference. Throws `MsgError` (`invalid_event`,
     * `invalid_json`, `invalid_base64`, `invalid_url`, `base64_after_url`, `limit_exceeded`
     * past one of its {@link Msg.limits}); the message is then unchanged. The event's text
     * is copied into wasm whole: for a stream from the network, a `Session` caps each frame
     * before it is copied in.
     *
     * Cost: a text delta object (`TEXT_BLOCK_DELTA`, `THINKING_BLOCK_DELTA`,
     * `TOOL_CALL_DELTA`, `TOOL_RESULT_TEXT_DELTA` of the wire's shape) crosses as its strings,
     * and the deltas of one block are joined into one text until the next other call on this
     * message (a read, another event), within what no cap can refuse: about the cost of a
     * plain-JS `text += delta` (docs/benchmarks.md). Any other event crosses as JSON text.
     */
    appendEvent(event: AgentEvent | string): this;
    /**
     * Applies events in order and returns this message. On the first rejected event it
     * throws that event's `MsgError`; the events before it stay applied.
     */
    appendEvents(events: Iterable<AgentEvent | string>): this;
    /**
     * The caps on what events may add to this message (see {@link MsgLimits}); a message
     * of a `Session` has the session's.
     */
    get limits(): Required<MsgLimits>;
    /**
     * Sets the caps on what events may add from now on (the ones not given keep their
     * value) and returns this message. Throws `MsgError` (`invalid_argument`) for a value
     * that is not an integer from 0 (no cap) to 2^32 - 1.
     */
    setLimits(limits: MsgLimits): this;
    /**
     * What the message took in, in bytes: its wire JSON when it was made plus every event
     * applied since (a delta its payload, any other event its wire JSON); `maxMessageBytes`
     * caps it.
     */
    get takenBytes(): number;
    /** The message as wire JSON (frozen; cached until the message changes). */
    toJSON(): MsgJSON;
    /** The message's wire JSON text (compact, keys in the reference's order). */
    toJSONString(): string;
    /** A counter that grows whenever the message changes. */
    get revision(): number;
    /** Speaker name. */
    get name(): string;
    /** Content blocks (frozen). */
    get content(): readonly ContentBlock[];
    /** `user`, `assistant` or `system`. */
    get role(): Role;
    /** Message id (the `reply_id` of its events). */
    get id(): string;
    /** Metadata. */
    get metadata(): MsgJSON["metadata"];
    /** Creation time. */
    get created_at(): string;
    /** Summed token usage, or null. */
    get usage(): Usage | null;
    /** When the reply ended, or null. */
    get finished_at(): string | null;
    /** Why the reply ended, or null. */
    get finished_reason(): ReplyFinishedReason | null;
    /** Structured output, or null. */
    get structured_output(): MsgJSON["structured_output"];
    /** The error the reply ended with, or null. */
    get error(): ErrorInfo | null;
    /**
     * The texts of all `text` blocks joined with `separator` (default `"\n"`); `null` when
     * there is none. Thinking, hints and tool outputs are not included.
     */
    getTextContent(separator?: string): string | null;
    /** The blocks of a type (or of any of several types; all blocks when omitted). */
    getContentBlocks<T extends ContentBlockType>(type: T): readonly Extract<ContentBlock, {
        type: T;
    }>[];
    getContentBlocks(type?: ContentBlockType | readonly ContentBlockType[] | null): readonly ContentBlock[];
    /** Whether the message has blocks of a type (or of any of several; any when omitted). */
    hasContentBlocks(type?: ContentBlockType | readonly ContentBlockType[] | null): boolean;
    /** Releases the wasm memory now; later calls throw `MsgError` with code `freed`. */
    free(): void;
    /** `using msg = ...` frees the message at the end of the scope. */
    [Symbol.dispose](): void;
}
/**
 * `UserMsg`: a `user` message; a string content becomes one text block; only text and
 * data blocks are allowed; `finished_at` defaults to `created_at`.
 */
export declare class UserMsg extends Msg {
    constructor(options: MsgOptions);
}
/** `AssistantMsg`: an `assistant` message (any blocks); `finished_at` stays null. */
export declare class AssistantMsg extends Msg {
    constructor(options: AssistantMsgOptions);
}
/** `SystemMsg`: a `system` message; only text blocks; `finished_at` defaults to `created_at`. */
export declare class SystemMsg extends Msg {
    constructor(options: MsgOptions);
}
/**
 * Replaces the id factory used for every generated id (`null` restores uuid4 hex). A
 * factory that throws or returns a non-string falls back to the default.
 */
export declare function setIdFactory(factory: (() => string) | null): void;
/**
 * Replaces the timestamp factory used for every generated timestamp (`null` restores
 * `new Date().toISOString()`). A factory that throws or returns a non-string falls back
 * to the default.
 */
export declare function setTimestampFactory(factory: (() => string) | null): void;
