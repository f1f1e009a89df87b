// tests/sim/service.ts (`SimService`, the in-process simulation of the AgentScope 2.0.11 app
// service) checked against the live one (scripts/agentscope-service): every scenario of
// tests/sim/scenarios.ts (each scripted policy of scripts/agentscope-service.md, the HITL
// flows, 409, interrupts of a running and of a parked reply, replays, paging, sessions) is
// played on both through a raw client (the simulation's side on a virtual clock, the live
// side two scenarios at a time), and the events each stream carried, the stored messages and
// the HTTP answers must be equal up to ids and times (tests/sim/normalize.ts).
// Then the simulation alone: determinism under @sinonjs/fake-timers, two instances, the
// replay bound.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import FakeTimers from "@sinonjs/fake-timers";
import type { Json } from "./helpers.ts";
import { startService, type Service } from "./service.ts";
import { SimService } from "../sim/service.ts";
import { SCENARIOS, type Outcome } from "../sim/scenarios.ts";
import { call, count, createSession, send, watch, type Endpoint } from "../sim/client.ts";
import { eventForm, normalizer, storedForm } from "../sim/normalize.ts";

const SLOW_MS = 600; // (the interrupt must land before the 4th delta even on a loaded machine)
let service: Service;
let live: Endpoint;
const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** What each scenario saw on the simulation (played first, on a virtual clock) and on the live service. */
const simulated = new Map<string, Outcome>();
const played = new Map<string, Promise<Outcome>>();

before(async () => {
  service = await startService({ AGENTSCOPE_SERVICE_DELAY_MS: "2", AGENTSCOPE_SERVICE_SLOW_MS: String(SLOW_MS) });
  live = { base: service.url, fetch, agentId: service.agentId, userId: service.userId, chatModelConfig: service.info.chat_model_config, sleep: realSleep };
  // the simulation's side of every scenario under fake timers (its pacing, the scenarios'
  // waits and polls are all on its clock: a `slow` reply takes no real time), one fresh
  // SimService each, before anything runs on the real clock
  for (const [name, play] of Object.entries(SCENARIOS)) {
    const clock = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout", "Date"], now: Date.UTC(2026, 0, 1) });
    try {
      simulated.set(name, await play(simEndpoint(new SimService({ seed: 1, slowMs: SLOW_MS }), async (ms) => void (await clock.tickAsync(ms)))));
    } finally {
      clock.uninstall();
    }
  }
  // the live side: two scenarios at a time (each on a session of its own), `busy` (20
  // slow deltas) in a lane of its own, the others in the other lane
  const lanes = [Promise.resolve(), Promise.resolve()];
  for (const [name, play] of Object.entries(SCENARIOS)) {
    const lane = name === "busy" ? 0 : 1;
    const outcome = lanes[lane]!.then(() => play(live));
    played.set(name, outcome);
    lanes[lane] = outcome.then(
      () => {},
      () => {},
    );
  }
});

/** Resolves once every live scenario has ended (the tests after them use the real clock alone). */
const livePlayed = () => Promise.allSettled(played.values());

after(async () => {
  const code = await service?.stop();
  assert.equal(code, 0, service?.log());
});

function simEndpoint(sim: SimService, sleep: (ms: number) => Promise<void> = realSleep, instance = 0): Endpoint {
  return { base: sim.urls[instance]!, fetch: sim.fetch, agentId: sim.agentId, userId: sim.userId, chatModelConfig: sim.chatModelConfig, sleep };
}

/** The event types of each reply (REPLY_START … REPLY_END / park), for a readable failure. */
function replies(events: Json[]): string[] {
  const out: string[] = [];
  let current: string[] = [];
  for (const e of events) {
    current.push(e.type === "CUSTOM" ? `CUSTOM:${e.name}` : e.type);
    if (e.type === "REPLY_END" || e.type === "REQUIRE_USER_CONFIRM" || e.type === "REQUIRE_EXTERNAL_EXECUTION") {
      out.push(current.join(" "));
      current = [];
    }
  }
  if (current.length > 0) out.push(current.join(" "));
  return out;
}

function assertAgree(name: string, real: Outcome, sim: Outcome): void {
  const nr = normalizer();
  const ns = normalizer();
  assert.deepEqual(replies(sim.events), replies(real.events), `${name}: the event types of each reply`);
  assert.deepEqual(eventForm(sim.events, ns), eventForm(real.events, nr), `${name}: the events`);
  assert.deepEqual(storedForm(sim.stored, ns), storedForm(real.stored, nr), `${name}: the stored messages`);
  assert.deepEqual(ns(sim.notes), nr(real.notes), `${name}: statuses and answers`);
}

for (const name of Object.keys(SCENARIOS)) {
  test(`the simulation agrees with agentscope 2.0.11: ${name}`, async () => {
    assertAgree(name, await played.get(name)!, simulated.get(name)!);
  });
}

test("one seed, one run: the simulation is deterministic under fake timers", async () => {
  await livePlayed();
  const runs: string[] = [];
  for (let i = 0; i < 2; i++) {
    const clock = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout", "Date"], now: Date.UTC(2026, 0, 1) });
    try {
      const sim = new SimService({ seed: 42 });
      const ep = simEndpoint(sim, async (ms) => void (await clock.tickAsync(ms)));
      const seen: Json[] = [];
      for (const name of ["confirmApprove", "ask", "interruptRunning", "task", "twoTurns"]) seen.push(await SCENARIOS[name]!(ep));
      seen.push(sim.sessionIds().map((id) => [sim.events(id), sim.stored(id), sim.status(id), sim.running(id)]));
      runs.push(JSON.stringify(seen));
    } finally {
      clock.uninstall();
    }
  }
  assert.equal(runs[0], runs[1]);
  assert.ok(runs[0]!.length > 10_000);
});

test("two instances share the store and the bus; 409 is per instance", async () => {
  const sim = new SimService({ instances: 2, slowMs: 20 });
  assert.deepEqual(sim.urls, ["http://sim-0.test", "http://sim-1.test"]);
  const a = simEndpoint(sim, realSleep, 0);
  const b = simEndpoint(sim, realSleep, 1);
  const sid = await createSession(b);
  const w = watch(a, sid);
  await w.ready;
  assert.equal((await send(b, sid, "slow")).status, 200);
  await w.until((e) => count(e, (x) => x.type === "TEXT_BLOCK_DELTA") >= 1, "the run of B on A's stream");
  // the same instance: busy; the other: accepted, it waits for the lock
  assert.equal((await send(b, sid, "hello")).status, 409);
  assert.equal((await send(a, sid, "hello from A")).status, 200);
  assert.equal(sim.running(sid), true);
  await w.until((e) => count(e, (x) => x.type === "REPLY_END") >= 2, "both replies");
  await realSleep(20);
  assert.deepEqual(
    sim.stored(sid).map((m) => [m.role, m.finished_reason]),
    [
      ["user", null],
      ["assistant", "completed"],
      ["user", null],
      ["assistant", "completed"],
    ],
  );
  assert.equal(sim.stored(sid).at(-1)!.content.find((x) => x.type === "text")?.type, "text");
  // an interrupt on A stops a run on B
  await send(b, sid, "slow");
  await w.until((e) => count(e, (x) => x.type === "REPLY_START") >= 3, "the third reply");
  assert.equal((await call(a, "POST", `/sessions/${sid}/interrupt?agent_id=${a.agentId}`)).status, 202);
  await w.until((e) => e.at(-1)?.type === "REPLY_END" && e.at(-1)?.finished_reason === "interrupted", "the interrupted end");
  w.close();
});

test("the replay log is bounded: a client joining a long reply late misses its start; after=cursor replays only what is later", async () => {
  const sim = new SimService({ delayMs: 0, replayLimit: 100 });
  const ep = simEndpoint(sim);
  const sid = await createSession(ep);
  const first = watch(ep, sid);
  await first.ready;
  await send(ep, sid, "long 300");
  await first.until((e) => count(e, (x) => x.type === "TEXT_BLOCK_DELTA") >= 200, "200 deltas");
  const late = watch(ep, sid);
  await late.ready;
  await first.until((e) => e.some((x) => x.type === "CUSTOM"), "the end and the naming");
  await late.until((e) => e.some((x) => x.type === "CUSTOM"), "the late stream's end");
  assert.notEqual(late.events[0].type, "REPLY_START");
  assert.ok(late.events.length < first.events.length);
  assert.equal(first.events.filter((x) => x.type === "TEXT_BLOCK_DELTA").length, 300);
  first.close();
  late.close();
  const page = (await call(ep, "GET", `/sessions/${sid}/messages?agent_id=${ep.agentId}`)).json;
  const again = watch(ep, sid);
  await again.ready;
  await realSleep(10);
  assert.deepEqual(again.events.map((x) => x.type), ["REPLY_END", "CUSTOM"]);
  again.close();
  const after = watch(ep, sid, page.event_cursor);
  await after.ready;
  await realSleep(10);
  assert.deepEqual(after.events.map((x) => x.type), ["CUSTOM"]);
  after.close();
});

test("an aborted fetch rejects with the signal's reason; an aborted stream errors", async () => {
  const sim = new SimService();
  const ep = simEndpoint(sim);
  const sid = await createSession(ep);
  const gone = new AbortController();
  gone.abort(new DOMException("stop", "AbortError"));
  await assert.rejects(sim.fetch(`${ep.base}/sessions/${sid}/status?agent_id=${ep.agentId}`, { headers: { "X-User-ID": ep.userId }, signal: gone.signal }), { name: "AbortError" });
  const abort = new AbortController();
  const response = await sim.fetch(`${ep.base}/sessions/${sid}/stream?agent_id=${ep.agentId}`, { headers: { "X-User-ID": ep.userId }, signal: abort.signal });
  const reader = response.body!.getReader();
  const pending = reader.read();
  abort.abort(new DOMException("stop", "AbortError"));
  await assert.rejects(pending, { name: "AbortError" });
  await assert.rejects(sim.fetch("http://elsewhere.test/sessions/", {}), TypeError);
  assert.equal((await sim.fetch(`${ep.base}/sessions/?agent_id=${ep.agentId}`)).status, 422);
});
