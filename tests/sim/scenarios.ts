// The scripted scenarios of scripts/agentscope-service.md, played through a raw client
// (tests/sim/client.ts) on any endpoint: the live agentscope 2.0.11 service or
// `SimService`. Each resolves what a comparison needs: every event the session's stream
// carried (one observer, open from before the first message), the stored messages, and
// the HTTP answers that matter (409s, statuses).
import type { Json } from "../ts/helpers.ts";
import { call, count, createSession, custom, ok, post, send, storedAll, watch, type Endpoint, type Watch } from "./client.ts";

/** What one scenario saw. */
export interface Outcome {
  /** The session's events as streamed to one observer, in order. */
  events: Json[];
  /** The stored messages at the end (all pages). */
  stored: Json[];
  /** Other observations (statuses, answers, replays), compared as they are. */
  notes: Json[];
}

const ends = (n: number) => (events: Json[]) => count(events, (e) => e.type === "REPLY_END") >= n;
const has = (type: string, n = 1) => (events: Json[]) => count(events, (e) => e.type === type) >= n;
const named = (events: Json[]) => events.some(custom("session_updated"));

async function status(ep: Endpoint, sid: string): Promise<string> {
  return (await ok(ep, "GET", `/sessions/${sid}/status?agent_id=${ep.agentId}`)).status;
}

/** Waits until the session's status is `want` (polled on the endpoint's clock). */
async function statusIs(ep: Endpoint, sid: string, want: string): Promise<void> {
  for (let i = 0; i < 3000; i++) {
    if ((await status(ep, sid)) === want) return;
    await ep.sleep(10);
  }
  throw new Error(`status of ${sid} never became ${want}`);
}

/** The status once no run holds the session (right after a REPLY_END the lock may still be held for a moment: timing). */
async function settled(ep: Endpoint, sid: string): Promise<string> {
  for (let i = 0; i < 3000; i++) {
    const now = await status(ep, sid);
    if (now !== "running") return now;
    await ep.sleep(10);
  }
  throw new Error(`${sid} kept running`);
}

/** The types of a replay of the stream (`after` or none), read until `n` events came and it went quiet. */
async function replay(ep: Endpoint, sid: string, after: string | undefined, n: number): Promise<string[]> {
  const w = watch(ep, sid, after);
  try {
    await w.ready;
    await w.until((events) => events.length >= n, "the replay");
    await ep.sleep(50);
    return w.events.map((e) => (e.type === "CUSTOM" ? `CUSTOM ${e.name}` : e.type));
  } finally {
    w.close();
  }
}

/** Plays `body` with an observer open on a new session; collects the outcome. */
async function scenario(ep: Endpoint, body: (sid: string, w: Watch, notes: Json[]) => Promise<void>): Promise<Outcome> {
  const sid = await createSession(ep);
  const w = watch(ep, sid);
  const notes: Json[] = [];
  try {
    await w.ready;
    await body(sid, w, notes);
    return { events: [...w.events], stored: await storedAll(ep, sid), notes };
  } finally {
    w.close();
  }
}

/** A one-shot reply: send `content`, wait for its REPLY_END and the auto-naming. */
const oneShot = (content: string | Json[]) => (ep: Endpoint) =>
  scenario(ep, async (sid, w, notes) => {
    notes.push((await send(ep, sid, content)).status);
    await w.until((e) => ends(1)(e) && named(e), "the reply and its naming");
    await statusIs(ep, sid, "idle");
  });

const confirmFlow = (confirmed: boolean) => (ep: Endpoint) =>
  scenario(ep, async (sid, w, notes) => {
    await send(ep, sid, "confirm");
    await w.until((e) => has("REQUIRE_USER_CONFIRM")(e) && named(e), "the confirmation");
    notes.push(await status(ep, sid));
    const ask = w.events.find((e) => e.type === "REQUIRE_USER_CONFIRM");
    const answer = await post(ep, sid, { type: "USER_CONFIRM_RESULT", reply_id: ask.reply_id, confirm_results: [{ confirmed, tool_call: ask.tool_calls[0] }] });
    notes.push(answer.status);
    await w.until(ends(1), "the continuation");
    await statusIs(ep, sid, "idle");
  });

/** A 1x1 PNG, base64 (what a test attaches). */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** Every scenario by name: what tests/ts/sim-service.test.ts plays on both services. */
export const SCENARIOS: Record<string, (ep: Endpoint) => Promise<Outcome>> = {
  plain: oneShot("hello there, simulation"),
  think: oneShot("think hard"),
  tool: oneShot("tool please"),
  parallel: oneShot("parallel"),
  image: oneShot("image"),
  long50: oneShot("long 50"),
  fail: oneShot("fail now"),
  task: oneShot("task"),
  audio: oneShot("audio"),
  progress: oneShot("progress"),
  describe: oneShot([
    { type: "text", text: "describe these" },
    { type: "data", source: { type: "base64", media_type: "image/png", data: PNG } },
    { type: "data", source: { type: "url", url: "https://example.com/cat.png", media_type: "image/png" } },
  ]),
  describeNone: oneShot("seeimage"),
  // a user Msg posted whole (as Chat.send posts it): stored as posted, its id, times and
  // metadata kept
  postedWhole: (ep) =>
    scenario(ep, async (sid, w, notes) => {
      const at = "2026-01-02T03:04:05.678Z";
      const input = {
        name: "user",
        role: "user",
        id: "0123456789abcdef0123456789abcdef",
        content: [{ type: "text", text: "hello, whole message", id: "fedcba9876543210fedcba9876543210", created_at: at, finished_at: at }],
        metadata: { source: "test" },
        created_at: at,
        usage: null,
        finished_at: at,
        finished_reason: null,
        structured_output: null,
        error: null,
      };
      notes.push((await post(ep, sid, input)).status);
      await w.until((e) => ends(1)(e) && named(e), "the reply and its naming");
      await statusIs(ep, sid, "idle");
      // (times are compared as "TIME" or null elsewhere: these must be the posted ones)
      const user = (await storedAll(ep, sid)).find((m: Json) => m.role === "user");
      notes.push({ created_at: user?.created_at === at, finished_at: user?.finished_at === at, block: user?.content?.[0]?.finished_at === at });
    }),
  confirmApprove: confirmFlow(true),
  confirmDeny: confirmFlow(false),
  ask: (ep) =>
    scenario(ep, async (sid, w, notes) => {
      await send(ep, sid, "ask me");
      await w.until((e) => has("REQUIRE_EXTERNAL_EXECUTION")(e) && named(e), "the question");
      notes.push(await status(ep, sid));
      const ask = w.events.find((e) => e.type === "REQUIRE_EXTERNAL_EXECUTION");
      const callBlock = ask.tool_calls[0];
      // first without metadata: refused, the session stays parked
      notes.push((await post(ep, sid, { type: "EXTERNAL_EXECUTION_RESULT", reply_id: ask.reply_id, execution_results: [{ type: "tool_result", id: callBlock.id, name: callBlock.name, output: "User picked Blue", state: "success" }] })).status);
      await w.until(ends(1), "the refused answer");
      notes.push(await settled(ep, sid));
      notes.push(
        (
          await post(ep, sid, {
            type: "EXTERNAL_EXECUTION_RESULT",
            reply_id: ask.reply_id,
            execution_results: [{ type: "tool_result", id: callBlock.id, name: callBlock.name, output: "User picked Blue", state: "success", metadata: { answers: [{ question: "Which color do you prefer?", selected: ["Blue"] }] } }],
          })
        ).status,
      );
      await w.until(ends(2), "the answer's continuation");
      await statusIs(ep, sid, "idle");
    }),
  twoTurns: (ep) =>
    scenario(ep, async (sid, w, notes) => {
      await send(ep, sid, "hello one");
      await w.until((e) => ends(1)(e) && named(e), "the first reply");
      await statusIs(ep, sid, "idle");
      await send(ep, sid, "think again");
      await w.until(ends(2), "the second reply");
      await statusIs(ep, sid, "idle");
      const page = await ok(ep, "GET", `/sessions/${sid}/messages?agent_id=${ep.agentId}&limit=200`);
      notes.push({ is_running: page.is_running, has_more: page.has_more, cursor: typeof page.event_cursor });
      notes.push(await replay(ep, sid, undefined, 1));
      notes.push(await replay(ep, sid, page.event_cursor, 0));
      // a small page: has_more and `before` paging
      const small = await ok(ep, "GET", `/sessions/${sid}/messages?agent_id=${ep.agentId}&limit=2`);
      notes.push({ n: small.messages.length, has_more: small.has_more, roles: small.messages.map((m: Json) => m.role) });
      const older = await ok(ep, "GET", `/sessions/${sid}/messages?agent_id=${ep.agentId}&limit=2&before=${small.messages[0].id}`);
      notes.push({ n: older.messages.length, has_more: older.has_more, cursor: older.event_cursor ?? "absent", roles: older.messages.map((m: Json) => m.role) });
    }),
  busy: (ep) =>
    scenario(ep, async (sid, w, notes) => {
      await send(ep, sid, "slow");
      await w.until(has("TEXT_BLOCK_DELTA", 2), "the slow reply");
      const second = await send(ep, sid, "hello again");
      notes.push(second.status, second.json);
      notes.push(await status(ep, sid));
      const page = await ok(ep, "GET", `/sessions/${sid}/messages?agent_id=${ep.agentId}&limit=200`);
      notes.push({ is_running: page.is_running, cursor: page.event_cursor, n: page.messages.length });
      await w.until(ends(1), "the slow reply's end", 60_000);
      await statusIs(ep, sid, "idle");
    }),
  interruptRunning: (ep) =>
    scenario(ep, async (sid, w, notes) => {
      await send(ep, sid, "slow");
      await w.until(has("TEXT_BLOCK_DELTA", 3), "three deltas");
      notes.push((await call(ep, "POST", `/sessions/${sid}/interrupt?agent_id=${ep.agentId}`)).status);
      await w.until(ends(1), "the interrupted end");
      await statusIs(ep, sid, "idle");
      await ep.sleep(300);
    }),
  interruptParked: (ep) =>
    scenario(ep, async (sid, w, notes) => {
      await send(ep, sid, "confirm");
      await w.until((e) => has("REQUIRE_USER_CONFIRM")(e) && named(e), "the confirmation");
      notes.push((await call(ep, "POST", `/sessions/${sid}/interrupt?agent_id=${ep.agentId}`)).status);
      await w.until(ends(1), "the interrupted end");
      notes.push(await settled(ep, sid));
    }),
  parkedSend: (ep) =>
    scenario(ep, async (sid, w, notes) => {
      await send(ep, sid, "confirm");
      await w.until((e) => has("REQUIRE_USER_CONFIRM")(e) && named(e), "the confirmation");
      notes.push((await send(ep, sid, "hello while parked")).status);
      await w.until(ends(1), "the setup error");
      notes.push(await settled(ep, sid));
    }),
  idleInterrupt: (ep) =>
    scenario(ep, async (sid, w, notes) => {
      await send(ep, sid, "hello");
      await w.until((e) => ends(1)(e) && named(e), "the reply");
      await statusIs(ep, sid, "idle");
      notes.push((await call(ep, "POST", `/sessions/${sid}/interrupt?agent_id=${ep.agentId}`)).status);
      // (its lone REPLY_START comes within milliseconds; a loaded machine: within a second)
      await ep.sleep(1500);
    }),
  sessions: async (ep) => {
    const sid = await createSession(ep);
    const notes: Json[] = [];
    const list = await ok(ep, "GET", `/sessions/?agent_id=${ep.agentId}`);
    notes.push(Object.keys(list).sort(), list.sessions.some((v: Json) => v.session.id === sid));
    const renamed = await ok(ep, "PATCH", `/sessions/${sid}?agent_id=${ep.agentId}`, { name: "Renamed" });
    notes.push(renamed.config.name, renamed.config.naming);
    notes.push((await call(ep, "GET", `/sessions/${sid}/messages?agent_id=${ep.agentId}`)).json);
    notes.push((await call(ep, "DELETE", `/sessions/${sid}?agent_id=${ep.agentId}`)).status);
    for (const path of [`/sessions/${sid}/stream`, `/sessions/${sid}/messages`, `/sessions/${sid}/status`, `/sessions/${sid}/interrupt`]) {
      const answer = await call(ep, path.endsWith("interrupt") ? "POST" : "GET", `${path}?agent_id=${ep.agentId}`);
      notes.push([path.split("/").at(-1), answer.status]);
    }
    notes.push((await send(ep, sid, "hello")).status);
    notes.push((await send(ep, "0123456789abcdef0123456789abcdef", "hello")).status);
    return { events: [], stored: [], notes };
  },
};
