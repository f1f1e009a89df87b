// `agentscope-message/chat`: a chat controller for the AgentScope 2.0 app API (the
// service of `agentscope.app.create_app`): history, one long-lived event stream per
// session into a deduplicating `Session`, send / stop / confirm / external results,
// status, reconnects. Framework-agnostic; `useChat` (agentscope-message/react) wraps it.
// Loads the .wasm itself (`init()` in `Chat.open`), so importing it never blocks a page.
//
// This module is the chat's shell: it performs what the state machine (chat-core.ts, with
// chat-state.ts, chat-history.ts and chat-feed.ts; no request, timer or clock in them)
// decides — the requests, the stream's reads, the timers, the notifications — and feeds
// their outcomes back in. docs/chat.md, "How the chat is built".
import { MsgError, bodyJSON, checkDataUrls, optionsObject, sessionIdSegment } from "./errors.js";
import { init } from "./load.js";
import type { ContentBlock, MsgJSON, ToolCallBlock } from "./message.js";
import { confirmEvent, externalEvent, externalResults, postedInput, sendMessage } from "./chat-input.js";
import { Session, type Diagnostic } from "./session.js";
import { AppState, type ChatPendingAction } from "./app-state.js";
import { SessionsClient, type PermissionMode, type SessionRecord, type SessionsTransport } from "./sessions.js";
import { InFlight, answerApplied, postInput, sendApplied, type Posted } from "./posting.js";
import { watchDeletion } from "./open-sessions.js";
import type { RunWatchdog } from "./watchdog.js";
import { watchRuns } from "./chat-watch.js";
import { ChatCore } from "./chat-core.js";
import { Reloader, readPage, runStream, type StreamHost } from "./chat-io.js";
import { Listeners, perform, type EffectTarget } from "./chat-effects.js";
import { tabStreamAvailable } from "./tab-stream.js";
import { StreamSteer } from "./chat-steer.js";
import { normalizeOptions, type ChatOptions, type ChatSnapshot, type ChatStatus, type ExternalResult, type SendInput } from "./chat-types.js";
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
export class Chat {
  /** The session's id (given, or created by `open`). */
  readonly sessionId: string;
  readonly #transport: ChatTransport;
  /** the state machine: what the chat knows and decides */
  readonly #core: ChatCore;
  /** the app state the stream carries (state, session record, progress, team workers' calls) */
  readonly #app: AppState;
  /** asks the service about a run that went quiet (statusPollMs, lostRunMs) */
  readonly #watchdog: RunWatchdog;
  /** the `POST /chat/` of a `send` or an answer in flight (`stop()` waits for it) */
  readonly #sending = new InFlight();
  /** where its inputs are posted (the checks whether one was applied ask there) */
  readonly #posted: Posted;
  #connection: AbortController | undefined;
  /** what the core's effects act on (chat-effects.ts) */
  readonly #effects: EffectTarget;
  #lifetime = new AbortController();
  /** the reloads of the stored page (chat-io.ts) */
  readonly #reloader: Reloader;
  /** what the event stream's loop needs (chat-io.ts) */
  readonly #stream: StreamHost;
  /** told when the snapshot changed (chat-effects.ts) */
  readonly #listeners = new Listeners((f) => this.#call(f));
  /** the last snapshot, once closed */
  #final: ChatSnapshot | undefined;
  /** the core's effects are being performed (one performing them meanwhile adds to the queue) */
  #flushing = false;
  /** unregisters the chat from `SessionsClient.remove` (see #deleted) */
  #unwatch = (): void => {};
  /** the stream, steered (`idleStreamMs` finite, or `shareStream`: held only while wanted, or shared), or null: always held */
  readonly #steer: StreamSteer | null;

  private constructor(transport: ChatTransport, sessionId: string, options: ChatOptions) {
    this.#transport = transport;
    this.sessionId = sessionId;
    const [settings, retry] = normalizeOptions(options);
    this.#core = new ChatCore(sessionId, settings, retry, new Session({ dedup: true, keepEvents: true }));
    const key = settings.shareStream && tabStreamAvailable() && typeof transport.streamKey === "function" ? transport.streamKey(sessionId) : null;
    const shareKey = typeof key === "string" ? key : null;
    const t = transport as Partial<SessionsTransport>;
    const sessions = typeof t.request === "function" && typeof t.agentId === "string" ? new SessionsClient(transport as unknown as SessionsTransport) : null;
    this.#app = new AppState(sessionId, sessions, this.#lifetime.signal, () => this.#changed(), (e) => {
      if (!this.#core.closed) this.#report(e);
    });
    const host = { core: this.#core, signal: this.#lifetime.signal, do: <T>(transition: () => T): T => this.#do(transition) };
    this.#reloader = new Reloader({ ...host, history: () => readPage(this.#transport, this.sessionId, { signal: this.#lifetime.signal }) });
    this.#watchdog = watchRuns(
      {
        core: this.#core,
        transport,
        sessionId,
        signal: this.#lifetime.signal,
        reloader: this.#reloader,
        do: (transition) => this.#do(transition),
        status: () => this.getSnapshot().status,
        report: (e) => this.#report(e),
        resting: () => this.#steer !== null && this.#steer.resting && !this.#core.fatal,
        gone: (request) => this.#gone(request),
      },
      settings,
    );
    this.#stream = {
      ...host,
      connect: (after, signal) => this.#transport.stream(this.sessionId, { after, signal }),
      connection: (controller) => (this.#connection = controller),
      reload: () => this.#reloader.refresh(false),
      opened: () => this.#steer?.opened(),
      relay: (chunk) => this.#steer?.relay(chunk),
    };
    this.#posted = { transport, sessionId, signal: this.#lifetime.signal, closed: () => this.#core.closed };
    this.#effects = {
      core: this.#core,
      app: this.#app,
      watchdog: this.#watchdog,
      reloader: this.#reloader,
      transport,
      sessionId,
      signal: this.#lifetime.signal,
      connection: () => this.#connection,
      call: (f) => this.#call(f),
      report: (e) => this.#report(e),
    };
    this.#steer =
      shareKey !== null || settings.idleStreamMs !== Infinity
        ? new StreamSteer(
            {
              core: this.#core,
              stream: this.#stream,
              do: (transition) => this.#do(transition),
              wanted: () => this.#wanted(),
              status: () => this.status,
              woken: () => this.#watchdog.woken(),
              askNow: () => this.#watchdog.askNow(),
            },
            shareKey,
          )
        : null;
  }

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
  static async open(transport: ChatTransport, options: ChatOptions = {}): Promise<Chat> {
    if (typeof transport !== "object" || transport === null || typeof transport.stream !== "function") {
      throw new MsgError("invalid_argument", "Chat.open takes a ChatTransport (e.g. new AgentScopeTransport({...}))");
    }
    if (typeof options !== "object" || options === null) throw new MsgError("invalid_argument", "chat options must be an object");
    if (options.sessionId !== undefined) sessionIdSegment(options.sessionId, "chat option sessionId");
    normalizeOptions(options); // bad options are refused before a session is made
    await init();
    // (a custom transport's answer is checked as an option is: the chat puts it in paths)
    const sessionId = options.sessionId ?? sessionIdSegment(await transport.createSession(), "the session id the transport's createSession returned");
    const chat = new Chat(transport, sessionId, options);
    // watched from the start: a SessionsClient.remove of it answered while the chat opens
    // ends it as one after (status error, 404; its stream never connects, nothing is posted)
    chat.#unwatch = watchDeletion(sessionId, () => chat.#deleted());
    try {
      // the record and state come from the session list: a failure there is reported, not fatal
      const view = chat.#app.load().then(
        () => undefined,
        (e: unknown) => e ?? new Error("the session list failed"),
      );
      const page = await readPage(transport, sessionId);
      chat.#do(() => chat.#core.merge(page));
      const failed = await view;
      // the history route does not check the agent: the list does (another agent's session)
      if (failed instanceof MsgError && failed.code === "http_error" && failed.status === 404) throw failed;
      if (failed !== undefined) chat.#report(failed);
    } catch (e) {
      chat.#unwatch();
      chat.#core.session.free();
      throw e;
    }
    // (a session deleted meanwhile: the chat is over, status error; nothing more is asked)
    if (chat.#core.fatal) return chat;
    if (chat.#steer !== null) chat.#steer.start();
    else void runStream(chat.#stream);
    chat.#watchdog.start();
    return chat;
  }

  // ---------------------------------------------------------------- reading

  /** The current snapshot (bound: pass `chat.getSnapshot` as is). */
  getSnapshot = (): ChatSnapshot => this.#final ?? this.#core.snapshot(this.#app);

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
    const current = this.getSnapshot();
    if (done(current)) return Promise.resolve(current);
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
    return this.#core.hasMore;
  }

  /** What the stream's `Session` skipped (the last 200): stale replays, events of replies it never saw start. */
  get diagnostics(): readonly Diagnostic[] {
    return this.#core.diagnostics;
  }

  /**
   * Calls `listener` when the snapshot changed: at most once per macrotask (or per
   * `throttleMs`), never inside a call of the chat. A listener that throws is reported to
   * `onError` (or the console) and the others still run. Returns the unsubscribe function.
   */
  subscribe = (listener: () => void): (() => void) => {
    if (typeof listener !== "function") throw new MsgError("invalid_argument", "a listener must be a function");
    if (this.#core.closed) return () => {};
    return this.#listeners.add(listener);
  };

  // ---------------------------------------------------------------- performing the core's effects

  /** Runs a transition of the core, then performs what it asked for. */
  #do<T>(transition: () => T): T {
    try {
      return transition();
    } finally {
      this.#flush();
    }
  }

  /**
   * Performs the core's effects in order; one performed meanwhile (a `send` from inside
   * `onFinish`) adds to the queue this loop drains. Then tells the listeners (on a timer).
   */
  #flush(): void {
    if (!this.#flushing) {
      this.#flushing = true;
      try {
        for (let effect = this.#core.effects.shift(); effect !== undefined; effect = this.#core.effects.shift()) perform(effect, this.#effects);
      } finally {
        this.#flushing = false;
      }
    }
    if (this.#core.notify) {
      this.#core.notify = false;
      if (!this.#core.closed) this.#listeners.notify(this.#core.options.throttleMs);
    }
    this.#steer?.steer();
  }

  // ---------------------------------------------------------------- the stream's steering (chat-steer.ts)

  /**
   * Whether the session's stream is wanted now (always, with `idleStreamMs` Infinity; and
   * while a team worker's call waits: its answer's `subagent_user_confirm_result` comes
   * live only, never in the replay log a later connect reads).
   */
  #wanted(): boolean {
    if (this.#core.closed || this.#core.fatal) return false;
    return this.#core.options.idleStreamMs === Infinity || this.#app.workerCalls().length > 0 || this.#core.streamWanted(this.getSnapshot().status);
  }

  /** Calls the app's code (a callback, the transport's failover); what it throws is reported. */
  #call(f: () => void): void {
    try {
      f();
    } catch (e) {
      this.#report(e);
    }
  }

  /** The snapshot may have changed (the app state did): listeners are told. */
  #changed(): void {
    this.#core.changed();
    this.#flush();
  }

  #report(error: unknown): void {
    try {
      if (this.#core.options.onError) this.#core.options.onError(error);
      else console.error("agentscope-message/chat:", error);
    } catch {
      // an onError that throws has nowhere else to go
    }
  }

  // ---------------------------------------------------------------- history

  /**
   * Loads the page of stored messages before the oldest one shown; resolves whether more
   * remain. Rejects with the transport's `MsgError`.
   */
  async loadOlder(): Promise<boolean> {
    this.#open();
    const oldest = this.#core.history[0];
    if (!this.#core.hasMore || oldest === undefined) return false;
    const page = await readPage(this.#transport, this.sessionId, { before: oldest.id, signal: this.#lifetime.signal });
    return this.#do(() => this.#core.older(page));
  }


  // ---------------------------------------------------------------- acting

  #open(): void {
    if (this.#core.closed) throw new MsgError("closed", "the chat was closed");
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
    await this.#sendMessages([sendMessage(input, this.#core.options.userName ?? "user")]);
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
    const posted = postedInput(input);
    if (posted.kind === "messages") return this.#sendMessages(posted.msgs);
    const actions = posted.callIds.map((id) => this.#action(id, posted.confirm ? "confirm" : "external"));
    if (actions.some((a) => a.replyId !== posted.replyId)) throw new MsgError("invalid_argument", "post: the results answer calls of another reply than reply_id");
    await this.#answer(actions[0]!, input, posted.callIds);
  }

  async #sendMessages(msgs: readonly MsgJSON[]): Promise<void> {
    // the service reads any other scheme (file://) from its own disk
    for (const msg of msgs) checkDataUrls(msg.content, "send");
    const wasLost = this.#do(() => this.#core.beginSend(msgs, this.status));
    this.#steer?.posted();
    const last = msgs.at(-1)!;
    try {
      const busy = () => this.#do(() => this.#core.sendBusy(msgs));
      await this.#sending.track(this.#post(msgs.length === 1 ? last : msgs, busy, () => sendApplied(this.#posted, last.id)));
    } catch (e) {
      this.#do(() => this.#core.sendFailed(msgs, wasLost, e));
      throw e;
    }
    if (!this.#core.closed) this.#do(() => this.#core.sendAccepted(msgs));
    this.#watchdog.heard();
  }

  /** `postInput` (the never-twice rules, ts/posting.ts), counted for the watchdog. */
  async #post(input: ChatInput, busy: (() => void) | undefined, applied: () => Promise<boolean>): Promise<void> {
    this.#watchdog.postStarted();
    try {
      await postInput(applied, {
        post: (signal) => this.#transport.chat(this.sessionId, input, { signal }),
        signal: this.#lifetime.signal,
        busyWaitMs: this.#core.options.busyWaitMs,
        failover: () => this.#call(() => this.#transport.failover?.()),
        report: (e) => this.#report(e),
        busy,
      });
    } finally {
      this.#watchdog.postEnded();
    }
    // the service took it: reachable again, so a stream lost after its attempts connects
    // again (as reconnect() would), else the run it started would never show
    if (!this.#core.closed && this.#do(() => this.#core.reconnect())) this.#restart();
  }

  #action(toolCallId: string, kind: "confirm" | "external"): ChatPendingAction {
    return this.#core.action(this.pendingActions, toolCallId, kind);
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
    options = optionsObject(options, "confirm");
    if (typeof confirmed !== "boolean") throw new MsgError("invalid_argument", "confirmed must be a boolean");
    const action = this.#action(toolCallId, "confirm");
    await this.#answer(action, confirmEvent(action, confirmed, options.rules), [toolCallId]);
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
    const list = externalResults(results);
    const actions = list.map((r) => this.#action(r.toolCallId, "external"));
    await this.#answer(actions[0]!, externalEvent(list, actions), list.map((r) => r.toolCallId));
  }

  async #answer(action: ChatPendingAction, event: ChatInput, callIds: readonly string[]): Promise<void> {
    // refused before anything is sent: a lone surrogate in the results (stored with the
    // reply, it makes the session's GET /messages answer 500 for good) and a data block's
    // URL the service would read on its side (file://)
    // (what is sent is checked: its JSON, `toJSON` applied)
    checkDataUrls(JSON.parse(bodyJSON(event, "the answer")), "the answer");
    this.#do(() => this.#core.answering(callIds));
    this.#steer?.posted();
    try {
      await this.#answerOnce(action, event, callIds);
    } catch (e) {
      this.#do(() => this.#core.answerFailed(callIds));
      throw e;
    }
    this.#core.answerPosted(callIds);
  }

  async #answerOnce(action: ChatPendingAction, event: ChatInput, callIds: readonly string[]): Promise<void> {
    const replyId = action.replyId;
    if (action.worker !== undefined) {
      // a team worker's call, answered through this (the leader's) session: the worker's
      // reply goes on in its own session; CUSTOM subagent_user_confirm_result clears it
      const waiting = () => this.#app.workerCalls().some((a) => a.replyId === replyId && callIds.includes(a.toolCall.id));
      await this.#sending.track(this.#post(event, undefined, async () => !waiting()));
      return;
    }
    this.#do(() => this.#core.beginAnswer(replyId, callIds));
    try {
      await this.#sending.track(this.#post(event, undefined, () => answerApplied(this.#posted, replyId, callIds)));
    } catch (e) {
      this.#do(() => this.#core.answerPostFailed(e));
      throw e;
    }
    this.#watchdog.heard();
  }

  /** `submitted`, `streaming` or `awaiting_input` while a reply of the session (not a worker's) is under way. */
  #replyStatus(): ChatStatus | undefined {
    const snapshot = this.getSnapshot();
    return this.#core.replyStatus(snapshot.messages, snapshot.pendingActions.filter((a) => a.worker === undefined));
  }

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
  async stop(): Promise<void> {
    this.#open();
    const status = this.status;
    if (status !== "streaming" && status !== "submitted" && status !== "awaiting_input" && status !== "stopping") return;
    this.#do(() => this.#core.beginStop());
    try {
      // the interrupt after the input it stops (a send that fails takes its turn back)
      await this.#sending.settled();
      this.#open();
      if (this.#replyStatus() === undefined) {
        this.#do(() => this.#core.stopOver());
        return;
      }
      await this.#transport.interrupt(this.sessionId, { signal: this.#lifetime.signal });
      this.#steer?.stopped();
      // (a reply parked on a call may keep waiting: agentscope 2.0.11 ends it or leaves it
      // parked, by timing. The stream alone cannot tell (its end may be lost): the stop
      // lasts until the service's status and the page at rest show which)
      this.#do(() => this.#core.interruptSent());
    } catch (e) {
      this.#do(() => this.#core.stopOver());
      throw e;
    }
    this.#watchdog.askNow(); // the service is asked at the watchdog's next tick
  }

  /**
   * Renames the session (`PATCH /sessions/{sid}` with `name`; it turns the service's
   * auto-naming off), shows the record the service answered in `session` and `state` at
   * once, then reloads `session` (a reload that fails after is passed to `onError`: the
   * rename was applied, the call resolves). Rejects with `busy` while a run holds the
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

  async #patch(change: (sessions: SessionsClient) => Promise<SessionRecord>): Promise<void> {
    this.#open();
    const sessions = this.#app.sessions;
    if (sessions === null) throw new MsgError("invalid_argument", "the chat's transport has no request(): no session routes");
    // the service applied it once the PATCH answered: its record is shown at once, and a
    // reload of the list entry that fails after is reported (onError), not the call's failure
    this.#app.applyRecord(await change(sessions));
    await this.#app.load().catch((e: unknown) => this.#report(e));
  }

  /** After status `error` from a lost service: reloads the stored page and tries the stream again (resets the attempts). */
  reconnect(): void {
    this.#open();
    // (the page first: a repair reload is given up with the stream, and what the store
    // holds now is what a reply damaged meanwhile needs)
    if (this.#do(() => this.#core.reconnect())) this.#restart();
  }

  /** After a lost stream: its loop again from the reloaded page (steered: the page, then held if wanted). */
  #restart(): void {
    if (this.#steer === null) void runStream(this.#stream, true);
    else this.#steer.restart(() => void this.#reloader.refresh(false));
  }

  /** Ends the stream, stops the timers and frees the wasm memory; the last snapshot (status `closed`) stays readable. */
  close(): void {
    if (this.#core.closed) return;
    this.#unwatch();
    const last = this.getSnapshot();
    this.#core.closed = true;
    this.#lifetime.abort(new MsgError("closed", "the chat was closed"));
    this.#connection?.abort(new MsgError("closed", "the chat was closed"));
    this.#steer?.close();
    this.#watchdog.close();
    this.#final = Object.freeze({ ...last, status: "closed" as const, connection: "closed" as const });
    this.#core.session.free();
    this.#listeners.close();
  }

  /** `request`, whose 404 (the session deleted elsewhere, found by the watchdog's questions at rest) ends the chat as a reload's 404 does. */
  #gone<T>(request: Promise<T>): Promise<T> {
    return request.catch((e: unknown) => {
      if (e instanceof MsgError && e.code === "http_error" && e.status === 404 && !this.#core.closed) this.#do(() => this.#core.deleted(e));
      throw e;
    });
  }

  /** Its session was deleted in this page (`SessionsClient.remove`): ends as on a 404 of it (see `Reloader.refresh`). */
  #deleted(): void {
    if (this.#core.closed) return;
    this.#do(() => this.#core.deleted(new MsgError("http_error", `the session ${this.sessionId} was deleted`, { status: 404 })));
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
