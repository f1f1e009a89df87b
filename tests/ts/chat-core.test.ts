// The chat's state machine (ts/chat-core.ts) driven alone, without a transport, timers or
// a clock: inputs in (a page, stream bytes, a failure and how long the connection was
// open, a user action), decisions and effects out. Expected values worked out by hand
// from the options (retry 250 ms doubling to 5,000, 8 attempts) and the events given.
// And the core's modules are checked to hold no I/O: no fetch, timer, clock or random.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { MsgError, Session, type MsgJSON } from "../../pkg/dist/index.js";
import { ChatCore, type AppView } from "../../pkg/dist/chat-core.js";
import { normalizeOptions } from "../../pkg/dist/chat-types.js";
import { root } from "./helpers.ts";

const SID = "s1";
const APP: AppView = { state: null, view: null, progress: Object.freeze({}), workerCalls: () => [] };
const T = (n: number) => `2026-01-01T00:00:00.${String(n).padStart(6, "0")}`;

function core(options = {}): ChatCore {
  const [settings, retry] = normalizeOptions(options);
  return new ChatCore(SID, settings, retry, new Session({ dedup: true, keepEvents: true }));
}

let seq = 0;
/** One SSE frame of an event (id and created_at filled in). */
function frame(body: Record<string, unknown>): string {
  seq += 1;
  return `data: ${JSON.stringify({ id: `e${seq}`, created_at: T(seq), metadata: {}, ...body })}\n\n`;
}

const bytes = (text: string) => new TextEncoder().encode(text);
const types = (c: ChatCore) => c.takeEffects().map((e) => e.type);

function reply(id: string, text: string): string {
  return (
    frame({ type: "REPLY_START", session_id: SID, reply_id: id, name: "Friday", role: "assistant" }) +
    frame({ type: "TEXT_BLOCK_START", reply_id: id, block_id: `${id}-t` }) +
    frame({ type: "TEXT_BLOCK_DELTA", reply_id: id, block_id: `${id}-t`, delta: text }) +
    frame({ type: "TEXT_BLOCK_END", reply_id: id, block_id: `${id}-t`, text: null })
  );
}
const end = (id: string) => frame({ type: "REPLY_END", session_id: SID, reply_id: id, finished_reason: "completed", error: null });

const EMPTY = { messages: [], hasMore: false, isRunning: false, eventCursor: null };

test("a reply streamed in one chunk: one event effect per event, in order, then its reload and onFinish, and the snapshot over", () => {
  const c = core();
  c.merge(EMPTY);
  assert.deepEqual(types(c), []);
  c.streamOpened();
  c.feed(bytes(reply("r1", "hello") + end("r1")));
  const effects = c.takeEffects();
  assert.deepEqual(
    effects.map((e) => (e.type === "event" ? `event ${e.event.type}` : e.type)),
    ["heard", "event REPLY_START", "event TEXT_BLOCK_START", "event TEXT_BLOCK_DELTA", "event TEXT_BLOCK_END", "event REPLY_END", "progressed", "reload", "finish"],
  );
  const finish = effects.find((e) => e.type === "finish");
  assert.equal(finish?.type === "finish" && finish.message.id, "r1");
  assert.deepEqual(effects.find((e) => e.type === "reload"), { type: "reload", untilIdle: true });
  const s = c.snapshot(APP);
  assert.equal(s.status, "ready");
  assert.equal(s.connection, "open");
  assert.equal(s.messages.length, 1);
  assert.equal(s.messages[0]!.id, "r1");
  assert.equal((s.messages[0]!.content[0] as { text: string }).text, "hello");
  assert.equal(s.messages[0]!.finished_reason, "completed");
});

test("a run this chat did not post: the page is reloaded at its REPLY_START (its turn is stored by then); one it posted, or one ending in the same chunk: not", () => {
  const reloads = (c: ReturnType<typeof core>) => c.takeEffects().filter((e) => e.type === "reload");
  // another tab's or device's run
  let c = core();
  c.merge(EMPTY);
  c.streamOpened();
  c.takeEffects();
  c.feed(bytes(reply("r1", "he")));
  assert.deepEqual(reloads(c), [{ type: "reload", untilIdle: false }]);
  // its later events, and a replay of its start on a reconnect: no more
  c.feed(bytes(end("r1")));
  assert.deepEqual(reloads(c), [{ type: "reload", untilIdle: true }]);
  c.streamOpened();
  c.feed(bytes(reply("r1", "he")));
  assert.deepEqual(reloads(c), []);
  // this chat's own run
  c = core();
  c.merge(EMPTY);
  const msg = { id: "u1", role: "user", name: "user", content: [{ type: "text", text: "hi", id: "b" }] } as unknown as MsgJSON;
  c.beginSend([msg], "ready");
  c.streamOpened();
  c.sendAccepted([msg]);
  c.takeEffects();
  c.feed(bytes(reply("r2", "hi")));
  assert.deepEqual(reloads(c), []);
});

test("a replay starting mid-reply is partial, also when its first event was had already (on Redis a replay skips entries after its first 1,000)", () => {
  const frames = reply("r1", "abc");
  // from its TEXT_BLOCK_DELTA on (its REPLY_START and TEXT_BLOCK_START not in the replay)
  const fromDelta = frames.split("\n\n").slice(2).join("\n\n");
  for (const hadIt of [true, false]) {
    const c = core();
    c.merge({ ...EMPTY, isRunning: true });
    c.streamOpened();
    if (hadIt) {
      c.feed(bytes(frames));
      assert.deepEqual(c.snapshot(APP).partial, []);
      c.streamOpened();
    }
    c.feed(bytes(fromDelta));
    assert.deepEqual(c.snapshot(APP).partial, ["r1"], `had the start: ${hadIt}`);
  }
});

test("a replay is deduplicated by event id: the same frames twice give their events once", () => {
  const c = core();
  c.merge(EMPTY);
  c.streamOpened();
  const frames = reply("r2", "abc");
  c.feed(bytes(frames));
  assert.equal(c.takeEffects().filter((e) => e.type === "event").length, 4);
  c.streamOpened();
  c.feed(bytes(frames));
  assert.deepEqual(c.takeEffects().filter((e) => e.type === "event"), []);
  assert.equal(c.snapshot(APP).messages[0]!.content.length, 1);
  assert.equal(c.snapshot(APP).status, "streaming");
});

test("a stream failing: backoff 250, 500, 1000, 2000, 4000, 5000, 5000, 5000 ms, then lost at the 9th failure", () => {
  const c = core();
  const delays: (number | null)[] = [];
  for (let i = 0; i < 9; i++) {
    c.streamConnecting();
    const next = c.streamFailed(new MsgError("service_unavailable", "down"), 100);
    delays.push(next === null ? null : next.retryMs);
    assert.deepEqual(types(c), ["failover", "report"]);
  }
  assert.deepEqual(delays, [250, 500, 1000, 2000, 4000, 5000, 5000, 5000, null]);
  assert.equal(c.snapshot(APP).connection, "lost");
  assert.equal(c.snapshot(APP).status, "error");
  assert.equal(c.snapshot(APP).error?.code, "service_unavailable");
  // reconnect() starts the attempts afresh
  assert.equal(c.reconnect(), true);
  assert.deepEqual(c.streamFailed(new Error("reset"), 100), { retryMs: 250 });
});

test("a connection open 10 s or that brought an event counts as healthy: the attempts start afresh", () => {
  const c = core();
  c.streamFailed(new Error("x"), 0);
  c.streamFailed(new Error("x"), 0);
  assert.deepEqual(c.streamFailed(new Error("x"), 0), { retryMs: 1000 });
  c.streamConnecting();
  assert.deepEqual(c.streamFailed(new Error("x"), 10_000), { retryMs: 250 });
  c.streamConnecting();
  c.merge(EMPTY);
  c.streamOpened();
  c.feed(bytes(reply("r3", "x")));
  c.takeEffects();
  assert.deepEqual(c.streamFailed(new Error("x"), 5), { retryMs: 250 });
});

test("a 404 on the stream or a reload: the session is gone, the stream dropped, no retry", () => {
  const c = core();
  const gone = new MsgError("http_error", "not found", { status: 404 });
  assert.equal(c.streamFailed(gone, 0), null);
  assert.equal(c.snapshot(APP).connection, "lost");
  const d = core();
  assert.equal(d.reloadFailed(gone, 1), null);
  assert.deepEqual(types(d), ["report", "abort_stream"]);
  assert.equal(d.fatal, true);
});

test("a reload failing past the attempts says so once, and goes on at the longest delay", () => {
  const c = core({ retry: { initialMs: 100, maxMs: 800, attempts: 3 } });
  const out = [1, 2, 3, 4, 5].map((n) => c.reloadFailed(new MsgError("service_unavailable", "503"), n));
  assert.deepEqual(out, [
    { retryMs: 100, tired: false },
    { retryMs: 200, tired: false },
    { retryMs: 400, tired: false },
    { retryMs: 800, tired: true },
    { retryMs: 800, tired: false },
  ]);
  assert.match(c.snapshot(APP).error?.message ?? "", /could not reload the stored messages .*every 800 ms/);
  c.reloaded();
  assert.equal(c.snapshot(APP).error, null);
});

test("send while a reply streams is refused busy and changes nothing; a send that fails is taken back", () => {
  const c = core();
  c.merge(EMPTY);
  c.streamOpened();
  c.feed(bytes(reply("r4", "x")));
  c.takeEffects();
  const msg = { id: "u1", role: "user", name: "user", content: [{ type: "text", text: "hi", id: "b" }] } as unknown as MsgJSON;
  const before = c.snapshot(APP);
  assert.throws(() => c.beginSend([msg], before.status), (e: unknown) => e instanceof MsgError && e.code === "busy");
  assert.equal(c.snapshot(APP), before);
  c.feed(bytes(end("r4")));
  c.takeEffects();
  const wasLost = c.beginSend([msg], c.snapshot(APP).status);
  assert.equal(wasLost, false);
  assert.equal(c.snapshot(APP).status, "submitted");
  assert.equal(c.snapshot(APP).messages.at(-1)!.id, "u1");
  c.sendFailed([msg], wasLost, new MsgError("service_unavailable", "no"));
  assert.equal(c.snapshot(APP).status, "ready");
  assert.deepEqual(c.snapshot(APP).messages.map((m) => m.id), ["r4"]);
});

test("the page at rest puts in the stored reply and settles one whose end the stream never brought", () => {
  const c = core();
  c.merge(EMPTY);
  c.streamOpened();
  c.feed(bytes(reply("r5", "par")));
  c.takeEffects();
  assert.equal(c.snapshot(APP).status, "streaming");
  const stored = { ...c.snapshot(APP).messages[0]!, content: [{ ...c.snapshot(APP).messages[0]!.content[0], text: "partial whole" }], finished_at: T(999), finished_reason: "completed" } as MsgJSON;
  c.merge({ messages: [stored], hasMore: false, isRunning: false, eventCursor: "c9" });
  const effects = c.takeEffects();
  // the REPLY_END the stream never brought, made from the stored reply (info.rebuilt), then onFinish
  assert.deepEqual(effects.map((e) => e.type), ["event", "finish"]);
  const rebuilt = effects[0] as { event: { type: string; reply_id: string; finished_reason: string; created_at: string; id?: string }; info: { continued: boolean; rebuilt: boolean } };
  assert.deepEqual([rebuilt.event.type, rebuilt.event.reply_id, rebuilt.event.finished_reason, rebuilt.event.created_at, rebuilt.event.id], ["REPLY_END", "r5", "completed", T(999), undefined]);
  assert.deepEqual(rebuilt.info, { continued: false, rebuilt: true });
  // the stream's own REPLY_END of it, late, is not passed again
  c.feed(bytes(end("r5")));
  assert.deepEqual(c.takeEffects().filter((e) => e.type === "event" || e.type === "finish"), []);
  const s = c.snapshot(APP);
  assert.equal(s.status, "ready");
  assert.equal((s.messages[0]!.content[0] as { text: string }).text, "partial whole");
  assert.equal(c.cursor, "c9");
});

test("a replay that begins mid-reply after the page at rest put in the stored, ended reply does not mark it partial (found by the explorer: a reconnect's headers held while the instance hung)", () => {
  const c = core();
  c.merge(EMPTY);
  c.streamOpened();
  const start = frame({ type: "REPLY_START", session_id: SID, reply_id: "r6", name: "Friday", role: "assistant" });
  const open = frame({ type: "TEXT_BLOCK_START", reply_id: "r6", block_id: "r6-t" });
  const d1 = frame({ type: "TEXT_BLOCK_DELTA", reply_id: "r6", block_id: "r6-t", delta: "one " });
  const d2 = frame({ type: "TEXT_BLOCK_DELTA", reply_id: "r6", block_id: "r6-t", delta: "two" });
  c.feed(bytes(start + open + d1));
  // the stream drops; the reconnect's headers come late: the reply is in flight when it opens
  c.streamFailed(new MsgError("service_unavailable", "cut"), 100);
  c.streamConnecting();
  c.streamOpened();
  assert.deepEqual([...c.unchecked], ["r6"]);
  // meanwhile the page at rest: the reply stored, ended
  const live = c.snapshot(APP).messages[0]!;
  const stored = { ...live, content: [{ ...live.content[0], text: "one two" }], finished_at: T(900), finished_reason: "completed" } as MsgJSON;
  c.merge({ messages: [stored], hasMore: false, isRunning: false, eventCursor: "c1" });
  c.takeEffects();
  // then the replay, past the log: it begins mid-reply
  c.feed(bytes(d2 + end("r6")));
  c.takeEffects();
  assert.deepEqual(c.snapshot(APP).partial, []);
  assert.equal((c.snapshot(APP).messages[0]!.content[0] as { text: string }).text, "one two");
  assert.equal(c.snapshot(APP).status, "ready");
});

test("the core's modules do no I/O: no fetch, timer, clock or random number", () => {
  for (const file of ["chat-core.ts", "chat-state.ts", "chat-history.ts", "chat-feed.ts", "chat-input.ts"]) {
    const source = readFileSync(join(root, "ts", file), "utf8").replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, "");
    for (const banned of [/\bfetch\s*\(/, /\bset(Timeout|Interval)\b/, /\bDate\.now\b/, /\bperformance\.now\b/, /\bMath\.random\b/, /^import (?!type )[^;]*from "\.\/(transport|timing|watchdog|posting|chat-io|chat)\.js"/m]) {
      assert.doesNotMatch(source, banned, `${file} holds ${banned}`);
    }
  }
});

// ------------------------------------------------------------------ the idle stream (idleStreamMs)

test("streamWanted: not at rest only; a send, a running page, a run seen elsewhere want the stream; an ended reply at rest does not", () => {
  const c = core({ idleStreamMs: 1000 });
  c.merge(EMPTY);
  c.streamIdle();
  let s = c.snapshot(APP);
  assert.deepEqual([s.status, s.connection, c.streamWanted(s.status)], ["ready", "idle", false]);
  // a send: wanted before its POST goes
  const msg = { id: "u1", role: "user", name: "user", content: [{ type: "text", text: "hi", id: "b" }] } as unknown as MsgJSON;
  c.beginSend([msg], "ready");
  s = c.snapshot(APP);
  assert.deepEqual([s.status, c.streamWanted(s.status)], ["submitted", true]);
  c.streamWaking();
  assert.equal(c.snapshot(APP).connection, "connecting");
  c.streamOpened();
  c.feed(bytes(reply("r1", "hi")));
  // (until its POST is answered a reply met is not taken for its run: still submitted)
  assert.deepEqual([c.snapshot(APP).status, c.streamWanted(c.snapshot(APP).status)], ["submitted", true]);
  c.sendAccepted([msg]);
  s = c.snapshot(APP);
  assert.deepEqual([s.status, s.connection, c.streamWanted(s.status)], ["streaming", "open", true]);
  c.feed(bytes(end("r1")));
  // ended, but the reload of the page at rest has not come: nothing posted waits, so at rest
  s = c.snapshot(APP);
  assert.deepEqual([s.status, c.streamWanted(s.status)], ["ready", false]);
  // a page that says a run holds the session (another tab's, another client's): wanted
  c.merge({ ...EMPTY, isRunning: true, eventCursor: "c9" });
  s = c.snapshot(APP);
  assert.deepEqual([s.status, c.streamWanted(s.status), c.cursor], ["streaming", true, "c9"]);
  c.merge({ ...EMPTY, isRunning: false, eventCursor: "c9" });
  s = c.snapshot(APP);
  assert.deepEqual([s.status, c.streamWanted(s.status)], ["ready", false]);
  // the status asked at rest (or another tab) says it runs: joined, wanted
  c.runSeen();
  s = c.snapshot(APP);
  assert.deepEqual([s.status, c.streamWanted(s.status)], ["streaming", true]);
  // the watchdog finds it over: at rest again
  c.runOver();
  c.runOverReloaded();
  s = c.snapshot(APP);
  assert.deepEqual([s.status, c.streamWanted(s.status)], ["ready", false]);
  // a stop under way wants it too
  c.stopping = true;
  assert.equal(c.streamWanted("ready"), true);
});

test("streamIdle: connection idle, the stream's own error goes (a failed run's stays), the attempts start afresh; nothing once lost or closed", () => {
  const c = core({ idleStreamMs: 1000 });
  c.merge(EMPTY);
  c.streamConnecting();
  assert.deepEqual(c.streamFailed(new MsgError("service_unavailable", "refused"), 0), { retryMs: 250 });
  assert.equal(c.snapshot(APP).error?.message, "refused");
  c.streamIdle();
  let s = c.snapshot(APP);
  assert.deepEqual([s.connection, s.error, c.streamFailures], ["idle", null, 0]);
  // a relayed frame (another tab holds the stream) while waiting: open, without a new connection's checks
  c.streamWaking();
  c.streamFollowed();
  s = c.snapshot(APP);
  assert.deepEqual([s.connection, c.unchecked.size], ["open", 0]);
  // a session found gone stays lost
  c.deleted(new MsgError("http_error", "gone", { status: 404 }));
  c.streamIdle();
  c.runSeen();
  s = c.snapshot(APP);
  assert.deepEqual([s.connection, s.status, c.streamWanted(s.status), c.serviceRunning], ["lost", "error", false, false]);
});

test("runSeen: a run taken as lost is not joined again by it (the watchdog goes on asking)", () => {
  const c = core({ idleStreamMs: 1000 });
  c.merge({ ...EMPTY, isRunning: true });
  c.streamOpened();
  c.markLost(120_000);
  assert.equal(c.serviceRunning, false);
  c.runSeen();
  assert.equal(c.serviceRunning, false);
  assert.equal(c.streamWanted(c.snapshot(APP).status), true, "a lost run is still watched on the stream");
});

test("idleStreamMs and shareStream: checked; in node (no navigator.locks) Infinity and false by default", () => {
  const [settings] = normalizeOptions({});
  assert.deepEqual([settings.idleStreamMs, settings.shareStream], [Infinity, false]);
  assert.deepEqual(normalizeOptions({ idleStreamMs: 0, shareStream: true })[0].idleStreamMs, 0);
  assert.throws(() => normalizeOptions({ idleStreamMs: -1 }), /idleStreamMs/);
  assert.throws(() => normalizeOptions({ shareStream: "yes" as unknown as boolean }), /shareStream/);
});

test("two clients' turns: a reply met while a send's POST is unanswered is not its run; one still in flight when the POST is answered is; only the messages of one post vouch for each other", () => {
  const c = core();
  c.merge(EMPTY);
  c.streamOpened();
  const user = (id: string, text: string) => ({ id, role: "user", name: "user", content: [{ type: "text", text, id: `${id}-b` }] }) as unknown as MsgJSON;
  const a = user("a", "first");
  c.beginSend([a], "ready");
  // another client's reply starts and ends before a's POST is answered (409s meanwhile)
  c.feed(bytes(reply("f1", "theirs")));
  c.sendBusy([a]);
  c.feed(bytes(end("f1")));
  let s = c.snapshot(APP);
  assert.equal(s.status, "submitted"); // a still waits: f1 was not its run
  // a's POST answered: f1 ended before, so a still waits for its own run
  c.sendAccepted([a]);
  assert.equal(c.snapshot(APP).status, "submitted");
  // a's run: its reply starts (a's wait is over) and ends
  c.feed(bytes(reply("r1", "mine")));
  assert.equal(c.snapshot(APP).status, "streaming");
  c.feed(bytes(end("r1")));
  s = c.snapshot(APP);
  assert.equal(s.status, "ready");
  assert.equal(s.error, null);

  // b's POST answered 200 and never applied, while c's reply (another client's) streams:
  // taken for b's run; then d is sent and stored. The page at rest holds d, not b: b is
  // told lost (run_lost), not taken as stored for d's sake (d was another post)
  const b = user("b", "lost");
  c.beginSend([b], "ready");
  c.feed(bytes(frame({ type: "REPLY_START", session_id: SID, reply_id: "f2", name: "Friday", role: "assistant" })));
  c.sendAccepted([b]);
  c.feed(bytes(end("f2")));
  const d = user("d", "next");
  c.beginSend([d], "ready");
  c.sendAccepted([d]);
  c.feed(bytes(reply("r3", "for d") + end("r3")));
  const stored = (id: string, text: string) => ({ id, role: "assistant", name: "Friday", content: [{ type: "text", text, id: `${id}-t`, created_at: T(1), finished_at: T(2) }], metadata: {}, created_at: T(1), usage: null, finished_at: T(2), finished_reason: "completed", structured_output: null, error: null }) as unknown as MsgJSON;
  c.merge({ messages: [a, stored("f1", "theirs"), stored("r1", "mine"), stored("f2", ""), d, stored("r3", "for d")], hasMore: false, isRunning: false, eventCursor: null });
  s = c.snapshot(APP);
  assert.deepEqual(s.messages.map((m) => m.id), ["a", "f1", "r1", "f2", "d", "r3"]);
  assert.equal(s.error?.code, "run_lost");
  assert.match(s.error!.message, /^a message was not stored/);
});
