import type { ContentBlockInput } from "./message.js";
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
export declare const PERMISSION_MODES: readonly PermissionMode[];
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
    readonly naming: {
        readonly auto: boolean;
    };
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
    readonly tasks_context: {
        readonly tasks: readonly SessionTask[];
    };
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
    readonly origin: {
        readonly type: string;
        readonly [key: string]: unknown;
    };
    /** The team the session belongs to (set on a team's leader and workers), or null. */
    readonly team_id: string | null;
    readonly config: SessionConfig;
    /** The agent's state: `tasks_context`, `permission_context`, and the rest as the service sends it (`context`, `summary`, `reply_context`, `tool_context`, …). */
    readonly state: SessionState & {
        readonly [key: string]: unknown;
    };
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
    request(method: string, path: string, options?: {
        query?: Record<string, string | null | undefined>;
        body?: unknown;
        signal?: AbortSignal;
        retry?: "unsent" | "any";
    }): Promise<Response>;
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
export declare class SessionsClient {
    #private;
    /** Throws `invalid_argument` for a transport without `request` / `agentId` or a `session` that is not an object. */
    constructor(transport: SessionsTransport, options?: SessionsClientOptions);
    /** The agent whose sessions these are. */
    get agentId(): string;
    /**
     * The agent's sessions of this user, as the service lists them (`GET /sessions/`, in
     * its order): each a {@link SessionView}. `http_error` 404 for an agent the user
     * cannot see.
     */
    list(options?: {
        signal?: AbortSignal;
    }): Promise<SessionView[]>;
    /**
     * One session (from the list: agentscope 2.0.11 has no route for one session);
     * `http_error` with status 404 when there is none with this id.
     */
    get(sessionId: string, options?: {
        signal?: AbortSignal;
    }): Promise<SessionView>;
    /**
     * The session's app state: its tasks (`tasks_context`) and permission context (mode
     * and rules), from the list (what `CUSTOM state_updated` events carry while it runs).
     * `http_error` 404 for an unknown session.
     */
    state(sessionId: string, options?: {
        signal?: AbortSignal;
    }): Promise<SessionState>;
    /**
     * Creates a session of the agent; resolves its id (`POST /sessions/`, 201). The body is
     * the client's `session` fields, then `fields`, `chat_model_config` and `name` when
     * given. `invalid_argument` (nothing sent) for a name or field holding a lone
     * surrogate; `http_error` 404 for an unknown agent or credential, 422 for a malformed
     * `chat_model_config`.
     */
    create(options?: CreateSessionOptions): Promise<string>;
    /**
     * Changes the session's settings (`PATCH /sessions/{sid}`, fields in the service's
     * names: `name`, `permission_mode`, `chat_model_config`, `fallback_chat_model_config`,
     * `tts_model_config`, `knowledge_config`, …; an absent field is left as it is, a
     * `null` clears a model setting); resolves the whole record after the change.
     * `invalid_argument` (nothing sent) for an id that is not one path segment or fields
     * holding a lone surrogate (in a value or a key); `busy` (409) while a run holds the
     * session; `http_error` 404 for an unknown session, 422 for a value the service refuses.
     */
    update(sessionId: string, fields: Record<string, unknown>, options?: {
        signal?: AbortSignal;
    }): Promise<SessionRecord>;
    /** Renames the session (`PATCH {name}`); see {@link SessionsClient.update} for its errors. */
    rename(sessionId: string, name: string, options?: {
        signal?: AbortSignal;
    }): Promise<SessionRecord>;
    /**
     * Sets the session's permission mode (`PATCH {permission_mode}`; it lands in
     * `state.permission_context.mode`); `invalid_argument` for a mode not in
     * {@link PERMISSION_MODES}; see {@link SessionsClient.update} for the rest.
     */
    setPermissionMode(sessionId: string, mode: PermissionMode, options?: {
        signal?: AbortSignal;
    }): Promise<SessionRecord>;
    /**
     * Deletes the session and everything it holds (`DELETE /sessions/{sid}`, 204); a run in
     * flight is cancelled by the service. Once deleted, every open `Chat` of the session in
     * this page ends as on finding its session deleted: its stream aborted, connection
     * `lost`, status `error`, error `http_error` 404. `invalid_argument` (nothing sent) for
     * an id that is not one path segment (`remove("..")` would be `DELETE /`); `http_error`
     * 404 for an unknown (or already deleted) session. Not repeated on another instance once
     * sent (a second delete would answer 404).
     */
    remove(sessionId: string, options?: {
        signal?: AbortSignal;
    }): Promise<void>;
}
/** A `data` block as a user message takes it (`UserMsg`, `send`, `POST /chat/`): id and times left to whoever builds the message. */
export type DataBlockInput = Extract<ContentBlockInput, {
    type: "data";
}>;
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
export declare const MAX_ATTACHMENT_BYTES: number;
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
export declare function dataBlock(input: Blob | ArrayBuffer | ArrayBufferView | string | URL, options?: DataBlockOptions): Promise<DataBlockInput>;
