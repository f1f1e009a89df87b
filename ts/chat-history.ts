// A page of stored messages taken into a chat's state (chat-state.ts): the stored replies
// put in over what the stream brought, what the store lacks at rest dropped, the ends the
// stream never brought told. Pure: the page is an input (chat.ts loads it).
import { MsgError } from "./errors.js";
import type { AgentEvent } from "./event.js";
import type { MsgJSON } from "./message.js";
import { pendingActions as findPending, type KeptEvent } from "./session.js";
import type { ChatState } from "./chat-state.js";
import type { HistoryPage } from "./transport.js";

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

/**
 * Whether the latest `page` starts after what the chat holds: older messages exist, the
 * page's oldest is none the chat knows, and the chat holds a stored message or an ended
 * reply the page lacks (so more than a page came after it).
 */
function gap(s: ChatState, page: HistoryPage, index: ReadonlyMap<string, number>): boolean {
  const oldest = page.messages[0]?.id;
  if (!page.hasMore || oldest === undefined || index.has(oldest)) return false;
  if (s.tail.some((t) => (t.kind === "user" ? t.msg.id : t.id) === oldest)) return false;
  const ids = new Set(page.messages.map((m) => m?.id));
  return s.history.some((m) => !ids.has(m.id)) || s.tail.some((t) => t.kind === "reply" && !ids.has(t.id) && s.session.isEnded(t.id));
}

/** Merges a page of stored messages (by id; new ones after the known ones, in order). */
export function merge(s: ChatState, page: HistoryPage, before?: ReadonlySet<string>): void {
  // (the page the chat opens on: what it holds ended before)
  const first = !s.merged;
  s.merged = true;
  const index = new Map(s.history.map((m, i) => [m.id, i]));
  if (gap(s, page, index)) {
    // the latest page does not reach back to what the chat holds (more than a page was
    // stored since: another client's long list, a long run): the chat shows that page,
    // and what is older is reached with loadOlder (a gap in the list would never be
    // filled); what it held and the page lacks is stored, older than the page: the
    // replies the stream brought and ended, the turns posted whose post was taken
    const ids = new Set(page.messages.map((m) => m?.id));
    s.history = [];
    index.clear();
    for (const [msg, posted] of s.posted) {
      if (!posted.accepted || ids.has(msg.id)) continue;
      s.posted.delete(msg);
      s.historyIds.add(msg.id);
    }
    s.tail = s.tail.filter((t) => (t.kind === "user" ? !s.historyIds.has(t.msg.id) : ids.has(t.id) || !s.session.isEnded(t.id)));
  } else {
    // a post's messages are stored together, in order: those of a post the page holds
    // one of and lacks are before the page (a list posted longer than a page): they join
    // the history there
    const ids = new Set(page.messages.map((m) => m?.id));
    for (const [msg, posted] of [...s.posted]) {
      if (ids.has(msg.id) || index.has(msg.id) || !posted.batch.some((m) => ids.has(m.id))) continue;
      index.set(msg.id, s.history.length);
      s.history.push(msg);
      s.historyIds.add(msg.id);
      s.posted.delete(msg);
    }
  }
  for (const m of page.messages) {
    if (typeof m !== "object" || m === null || typeof m.id !== "string") continue;
    const i = index.get(m.id);
    if (i === undefined) {
      index.set(m.id, s.history.length);
      s.history.push(m);
    } else {
      s.history[i] = m;
    }
    s.historyIds.add(m.id);
    s.hidden.delete(m.id); // (stored: shown)
    if (m.role === "assistant" && typeof m.name === "string") s.agentName = m.name;
  }
  if (s.history.length === page.messages.length) s.hasMore = page.hasMore;
  s.cursor = page.eventCursor ?? s.cursor;
  s.serviceRunning = page.isRunning;
  for (const m of page.messages) {
    if (m?.role !== "assistant") continue;
    const ours = s.session.get(m.id);
    const parked = findPending(m).length > 0;
    if (ours === undefined) {
      // a reply parked on a human or an external executor: its continuation (a second
      // REPLY_START with the same id) must find it
      if (parked) insertStored(s, m);
    } else if (s.partial.has(m.id) || (!page.isRunning && !s.reconciled.has(ours))) {
      // joined mid-way, or the run is over: parked (its continuation may have been missed)
      // or ended (its end may have been missed, or its events came out of order): the
      // stored one is whole, and what the page shows. An ended one is never continued: put
      // in once, it stays (a parked one is put in at every rest).
      insertStored(s, m);
      s.partial.delete(m.id);
      const now = s.session.get(m.id);
      if (!page.isRunning && now !== undefined) {
        // at rest it is over: not in flight (no wait for the watchdog)
        s.settled.set(m.id, now);
        if (m.finished_at !== null) s.reconciled.add(now);
      }
    }
  }
  if (!page.isRunning) {
    // at rest after the interrupt: the stop is over (the reply ended, or stays parked)
    if (s.stopping && s.interrupted) s.stopping = false;
    // at rest, what the store lacks was dropped by the service: a turn whose run is
    // over (stopped before it saved), a reply it never stored
    let dropped = 0;
    for (const [msg, posted] of s.posted) {
      if (s.historyIds.has(msg.id)) s.posted.delete(msg);
      else if (posted.over) {
        s.posted.delete(msg);
        s.tail = s.tail.filter((t) => !(t.kind === "user" && t.msg === msg));
        if (!posted.stopped) dropped += 1;
      }
    }
    if (dropped > 0 && !s.fatal) {
      // not stopped, yet not stored: its run died with its instance (or never ran)
      s.error = new MsgError(
        "run_lost",
        `${dropped === 1 ? "a message was" : `${dropped} messages were`} not stored: the run it started is over without saving (its instance likely went away); send it again`,
      );
    }
    // a reply streamed whose run is over without an end, that the store lacks (a dead
    // run's events replayed from the log): not shown
    for (const id of before ?? s.tailReplies) {
      if (!s.historyIds.has(id) && s.session.get(id) !== undefined && !s.session.isEnded(id)) s.hidden.add(id);
    }
    for (const id of s.partial) {
      if (!s.historyIds.has(id)) s.hidden.add(id);
    }
    s.partial.clear();
    // a lost reply the service never stored, once it is free again
    for (const id of s.lost.keys()) {
      if (!s.historyIds.has(id)) s.hidden.add(id);
    }
    s.lost.clear();
    s.clearLost();
    // at rest with no answer on its way: calls answered and still waiting were never applied
    if (s.submit === null) s.unanswer();
  }
  s.tail = s.tail.filter((t) => (t.kind === "user" ? !s.historyIds.has(t.msg.id) : !s.historyIds.has(t.id)));
  // the input posted is stored, and its run over or its reply ended: it is no longer on
  // its way (its events may never have come: the stream was away)
  const submit = s.submit;
  if (submit !== null) {
    const at = submit.kind === "send" ? page.messages.findIndex((m) => m?.id === submit.ids?.at(-1)) : -1;
    if (at >= 0 && (!page.isRunning || page.messages.slice(at + 1).some((m) => m?.role === "assistant" && m.finished_at !== null && m.finished_at !== undefined))) {
      s.submit = null;
    }
    if (submit.kind === "answer") {
      const reply = page.messages.find((m) => m?.id === submit.replyId);
      const waiting = reply === undefined ? [] : findPending(reply).map((a) => a.toolCall.id);
      if (reply !== undefined && !(submit.calls ?? []).every((id) => waiting.includes(id))) {
        s.submit = null;
        // (its run goes on: a stop before it is sent again; over: nothing to stop)
        if (page.isRunning) s.answerRunShown();
        else s.stopAnswer = false;
      }
    }
  }
  // a reply that ended while the stream was away (stalled, reconnecting: its REPLY_END is
  // before the cursor the reconnect replays from) is over once stored as ended; those the
  // chat opened on were over before it
  const finished: MsgJSON[] = [];
  for (const m of page.messages) {
    if (m?.role === "assistant" && m.finished_at !== null && m.finished_at !== undefined) {
      s.ended.set(m.id, m);
      s.unchecked.delete(m.id); // (stored whole: a replay of it is not checked)
      s.stored.delete(m.id);
    }
    if (m?.role !== "assistant" || m.finished_at === null || m.finished_at === undefined || s.endTold(m.id, m.finished_at)) continue;
    s.tellEnd(m.id, m.finished_at);
    if (!first && !s.hidden.has(m.id)) {
      finished.push(s.session.get(m.id) ?? m);
      // the REPLY_END the stream never brought, made from the stored reply (once: one of
      // the stream's that still comes for that end is not passed)
      const end = { type: "REPLY_END", session_id: s.sessionId, reply_id: m.id, finished_reason: m.finished_reason ?? "completed", error: m.error ?? null, created_at: m.finished_at, metadata: {} };
      s.endRebuilt.add(m.id);
      s.effects.push({ type: "event", event: Object.freeze(end) as AgentEvent, info: { continued: false, rebuilt: true } });
    }
  }
  s.changed();
  s.finish(finished);
}

/**
 * Puts in a stored reply (parked, or ended): until its next `REPLY_START` (a
 * continuation), an event of it the stream still brings (held back by a stall: the
 * stored one already holds it) is undone by putting the stored one in again.
 */
export function insertStored(s: ChatState, m: MsgJSON): void {
  s.stored.set(m.id, m);
  s.insert(m);
  // (the reply an answer waits on, put in as stored: no sign of the answer's run)
  if (s.submit?.kind === "answer" && s.submit.replyId === m.id) s.submit.seen = s.session.get(m.id);
}

/** Puts `m` (stored, ended) in again after a late event of it; it stays over. */
function restoreEnded(s: ChatState, m: MsgJSON): void {
  s.insert(m);
  const now = s.session.get(m.id);
  if (now !== undefined) {
    s.settled.set(m.id, now);
    s.reconciled.add(now);
  }
}

/** After a frame's events: the late ones of a stored reply put in are undone (see {@link insertStored}). */
export function undoLate(s: ChatState, kept: readonly KeptEvent[]): void {
  let late: Set<string> | undefined;
  let ended: Set<string> | undefined;
  for (const { outcome, event } of kept) {
    const id = (event as { reply_id?: unknown }).reply_id;
    if (typeof id !== "string") continue;
    // an answer's echo opens the continuation (its REPLY_START comes next, and may be
    // lost); a REPLY_END closes one (a parked reply is stored without an end: it is new,
    // and the reload after it puts in what came between)
    if ((event.type === "USER_CONFIRM_RESULT" || event.type === "EXTERNAL_EXECUTION_RESULT" || event.type === "REPLY_END") && s.stored.has(id)) {
      s.stored.delete(id);
      late?.delete(id);
      continue;
    }
    if (outcome !== "applied") continue;
    // a reply stored as ended is over: what the stream still brings of it is stale (a
    // replay held back, a lone REPLY_START of an interrupt at rest)
    if (s.ended.has(id)) {
      (ended ??= new Set()).add(id);
      continue;
    }
    if (!s.stored.has(id)) continue;
    // a continuation (after an interrupt of the parked reply: no echo) starts later than
    // anything the stored one holds; the reply's own start, held back, does not
    if (event.type === "REPLY_START" && !before((event as { created_at?: unknown }).created_at, newest(s.stored.get(id)!))) {
      s.stored.delete(id);
      late?.delete(id);
    } else {
      (late ??= new Set()).add(id);
    }
  }
  for (const id of late ?? []) s.insert(s.stored.get(id)!);
  for (const id of ended ?? []) restoreEnded(s, s.ended.get(id)!);
}
