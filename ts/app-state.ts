// The app state an AgentScope service carries on a session's stream beside the replies
// (agentscope 2.0.11's CUSTOM events: docs/chat.md), as a Chat's snapshot shows it: the
// session's tasks and permission context, its record from the session list, MCP
// progress per tool call, and team workers' calls waiting for an answer.
import type { AgentEvent } from "./event.js";
import type { ToolCallBlock } from "./message.js";
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
  readonly worker?: { readonly sessionId: string; readonly agentId: string; readonly agentName: string };
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
export class AppState {
  /** See `ChatSnapshot.state`. */
  state: SessionState | null = null;
  /** See `ChatSnapshot.session`. */
  view: SessionView | null = null;
  /** See `ChatSnapshot.progress`. */
  progress: Readonly<Record<string, McpProgress>> = Object.freeze({});
  /** The session routes (null for a transport without `request`). */
  readonly sessions: SessionsClient | null;
  readonly #sessionId: string;
  readonly #signal: AbortSignal;
  readonly #changed: () => void;
  readonly #report: (error: unknown) => void;
  #viewLoading: Promise<void> | undefined;
  /** how many `state_updated` events were taken in (a list entry read before the last one is older) */
  #stateEvents = 0;
  #viewAgain = false;
  /** team workers' calls waiting (CUSTOM subagent_require_user_confirm), by `reply_id tool_call_id` */
  #workers = new Map<string, ChatPendingAction>();

  /** `changed` is called when the state changed; `report` with errors nobody awaits (a reload after `signal` aborted is not reported). */
  constructor(sessionId: string, sessions: SessionsClient | null, signal: AbortSignal, changed: () => void, report: (error: unknown) => void) {
    this.#sessionId = sessionId;
    this.sessions = sessions;
    this.#signal = signal;
    this.#changed = changed;
    this.#report = (e) => {
      if (!signal.aborted) report(e);
    };
  }

  /** Team workers' calls waiting for an answer, in the order they came. */
  workerCalls(): ChatPendingAction[] {
    return [...this.#workers.values()];
  }

  /** Takes in an event of the stream (once per event): a `CUSTOM`'s value, a call's end for its progress. */
  apply(event: AgentEvent): void {
    if (event.type === "CUSTOM") this.#custom(event.name, event.value as Record<string, unknown> | null);
    else if (event.type === "TOOL_RESULT_END" || event.type === "REPLY_END") {
      // a call's progress ends with its result (or its reply: an interrupted call)
      const entries = Object.entries(this.progress);
      const kept = entries.filter(([call, p]) => (event.type === "TOOL_RESULT_END" ? call !== event.tool_call_id : p.reply_id !== event.reply_id));
      if (kept.length < entries.length) {
        this.progress = Object.freeze(Object.fromEntries(kept));
        this.#changed();
      }
    }
  }

  /** What the snapshot keeps of a `CUSTOM` event (agentscope 2.0.11's app events; docs/chat.md). */
  #custom(name: string, value: Record<string, unknown> | null): void {
    const v = typeof value === "object" && value !== null ? value : {};
    switch (name) {
      case "state_updated":
        // (a value without both objects is ignored, as other malformed CUSTOM events are)
        if (isRecord(v.tasks_context) && isRecord(v.permission_context)) {
          this.state = Object.freeze(v) as unknown as SessionState;
          this.#stateEvents += 1;
        }
        break;
      case "session_updated":
      case "team_updated":
        void this.load().catch(this.#report);
        break;
      case "subagent_require_user_confirm": {
        const ask = v.event as { type?: unknown; tool_calls?: unknown } | undefined;
        const replyId = v.reply_id;
        if (typeof replyId !== "string" || !Array.isArray(ask?.tool_calls)) break;
        // (a value that is not a string is malformed: "", never converted, which could throw)
        const worker = Object.freeze({ sessionId: textOf(v.worker_session_id), agentId: textOf(v.worker_agent_id), agentName: textOf(v.worker_agent_name) });
        const kind = v.event_type === "require_external_execution" || ask.type === "REQUIRE_EXTERNAL_EXECUTION" ? "external" : "confirm";
        for (const call of ask.tool_calls as ToolCallBlock[]) {
          if (typeof call?.id !== "string") continue;
          // (re-sent on every connect while it waits: once)
          const key = `${replyId} ${call.id}`;
          const createdAt = typeof v.created_at === "string" ? { createdAt: v.created_at } : {};
          if (!this.#workers.has(key)) this.#workers.set(key, Object.freeze({ kind, replyId, toolCall: call, index: -1, started: false, worker, ...createdAt }));
        }
        break;
      }
      case "subagent_user_confirm_result":
        for (const [key, action] of this.#workers) if (action.replyId === v.reply_id) this.#workers.delete(key);
        break;
      case "mcp_progress":
        if (typeof v.tool_call_id === "string") this.progress = Object.freeze({ ...this.progress, [v.tool_call_id]: Object.freeze(v) as McpProgress });
        break;
      default:
        // SOP_STEP_STARTED / SOP_STEP_ENDED and an app's own: onEvent only
        return;
    }
    this.#changed();
  }

  /** Takes in the session's record a `PATCH` answered: `session` (when the list entry is known) and `state` as the service now holds them. */
  applyRecord(record: SessionRecord): void {
    if (this.#signal.aborted || !isRecord(record.state) || !isRecord(record.state.tasks_context) || !isRecord(record.state.permission_context)) return;
    if (this.view !== null) this.view = Object.freeze({ ...this.view, session: record });
    const { tasks_context, permission_context } = record.state;
    this.state = Object.freeze({ tasks_context, permission_context });
    this.#changed();
  }

  /** Loads the session's record and state from the session list; one at a time (a second call meanwhile loads once more after). */
  load(): Promise<void> {
    const sessions = this.sessions;
    if (sessions === null) return Promise.resolve();
    if (this.#viewLoading !== undefined) {
      this.#viewAgain = true;
      return this.#viewLoading;
    }
    const load = async () => {
      do {
        this.#viewAgain = false;
        const events = this.#stateEvents;
        const view = await sessions.get(this.#sessionId, { signal: this.#signal });
        if (this.#signal.aborted) return;
        this.view = Object.freeze(view);
        // (a state_updated that came while the list was read is newer than its entry)
        if (this.#stateEvents === events) {
          const { tasks_context, permission_context } = view.session.state;
          this.state = Object.freeze({ tasks_context, permission_context });
        }
        this.#changed();
      } while (this.#viewAgain);
    };
    this.#viewLoading = load().finally(() => {
      this.#viewLoading = undefined;
    });
    return this.#viewLoading;
  }
}

/** Whether `value` is a JSON object (not null, not a list). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `value` if it is a string, else "". */
function textOf(value: unknown): string {
  return typeof value === "string" ? value : "";
}
