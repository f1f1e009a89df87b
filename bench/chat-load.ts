// A load benchmark of `Chat` (agentscope-message/chat) against the live AgentScope 2.0.11
// service (scripts/agentscope-service): N sessions open at once, each sends `long W` at the
// same moment and the scripted model answers with W text deltas. Reports figures; asserts
// nothing (but says how many sessions ended equal to what the service stored).
//   node --import tsx bench/chat-load.ts [--sessions 50] [--words 400] [--delay-ms 5]
//        [--mode redis|embedded|both] [--reconnects | --no-reconnects] [--verbose]
// redis: Redis and two instances on it (sessions spread over both, half of them POST on the
// other instance than their stream); embedded: one process, SQLite, the in-memory bus.
// --reconnects (default on): every client's stream is dropped 1–3 times during its reply.
// --verbose: each session's stream connections at the end.
// Writes bench/results-chat-load.json. (pkg/ must be built: `npm run build`.)
import { readFileSync, writeFileSync } from "node:fs";
import { AgentScopeTransport, Chat, type ChatTransport } from "../pkg/dist/chat.js";
import type { MsgJSON } from "../pkg/dist/index.js";
import { nullRecordingVolatiles, thaw, type Json } from "../tests/ts/helpers.ts";
import { peakRssKiB, Routed, startService, type Service } from "../tests/ts/service.ts";

// ---------------------------------------------------------------- options
const argv = process.argv.slice(2);
function option(name: string, fallback: string): string {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1]! : fallback;
}
const SESSIONS = Number(option("sessions", "50"));
const WORDS = Number(option("words", "400"));
const DELAY_MS = Number(option("delay-ms", "5"));
const MODE = option("mode", "both");
const RECONNECTS = !argv.includes("--no-reconnects");
/** --verbose: each session's stream connections at the end. */
const VERBOSE = argv.includes("--verbose");
if (!(SESSIONS >= 1 && WORDS >= 1 && DELAY_MS >= 0) || !["redis", "embedded", "both"].includes(MODE)) {
  console.error("usage: node --import tsx bench/chat-load.ts [--sessions N] [--words W] [--delay-ms D] [--mode redis|embedded|both] [--reconnects|--no-reconnects] [--verbose]");
  process.exit(2);
}
/** How long one session may take from send to its reply shown and stored, ms. */
const REPLY_TIMEOUT_MS = 180_000;

// ---------------------------------------------------------------- per-client counting
/** What one client (one session: its transports share it) saw. */
interface Client {
  index: number;
  /** `GET …/stream` requests (the first, then one per reconnect). */
  streams: number;
  /** `data:` frames received, replays included. */
  frames: number;
  /** Event ids seen (a replay after a reconnect is a duplicate). */
  ids: Set<string>;
  /** ms from an event's `created_at` to its first arrival here. */
  latencies: number[];
  /** Unique-event counts at which the stream is dropped next (ascending). */
  dropAt: number[];
  /** Drops done. */
  dropped: number;
  /** When its reply was shown complete (Date.now()). */
  doneAt: number;
  /** For --verbose: each stream connection (ms after the send, its `after`, frames, new events). */
  connections: { at: number; after: string | null; frames: number; fresh: number }[];
}
/** The moment every session sent (Date.now()), for --verbose. */
let sentAt = NaN;

/**
 * The service's `created_at` as epoch ms. agentscope writes `datetime.now().isoformat()`: a
 * naive local time ("2026-12-01T23:45:14.910134"). The service runs here with our
 * environment (the same time zone; UTC on this machine), and `Date.parse` reads a date-time
 * without an offset as local time too.
 */
const serviceTime = (createdAt: string) => Date.parse(createdAt);
let warned = false;

/** 1–3 drop points inside the reply (which has about WORDS + 8 events), one per equal slice of its 5–90 %. */
function dropPlan(): number[] {
  if (!RECONNECTS) return [];
  const k = 1 + Math.floor(Math.random() * 3);
  const lo = Math.max(1, Math.floor(WORDS * 0.05));
  const span = Math.max(k, Math.floor(WORDS * 0.85));
  return Array.from({ length: k }, (_, j) => lo + Math.floor((span / k) * (j + Math.random())));
}

/**
 * A pass-through of the stream's bytes that frames them (`data: <json>\n\n`: the service
 * sends nothing else but `:` heartbeats) and counts each event; drops the connection
 * (`abort`) at the client's next drop point.
 */
function scanner(client: Client, abort: () => boolean): TransformStream<Uint8Array, Uint8Array> {
  const connection = client.connections.at(-1)!;
  let dropping = false;
  const decoder = new TextDecoder();
  let buffer = "";
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, out) {
      const now = Date.now();
      out.enqueue(chunk);
      buffer += decoder.decode(chunk, { stream: true });
      let start = 0;
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n", start)) {
        const frame = buffer.slice(start, end);
        start = end + 2;
        const data = frame
          .split("\n")
          .filter((l) => l.startsWith("data:"))
          .map((l) => l.slice(l.startsWith("data: ") ? 6 : 5))
          .join("\n");
        if (data === "") continue; // a heartbeat comment
        client.frames += 1;
        connection.frames += 1;
        const event = JSON.parse(data) as { id: string; created_at: string };
        if (client.ids.has(event.id)) continue;
        client.ids.add(event.id);
        connection.fresh += 1;
        const latency = now - serviceTime(event.created_at);
        if (!(Math.abs(latency) < 60_000) && !warned) {
          warned = true;
          console.warn(`WARNING: created_at ${event.created_at} is ${latency} ms off this clock: not this machine's local time? (latencies are wrong)`);
        }
        client.latencies.push(latency);
        // one drop per connection: the next point waits for the next connection's new events
        if (!dropping && client.dropAt.length > 0 && client.ids.size >= client.dropAt[0]!) {
          client.dropAt.shift();
          dropping = true;
          // a moment later, not on a frame's edge: the Chat sees its stream break
          setTimeout(() => {
            if (abort()) client.dropped += 1;
          }, Math.random() * 20);
        }
      }
      buffer = buffer.slice(start);
    },
  });
}

/** The client's `fetch`: stream responses are counted (and droppable); other requests pass. */
function countingFetch(client: Client): typeof fetch {
  return async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!new URL(url).pathname.endsWith("/stream")) return fetch(input, init);
    client.streams += 1;
    client.connections.push({ at: Date.now() - sentAt, after: new URL(url).searchParams.get("after"), frames: 0, fresh: 0 });
    // our own controller, following the Chat's signal, so that we can cut the body too
    const controller = new AbortController();
    const outer = init?.signal;
    if (outer) {
      if (outer.aborted) controller.abort(outer.reason);
      else outer.addEventListener("abort", () => controller.abort(outer.reason), { once: true });
    }
    const response = await fetch(input, { ...init, signal: controller.signal });
    if (!response.ok || response.body === null) return response;
    // the drop: whether it cut a live connection (not one the Chat had ended already)
    const drop = () => {
      if (controller.signal.aborted) return false;
      controller.abort(new Error("bench: stream dropped"));
      return true;
    };
    const body = response.body.pipeThrough(scanner(client, drop));
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

// ---------------------------------------------------------------- helpers
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const expected = Array.from({ length: WORDS }, (_, i) => `w${i} `).join("");
const lastReply = (chat: Chat) => chat.messages.filter((m) => m.role === "assistant").at(-1);
const textOf = (m: MsgJSON | Json | undefined) =>
  ((m?.content ?? []) as Json[]).filter((b) => b.type === "text").map((b) => b.text as string).join("");

/** Comparable copies: what the reducer makes up itself nulled (as tests/ts/chat.test.ts). */
function comparable(messages: readonly MsgJSON[] | Json[]): string {
  return JSON.stringify(
    messages.map((m) => {
      const copy = thaw(m);
      nullRecordingVolatiles(copy);
      return copy;
    }),
  );
}

async function storedMessages(service: Service, base: string, sessionId: string): Promise<Json[]> {
  const response = await fetch(`${base}/sessions/${sessionId}/messages?agent_id=${service.agentId}&limit=200`, { headers: { "X-User-ID": service.userId } });
  if (!response.ok) throw new Error(`GET messages of ${sessionId}: HTTP ${response.status} ${await response.text()}`);
  return ((await response.json()) as Json).messages;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** This process's peak resident set (VmHWM), KiB. */
function selfPeakKiB(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
  return m ? Number(m[1]) : NaN;
}
const mib = (kib: number | undefined) => (kib === undefined ? null : Math.round((kib / 1024) * 10) / 10);

// ---------------------------------------------------------------- one mode
interface Result {
  mode: string;
  sessions: number;
  words: number;
  delayMs: number;
  reconnectsOn: boolean;
  wallMs: number;
  frames: number;
  uniqueEvents: number;
  eventsPerSecond: number;
  latencyMs: { p50: number; p99: number; max: number };
  streamRequests: number;
  reconnects: number;
  drops: number;
  rssMiB: Record<string, number | null>;
  /** Per session, send → its whole reply shown and status ready. */
  replyMs: { p50: number; max: number };
  /** What the chats reported to `onError`, by message. */
  errors: Record<string, number>;
  equal: number;
  replied: number;
  problems: string[];
}

async function runMode(mode: "redis" | "embedded"): Promise<Result> {
  sentAt = NaN;
  // this process's peak RSS afresh for each mode (Linux: "5" resets VmHWM to the current RSS)
  try {
    writeFileSync("/proc/self/clear_refs", "5");
  } catch {
    // not Linux, or not allowed: the peak is the process's since its start
  }
  console.log(`\n== ${mode}: ${SESSIONS} sessions × long ${WORDS}, a delta every ${DELAY_MS} ms, reconnects ${RECONNECTS ? "on" : "off"}`);
  const service = await startService({ AGENTSCOPE_SERVICE_DELAY_MS: String(DELAY_MS) }, mode === "redis" ? ["--redis"] : []);
  const urls = service.urls;
  const n = urls.length;
  /** The chats, by session index (filled as they open: closed in `finally` even if one failed to open). */
  const chats: Chat[] = [];
  const problems: string[] = [];
  /** Errors the chats reported (`onError`: e.g. each dropped stream), by message. */
  const errors = new Map<string, number>();
  const onError = (e: unknown) => {
    const message = e instanceof Error ? e.message : String(e);
    errors.set(message, (errors.get(message) ?? 0) + 1);
  };
  try {
    const clients: Client[] = Array.from({ length: SESSIONS }, (_, index) => ({ index, streams: 0, frames: 0, ids: new Set(), latencies: [], dropAt: dropPlan(), dropped: 0, doneAt: NaN, connections: [] }));
    const make = (client: Client, order: string[]) =>
      new AgentScopeTransport({ baseUrl: order, userId: service.userId, agentId: service.agentId, session: { chat_model_config: service.info.chat_model_config }, fetch: countingFetch(client) });
    /** Where session i posts (and reads the stored messages at the end). */
    const postBase = (i: number) => (n > 1 && i % 2 === 1 ? urls[(i + 1) % n]! : urls[i % n]!);

    // open every chat at once; session i streams from urls[i % n] first
    const t_open = Date.now();
    await Promise.all(
      clients.map(async (client, i) => {
        const order = n > 1 ? [urls[i % n]!, urls[(i + 1) % n]!] : [urls[0]!];
        const reads = make(client, order);
        // half the sessions post on the other instance (the reply reaches their stream through Redis)
        const how: ChatTransport = n > 1 && i % 2 === 1 ? new Routed(reads, make(client, [...order].reverse())) : reads;
        chats[i] = await Chat.open(how, { statusPollMs: 1000, onError });
      }),
    );
    for (let t = Date.now(); chats.some((c) => c.status !== "ready"); await sleep(20)) {
      if (Date.now() - t > 60_000) throw new Error(`chats not ready after 60 s: ${chats.filter((c) => c.status !== "ready").map((c) => `${c.sessionId} ${c.status}`).join(", ")}`);
    }
    console.log(`opened ${SESSIONS} chats in ${Date.now() - t_open} ms`);

    // every session sends at once; each waits for its whole reply
    const t0 = Date.now();
    sentAt = t0;
    await Promise.all(
      chats.map(async (chat, i) => {
        const client = clients[i]!;
        await chat.send(`long ${WORDS}`);
        await chat.settled();
        for (;;) {
          if (chat.status === "ready" && textOf(lastReply(chat)) === expected) {
            client.doneAt = Date.now();
            return;
          }
          if (Date.now() - t0 > REPLY_TIMEOUT_MS) {
            problems.push(`session ${chat.sessionId} (#${i}): no complete reply after ${REPLY_TIMEOUT_MS} ms: status ${chat.status}, ${(textOf(lastReply(chat)).match(/w\d+ /g) ?? []).length} words shown, error ${chat.error?.message ?? null}`);
            return;
          }
          await sleep(20);
        }
      }),
    );
    const done = clients.filter((c) => !Number.isNaN(c.doneAt));
    const wallMs = Math.max(...done.map((c) => c.doneAt), t0) - t0;

    // correctness: each chat equals the stored messages (the client reloads the stored page after the run: poll up to 20 s)
    let equal = 0;
    await Promise.all(
      chats.map(async (chat, i) => {
        const base = postBase(i);
        const t = Date.now();
        let last: Json[] = [];
        for (;;) {
          try {
            last = await storedMessages(service, base, chat.sessionId);
          } catch (e) {
            problems.push(`session ${chat.sessionId} (#${i}): ${(e as Error).message}`);
            return;
          }
          if (chat.status === "ready" && comparable(chat.messages) === comparable(last)) {
            equal += 1;
            return;
          }
          if (Date.now() - t > 20_000) break;
          await sleep(200);
        }
        const mine = JSON.parse(comparable(chat.messages)) as Json[];
        const theirs = JSON.parse(comparable(last)) as Json[];
        const diff = mine.length !== theirs.length ? `${mine.length} messages shown, ${theirs.length} stored` : mine.map((m, k) => (JSON.stringify(m) === JSON.stringify(theirs[k]) ? null : `message ${k} (${m.role}) differs:\n  shown  ${JSON.stringify(m).slice(0, 600)}\n  stored ${JSON.stringify(theirs[k]).slice(0, 600)}`)).filter((d) => d !== null).join("\n");
        problems.push(`session ${chat.sessionId} (#${i}): not equal to the stored messages after 20 s (status ${chat.status}): ${diff}`);
      }),
    );

    // the peak resident sets, at the end (the service is still up)
    const rssMiB: Record<string, number | null> = {};
    service.pids.forEach((pid, i) => (rssMiB[n > 1 ? `service ${"AB"[i] ?? i}` : "service"] = mib(peakRssKiB(pid))));
    if (service.redis) rssMiB["redis"] = mib(peakRssKiB(service.redis.pid));
    rssMiB["node client"] = mib(selfPeakKiB());
    rssMiB["node client (rss now)"] = mib(process.memoryUsage().rss / 1024);

    if (VERBOSE) {
      for (const c of clients) {
        const chat = chats[c.index]!;
        console.log(`#${c.index} ${chat.sessionId}: ${c.dropped} drops, ${c.streams} streams, ${c.frames} frames, ${c.ids.size} unique, reply ${c.doneAt - t0} ms, status ${chat.status}`);
        for (const k of c.connections) console.log(`    stream ${Number.isNaN(k.at) ? "at open" : `${k.at} ms after the send`} (after=${k.after}): ${k.frames} frames, ${k.fresh} new`);
      }
    }
    const frames = clients.reduce((s, c) => s + c.frames, 0);
    const uniqueEvents = clients.reduce((s, c) => s + c.ids.size, 0);
    const latencies = clients.flatMap((c) => c.latencies).sort((a, b) => a - b);
    const replyTimes = done.map((c) => c.doneAt - t0).sort((a, b) => a - b);
    const streamRequests = clients.reduce((s, c) => s + c.streams, 0);
    return {
      mode,
      sessions: SESSIONS,
      words: WORDS,
      delayMs: DELAY_MS,
      reconnectsOn: RECONNECTS,
      wallMs,
      frames,
      uniqueEvents,
      eventsPerSecond: wallMs > 0 ? Math.round(uniqueEvents / (wallMs / 1000)) : NaN,
      latencyMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1) ?? NaN },
      streamRequests,
      reconnects: streamRequests - SESSIONS,
      drops: clients.reduce((s, c) => s + c.dropped, 0),
      rssMiB,
      replyMs: { p50: percentile(replyTimes, 50), max: replyTimes.at(-1) ?? NaN },
      errors: Object.fromEntries(errors),
      equal,
      replied: done.length,
      problems,
    };
  } finally {
    for (const chat of chats) chat?.close();
    const code = await service.stop();
    if (code !== 0) console.error(`the service exited with ${code}\n${service.log().slice(-3000)}`);
  }
}

function print(r: Result): void {
  console.log(`wall (first send → last reply shown): ${(r.wallMs / 1000).toFixed(2)} s; ${r.replied}/${r.sessions} replies complete`);
  console.log(`frames ${r.frames} (replays included), unique events ${r.uniqueEvents}: ${r.eventsPerSecond} events/s through the clients`);
  console.log(`latency created_at → client: p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms, max ${r.latencyMs.max} ms`);
  console.log(`per reply (send → shown complete, ready): p50 ${(r.replyMs.p50 / 1000).toFixed(2)} s, max ${(r.replyMs.max / 1000).toFixed(2)} s`);
  console.log(`stream requests ${r.streamRequests}: ${r.reconnects} reconnects (${r.drops} drops made by the benchmark)`);
  console.log(`peak RSS: ${Object.entries(r.rssMiB).map(([k, v]) => `${k} ${v} MiB`).join(", ")}`);
  for (const [message, count] of Object.entries(r.errors)) console.log(`onError ×${count}: ${message}`);
  console.log(`equal to the stored messages: ${r.equal}/${r.sessions}`);
  for (const p of r.problems) console.log(`PROBLEM ${p}`);
}

// ---------------------------------------------------------------- main
const modes: ("redis" | "embedded")[] = MODE === "both" ? ["redis", "embedded"] : [MODE as "redis" | "embedded"];
const results: Result[] = [];
for (const mode of modes) {
  const r = await runMode(mode);
  print(r);
  results.push(r);
}
const out = new URL("./results-chat-load.json", import.meta.url);
writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), results }, null, 2) + "\n");
console.log(`\nwrote bench/results-chat-load.json`);
process.exitCode = results.every((r) => r.equal === r.sessions && r.problems.length === 0) ? 0 : 1;
