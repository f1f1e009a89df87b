// The chat's explorer (issue 36, item 4): one schedule is a seeded run of `Chat` against
// the simulated AgentScope service (service.ts) through the fault layer (faults.ts), on a
// virtual clock (@sinonjs/fake-timers: `setTimeout`, `setInterval` and `Date` are
// virtual; `Math.random` and the wasm's random ids are seeded), so a schedule replays
// exactly. A user acts (send, stop at any moment, confirm or answer twice, reload, send
// from inside `onFinish` / `onEvent`, switch sessions) while faults happen; the invariants
// are checked as the chat calls back and at rest (faults off, the service idle):
//   - at rest, the messages equal the store and `partial` is empty;
//   - no user turn or answer is applied twice;
//   - `onFinish` exactly once per reply that ends while the chat is open, `onEvent` at
//     most once per event id;
//   - the status leaves `submitted`, `streaming` and `stopping` within a bound once the
//     service is idle and reachable;
//   - no unhandled rejection; every error is a `MsgError`.
import FakeTimers from "@sinonjs/fake-timers";
import fc from "fast-check";
import { Faults, NO_FAULTS, type FaultRates } from "./faults.ts";
import { seeded } from "./random.ts";
import { SimService } from "./service.ts";

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** What a schedule's user does, step by step. */
export type Action =
  | { kind: "send"; policy: string }
  | { kind: "stop" }
  | { kind: "confirm"; approve: boolean; twice: boolean }
  | { kind: "answer"; twice: boolean }
  | { kind: "reload" }
  | { kind: "wait"; ms: number }
  | { kind: "sendOnFinish"; policy: string }
  | { kind: "sendOnEvent"; policy: string }
  | { kind: "switch" }
  | { kind: "blip" }
  | { kind: "holdPost"; ms: number }
  | { kind: "losePost"; after: boolean }
  | { kind: "repairOutage"; count: number }
  | { kind: "drop"; type: "REPLY_START" | "REPLY_END" | "TEXT_BLOCK_DELTA" | "TOOL_CALL_START" | "MODEL_CALL_END" }
  | { kind: "outage"; route: (typeof OUTAGE_ROUTES)[number]; count: number }
  /** The client's wall clock stepped by `ms` (NTP, a resumed laptop): `Date` jumps, no timer fires, monotonic time and the service's clock go on. */
  | { kind: "clockJump"; ms: number }
  /** An instance is killed and restarts after `downMs` (SimService.kill: its run dies, the lock stays for its lease). */
  | { kind: "kill"; instance: number; downMs: number }
  /** An instance hangs for `ms`: its requests wait, its streams go silent (tests/sim/faults.ts `hang`). */
  | { kind: "hang"; instance: number; ms: number }
  /** The open session is deleted (in this page: `SessionsClient.remove`; or elsewhere), then a send is tried on the chat (refused, nothing posted, once it knows), then a new session is opened. */
  | { kind: "deleteOpen"; inPage: boolean }
  /** The stream refused past the retry attempts (connection `lost`), then a send: the POST the service takes connects the stream again. */
  | { kind: "sendWhileLost"; policy: string }
  /** The next `POST /chat/` is answered 200 and never applied (its instance died right after answering). */
  | { kind: "swallowPost" }
  /** The next history page holds a `null` content block (the chat refuses it: http_error, nothing merged). */
  | { kind: "malformed" };

/** The routes an outage (5xx in a row) hits. */
export const OUTAGE_ROUTES = ["GET /sessions/:id/messages", "GET /sessions/:id/stream", "GET /sessions/:id/status", "POST /chat/"] as const;

/** One schedule: everything a run draws from. */
export interface Schedule {
  seed: number;
  instances: number;
  /** The service's replay log bound (1,000 in agentscope 2.0.11; smaller: replies joined mid-way). */
  replayLimit: number;
  /** The chat's `stallMs` (its default 45 s, or 3 s: a stall watch that doubles as a poll). */
  stallMs: number;
  rates: FaultRates;
  actions: Action[];
  /**
   * `close`: the chat's stream is closed at rest (`idleStreamMs` 1,500, as a browser page's
   * default; the status is polled, the stream reopened when anything runs); `keep` (or
   * absent): held, node's default.
   */
  idleStream?: "keep" | "close";
}

/** The first words the simulated model answers to (scripts/agentscope-service.md). */
export const POLICIES = ["hello", "think", "tool", "parallel", "confirm", "ask", "long 40", "long 120", "long 120", "slow", "fail", "task", "progress", "image"] as const;

/** What a run found. */
export interface Outcome {
  violations: string[];
  /** The steps taken and the faults injected, in order. */
  trace: string[];
}

const ACTIVE = new Set(["submitted", "streaming", "stopping"]);

/** The chat module a run uses (pkg/dist/chat.js, or a mutant's copy). */
export interface ChatModule {
  Chat: Json;
  AgentScopeTransport: Json;
  MsgError: Json;
  SessionsClient: Json;
}

/** Comparable copies of messages: what the reducer or the service makes up nulled. */
function comparable(messages: readonly Json[]): Json[] {
  const copy = JSON.parse(JSON.stringify(messages));
  const walk = (v: Json): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (v === null || typeof v !== "object") return;
    for (const k of Object.keys(v)) {
      if (k === "created_at" || k === "finished_at") v[k] = v[k] === null ? null : "set";
      else walk(v[k]);
    }
    // the ids of a tool result's output blocks are made up by each reducer
    if (v.type === "tool_result" && Array.isArray(v.output)) for (const o of v.output) if (o && typeof o === "object") delete o.id;
  };
  walk(copy);
  return copy;
}

function textOf(m: Json): string {
  return (m.content ?? []).filter((b: Json) => b?.type === "text").map((b: Json) => b.text).join("");
}

/** Runs one schedule; never throws (a crash of the harness is a violation too). */
export async function runSchedule(schedule: Schedule, mod: ChatModule): Promise<Outcome> {
  const trace: string[] = [];
  const violations: string[] = [];
  const violate = (what: string) => {
    if (!violations.includes(what)) violations.push(what);
  };
  const random = seeded(schedule.seed);
  const realRandom = Math.random;
  const realGetRandomValues = crypto.getRandomValues;
  const clock = FakeTimers.withGlobal(globalThis).install({
    now: Date.UTC(2026, 11, 6, 12),
    toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date", "performance"],
    loopLimit: 1_000_000,
  });
  Math.random = seeded(schedule.seed ^ 0x5eed);
  const idRandom = seeded(schedule.seed ^ 0x1d);
  crypto.getRandomValues = (<T extends ArrayBufferView | null>(array: T): T => {
    if (array !== null) {
      const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
      for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(idRandom() * 256);
    }
    return array;
  }) as typeof crypto.getRandomValues;
  const unhandled = (reason: unknown) => violate(`unhandled rejection: ${describe(reason)}`);
  process.on("unhandledRejection", unhandled);
  const { Chat, AgentScopeTransport, MsgError, SessionsClient } = mod;
  const isMsgError = (e: unknown) => e instanceof MsgError;
  /** how far the client's wall clock was stepped (clockJump): the service's own clock is not */
  let jumped = 0;
  /** an instance was killed (its run's lock outlives it) */
  let killed = false;
  /** the service's clock: what its event timestamps are compared with */
  const serviceNow = () => Date.now() - jumped;
  const sim = new SimService({
    seed: schedule.seed,
    instances: schedule.instances,
    delayMs: 2,
    slowMs: 200,
    replayLimit: schedule.replayLimit,
    clock: () => serviceNow(),
  });
  const faults = new Faults(seeded(schedule.seed ^ 0xfa), schedule.rates);
  const transport = () =>
    new AgentScopeTransport({
      baseUrl: sim.urls,
      userId: sim.userId,
      agentId: sim.agentId,
      session: { chat_model_config: sim.chatModelConfig },
      fetch: faults.wrap(sim.fetch),
      timeoutMs: 2000,
    });
  let chat: Json = null;
  let openedAt = 0;
  let openStarted = 0;
  let sessionId: string | null = null;
  const sessions: string[] = [];
  /** sessions deleted (deleteOpen): a killed run of one holds its lock (a timer) until its lease ends */
  const deleted: string[] = [];
  /** the snapshot the chat's listener read when it was last told (a UI renders that one) */
  let seen: Json = null;
  let notified = 0;
  let pendingOnFinish: string | null = null;
  let pendingOnEvent: string | null = null;
  let nonce = 0;
  /** Per open chat: onFinish and onEvent counts. */
  const finishes = new Map<string, number>();
  const events = new Map<string, number>();
  const sent: string[] = [];
  const tick = (ms: number) => clock.tickAsync(ms);
  /** Per open chat: the replies an event passed to onEvent was of (a REPLY_START of one of them continues it). */
  const met = new Set<string>();
  /** Per open chat: the last CUSTOM state_updated's value passed to onEvent. */
  let lastState: Json = undefined;
  /** The errors actions rejected with (the app was told: at rest `error` may still be one). */
  const toldErrors = new Set<unknown>();
  /** A POST /chat/ was answered and never applied (swallowPost): a lost answer or turn is told after lostRunMs. */
  let swallowed = false;
  /** The last send of the open chat: its text, whether it resolved, and whether a stop or another send came after. */
  let lastSend = null as { text: string; resolved: boolean; after: boolean; lost: boolean } | null;

  let sending = 0;
  const act = (what: string, run: () => Promise<unknown>) => {
    trace.push(`${Date.now()} ${what}`);
    let p: Promise<unknown>;
    try {
      p = run();
    } catch (e) {
      if (!isMsgError(e)) violate(`${what} threw a non-MsgError: ${describe(e)}`);
      return;
    }
    // (an answer on its way is a post too: submitted while it waits for its run)
    const send = /^(send|answer|confirm)/.test(what);
    if (send) sending += 1;
    p.finally(() => {
      if (send) sending -= 1;
    }).then(
      () => {},
      (e) => {
        toldErrors.add(e);
        trace.push(`${Date.now()} ${what} rejected: ${describe(e)}`);
        if (!isMsgError(e)) violate(`${what} rejected with a non-MsgError: ${describe(e)}`);
      },
    );
    return p;
  };

  /** A send of `text` on `c` (the user's, or from a callback), with the checks every send gets. */
  const sendOn = (c: Json, text: string, what: string) => {
    if (lastSend !== null) lastSend.after = true;
    const mine = { text, resolved: false, after: false, lost: false };
    lastSend = mine;
    const p = act(what, () => c.send(text));
    p?.then(
      () => {
        mine.resolved = true;
        // the service took it: it is reachable, so the stream is not left lost (the run would never show)
        if (chat === c && c.getSnapshot().connection === "lost" && c.error?.status !== 404) violate("a send resolved and the connection stays lost (its reply would never show)");
      },
      () => {},
    );
  };

  const sendText = (policy: string) => {
    const text = `${policy} #${++nonce}`;
    sent.push(text);
    return text;
  };

  const options = () => ({
    statusPollMs: 1000,
    stallMs: schedule.stallMs,
    ...(schedule.idleStream === "close" ? { idleStreamMs: 1500 } : {}),
    retry: { initialMs: 100, maxMs: 1000, attempts: 8 },
    onError: (e: unknown) => {
      if (!isMsgError(e)) violate(`onError got a non-MsgError: ${describe(e)}`);
    },
    onFinish: (m: Json) => {
      // (submitted is right while a newer turn of this page waits for its run: the reply
      // told may be an older one whose end came late)
      const list: Json[] = chat?.messages ?? [];
      const at = list.findIndex((x) => x.id === m.id);
      const newer = at >= 0 && list.slice(at + 1).some((x) => x.role === "user");
      if (chat !== null && chat.status === "submitted" && sending === 0 && !newer) violate(`inside onFinish of ${m.id} the status is submitted with no send on its way`);
      finishes.set(m.id, (finishes.get(m.id) ?? 0) + 1);

      if (pendingOnFinish !== null && chat !== null) {
        const text = sendText(pendingOnFinish);
        pendingOnFinish = null;
        sendOn(chat, text, `send ${JSON.stringify(text)} from onFinish`);
      }
    },
    onEvent: (e: Json, info: Json) => {
      if (e.type === "REPLY_START") {
        // continued: a reply met before (an event of it came); not one never met nor stored
        if (met.has(e.reply_id) && info?.continued !== true) violate(`onEvent: a REPLY_START of reply ${e.reply_id}, met before, with continued ${info?.continued}`);
        if (!met.has(e.reply_id) && !sim.stored(chat?.sessionId ?? sessionId ?? "").some((m) => m.id === e.reply_id) && info?.continued !== false) {
          violate(`onEvent: the first REPLY_START of reply ${e.reply_id} (never met nor stored) with continued ${info?.continued}`);
        }
      }
      if (typeof e.reply_id === "string") met.add(e.reply_id);
      if (e.type === "CUSTOM" && e.name === "state_updated") lastState = e.value;
      if (typeof e.id === "string") {
        events.set(e.id, (events.get(e.id) ?? 0) + 1);
        if (events.get(e.id)! > 1) violate(`onEvent called twice for event ${e.id} (${e.type})`);
      }
      if (pendingOnEvent !== null && chat !== null && e.type === "REPLY_START") {
        const text = sendText(pendingOnEvent);
        pendingOnEvent = null;
        sendOn(chat, text, `send ${JSON.stringify(text)} from onEvent`);
      }
    },
  });

  const open = async (id: string | null): Promise<void> => {
    finishes.clear();
    events.clear();
    met.clear();
    lastState = undefined;
    lastSend = null;
    for (let attempt = 0; attempt < 20 && chat === null; attempt++) {
      openStarted = serviceNow();
      const opening = Chat.open(transport(), { ...options(), ...(id === null ? {} : { sessionId: id }) });
      let result: Json = undefined;
      let failed: unknown;
      opening.then(
        (c: Json) => (result = c),
        (e: unknown) => (failed = e ?? new Error("rejected")),
      );
      for (let i = 0; i < 600 && result === undefined && failed === undefined; i++) await tick(100);
      if (failed !== undefined) {
        trace.push(`${Date.now()} open failed: ${describe(failed)}`);
        if (!isMsgError(failed)) violate(`Chat.open rejected with a non-MsgError: ${describe(failed)}`);
        continue;
      }
      if (result === undefined) {
        violate("Chat.open did not settle in 60 s");
        return;
      }
      chat = result;
      // a UI's view: what the listener read when it was last told
      const mine = result;
      seen = mine.getSnapshot();
      mine.subscribe(() => {
        if (chat !== mine) return;
        seen = mine.getSnapshot();
        notified += 1;
        // a reply in flight is followed on the stream: never idle (no stream) meanwhile
        if (ACTIVE.has(seen.status) && seen.connection === "idle") violate(`status ${seen.status} with no stream held (connection idle)`);
        if (seen.error?.code === "run_lost" && lastSend !== null) lastSend.lost = true;
      });
      openedAt = serviceNow();
      sessionId = chat.sessionId;
      if (!sessions.includes(sessionId!)) sessions.push(sessionId!);
      trace.push(`${Date.now()} opened ${sessionId}`);
    }
    if (chat === null) faults.enabled = false; // (20 refused opens: the next try goes through)
  };

  try {
    await open(null);
    if (chat === null) await open(null);
    for (const action of schedule.actions) {
      if (chat === null) break;
      const c = chat;
      switch (action.kind) {
        case "send": {
          const text = sendText(action.policy);
          sendOn(c, text, `send ${JSON.stringify(text)}`);
          break;
        }
        case "stop":
          if (lastSend !== null) lastSend.after = true;
          act("stop", () => c.stop());
          break;
        case "deleteOpen": {
          // the open session deleted, in this page or elsewhere; a send once the chat knows is refused, nothing posted
          const sid = c.sessionId;
          trace.push(`${Date.now()} delete ${sid}${action.inPage ? " in this page" : " elsewhere"}`);
          const remover = new SessionsClient(new AgentScopeTransport({ baseUrl: sim.urls, userId: sim.userId, agentId: sim.agentId, fetch: sim.fetch }));
          if (action.inPage) await remover.remove(sid).catch((e: unknown) => trace.push(`${Date.now()} delete failed: ${describe(e)}`));
          else {
            await sim
              .fetch(`${sim.urls[0]}/sessions/${sid}?agent_id=${sim.agentId}`, { method: "DELETE", headers: { "X-User-ID": sim.userId } })
              .catch((e: unknown) => trace.push(`${Date.now()} delete failed: ${describe(e)}`));
          }
          for (let i = 0; i < 200 && c.getSnapshot().connection !== "lost"; i++) await tick(100);
          const snap = c.getSnapshot();
          if (snap.connection === "lost" && snap.error?.status === 404) {
            const before = sim.events(sid).length;
            const shown = snap.messages.length;
            let outcome: unknown = "resolved";
            try {
              await c.send(sendText("hello"));
            } catch (e) {
              outcome = e;
            }
            if (!(isMsgError(outcome) && (outcome as Json).code === "http_error")) violate(`a send after the chat found its session deleted: ${outcome instanceof Error ? describe(outcome) : String(outcome)}`);
            if (c.getSnapshot().messages.length !== shown || sim.events(sid).length !== before) violate("a send after the chat found its session deleted changed the messages or reached the service");
          }
          // (a delete that failed, an instance down, leaves it: its runs are waited for at rest)
          if (!sim.sessionIds().includes(sid)) {
            sessions.splice(sessions.indexOf(sid), 1);
            deleted.push(sid);
          }
          c.close();
          chat = null;
          await open(null);
          break;
        }
        case "sendWhileLost": {
          // the stream refused past its attempts (8): lost; then the user sends
          faults.plan("GET /sessions/:id/stream", { kind: "error" }, 12);
          faults.cutStreams();
          for (let i = 0; i < 300 && c.getSnapshot().connection !== "lost"; i++) await tick(100);
          trace.push(`${Date.now()} connection ${c.getSnapshot().connection}`);
          const text = sendText(action.policy);
          sendOn(c, text, `send ${JSON.stringify(text)} while ${c.getSnapshot().connection}`);
          break;
        }
        case "swallowPost":
          swallowed = true;
          faults.plan("POST /chat/", { kind: "swallow" });
          break;
        case "malformed":
          faults.plan("GET /sessions/:id/messages", { kind: "malformed" });
          break;
        case "confirm": {
          const pending = (c.pendingActions as Json[]).find((a) => a.kind === "confirm" && a.worker === undefined);
          if (pending === undefined) break;
          const id = pending.toolCall.id;
          act(`confirm ${action.approve}`, () => c.confirm(id, action.approve));
          if (action.twice) act(`confirm ${action.approve} again`, () => c.confirm(id, action.approve));
          break;
        }
        case "answer": {
          const pending = (c.pendingActions as Json[]).find((a) => a.kind === "external" && a.worker === undefined);
          if (pending === undefined) break;
          const id = pending.toolCall.id;
          const result = { toolCallId: id, output: "User picked Blue", metadata: { answers: [{ question: "Which color do you prefer?", selected: ["Blue"] }] } };
          act("answer", () => c.submitExternal(result));
          if (action.twice) act("answer again", () => c.submitExternal(result));
          break;
        }
        case "reload":
          trace.push(`${Date.now()} reload`);
          c.close();
          chat = null;
          await open(sessionId);
          break;
        case "switch": {
          trace.push(`${Date.now()} switch`);
          c.close();
          chat = null;
          const other = sessions.find((s) => s !== sessionId) ?? null;
          await open(other);
          break;
        }
        case "sendOnFinish":
          pendingOnFinish = action.policy;
          break;
        case "sendOnEvent":
          pendingOnEvent = action.policy;
          break;
        case "wait":
          break;
        case "blip":
          trace.push(`${Date.now()} blip`);
          faults.cutStreams();
          break;
        case "holdPost":
          faults.plan("POST /chat/", { kind: "hold", ms: action.ms });
          break;
        case "repairOutage":
          // a delta lost, and the reload that would repair it failing for a while
          faults.dropNext("TEXT_BLOCK_DELTA");
          faults.plan("GET /sessions/:id/messages", { kind: "error" }, action.count);
          break;
        case "drop":
          faults.dropNext(action.type);
          break;
        case "losePost":
          faults.plan("POST /chat/", { kind: action.after ? "lostAfter" : "lostBefore" });
          break;
        case "outage":
          faults.plan(action.route, { kind: "error" }, action.count);
          break;
        case "kill":
          trace.push(`${Date.now()} instance ${action.instance % sim.urls.length} killed for ${action.downMs} ms`);
          killed = true;
          sim.kill(action.instance % sim.urls.length, action.downMs);
          break;
        case "hang": {
          const origin = sim.urls[action.instance % sim.urls.length]!;
          trace.push(`${Date.now()} ${origin} hangs ${action.ms} ms`);
          faults.hang(origin, action.ms);
          break;
        }
        case "clockJump":
          trace.push(`${Date.now()} the clock jumps ${action.ms} ms`);
          jumped += action.ms;
          clock.setSystemTime(Date.now() + action.ms);
          break;
      }
      await tick(action.kind === "wait" ? action.ms : 1 + Math.floor(random() * 400));
    }
    // at rest: faults off, the service left to finish what runs, parked replies left parked
    pendingOnFinish = null;
    pendingOnEvent = null;
    faults.enabled = false;
    trace.push(`${Date.now()} faults off`);
    // (a killed instance restarts: at most 60 s)
    for (let i = 0; i < 70 && !sim.reachable(); i++) await tick(1000);
    if (chat === null) await open(sessionId);
    const busy = () => !sim.reachable() || [...sessions, ...deleted].some((sid) => sim.running(sid));
    // (a killed instance's run holds its session's lock for its lease: up to 600 s)
    const restBound = killed ? 700 : 60;
    // (100 ms steps for the first minute, then 1 s: a lease is waited out in minutes)
    for (let t = 0; t < restBound * 1000 && busy(); t += t < 60_000 ? 100 : 1000) await tick(t < 60_000 ? 100 : 1000);
    if (busy()) violate(`the service did not come to rest in ${restBound} s`);
    const c = chat;
    if (c !== null) {
      // the bound: a reply in flight settles within 30 s of the service being idle and reachable
      // (an input the service took and never applied waits lostRunMs, 120 s, before it is given up)
      const activeBound = swallowed ? 150 : 30;
      for (let i = 0; i < activeBound * 10 && ACTIVE.has(c.status); i++) await tick(100);
      if (ACTIVE.has(c.status)) violate(`the status stayed ${c.status} ${activeBound} s after the service came to rest`);
      if (c.getSnapshot().connection === "lost") {
        // the app's documented recovery (the error says to call reconnect())
        if (c.error === null) violate("the connection is lost with no error");
        trace.push(`${Date.now()} reconnect() (the connection was lost: ${c.error?.message})`);
        c.reconnect();
        // (an input it waits for, taken and never applied, is given up lostRunMs after its POST)
        // (a 3 s stall watch loses an idle stream every 30 s or so: reconnected as the error says)
        for (let i = 0; swallowed && i < activeBound * 10 && (ACTIVE.has(c.status) || c.getSnapshot().connection === "lost"); i++) {
          if (c.getSnapshot().connection === "lost") c.reconnect();
          await tick(100);
        }
      }
      await tick(15_000);
      const snap = c.getSnapshot();
      trace.push(`${Date.now()} at rest: status ${snap.status}, connection ${snap.connection}, error ${snap.error?.code ?? null}: ${snap.error?.message ?? ""}`);
      if (snap.partial.length > 0) violate(`partial at rest: ${snap.partial.join(", ")}`);
      // closing idle streams: at rest (15 s), none is held
      if (schedule.idleStream === "close" && snap.connection !== "idle" && snap.connection !== "lost") violate(`at rest with idleStreamMs, the connection is ${snap.connection} (a stream held at rest)`);
      // at rest, reachable and reconnected: no error left but one the app must see (a failed
      // or lost run, a turn or answer not applied) or one an action rejected with
      const stored = sim.stored(c.sessionId);
      trace.push(`${Date.now()} stored: ${stored.map((m) => (m.role === "user" ? "user" : `${m.role} ${m.finished_reason ?? "open"}`)).join(", ")}`);
      // (a 3 s stall watch drops an idle stream between heartbeats: reconnecting, it says why)
      const reconnecting = snap.connection !== "open" && snap.error?.code === "service_unavailable" && /event stream/.test(snap.error.message);
      if (snap.error !== null && snap.error.code !== "run_failed" && snap.error.code !== "run_lost" && !toldErrors.has(snap.error) && !reconnecting) {
        violate(`an error left at rest: ${snap.error.code}: ${snap.error.message}`);
      }
      if (snap.status === "error" && snap.error === null) violate("status error at rest with no error");
      // a send the service took whose turn it never stored, with no stop or send after it: told (run_lost)
      if (lastSend?.resolved === true && !lastSend.after && !stored.some((m) => m.role === "user" && textOf(m) === lastSend!.text) && snap.error?.code !== "run_lost" && !lastSend.lost) {
        violate(`the turn ${JSON.stringify(lastSend.text)} was never stored and the chat says nothing (error ${snap.error?.code ?? null})`);
      }
      // a call waiting at rest can be answered
      for (const a of snap.pendingActions) {
        if (a.worker === undefined && a.answered === true) violate(`tool call ${a.toolCall.id} waits at rest and is marked answered (it can never be answered)`);
      }
      // the app state mirrors the CUSTOM events (or the list, loaded after them)
      if (lastState !== undefined && JSON.stringify(snap.state) !== JSON.stringify(lastState) && JSON.stringify(snap.state) !== JSON.stringify(sim.stateOf(c.sessionId))) {
        violate(`state at rest is not the last state_updated's: ${JSON.stringify(snap.state)?.slice(0, 200)}`);
      }
      // (a listener is told within the throttle, 0 here, at the next macrotask: a UI shows
      // what the chat holds. The stream may change it at any ms (a 3 s stall watch): what
      // is asked is that a change made before now is told within a few ms)
      const current = c.getSnapshot();
      const told = notified;
      await tick(5);
      if (seen !== current && notified === told) violate("the listener was not told of the last change (a UI would show a stale snapshot)");
      const store = comparable(stored);
      const shown = comparable(snap.messages);
      if (JSON.stringify(store) !== JSON.stringify(shown)) {
        violate(`the messages differ from the store at rest (${shown.length} shown, ${store.length} stored)`);
        trace.push(`first difference: ${firstDifference(shown, store, "messages")}`);
      }
      // onFinish: once per end of a reply while this chat was open (a reply may end twice:
      // an answer refused, then one taken); none for a reply that did not end meanwhile
      const ends = new Map<string, { after: number; since: number }>();
      for (const e of sim.events(c.sessionId)) {
        if (e.type !== "REPLY_END") continue;
        const t = Date.parse(/Z$/.test(e.created_at) ? e.created_at : `${e.created_at}Z`);
        const n = ends.get(e.reply_id) ?? { after: 0, since: 0 };
        if (t > openedAt) n.after += 1;
        if (t >= openStarted) n.since += 1;
        ends.set(e.reply_id, n);
      }
      for (const [id, n] of ends) {
        const told = finishes.get(id) ?? 0;
        if (told < n.after || told > n.since) violate(`onFinish called ${told} times for reply ${id} (${n.after} ends after the open, ${n.since} since it began)`);
      }
      for (const [id, told] of finishes) {
        if (!ends.has(id)) violate(`onFinish called ${told} times for reply ${id}, which did not end while the chat was open`);
      }
    }
    // no turn or answer applied twice
    for (const sid of sessions) {
      const stored = sim.stored(sid);
      const seen = new Map<string, number>();
      for (const m of stored) if (m.role === "user") seen.set(textOf(m), (seen.get(textOf(m)) ?? 0) + 1);
      for (const [text, n] of seen) if (n > 1 && sent.includes(text)) violate(`user turn ${JSON.stringify(text)} stored ${n} times`);
      const results = new Map<string, number>();
      for (const m of stored) for (const b of m.content ?? []) if (b?.type === "tool_result") results.set(b.id, (results.get(b.id) ?? 0) + 1);
      for (const [id, n] of results) if (n > 1) violate(`tool call ${id} has ${n} results`);
    }
  } catch (e) {
    violate(`the harness crashed: ${describe(e)}${e instanceof Error ? `\n${e.stack}` : ""}`);
  } finally {
    try {
      chat?.close();
      await clock.tickAsync(60_000);
      // a closed chat leaves no timer behind (the service is at rest: it has none either)
      if (violations.length === 0 && clock.countTimers() > 0) violate(`${clock.countTimers()} timers left 60 s after the chat closed`);
    } catch {
      // (the run is over)
    }
    clock.uninstall();
    Math.random = realRandom;
    crypto.getRandomValues = realGetRandomValues;
    // (a rejection of this run reported after it is still this run's)
    await new Promise((resolve) => setImmediate(resolve));
    process.off("unhandledRejection", unhandled);
  }
  trace.push(...faults.log.map((l) => `fault ${l}`));
  return { violations, trace };
}

/** Where `a` and `b` first differ: a path and both values (for the trace). */
function firstDifference(a: Json, b: Json, path: string): string | null {
  if (JSON.stringify(a) === JSON.stringify(b)) return null;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) {
    return `${path}: shown ${JSON.stringify(a)?.slice(0, 300)}, stored ${JSON.stringify(b)?.slice(0, 300)}`;
  }
  const keys = Array.isArray(a) ? [...Array(Math.max(a.length, b.length)).keys()] : [...new Set([...Object.keys(a), ...Object.keys(b)])];
  for (const k of keys) {
    const d = firstDifference((a as Json)[k], (b as Json)[k], `${path}[${JSON.stringify(k)}]`);
    if (d !== null) return d;
  }
  return `${path}: key order`;
}

function describe(e: unknown): string {
  if (e instanceof Error) return `${e.constructor.name}${(e as Json).code ? `(${(e as Json).code})` : ""}: ${e.message}`;
  return String(e);
}

// ------------------------------------------------------------------ schedules

const rate = (max: number) => fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 100 }).map((n) => (n / 100) * max));

/** Fault rates: each class on or off, at some rate. */
export const ratesArb: fc.Arbitrary<FaultRates> = fc.record({
  serverError: rate(0.3),
  busy: rate(0.1),
  lostBefore: rate(0.1),
  lostAfter: rate(0.1),
  stallHeaders: rate(0.1),
  stallBody: rate(0.1),
  drop: rate(0.02),
  duplicate: rate(0.05),
  reorder: rate(0.03),
  stallFrame: rate(0.02),
  cut: rate(0.01),
  batch: rate(1),
});

const policy = fc.constantFrom(...POLICIES);

export const actionArb: fc.Arbitrary<Action> = fc.oneof(
  { weight: 6, arbitrary: policy.map((p) => ({ kind: "send" as const, policy: p })) },
  { weight: 2, arbitrary: fc.constant({ kind: "stop" as const }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("confirm" as const), approve: fc.boolean(), twice: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("answer" as const), twice: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ kind: "reload" as const }) },
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 8000 }).map((ms) => ({ kind: "wait" as const, ms })) },
  { weight: 1, arbitrary: policy.map((p) => ({ kind: "sendOnFinish" as const, policy: p })) },
  { weight: 1, arbitrary: policy.map((p) => ({ kind: "sendOnEvent" as const, policy: p })) },
  { weight: 1, arbitrary: fc.constant({ kind: "switch" as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: "blip" as const }) },
  { weight: 1, arbitrary: fc.integer({ min: 2500, max: 8000 }).map((ms) => ({ kind: "holdPost" as const, ms })) },
  { weight: 1, arbitrary: fc.boolean().map((after) => ({ kind: "losePost" as const, after })) },
  { weight: 1, arbitrary: fc.integer({ min: 5, max: 30 }).map((count) => ({ kind: "repairOutage" as const, count })) },
  { weight: 1, arbitrary: fc.constantFrom("REPLY_START" as const, "REPLY_END" as const, "TEXT_BLOCK_DELTA" as const, "TOOL_CALL_START" as const, "MODEL_CALL_END" as const).map((type) => ({ kind: "drop" as const, type })) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("outage" as const), route: fc.constantFrom(...OUTAGE_ROUTES), count: fc.integer({ min: 1, max: 25 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("kill" as const), instance: fc.integer({ min: 0, max: 1 }), downMs: fc.constantFrom(1000, 10_000, 60_000) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("hang" as const), instance: fc.integer({ min: 0, max: 1 }), ms: fc.constantFrom(3000, 10_000, 30_000) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("clockJump" as const), ms: fc.constantFrom(-3_600_000, -600_000, -30_000, 30_000, 600_000, 3_600_000) }) },
  { weight: 1, arbitrary: fc.boolean().map((inPage) => ({ kind: "deleteOpen" as const, inPage })) },
  { weight: 1, arbitrary: policy.map((p) => ({ kind: "sendWhileLost" as const, policy: p })) },
  { weight: 1, arbitrary: fc.constant({ kind: "swallowPost" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "malformed" as const }) },
);

export const scheduleArb: fc.Arbitrary<Schedule> = fc.record({
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  instances: fc.constantFrom(1, 1, 2),
  replayLimit: fc.constantFrom(1000, 30),
  stallMs: fc.constantFrom(3000, 45_000),
  rates: fc.oneof({ weight: 1, arbitrary: fc.constant(NO_FAULTS) }, { weight: 4, arbitrary: ratesArb }),
  // (a send first: a schedule that never sends explores nothing)
  actions: fc.tuple(policy, fc.array(actionArb, { minLength: 0, maxLength: 24 })).map(([p, rest]) => [{ kind: "send" as const, policy: p }, ...rest]),
  // (last: the fields before it draw as they did)
  idleStream: fc.constantFrom("keep" as const, "close" as const),
});

/** A schedule in one line (what a failure prints, to replay it). */
export function showSchedule(s: Schedule): string {
  return JSON.stringify(s);
}
