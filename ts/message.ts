// `Msg` and its factories: a thin class over the wasm handle that owns the message.
import {
  MsgHandle,
  setIdFactory as wasmSetIdFactory,
  setTimestampFactory as wasmSetTimestampFactory,
} from "./wasm/agentscope_message.js";
import type * as Gen from "./wasm/agentscope_message.js";
import type { ReplyFinishedReason, Role } from "./wasm/agentscope_message.js";
import type { AgentEvent } from "./wasm/agentscope_message.js";
import { MsgError, call, capsJSON, expectString, rethrow, toJSONText } from "./errors.js";
import { applyChanges, type MessageChanges } from "./snapshot.js";
import { DeltaBatch, deltaKind, parts, type DeltaObject } from "./hot.js";

export { EventType } from "./event-type.js";
export { MsgError, type MsgErrorCode } from "./errors.js";
export type { AgentEvent } from "./event-type.js";

/**
 * The shape of wire JSON as this package hands it out: every declared key present
 * (`null` where empty), as the reference's `model_dump(mode="json")` writes it. (The
 * generated input types mark keys with defaults as optional.)
 */
export type Wire<T> = T extends readonly (infer U)[]
  ? readonly Wire<U>[]
  : T extends object
    ? { readonly [K in keyof T]-?: Wire<Exclude<T[K], undefined>> }
    : T;

/** A content block as read from a message, tagged by `type`. */
export type ContentBlock = Wire<Gen.ContentBlock>;
/** A `text` block. */
export type TextBlock = Extract<ContentBlock, { type: "text" }>;
/** A `thinking` block (extra provider keys are kept). */
export type ThinkingBlock = Extract<ContentBlock, { type: "thinking" }>;
/** A `data` block with a base64 or URL source. */
export type DataBlock = Extract<ContentBlock, { type: "data" }>;
/** A `hint` block. */
export type HintBlock = Extract<ContentBlock, { type: "hint" }>;
/** A `tool_call` block (`input` is the raw JSON string of the arguments). */
export type ToolCallBlock = Extract<ContentBlock, { type: "tool_call" }>;
/** A `tool_result` block. */
export type ToolResultBlock = Extract<ContentBlock, { type: "tool_result" }>;
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
// The string unions, re-exported as the generated declarations name them (not aliased),
// so that a declaration emit of an inferred snapshot type can name them from the package
// (TS2742 / TS2883 otherwise): `Role`, `ReplyFinishedReason`, `FinishedReason`,
// `ToolCallState`, `ToolResultState`, `ErrorType`, `PermissionBehavior`, `BlockKind`.
export type {
  Role,
  ReplyFinishedReason,
  FinishedReason,
  ToolCallState,
  ToolResultState,
  ErrorType,
  PermissionBehavior,
  BlockKind,
} from "./wasm/agentscope_message.js";
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

// A handle made by a factory, adopted by the next constructor call (see `Msg` below).
let adopt: MsgHandle | undefined;

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
export class Msg {
  #handle: MsgHandle | undefined;
  #snapshot: MsgJSON | undefined;
  #revision = -1;
  #blocks: unknown[] = [];
  #deltas = new DeltaBatch();

  /**
   * Builds and validates a message from wire JSON, like the reference's `Msg(...)`:
   * `content` must be a list; role rules apply (user: text and data blocks; system:
   * text blocks). Throws `MsgError` (`role_violation`, `invalid_role`,
   * `invalid_content`, `invalid_msg`, `invalid_url`).
   */
  constructor(init: MsgInit) {
    const handle = adopt;
    adopt = undefined;
    this.#handle = handle ?? call(() => MsgHandle.fromJSON(toJSONText(init, "a message")));
  }

  /** Parses and validates a message from wire JSON (an object or its text). */
  static fromJSON(json: MsgInit | MsgJSON | string): Msg {
    const text = typeof json === "string" ? json : toJSONText(json, "a message");
    adopt = call(() => MsgHandle.fromJSON(text));
    return new Msg(undefined as unknown as MsgInit);
  }

  /** The handle, with the deltas joined so far sent (every call but a joined delta's). */
  get #h(): MsgHandle {
    const handle = this.#handle;
    if (handle === undefined) throw new MsgError("freed", "this message was freed");
    try {
      this.#deltas.flush(handle, false);
    } catch (error) {
      rethrow(error);
    }
    return handle;
  }

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
  appendEvent(event: AgentEvent | string): this {
    if (typeof event === "object" && event !== null) {
      const e = event as DeltaObject;
      const kind = deltaKind(e);
      if (kind >= 0) {
        // a text delta crosses as its strings, or joins the deltas before it (hot.ts)
        const handle = this.#handle;
        if (handle === undefined) throw new MsgError("freed", "this message was freed");
        const deltas = this.#deltas;
        const { reply, target, delta } = parts;
        if (deltas.joinable(kind, reply, target, delta) >= 0) {
          deltas.commit(delta);
          return this;
        }
        try {
          deltas.send(handle, kind, reply, target, delta, false);
        } catch (error) {
          rethrow(error);
        }
        return this;
      }
    }
    const json = typeof event === "string" ? event : toJSONText(event, "an event");
    call(() => this.#h.appendEvent(json));
    return this;
  }

  /**
   * Applies events in order and returns this message. On the first rejected event it
   * throws that event's `MsgError`; the events before it stay applied.
   */
  appendEvents(events: Iterable<AgentEvent | string>): this {
    if (typeof (events as { [Symbol.iterator]?: unknown } | null)?.[Symbol.iterator] !== "function") {
      throw new MsgError("invalid_argument", "appendEvents takes an iterable of events");
    }
    for (const event of events) this.appendEvent(event);
    return this;
  }

  /**
   * The caps on what events may add to this message (see {@link MsgLimits}); a message
   * of a `Session` has the session's.
   */
  get limits(): Required<MsgLimits> {
    const [maxDeltaBytes, maxBlockBytes, maxMessageBytes, maxBlocks] = this.#h.limits();
    return { maxDeltaBytes: maxDeltaBytes!, maxBlockBytes: maxBlockBytes!, maxMessageBytes: maxMessageBytes!, maxBlocks: maxBlocks! };
  }

  /**
   * Sets the caps on what events may add from now on (the ones not given keep their
   * value) and returns this message. Throws `MsgError` (`invalid_argument`) for a value
   * that is not an integer from 0 (no cap) to 2^32 - 1.
   */
  setLimits(limits: MsgLimits): this {
    if (typeof limits !== "object" || limits === null) throw new MsgError("invalid_argument", "setLimits takes an object");
    const { maxDeltaBytes, maxBlockBytes, maxMessageBytes, maxBlocks, ...rest } = limits;
    const unknown = Object.keys(rest);
    if (unknown.length > 0) throw new MsgError("invalid_argument", `unknown limit ${unknown[0]}`);
    const caps = capsJSON({ maxDeltaBytes, maxBlockBytes, maxMessageBytes, maxBlocks }, "limit");
    const [delta, block, message, blocks] = this.#h.limits();
    const h = this.#h;
    call(() =>
      h.setLimits(
        caps.max_delta_bytes ?? delta!,
        caps.max_block_bytes ?? block!,
        caps.max_message_bytes ?? message!,
        caps.max_blocks ?? blocks!,
      ),
    );
    return this;
  }

  /**
   * What the message took in, in bytes: its wire JSON when it was made plus every event
   * applied since (a delta its payload, any other event its wire JSON); `maxMessageBytes`
   * caps it.
   */
  get takenBytes(): number {
    return this.#h.takenBytes();
  }

  /** The message as wire JSON (frozen; cached until the message changes). */
  toJSON(): MsgJSON {
    const h = this.#h;
    const revision = h.revision();
    if (this.#snapshot !== undefined && revision === this.#revision) return this.#snapshot;
    // one call hands out what changed since the last read (MsgError `limit_exceeded` for
    // a string longer than a JS string may be: the message is unchanged)
    const read = JSON.parse(call(() => h.readChanges())) as MessageChanges;
    this.#snapshot = applyChanges(this.#blocks, read) as MsgJSON;
    this.#revision = revision;
    return this.#snapshot;
  }

  /** The message's wire JSON text (compact, keys in the reference's order). */
  toJSONString(): string {
    return this.#h.toJSONString();
  }

  /** A counter that grows whenever the message changes. */
  get revision(): number {
    return this.#h.revision();
  }

  /** Speaker name. */
  get name(): string {
    return this.toJSON().name;
  }
  /** Content blocks (frozen). */
  get content(): readonly ContentBlock[] {
    return this.toJSON().content;
  }
  /** `user`, `assistant` or `system`. */
  get role(): Role {
    return this.toJSON().role;
  }
  /** Message id (the `reply_id` of its events). */
  get id(): string {
    return this.toJSON().id;
  }
  /** Metadata. */
  get metadata(): MsgJSON["metadata"] {
    return this.toJSON().metadata;
  }
  /** Creation time. */
  get created_at(): string {
    return this.toJSON().created_at;
  }
  /** Summed token usage, or null. */
  get usage(): Usage | null {
    return this.toJSON().usage;
  }
  /** When the reply ended, or null. */
  get finished_at(): string | null {
    return this.toJSON().finished_at;
  }
  /** Why the reply ended, or null. */
  get finished_reason(): ReplyFinishedReason | null {
    return this.toJSON().finished_reason;
  }
  /** Structured output, or null. */
  get structured_output(): MsgJSON["structured_output"] {
    return this.toJSON().structured_output;
  }
  /** The error the reply ended with, or null. */
  get error(): ErrorInfo | null {
    return this.toJSON().error;
  }

  /**
   * The texts of all `text` blocks joined with `separator` (default `"\n"`); `null` when
   * there is none. Thinking, hints and tool outputs are not included.
   */
  getTextContent(separator = "\n"): string | null {
    return this.#h.getTextContent(expectString(separator, "separator")) ?? null;
  }

  /** The blocks of a type (or of any of several types; all blocks when omitted). */
  getContentBlocks<T extends ContentBlockType>(type: T): readonly Extract<ContentBlock, { type: T }>[];
  getContentBlocks(type?: ContentBlockType | readonly ContentBlockType[] | null): readonly ContentBlock[];
  getContentBlocks(type?: ContentBlockType | readonly ContentBlockType[] | null): readonly ContentBlock[] {
    const content = this.toJSON().content;
    return Object.freeze(Array.from(this.#h.contentBlockIndices(blockTypes(type)), (i) => content[i]!));
  }

  /** Whether the message has blocks of a type (or of any of several; any when omitted). */
  hasContentBlocks(type?: ContentBlockType | readonly ContentBlockType[] | null): boolean {
    return this.#h.hasContentBlocks(blockTypes(type));
  }

  /** Releases the wasm memory now; later calls throw `MsgError` with code `freed`. */
  free(): void {
    this.#handle?.free();
    this.#handle = undefined;
  }

  /** `using msg = ...` frees the message at the end of the scope. */
  [Symbol.dispose](): void {
    this.free();
  }
}

type Factory = "user" | "assistant" | "system";

/** A block-type filter as the core takes it: null, a string, or a list of strings. */
function blockTypes(type: unknown): string | string[] | null {
  if (type === undefined || type === null) return null;
  if (typeof type === "string") return type;
  if (Array.isArray(type) && type.every((t) => typeof t === "string")) return type;
  throw new MsgError("invalid_argument", "a block type filter must be a type string or a list of them");
}

function create(role: Factory, options: MsgOptions | AssistantMsgOptions): MsgHandle {
  if (typeof options !== "object" || options === null) {
    throw new MsgError("invalid_argument", "the factories take one options object: { name, content, ... }");
  }
  const { name, content, ...rest } = options;
  const contentJSON = typeof content === "string" ? JSON.stringify(content) : toJSONText(content, "content");
  return call(() => MsgHandle.create(role, expectString(name, "name"), contentJSON, toJSONText(rest, "the options")));
}

/**
 * `UserMsg`: a `user` message; a string content becomes one text block; only text and
 * data blocks are allowed; `finished_at` defaults to `created_at`.
 */
export class UserMsg extends Msg {
  constructor(options: MsgOptions) {
    adopt = create("user", options);
    super(undefined as unknown as MsgInit);
  }
}

/** `AssistantMsg`: an `assistant` message (any blocks); `finished_at` stays null. */
export class AssistantMsg extends Msg {
  constructor(options: AssistantMsgOptions) {
    adopt = create("assistant", options);
    super(undefined as unknown as MsgInit);
  }
}

/** `SystemMsg`: a `system` message; only text blocks; `finished_at` defaults to `created_at`. */
export class SystemMsg extends Msg {
  constructor(options: MsgOptions) {
    adopt = create("system", options);
    super(undefined as unknown as MsgInit);
  }
}

/**
 * Replaces the id factory used for every generated id (`null` restores uuid4 hex). A
 * factory that throws or returns a non-string falls back to the default.
 */
export function setIdFactory(factory: (() => string) | null): void {
  const f = expectFactory(factory, "setIdFactory");
  call(() => wasmSetIdFactory(f));
}

/**
 * Replaces the timestamp factory used for every generated timestamp (`null` restores
 * `new Date().toISOString()`). A factory that throws or returns a non-string falls back
 * to the default.
 */
export function setTimestampFactory(factory: (() => string) | null): void {
  const f = expectFactory(factory, "setTimestampFactory");
  call(() => wasmSetTimestampFactory(f));
}

/** A factory function, or `undefined` for `null` (the default); `invalid_argument` else. */
function expectFactory(factory: unknown, what: string): (() => string) | undefined {
  if (factory === null || factory === undefined) return undefined;
  if (typeof factory !== "function") throw new MsgError("invalid_argument", `${what} takes a function or null`);
  return factory as () => string;
}
