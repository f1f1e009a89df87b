// The event stream's bytes taken into a chat's state (chat-state.ts): frame by frame into
// its deduplicating `Session`, a reply joined mid-way opened, late events of a stored
// reply undone, ends and parked replies noticed. Pure: the bytes are an input (chat.ts
// reads the stream); what it asks of the shell goes to `s.effects`.
import { MsgError } from "./errors.js";
import type { MsgJSON } from "./message.js";
import { pendingActions as findPending, type KeptEvent } from "./session.js";
import type { ChatState } from "./chat-state.js";
import { undoLate } from "./chat-history.js";

/**
 * Feeds one chunk frame by frame (at each blank line), so that a reply this page
 * joined mid-way (no `REPLY_START`: the replay log holds the last 1,000 events) is
 * opened before its next event.
 */
export function feed(s: ChatState, chunk: Uint8Array): number {
  const heard: Heard = { events: 0, foreign: [] };
  const first = s.effects.length;
  let good = 0;
  let start = 0;
  for (let i = 1; i < chunk.length; i++) {
    // a blank line: LF LF, CR LF CR LF, or CR CR (not the CR of a CR LF)
    const c = chunk[i];
    const end = c === 10 ? chunk[i - 1] === 10 || (chunk[i - 1] === 13 && chunk[i - 2] === 10) : c === 13 && chunk[i - 1] === 13 && chunk[i + 1] !== 10;
    if (end) {
      good += feedPiece(s, chunk.subarray(start, i + 1), heard);
      start = i + 1;
    }
  }
  if (start < chunk.length) good += feedPiece(s, chunk.subarray(start), heard);
  // (an event is progress: a `:` heartbeat or a cut frame alone is not, or a proxy that
  // sends heartbeats more often than statusPollMs would keep the watchdog from ever asking)
  if (heard.events > 0) s.effects.splice(first, 0, { type: "heard" });
  // (a reply that ended in this chunk is reloaded at its end: not at its start too)
  if (heard.foreign.some((id) => !s.session.isEnded(id))) s.reload(false);
  afterEvents(s);
  return good;
}

/** What a chunk brought: its events, and the replies it started of runs this chat did not post. */
interface Heard {
  events: number;
  foreign: string[];
}

/** Feeds a piece; returns the events it brought that the session knew (applied, or replayed duplicates). */
function feedPiece(s: ChatState, piece: Uint8Array, heard: Heard): number {
  let good = 0;
  let step = () => s.session.feed(piece);
  for (let guard = 0; guard < 1_000_000; guard++) {
    try {
      good += step();
      break;
    } catch (e) {
      s.report(e);
      if (!(e instanceof MsgError) || e.index === undefined) break;
      step = () => s.session.feed(new Uint8Array());
    }
  }
  // the piece's events as they came (what the session decoded)
  const kept = s.session.takeEvents();
  heard.events += kept.length;
  undoLate(s, kept);
  // (the replay comes first: a reply not met in its first 5,000 frames is left alone)
  if (s.unchecked.size > 0 && ++s.uncheckedFrames <= 5_000) checkReplay(s, kept);
  // a reply joined mid-way: open it (and its text blocks) and apply the event again
  let diagnostics = s.session.takeDiagnostics();
  good += diagnostics.filter((d) => d.code === "duplicate").length;
  for (let round = 0; diagnostics.length > 0 && round < 4; round++) {
    s.diagnostics = [...s.diagnostics, ...diagnostics.filter((d) => d.code !== "custom")].slice(-200);
    for (const d of diagnostics) {
      const id = d.reply_id;
      if (id === null) continue;
      if (d.code === "unknown_reply") {
        if (s.historyIds.has(id) || s.live(id)) continue; // a stale replay of a stored reply
        if (d.event_type === "REPLY_END") {
          s.reload(true);
          continue;
        }
        s.partial.add(id);
        s.started.add(id);
        apply(s, { type: "REPLY_START", session_id: s.sessionId, reply_id: id, name: s.agentName });
        reapply(s, kept, d.event_id, false);
      } else if (d.code === "unknown_block" && s.partial.has(id)) {
        reapply(s, kept, d.event_id, true);
      }
    }
    diagnostics = s.session.takeDiagnostics();
  }
  s.session.takeEvents(); // (what the repairs applied: made up here, not the stream's)
  for (const k of kept) pass(s, k, heard);
  return good;
}

/**
 * An event of the stream, once (by id): the shell takes the app state it carries into the
 * snapshot, then calls `onEvent`.
 */
function pass(s: ChatState, { outcome, event }: KeptEvent, heard: Heard): void {
  // (the session's dedup remembers every id it routed, skipped events' too: a replay is a duplicate)
  if (outcome === "duplicate" || typeof (event as { id?: unknown }).id !== "string") return;
  let continued = false;
  if (event.type === "REPLY_START") {
    continued = s.started.has(event.reply_id) || s.historyIds.has(event.reply_id);
    // a run this chat did not post (another tab's, another device's): the service stored
    // its turn before the reply started, the page shows it (else only at the run's end)
    if (!continued && s.posted.size === 0 && s.submit === null) heard.foreign.push(event.reply_id);
    s.started.add(event.reply_id);
    s.endRebuilt.delete(event.reply_id); // (its next end is the stream's)
  }
  // (a reply an event passed was of is met: a REPLY_START of it later continues it)
  const replyId = (event as { reply_id?: unknown }).reply_id;
  if (typeof replyId === "string") s.started.add(replyId);
  // the end of a reply already told from the stored history (see chat-history.ts), late
  if (event.type === "REPLY_END" && s.endRebuilt.delete(event.reply_id)) return;
  s.effects.push({ type: "event", event, info: { continued, rebuilt: false } });
}

/**
 * The first event of a reply in flight on a new connection should be its `REPLY_START`
 * (the replay log starts at the run's start). Any other means the log did not hold it:
 * events between what this page had and the replay may be missing (the service's log
 * keeps the last 1,000; on Redis, a replay of more than 1,000 also skips the newest
 * entries before going live), so the reply is marked partial and the stored one
 * replaces it when the run has saved.
 */
function checkReplay(s: ChatState, kept: readonly KeptEvent[]): void {
  for (const { event } of kept) {
    const id = (event as { reply_id?: unknown }).reply_id;
    if (typeof id !== "string" || !s.unchecked.has(id)) continue;
    // an answer is echoed before the continuation's REPLY_START
    if (event.type === "USER_CONFIRM_RESULT" || event.type === "EXTERNAL_EXECUTION_RESULT") continue;
    s.unchecked.delete(id);
    // (a reply the history shows ended meanwhile is whole as stored: its replay is stale.
    // A first event had already is no proof of a whole replay: on Redis the replay skips
    // entries after its first 1,000)
    if (event.type !== "REPLY_START" && !s.ended.has(id)) s.partial.add(id);
  }
}

/** Applies an event the chat makes itself (the start of a reply or block it joined mid-way). */
function apply(s: ChatState, event: Record<string, unknown>): void {
  try {
    s.session.apply(JSON.stringify(event));
  } catch (e) {
    s.report(e);
  }
}

/**
 * Applies again the event `eventId` of a piece (without its id: dedup saw it), first
 * opening its text or thinking block when `openBlock` (its start was before the replay).
 */
function reapply(s: ChatState, kept: readonly KeptEvent[], eventId: string | null, openBlock: boolean): void {
  const event = kept.find((k) => eventId === null || (k.event as { id?: unknown }).id === eventId)?.event as Record<string, unknown> | undefined;
  if (event === undefined) return;
  if (openBlock) {
    const kind = /^(TEXT|THINKING)_BLOCK_(DELTA|END)$/.exec(String(event.type))?.[1];
    if (kind === undefined) return; // tool calls and data blocks need what their start said
    apply(s, { type: `${kind}_BLOCK_START`, reply_id: event.reply_id, block_id: event.block_id });
  }
  const { id: _id, ...again } = event;
  apply(s, again);
}

/** After events: new replies join the tail; an ended run triggers a history reload. */
function afterEvents(s: ChatState): void {
  const live = s.session.getSnapshot().messages;
  if (live !== s.lastLive) {
    s.lastLive = live;
    s.effects.push({ type: "progressed" });
  }
  for (const [id, was] of s.lost) {
    // an event for a reply taken as lost: it was not
    if (s.session.get(id) !== was) {
      s.lost.delete(id);
      s.clearLost();
    }
  }
  const finished: MsgJSON[] = [];
  let parked = false;
  for (const m of live) {
    // a reply that parks (waits for an answer) is reloaded once: the stored one is whole
    // (the stream may have lost or reordered some of its events; no REPLY_END reloads it)
    // (a message object unchanged since the last look is not scanned again)
    if (!s.parkSeen.has(m)) {
      s.parkSeen.add(m);
      if (findPending(m).length > 0) {
        if (!s.parked.has(m.id)) {
          s.parked.add(m.id);
          parked = true;
        }
      } else {
        s.parked.delete(m.id);
      }
    }
    if (!s.historyIds.has(m.id) && !s.tailReplies.has(m.id)) {
      s.tailReplies.add(m.id);
      s.tail.push({ kind: "reply", id: m.id });
      s.clearLost(); // a new reply: the session runs again
    }
    const isEnded = s.session.isEnded(m.id);
    if (isEnded && !s.endTold(m.id, m.finished_at ?? "")) {
      s.tellEnd(m.id, m.finished_at ?? "");
      finished.push(m);
      s.serviceRunning = false;
      // (a turn whose post is not answered yet, retried after a 409, has not run: this
      // reply is another client's run)
      for (const posted of s.posted.values()) {
        if (posted.accepted && s.tailReplies.size > posted.replies) posted.over = true;
      }
      s.runError = m.finished_reason === "error" || (m.error !== null && m.error !== undefined);
      if (s.runError) {
        const info = m.error as { message?: string; type?: string } | null;
        s.error = s.runFailure = new MsgError("run_failed", `the reply failed: ${info?.message ?? "no message"}${info?.type ? ` (${info.type})` : ""}`);
      }
    }
  }
  const submit = s.submit;
  if (submit !== null) {
    if (submit.kind === "send" && submit.accepted !== false && s.tailRepliesAfter(submit.replies)) s.submit = null;
    if (submit.kind === "answer" && submit.replyId !== undefined && s.session.get(submit.replyId) !== submit.seen) {
      s.submit = null;
      s.answerRunShown();
      // the reply changed and still waits on the calls answered (a stale answer's echo, an
      // interrupt's end): the page at rest tells whether the answer was applied
      const reply = s.session.get(submit.replyId);
      if (reply !== undefined && findPending(reply).some((a) => submit.calls?.includes(a.toolCall.id))) s.reload(true);
    }
  }
  if (finished.length > 0 || parked) s.reload(true);
  s.changed();
  // told once the chat's state says the reply is over (a send from onFinish is not busy)
  s.finish(finished);
}
