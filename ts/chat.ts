// `agentscope-message/chat`: a chat controller for the AgentScope 2.0 app API (the
// service of `agentscope.app.create_app`): history, one long-lived event stream per
// session into a deduplicating `Session`, send / stop / confirm / external results,
// status, reconnects. Framework-agnostic; `useChat` (agentscope-message/react) wraps it.
// Loads the .wasm itself (`init()` in `Chat.open`), so importing it never blocks a page.
import type { AgentEvent } from "./event.js";
import { LONE_SURROGATE, MsgError, bodyJSON, checkDataUrls, sessionIdSegment, toJSONText } from "./errors.js";
import { init } from "./load.js";
import { Msg, UserMsg, type ContentBlock, type ContentBlockInput, type MsgJSON, type ToolCallBlock } from "./message.js";
import { Session, pendingActions as findPending, type Diagnostic, type KeptEvent, type PendingAction } from "./session.js";
import { AppState, type ChatPendingAction, type McpProgress } from "./app-state.js";
import { SessionsClient, type PermissionMode, type SessionState, type SessionView, type SessionsTransport } from "./sessions.js";
import { VERIFY_WAIT_MS, postInput } from "./posting.js";
import { watchDeletion } from "./open-sessions.js";
import { number, sleep } from "./timing.js";
import { RunWatchdog } from "./watchdog.js";
import type { ChatInput, ChatTransport, ExternalExecutionResultInput, HistoryPage, UserConfirmResultInput } from "./transport.js";

/**
 * Where the reply of a {@link Chat} is, whatever the event stream's connection does (see
 * {@link ChatConnection}): `ready` (idle: a message may be sent), `submitted` (an input is
 * being posted or was posted, its reply has not started), `streaming` (a reply is in
 * flight, also while the stream reconnects), `stopping` (from `stop()` until the reply
 * ends or the service drops the turn), `awaiting_input` (a tool call waits for a
 * confirmation or an external result: a message sent now is refused with `busy`, since
 * the service would end the turn with an error), `error` (see `error`; a failed run, a
 * run lost with its instance (`run_lost`), or a lost service after the reconnect
 * attempts), `closed` (after `close()`; in `useChat` also while `sessionId` is null).
 * `connecting` is only `useChat`'s, until its chat has opened (loaded the history): a
 * `Chat` never has it.
 */
export type ChatStatus = "connecting" | "ready" | "submitted" | "streaming" | "stopping" | "awaiting_input" | "error" | "closed";

/**
 * The event stream's connection: `connecting` (the first connect: the chat works already,
 * a message sent now streams once the stream is open, from the service's replay log),
 * `open`, `reconnecting` (it dropped, stalled or was refused: reconnecting with backoff,
 * `error` says why), `lost` (the attempts ran out, or the session does not exist:
 * `reconnect()` tries again), `closed`.
 */
export type ChatConnection = "connecting" | "open" | "reconnecting" | "lost" | "closed";

/** What a UI renders of a {@link Chat}; frozen, the same object until something changes. */
export interface ChatSnapshot {
  /** User and assistant messages in order: stored history, then what this page sent and streamed. */
  readonly messages: readonly MsgJSON[];
  /** See {@link ChatStatus}: the reply's state (kept apart from the connection's). */
  readonly status: ChatStatus;
  /** See {@link ChatConnection}: the event stream's state. */
  readonly connection: ChatConnection;
  /** The last error (a failed request, a failed run, a lost connection), or null. */
  readonly error: MsgError | null;
  /**
   * Tool calls waiting for `confirm` or `submitExternal`: this session's, then those of its
   * team's workers projected onto it (`worker` set; see {@link ChatPendingAction}).
   */
  readonly pendingActions: readonly ChatPendingAction[];
  /**
   * The session's app state: its task list (`tasks_context`) and permission context (mode
   * and rules), loaded when the chat opens and replaced by each `CUSTOM state_updated`;
   * null until known (or with a transport that has no `request`).
   */
  readonly state: SessionState | null;
  /**
   * The session's record as the session list has it (name, status, team, config), loaded
   * when the chat opens and again after each `CUSTOM session_updated` (auto-naming, a
   * rename) or `team_updated`; null until known.
   */
  readonly session: SessionView | null;
  /**
   * The last `CUSTOM mcp_progress` of each tool call still running, by its `tool_call_id`
   * (`{progress, total, message, reply_id, tool_call_id}`); a call leaves it when its
   * result ends.
   */
  readonly progress: Readonly<Record<string, McpProgress>>;
  /**
   * Ids of replies this page joined mid-way (a reload, or a reconnect, past the service's
   * replay log: events may be missing): they show what arrived, until the stored one
   * replaces them once the run has saved.
   */
  readonly partial: readonly string[];
}

/** What `onEvent` is told beside the event. */
export interface EventInfo {
  /** A `REPLY_START` that continues a reply already met (a parked reply going on); false for any other event. */
  readonly continued: boolean;
}

/** Options of {@link Chat.open}. */
export interface ChatOptions {
  /** Resume this session (history, then the live stream); without it a new session is created. */
  sessionId?: string;
  /** A stream with no byte (not even a heartbeat) for this long is dropped and reconnected; ms, default 45,000. */
  stallMs?: number;
  /** Notifications: at most one per macrotask (0, the default) or one per this many ms. */
  throttleMs?: number;
  /** Reconnect backoff: first delay, ms (default 250), doubling up to `maxMs` (default 5,000). */
  retry?: { initialMs?: number; maxMs?: number; attempts?: number };
  /** How long a `send` retries the service's 409 right after a reply ended (the run still saves); ms, default 10,000. */
  busyWaitMs?: number;
  /** While a reply is in flight and no event came for this long, ask the service whether it still runs; ms, default 5,000. */
  statusPollMs?: number;
  /**
   * A reply with no event for this long while the service still says `running` is taken
   * as lost (the instance running it went away: the service keeps the session locked for
   * up to 10 minutes): it shows `finished_reason: "interrupted"`, status `error` (or
   * `submitted` while a message of this chat waits behind it), error `run_lost`. An event
   * for it later takes that back; the chat keeps asking the service until it is free.
   * Also how long an input whose `POST /chat/` came back waits for its run to show while
   * the service says it runs nothing (the POST answers before the run takes the session;
   * see docs/chat.md, "The run watchdog"). ms, default 120,000; Infinity: never.
   */
  lostRunMs?: number;
  /** Speaker name of user turns sent as text (default `"user"`). */
  userName?: string;
  /** Called with errors nobody awaits: a refused event, a lost connection, a listener that threw. */
  onError?: (error: unknown) => void;
  /**
   * Called once with each reply that ends while the chat is open: when its `REPLY_END`
   * arrived, or, for one that ended while the stream was away (stalled, reconnecting), when
   * the stored history shows it ended. Called after the chat's state says it is over (a
   * `send` from inside it is not refused `busy`).
   */
  onFinish?: (message: MsgJSON) => void;
  /**
   * Called with every event of the session's stream, of every type (`CUSTOM` included:
   * `session_updated`, `state_updated`, `team_updated`, `subagent_require_user_confirm`,
   * `mcp_progress`, …; see docs/chat.md), once per event `id` across reconnects and
   * replays, in stream order, after the reducer applied it (the snapshot already holds
   * it). The events the chat makes up itself (to open a reply it joined mid-way) are not
   * passed, nor those the stream never brought (a `REPLY_END` of a reply that ended while
   * the stream reconnected: `onFinish` is still called for it). `info.continued` is true
   * for a `REPLY_START` that continues a reply already met (after a confirmation or an
   * external result; the Rust `Update`'s `continued`), false otherwise. A listener that
   * throws is reported to `onError`.
   */
  onEvent?: (event: AgentEvent, info: EventInfo) => void;
}

/** `T` with every list read-only or not (a mutable list is one too), all the way down. */
type ReadonlyDeep<T> = T extends readonly (infer U)[] ? readonly ReadonlyDeep<U>[] : T extends object ? { readonly [K in keyof T]: ReadonlyDeep<T[K]> } : T;

/**
 * A block as `Chat.send` takes it: a content block's wire JSON, the keys with a default
 * optional, its lists read-only or mutable. So the chat's own blocks (`ContentBlock` of a
 * message it handed out), blocks built for `agentscope-message/compat` (`TextBlock({...})`,
 * its `ContentBlock` / `ReadonlyContentBlock`) and literals all fit.
 */
export type SendBlock = ReadonlyDeep<ContentBlockInput>;

/**
 * What `Chat.send` takes: text; the blocks of a user message (text and data blocks); the
 * content and metadata of one; or a whole user message (a `Msg`, its JSON, or a
 * `agentscope-message/compat` message).
 */
export type SendInput = string | readonly SendBlock[] | { readonly content: string | readonly SendBlock[]; readonly metadata?: { readonly [key: string]: unknown } } | Msg | MsgJSON;

/** An answer to an external execution (`submitExternal`): the tool result's output. */
export interface ExternalResult {
  /** The id of the tool call answered. */
  toolCallId: string;
  /** The result: a string, or text/data blocks. */
  output: string | ContentBlockInput[];
  /** The result's state (default `"success"`). */
  state?: "success" | "error" | "interrupted" | "denied";
  /**
   * The result's metadata. AgentScope's `AskUser` requires `{answers: [{question,
   * selected: [...]}]}` on a success (without it the run ends with an error and the call
   * stays waiting).
   */
  metadata?: Record<string, unknown>;
}

/** The latest time a message holds (its own and its blocks' `created_at` / `finished_at`). */
function newest(m: MsgJSON): string {
  let latest = "";
  const see = (t: unknown) => {
    if (typeof t === "string" && (latest === "" || before(latest, t))) latest = t;
  };
  see(m.created_at);
  see(m.finished_at);
  for (const b of m.content) {
    see((b as { created_at?: unknown }).created_at);
    see((b as { finished_at?: unknown }).finished_at);
  }
  return latest;
}

/** Whether time `a` is before time `b` (ISO 8601; the service's own, microseconds, compared as text). */
function before(a: unknown, b: string): boolean {
  if (typeof a !== "string" || b === "") return false;
  if (a.length === b.length && !a.endsWith("Z") && !b.endsWith("Z")) return a < b;
  const x = Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(a) ? a : `${a}Z`);
  const y = Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(b) ? b : `${b}Z`);
  return x < y;
}



type Settings = Required<Pick<ChatOptions, "stallMs" | "throttleMs" | "busyWaitMs" | "statusPollMs" | "lostRunMs">> & ChatOptions;
type Retry = { initialMs: number; maxMs: number; attempts: number };

type TailEntry = { kind: "user"; msg: MsgJSON } | { kind: "reply"; id: string };

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
export class Chat {
  /** The session's id (given, or created by `open`). */
  readonly sessionId: string;
  readonly #transport: ChatTransport;
  readonly #options: Settings;
  readonly #retry: Retry;
  #session: Session;
  #history: MsgJSON[] = [];
  #historyIds = new Set<string>();
  #hasMore = false;
  #cursor: string | null = null;
  #tail: TailEntry[] = [];
  #tailReplies = new Set<string>();
  #partial = new Set<string>();
  /** replies the service says are over though no REPLY_END came: the snapshot object then */
  #settled = new Map<string, MsgJSON>();
  /** replies told to `onFinish`, with the end told (`finished_at`): one end is told once */
  #finished = new Map<string, string>();
  /** replies (the session's message objects) replaced by the stored one at rest: equal to the store until they change */
  #reconciled = new WeakSet<MsgJSON>();
  #link: ChatConnection = "connecting";
  /** `stop()` was called and the reply it stops has not ended (status `stopping`) */
  #stopping = false;
  /** the interrupt of the stop under way was answered (a page at rest then ends the stop) */
  #interrupted = false;
  /** tool calls answered (or being answered) by this chat: not answered again */
  #answered = new Set<string>();
  /** replies whose start this chat met (a later REPLY_START of one continues it) */
  #started = new Set<string>();
  /** replies the history shows ended, as stored: the stream's later events of them are stale */
  #ended = new Map<string, MsgJSON>();
  /** replies waiting for an answer (reloaded once when they park) */
  #parked = new Set<string>();
  /** the message objects looked at for #parked */
  #parkSeen = new WeakSet<MsgJSON>();
  /** stored replies put in, until their next REPLY_START (see #insertStored) */
  #stored = new Map<string, MsgJSON>();
  /** whether a page of history was merged (the first is what the chat opened on) */
  #merged = false;
  /** the `POST /chat/` of a `send` or an answer in flight (`stop()` waits for it) */
  #sending: Promise<unknown> | undefined;
  #closed = false;
  #fatal = false;
  #error: MsgError | null = null;
  /** the input posted whose run has not shown yet: its user messages' ids, or the reply and calls it answers */
  #submit: { kind: "send" | "answer"; replies: number; ids?: readonly string[]; replyId?: string; seen?: MsgJSON; calls?: readonly string[] } | null = null;
  #runError = false;
  /** the run was taken as lost (lostRunMs) and nothing has come of it since */
  #runLost = false;
  /** replies joined mid-way that the service never stored (a stray or foreign event): not shown */
  #hidden = new Set<string>();
  /**
   * user turns posted that the store does not hold yet: the replies seen before each was
   * sent, and whether a run after it is over (a reply that came after it ended, or the
   * watchdog found the service idle)
   */
  #posted = new Map<MsgJSON, { replies: number; over: boolean; stopped?: boolean }>();
  /** the service said a run holds the session (history's is_running) and no reply of it has ended since */
  #serviceRunning = false;
  #diagnostics: Diagnostic[] = [];
  #connection: AbortController | undefined;
  #lifetime = new AbortController();
  /** replies taken as lost (see lostRunMs): the message as it was then */
  #lost = new Map<string, MsgJSON>();
  /** a lost reply as shown: its message with finished_reason "interrupted" */
  #lostShown = new WeakMap<MsgJSON, MsgJSON>();
  #lastLive: unknown;
  /**
   * replies in flight when the stream (re)connected whose first event on it has not come:
   * one that is not their REPLY_START means the replay did not hold the whole reply
   */
  #unchecked = new Set<string>();
  #uncheckedFrames = 0;
  /** asks the service about a run that went quiet (statusPollMs, lostRunMs) */
  readonly #watchdog: RunWatchdog;
  #refreshing: Promise<void> | undefined;
  /** Resolved once the reload on its way failed past the retry attempts (it goes on). */
  #tired: Promise<void> = Promise.resolve();
  /** a reload asked for while one was on its way: it follows that one (waiting for idle if any asker wanted it) */
  #refreshAgain: { untilIdle: boolean; done: Promise<void> } | undefined;
  #listeners = new Set<() => void>();
  #snapshot: ChatSnapshot | undefined;
  #dirty = true;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #lastNotify = 0;
  #agentName = "assistant";
  /** the app state the stream carries (state, session record, progress, team workers' calls) */
  readonly #app: AppState;

  /** unregisters the chat from `SessionsClient.remove` (see #deleted) */
  #unwatch = (): void => {};

  private constructor(transport: ChatTransport, sessionId: string, options: ChatOptions) {
    this.#transport = transport;
    this.sessionId = sessionId;
    [this.#options, this.#retry] = Chat.#normalize(options);
    this.#session = new Session({ dedup: true, keepEvents: true });
    const t = transport as Partial<SessionsTransport>;
    const sessions = typeof t.request === "function" && typeof t.agentId === "string" ? new SessionsClient(transport as unknown as SessionsTransport) : null;
    this.#app = new AppState(sessionId, sessions, this.#lifetime.signal, () => this.#changed(), (e) => {
      if (!this.#closed) this.#report(e);
    });
    this.#watchdog = new RunWatchdog(
      {
        closed: () => this.#closed,
        watched: () => this.#watched(),
        mayLose: () => this.#link === "open" && !this.#runLost,
        status: () => this.#transport.status(this.sessionId, { signal: this.#lifetime.signal }),
        lost: (quietMs) => this.#markLost(quietMs),
        awaited: () => this.#awaited(),
        over: () => this.#runOver(),
        report: (e) => this.#report(e),
      },
      this.#options,
    );
  }

  /** The options checked and defaulted; `invalid_argument` for a bad one. */
  static #normalize(options: ChatOptions): [Settings, Retry] {
    for (const name of ["onError", "onFinish", "onEvent"] as const) {
      if (options[name] !== undefined && typeof options[name] !== "function") throw new MsgError("invalid_argument", `chat option ${name} must be a function`);
    }
    if (options.retry !== undefined && (typeof options.retry !== "object" || options.retry === null)) {
      throw new MsgError("invalid_argument", "chat option retry must be {initialMs?, maxMs?, attempts?}");
    }
    if (options.userName !== undefined && typeof options.userName !== "string") throw new MsgError("invalid_argument", "chat option userName must be a string");
    const settings: Settings = {
      ...options,
      // Infinity: never dropped for silence
      stallMs: number(options.stallMs, "stallMs", 45_000, 1, true),
      throttleMs: number(options.throttleMs, "throttleMs", 0),
      busyWaitMs: number(options.busyWaitMs, "busyWaitMs", 10_000),
      statusPollMs: number(options.statusPollMs, "statusPollMs", 5_000, 1),
      lostRunMs: number(options.lostRunMs, "lostRunMs", 120_000, 1, true),
    };
    const retry: Retry = {
      initialMs: number(options.retry?.initialMs, "retry.initialMs", 250),
      maxMs: number(options.retry?.maxMs, "retry.maxMs", 5_000),
      attempts: number(options.retry?.attempts, "retry.attempts", 8, 0, true),
    };
    return [settings, retry];
  }

  /**
   * Opens a chat: loads the .wasm if needed (`init()`), creates a session (or takes
   * `options.sessionId`), loads its latest stored history and opens its event stream.
   * Resolves once the history is loaded (the stream connects in the background: status
   * `connecting`, then `ready`). Rejects with `MsgError` (`http_error` with `status` 404
   * for an unknown session, or for an answer that is not the JSON it should be;
   * `service_unavailable`; `invalid_argument`, before any request, for a `sessionId` that
   * is not one path segment: empty, `.`, `..`, or with a lone surrogate).
   */
  static async open(transport: ChatTransport, options: ChatOptions = {}): Promise<Chat> {
    if (typeof transport !== "object" || transport === null || typeof transport.stream !== "function") {
      throw new MsgError("invalid_argument", "Chat.open takes a ChatTransport (e.g. new AgentScopeTransport({...}))");
    }
    if (typeof options !== "object" || options === null) throw new MsgError("invalid_argument", "chat options must be an object");
    if (options.sessionId !== undefined) sessionIdSegment(options.sessionId, "chat option sessionId");
    Chat.#normalize(options); // bad options are refused before a session is made
    await init();
    const sessionId = options.sessionId ?? (await transport.createSession());
    const chat = new Chat(transport, sessionId, options);
    try {
      // the record and state come from the session list: a failure there is reported, not fatal
      const view = chat.#app.load().then(
        () => undefined,
        (e: unknown) => e ?? new Error("the session list failed"),
      );
      chat.#merge(await transport.history(sessionId));
      const failed = await view;
      // the history route does not check the agent: the list does (another agent's session)
      if (failed instanceof MsgError && failed.code === "http_error" && failed.status === 404) throw failed;
      if (failed !== undefined) chat.#report(failed);
    } catch (e) {
      chat.#session.free();
      throw e;
    }
    chat.#unwatch = watchDeletion(sessionId, () => chat.#deleted());
    void chat.#run();
    chat.#watchdog.start();
    return chat;
  }

  // ---------------------------------------------------------------- reading

  /** The current snapshot (bound: pass `chat.getSnapshot` as is). */
  getSnapshot = (): ChatSnapshot => {
    if (this.#snapshot !== undefined && !this.#dirty) return this.#snapshot;
    this.#dirty = false;
    const session = this.#closed && this.#snapshot !== undefined ? undefined : this.#session.getSnapshot();
    const live = session?.messages;
    if (session === undefined || live === undefined) return this.#snapshot!;
    const byId = new Map(live.map((m) => [m.id, this.#shown(m)]));
    const messages: MsgJSON[] = [];
    for (const m of this.#history) messages.push(byId.get(m.id) ?? m);
    for (const t of this.#tail) {
      if (t.kind === "user") {
        if (!this.#historyIds.has(t.msg.id)) messages.push(t.msg);
      } else if (!this.#historyIds.has(t.id) && !this.#hidden.has(t.id)) {
        const m = byId.get(t.id);
        if (m !== undefined) messages.push(m);
      }
    }
    const prev = this.#snapshot;
    const same = prev !== undefined && prev.messages.length === messages.length && prev.messages.every((m, i) => m === messages[i]);
    // the calls asked about in the messages, then those their reply never started
    const pending: ChatPendingAction[] = [...findPending(messages), ...session.unstartedCalls, ...this.#app.workerCalls()].map((a) =>
      this.#answered.has(a.toolCall.id) ? Object.freeze({ ...a, answered: true }) : a,
    );
    const samePending =
      prev !== undefined &&
      prev.pendingActions.length === pending.length &&
      prev.pendingActions.every((a, i) => a.toolCall === pending[i]!.toolCall && a.kind === pending[i]!.kind && a.answered === pending[i]!.answered);
    const status = this.#status(messages, pending.filter((a) => a.worker === undefined));
    const connection = this.#closed ? "closed" : this.#link;
    const error = this.#error;
    const partial = [...this.#partial];
    if (
      prev !== undefined && same && samePending && prev.status === status && prev.connection === connection && prev.error === error &&
      prev.partial.join("\n") === partial.join("\n") && prev.state === this.#app.state && prev.session === this.#app.view && prev.progress === this.#app.progress
    ) {
      return prev;
    }
    this.#snapshot = Object.freeze({
      messages: same ? prev.messages : Object.freeze(messages),
      status,
      connection,
      error,
      pendingActions: samePending ? prev.pendingActions : Object.freeze(pending),
      state: this.#app.state,
      session: this.#app.view,
      progress: this.#app.progress,
      partial: Object.freeze(partial),
    });
    return this.#snapshot;
  };

  /** A live message as shown: a lost reply (see lostRunMs) with `finished_reason: "interrupted"`. */
  #shown(m: MsgJSON): MsgJSON {
    if (this.#lost.get(m.id) !== m) return m;
    let shown = this.#lostShown.get(m);
    if (shown === undefined) {
      shown = Object.freeze({ ...m, finished_reason: "interrupted" }) as MsgJSON;
      this.#lostShown.set(m, shown);
    }
    return shown;
  }

  /** `getSnapshot().messages`. */
  get messages(): readonly MsgJSON[] {
    return this.getSnapshot().messages;
  }

  /** `getSnapshot().status`. */
  get status(): ChatStatus {
    return this.getSnapshot().status;
  }

  /** `getSnapshot().error`. */
  get error(): MsgError | null {
    return this.getSnapshot().error;
  }

  /** `getSnapshot().pendingActions`. */
  get pendingActions(): readonly ChatPendingAction[] {
    return this.getSnapshot().pendingActions;
  }

  /**
   * Resolves with the first snapshot (now or later) whose status is `ready`,
   * `awaiting_input`, `error` or `closed`: the reply in flight has ended, parked, or failed.
   * For scripts and tests; a UI subscribes instead.
   */
  settled(): Promise<ChatSnapshot> {
    const done = (s: ChatSnapshot) => s.status === "ready" || s.status === "awaiting_input" || s.status === "error" || s.status === "closed";
    const now = this.getSnapshot();
    if (done(now)) return Promise.resolve(now);
    return new Promise((resolve) => {
      const unsubscribe = this.subscribe(() => {
        const s = this.getSnapshot();
        if (!done(s)) return;
        unsubscribe();
        resolve(s);
      });
      // close() notifies before it drops the listeners
    });
  }

  /** Whether older stored messages exist (see {@link Chat.loadOlder}). */
  get hasMore(): boolean {
    return this.#hasMore;
  }

  /** What the stream's `Session` skipped (the last 200): stale replays, events of replies it never saw start. */
  get diagnostics(): readonly Diagnostic[] {
    return this.#diagnostics;
  }

  /**
   * Calls `listener` when the snapshot changed: at most once per macrotask (or per
   * `throttleMs`), never inside a call of the chat. A listener that throws is reported to
   * `onError` (or the console) and the others still run. Returns the unsubscribe function.
   */
  subscribe = (listener: () => void): (() => void) => {
    if (typeof listener !== "function") throw new MsgError("invalid_argument", "a listener must be a function");
    if (this.#closed) return () => {};
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  };

  #status(messages: readonly MsgJSON[], pending: readonly PendingAction[]): ChatStatus {
    if (this.#closed) return "closed";
    if (this.#fatal) return "error";
    const busy = this.#replyStatus(messages, pending);
    if (busy !== undefined) return this.#stopping ? "stopping" : busy;
    this.#stopping = false; // the reply stopped has ended (or was dropped)
    if (this.#runError || this.#runLost) return "error";
    return "ready";
  }

  /** `submitted`, `streaming` or `awaiting_input` while a reply is under way, else undefined. */
  #replyStatus(messages: readonly MsgJSON[], pending: readonly PendingAction[]): ChatStatus | undefined {
    if (this.#submit !== null) return "submitted";
    if (this.#inFlight(messages)) return "streaming";
    // a run we joined whose events have not come yet (a reload, another tab's send)
    if (this.#serviceRunning && pending.length === 0 && !this.#runLost) return "streaming";
    if (pending.length > 0) return "awaiting_input";
    return undefined;
  }

  /** A reply started and not ended, that the service has not been found idle on since. */
  #inFlight(messages: readonly MsgJSON[]): boolean {
    for (const m of messages) {
      if (m.role !== "assistant" || (!this.#tailReplies.has(m.id) && !this.#live(m.id)) || this.#hidden.has(m.id)) continue;
      if (this.#session.isEnded(m.id) || this.#lost.has(m.id)) continue;
      const settled = this.#settled.get(m.id);
      if (settled !== undefined && settled === m) continue;
      if (findPending(m).length > 0) continue;
      return true;
    }
    return false;
  }

  #live(id: string): boolean {
    return this.#session.get(id) !== undefined;
  }

  #changed(): void {
    this.#dirty = true;
    if (this.#closed || this.#timer !== undefined || this.#listeners.size === 0) return;
    const wait = Math.max(0, this.#lastNotify + this.#options.throttleMs - Date.now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#lastNotify = Date.now();
      for (const listener of [...this.#listeners]) {
        try {
          listener();
        } catch (e) {
          this.#report(e);
        }
      }
    }, wait);
  }

  #failover(): void {
    try {
      this.#transport.failover?.();
    } catch (e) {
      this.#report(e);
    }
  }

  #report(error: unknown): void {
    try {
      if (this.#options.onError) this.#options.onError(error);
      else console.error("agentscope-message/chat:", error);
    } catch {
      // an onError that throws has nowhere else to go
    }
  }

  #fail(error: MsgError, fatal = false): void {
    this.#error = error;
    if (fatal) this.#fatal = true;
    this.#changed();
  }

  // ---------------------------------------------------------------- history

  /** Merges a page of stored messages (by id; new ones after the known ones, in order). */
  #merge(page: HistoryPage, before?: ReadonlySet<string>): void {
    // (the page the chat opens on: what it holds ended before)
    const first = !this.#merged;
    this.#merged = true;
    const index = new Map(this.#history.map((m, i) => [m.id, i]));
    for (const m of page.messages) {
      if (typeof m !== "object" || m === null || typeof m.id !== "string") continue;
      const i = index.get(m.id);
      if (i === undefined) {
        index.set(m.id, this.#history.length);
        this.#history.push(m);
      } else {
        this.#history[i] = m;
      }
      this.#historyIds.add(m.id);
      this.#hidden.delete(m.id); // (stored: shown)
      if (m.role === "assistant" && typeof m.name === "string") this.#agentName = m.name;
    }
    if (this.#history.length === page.messages.length) this.#hasMore = page.hasMore;
    this.#cursor = page.eventCursor ?? this.#cursor;
    this.#serviceRunning = page.isRunning;
    for (const m of page.messages) {
      if (m?.role !== "assistant") continue;
      const ours = this.#session.get(m.id);
      const parked = findPending(m).length > 0;
      if (ours === undefined) {
        // a reply parked on a human or an external executor: its continuation (a second
        // REPLY_START with the same id) must find it
        if (parked) this.#insertStored(m);
      } else if (this.#partial.has(m.id) || (!page.isRunning && !this.#reconciled.has(ours))) {
        // joined mid-way, or the run is over: parked (its continuation may have been missed)
        // or ended (its end may have been missed, or its events came out of order): the
        // stored one is whole, and what the page shows. An ended one is never continued: put
        // in once, it stays (a parked one is put in at every rest).
        this.#insertStored(m);
        this.#partial.delete(m.id);
        const now = this.#session.get(m.id);
        if (!page.isRunning && now !== undefined) {
          // at rest it is over: not in flight (no wait for the watchdog)
          this.#settled.set(m.id, now);
          if (m.finished_at !== null) this.#reconciled.add(now);
        }
      }
    }
    if (!page.isRunning) {
      // at rest after the interrupt: the stop is over (the reply ended, or stays parked)
      if (this.#stopping && this.#interrupted) this.#stopping = false;
      // at rest, what the store lacks was dropped by the service: a turn whose run is
      // over (stopped before it saved), a reply it never stored
      let dropped = 0;
      for (const [msg, posted] of this.#posted) {
        if (this.#historyIds.has(msg.id)) this.#posted.delete(msg);
        else if (posted.over) {
          this.#posted.delete(msg);
          this.#tail = this.#tail.filter((t) => !(t.kind === "user" && t.msg === msg));
          if (!posted.stopped) dropped += 1;
        }
      }
      if (dropped > 0 && !this.#fatal) {
        // not stopped, yet not stored: its run died with its instance (or never ran)
        this.#error = new MsgError(
          "run_lost",
          `${dropped === 1 ? "a message was" : `${dropped} messages were`} not stored: the run it started is over without saving (its instance likely went away); send it again`,
        );
      }
      // a reply streamed whose run is over without an end, that the store lacks (a dead
      // run's events replayed from the log): not shown
      for (const id of before ?? this.#tailReplies) {
        if (!this.#historyIds.has(id) && this.#session.get(id) !== undefined && !this.#session.isEnded(id)) this.#hidden.add(id);
      }
      for (const id of this.#partial) {
        if (!this.#historyIds.has(id)) this.#hidden.add(id);
      }
      this.#partial.clear();
      // a lost reply the service never stored, once it is free again
      for (const id of this.#lost.keys()) {
        if (!this.#historyIds.has(id)) this.#hidden.add(id);
      }
      this.#lost.clear();
      this.#clearLost();
    }
    this.#tail = this.#tail.filter((t) => (t.kind === "user" ? !this.#historyIds.has(t.msg.id) : !this.#historyIds.has(t.id)));
    // the input posted is stored, and its run over or its reply ended: it is no longer on
    // its way (its events may never have come: the stream was away)
    const submit = this.#submit;
    if (submit !== null) {
      const at = submit.kind === "send" ? page.messages.findIndex((m) => m?.id === submit.ids?.at(-1)) : -1;
      if (at >= 0 && (!page.isRunning || page.messages.slice(at + 1).some((m) => m?.role === "assistant" && m.finished_at !== null && m.finished_at !== undefined))) {
        this.#submit = null;
      }
      if (submit.kind === "answer") {
        const reply = page.messages.find((m) => m?.id === submit.replyId);
        const waiting = reply === undefined ? [] : findPending(reply).map((a) => a.toolCall.id);
        if (reply !== undefined && !(submit.calls ?? []).every((id) => waiting.includes(id))) this.#submit = null;
      }
    }
    // a reply that ended while the stream was away (stalled, reconnecting: its REPLY_END is
    // before the cursor the reconnect replays from) is over once stored as ended; those the
    // chat opened on were over before it
    const finished: MsgJSON[] = [];
    for (const m of page.messages) {
      if (m?.role === "assistant" && m.finished_at !== null && m.finished_at !== undefined) {
        this.#ended.set(m.id, m);
        this.#stored.delete(m.id);
      }
      if (m?.role !== "assistant" || m.finished_at === null || m.finished_at === undefined || this.#finished.get(m.id) === m.finished_at) continue;
      this.#finished.set(m.id, m.finished_at);
      if (!first && !this.#hidden.has(m.id)) finished.push(this.#session.get(m.id) ?? m);
    }
    this.#changed();
    this.#finish(finished);
  }

  /**
   * Puts in a stored reply (parked, or ended): until its next `REPLY_START` (a
   * continuation), an event of it the stream still brings (held back by a stall: the
   * stored one already holds it) is undone by putting the stored one in again.
   */
  #insertStored(m: MsgJSON): void {
    this.#stored.set(m.id, m);
    this.#insert(m);
  }

  /** Puts `m` (stored, ended) in again after a late event of it; it stays over. */
  #restoreEnded(m: MsgJSON): void {
    this.#insert(m);
    const now = this.#session.get(m.id);
    if (now !== undefined) {
      this.#settled.set(m.id, now);
      this.#reconciled.add(now);
    }
  }

  /** After a frame's events: the late ones of a stored reply put in are undone (see {@link Chat.#insertStored}). */
  #undoLate(kept: readonly KeptEvent[]): void {
    let late: Set<string> | undefined;
    let ended: Set<string> | undefined;
    for (const { outcome, event } of kept) {
      const id = (event as { reply_id?: unknown }).reply_id;
      if (typeof id !== "string") continue;
      // an answer's echo opens the continuation (its REPLY_START comes next, and may be
      // lost); a REPLY_END closes one (a parked reply is stored without an end: it is new,
      // and the reload after it puts in what came between)
      if ((event.type === "USER_CONFIRM_RESULT" || event.type === "EXTERNAL_EXECUTION_RESULT" || event.type === "REPLY_END") && this.#stored.has(id)) {
        this.#stored.delete(id);
        late?.delete(id);
        continue;
      }
      if (outcome !== "applied") continue;
      // a reply stored as ended is over: what the stream still brings of it is stale (a
      // replay held back, a lone REPLY_START of an interrupt at rest)
      if (this.#ended.has(id)) {
        (ended ??= new Set()).add(id);
        continue;
      }
      if (!this.#stored.has(id)) continue;
      // a continuation (after an interrupt of the parked reply: no echo) starts later than
      // anything the stored one holds; the reply's own start, held back, does not
      if (event.type === "REPLY_START" && !before((event as { created_at?: unknown }).created_at, newest(this.#stored.get(id)!))) {
        this.#stored.delete(id);
        late?.delete(id);
      } else {
        (late ??= new Set()).add(id);
      }
    }
    for (const id of late ?? []) this.#insert(this.#stored.get(id)!);
    for (const id of ended ?? []) this.#restoreEnded(this.#ended.get(id)!);
  }

  #insert(m: MsgJSON): void {
    try {
      this.#session.insert(m);
      this.#settled.delete(m.id);
    } catch (e) {
      this.#report(e);
    }
  }

  /**
   * Loads the page of stored messages before the oldest one shown; resolves whether more
   * remain. Rejects with the transport's `MsgError`.
   */
  async loadOlder(): Promise<boolean> {
    this.#open();
    if (!this.#hasMore || this.#history.length === 0) return false;
    const page = await this.#transport.history(this.sessionId, { before: this.#history[0]!.id, signal: this.#lifetime.signal });
    const known = new Set(this.#history.map((m) => m.id));
    const older = page.messages.filter((m) => !known.has(m.id));
    this.#history = [...older, ...this.#history];
    for (const m of older) this.#historyIds.add(m.id);
    this.#hasMore = page.hasMore;
    this.#changed();
    return this.#hasMore;
  }

  /**
   * Reloads the latest stored page (after a run ended, or on a reconnect); one at a time:
   * one asked for while another is on its way follows it (that one's page may have been
   * read before what asks, e.g. a reply that ended meanwhile). A failed reload (an HTTP
   * 5xx, a timeout, a broken connection) is tried again with the reconnect backoff
   * (`retry`): it is what repairs a reply joined mid-way and puts in the stored replies.
   * Past the attempts it goes on at the longest delay until it succeeds (or the chat
   * closes), with `error` saying so; what waits for it is let go then.
   */
  #refresh(untilIdle: boolean): Promise<void> {
    if (this.#refreshing !== undefined) {
      if (this.#refreshAgain !== undefined) {
        this.#refreshAgain.untilIdle ||= untilIdle;
        return Promise.race([this.#refreshAgain.done, this.#tired]);
      }
      const again = { untilIdle, done: Promise.resolve() };
      again.done = this.#refreshing.then(() => {
        this.#refreshAgain = undefined;
        return this.#closed || this.#fatal ? undefined : this.#refresh(again.untilIdle);
      });
      this.#refreshAgain = again;
      return Promise.race([again.done, this.#tired]);
    }
    let tire = () => {};
    this.#tired = new Promise<void>((resolve) => (tire = resolve));
    this.#refreshing = (async () => {
      try {
        let wait = 100;
        let failures = 0;
        let reloadError: MsgError | undefined;
        for (let i = 0; ; i++) {
          let page: HistoryPage;
          // (the replies met before the page was asked for: a later one is not in it yet)
          const before = new Set(this.#tailReplies);
          try {
            page = await this.#transport.history(this.sessionId, { signal: this.#lifetime.signal });
          } catch (e) {
            if (this.#closed) return;
            this.#report(e);
            failures += 1;
            const lasting = e instanceof MsgError && e.code === "http_error" && e.status !== undefined && e.status < 500 && e.status !== 408 && e.status !== 429;
            if (lasting && e.status === 404 && !this.#closed) {
              // the session was deleted under the chat: it will not come back
              this.#link = "lost";
              this.#fail(e, true);
              this.#connection?.abort(e);
              return;
            }
            if (lasting) {
              this.#fail(e as MsgError);
              return;
            }
            if (failures > this.#retry.attempts && !(this.#error instanceof MsgError && this.#error === reloadError)) {
              // past the attempts: the app is told, and the reload goes on at the longest
              // delay (it is what repairs a reply joined mid-way; nothing else would)
              reloadError = new MsgError(
                "service_unavailable",
                `could not reload the stored messages (${(e as Error)?.message ?? e}); trying again every ${this.#retry.maxMs} ms`,
                { cause: e },
              );
              this.#fail(reloadError);
              tire(); // (what waits for it goes on: the stream reconnects meanwhile)
            }
            await sleep(Math.min(this.#retry.maxMs, this.#retry.initialMs * 2 ** (Math.min(failures, 30) - 1)), this.#lifetime.signal);
            if (this.#closed || this.#fatal) return;
            continue;
          }
          if (reloadError !== undefined && this.#error === reloadError) this.#error = null;
          if (!untilIdle || !page.isRunning || i >= 40) {
            this.#merge(page, before);
            return;
          }
          await sleep(wait, this.#lifetime.signal);
          wait = Math.min(wait * 1.5, 1000);
          if (this.#closed) return;
        }
      } finally {
        this.#refreshing = undefined;
        tire();
      }
    })();
    return Promise.race([this.#refreshing, this.#tired]);
  }

  // ---------------------------------------------------------------- the stream

  async #run(): Promise<void> {
    let failures = 0;
    let first = true;
    while (!this.#closed && !this.#fatal) {
      const controller = new AbortController();
      this.#connection = controller;
      const stop = () => controller.abort(new MsgError("closed", "the chat was closed"));
      this.#lifetime.signal.addEventListener("abort", stop, { once: true });
      // a connection counts as healthy once it brought an event (applied or a replayed
      // duplicate) or stayed open 10 s: only then do the reconnect attempts start afresh
      let healthy = false;
      const opened = Date.now();
      try {
        if (!first) await this.#refresh(false);
        first = false;
        // no byte (not even the headers) for stallMs: the connection is dropped and replaced
        let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
        let stall: ReturnType<typeof setTimeout> | undefined;
        const arm = () => {
          clearTimeout(stall);
          if (this.#options.stallMs === Infinity) return;
          stall = setTimeout(() => {
            controller.abort(new MsgError("service_unavailable", `the event stream stalled: no byte for ${this.#options.stallMs} ms`));
            void reader?.cancel().catch(() => {});
          }, this.#options.stallMs);
        };
        arm();
        try {
          const response = await this.#transport.stream(this.sessionId, { after: this.#cursor, signal: controller.signal });
          if (response.body === null) throw new MsgError("service_unavailable", "the event stream has no body");
          this.#link = "open";
          this.#error = this.#fatal ? this.#error : null;
          this.#changed();
          this.#session.restartStream();
          this.#unchecked = new Set(
            this.#session
              .getSnapshot()
              .messages.filter((m) => !this.#session.isEnded(m.id) && !this.#historyIds.has(m.id) && !this.#hidden.has(m.id) && this.#settled.get(m.id) !== m)
              .map((m) => m.id),
          );
          this.#uncheckedFrames = 0;
          reader = response.body.getReader();
          arm();
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            arm();
            if (this.#feed(value) > 0 && !healthy) {
              healthy = true;
              failures = 0;
            }
          }
        } finally {
          clearTimeout(stall);
          reader?.releaseLock();
        }
        throw new MsgError("service_unavailable", "the event stream ended");
      } catch (e) {
        if (this.#closed) return;
        const error = controller.signal.aborted && controller.signal.reason instanceof MsgError ? controller.signal.reason : e;
        const msgError = error instanceof MsgError ? error : new MsgError("service_unavailable", `the event stream broke: ${(error as Error)?.message ?? error}`);
        // a session that does not exist (or is not the user's) will not come back
        if (msgError.code === "http_error" && msgError.status !== undefined && msgError.status >= 400 && msgError.status < 500 && msgError.status !== 408 && msgError.status !== 429) {
          this.#link = "lost";
          this.#fail(msgError, true);
          return;
        }
        if (!healthy && Date.now() - opened >= 10_000) failures = 0;
        failures += 1;
        this.#link = "reconnecting";
        // the next attempt goes to another instance (a transport over several)
        this.#failover();
        this.#report(msgError);
        if (failures > this.#retry.attempts) {
          this.#link = "lost";
          this.#fail(new MsgError("service_unavailable", `lost the service: ${msgError.message} (${failures} attempts; call reconnect())`), true);
          return;
        }
        this.#error = msgError;
        this.#changed();
        const delay = Math.min(this.#retry.maxMs, this.#retry.initialMs * 2 ** (failures - 1));
        await sleep(delay * (0.8 + Math.random() * 0.4), this.#lifetime.signal);
      } finally {
        this.#lifetime.signal.removeEventListener("abort", stop);
      }
    }
  }

  /**
   * Feeds one chunk frame by frame (at each blank line), so that a reply this page
   * joined mid-way (no `REPLY_START`: the replay log holds the last 1,000 events) is
   * opened before its next event.
   */
  #feed(chunk: Uint8Array): number {
    this.#watchdog.heard();
    let good = 0;
    let start = 0;
    for (let i = 1; i < chunk.length; i++) {
      // a blank line: LF LF, CR LF CR LF, or CR CR (not the CR of a CR LF)
      const c = chunk[i];
      const end = c === 10 ? chunk[i - 1] === 10 || (chunk[i - 1] === 13 && chunk[i - 2] === 10) : c === 13 && chunk[i - 1] === 13 && chunk[i + 1] !== 10;
      if (end) {
        good += this.#feedPiece(chunk.subarray(start, i + 1));
        start = i + 1;
      }
    }
    if (start < chunk.length) good += this.#feedPiece(chunk.subarray(start));
    this.#afterEvents();
    return good;
  }

  /** Feeds a piece; returns the events it brought that the session knew (applied, or replayed duplicates). */
  #feedPiece(piece: Uint8Array): number {
    let good = 0;
    let step = () => this.#session.feed(piece);
    for (let guard = 0; guard < 1_000_000; guard++) {
      try {
        good += step();
        break;
      } catch (e) {
        this.#report(e);
        if (!(e instanceof MsgError) || e.index === undefined) break;
        step = () => this.#session.feed(new Uint8Array());
      }
    }
    // the piece's events as they came (what the session decoded)
    const kept = this.#session.takeEvents();
    this.#undoLate(kept);
    // (the replay comes first: a reply not met in its first 5,000 frames is left alone)
    if (this.#unchecked.size > 0 && ++this.#uncheckedFrames <= 5_000) this.#checkReplay(kept);
    // a reply joined mid-way: open it (and its text blocks) and apply the event again
    let diagnostics = this.#session.takeDiagnostics();
    good += diagnostics.filter((d) => d.code === "duplicate").length;
    for (let round = 0; diagnostics.length > 0 && round < 4; round++) {
      this.#diagnostics = [...this.#diagnostics, ...diagnostics.filter((d) => d.code !== "custom")].slice(-200);
      for (const d of diagnostics) {
        const id = d.reply_id;
        if (id === null) continue;
        if (d.code === "unknown_reply") {
          if (this.#historyIds.has(id) || this.#live(id)) continue; // a stale replay of a stored reply
          if (d.event_type === "REPLY_END") {
            void this.#refresh(true);
            continue;
          }
          this.#partial.add(id);
          this.#started.add(id);
          this.#apply({ type: "REPLY_START", session_id: this.sessionId, reply_id: id, name: this.#agentName });
          this.#reapply(kept, d.event_id, false);
        } else if (d.code === "unknown_block" && this.#partial.has(id)) {
          this.#reapply(kept, d.event_id, true);
        }
      }
      diagnostics = this.#session.takeDiagnostics();
    }
    this.#session.takeEvents(); // (what the repairs applied: made up here, not the stream's)
    for (const k of kept) this.#pass(k);
    return good;
  }

  /**
   * An event of the stream, once (by id): the app state it carries into the snapshot, then
   * `onEvent`.
   */
  #pass({ outcome, event }: KeptEvent): void {
    // (the session's dedup remembers every id it routed, skipped events' too: a replay is a duplicate)
    if (outcome === "duplicate" || typeof (event as { id?: unknown }).id !== "string") return;
    let continued = false;
    if (event.type === "REPLY_START") {
      continued = this.#started.has(event.reply_id) || this.#historyIds.has(event.reply_id);
      this.#started.add(event.reply_id);
    }
    this.#app.apply(event);
    if (this.#options.onEvent === undefined) return;
    try {
      this.#options.onEvent(event, { continued });
    } catch (e) {
      this.#report(e);
    }
  }

  /**
   * The first event of a reply in flight on a new connection should be its `REPLY_START`
   * (the replay log starts at the run's start). Any other means the log did not hold it:
   * events between what this page had and the replay may be missing (the service's log
   * keeps the last 1,000; on Redis, a replay of more than 1,000 also skips the newest
   * entries before going live), so the reply is marked partial and the stored one
   * replaces it when the run has saved.
   */
  #checkReplay(kept: readonly KeptEvent[]): void {
    for (const { event } of kept) {
      const id = (event as { reply_id?: unknown }).reply_id;
      if (typeof id !== "string" || !this.#unchecked.has(id)) continue;
      // an answer is echoed before the continuation's REPLY_START
      if (event.type === "USER_CONFIRM_RESULT" || event.type === "EXTERNAL_EXECUTION_RESULT") continue;
      this.#unchecked.delete(id);
      if (event.type !== "REPLY_START") this.#partial.add(id);
    }
  }

  /** Applies an event the chat makes itself (the start of a reply or block it joined mid-way). */
  #apply(event: Record<string, unknown>): void {
    try {
      this.#session.apply(JSON.stringify(event));
    } catch (e) {
      this.#report(e);
    }
  }

  /**
   * Applies again the event `eventId` of a piece (without its id: dedup saw it), first
   * opening its text or thinking block when `openBlock` (its start was before the replay).
   */
  #reapply(kept: readonly KeptEvent[], eventId: string | null, openBlock: boolean): void {
    const event = kept.find((k) => eventId === null || (k.event as { id?: unknown }).id === eventId)?.event as Record<string, unknown> | undefined;
    if (event === undefined) return;
    if (openBlock) {
      const kind = /^(TEXT|THINKING)_BLOCK_(DELTA|END)$/.exec(String(event.type))?.[1];
      if (kind === undefined) return; // tool calls and data blocks need what their start said
      this.#apply({ type: `${kind}_BLOCK_START`, reply_id: event.reply_id, block_id: event.block_id });
    }
    const { id: _id, ...again } = event;
    this.#apply(again);
  }

  /** After events: new replies join the tail; an ended run triggers a history reload. */
  #afterEvents(): void {
    const live = this.#session.getSnapshot().messages;
    if (live !== this.#lastLive) {
      this.#lastLive = live;
      this.#watchdog.progressed();
    }
    for (const [id, was] of this.#lost) {
      // an event for a reply taken as lost: it was not
      if (this.#session.get(id) !== was) {
        this.#lost.delete(id);
        this.#clearLost();
      }
    }
    const finished: MsgJSON[] = [];
    let parked = false;
    for (const m of live) {
      // a reply that parks (waits for an answer) is reloaded once: the stored one is whole
      // (the stream may have lost or reordered some of its events; no REPLY_END reloads it)
      // (a message object unchanged since the last look is not scanned again)
      if (!this.#parkSeen.has(m)) {
        this.#parkSeen.add(m);
        if (findPending(m).length > 0) {
          if (!this.#parked.has(m.id)) {
            this.#parked.add(m.id);
            parked = true;
          }
        } else {
          this.#parked.delete(m.id);
        }
      }
      if (!this.#historyIds.has(m.id) && !this.#tailReplies.has(m.id)) {
        this.#tailReplies.add(m.id);
        this.#tail.push({ kind: "reply", id: m.id });
        this.#clearLost(); // a new reply: the session runs again
      }
      const isEnded = this.#session.isEnded(m.id);
      if (isEnded && this.#finished.get(m.id) !== m.finished_at) {
        this.#finished.set(m.id, m.finished_at ?? "");
        finished.push(m);
        this.#serviceRunning = false;
        for (const posted of this.#posted.values()) {
          if (this.#tailReplies.size > posted.replies) posted.over = true;
        }
        this.#runError = m.finished_reason === "error" || (m.error !== null && m.error !== undefined);
        if (this.#runError) {
          const info = m.error as { message?: string; type?: string } | null;
          this.#error = new MsgError("run_failed", `the reply failed: ${info?.message ?? "no message"}${info?.type ? ` (${info.type})` : ""}`);
        }
      }
    }
    const submit = this.#submit;
    if (submit !== null) {
      if (submit.kind === "send" && this.#tailRepliesAfter(submit.replies)) this.#submit = null;
      if (submit.kind === "answer" && submit.replyId !== undefined && this.#session.get(submit.replyId) !== submit.seen) this.#submit = null;
    }
    if (finished.length > 0 || parked) void this.#refresh(true);
    this.#changed();
    // told once the chat's state says the reply is over (a send from onFinish is not busy)
    this.#finish(finished);
  }

  /** `onFinish` for each reply, in order (a listener that throws is reported). */
  #finish(replies: readonly MsgJSON[]): void {
    for (const m of replies) {
      try {
        this.#options.onFinish?.(m);
      } catch (e) {
        this.#report(e);
      }
    }
  }

  #clearLost(): void {
    if (!this.#runLost) return;
    this.#runLost = false;
    if (this.#error?.code === "run_lost") this.#error = null;
  }

  /**
   * The service says `running` but no event came for `lostRunMs` (`quietMs` in all): the
   * instance running the reply is taken as gone (the service holds the session's lock until
   * its lease ends, up to 10 minutes, and never stores the partial reply).
   */
  #markLost(quietMs: number): void {
    const quiet = Math.round(quietMs / 1000);
    let replies = 0;
    for (const m of this.#session.getSnapshot().messages) {
      if (!this.#tailReplies.has(m.id) || this.#session.isEnded(m.id) || this.#lost.has(m.id) || findPending(m).length > 0) continue;
      // stored, or found over: not this run's
      if (this.#historyIds.has(m.id) || this.#settled.get(m.id) === m || this.#hidden.has(m.id)) continue;
      this.#lost.set(m.id, m);
      replies += 1;
    }
    // the turns whose run started are over (the store keeps what it had before them)
    for (const posted of this.#posted.values()) {
      if (this.#tailReplies.size > posted.replies) posted.over = true;
    }
    const waiting = this.#submit !== null;
    const what = replies > 0
      ? "the reply was lost: no event for"
      : waiting ? "the message waits: the session is held by a run with no event for" : "the session is held by a run with no event for";
    this.#error = new MsgError(
      "run_lost",
      `${what} ${quiet} s while the service still says it runs (the instance running it is likely gone). ` +
        "The service never stores that partial reply, and frees the session when the run's lock expires, at most 10 minutes after the instance went away; " +
        (waiting ? "this message runs then." : "a message sent now runs then (an operator can free it at once: delete the Redis key agentscope:session:lock:<session id>)."),
    );
    this.#runLost = true;
    this.#serviceRunning = false;
    this.#changed();
  }

  #tailRepliesAfter(count: number): boolean {
    return this.#tailReplies.size > count;
  }

  /**
   * What the watchdog watches: a reply being stopped, or a reply in flight (or an input
   * posted), or a run taken as lost (until the service is free again).
   */
  #watched(): "run" | "stopping" | null {
    const status = this.getSnapshot().status;
    if (status === "stopping") return "stopping";
    return status === "streaming" || status === "submitted" || this.#runLost ? "run" : null;
  }

  /**
   * Whether the input posted last may still wait for its run to take the session (the
   * service found at rest soon after its `POST /chat/` came back): nothing of its run came
   * on the stream, and the latest page says the session is held again, or lacks its user
   * message, or has the calls it answered still waiting.
   */
  async #awaited(): Promise<boolean> {
    const submit = this.#submit;
    if (submit === null) return false;
    const page = await this.#transport.history(this.sessionId, { signal: this.#lifetime.signal });
    if (this.#submit !== submit) return false;
    if (page.isRunning) return true;
    if (submit.kind === "send") return !page.messages.some((m) => submit.ids?.includes(m?.id) === true);
    const reply = page.messages.find((m) => m?.id === submit.replyId);
    const waiting = reply === undefined ? [] : findPending(reply).map((a) => a.toolCall.id);
    return (submit.calls ?? []).every((id) => waiting.includes(id));
  }

  /**
   * The watchdog found the service running nothing while a reply was in flight (or an input
   * was posted): a run that is over without a `REPLY_END` (a stale confirmation, a stray
   * `REPLY_START`, a run whose instance died) is settled, the stored history reloaded.
   */
  async #runOver(): Promise<void> {
    this.#clearLost();
    // the runs of the turns posted so far are over: the reload drops what the store lacks
    for (const posted of this.#posted.values()) posted.over = true;
    await this.#refresh(false);
    if (this.#closed) return; // closed during the reload: its session is freed
    for (const m of this.#session.getSnapshot().messages) {
      if (!this.#session.isEnded(m.id)) this.#settled.set(m.id, m);
    }
    this.#submit = null;
    this.#serviceRunning = false;
    this.#changed();
  }

  // ---------------------------------------------------------------- acting

  #open(): void {
    if (this.#closed) throw new MsgError("closed", "the chat was closed");
  }

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
  async send(input: SendInput): Promise<void> {
    this.#open();
    let msg: MsgJSON;
    if (typeof input === "string" && LONE_SURROGATE.test(input)) {
      throw new MsgError("invalid_argument", "send: the text has a lone surrogate (not Unicode text)");
    }
    if (input instanceof Msg) {
      msg = input.toJSON();
    } else {
      const name = this.#options.userName ?? "user";
      let made: Msg;
      if (typeof input === "string" || Array.isArray(input)) {
        made = new UserMsg({ name, content: input as string | ContentBlockInput[] });
      } else if (typeof input === "object" && input !== null && !("role" in input) && "content" in input) {
        const { content, metadata } = input as { content: string | ContentBlockInput[]; metadata?: Record<string, unknown> };
        made = new UserMsg({ name, content, ...(metadata === undefined ? {} : { metadata }) });
      } else {
        made = Msg.fromJSON(toJSONText(input, "a message"));
      }
      msg = made.toJSON();
      made.free();
    }
    if (msg.role !== "user") throw new MsgError("invalid_argument", `send takes a user message, got role ${msg.role}`);
    await this.#sendMessages([msg]);
  }

  /**
   * Posts any input `POST /chat/` takes (`ChatInput`), with `send`'s rules: user
   * message(s) as `send` (shown at once, never applied twice; each checked as a `Msg`), a
   * `USER_CONFIRM_RESULT` or `EXTERNAL_EXECUTION_RESULT` as `confirm` / `submitExternal`
   * (its calls must be waiting: `invalid_argument` otherwise, since answering a call that
   * does not wait parks the service; refused as those are for a lone surrogate or a data
   * block's URL that is not http(s)). Rejects as those do; `invalid_argument` for
   * anything else (null included: it starts nothing the chat could follow).
   */
  async post(input: ChatInput): Promise<void> {
    this.#open();
    const event = input as { type?: unknown; reply_id?: unknown; confirm_results?: unknown; execution_results?: unknown } | null;
    if (event !== null && typeof event === "object" && (event.type === "USER_CONFIRM_RESULT" || event.type === "EXTERNAL_EXECUTION_RESULT")) {
      const confirm = event.type === "USER_CONFIRM_RESULT";
      const results = confirm ? event.confirm_results : event.execution_results;
      if (!Array.isArray(results) || results.length === 0) throw new MsgError("invalid_argument", `post: a ${String(event.type)} needs its results`);
      const ids = results.map((r: { id?: unknown; tool_call?: { id?: unknown } }) => (confirm ? r?.tool_call?.id : r?.id));
      const actions = ids.map((id) => this.#action(id as string, confirm ? "confirm" : "external"));
      if (actions.some((a) => a.replyId !== event.reply_id)) throw new MsgError("invalid_argument", "post: the results answer calls of another reply than reply_id");
      await this.#answer(actions[0]!, input, ids as string[]);
      return;
    }
    const list = Array.isArray(input) ? (input as readonly unknown[]) : [input];
    if (input === null || list.length === 0) throw new MsgError("invalid_argument", "post takes user message(s), a USER_CONFIRM_RESULT or an EXTERNAL_EXECUTION_RESULT");
    const msgs = list.map((one) => {
      const made = one instanceof Msg ? one : Msg.fromJSON(toJSONText(one, "a message"));
      const json = made.toJSON();
      if (made !== one) made.free();
      if (json.role !== "user") throw new MsgError("invalid_argument", `post takes user messages, got role ${json.role}`);
      return json;
    });
    await this.#sendMessages(msgs);
  }

  async #sendMessages(msgs: readonly MsgJSON[]): Promise<void> {
    // the service reads any other scheme (file://) from its own disk
    for (const msg of msgs) checkDataUrls(msg.content, "send");
    const status = this.status;
    if (status === "streaming" || status === "submitted" || status === "stopping") throw new MsgError("busy", "a reply is in flight: stop() it or wait for its end");
    if (status === "awaiting_input") throw new MsgError("busy", "a tool call waits for an answer: confirm() or submitExternal() first");
    for (const msg of msgs) this.#tail.push({ kind: "user", msg });
    this.#submit = { kind: "send", replies: this.#tailReplies.size, ids: msgs.map((m) => m.id) };
    this.#runError = false;
    const wasLost = this.#runLost;
    this.#clearLost(); // (a message sent after a lost run waits for its lock: told again after lostRunMs)
    this.#error = this.#fatal ? this.#error : null;
    this.#changed();
    // registered before the request goes: a stop() meanwhile marks it stopped
    for (const msg of msgs) this.#posted.set(msg, { replies: this.#tailReplies.size, over: false, stopped: false });
    const last = msgs.at(-1)!;
    try {
      await this.#track(this.#post(msgs.length === 1 ? last : msgs, async () => {
        // A run stores its user message as it starts. Stored: applied. Idle and not stored:
        // not applied. Held (by this message's run about to store it, or by another run:
        // one saving, or one whose instance died with its lock) and not stored: asked
        // again until VERIFY_WAIT_MS, then nobody can tell.
        const stored = async () => (await this.#transport.history(this.sessionId, { signal: this.#lifetime.signal })).messages.some((m) => m?.id === last.id);
        const t0 = Date.now();
        for (;;) {
          if (await stored()) return true;
          if ((await this.#transport.status(this.sessionId, { signal: this.#lifetime.signal })) === "idle") return stored();
          if (Date.now() - t0 >= VERIFY_WAIT_MS || this.#closed) {
            throw new MsgError("service_unavailable", "cannot tell whether the message was taken");
          }
          await sleep(250, this.#lifetime.signal);
        }
      }));
    } catch (e) {
      for (const msg of msgs) this.#posted.delete(msg);
      this.#tail = this.#tail.filter((t) => !(t.kind === "user" && msgs.includes(t.msg)));
      this.#submit = null;
      this.#runLost ||= wasLost; // still held by the lost run
      if (e instanceof MsgError) this.#fail(e);
      throw e;
    }
    this.#watchdog.heard();
  }

  /** `postInput` (the never-twice rules, ts/posting.ts), counted for the watchdog. */
  async #post(input: ChatInput, applied: () => Promise<boolean>): Promise<void> {
    this.#watchdog.postStarted();
    try {
      await postInput(applied, {
        post: (signal) => this.#transport.chat(this.sessionId, input, { signal }),
        signal: this.#lifetime.signal,
        busyWaitMs: this.#options.busyWaitMs,
        failover: () => this.#failover(),
        report: (e) => this.#report(e),
      });
    } finally {
      this.#watchdog.postEnded();
    }
  }


  #action(toolCallId: string, kind: "confirm" | "external"): ChatPendingAction {
    if (typeof toolCallId !== "string") throw new MsgError("invalid_argument", "toolCallId must be a string");
    const action = this.#answered.has(toolCallId) ? undefined : this.pendingActions.find((a) => a.toolCall.id === toolCallId && a.kind === kind);
    if (action === undefined) {
      const what = kind === "confirm" ? "a confirmation" : "an external result";
      throw new MsgError("invalid_argument", `no tool call ${JSON.stringify(toolCallId)} is waiting for ${what}`);
    }
    return action;
  }

  /**
   * Answers a tool call waiting for a confirmation (`REQUIRE_USER_CONFIRM`): the reply
   * continues (the call runs, or ends `denied`). A team worker's call (`worker` set in
   * `pendingActions`) is answered the same way, through this session. `rules`: permission rules to remember
   * (e.g. the call's `suggested_rules`, "always allow"). Rejects with `invalid_argument`
   * when that call is not waiting (answering twice would park the service) or, before
   * anything is sent, for `rules` holding a lone surrogate or a data block whose URL is
   * not http(s); or the transport's `MsgError`.
   */
  async confirm(toolCallId: string, confirmed: boolean, options: { rules?: readonly unknown[] | null } = {}): Promise<void> {
    this.#open();
    if (typeof confirmed !== "boolean") throw new MsgError("invalid_argument", "confirmed must be a boolean");
    const action = this.#action(toolCallId, "confirm");
    const result: Record<string, unknown> = { confirmed, tool_call: action.toolCall };
    if (options.rules !== undefined) result.rules = options.rules;
    const event = { type: "USER_CONFIRM_RESULT", reply_id: action.replyId, confirm_results: [result] } as unknown as UserConfirmResultInput;
    await this.#answer(action, event, [toolCallId]);
  }

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
  async submitExternal(results: ExternalResult | readonly ExternalResult[]): Promise<void> {
    this.#open();
    const list = Array.isArray(results) ? (results as readonly ExternalResult[]) : [results as ExternalResult];
    if (list.length === 0) throw new MsgError("invalid_argument", "submitExternal takes at least one result");
    const actions = list.map((r) => {
      if (typeof r !== "object" || r === null) throw new MsgError("invalid_argument", "a result must be {toolCallId, output}");
      return this.#action(r.toolCallId, "external");
    });
    const replyId = actions[0]!.replyId;
    if (actions.some((a) => a.replyId !== replyId)) throw new MsgError("invalid_argument", "the results answer calls of different replies");
    const execution_results = list.map((r, i) => ({
      type: "tool_result",
      id: r.toolCallId,
      name: actions[i]!.toolCall.name,
      output: r.output,
      state: r.state ?? "success",
      ...(r.metadata === undefined ? {} : { metadata: r.metadata }),
    }));
    const event = { type: "EXTERNAL_EXECUTION_RESULT", reply_id: replyId, execution_results } as unknown as ExternalExecutionResultInput;
    await this.#answer(actions[0]!, event, list.map((r) => r.toolCallId));
  }

  async #answer(action: ChatPendingAction, event: ChatInput, callIds: readonly string[]): Promise<void> {
    // refused before anything is sent: a lone surrogate in the results (stored with the
    // reply, it makes the session's GET /messages answer 500 for good) and a data block's
    // URL the service would read on its side (file://)
    // (what is sent is checked: its JSON, `toJSON` applied)
    checkDataUrls(JSON.parse(bodyJSON(event, "the answer")), "the answer");
    // answered once: a second answer meanwhile is refused (the service would park the reply)
    for (const id of callIds) this.#answered.add(id);
    this.#changed(); // (`answered` in pendingActions)
    try {
      await this.#answerOnce(action, event, callIds);
    } catch (e) {
      for (const id of callIds) this.#answered.delete(id);
      this.#changed();
      throw e;
    }
  }

  async #answerOnce(action: ChatPendingAction, event: ChatInput, callIds: readonly string[]): Promise<void> {
    const replyId = action.replyId;
    if (action.worker !== undefined) {
      // a team worker's call, answered through this (the leader's) session: the worker's
      // reply goes on in its own session; CUSTOM subagent_user_confirm_result clears it
      const waiting = () => this.#app.workerCalls().some((a) => a.replyId === replyId && callIds.includes(a.toolCall.id));
      await this.#track(this.#post(event, async () => !waiting()));
      return;
    }
    this.#submit = { kind: "answer", replies: this.#tailReplies.size, replyId, seen: this.#session.get(replyId), calls: callIds };
    this.#runError = false;
    this.#error = this.#fatal ? this.#error : null;
    this.#changed();
    try {
      await this.#track(this.#post(event, async () => {
        // not applied only while the service still waits on those calls of the stored reply
        const status = await this.#transport.status(this.sessionId, { signal: this.#lifetime.signal });
        if (status !== "awaiting_permission" && status !== "awaiting_external_result") return true;
        const page = await this.#transport.history(this.sessionId, { signal: this.#lifetime.signal });
        const reply = page.messages.find((m) => m?.id === replyId);
        const waiting = reply === undefined ? [] : findPending(reply).map((a) => a.toolCall.id);
        return !callIds.every((id) => waiting.includes(id));
      }));
    } catch (e) {
      this.#submit = null;
      if (e instanceof MsgError) this.#fail(e);
      throw e;
    }
    this.#watchdog.heard();
  }

  /** Tracks the `POST /chat/` in flight, for `stop()`. */
  #track<T>(posting: Promise<T>): Promise<T> {
    const mine = posting.then(
      () => {},
      () => {},
    );
    this.#sending = mine;
    void mine.then(() => {
      if (this.#sending === mine) this.#sending = undefined;
    });
    return posting;
  }

  /**
   * Stops the reply in flight (the service's interrupt): it ends with `finished_reason`
   * `"interrupted"` and keeps what it had. A reply parked on a call waiting for an answer
   * may stay parked (agentscope 2.0.11 ends it or leaves it waiting, by timing): status
   * `awaiting_input` again, answer the call. Works from the moment `send()` was called:
   * while its `POST /chat/` is still on its way, the interrupt waits for it (an interrupt
   * that reached an idle service first would be lost, and the turn would run whole); a
   * turn whose reply had not started is dropped by the service and goes quietly (not
   * stored, no error). Status `stopping` until the reply ends. Does nothing when no reply
   * is in flight (the service answers an idle interrupt with a stray `REPLY_START`).
   * Rejects with the transport's `MsgError` (then the status is what it was).
   */
  async stop(): Promise<void> {
    this.#open();
    const status = this.status;
    if (status !== "streaming" && status !== "submitted" && status !== "awaiting_input" && status !== "stopping") return;
    for (const posted of this.#posted.values()) posted.stopped = true;
    this.#stopping = true;
    this.#interrupted = false;
    this.#changed();
    try {
      // the interrupt after the input it stops (a send that fails takes its turn back)
      while (this.#sending !== undefined) await this.#sending;
      this.#open();
      if (this.#replyStatus(this.getSnapshot().messages, this.pendingActions.filter((a) => a.worker === undefined)) === undefined) {
        this.#stopping = false;
        this.#changed();
        return;
      }
      await this.#transport.interrupt(this.sessionId, { signal: this.#lifetime.signal });
      this.#interrupted = true;
      // a reply parked on a call may keep waiting (agentscope 2.0.11 sometimes leaves it
      // parked): the call is still to be answered, nothing is stopping
      if (this.#replyStatus(this.getSnapshot().messages, this.pendingActions.filter((a) => a.worker === undefined)) === "awaiting_input") {
        this.#stopping = false;
        this.#changed();
        return;
      }
    } catch (e) {
      this.#stopping = false;
      this.#changed();
      throw e;
    }
    this.#watchdog.askNow(); // the service is asked at the watchdog's next tick
    if (this.#submit?.kind === "send" && this.#runLost) {
      // a message waiting behind a lost run's lock: the interrupt cancels it
      for (const posted of this.#posted.values()) posted.over = true;
      this.#submit = null;
      this.#changed();
    }
  }

  /**
   * Renames the session (`PATCH /sessions/{sid}` with `name`; it turns the service's
   * auto-naming off), then reloads `session`. Rejects with `busy` while a run holds the
   * session (409), `invalid_argument` for an empty name, a name with a lone surrogate
   * (nothing is sent: stored, it makes agentscope 2.0.11 answer 500 on `GET /sessions/`
   * for good) or a transport without `request`.
   */
  async rename(name: string): Promise<void> {
    await this.#patch((sessions) => sessions.rename(this.sessionId, name, { signal: this.#lifetime.signal }));
  }

  /**
   * Sets the session's permission mode (`PATCH /sessions/{sid}` with `permission_mode`:
   * `default`, `accept_edits`, `explore`, `bypass`, `dont_ask`), then reloads `session`
   * and `state` (the service streams no event for it). Rejects as {@link Chat.rename}.
   */
  async setPermissionMode(mode: PermissionMode): Promise<void> {
    await this.#patch((sessions) => sessions.setPermissionMode(this.sessionId, mode, { signal: this.#lifetime.signal }));
  }

  async #patch(change: (sessions: SessionsClient) => Promise<unknown>): Promise<void> {
    this.#open();
    const sessions = this.#app.sessions;
    if (sessions === null) throw new MsgError("invalid_argument", "the chat's transport has no request(): no session routes");
    await change(sessions);
    await this.#app.load();
  }

  /** After status `error` from a lost service: tries the stream again (resets the attempts). */
  reconnect(): void {
    this.#open();
    if (!this.#fatal || this.#link === "open") return;
    this.#fatal = false;
    this.#link = "reconnecting";
    this.#error = null;
    this.#changed();
    void this.#run();
  }

  /** Ends the stream, stops the timers and frees the wasm memory; the last snapshot (status `closed`) stays readable. */
  close(): void {
    if (this.#closed) return;
    this.#unwatch();
    this.getSnapshot();
    this.#closed = true;
    this.#dirty = true;
    this.#lifetime.abort(new MsgError("closed", "the chat was closed"));
    this.#connection?.abort(new MsgError("closed", "the chat was closed"));
    this.#watchdog.close();
    clearTimeout(this.#timer);
    const last = this.#snapshot!;
    this.#snapshot = Object.freeze({ ...last, status: "closed" as const, connection: "closed" as const });
    this.#dirty = false;
    this.#session.free();
    const listeners = [...this.#listeners];
    this.#listeners.clear();
    for (const listener of listeners) {
      try {
        listener();
      } catch (e) {
        this.#report(e);
      }
    }
  }

  /** Its session was deleted in this page (`SessionsClient.remove`): ends as on a 404 of it (see #refresh). */
  #deleted(): void {
    if (this.#closed) return;
    const e = new MsgError("http_error", `the session ${this.sessionId} was deleted`, { status: 404 });
    this.#link = "lost";
    this.#fail(e, true);
    this.#connection?.abort(e);
  }

  /** `using chat = await Chat.open(...)` closes it at the end of the scope. */
  [Symbol.dispose](): void {
    this.close();
  }
}

/** The tool result of a call in a message list (a `tool_result` block with the call's id), or undefined. */
export function toolResultOf(messages: readonly MsgJSON[], call: ToolCallBlock): Extract<ContentBlock, { type: "tool_result" }> | undefined {
  for (const m of messages) {
    for (const b of m.content) if (b.type === "tool_result" && b.id === call.id) return b;
  }
  return undefined;
}

export type { PendingAction } from "./session.js";
// what a UI over the chat needs besides it, without loading the .wasm on import (as the
// entry `agentscope-message` would)
export { MsgError } from "./errors.js";
export { blockKey, pendingActions, parseToolInput } from "./session.js";
export * from "./sessions.js";
export * from "./transport.js";
export type { ChatPendingAction, McpProgress } from "./app-state.js";
