// `SessionsClient`: the session routes of the AgentScope 2.0 app service (agentscope
// 2.0.11 `create_app`) over an `AgentScopeTransport`: list, create, rename, set the
// permission mode, delete; and `dataBlock`, a user turn's attachment as a `data` block.
// Framework-free; loads no .wasm. Exported by `agentscope-message/chat`.
import { MsgError, bodyJSON, checkDataUrls, optionsObject, sessionIdSegment } from "./errors.js";
import type { ContentBlockInput } from "./message.js";
import { sessionDeleted } from "./open-sessions.js";

/**
 * The permission modes of agentscope 2.0.11 (`agentscope.permission.PermissionMode`), as
 * `PATCH /sessions/{sid}` takes them (`permission_mode`) and the session's
 * `state.permission_context.mode` holds them: `default` (every tool call asks unless a
 * rule allows it), `accept_edits` (file edits and reads in the working directories are
 * allowed), `explore` (read-only: modifications are denied), `bypass` (no checks but
 * explicit deny / ask rules), `dont_ask` (every ask becomes a deny: unattended runs).
 */
export type PermissionMode = "default" | "accept_edits" | "explore" | "bypass" | "dont_ask";

/** Every {@link PermissionMode}, in agentscope's order. */
export const PERMISSION_MODES: readonly PermissionMode[] = Object.freeze(["default", "accept_edits", "explore", "bypass", "dont_ask"]);

/**
 * A model setting of a session (`chat_model_config`, `fallback_chat_model_config`): the
 * provider type, the credential, the model and its parameters (`model_class`, the
 * implementation, is filled in by the service).
 */
export interface ChatModelConfig {
  type: string;
  credential_id: string;
  model: string;
  model_class?: string;
  parameters: Record<string, unknown>;
}

/** A session's settings (`SessionRecord.config`): set at creation, changed by `PATCH`. */
export interface SessionConfig {
  /** The workspace the session is bound to. */
  readonly workspace_id: string;
  /**
   * The display name: the one given, or the creation time (`"2026-12-04 19:01:16"`) until
   * the service names the session after its first turn (then `CUSTOM session_updated`).
   */
  readonly name: string;
  /** `auto`: whether the service may still rename the session (false once given or renamed). */
  readonly naming: { readonly auto: boolean };
  /** The directory the session looks at, or null (the workspace's root). */
  readonly cwd: string | null;
  readonly chat_model_config: Readonly<ChatModelConfig> | null;
  readonly fallback_chat_model_config: Readonly<ChatModelConfig> | null;
  readonly tts_model_config: Readonly<Record<string, unknown>> | null;
  readonly realtime_model_config: Readonly<Record<string, unknown>> | null;
  readonly knowledge_config: Readonly<Record<string, unknown>> | null;
}

/** A session's permission state (`state.permission_context`): its mode, working directories and rules. */
export interface PermissionContext {
  readonly mode: PermissionMode;
  readonly working_directories: Readonly<Record<string, unknown>>;
  /** Rules by tool name, as the service keeps them (`PermissionRule`s). */
  readonly allow_rules: Readonly<Record<string, unknown>>;
  readonly deny_rules: Readonly<Record<string, unknown>>;
  readonly ask_rules: Readonly<Record<string, unknown>>;
}

/** One task of a session's task list (`TaskCreate` / `TaskUpdate` tools). */
export interface SessionTask {
  readonly id: string;
  readonly subject: string;
  readonly description: string;
  readonly state: "pending" | "in_progress" | "completed";
  readonly owner: string | null;
  /** Ids of the tasks this one blocks. */
  readonly blocks: readonly string[];
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly created_at: string;
}

/**
 * The app state of a session that the service keeps between turns and streams as
 * `CUSTOM state_updated` (`{tasks_context, permission_context}`): its task list and its
 * permission context.
 */
export interface SessionState {
  readonly tasks_context: { readonly tasks: readonly SessionTask[] };
  readonly permission_context: PermissionContext;
}

/**
 * A session as the service stores it (`SessionRecord`; `PATCH` answers with it). In the
 * list its `state` comes trimmed: `context` and `summary` emptied, `tool_context` reset
 * (read the messages with `GET /sessions/{sid}/messages`); `permission_context` and
 * `tasks_context` are whole.
 */
export interface SessionRecord {
  readonly id: string;
  /** ISO 8601 times, without a zone (the service's local time). */
  readonly created_at: string;
  readonly updated_at: string;
  readonly user_id: string;
  readonly agent_id: string;
  /**
   * Who made it: `{type: "user"}`, `{type: "schedule", schedule_id}`, `{type: "channel",
   * channel_id, chat_id, …}`, `{type: "team"}` (a team's worker) or `{type: "sop", …}`.
   */
  readonly origin: { readonly type: string; readonly [key: string]: unknown };
  /** The team the session belongs to (set on a team's leader and workers), or null. */
  readonly team_id: string | null;
  readonly config: SessionConfig;
  /** The agent's state: `tasks_context`, `permission_context`, and the rest as the service sends it (`context`, `summary`, `reply_context`, `tool_context`, …). */
  readonly state: SessionState & { readonly [key: string]: unknown };
}

/**
 * One entry of `GET /sessions/` (agentscope's `SessionView`): the record, the session's
 * status, and its team resolved (leader and members, each with its session id) or null.
 */
export interface SessionView {
  readonly session: SessionRecord;
  /** The unified status (`running`, `idle`, `awaiting_permission`, `awaiting_external_result`). */
  readonly status: SessionStatus;
  /** Deprecated by the service (false while parked on a confirmation): read `status`. */
  readonly is_running: boolean;
  /** `{team, leader_agent, members: [{agent, session_id}]}` when the session is in a team. */
  readonly team: Readonly<Record<string, unknown>> | null;
}

/** What {@link SessionsClient.create} takes; absent fields are left to the service. */
export interface CreateSessionOptions {
  /** The display name (default: the creation time; the service renames it after the first turn). */
  name?: string;
  /** The session's model (default: the client's `session.chat_model_config`). */
  chatModelConfig?: ChatModelConfig | null;
  /** More fields of the `POST /sessions/` body, in the service's names (`workspace_id`, `fallback_chat_model_config`, …). */
  fields?: Record<string, unknown>;
  signal?: AbortSignal;
}

/**
 * What {@link SessionsClient} needs of the transport: an `AgentScopeTransport` (its
 * `agentId` and `request`, which sends `X-User-ID`, fails over between instances and
 * turns a 409 into `busy`). (Declared here, not imported: `chat.ts` re-exports this module.)
 */
export interface SessionsTransport {
  readonly agentId: string;
  request(
    method: string,
    path: string,
    options?: { query?: Record<string, string | null | undefined>; body?: unknown; signal?: AbortSignal; retry?: "unsent" | "any" },
  ): Promise<Response>;
}

/** A session's unified status, as the list and `GET /sessions/{sid}/status` say it (the chat's `ServiceStatus`). */
export type SessionStatus = "running" | "idle" | "awaiting_permission" | "awaiting_external_result";

/** Options of {@link SessionsClient}. */
export interface SessionsClientOptions {
  /**
   * Fields of every `POST /sessions/` body, e.g. `{chat_model_config}` (the model is a
   * setting of the session in agentscope 2.0.11): the same object as the transport's
   * `session` option.
   */
  session?: Record<string, unknown>;
}

const text = (value: unknown, what: string): string => {
  if (typeof value !== "string" || value === "") throw new MsgError("invalid_argument", `${what} must be a non-empty string`);
  return value;
};

/** Whether a session id the service gave is one plain path segment. */
const sessionIdOk = (id: string): boolean => id !== "" && id !== "." && id !== "..";

const plainObject = (value: unknown): boolean =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The sessions of one agent on an AgentScope 2.0 service (agentscope 2.0.11), over an
 * `AgentScopeTransport` (its user, its agent, its instances and failover):
 *
 * | method | route |
 * |---|---|
 * | `list()` | `GET /sessions/?agent_id=…` → `{sessions: SessionView[], total}` |
 * | `get(id)`, `state(id)` | the same list (the service has no route for one session) |
 * | `create({name, chatModelConfig})` | `POST /sessions/` → 201 `{session_id}` |
 * | `rename(id, name)`, `setPermissionMode(id, mode)`, `update(id, fields)` | `PATCH /sessions/{sid}?agent_id=…` → the `SessionRecord` |
 * | `remove(id)` | `DELETE /sessions/{sid}?agent_id=…` → 204 |
 *
 * Every method rejects with a `MsgError`: `invalid_argument` for a bad argument, before
 * any request (a session id that is not one path segment: empty, `.` or `..`, which a
 * URL reads as the folder or its parent; a name or field holding a lone surrogate, which
 * stored makes agentscope 2.0.11 answer 500 on `GET /sessions/` for good), `busy` for
 * the service's 409 (a `PATCH` while a run holds the session), `http_error` for another
 * status (`status`: 404 for an unknown session or agent, 422 for a body the service
 * refuses) or an answer that is not the JSON it should be (`null`, a list entry that is
 * not a `{session: {id, config, state}, status}`, …), `service_unavailable` when the
 * service could not be reached.
 */
export class SessionsClient {
  readonly #transport: SessionsTransport;
  readonly #session: Record<string, unknown>;

  /** Throws `invalid_argument` for a transport without `request` / `agentId` or a `session` that is not an object. */
  constructor(transport: SessionsTransport, options: SessionsClientOptions = {}) {
    if (typeof transport !== "object" || transport === null || typeof transport.request !== "function" || typeof transport.agentId !== "string") {
      throw new MsgError("invalid_argument", "SessionsClient takes an AgentScopeTransport");
    }
    if (!plainObject(options)) throw new MsgError("invalid_argument", "SessionsClient: options must be an object");
    if (options.session !== undefined && !plainObject(options.session)) {
      throw new MsgError("invalid_argument", "SessionsClient: session must be an object (fields of POST /sessions/)");
    }
    this.#transport = transport;
    this.#session = { ...options.session };
  }

  /** The agent whose sessions these are. */
  get agentId(): string {
    return this.#transport.agentId;
  }

  async #json<T>(response: Response, what: string): Promise<T> {
    try {
      return (await response.json()) as T;
    } catch (e) {
      throw new MsgError("http_error", `${what}: the response is not JSON (${(e as Error).message})`, { status: response.status });
    }
  }

  /**
   * The agent's sessions of this user, as the service lists them (`GET /sessions/`, in
   * its order): each a {@link SessionView}. `http_error` 404 for an agent the user
   * cannot see.
   */
  async list(options: { signal?: AbortSignal } = {}): Promise<SessionView[]> {
    options = optionsObject(options, "SessionsClient.list");
    const response = await this.#transport.request("GET", "/sessions/", { query: { agent_id: this.agentId }, signal: options.signal, retry: "any" });
    const body = await this.#json<{ sessions?: unknown } | null>(response, "GET /sessions/");
    if (!plainObject(body) || !Array.isArray(body!.sessions)) throw new MsgError("http_error", "GET /sessions/: no sessions in the response", { status: response.status });
    const sessions = body!.sessions as unknown[];
    sessions.forEach((view, i) => {
      // each a SessionView: its record (an id, the config, the state with tasks and permissions) and status
      const record = plainObject(view) ? (view as { session?: unknown }).session : undefined;
      const { id, config, state } = (plainObject(record) ? record : {}) as { id?: unknown; config?: unknown; state?: { tasks_context?: unknown; permission_context?: unknown } };
      const fine = typeof id === "string" && plainObject(config) && plainObject(state) && plainObject(state!.tasks_context) && plainObject(state!.permission_context) &&
        typeof (view as { status?: unknown }).status === "string";
      if (!fine) throw new MsgError("http_error", `GET /sessions/: sessions[${i}] is not a session view ({session: {id, config, state}, status})`, { status: response.status });
    });
    return sessions as SessionView[];
  }

  /**
   * One session (from the list: agentscope 2.0.11 has no route for one session);
   * `http_error` with status 404 when there is none with this id.
   */
  async get(sessionId: string, options: { signal?: AbortSignal } = {}): Promise<SessionView> {
    options = optionsObject(options, "SessionsClient.get");
    sessionIdSegment(sessionId, "SessionsClient.get: sessionId");
    const found = (await this.list(options)).find((v) => v.session.id === sessionId);
    if (found === undefined) throw new MsgError("http_error", `Session '${sessionId}' not found.`, { status: 404 });
    return found;
  }

  /**
   * The session's app state: its tasks (`tasks_context`) and permission context (mode
   * and rules), from the list (what `CUSTOM state_updated` events carry while it runs).
   * `http_error` 404 for an unknown session.
   */
  async state(sessionId: string, options: { signal?: AbortSignal } = {}): Promise<SessionState> {
    options = optionsObject(options, "SessionsClient.state");
    sessionIdSegment(sessionId, "SessionsClient.state: sessionId");
    const { tasks_context, permission_context } = (await this.get(sessionId, options)).session.state;
    return { tasks_context, permission_context };
  }

  /**
   * Creates a session of the agent; resolves its id (`POST /sessions/`, 201). The body is
   * the client's `session` fields, then `fields`, `chat_model_config` and `name` when
   * given. `invalid_argument` (nothing sent) for a name or field holding a lone
   * surrogate; `http_error` 404 for an unknown agent or credential, 422 for a malformed
   * `chat_model_config`.
   */
  async create(options: CreateSessionOptions = {}): Promise<string> {
    if (!plainObject(options)) throw new MsgError("invalid_argument", "SessionsClient.create: options must be an object");
    optionsObject(options, "SessionsClient.create");
    const { name, chatModelConfig, fields } = options;
    if (name !== undefined) text(name, "SessionsClient.create: name");
    if (fields !== undefined && !plainObject(fields)) throw new MsgError("invalid_argument", "SessionsClient.create: fields must be an object");
    if (chatModelConfig !== undefined && chatModelConfig !== null && !plainObject(chatModelConfig)) {
      throw new MsgError("invalid_argument", "SessionsClient.create: chatModelConfig must be an object ({type, credential_id, model, parameters}) or null");
    }
    const body: Record<string, unknown> = { ...this.#session, ...fields, agent_id: this.agentId };
    if (chatModelConfig !== undefined) body.chat_model_config = chatModelConfig;
    if (name !== undefined) body.name = name;
    // (what is sent is checked: its JSON, `toJSON` applied)
    checkDataUrls(JSON.parse(bodyJSON(body, "SessionsClient.create: the session's fields")), "SessionsClient.create");
    // safe to repeat (at worst an unused empty session is left): tried on the next instance after any failure
    const response = await this.#transport.request("POST", "/sessions/", { body, signal: options.signal, retry: "any" });
    const created = await this.#json<{ session_id?: unknown } | null>(response, "POST /sessions/");
    if (!plainObject(created) || typeof created!.session_id !== "string" || !sessionIdOk(created!.session_id)) throw new MsgError("http_error", "POST /sessions/: no session_id in the response", { status: response.status });
    return created!.session_id as string;
  }

  /**
   * Changes the session's settings (`PATCH /sessions/{sid}`, fields in the service's
   * names: `name`, `permission_mode`, `chat_model_config`, `fallback_chat_model_config`,
   * `tts_model_config`, `knowledge_config`, …; an absent field is left as it is, a
   * `null` clears a model setting); resolves the whole record after the change.
   * `invalid_argument` (nothing sent) for an id that is not one path segment or fields
   * holding a lone surrogate (in a value or a key); `busy` (409) while a run holds the
   * session; `http_error` 404 for an unknown session, 422 for a value the service refuses.
   */
  async update(sessionId: string, fields: Record<string, unknown>, options: { signal?: AbortSignal } = {}): Promise<SessionRecord> {
    options = optionsObject(options, "SessionsClient.update");
    sessionIdSegment(sessionId, "SessionsClient.update: sessionId");
    if (!plainObject(fields)) throw new MsgError("invalid_argument", "SessionsClient.update: fields must be an object");
    checkDataUrls(JSON.parse(bodyJSON(fields, "SessionsClient.update: fields")), "SessionsClient.update");
    const path = `/sessions/${encodeURIComponent(sessionId)}`;
    // the same PATCH twice sets the same values: safe to repeat
    const response = await this.#transport.request("PATCH", path, { query: { agent_id: this.agentId }, body: fields, signal: options.signal, retry: "any" });
    const record = await this.#json<SessionRecord>(response, `PATCH ${path}`);
    if (!plainObject(record) || typeof record.id !== "string") throw new MsgError("http_error", `PATCH ${path}: no session record in the response`, { status: response.status });
    return record;
  }

  /** Renames the session (`PATCH {name}`); see {@link SessionsClient.update} for its errors. */
  async rename(sessionId: string, name: string, options: { signal?: AbortSignal } = {}): Promise<SessionRecord> {
    options = optionsObject(options, "SessionsClient.rename");
    sessionIdSegment(sessionId, "SessionsClient.rename: sessionId");
    return this.update(sessionId, { name: text(name, "SessionsClient.rename: name") }, options);
  }

  /**
   * Sets the session's permission mode (`PATCH {permission_mode}`; it lands in
   * `state.permission_context.mode`); `invalid_argument` for a mode not in
   * {@link PERMISSION_MODES}; see {@link SessionsClient.update} for the rest.
   */
  async setPermissionMode(sessionId: string, mode: PermissionMode, options: { signal?: AbortSignal } = {}): Promise<SessionRecord> {
    options = optionsObject(options, "SessionsClient.setPermissionMode");
    sessionIdSegment(sessionId, "SessionsClient.setPermissionMode: sessionId");
    if (!PERMISSION_MODES.includes(mode)) {
      throw new MsgError("invalid_argument", `SessionsClient.setPermissionMode: mode must be one of ${PERMISSION_MODES.join(", ")}; got ${JSON.stringify(mode)}`);
    }
    return this.update(sessionId, { permission_mode: mode }, options);
  }

  /**
   * Deletes the session and everything it holds (`DELETE /sessions/{sid}`, 204); a run in
   * flight is cancelled by the service. Once deleted, every open `Chat` of the session in
   * this page ends as on finding its session deleted: its stream aborted, connection
   * `lost`, status `error`, error `http_error` 404. `invalid_argument` (nothing sent) for
   * an id that is not one path segment (`remove("..")` would be `DELETE /`); `http_error`
   * 404 for an unknown (or already deleted) session. Not repeated on another instance once
   * sent (a second delete would answer 404).
   */
  async remove(sessionId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    options = optionsObject(options, "SessionsClient.remove");
    sessionIdSegment(sessionId, "SessionsClient.remove: sessionId");
    const path = `/sessions/${encodeURIComponent(sessionId)}`;
    const response = await this.#transport.request("DELETE", path, { query: { agent_id: this.agentId }, signal: options.signal, retry: "unsent" });
    await response.text();
    sessionDeleted(sessionId);
  }
}

/** A `data` block as a user message takes it (`UserMsg`, `send`, `POST /chat/`): id and times left to whoever builds the message. */
export type DataBlockInput = Extract<ContentBlockInput, { type: "data" }>;

/** Options of {@link dataBlock}. */
export interface DataBlockOptions {
  /** The media type, e.g. `image/png` (default: a `Blob`'s `type`; required for bytes and URLs). */
  mediaType?: string;
  /** The largest input accepted, in bytes (default {@link MAX_ATTACHMENT_BYTES}); Infinity: no cap. */
  maxBytes?: number;
  /** The block's `name` (default: a `File`'s name). */
  name?: string;
}

/** The default cap of {@link dataBlock}: 10 MiB (13.4 MiB as base64 in the JSON of `POST /chat/`). */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

// `type/subtype` with optional parameters (RFC 6838 names)
const MEDIA_TYPE = /^[A-Za-z0-9][\w!#$&^.+-]*\/[A-Za-z0-9][\w!#$&^.+-]*(\s*;\s*[\w!#$&^.+-]+=("[^"\r\n]*"|[\w!#$&^.+-]+))*$/;

/** Base64 of `bytes` by the platform's own encoder: `Uint8Array.toBase64`, node's `Buffer`, else `btoa` over chunks. */
function base64(bytes: Uint8Array): string {
  const native = (bytes as Uint8Array & { toBase64?: () => string }).toBase64;
  if (typeof native === "function") return native.call(bytes);
  const buffer = (globalThis as { Buffer?: { from(b: ArrayBufferLike, offset: number, length: number): { toString(encoding: "base64"): string } } }).Buffer;
  if (buffer !== undefined) return buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
  // btoa takes a binary string; chunks of 3 × 8,190 bytes keep each call's argument list
  // short and each chunk's base64 free of padding
  const parts: string[] = [];
  for (let i = 0; i < bytes.length; i += 24_570) {
    parts.push(btoa(String.fromCharCode(...bytes.subarray(i, i + 24_570))));
  }
  return parts.join("");
}

/**
 * A user turn's attachment as a `data` block (`{type: "data", source, name?}`), for
 * `UserMsg` content or the blocks of a turn; agentscope 2.0.11 has no upload route, so a
 * file goes inline. `input`:
 *
 * - a `Blob` / `File`: read and sent as base64 (`source: {type: "base64", media_type,
 *   data}`); the media type is the Blob's `type` unless `mediaType` is given
 *   (`application/octet-stream` when neither says), the name a `File`'s;
 * - a `Uint8Array` / `ArrayBuffer` (or another view): base64, with `mediaType` required;
 * - a URL (`string` or `URL`), `http:` or `https:` only: `source: {type: "url", url,
 *   media_type}` with `mediaType` required, nothing fetched here. Any other scheme is
 *   refused: the service reads a `file://` URL from its own disk.
 *
 * Rejects with `MsgError`: `limit_exceeded` for an input larger than `maxBytes` (default
 * 10 MiB; checked before a Blob is read), `invalid_argument` for anything else wrong.
 */
export async function dataBlock(input: Blob | ArrayBuffer | ArrayBufferView | string | URL, options: DataBlockOptions = {}): Promise<DataBlockInput> {
  if (!plainObject(options)) throw new MsgError("invalid_argument", "dataBlock: options must be an object");
  const { maxBytes = MAX_ATTACHMENT_BYTES, name } = options;
  if (!(maxBytes === Infinity || (Number.isSafeInteger(maxBytes) && maxBytes >= 0))) {
    throw new MsgError("invalid_argument", "dataBlock: maxBytes must be a non-negative integer or Infinity");
  }
  if (name !== undefined && typeof name !== "string") throw new MsgError("invalid_argument", "dataBlock: name must be a string");
  const mediaType = (given: string | undefined, what: string): string => {
    if (given === undefined || given === "") throw new MsgError("invalid_argument", `dataBlock: ${what} needs options.mediaType (e.g. "image/png")`);
    if (typeof given !== "string" || !MEDIA_TYPE.test(given)) throw new MsgError("invalid_argument", `dataBlock: ${JSON.stringify(given)} is not a media type (type/subtype)`);
    return given;
  };
  const cap = (size: number) => {
    if (size > maxBytes) throw new MsgError("limit_exceeded", `dataBlock: the input has ${size} bytes, more than maxBytes (${maxBytes})`);
  };
  const named = <T extends object>(block: T): T => (name === undefined ? block : { ...block, name });

  if (typeof input === "string" || input instanceof URL) {
    let url: URL;
    try {
      url = new URL(String(input));
    } catch {
      throw new MsgError("invalid_argument", `dataBlock: ${JSON.stringify(String(input).slice(0, 100))} is not an absolute URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new MsgError("invalid_argument", `dataBlock: only http(s) URLs are sent as URLs, not ${url.protocol} (a file: URL would be read from the service's disk); pass the bytes or a Blob`);
    }
    return named({ type: "data", source: { type: "url", url: url.href, media_type: mediaType(options.mediaType, "a URL") } });
  }
  if (typeof Blob !== "undefined" && input instanceof Blob) {
    cap(input.size);
    const type = options.mediaType === undefined ? input.type || "application/octet-stream" : mediaType(options.mediaType, "a Blob");
    if (!MEDIA_TYPE.test(type)) throw new MsgError("invalid_argument", `dataBlock: the Blob's type ${JSON.stringify(type)} is not a media type; pass options.mediaType`);
    const fileName = name ?? (typeof File !== "undefined" && input instanceof File && input.name !== "" ? input.name : undefined);
    const data = base64(new Uint8Array(await input.arrayBuffer()));
    const block: DataBlockInput = { type: "data", source: { type: "base64", media_type: type, data } };
    return fileName === undefined ? block : { ...block, name: fileName };
  }
  let bytes: Uint8Array;
  if (input instanceof ArrayBuffer || (typeof SharedArrayBuffer !== "undefined" && input instanceof SharedArrayBuffer)) bytes = new Uint8Array(input);
  else if (ArrayBuffer.isView(input)) bytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  else throw new MsgError("invalid_argument", "dataBlock: input must be a Blob / File, bytes (Uint8Array, ArrayBuffer) or an http(s) URL");
  cap(bytes.byteLength);
  const type = mediaType(options.mediaType, "bytes");
  return named({ type: "data", source: { type: "base64", media_type: type, data: base64(bytes) } });
}
