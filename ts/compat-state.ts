// `@agentscope-ai/agentscope/state` (`agentscope-message/compat`): an agent session's
// persisted state as agentscope 2.0.11 stores it (`AgentState.model_dump(mode="json")`:
// `session_id`, `summary`, `context`, `reply_context`, `permission_context`,
// `tool_context`, `tasks_context`, `middle_context`), its classes with the SDK's camelCase
// fields and `toJSON()` to the wire, tasks, and the parsers. Messages and blocks in it are
// validated by the wasm core (`parseMsg`, the block schemas).
import { MsgError, call } from "./errors.js";
import { AssistantMsg, getContentBlocks, createPermissionContext } from "./compat-msg.js";
import type { ContentBlock, DataBlock, Msg, PermissionContext, Task, TaskContext as TaskContextShape, TextBlock, ToolCallBlock } from "./compat-types.js";
import { DataBlockSchema, TextBlockSchema, objectOf, parseMsg, schema, type Schema } from "./compat-parse.js";
import { PermissionContextSchema } from "./compat-permission.js";
import { MsgHandle } from "./wasm/agentscope_message.js";

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

/** A fresh id and timestamp from the package's factories (`setIdFactory`, `setTimestampFactory`). */
function generated(): { id: string; created_at: string } {
  const handle = call(() => MsgHandle.fromJSON('{"name":"","role":"assistant","content":[]}'));
  try {
    const { id, created_at } = JSON.parse(handle.toJSONString()) as { id: string; created_at: string };
    return { id, created_at };
  } finally {
    handle.free();
  }
}

function text(value: unknown, what: string): string {
  if (typeof value !== "string") throw new MsgError("invalid_content", `${what} must be a string, got ${value === null ? "null" : typeof value}`);
  return value;
}

function strings(value: unknown, what: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) throw new MsgError("invalid_content", `${what} must be a list of strings`);
  return value.slice();
}

const TASK_STATES: readonly TaskState[] = ["pending", "in_progress", "completed"];

/**
 * A task with Python's defaults (`agentscope` `Task`): `created_at` now, `state`
 * `pending`, `id` generated, `owner` null, `blocks` / `blocked_by` `[]`. Throws `MsgError`
 * `invalid_content` for a field of the wrong type.
 */
export function createTask(options: CreateTaskOptions): Task {
  const o = objectOf(options, "invalid_argument", "createTask's options") as Partial<CreateTaskOptions>;
  return TaskSchema.parse({
    subject: o.subject,
    description: o.description,
    metadata: o.metadata,
    created_at: o.createdAt,
    state: o.state,
    id: o.id,
    owner: o.owner,
    blocks: o.blocks,
    blocked_by: o.blockedBy,
  });
}

/** A task (snake_case wire keys): `subject`, `description`, `metadata` required, the rest defaulted as {@link createTask}. */
export const TaskSchema: Schema<Task> = schema((input) => {
  const o = objectOf(input, "invalid_content", "a task");
  const state = o.state ?? "pending";
  if (!TASK_STATES.includes(state as TaskState)) throw new MsgError("invalid_content", `a task's state must be one of ${TASK_STATES.join(", ")}, got ${JSON.stringify(state)}`);
  const subject = text(o.subject, "a task's subject");
  const description = text(o.description, "a task's description");
  const metadata = { ...objectOf(o.metadata, "invalid_content", "a task's metadata") };
  const fresh = o.created_at === undefined || o.id === undefined ? generated() : undefined;
  return {
    subject,
    description,
    metadata,
    created_at: o.created_at === undefined ? fresh!.created_at : text(o.created_at, "a task's created_at"),
    state: state as TaskState,
    id: o.id === undefined ? fresh!.id : text(o.id, "a task's id"),
    owner: o.owner === undefined || o.owner === null ? null : text(o.owner, "a task's owner"),
    blocks: o.blocks === undefined ? [] : strings(o.blocks, "a task's blocks"),
    blocked_by: o.blocked_by === undefined ? [] : strings(o.blocked_by, "a task's blocked_by"),
  };
});

/** Parses a task ({@link TaskSchema}); `MsgError` `invalid_content`. */
export function parseTask(input: unknown): Task {
  return TaskSchema.parse(input);
}

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

/** The modification time of a host file in POSIX seconds, or null (none, or no file system: a browser). */
async function mtimeOf(path: string): Promise<number | null> {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const fs = proc?.getBuiltinModule?.("node:fs/promises") as { stat(p: string): Promise<{ mtimeMs: number }> } | undefined;
  if (fs === undefined) return null;
  try {
    return (await fs.stat(path)).mtimeMs / 1000;
  } catch {
    return null;
  }
}

/**
 * The file tools' read cache (least recently used first) and the activated tool groups,
 * as the SDK's `ToolContext` (Python's `ToolContext`). `maxCacheFiles` (default 100) must
 * be more than 1 and `maxCacheBytes` (KiB, default 25,000) more than 10,000: `MsgError`
 * `invalid_argument` otherwise. Without `mtime`, a file's time is read from the host file
 * system (node; none in a browser).
 */
export class ToolContext {
  maxCacheFiles: number;
  maxCacheBytes: number;
  readFileCache: ReadCacheEntry[];
  activatedGroups: string[];

  constructor(options: ToolContextOptions = {}) {
    const maxCacheFiles = options.maxCacheFiles ?? 100;
    const maxCacheBytes = options.maxCacheBytes ?? 25_000;
    if (!(maxCacheFiles > 1)) throw new MsgError("invalid_argument", "maxCacheFiles must be greater than 1.");
    if (!(maxCacheBytes > 10_000)) throw new MsgError("invalid_argument", "maxCacheBytes must be greater than 10000.");
    this.maxCacheFiles = maxCacheFiles;
    this.maxCacheBytes = maxCacheBytes;
    this.readFileCache = options.readFileCache ?? [];
    this.activatedGroups = options.activatedGroups ?? [];
  }

  /** The cached entry of a file, made the most recent; `null` when absent or stale (then dropped). */
  async getCache(options: { filePath: string; mtime?: number | null }): Promise<ReadCacheEntry | null> {
    const entry = this.readFileCache.find((e) => e.file_path === options.filePath);
    if (entry === undefined) return null;
    const mtime = options.mtime ?? (await mtimeOf(options.filePath));
    const at = this.readFileCache.indexOf(entry);
    if (at === -1) return null;
    this.readFileCache.splice(at, 1);
    if (mtime !== entry.updated_at) return null;
    this.readFileCache.push(entry);
    return entry;
  }

  /** Caches a file's lines (nothing without a modification time), evicting the least
   * recent entries past the file and size limits. */
  async cacheFile(options: { filePath: string; lines: string[]; mtime?: number | null }): Promise<void> {
    const mtime = options.mtime ?? (await mtimeOf(options.filePath));
    if (mtime === null || mtime === undefined) return;
    const encoder = new TextEncoder();
    const kib = options.lines.reduce((n, line) => n + encoder.encode(line).byteLength, 0) / 1024;
    this.readFileCache = this.readFileCache.filter((e) => e.file_path !== options.filePath);
    while (this.readFileCache.length >= this.maxCacheFiles) this.readFileCache.shift();
    let size = this.readFileCache.reduce((n, e) => n + e.bytes, 0);
    while (this.readFileCache.length > 0 && size + kib > this.maxCacheBytes) size -= this.readFileCache.shift()!.bytes;
    this.readFileCache.push({ lines: options.lines, updated_at: mtime, bytes: kib, file_path: options.filePath });
  }

  /** Keeps only the cached files in `reservedFilePaths` (none when absent). */
  async cleanFileCache(options: { reservedFilePaths?: Set<string> } = {}): Promise<void> {
    const keep = options.reservedFilePaths ?? new Set<string>();
    this.readFileCache = this.readFileCache.filter((e) => keep.has(e.file_path));
  }

  /** The wire form. */
  toJSON(): ToolContextWire {
    return { max_cache_files: this.maxCacheFiles, max_cache_bytes: this.maxCacheBytes, read_file_cache: this.readFileCache, activated_groups: this.activatedGroups };
  }

  /** From the wire form (absent keys: the defaults). */
  static fromJSON(value: Partial<ToolContextWire> = {}): ToolContext {
    return new ToolContext({ maxCacheFiles: value.max_cache_files, maxCacheBytes: value.max_cache_bytes, readFileCache: value.read_file_cache, activatedGroups: value.activated_groups });
  }
}

/** A JSON Schema object. */
export type JSONSchema = Record<string, unknown>;
/** A structured-output schema: JSON Schema, an object that converts itself
 * (`toJSONSchema()`; for a zod schema pass `z.toJSONSchema(schema)`), or null. */
export type StructuredSchema = JSONSchema | { toJSONSchema(): JSONSchema } | null;

/** A {@link ReplyContext} on the wire. */
export interface ReplyContextWire {
  reply_id: string;
  cur_iter: number;
  structured_schema: JSONSchema | null;
  structured_output: Record<string, unknown> | null;
}

/** The current reply's id, iteration and structured output (Python's `ReplyContext`). */
export class ReplyContext {
  replyId: string;
  curIter: number;
  structuredSchema: StructuredSchema;
  structuredOutput: Record<string, unknown> | null;

  /** `replyId` generated and `curIter` 0 when absent. */
  constructor(options: { replyId?: string; curIter?: number; structuredSchema?: StructuredSchema; structuredOutput?: Record<string, unknown> | null } = {}) {
    this.replyId = options.replyId ?? generated().id;
    this.curIter = options.curIter ?? 0;
    this.structuredSchema = options.structuredSchema ?? null;
    this.structuredOutput = options.structuredOutput ?? null;
  }

  /** The wire form (a schema object converted with its `toJSONSchema()`). */
  toJSON(): ReplyContextWire {
    const s = this.structuredSchema;
    const structured = s !== null && typeof (s as { toJSONSchema?: unknown }).toJSONSchema === "function" ? (s as { toJSONSchema(): JSONSchema }).toJSONSchema() : (s as JSONSchema | null);
    return { reply_id: this.replyId, cur_iter: this.curIter, structured_schema: structured, structured_output: this.structuredOutput };
  }
}

/** A task list on the wire (`state.tasks_context`). */
export interface TaskContextWire {
  tasks: Task[];
}

/** A task list: the plain `{tasks}` the service sends, or a `new TaskContext(...)`. */
export type TaskContext = TaskContextShape;
/** `new TaskContext({tasks?})`: a task list with `toJSON()` (the SDK's class; `instanceof` works). */
export const TaskContext: {
  new (options?: { tasks?: Task[] }): TaskContextShape & { toJSON(): TaskContextWire };
  readonly prototype: TaskContextShape & { toJSON(): TaskContextWire };
} = class TaskContext {
  tasks: Task[];
  constructor(options: { tasks?: Task[] } = {}) {
    this.tasks = options.tasks ?? [];
  }
  toJSON(): TaskContextWire {
    return { tasks: this.tasks };
  }
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
export class AgentState {
  sessionId: string;
  summary: StateSummary;
  context: Msg[];
  replyContext: ReplyContext;
  permissionContext: PermissionContext;
  toolContext: ToolContext;
  tasksContext: TaskContext;
  middleContext: Record<string, unknown>;

  constructor(options: AgentStateOptions = {}) {
    this.sessionId = options.sessionId ?? generated().id;
    this.summary = options.summary ?? "";
    this.context = options.context ?? [];
    this.replyContext = options.replyContext ?? new ReplyContext();
    this.permissionContext = options.permissionContext ?? createPermissionContext();
    this.toolContext = options.toolContext ?? new ToolContext();
    this.tasksContext = options.tasksContext ?? new TaskContext();
    this.middleContext = options.middleContext ?? {};
  }

  /** The current reply's id (`replyContext.replyId`). */
  get replyId(): string {
    return this.replyContext.replyId;
  }
  set replyId(value: string) {
    this.replyContext.replyId = value;
  }

  /** The current iteration (`replyContext.curIter`). */
  get curIter(): number {
    return this.replyContext.curIter;
  }
  set curIter(value: number) {
    this.replyContext.curIter = value;
  }

  /** Appends blocks to the last message when it is this reply's assistant message of
   * `name`, else a new assistant message (id `replyId`) with them. */
  appendContext(options: { name: string; blocks: ContentBlock[] }): void {
    const last = this.context.at(-1);
    if (last?.role === "assistant" && last.name === options.name && last.id === this.replyId) {
      last.content.push(...options.blocks);
      return;
    }
    this.context.push(AssistantMsg({ id: this.replyId, name: options.name, content: options.blocks }));
  }

  /** Whether the last message (the assistant `name`'s) has calls waiting on the user or an outside executor. */
  hasAwaitingToolCalls(options: { name: string }): boolean {
    return this.getAwaitingToolCalls(options).length > 0;
  }

  /** The last message's (the assistant `name`'s) calls that are `asking`, or `submitted` without a result. */
  getAwaitingToolCalls(options: { name: string }): ToolCallBlock[] {
    const last = this.context.at(-1);
    if (last?.role !== "assistant" || last.name !== options.name) return [];
    const answered = new Set(getContentBlocks(last, "tool_result").map((r) => r.id));
    return getContentBlocks(last, "tool_call").filter((c) => c.state === "asking" || (c.state === "submitted" && !answered.has(c.id)));
  }

  /** The current reply's calls without a result (when the last message is that reply of `name`). */
  getUnfinishedToolCalls(options: { name: string }): ToolCallBlock[] {
    const last = this.context.at(-1);
    if (last?.role !== "assistant" || last.name !== options.name || last.id !== this.replyId) return [];
    const answered = new Set(getContentBlocks(last, "tool_result").map((r) => r.id));
    return getContentBlocks(last, "tool_call").filter((c) => !answered.has(c.id));
  }

  /** The wire form. */
  toJSON(): AgentStateWire {
    const tasks = this.tasksContext as TaskContext & { toJSON?: () => TaskContextWire };
    return {
      session_id: this.sessionId,
      summary: this.summary,
      context: this.context,
      reply_context: this.replyContext.toJSON(),
      permission_context: this.permissionContext,
      tool_context: this.toolContext.toJSON(),
      tasks_context: typeof tasks.toJSON === "function" ? tasks.toJSON() : { tasks: tasks.tasks },
      middle_context: this.middleContext,
    };
  }
}

/**
 * A stored state (the current form, or the older one with `reply_id` / `cur_iter` at the
 * top), every part validated (messages by the core, as `parseMsg`) and defaulted, as an
 * {@link AgentState}.
 */
export const AgentStateSchema: Schema<AgentState> = schema((input) => {
  const o = objectOf(input, "invalid_content", "an agent state");
  const part = (v: unknown, what: string) => (v === undefined ? undefined : objectOf(v, "invalid_content", what));
  const reply = { ...part(o.reply_context, "reply_context") };
  if (reply.reply_id === undefined && o.reply_id !== undefined) reply.reply_id = o.reply_id;
  if (reply.cur_iter === undefined && o.cur_iter !== undefined) reply.cur_iter = o.cur_iter;
  if (reply.reply_id !== undefined) text(reply.reply_id, "reply_context.reply_id");
  if (reply.cur_iter !== undefined && !Number.isInteger(reply.cur_iter)) throw new MsgError("invalid_content", "reply_context.cur_iter must be an integer");
  const summary = o.summary;
  if (summary !== undefined && typeof summary !== "string" && !Array.isArray(summary)) throw new MsgError("invalid_content", "summary must be a string or a list of blocks");
  if (o.context !== undefined && !Array.isArray(o.context)) throw new MsgError("invalid_content", "context must be a list of messages");
  if (o.session_id !== undefined) text(o.session_id, "session_id");
  const tool = part(o.tool_context, "tool_context") as Partial<ToolContextWire> | undefined;
  const tasks = part(o.tasks_context, "tasks_context");
  if (tasks?.tasks !== undefined && !Array.isArray(tasks.tasks)) throw new MsgError("invalid_content", "tasks_context.tasks must be a list");
  return new AgentState({
    sessionId: o.session_id as string | undefined,
    summary: Array.isArray(summary) ? summary.map((b) => ((b as { type?: unknown })?.type === "data" ? DataBlockSchema.parse(b) : TextBlockSchema.parse(b))) : (summary as string | undefined),
    context: (o.context as unknown[] | undefined)?.map((m) => parseMsg(m)),
    replyContext: new ReplyContext({
      replyId: reply.reply_id as string | undefined,
      curIter: reply.cur_iter as number | undefined,
      structuredSchema: (reply.structured_schema ?? null) as JSONSchema | null,
      structuredOutput: (reply.structured_output ?? null) as Record<string, unknown> | null,
    }),
    permissionContext: o.permission_context === undefined ? undefined : PermissionContextSchema.parse(o.permission_context),
    toolContext: ToolContext.fromJSON(tool),
    tasksContext: new TaskContext({ tasks: (tasks?.tasks as unknown[] | undefined)?.map((t) => TaskSchema.parse(t)) }),
    middleContext: part(o.middle_context, "middle_context"),
  });
});

/** Parses a stored agent state ({@link AgentStateSchema}); `MsgError` `invalid_content`, or the core's for a message. */
export function parseAgentState(input: unknown): AgentState {
  return AgentStateSchema.parse(input);
}
