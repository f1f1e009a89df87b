import { MsgError } from "./errors.js";
import type { ContentBlock, MsgJSON, ToolCallBlock } from "./message.js";
import { type Diagnostic } from "./session.js";
import { type ChatPendingAction } from "./app-state.js";
import { type PermissionMode } from "./sessions.js";
import { type ChatOptions, type ChatSnapshot, type ChatStatus, type ExternalResult, type SendInput } from "./chat-types.js";
import type { ChatInput, ChatTransport } from "./transport.js";
export type { ChatConnection, ChatOptions, ChatSnapshot, ChatStatus, EventInfo, ExternalResult, SendBlock, SendInput } from "./chat-types.js";
/**
 * A chat with one session of an AgentScope 2.0 service. Open it with {@link Chat.open};
 * render `getSnapshot()` (for React: `useSyncExternalStore(chat.subscribe,
 * chat.getSnapshot)`, or `useChat`). Every event of the session's stream goes into one
 * `Session` with `dedup` (each connect replays the current run), so a reconnect neither
 * loses nor doubles text, and each reply is exactly the message the service stores.
 *
 * Status, errors and reconnects: see {@link ChatStatus} and {@link ChatOptions}. After
 * `close()` every method but the readers and `subscribe` (a no-op then) throws `MsgError`
 * (`closed`).
 */
export declare class Chat {
    #private;
    /** The session's id (given, or created by `open`). */
    readonly sessionId: string;
    private constructor();
    /**
     * Opens a chat: loads the .wasm if needed (`init()`), creates a session (or takes
     * `options.sessionId`), loads its latest stored history and opens its event stream.
     * Resolves once the history is loaded, status `ready` (the stream connects in the
     * background: connection `connecting`, then `open`; a session at rest holds none in a
     * page: `idle`, see `idleStreamMs`). Rejects with `MsgError` (`http_error` with `status` 404
     * for an unknown session, or for an answer that is not the JSON it should be;
     * `service_unavailable`; `invalid_argument`, before any request, for a `sessionId` that
     * is not one path segment: empty, `.`, `..`, or with a lone surrogate; `invalid_argument`
     * too, before any request of the session, when a custom transport's `createSession`
     * returns such an id).
     */
    static open(transport: ChatTransport, options?: ChatOptions): Promise<Chat>;
    /** The current snapshot (bound: pass `chat.getSnapshot` as is). */
    getSnapshot: () => ChatSnapshot;
    /** `getSnapshot().messages`. */
    get messages(): readonly MsgJSON[];
    /** `getSnapshot().status`. */
    get status(): ChatStatus;
    /** `getSnapshot().error`. */
    get error(): MsgError | null;
    /** `getSnapshot().pendingActions`. */
    get pendingActions(): readonly ChatPendingAction[];
    /**
     * Resolves with the first snapshot (now or later) whose status is `ready`,
     * `awaiting_input`, `error` or `closed`: the reply in flight has ended, parked, or failed.
     * For scripts and tests; a UI subscribes instead.
     */
    settled(): Promise<ChatSnapshot>;
    /** Whether older stored messages exist (see {@link Chat.loadOlder}). */
    get hasMore(): boolean;
    /** What the stream's `Session` skipped (the last 200): stale replays, events of replies it never saw start. */
    get diagnostics(): readonly Diagnostic[];
    /**
     * Calls `listener` when the snapshot changed: at most once per macrotask (or per
     * `throttleMs`), never inside a call of the chat. A listener that throws is reported to
     * `onError` (or the console) and the others still run. Returns the unsubscribe function.
     */
    subscribe: (listener: () => void) => (() => void);
    /**
     * Loads the page of stored messages before the oldest one shown; resolves whether more
     * remain. Rejects with the transport's `MsgError`.
     */
    loadOlder(): Promise<boolean>;
    /**
     * Sends a user turn and starts a run: text; blocks (text and data blocks, e.g.
     * attachments from `dataBlock`); `{content, metadata?}` (a string or blocks, and the
     * message's metadata); or a whole user `Msg` / its JSON. The turn shows at once
     * (replaced by the stored one once the run ends), status `submitted` until the reply
     * starts. Rejects with `MsgError`: `busy` while a reply of this chat is in flight or a
     * tool call waits for an answer (nothing is sent: the service would end the turn with an
     * error; keep the text in the composer), or when the service stayed busy for
     * `busyWaitMs`; the transport's `http_error` / `service_unavailable` (the turn is taken
     * back); `invalid_argument` for text with a lone surrogate or a data block whose URL
     * source is not http(s) (the service reads a `file:` URL from its own disk; nothing is
     * sent), and the model's errors for a message the reference refuses (`invalid_msg`,
     * `role_violation` for a block a user message may not hold, …).
     */
    send(input: SendInput): Promise<void>;
    /**
     * Posts any input `POST /chat/` takes (`ChatInput`), with `send`'s rules: user
     * message(s) as `send` (shown at once, never applied twice; each checked as a `Msg`), a
     * `USER_CONFIRM_RESULT` or `EXTERNAL_EXECUTION_RESULT` as `confirm` / `submitExternal`
     * (its calls must be waiting: `invalid_argument` otherwise, since answering a call that
     * does not wait parks the service; refused as those are for a lone surrogate or a data
     * block's URL that is not http(s)). Rejects as those do; `invalid_argument` for
     * anything else (null included: it starts nothing the chat could follow).
     */
    post(input: ChatInput): Promise<void>;
    /**
     * Answers a tool call waiting for a confirmation (`REQUIRE_USER_CONFIRM`): the reply
     * continues (the call runs, or ends `denied`). A team worker's call (`worker` set in
     * `pendingActions`) is answered the same way, through this session. `rules`: permission rules to remember
     * (e.g. the call's `suggested_rules`, "always allow"). Rejects with `invalid_argument`
     * when that call is not waiting (answering twice would park the service) or, before
     * anything is sent, for `rules` holding a lone surrogate or a data block whose URL is
     * not http(s); or the transport's `MsgError`.
     */
    confirm(toolCallId: string, confirmed: boolean, options?: {
        rules?: readonly unknown[] | null;
    }): Promise<void>;
    /**
     * Answers tool calls waiting for an external executor (`REQUIRE_EXTERNAL_EXECUTION`,
     * e.g. an AskUser tool) with their results; the reply continues. Rejects with
     * `invalid_argument` for a call that is not waiting, and, before anything is sent, for
     * results holding a lone surrogate anywhere (output text, blocks, names, metadata:
     * stored with the reply, agentscope 2.0.11 then answers 500 on the session's
     * `GET /messages` for good) or a data block whose URL source is not http(s) (the
     * service would read a `file:` URL from its own disk and hand it to the model); or the
     * transport's `MsgError`.
     */
    submitExternal(results: ExternalResult | readonly ExternalResult[]): Promise<void>;
    /**
     * Stops the reply in flight (the service's interrupt): it ends with `finished_reason`
     * `"interrupted"` and keeps what it had. A reply parked on a call waiting for an answer
     * may stay parked (agentscope 2.0.11 ends it or leaves it waiting, by timing): status
     * `stopping` until the service's status and stored page show which (its stream may have
     * lost the end), then `awaiting_input` again (answer the call) or `ready`. Works from the moment `send()` was called:
     * while its `POST /chat/` is still on its way, the interrupt waits for it (an interrupt
     * that reached an idle service first would be lost, and the turn would run whole); a
     * turn whose reply had not started is dropped by the service and goes quietly (not
     * stored, no error). Status `stopping` until the reply ends. Does nothing when no reply
     * is in flight (the service answers an idle interrupt with a stray `REPLY_START`).
     * Rejects with the transport's `MsgError` (then the status is what it was).
     */
    stop(): Promise<void>;
    /**
     * Renames the session (`PATCH /sessions/{sid}` with `name`; it turns the service's
     * auto-naming off), shows the record the service answered in `session` and `state` at
     * once, then reloads `session` (a reload that fails after is passed to `onError`: the
     * rename was applied, the call resolves). Rejects with `busy` while a run holds the
     * session (409), `invalid_argument` for an empty name, a name with a lone surrogate
     * (nothing is sent: stored, it makes agentscope 2.0.11 answer 500 on `GET /sessions/`
     * for good) or a transport without `request`.
     */
    rename(name: string): Promise<void>;
    /**
     * Sets the session's permission mode (`PATCH /sessions/{sid}` with `permission_mode`:
     * `default`, `accept_edits`, `explore`, `bypass`, `dont_ask`), then reloads `session`
     * and `state` (the service streams no event for it). Rejects as {@link Chat.rename}.
     */
    setPermissionMode(mode: PermissionMode): Promise<void>;
    /** After status `error` from a lost service: reloads the stored page and tries the stream again (resets the attempts). */
    reconnect(): void;
    /** Ends the stream, stops the timers and frees the wasm memory; the last snapshot (status `closed`) stays readable. */
    close(): void;
    /** `using chat = await Chat.open(...)` closes it at the end of the scope. */
    [Symbol.dispose](): void;
}
/** The tool result of a call in a message list (a `tool_result` block with the call's id), or undefined. */
export declare function toolResultOf(messages: readonly MsgJSON[], call: ToolCallBlock): Extract<ContentBlock, {
    type: "tool_result";
}> | undefined;
export type { PendingAction } from "./session.js";
export { MsgError } from "./errors.js";
export { blockKey, pendingActions, parseToolInput } from "./session.js";
export * from "./sessions.js";
export * from "./transport.js";
export type { ChatPendingAction, McpProgress } from "./app-state.js";
