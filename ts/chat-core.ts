// The chat's state machine (sans-IO): its state (chat-state.ts) and the transitions on
// what happens to it — a user action (send, answer, stop, close), a transport outcome (a
// page of history, stream bytes, a stream's failure, a post's failure, a status answer)
// or a clock's verdict (a stall, a run quiet for lostRunMs) — each returning a decision
// and leaving in `effects` what the shell (chat.ts) must do: reload, notify `onFinish` /
// `onEvent` / `onError`, tell the watchdog, fail over. No request, no timer, no clock in
// here: time comes in as numbers (how long a connection was open), so every interleaving
// can be replayed (tests/sim drives the whole chat on a virtual clock).
import { MsgError } from "./errors.js";
import type { MsgJSON } from "./message.js";
import { pendingActions as findPending, type PendingAction, type Session } from "./session.js";
import type { ChatPendingAction, McpProgress } from "./app-state.js";
import type { SessionState, SessionView } from "./sessions.js";
import type { HistoryPage } from "./transport.js";
import type { ChatSnapshot, ChatStatus, Retry, Settings } from "./chat-types.js";
import { ChatState, type Effect } from "./chat-state.js";
import { merge } from "./chat-history.js";
import { feed } from "./chat-feed.js";

/** What the snapshot shows of the session's app state (the shell's `AppState`). */
export interface AppView {
  readonly state: SessionState | null;
  readonly view: SessionView | null;
  readonly progress: Readonly<Record<string, McpProgress>>;
  workerCalls(): ChatPendingAction[];
}

/** What a failed connect or reload asks for: try again after `retryMs`, or nothing more. */
export type Retrying = { readonly retryMs: number } | null;

/** The chat's state and its transitions (see the module comment). */
export class ChatCore extends ChatState {
  #snapshot: ChatSnapshot | undefined;

  constructor(sessionId: string, options: Settings, retry: Retry, session: Session) {
    super(sessionId, options, retry, session);
  }

  // ---------------------------------------------------------------- the snapshot

  /** The snapshot: the same object until something in it changed. */
  snapshot(app: AppView): ChatSnapshot {
    if (this.#snapshot !== undefined && !this.dirty) return this.#snapshot;
    this.dirty = false;
    const session = this.session.getSnapshot();
    const byId = new Map(session.messages.map((m) => [m.id, this.#shown(m)]));
    const messages: MsgJSON[] = [];
    for (const m of this.history) messages.push(byId.get(m.id) ?? m);
    for (const t of this.tail) {
      if (t.kind === "user") {
        if (!this.historyIds.has(t.msg.id)) messages.push(t.msg);
      } else if (!this.historyIds.has(t.id) && !this.hidden.has(t.id)) {
        const m = byId.get(t.id);
        if (m !== undefined) messages.push(m);
      }
    }
    const prev = this.#snapshot;
    const same = prev !== undefined && prev.messages.length === messages.length && prev.messages.every((m, i) => m === messages[i]);
    // the calls asked about in the messages, then those their reply never started
    // (a call whose reply the history shows ended, e.g. interrupted, waits no more)
    const unstarted = session.unstartedCalls.filter((a) => !this.ended.has(a.replyId));
    const pending: ChatPendingAction[] = [...findPending(messages), ...unstarted, ...app.workerCalls()].map((a) =>
      this.answered.has(a.toolCall.id) ? Object.freeze({ ...a, answered: true }) : a,
    );
    const samePending =
      prev !== undefined &&
      prev.pendingActions.length === pending.length &&
      prev.pendingActions.every((a, i) => a.toolCall === pending[i]!.toolCall && a.kind === pending[i]!.kind && a.answered === pending[i]!.answered);
    const status = this.#status(messages, pending.filter((a) => a.worker === undefined));
    const connection = this.link;
    const error = this.error;
    const partial = [...this.partial];
    if (
      prev !== undefined && same && samePending && prev.status === status && prev.connection === connection && prev.error === error &&
      prev.partial.join("\n") === partial.join("\n") && prev.state === app.state && prev.session === app.view && prev.progress === app.progress
    ) {
      return prev;
    }
    this.#snapshot = Object.freeze({
      messages: same ? prev.messages : Object.freeze(messages),
      status,
      connection,
      error,
      pendingActions: samePending ? prev.pendingActions : Object.freeze(pending),
      state: app.state,
      session: app.view,
      progress: app.progress,
      partial: Object.freeze(partial),
    });
    return this.#snapshot;
  }

  /** A live message as shown: a lost reply (see lostRunMs) with `finished_reason: "interrupted"`. */
  #shown(m: MsgJSON): MsgJSON {
    if (this.lost.get(m.id) !== m) return m;
    let shown = this.lostShown.get(m);
    if (shown === undefined) {
      shown = Object.freeze({ ...m, finished_reason: "interrupted" }) as MsgJSON;
      this.lostShown.set(m, shown);
    }
    return shown;
  }

  #status(messages: readonly MsgJSON[], pending: readonly PendingAction[]): ChatStatus {
    if (this.fatal) return "error";
    const busy = this.replyStatus(messages, pending);
    if (busy !== undefined) return this.stopping ? "stopping" : busy;
    this.stopping = false; // the reply stopped has ended (or was dropped)
    if (this.runError || this.runLost) return "error";
    return "ready";
  }

  /** `submitted`, `streaming` or `awaiting_input` while a reply is under way, else undefined. */
  replyStatus(messages: readonly MsgJSON[], pending: readonly PendingAction[]): ChatStatus | undefined {
    if (this.submit !== null) return "submitted";
    if (this.#inFlight(messages)) return "streaming";
    // a run we joined whose events have not come yet (a reload, another tab's send)
    if (this.serviceRunning && pending.length === 0 && !this.runLost) return "streaming";
    if (pending.length > 0) return "awaiting_input";
    return undefined;
  }

  /** A reply started and not ended, that the service has not been found idle on since. */
  #inFlight(messages: readonly MsgJSON[]): boolean {
    for (const m of messages) {
      if (m.role !== "assistant" || (!this.tailReplies.has(m.id) && !this.live(m.id)) || this.hidden.has(m.id)) continue;
      if (this.session.isEnded(m.id) || this.lost.has(m.id)) continue;
      const settled = this.settled.get(m.id);
      if (settled !== undefined && settled === m) continue;
      if (findPending(m).length > 0) continue;
      return true;
    }
    return false;
  }

  // ---------------------------------------------------------------- transport outcomes

  /** A page of stored messages (see chat-history.ts); `before`: the replies met before it was asked for. */
  merge(page: HistoryPage, before?: ReadonlySet<string>): void {
    merge(this, page, before);
  }

  /** A page of older stored messages (`loadOlder`): put before the oldest shown. Returns whether more remain. */
  older(page: HistoryPage): boolean {
    const known = new Set(this.history.map((m) => m.id));
    const older = page.messages.filter((m) => !known.has(m.id));
    this.history = [...older, ...this.history];
    for (const m of older) this.historyIds.add(m.id);
    this.hasMore = page.hasMore;
    this.changed();
    return this.hasMore;
  }

  /** A chunk of the event stream (see chat-feed.ts); a connection that brought an event is healthy (its failures start afresh). */
  feed(chunk: Uint8Array): void {
    if (feed(this, chunk) > 0 && !this.streamHealthy) {
      this.streamHealthy = true;
      this.streamFailures = 0;
    }
  }

  /** A connect of the event stream goes out. */
  streamConnecting(): void {
    this.streamHealthy = false;
  }

  /** The event stream answered: open; the replies in flight are checked against its replay. */
  streamOpened(): void {
    this.link = "open";
    // (the stream's own error goes; a failed or lost run's stays)
    if (!this.fatal && this.error === this.streamError) this.clearError();
    this.changed();
    this.session.restartStream();
    this.unchecked = new Set(
      this.session
        .getSnapshot()
        .messages.filter((m) => !this.session.isEnded(m.id) && !this.historyIds.has(m.id) && !this.hidden.has(m.id) && this.settled.get(m.id) !== m)
        .map((m) => m.id),
    );
    this.uncheckedFrames = 0;
  }

  /**
   * The event stream failed (refused, broke, ended, stalled) after being open `openMs`:
   * a session that is gone (4xx) loses it for good; else it reconnects with backoff
   * (`retry`; a connection open 10 s counts as healthy), up to `retry.attempts` failures in
   * a row. `retryMs` is the backoff before jitter.
   */
  streamFailed(error: unknown, openMs: number): Retrying {
    const msgError = error instanceof MsgError ? error : new MsgError("service_unavailable", `the event stream broke: ${(error as Error)?.message ?? error}`);
    // a session that does not exist (or is not the user's) will not come back
    if (msgError.code === "http_error" && msgError.status !== undefined && msgError.status >= 400 && msgError.status < 500 && msgError.status !== 408 && msgError.status !== 429) {
      this.link = "lost";
      this.gone = msgError;
      this.fail(msgError, true);
      return null;
    }
    if (!this.streamHealthy && openMs >= 10_000) this.streamFailures = 0;
    this.streamFailures += 1;
    this.link = "reconnecting";
    // the next attempt goes to another instance (a transport over several)
    this.effects.push({ type: "failover" });
    this.report(msgError);
    if (this.streamFailures > this.retry.attempts) {
      this.link = "lost";
      this.fail(new MsgError("service_unavailable", `lost the service: ${msgError.message} (${this.streamFailures} attempts; call reconnect())`), true);
      return null;
    }
    // (a failed or lost run's error stays: the reconnect's goes to onError)
    if (this.error?.code !== "run_failed" && this.error?.code !== "run_lost") {
      this.error = msgError;
      this.streamError = msgError;
    }
    this.changed();
    return { retryMs: Math.min(this.retry.maxMs, this.retry.initialMs * 2 ** (this.streamFailures - 1)) };
  }

  /**
   * A reload of the stored page failed, the `failures`-th time in a row: a session that is
   * gone (404) ends the chat's stream, another 4xx ends the reload; else it is tried again
   * with the reconnect backoff, and past the attempts `error` says so (`tired`: what waits
   * for it is let go) while it goes on at the longest delay.
   */
  reloadFailed(e: unknown, failures: number): { retryMs: number; tired: boolean } | null {
    this.report(e);
    // (a page that is not what the chat reads, answered 2xx, is tried again as a 5xx is)
    const lasting = e instanceof MsgError && e.code === "http_error" && e.status !== undefined && e.status >= 400 && e.status < 500 && e.status !== 408 && e.status !== 429;
    if (lasting && e.status === 404) {
      // the session was deleted under the chat: it will not come back
      this.deleted(e);
      return null;
    }
    if (lasting) {
      this.fail(e);
      return null;
    }
    let tired = false;
    if (failures > this.retry.attempts && !(this.error instanceof MsgError && this.error === this.reloadError)) {
      // past the attempts: the app is told, and the reload goes on at the longest delay
      // (it is what repairs a reply joined mid-way; nothing else would)
      this.reloadError = new MsgError(
        "service_unavailable",
        `could not reload the stored messages (${(e as Error)?.message ?? e}); trying again every ${this.retry.maxMs} ms`,
        { cause: e },
      );
      // (a failed or lost run's error stays: it is what the status says)
      if (this.error?.code !== "run_failed" && this.error?.code !== "run_lost") this.fail(this.reloadError);
      tired = true;
    }
    return { retryMs: Math.min(this.retry.maxMs, this.retry.initialMs * 2 ** (Math.min(failures, 30) - 1)), tired };
  }

  /** A reload succeeded: the error of its failures (if still shown) goes. */
  reloaded(): void {
    if (this.reloadError !== undefined && this.error === this.reloadError) {
      this.clearError();
      this.changed();
    }
    this.reloadError = undefined;
  }

  /** The session is gone (a 404, or deleted in this page): the chat's stream ends for good. */
  deleted(error: MsgError): void {
    this.link = "lost";
    this.gone = error;
    this.fail(error, true);
    this.effects.push({ type: "abort_stream", error });
  }

  // ---------------------------------------------------------------- user actions

  /**
   * User messages are sent (`send`, `post`): refused `busy` while a reply is in flight or
   * a call waits; else they show at once and the chat waits for their run. Returns
   * whether a run was taken as lost before (restored if the post fails).
   */
  beginSend(msgs: readonly MsgJSON[], status: ChatStatus): boolean {
    this.usable();
    // (an input still waiting for its run is in flight also while the stream is lost: status error)
    if (this.submit !== null) status = "submitted";
    if (status === "streaming" || status === "submitted" || status === "stopping") throw new MsgError("busy", "a reply is in flight: stop() it or wait for its end");
    if (status === "awaiting_input") throw new MsgError("busy", "a tool call waits for an answer: confirm() or submitExternal() first");
    for (const msg of msgs) this.tail.push({ kind: "user", msg });
    this.submit = { kind: "send", replies: this.tailReplies.size, ids: msgs.map((m) => m.id), accepted: false };
    this.runError = false;
    const wasLost = this.runLost;
    this.clearLost(); // (a message sent after a lost run waits for its lock: told again after lostRunMs)
    this.error = this.fatal ? this.error : null;
    this.changed();
    // registered before the request goes: a stop() meanwhile marks it stopped
    for (const msg of msgs) this.posted.set(msg, { replies: this.tailReplies.size, over: false, stopped: false, accepted: false, batch: msgs });
    return wasLost;
  }

  /** Whether `submit` is the send of (one of) `msgs`. */
  #sendOf(msgs: readonly MsgJSON[]): boolean {
    return this.submit?.kind === "send" && this.submit.ids?.some((id) => msgs.some((m) => m.id === id)) === true;
  }

  /**
   * The post of user messages met a 409 (another client's run holds the session) and is
   * tried again: the replies met so far are that run's, not this turn's.
   */
  sendBusy(msgs: readonly MsgJSON[]): void {
    const replies = this.tailReplies.size;
    for (const msg of msgs) {
      const posted = this.posted.get(msg);
      if (posted !== undefined) posted.replies = replies;
    }
    if (this.#sendOf(msgs)) this.submit = { ...this.submit!, replies };
  }

  /**
   * The service took the post of user messages: a reply met since its last 409 and still
   * in flight is its run (its events may come before the answer). One met and already
   * ended may be its run too (a slow answer) or another client's (run between its last
   * 409 and this answer): the page tells (its run stores the message as it starts), so it
   * is reloaded, and meanwhile the chat waits for the next reply.
   */
  sendAccepted(msgs: readonly MsgJSON[]): void {
    const tail = [...this.tailReplies];
    const running = (since: number) => tail.slice(since).some((id) => !this.session.isEnded(id));
    for (const msg of msgs) {
      const posted = this.posted.get(msg);
      if (posted === undefined) continue;
      posted.accepted = true;
      if (!running(posted.replies)) posted.replies = tail.length;
    }
    if (!this.#sendOf(msgs)) return;
    const since = this.submit!.replies;
    if (running(since)) this.submit = null;
    else {
      this.submit = { ...this.submit!, replies: tail.length, accepted: true };
      if (tail.length > since) this.reload(true);
    }
    this.changed();
  }

  /** The post of user messages failed: the turn is taken back. */
  sendFailed(msgs: readonly MsgJSON[], wasLost: boolean, e: unknown): void {
    for (const msg of msgs) this.posted.delete(msg);
    this.tail = this.tail.filter((t) => !(t.kind === "user" && msgs.includes(t.msg)));
    // (only its own wait: a later send's, made once this one's run had shown, goes on)
    if (this.#sendOf(msgs)) this.submit = null;
    this.runLost ||= wasLost; // still held by the lost run
    // (a run that failed since the send began keeps its error: the status is `error` for it;
    // the send's own rejects its promise)
    if (e instanceof MsgError && !this.runError) this.fail(e);
    else this.changed();
  }

  /**
   * Refuses an input for a session found gone (deleted, or not the user's: a 4xx of its
   * stream or a 404 of its history), before any request: the error that said so, again.
   */
  usable(): void {
    const gone = this.gone;
    if (gone !== null) throw new MsgError(gone.code, `nothing is sent: the session is gone (${gone.message}); open another session`, { status: gone.status });
  }

  /** The waiting call `toolCallId` of `kind`; `invalid_argument` if none waits (or this chat answered it). */
  action(pending: readonly ChatPendingAction[], toolCallId: string, kind: "confirm" | "external"): ChatPendingAction {
    this.usable();
    if (typeof toolCallId !== "string") throw new MsgError("invalid_argument", "toolCallId must be a string");
    const action = this.answered.has(toolCallId) ? undefined : pending.find((a) => a.toolCall.id === toolCallId && a.kind === kind);
    if (action === undefined) {
      const what = kind === "confirm" ? "a confirmation" : "an external result";
      throw new MsgError("invalid_argument", `no tool call ${JSON.stringify(toolCallId)} is waiting for ${what}`);
    }
    return action;
  }

  /** Calls are being answered: a second answer meanwhile is refused (the service would park the reply). */
  answering(callIds: readonly string[]): void {
    for (const id of callIds) {
      this.answered.add(id);
      this.answerPosting.add(id);
    }
    this.changed(); // (`answered` in pendingActions)
  }

  /** The service took the answer of calls (its run may still never come: see `runOverReloaded`). */
  answerPosted(callIds: readonly string[]): void {
    for (const id of callIds) this.answerPosting.delete(id);
  }

  /** The answer of calls failed: they may be answered again. */
  answerFailed(callIds: readonly string[]): void {
    for (const id of callIds) {
      this.answered.delete(id);
      this.answerPosting.delete(id);
    }
    this.changed();
  }

  /** An answer of the session's own reply `replyId` is posted: the chat waits for its continuation. */
  beginAnswer(replyId: string, callIds: readonly string[]): void {
    this.submit = { kind: "answer", replies: this.tailReplies.size, replyId, seen: this.session.get(replyId), calls: callIds };
    this.runError = false;
    this.error = this.fatal ? this.error : null;
    this.changed();
  }

  /** The post of an answer failed. */
  answerPostFailed(e: unknown): void {
    this.submit = null;
    if (e instanceof MsgError && !this.runError) this.fail(e);
    else this.changed();
  }

  /** `stop()` begins: the turns posted are marked stopped (dropped quietly if never stored). */
  beginStop(): void {
    for (const posted of this.posted.values()) posted.stopped = true;
    for (const id of this.answered) this.stoppedAnswers.add(id);
    this.stopping = true;
    this.interrupted = false;
    this.stopAnswer = false;
    this.changed();
  }

  /**
   * Another tab's chat of the session stopped its run (its interrupt was answered): the
   * turns posted here are marked stopped (dropped quietly if never stored, as after this
   * chat's own `stop()`), status `stopping` until the run is found over.
   */
  stoppedElsewhere(): void {
    for (const posted of this.posted.values()) posted.stopped = true;
    this.stopping = true;
    this.interrupted = true;
    this.stopAnswer = false;
    this.changed();
  }

  /** The stop is over without (or after) an interrupt: nothing is stopping. */
  stopOver(): void {
    this.stopping = false;
    this.changed();
  }

  /** The interrupt was answered. A message waiting behind a lost run's lock is cancelled by it. */
  interruptSent(): void {
    this.interrupted = true;
    // (an answer's run starts once the service's dispatcher takes it: an interrupt that
    // reached the parked reply before may be lost, so it goes again when the run shows)
    this.stopAnswer = this.submit?.kind === "answer";
    if (this.submit?.kind === "send" && this.runLost) {
      for (const posted of this.posted.values()) posted.over = true;
      this.submit = null;
      this.changed();
    }
  }

  // ---------------------------------------------------------------- the watchdog's verdicts

  /**
   * What the watchdog watches (`status`: the snapshot's): a reply being stopped, or a reply
   * in flight (or an input posted), or a run taken as lost (until the service is free again).
   */
  watched(status: ChatStatus): "run" | "stopping" | null {
    if (status === "stopping") return "stopping";
    return status === "streaming" || status === "submitted" || this.runLost ? "run" : null;
  }

  /** the input waiting when the service was found running nothing (`runOver`), ended by `runOverReloaded` */
  overSubmit: ChatState["submit"] = null;

  /** Whether a stop waits for the run of the answer it came after (see `interruptSent`). */
  stopWaits(): boolean {
    return this.stopping && this.stopAnswer && this.submit?.kind === "answer";
  }

  /** Whether silence may be taken as a lost run: the stream is open and the run not taken as lost already. */
  mayLose(): boolean {
    return this.link === "open" && !this.runLost;
  }

  /**
   * The service says `running` but no event came for `lostRunMs` (`quietMs` in all): the
   * instance running the reply is taken as gone (the service holds the session's lock until
   * its lease ends, up to 10 minutes, and never stores the partial reply).
   */
  markLost(quietMs: number): void {
    const quiet = Math.round(quietMs / 1000);
    let replies = 0;
    for (const m of this.session.getSnapshot().messages) {
      if (!this.tailReplies.has(m.id) || this.session.isEnded(m.id) || this.lost.has(m.id) || findPending(m).length > 0) continue;
      // stored, or found over: not this run's
      if (this.historyIds.has(m.id) || this.settled.get(m.id) === m || this.hidden.has(m.id)) continue;
      this.lost.set(m.id, m);
      replies += 1;
    }
    // the turns whose run started are over (the store keeps what it had before them)
    for (const posted of this.posted.values()) {
      if (posted.accepted && this.tailReplies.size > posted.replies) posted.over = true;
    }
    const waiting = this.submit !== null;
    const what = replies > 0
      ? "the reply was lost: no event for"
      : waiting ? "the message waits: the session is held by a run with no event for" : "the session is held by a run with no event for";
    this.error = this.lostError = new MsgError(
      "run_lost",
      `${what} ${quiet} s while the service still says it runs (the instance running it is likely gone). ` +
        "The service never stores that partial reply, and frees the session when the run's lock expires, at most 10 minutes after the instance went away; " +
        (waiting ? "this message runs then." : "a message sent now runs then (an operator can free it at once: delete the Redis key agentscope:session:lock:<session id>)."),
    );
    this.runLost = true;
    this.serviceRunning = false;
    this.changed();
  }

  /**
   * Whether the input `submit` (posted last) may still wait for its run to take the session,
   * given the latest page: it is still the one waiting, and the page says the session is
   * held again, or lacks its user message, or has the calls it answered still waiting.
   */
  awaited(submit: ChatState["submit"], page: HistoryPage): boolean {
    if (submit === null || this.submit !== submit) return false;
    if (page.isRunning) return true;
    if (submit.kind === "send") return !page.messages.some((m) => submit.ids?.includes(m?.id) === true);
    const reply = page.messages.find((m) => m?.id === submit.replyId);
    const waiting = reply === undefined ? [] : findPending(reply).map((a) => a.toolCall.id);
    return (submit.calls ?? []).every((id) => waiting.includes(id));
  }

  /** The service runs nothing (the watchdog): the runs of the turns posted so far are over (the reload drops what the store lacks). */
  runOver(): void {
    this.overSubmit = this.submit;
    this.clearLost();
    // (a turn whose post is still on its way, retried after a 409, has not run yet)
    for (const posted of this.posted.values()) posted.over ||= posted.accepted;
  }

  /** After the reload of a run found over: a reply in flight without its end is settled. */
  runOverReloaded(): void {
    for (const m of this.session.getSnapshot().messages) {
      if (!this.session.isEnded(m.id)) this.settled.set(m.id, m);
    }
    // (only the input found over: one sent meanwhile, e.g. from onFinish, goes on)
    if (this.submit === this.overSubmit) this.submit = null;
    this.overSubmit = null;
    this.serviceRunning = false;
    this.unanswer();
    this.changed();
  }

  /** `reconnect()` after a lost service: the stream is tried again from scratch. Returns whether it is. */
  reconnect(): boolean {
    if (!this.fatal || this.link === "open") return false;
    this.fatal = false;
    this.gone = null; // (asked again: a reload finds it gone again, or not)
    this.link = "reconnecting";
    this.error = this.runError ? this.runFailure : null; // (a failed run's error stays)
    this.streamFailures = 0;
    this.changed();
    return true;
  }

  // ---------------------------------------------------------------- the idle stream (idleStreamMs, shareStream)

  /**
   * Whether the chat needs the session's event stream now: something of it is in flight
   * (an input posted, a reply streaming or being stopped, a run the last page, the
   * service's status or another tab said runs, a run taken as lost). At rest (`ready`,
   * `awaiting_input`, a failed run) it does not: with `idleStreamMs` the shell closes it
   * after that grace, and watches the service's status instead. `status`: the snapshot's.
   */
  streamWanted(status: ChatStatus): boolean {
    if (this.closed || this.fatal) return false;
    if (status === "submitted" || status === "streaming" || status === "stopping") return true;
    return this.submit !== null || this.stopping || this.serviceRunning || this.runLost;
  }

  /** The shell closed the stream at rest (or the chat never held one there): connection `idle`. */
  streamIdle(): void {
    if (this.closed || this.fatal || this.link === "lost") return;
    this.link = "idle";
    // (a stream no longer tried has no error of its own; a failed or lost run's stays)
    if (this.error !== null && this.error === this.streamError) this.clearError();
    this.streamFailures = 0;
    this.changed();
  }

  /** The stream is wanted again after `idle` (its connect, or another tab's relay, follows). */
  streamWaking(): void {
    if (this.link !== "idle") return;
    this.link = "connecting";
    this.changed();
  }

  /** Events come relayed by the chat (of another tab) that holds the session's stream: connection `open`. */
  streamFollowed(): void {
    if (this.link === "open" || this.closed || this.fatal) return;
    this.link = "open";
    if (this.error !== null && this.error === this.streamError) this.clearError();
    this.changed();
  }

  /**
   * The service's status (asked at rest), or another tab (which posted an input), says the
   * session runs: the chat joins the run (status `streaming` until its events come, or the
   * watchdog finds it over) and so wants its stream again.
   */
  runSeen(): void {
    if (this.closed || this.fatal || this.runLost || this.serviceRunning) return;
    this.serviceRunning = true;
    this.changed();
  }

  /** Takes the effects asked for so far. */
  takeEffects(): Effect[] {
    return this.effects.splice(0);
  }
}
