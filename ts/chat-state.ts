// The state of a chat (the data its state machine, chat-core.ts, changes) and the effects
// a change asks of its shell (chat.ts). Pure: no request, no timer, no clock. The
// transitions that change it live in chat-core.ts, chat-history.ts (a page of stored
// messages) and chat-feed.ts (the event stream's bytes).
import type { AgentEvent } from "./event.js";
import { MsgError } from "./errors.js";
import type { MsgJSON } from "./message.js";
import { pendingActions, type Diagnostic, type Session } from "./session.js";
import type { ChatConnection, EventInfo, Retry, Settings } from "./chat-types.js";

/** What the shell is asked to do after a transition, in order. */
export type Effect =
  /** Reload the latest stored page (`untilIdle`: until the service runs nothing), then `ChatCore.merge` it. */
  | { readonly type: "reload"; readonly untilIdle: boolean }
  /** Call `onFinish` with this reply. */
  | { readonly type: "finish"; readonly message: MsgJSON }
  /** An event of the stream, once: take its app state in (`AppState.apply`), then call `onEvent`. */
  | { readonly type: "event"; readonly event: AgentEvent; readonly info: EventInfo }
  /** An error nobody awaits: `onError` (or the console). */
  | { readonly type: "report"; readonly error: unknown }
  /** The service was heard from (a chunk of the stream that brought an event): the watchdog's next question waits again. */
  | { readonly type: "heard" }
  /** An event changed a message: the watchdog's run-lost clock starts again. */
  | { readonly type: "progressed" }
  /** Move the transport to its next instance. */
  | { readonly type: "failover" }
  /** Send the interrupt again (a stop came before the run of an answer started: it was lost on the parked reply). */
  | { readonly type: "interrupt" }
  /** Drop the event stream's connection (the session is gone). */
  | { readonly type: "abort_stream"; readonly error: MsgError };

/** A message of the list after the stored history: a user turn this page sent, or a reply met on the stream. */
export type TailEntry = { kind: "user"; msg: MsgJSON } | { kind: "reply"; id: string };

/**
 * The input posted whose run has not shown yet: its user messages' ids, or the reply and
 * calls it answers. A send's `accepted` is false until its `POST /chat/` is answered: a
 * reply met before is another client's run (the service answers 409 while one holds the
 * session), unless it came after the last 409 (it may be this one's, racing the answer).
 */
export type Submit = { kind: "send" | "answer"; replies: number; ids?: readonly string[]; replyId?: string; seen?: MsgJSON; calls?: readonly string[]; accepted?: boolean };

/**
 * The chat's state: every field the transitions read and write. Fields are plain (the
 * transitions of three modules share them); nothing outside the chat sees this object.
 */
export class ChatState {
  readonly sessionId: string;
  readonly options: Settings;
  readonly retry: Retry;
  /** the stream's events folded, deduplicated by id (`dedup`), each kept for `onEvent` (`keepEvents`) */
  readonly session: Session;
  history: MsgJSON[] = [];
  historyIds = new Set<string>();
  hasMore = false;
  /** the stream's cursor of the latest page (`after` of the next connect) */
  cursor: string | null = null;
  tail: TailEntry[] = [];
  tailReplies = new Set<string>();
  /** replies joined mid-way (events may be missing), until the stored one replaces them */
  partial = new Set<string>();
  /** replies the service says are over though no REPLY_END came: the snapshot object then */
  settled = new Map<string, MsgJSON>();
  /** replies told to `onFinish`, with the end told (`finished_at`, as {@link instantKey}): one end is told once */
  finished = new Map<string, string>();
  /** replies (the session's message objects) replaced by the stored one at rest: equal to the store until they change */
  reconciled = new WeakSet<MsgJSON>();
  link: ChatConnection = "connecting";
  /** `stop()` was called and the reply it stops has not ended (status `stopping`) */
  stopping = false;
  /** the interrupt of the stop under way was answered (a page at rest then ends the stop) */
  interrupted = false;
  /** the interrupt went out before the run of the answer posted had shown: sent again once it shows */
  stopAnswer = false;
  /** tool calls answered (or being answered) by this chat: not answered again */
  answered = new Set<string>();
  /** tool calls whose answer's POST is on its way */
  answerPosting = new Set<string>();
  /** tool calls answered before a stop (found still waiting after it: answerable again, quietly) */
  stoppedAnswers = new Set<string>();
  /** replies whose start this chat met (a later REPLY_START of one continues it) */
  started = new Set<string>();
  /** replies whose REPLY_END `onEvent` got rebuilt from the stored history (the stream's, if it still comes, is not passed) */
  endRebuilt = new Set<string>();
  /** replies the history shows ended, as stored: the stream's later events of them are stale */
  ended = new Map<string, MsgJSON>();
  /** replies waiting for an answer (reloaded once when they park) */
  parked = new Set<string>();
  /** the message objects looked at for `parked` */
  parkSeen = new WeakSet<MsgJSON>();
  /** stored replies put in, until their next REPLY_START (see chat-history.ts `insertStored`) */
  stored = new Map<string, MsgJSON>();
  /** whether a page of history was merged (the first is what the chat opened on) */
  merged = false;
  closed = false;
  /** the stream is lost for good (a session that is gone, the attempts ran out): status `error` */
  fatal = false;
  error: MsgError | null = null;
  /** the session was found gone (deleted, a 4xx of its stream): the error that said so; every input is refused */
  gone: MsgError | null = null;
  submit: Submit | null = null;
  runError = false;
  /** the error of the failed run (`runError`) */
  runFailure: MsgError | null = null;
  /** the run was taken as lost (lostRunMs) and nothing has come of it since */
  runLost = false;
  /** the error that said so (`runLost`) */
  lostError: MsgError | null = null;
  /** replies joined mid-way that the service never stored (a stray or foreign event): not shown */
  hidden = new Set<string>();
  /**
   * user turns posted that the store does not hold yet: the replies seen before each was
   * sent (or refused 409: those are another run's), whether its post was answered
   * (`accepted`: a run over before is not its run), the messages of its post (`batch`),
   * and whether a run after it is over (a
   * reply that came after it ended, or the watchdog found the service idle)
   */
  posted = new Map<MsgJSON, { replies: number; over: boolean; stopped?: boolean; accepted: boolean; batch: readonly MsgJSON[] }>();
  /** the service said a run holds the session (history's is_running) and no reply of it has ended since */
  serviceRunning = false;
  diagnostics: Diagnostic[] = [];
  /** replies taken as lost (see lostRunMs): the message as it was then */
  lost = new Map<string, MsgJSON>();
  /** a lost reply as shown: its message with finished_reason "interrupted" */
  lostShown = new WeakMap<MsgJSON, MsgJSON>();
  lastLive: unknown;
  /**
   * replies in flight when the stream (re)connected whose first event on it has not come:
   * one that is not their REPLY_START means the replay did not hold the whole reply
   */
  unchecked = new Set<string>();
  uncheckedFrames = 0;
  /** the speaker of replies this page opens itself (the last stored reply's) */
  agentName = "assistant";
  /** failed connects of the stream in a row (reset by a healthy connection) */
  streamFailures = 0;
  /** the stream's connection brought an event (applied or a replayed duplicate) */
  streamHealthy = false;
  /** the error set when the stream failed (cleared when it opens again) */
  streamError: MsgError | undefined;
  /** the error set when a reload failed past the attempts (cleared by its success) */
  reloadError: MsgError | undefined;
  /** the snapshot may have changed since it was last made */
  dirty = true;
  /** the snapshot may have changed since the shell last told its listeners */
  notify = false;
  /** what the shell is asked to do, in order (see {@link Effect}) */
  readonly effects: Effect[] = [];

  constructor(sessionId: string, options: Settings, retry: Retry, session: Session) {
    this.sessionId = sessionId;
    this.options = options;
    this.retry = retry;
    this.session = session;
  }

  /** The snapshot may have changed. */
  changed(): void {
    this.dirty = true;
    this.notify = true;
  }

  report(error: unknown): void {
    this.effects.push({ type: "report", error });
  }

  reload(untilIdle: boolean): void {
    this.effects.push({ type: "reload", untilIdle });
  }

  /** `onFinish` for each reply, in order. */
  finish(replies: readonly MsgJSON[]): void {
    for (const message of replies) this.effects.push({ type: "finish", message });
  }

  /**
   * The error shown goes (a stream's, a reload's): a failed run's or a lost run's, which
   * the status `error` is for, shows again (status `error` always has an error).
   */
  clearError(): void {
    this.error = this.runError ? this.runFailure : this.runLost ? this.lostError : null;
  }

  /** Whether the end of reply `id` at `finishedAt` was told to `onFinish` already. */
  endTold(id: string, finishedAt: string): boolean {
    return this.finished.get(id) === instantKey(finishedAt);
  }

  /** The end of reply `id` at `finishedAt` is told to `onFinish` (once). */
  tellEnd(id: string, finishedAt: string): void {
    this.finished.set(id, instantKey(finishedAt));
  }

  fail(error: MsgError, fatal = false): void {
    this.error = error;
    if (fatal) this.fatal = true;
    this.changed();
  }

  live(id: string): boolean {
    return this.session.get(id) !== undefined;
  }

  /** Puts a message into the session (replacing its live one), no longer settled. */
  insert(m: MsgJSON): void {
    try {
      this.session.insert(m);
      this.settled.delete(m.id);
    } catch (e) {
      this.report(e);
    }
  }

  /** A run is seen again (a new reply, an event of a reply taken as lost): not lost any more. */
  clearLost(): void {
    if (!this.runLost) return;
    this.runLost = false;
    if (this.error?.code === "run_lost") this.clearError();
  }

  /**
   * The service runs nothing and the stored page still has calls this chat answered
   * waiting (the answer was taken, 200, but never applied: the instance that took it went
   * away; or a stop left the reply parked): they may be answered again. Unless stopped,
   * `error` says so (`run_lost`).
   */
  unanswer(): void {
    if (this.answered.size === 0) return;
    const waiting = new Set(pendingActions(this.history).map((a) => a.toolCall.id));
    let lost = 0;
    for (const id of [...this.answered]) {
      // (an answer still on its way is not over)
      if (this.answerPosting.has(id) || !waiting.has(id)) continue;
      this.answered.delete(id);
      if (!this.stoppedAnswers.delete(id)) lost += 1;
    }
    if (lost > 0 && !this.fatal) {
      this.error = new MsgError(
        "run_lost",
        `the answer to ${lost === 1 ? "a tool call was" : `${lost} tool calls were`} not applied: the service took it, then ran nothing and still waits on the call (the instance that took it likely went away); answer it again`,
      );
    }
  }

  /** The run of the answer posted has shown: a stop that came before it is sent again now. */
  answerRunShown(): void {
    if (!this.stopAnswer) return;
    this.stopAnswer = false;
    if (this.stopping) this.effects.push({ type: "interrupt" });
  }

  tailRepliesAfter(count: number): boolean {
    return this.tailReplies.size > count;
  }
}

/**
 * A timestamp as the instant it names, to compare two ends of a reply: the stream's
 * `REPLY_END` and the stored `finished_at` may write one instant differently (`…:02`,
 * `…:02.000000`: Python's `isoformat` leaves out a zero microsecond; `Z` or `+00:00`).
 * Anything else is compared as written.
 */
export function instantKey(t: string): string {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)?$/.exec(t);
  if (m === null) return t;
  return `${m[1]}.${(m[2] ?? "").padEnd(9, "0")}${m[3] === "Z" ? "+00:00" : (m[3] ?? "")}`;
}
