import type { ContentBlock, DataBlock, Msg, PermissionContext, Task, TaskContext as TaskContextShape, TextBlock, ToolCallBlock } from "./compat-types.js";
import { type Schema } from "./compat-parse.js";
/** `pending`, `in_progress` or `completed`. */
export type TaskState = Task["state"];
/** What {@link createTask} takes (camelCase, as the SDK's). */
export interface CreateTaskOptions {
    subject: string;
    description: string;
    metadata: Record<string, unknown>;
    createdAt?: string;
    state?: TaskState;
    id?: string;
    owner?: string | null;
    blocks?: string[];
    blockedBy?: string[];
}
/**
 * A task with Python's defaults (`agentscope` `Task`): `created_at` now, `state`
 * `pending`, `id` generated, `owner` null, `blocks` / `blocked_by` `[]`. Throws `MsgError`
 * `invalid_content` for a field of the wrong type.
 */
export declare function createTask(options: CreateTaskOptions): Task;
/** A task (snake_case wire keys): `subject`, `description`, `metadata` required, the rest defaulted as {@link createTask}. */
export declare const TaskSchema: Schema<Task>;
/** Parses a task ({@link TaskSchema}); `MsgError` `invalid_content`. */
export declare function parseTask(input: unknown): Task;
/** One cached file of the file tools. */
export interface ReadCacheEntry {
    lines: string[];
    /** The file's modification time (POSIX seconds) when read. */
    updated_at: number;
    /** Its size in KiB (as Python counts it). */
    bytes: number;
    file_path: string;
}
/** A {@link ToolContext} on the wire. */
export interface ToolContextWire {
    max_cache_files: number;
    max_cache_bytes: number;
    read_file_cache: ReadCacheEntry[];
    activated_groups: string[];
}
/** What `new ToolContext(...)` takes. */
export interface ToolContextOptions {
    maxCacheFiles?: number;
    maxCacheBytes?: number;
    readFileCache?: ReadCacheEntry[];
    activatedGroups?: string[];
}
/**
 * The file tools' read cache (least recently used first) and the activated tool groups,
 * as the SDK's `ToolContext` (Python's `ToolContext`). `maxCacheFiles` (default 100) must
 * be more than 1 and `maxCacheBytes` (KiB, default 25,000) more than 10,000: `MsgError`
 * `invalid_argument` otherwise. Without `mtime`, a file's time is read from the host file
 * system (node; none in a browser).
 */
export declare class ToolContext {
    maxCacheFiles: number;
    maxCacheBytes: number;
    readFileCache: ReadCacheEntry[];
    activatedGroups: string[];
    constructor(options?: ToolContextOptions);
    /** The cached entry of a file, made the most recent; `null` when absent or stale (then dropped). */
    getCache(options: {
        filePath: string;
        mtime?: number | null;
    }): Promise<ReadCacheEntry | null>;
    /** Caches a file's lines (nothing without a modification time), evicting the least
     * recent entries past the file and size limits. */
    cacheFile(options: {
        filePath: string;
        lines: string[];
        mtime?: number | null;
    }): Promise<void>;
    /** Keeps only the cached files in `reservedFilePaths` (none when absent). */
    cleanFileCache(options?: {
        reservedFilePaths?: Set<string>;
    }): Promise<void>;
    /** The wire form. */
    toJSON(): ToolContextWire;
    /** From the wire form (absent keys: the defaults). */
    static fromJSON(value?: Partial<ToolContextWire>): ToolContext;
}
/** A JSON Schema object. */
export type JSONSchema = Record<string, unknown>;
/** A structured-output schema: JSON Schema, an object that converts itself
 * (`toJSONSchema()`; for a zod schema pass `z.toJSONSchema(schema)`), or null. */
export type StructuredSchema = JSONSchema | {
    toJSONSchema(): JSONSchema;
} | null;
/** A {@link ReplyContext} on the wire. */
export interface ReplyContextWire {
    reply_id: string;
    cur_iter: number;
    structured_schema: JSONSchema | null;
    structured_output: Record<string, unknown> | null;
}
/** The current reply's id, iteration and structured output (Python's `ReplyContext`). */
export declare class ReplyContext {
    replyId: string;
    curIter: number;
    structuredSchema: StructuredSchema;
    structuredOutput: Record<string, unknown> | null;
    /** `replyId` generated and `curIter` 0 when absent. */
    constructor(options?: {
        replyId?: string;
        curIter?: number;
        structuredSchema?: StructuredSchema;
        structuredOutput?: Record<string, unknown> | null;
    });
    /** The wire form (a schema object converted with its `toJSONSchema()`). */
    toJSON(): ReplyContextWire;
}
/** A task list on the wire (`state.tasks_context`). */
export interface TaskContextWire {
    tasks: Task[];
}
/** A task list: the plain `{tasks}` the service sends, or a `new TaskContext(...)`. */
export type TaskContext = TaskContextShape;
/** `new TaskContext({tasks?})`: a task list with `toJSON()` (the SDK's class; `instanceof` works). */
export declare const TaskContext: {
    new (options?: {
        tasks?: Task[];
    }): TaskContextShape & {
        toJSON(): TaskContextWire;
    };
    readonly prototype: TaskContextShape & {
        toJSON(): TaskContextWire;
    };
};
/** A session summary: text, or text and data blocks. */
export type StateSummary = string | Array<TextBlock | DataBlock>;
/** An {@link AgentState} on the wire (Python's `AgentState` dump). */
export interface AgentStateWire {
    session_id: string;
    summary: StateSummary;
    context: Msg[];
    reply_context: ReplyContextWire;
    permission_context: PermissionContext;
    tool_context: ToolContextWire;
    tasks_context: TaskContextWire;
    middle_context: Record<string, unknown>;
}
/** What `new AgentState(...)` takes. */
export interface AgentStateOptions {
    sessionId?: string;
    summary?: StateSummary;
    context?: Msg[];
    replyContext?: ReplyContext;
    permissionContext?: PermissionContext;
    toolContext?: ToolContext;
    tasksContext?: TaskContext;
    middleContext?: Record<string, unknown>;
}
/**
 * One agent session's state (the SDK's `AgentState`, Python's): its context messages, the
 * current reply, permissions, tool cache, tasks and middleware state; absent parts are
 * fresh (a generated `sessionId`, `summary` `""`).
 */
export declare class AgentState {
    sessionId: string;
    summary: StateSummary;
    context: Msg[];
    replyContext: ReplyContext;
    permissionContext: PermissionContext;
    toolContext: ToolContext;
    tasksContext: TaskContext;
    middleContext: Record<string, unknown>;
    constructor(options?: AgentStateOptions);
    /** The current reply's id (`replyContext.replyId`). */
    get replyId(): string;
    set replyId(value: string);
    /** The current iteration (`replyContext.curIter`). */
    get curIter(): number;
    set curIter(value: number);
    /** Appends blocks to the last message when it is this reply's assistant message of
     * `name`, else a new assistant message (id `replyId`) with them. */
    appendContext(options: {
        name: string;
        blocks: ContentBlock[];
    }): void;
    /** Whether the last message (the assistant `name`'s) has calls waiting on the user or an outside executor. */
    hasAwaitingToolCalls(options: {
        name: string;
    }): boolean;
    /** The last message's (the assistant `name`'s) calls that are `asking`, or `submitted` without a result. */
    getAwaitingToolCalls(options: {
        name: string;
    }): ToolCallBlock[];
    /** The current reply's calls without a result (when the last message is that reply of `name`). */
    getUnfinishedToolCalls(options: {
        name: string;
    }): ToolCallBlock[];
    /** The wire form. */
    toJSON(): AgentStateWire;
}
/**
 * A stored state (the current form, or the older one with `reply_id` / `cur_iter` at the
 * top), every part validated (messages by the core, as `parseMsg`) and defaulted, as an
 * {@link AgentState}.
 */
export declare const AgentStateSchema: Schema<AgentState>;
/** Parses a stored agent state ({@link AgentStateSchema}); `MsgError` `invalid_content`, or the core's for a message. */
export declare function parseAgentState(input: unknown): AgentState;
