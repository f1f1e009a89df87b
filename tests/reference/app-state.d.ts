import type { AgentEvent } from "./event.js";
import type { PendingAction } from "./session.js";
import type { SessionRecord, SessionState, SessionView, SessionsClient } from "./sessions.js";
/**
 * A tool call waiting for an answer: the session's own ({@link PendingAction}), or with
 * `worker` a team worker's, which the service projects onto the leader's stream as `CUSTOM
 * subagent_require_user_confirm` (`replyId` is then the worker's reply; `confirm` /
 * `submitExternal` answer it through the leader session, where the service expects it,
 * and `CUSTOM subagent_user_confirm_result` clears it). A worker's call does not change
 * the leader's `status`.
 */
export interface ChatPendingAction extends PendingAction {
    /** The team worker asking (absent for the session's own calls). */
    readonly worker?: {
        readonly sessionId: string;
        readonly agentId: string;
        readonly agentName: string;
    };
    /** When the worker asked (the request's `created_at`, ISO 8601), for a worker's call. */
    readonly createdAt?: string;
    /**
     * True once this chat posted an answer to it (`confirm` / `submitExternal`) and the
     * service has not yet moved on (a worker's call stays listed until `CUSTOM
     * subagent_user_confirm_result`); absent before. A second answer is refused.
     */
    readonly answered?: boolean;
}
/** The value of a `CUSTOM mcp_progress` event: an MCP tool's progress notification. */
export interface McpProgress {
    readonly progress: number;
    readonly total: number | null;
    readonly message: string | null;
    readonly reply_id: string;
    readonly tool_call_id: string;
    readonly [key: string]: unknown;
}
/** The app state of one chat's session (see the module comment); `Chat` owns one. */
export declare class AppState {
    #private;
    /** See `ChatSnapshot.state`. */
    state: SessionState | null;
    /** See `ChatSnapshot.session`. */
    view: SessionView | null;
    /** See `ChatSnapshot.progress`. */
    progress: Readonly<Record<string, McpProgress>>;
    /** The session routes (null for a transport without `request`). */
    readonly sessions: SessionsClient | null;
    /** `changed` is called when the state changed; `report` with errors nobody awaits (a reload after `signal` aborted is not reported). */
    constructor(sessionId: string, sessions: SessionsClient | null, signal: AbortSignal, changed: () => void, report: (error: unknown) => void);
    /** Team workers' calls waiting for an answer, in the order they came. */
    workerCalls(): ChatPendingAction[];
    /** Takes in an event of the stream (once per event): a `CUSTOM`'s value, a call's end for its progress. */
    apply(event: AgentEvent): void;
    /** Takes in the session's record a `PATCH` answered: `session` (when the list entry is known) and `state` as the service now holds them. */
    applyRecord(record: SessionRecord): void;
    /** Loads the session's record and state from the session list; one at a time (a second call meanwhile loads once more after). */
    load(): Promise<void>;
}
