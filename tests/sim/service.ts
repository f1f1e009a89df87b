// An in-process, deterministic simulation of the AgentScope 2.0.11 app service that
// scripts/agentscope-service runs (the real `create_app` with the scripted model of
// scripts/agentscope-service.md), for exploring `Chat` under every interleaving (issue 36).
//
// `SimService.fetch` is a WHATWG `fetch` serving the routes the client uses
// (ts/transport.ts, ts/sessions.ts) at `http://sim-<i>.test`, one base URL per instance;
// the instances share one store and one bus, as instances on one Redis do. Every wait goes
// through the global `setTimeout` / `clearTimeout`, every timestamp through the `clock`
// option (default `Date.now`) and an instance's downtime through `performance.now()`, so
// that @sinonjs/fake-timers makes a run deterministic; ids come from a seeded PRNG. The
// stored replies are folded from the events with the project's own reducer
// (`Msg.appendEvent`). An instance can be killed (`kill`). Not modelled: the team flow,
// permission rules from confirmations, clock skew between instances, an instance dying
// while it saves a reply, `file://` attachments (the live suites cover those).
//
// Section references ("§ …") are to scripts/agentscope-service.md.
import { Msg, setIdFactory, setTimestampFactory, type MsgJSON } from "../../pkg/dist/index.js";
import type { Json } from "../ts/helpers.ts";
import { seeded } from "./random.ts";
import { describeAttachments, isRunningKeyword, scriptFor, type ToolCall, type Turn, WAV_CHUNKS_B64 } from "./model.ts";

/** Options of {@link SimService}. */
export interface SimServiceOptions {
  /** Seed of the PRNG every id comes from (default 1): one seed, one run. */
  seed?: number;
  /** How many instances (base URLs) share the store and the bus (default 1). */
  instances?: number;
  /** Pacing of `long` deltas, ms (AGENTSCOPE_SERVICE_DELAY_MS; default 2). */
  delayMs?: number;
  /** Pacing of `slow` deltas, ms (AGENTSCOPE_SERVICE_SLOW_MS; default 200). */
  slowMs?: number;
  /** The replay log's bound (the bus's 1,000 entries; default 1000). */
  replayLimit?: number;
  /**
   * The service's wall clock, ms since the epoch (default `Date.now`): its timestamps. The
   * explorer gives it one that a jump of the client's clock does not move.
   */
  clock?: () => number;
}

/** One entry of a session's replay log: the bus's cursor (`"<seq>-0"`) and the event. */
export interface LogEntry {
  seq: number;
  cursor: string;
  event: Json;
}

/** A session's status as `GET /sessions/{sid}/status` says it. */
export type SimStatus = "running" | "idle" | "awaiting_permission" | "awaiting_external_result";

/** A reply parked on a human-in-the-loop answer (§ Resume). */
interface Parked {
  kind: "confirm" | "external";
  replyId: string;
  /** The calls that wait (as streamed in REQUIRE_USER_CONFIRM / REQUIRE_EXTERNAL_EXECUTION). */
  calls: Json[];
  /** The user text the reply answers (its policy keyword). */
  text: string;
  /** The index in `stored` of the reply. */
  index: number;
  /** Tool results of this reply so far (what the policy's next turn sees). */
  results: string[];
  /** Whether TOOL_RESULT_START was sent for the waiting calls (external: yes). */
  resultStarted: boolean;
}

/** A run holding the session's lock (§ POST /chat/: 409 is per instance). */
interface Run {
  instance: number;
  cancelled: boolean;
  /** Its instance died: nothing more of it happens (see {@link SimService.kill}). */
  dead?: boolean;
  /** Cuts the current wait short (an interrupt). */
  wake: (() => void) | undefined;
}

/** What a queued run does once it holds the lock; `false`: it persisted nothing (the lock goes at once). */
type Job = (run: Run) => Promise<boolean | void>;

interface SimSession {
  id: string;
  record: Json;
  /** Persisted messages (`GET /messages`): user JSON and replies' folded JSON. */
  stored: MsgJSON[];
  /** The replay log (bounded; trimmed to the checkpoint after each persisted reply). */
  log: LogEntry[];
  /** Every event ever published (for checks; not trimmed). */
  all: Json[];
  seq: number;
  /** The cursor of the last event reflected in `stored` (`event_cursor`), or null. */
  checkpoint: string | null;
  listeners: Set<(entry: LogEntry) => void>;
  run: Run | undefined;
  /** Runs waiting for the lock (accepted on another instance, HITL answers). */
  queue: Job[];
  parked: Parked | undefined;
  /** The last reply's id (`session.state.reply_id`: where an idle interrupt lands). */
  lastReplyId: string | null;
  replies: number;
  tasks: Json[];
  deleted: boolean;
}

const HINT_SOURCE = '{"label": "System", "sublabel": "Runtime State"}';
const MODEL_NAME = "scripted";
const SETUP_ERROR = { type: "setup", message: "The session could not be prepared — check the agent's model, tools and knowledge bases." };
const UNKNOWN_ERROR = { type: "unknown", message: "The reply failed with an unknown error." };
const DENIED_TEXT = '<system-reminder>The execution of tool "Bash" is denied by user!</system-reminder>';
const INTERRUPTED_TEXT = "<system-reminder>The tool call has been interrupted by the user.</system-reminder>";
/** Thrown into the job of a run whose instance died, at its next wait: nothing more of it happens. */
class RunDied extends Error {}

/** How long a run keeps the lock after its last event (persisting, auto-naming), ms. */
const SETTLE_MS = 5;

/** `Date` as this module found it: the clock is faked while it runs, the formatting need not be. */
const RealDate = Date;

/** The service's naive local time with microseconds (`2026-12-06T06:55:04.108766`), from `ms`. */
function timestamp(ms: number): string {
  return `${new RealDate(ms).toISOString().slice(0, 23)}000`;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
  ) {
    super(typeof detail === "string" ? detail : JSON.stringify(detail));
  }
}

/**
 * What a fetch call asks: its URL, method, headers and body text. Read from a string or
 * URL and plain init values without building a `Request` (undici's costs more than the
 * rest of a simulated request); anything else through a real `Request`.
 */
export function requestOf(input: RequestInfo | URL, init?: RequestInit): { url: string; method: string; headers: Headers; text: () => Promise<string> } {
  const body = init?.body;
  if ((typeof input === "string" || input instanceof URL) && (body === undefined || body === null || typeof body === "string")) {
    const url = new URL(input).href;
    return { url, method: (init?.method ?? "GET").toUpperCase(), headers: new Headers(init?.headers), text: async () => body ?? "" };
  }
  const request = new Request(input, init);
  return { url: request.url, method: request.method, headers: request.headers, text: () => (request.body === null ? Promise.resolve("") : request.text()) };
}

const json = (status: number, body: unknown): Response =>
  status === 204 ? new Response(null, { status }) : new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/**
 * The simulated service. One store, one bus, `instances` base URLs (`urls`); `fetch`
 * serves the API; `stored` / `running` / `events` / `sessionIds` let a test look inside.
 */
/** The stream's heartbeat (`:` comment) after this long without a frame, ms (uvicorn's sse: 30 s). */
const HEARTBEAT_MS = 30_000;

export class SimService {
  readonly urls: readonly string[];
  readonly agentId: string;
  readonly userId = "test-user";
  readonly credentialId: string;
  /** What `POST /sessions/` needs (`session: {chat_model_config}` of the transport). */
  readonly chatModelConfig: Json;
  /** The WHATWG fetch of the simulated API (§ API facts). */
  readonly fetch: typeof fetch;
  readonly #rand: () => number;
  readonly #sessions = new Map<string, SimSession>();
  readonly #delayMs: number;
  readonly #slowMs: number;
  readonly #limit: number;
  readonly #clock: () => number;
  /** Instances down (killed), until when (`performance.now()`): they refuse connections. */
  readonly #down = new Map<number, number>();
  /** The event streams open on each instance: what breaks them when it dies. */
  readonly #streams = new Map<number, Set<() => void>>();
  /** Redis trims approximately (`MAXLEN ~`): with several instances the log may run past the bound by this much. */
  readonly #slack: number;

  constructor(options: SimServiceOptions = {}) {
    this.#rand = seeded(options.seed ?? 1);
    const n = options.instances ?? 1;
    if (!Number.isInteger(n) || n < 1) throw new Error("SimService: instances must be a positive integer");
    this.urls = Object.freeze(Array.from({ length: n }, (_, i) => `http://sim-${i}.test`));
    this.#delayMs = options.delayMs ?? 2;
    this.#slowMs = options.slowMs ?? 200;
    this.#limit = options.replayLimit ?? 1000;
    this.#clock = options.clock ?? (() => Date.now());
    this.#slack = n > 1 ? Math.ceil(this.#limit / 10) : 0;
    this.agentId = this.#id();
    this.credentialId = this.#id();
    this.chatModelConfig = { type: "scripted_credential", credential_id: this.credentialId, model: MODEL_NAME, parameters: {} };
    this.fetch = ((input: RequestInfo | URL, init?: RequestInit) => this.#fetch(input, init)) as typeof fetch;
  }

  // ---------------------------------------------------------------- introspection

  /** What `GET /sessions/{sid}/messages` lists (all pages), oldest first; [] for an unknown session. */
  stored(sessionId: string): MsgJSON[] {
    return structuredClone(this.#sessions.get(sessionId)?.stored ?? []);
  }

  /** The session's `{tasks_context, permission_context}` now (what CUSTOM state_updated carries), or undefined. */
  stateOf(sessionId: string): Json {
    const s = this.#sessions.get(sessionId);
    return s === undefined ? undefined : this.#state(s);
  }

  /** Whether a run holds the session's lock (`is_running`). */
  running(sessionId: string): boolean {
    return this.#sessions.get(sessionId)?.run !== undefined;
  }

  /** Every event published on the session's stream, in order (not trimmed like the replay log). */
  events(sessionId: string): Json[] {
    return structuredClone(this.#sessions.get(sessionId)?.all ?? []);
  }

  /** The session's status (`GET /sessions/{sid}/status`), or undefined when unknown. */
  status(sessionId: string): SimStatus | undefined {
    const s = this.#sessions.get(sessionId);
    return s === undefined || s.deleted ? undefined : this.#status(s);
  }

  /**
   * Kills instance `instance` (a crash, an OOM kill) and restarts it after `downMs`: its
   * runs stop where they are (no further event, nothing more stored, no `REPLY_END`; the
   * session's lock stays until its lease ends, 300 to 600 s later, so `/status` says
   * `running` and a new message waits), its event streams break, and connections to it
   * are refused until it is back (scripts/agentscope-service --redis, observed on 2.0.11:
   * docs/chat.md, "Several instances on one Redis").
   */
  kill(instance: number, downMs: number): void {
    this.#down.set(instance, performance.now() + downMs);
    for (const s of this.#sessions.values()) {
      const run = s.run;
      if (run?.instance !== instance || run.dead === true) continue;
      run.dead = true;
      run.wake?.();
    }
    for (const died of [...(this.#streams.get(instance) ?? [])]) died();
  }

  /** Whether every instance is up (none killed and not yet restarted). */
  reachable(): boolean {
    return [...this.#down.values()].every((until) => until <= performance.now());
  }

  /** The ids of the sessions that exist (not deleted), in creation order. */
  sessionIds(): string[] {
    return [...this.#sessions.values()].filter((s) => !s.deleted).map((s) => s.id);
  }

  // ---------------------------------------------------------------- ids, time

  /** A 32-hex id from the seeded PRNG (the service's `uuid4().hex`). */
  #id(): string {
    let out = "";
    for (let i = 0; i < 4; i++) out += Math.floor(this.#rand() * 2 ** 32).toString(16).padStart(8, "0");
    return out;
  }

  /** A tool call id as the scripted model makes them (`call_` + 16 hex). */
  #callId(): string {
    return `call_${this.#id().slice(0, 16)}`;
  }

  /** Waits `ms` on the global clock; an interrupt of `run` cuts it short. */
  #sleep(ms: number, run?: Run): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        if (run !== undefined) run.wake = undefined;
        if (run?.dead === true) reject(new RunDied("the run's instance died"));
        else resolve();
      }
      if (run !== undefined) run.wake = done;
    });
  }

  /** Runs `f` with the reducer's id and time factories on the seeded PRNG and `Date` (the process-wide factories are reset after). */
  #seeded<T>(f: () => T): T {
    setIdFactory(() => this.#id());
    setTimestampFactory(() => timestamp(this.#clock()));
    try {
      return f();
    } finally {
      setIdFactory(null);
      setTimestampFactory(null);
    }
  }

  // ---------------------------------------------------------------- the bus

  /**
   * Publishes an event on the session's stream (§ GET …/stream): `{id, created_at,
   * metadata, type, …}`, appended to the replay log (bounded: the oldest dropped) and sent
   * to every open stream; an event of `reply` is folded into its stored message.
   */
  #publish(s: SimSession, body: Json, metadata: Json = {}, reply?: Msg): Json {
    if (s.run?.dead === true) return { ...body }; // (a dead run's: never published)
    const event = { id: this.#id(), created_at: timestamp(this.#clock()), metadata, ...body };
    s.seq += 1;
    const entry = { seq: s.seq, cursor: `${s.seq}-0`, event };
    s.log.push(entry);
    if (s.log.length > this.#limit + this.#slack) s.log.splice(0, s.log.length - this.#limit);
    s.all.push(event);
    if (reply !== undefined && event.type !== "CUSTOM") this.#seeded(() => reply.appendEvent(event));
    for (const listener of [...s.listeners]) listener(entry);
    return event;
  }

  /** Persists a reply and moves the checkpoint (`event_cursor`) to the last event; the log keeps the entries from it on. */
  #persist(s: SimSession, index: number, reply: Msg): void {
    if (s.run?.dead === true) return;
    s.stored[index] = structuredClone(reply.toJSON()) as MsgJSON;
    const last = s.log.at(-1);
    if (last === undefined) return;
    s.checkpoint = last.cursor;
    s.log = s.log.filter((e) => e.seq >= last.seq);
  }

  #status(s: SimSession): SimStatus {
    if (s.run !== undefined) return "running";
    if (s.parked !== undefined) return s.parked.kind === "confirm" ? "awaiting_permission" : "awaiting_external_result";
    return "idle";
  }

  // ---------------------------------------------------------------- fetch

  async #fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const request = requestOf(input, init);
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    if (signal?.aborted) throw signal.reason;
    const url = new URL(request.url);
    const instance = this.urls.indexOf(url.origin);
    if (instance < 0) throw new TypeError("fetch failed", { cause: Object.assign(new Error(`getaddrinfo ENOTFOUND ${url.hostname}`), { code: "ENOTFOUND" }) });
    if ((this.#down.get(instance) ?? -Infinity) > performance.now()) {
      throw new TypeError("fetch failed", { cause: Object.assign(new Error(`connect ECONNREFUSED ${url.host}`), { code: "ECONNREFUSED" }) });
    }
    const text = await request.text();
    if (signal?.aborted) throw signal.reason;
    try {
      if (request.headers.get("x-user-id") === null) throw new HttpError(422, [{ type: "missing", loc: ["header", "x-user-id"], msg: "Field required" }]);
      if (request.headers.get("x-user-id") !== this.userId) throw new HttpError(404, "Agent not found.");
      let body: Json = null;
      if (text !== "") {
        try {
          body = JSON.parse(text);
        } catch {
          throw new HttpError(422, [{ type: "json_invalid", loc: ["body"], msg: "JSON decode error" }]);
        }
      }
      return this.#route(request.method, url, body, instance, signal ?? undefined);
    } catch (e) {
      if (e instanceof HttpError) return json(e.status, { detail: e.detail });
      throw e;
    }
  }

  /** The app's routes (§ API facts; `PATCH` / `DELETE` / list: ts/sessions.ts). */
  #route(method: string, url: URL, body: Json, instance: number, signal: AbortSignal | undefined): Response {
    const path = url.pathname;
    const agent = url.searchParams.get("agent_id");
    if (path === "/sessions/" && method === "POST") return json(201, { session_id: this.#create(body).id });
    if (path === "/sessions/" && method === "GET") {
      this.#agent(agent);
      const sessions = [...this.#sessions.values()].filter((s) => !s.deleted).reverse();
      return json(200, { sessions: sessions.map((s) => this.#view(s)), total: sessions.length });
    }
    if (path === "/chat/" && method === "POST") return json(200, this.#chat(body, instance));
    const m = /^\/sessions\/([^/]+)(\/[a-z]+)?$/.exec(path);
    if (m === null) throw new HttpError(404, "Not Found");
    this.#agent(agent);
    const s = this.#session(decodeURIComponent(m[1]!));
    switch (`${method} ${m[2] ?? ""}`) {
      case "PATCH ":
        return json(200, this.#patch(s, body));
      case "DELETE ":
        this.#delete(s);
        return json(204, null);
      case "GET /messages":
        return json(200, this.#page(s, url.searchParams));
      case "GET /status":
        return json(200, { session_id: s.id, status: this.#status(s) });
      case "POST /interrupt":
        this.#interrupt(s);
        return json(202, { session_id: s.id });
      case "GET /stream":
        return this.#stream(s, url.searchParams.get("after"), signal, instance);
      default:
        throw new HttpError(405, "Method Not Allowed");
    }
  }

  #agent(agent: string | null): void {
    if (agent === null) throw new HttpError(422, [{ type: "missing", loc: ["query", "agent_id"], msg: "Field required" }]);
    if (agent !== this.agentId) throw new HttpError(404, `Agent '${agent}' not found.`);
  }

  #session(id: string): SimSession {
    const s = this.#sessions.get(id);
    if (s === undefined || s.deleted) throw new HttpError(404, `Session '${id}' not found.`);
    return s;
  }

  // ---------------------------------------------------------------- sessions

  /** `POST /sessions/` → 201 (§ POST /sessions/). */
  #create(body: Json): SimSession {
    if (typeof body !== "object" || body === null) throw new HttpError(422, "body required");
    this.#agent(typeof body.agent_id === "string" ? body.agent_id : null);
    const id = this.#id();
    const now = timestamp(this.#clock());
    const named = typeof body.name === "string";
    const record = {
      id,
      created_at: now,
      updated_at: now,
      user_id: this.userId,
      agent_id: this.agentId,
      origin: { type: "user" },
      team_id: null,
      config: {
        workspace_id: typeof body.workspace_id === "string" ? body.workspace_id : this.agentId,
        name: named ? body.name : now.slice(0, 19).replace("T", " "),
        naming: { auto: !named },
        cwd: null,
        chat_model_config: body.chat_model_config ?? null,
        fallback_chat_model_config: body.fallback_chat_model_config ?? null,
        tts_model_config: null,
        realtime_model_config: null,
        knowledge_config: null,
      },
      state: {
        reply_id: null,
        tasks_context: { tasks: [] as Json[] },
        permission_context: { mode: "default", working_directories: { [`/sim/ws/${this.agentId}`]: { path: `/sim/ws/${this.agentId}`, source: "session" } }, allow_rules: {}, deny_rules: {}, ask_rules: {} },
      },
    };
    const s: SimSession = { id, record, stored: [], log: [], all: [], seq: 0, checkpoint: null, listeners: new Set(), run: undefined, queue: [], parked: undefined, lastReplyId: null, replies: 0, tasks: record.state.tasks_context.tasks, deleted: false };
    this.#sessions.set(id, s);
    return s;
  }

  #view(s: SimSession): Json {
    const status = this.#status(s);
    return { session: s.record, status, is_running: status === "running", team: null };
  }

  /** `PATCH /sessions/{sid}`: name, permission mode, model settings; 409 while a run holds the session (§ Permission mode). */
  #patch(s: SimSession, body: Json): Json {
    if (typeof body !== "object" || body === null || Array.isArray(body)) throw new HttpError(422, "body must be an object");
    if (s.run !== undefined) throw new HttpError(409, `Session '${s.id}' is running.`);
    if ("permission_mode" in body) {
      if (!["default", "accept_edits", "explore", "bypass", "dont_ask"].includes(body.permission_mode)) throw new HttpError(422, "invalid permission_mode");
      s.record.state.permission_context.mode = body.permission_mode;
    }
    if (typeof body.name === "string") {
      s.record.config.name = body.name;
      s.record.config.naming = { auto: false };
    }
    for (const key of ["chat_model_config", "fallback_chat_model_config", "tts_model_config", "knowledge_config"]) {
      if (key in body) s.record.config[key] = body[key];
    }
    s.record.updated_at = timestamp(this.#clock());
    return s.record; // (serialised at once by `json`)
  }

  /** `DELETE /sessions/{sid}` → 204: the run is cancelled, open streams end, every route answers 404 after. */
  #delete(s: SimSession): void {
    s.deleted = true;
    if (s.run !== undefined) {
      s.run.cancelled = true;
      s.run.wake?.();
    }
    s.queue.length = 0;
    s.parked = undefined;
    for (const listener of [...s.listeners]) listener({ seq: -1, cursor: "", event: null });
    s.listeners.clear();
  }

  /** `GET /sessions/{sid}/messages` (§ GET …/messages): pages of `limit` (1–200, default 50), `before` an id. */
  #page(s: SimSession, query: URLSearchParams): Json {
    const limit = Number(query.get("limit") ?? "50");
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new HttpError(422, "limit must be 1-200");
    const before = query.get("before");
    let end = s.stored.length;
    if (before !== null) {
      end = s.stored.findIndex((m) => m.id === before);
      if (end < 0) end = 0;
    }
    const start = Math.max(0, end - limit);
    return { messages: s.stored.slice(start, end), event_cursor: before === null ? s.checkpoint : null, is_running: s.run !== undefined, has_more: start > 0 };
  }

  // ---------------------------------------------------------------- the stream

  /**
   * `GET /sessions/{sid}/stream` (§ GET …/stream): replays the log (entries after `after`;
   * at most the bound, oldest first, then live: entries past it are skipped), then live;
   * `data: <json>\n\n` frames only; stays open across runs; ends when the session is deleted.
   */
  #stream(s: SimSession, after: string | null, signal: AbortSignal | undefined, instance = 0): Response {
    const from = after === null ? -1 : Number.parseInt(after, 10);
    const encoder = new TextEncoder();
    let unsubscribe = () => {};
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        const replay = s.log.filter((e) => e.seq > from).slice(0, this.#limit);
        const liveFrom = s.seq;
        for (const e of replay) controller.enqueue(encoder.encode(`data: ${JSON.stringify(e.event)}\n\n`));
        // the heartbeat comment after 30 s of silence (§ GET …/stream)
        let heartbeat: ReturnType<typeof setTimeout> | undefined;
        const quiet = () => {
          clearTimeout(heartbeat);
          heartbeat = setTimeout(() => {
            controller.enqueue(encoder.encode(":\n\n"));
            quiet();
          }, HEARTBEAT_MS);
        };
        quiet();
        const listener = (entry: LogEntry) => {
          if (entry.event === null) {
            unsubscribe();
            controller.close();
            return;
          }
          if (entry.seq > liveFrom) {
            controller.enqueue(encoder.encode(`data: ${JSON.stringify(entry.event)}\n\n`));
            quiet();
          }
        };
        s.listeners.add(listener);
        // its instance dies: the connection breaks
        const streams = this.#streams.get(instance) ?? new Set<() => void>();
        this.#streams.set(instance, streams);
        const died = () => {
          unsubscribe();
          try {
            controller.error(new TypeError("terminated", { cause: new Error("other side closed") }));
          } catch {
            // already closed
          }
        };
        streams.add(died);
        const onAbort = () => {
          unsubscribe();
          try {
            controller.error(signal?.reason);
          } catch {
            // already closed
          }
        };
        unsubscribe = () => {
          streams.delete(died);
          clearTimeout(heartbeat);
          s.listeners.delete(listener);
          signal?.removeEventListener("abort", onAbort);
        };
        signal?.addEventListener("abort", onAbort, { once: true });
      },
      cancel: () => unsubscribe(),
    });
    return new Response(body, { status: 200, headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" } });
  }

  // ---------------------------------------------------------------- runs

  /** Runs `job` once the session's lock is free (runs queue on it, one at a time). */
  #enqueue(s: SimSession, instance: number, job: Job): void {
    s.queue.push((run) => {
      run.instance = instance;
      return job(run);
    });
    if (s.run === undefined) void this.#drain(s);
  }

  async #drain(s: SimSession): Promise<void> {
    while (s.run === undefined && s.queue.length > 0 && !s.deleted) {
      const job = s.queue.shift()!;
      const run: Run = { instance: 0, cancelled: false, wake: undefined };
      s.run = run;
      try {
        if ((await job(run)) !== false) await this.#sleep(SETTLE_MS);
      } catch (e) {
        if (!(e instanceof RunDied)) throw e;
        // its instance died: the session's lock stays in Redis until its lease ends (600 s,
        // renewed every 300 s while the run lived: 300 to 600 s after the death)
        await this.#sleep(300_000 + Math.floor(this.#rand() * 300_000));
      } finally {
        s.run = undefined;
      }
    }
  }

  /**
   * `POST /chat/` (§ POST /chat/): a user Msg (or a list: the last one's text is the
   * policy's), a USER_CONFIRM_RESULT, an EXTERNAL_EXECUTION_RESULT or null. 409 for a
   * message / null while a run of this instance holds the session; HITL answers queue.
   * An unknown session is still 200 (nothing happens).
   */
  #chat(body: Json, instance: number): Json {
    if (typeof body !== "object" || body === null || typeof body.session_id !== "string") throw new HttpError(422, "session_id required");
    this.#agent(typeof body.agent_id === "string" ? body.agent_id : null);
    const input = body.input;
    const started = { status: "started", session_id: body.session_id };
    const s = this.#sessions.get(body.session_id);
    const hitl = typeof input === "object" && input !== null && !Array.isArray(input) && (input.type === "USER_CONFIRM_RESULT" || input.type === "EXTERNAL_EXECUTION_RESULT");
    const msgs: Json[] = input === null || input === undefined ? [] : Array.isArray(input) ? input : hitl ? [] : [input];
    for (const m of msgs) {
      if (typeof m !== "object" || m === null || !Array.isArray(m.content)) throw new HttpError(422, [{ type: "list_type", loc: ["body", "input", "content"], msg: "Input should be a valid list" }]);
    }
    if (s === undefined || s.deleted) return started;
    if (!hitl && s.run?.instance === instance) throw new HttpError(409, `Session '${s.id}' already has an active chat run in this process.`);
    if (hitl) {
      this.#enqueue(s, instance, (run) => this.#answer(s, run, input));
      return started;
    }
    const users = msgs.map((m) => this.#userMsg(m));
    this.#enqueue(s, instance, (run) => this.#turn(s, run, users));
    return started;
  }

  /**
   * The stored form of a user message: the posted `Msg` as `Msg.model_validate` reads it,
   * every field given kept (`id`, `created_at`, `finished_at`, … — observed on 2.0.11:
   * a posted `finished_at` is stored as posted), what is missing filled in.
   */
  #userMsg(m: Json): MsgJSON {
    return this.#seeded(() => structuredClone(Msg.fromJSON({ name: "user", role: "user", ...m }).toJSON()) as MsgJSON);
  }

  /** A new turn: the user message(s) stored, then the scripted reply (or the setup error while parked). */
  async #turn(s: SimSession, run: Run, users: MsgJSON[]): Promise<void> {
    if (s.deleted) return;
    s.stored.push(...users);
    const last = users.at(-1);
    if (s.parked !== undefined) {
      // § POST /chat/: a new message while parked: an empty error reply; the session stays parked
      const replyId = this.#id();
      const reply = this.#newReply(replyId, this.agentId);
      const index = s.stored.push(reply.toJSON() as MsgJSON) - 1;
      this.#publish(s, { type: "REPLY_START", session_id: s.id, reply_id: replyId, name: this.agentId, role: "assistant" }, {}, reply);
      this.#publish(s, { type: "REPLY_END", session_id: s.id, reply_id: replyId, finished_reason: "error", error: SETUP_ERROR }, {}, reply);
      this.#persist(s, index, reply);
      return;
    }
    if (last === undefined) return; // null input with nothing pending: nothing to answer
    const text = userText(last);
    const replyId = this.#id();
    s.lastReplyId = replyId;
    s.record.state.reply_id = replyId;
    const reply = this.#newReply(replyId, "Scripted");
    const index = s.stored.length;
    this.#publish(s, { type: "REPLY_START", session_id: s.id, reply_id: replyId, name: "Scripted", role: "assistant" }, {}, reply);
    if (s.replies === 0) {
      this.#publish(s, { type: "HINT_BLOCK", reply_id: replyId, block_id: this.#id(), source: HINT_SOURCE, hint: hintText(this.#clock()) }, {}, reply);
    }
    s.replies += 1;
    await this.#loop(s, run, { replyId, reply, index, text, results: [], attachments: describeAttachments(last) });
    // the auto-naming runs once the run let the session go (after persisting: SETTLE_MS)
    const first = users[0]!;
    void this.#sleep(SETTLE_MS + 1).then(() => {
      if (run.dead !== true) this.#afterFirst(s, first);
    });
  }

  #newReply(replyId: string, name: string): Msg {
    return this.#seeded(() => new Msg({ name, role: "assistant", content: [], id: replyId }));
  }

  /** Auto-naming after the session's first reply (ended or parked): `Chat: <first 40 chars>`, then CUSTOM session_updated (§ Scripted model policy). */
  #afterFirst(s: SimSession, first: MsgJSON): void {
    if (s.record.config.naming.auto !== true || s.deleted) return;
    const opening = userText(first).split("\n\n").at(-1)!.trim();
    s.record.config.name = `Chat: ${Array.from(opening).slice(0, 40).join("")}`;
    s.record.config.naming = { auto: false };
    this.#publish(s, { type: "CUSTOM", name: "session_updated", value: {} });
  }

  /**
   * The agent's reasoning–acting loop for one reply: model turns from the scripted policy
   * (model.ts), tools run (or the reply parks on a confirmation / an external result),
   * until a turn calls no tool; then REPLY_END and the reply persisted.
   */
  async #loop(s: SimSession, run: Run, r: { replyId: string; reply: Msg; index: number; text: string; results: string[]; attachments: string[] }): Promise<void> {
    const pub = (body: Json, metadata: Json = {}) => this.#publish(s, { reply_id: r.replyId, ...body }, metadata, r.reply);
    // (a resumed reply's earlier tool calls changed no state: only TaskCreate does, and it never parks)
    let changedState = false;
    for (;;) {
      const turn = scriptFor(r.text, r.results, r.attachments, { delayMs: this.#delayMs, slowMs: this.#slowMs });
      const outcome = await this.#modelCall(s, run, turn, pub);
      if (outcome === "interrupted" || outcome === "failed" || s.deleted) {
        if (outcome === "failed") pub({ type: "REPLY_END", session_id: s.id, finished_reason: "error", error: UNKNOWN_ERROR });
        else if (!s.deleted) pub({ type: "REPLY_END", session_id: s.id, finished_reason: "interrupted", error: null });
        if (!s.deleted) this.#persist(s, r.index, r.reply);
        return;
      }
      if (outcome.length === 0) break;
      // acting: each call in turn (§ Scripted model policy: which tools ask, which run)
      for (const call of outcome) {
        if (call.name === "Bash" && !isRunningKeyword(call.args.command) && s.record.state.permission_context.mode !== "bypass") {
          const block = { type: "tool_call", id: call.id, name: call.name, input: call.input, state: "asking", suggested_rules: [{ tool_name: "Bash", rule_content: `${call.args.command}:*`, behavior: "allow", source: "suggested" }], created_at: timestamp(this.#clock()), finished_at: null };
          pub({ type: "REQUIRE_USER_CONFIRM", tool_calls: [block] });
          s.parked = { kind: "confirm", replyId: r.replyId, calls: [block], text: r.text, index: r.index, results: r.results, resultStarted: false };
          this.#parkedReplies.set(r.replyId, r.reply);
          this.#persist(s, r.index, r.reply);
          return;
        }
        if (call.name === "AskUser") {
          pub({ type: "TOOL_RESULT_START", tool_call_id: call.id, tool_call_name: call.name });
          const block = { type: "tool_call", id: call.id, name: call.name, input: call.input, state: "submitted", suggested_rules: [], created_at: timestamp(this.#clock()), finished_at: null };
          pub({ type: "REQUIRE_EXTERNAL_EXECUTION", tool_calls: [block] });
          s.parked = { kind: "external", replyId: r.replyId, calls: [block], text: r.text, index: r.index, results: r.results, resultStarted: true };
          this.#parkedReplies.set(r.replyId, r.reply);
          this.#persist(s, r.index, r.reply);
          return;
        }
        const done = await this.#runTool(s, run, call, pub);
        if (call.name === "TaskCreate") changedState = true;
        r.results.push(done);
        if (run.cancelled) {
          pub({ type: "REPLY_END", session_id: s.id, finished_reason: "interrupted", error: null });
          this.#persist(s, r.index, r.reply);
          return;
        }
      }
    }
    pub({ type: "REPLY_END", session_id: s.id, finished_reason: "completed", error: null });
    this.#persist(s, r.index, r.reply);
    if (changedState) this.#publish(s, { type: "CUSTOM", name: "state_updated", value: this.#state(s) });
  }

  readonly #parkedReplies = new Map<string, Msg>();

  /** `{tasks_context, permission_context}` of CUSTOM state_updated (§ App events). */
  #state(s: SimSession): Json {
    return structuredClone({ tasks_context: s.record.state.tasks_context, permission_context: s.record.state.permission_context });
  }

  /**
   * One model call as OpenAIChatModel streams it: MODEL_CALL_START, text / thinking /
   * tool-call / audio blocks from the chunks, the blocks closed at the end, MODEL_CALL_END
   * with the usage. Resolves the tool calls, or "interrupted" / "failed".
   */
  async #modelCall(s: SimSession, run: Run, turn: Turn, pub: (body: Json, metadata?: Json) => Json): Promise<ToolCall[] | "interrupted" | "failed"> {
    pub({ type: "MODEL_CALL_START", model_name: MODEL_NAME });
    let text: string | undefined;
    let thinking: string | undefined;
    let data: string | undefined;
    const calls: ToolCall[] = [];
    let openCall: ToolCall | undefined;
    let out = 0;
    const closeText = () => {
      if (text !== undefined) pub({ type: "TEXT_BLOCK_END", block_id: text, text: null });
      text = undefined;
    };
    const closeThinking = () => {
      if (thinking !== undefined) pub({ type: "THINKING_BLOCK_END", block_id: thinking });
      thinking = undefined;
    };
    const interrupted = () => {
      closeThinking();
      closeText();
      if (openCall !== undefined) pub({ type: "TOOL_CALL_END", tool_call_id: openCall.id });
      if (data !== undefined) pub({ type: "DATA_BLOCK_END", block_id: data });
      pub({ type: "MODEL_CALL_END", input_tokens: 0, output_tokens: 0, cache_input_tokens: 0, cache_creation_input_tokens: 0, finished_reason: "interrupted" });
      return "interrupted" as const;
    };
    for (const step of turn) {
      if (run.cancelled || s.deleted) return interrupted();
      await this.#sleep(step.kind === "sleep" ? step.ms : 0, run);
      if (run.cancelled || s.deleted) return interrupted();
      switch (step.kind) {
        case "sleep":
          break;
        case "fail":
          return "failed";
        case "thinking":
          out += 1;
          if (thinking === undefined) {
            thinking = this.#id();
            pub({ type: "THINKING_BLOCK_START", block_id: thinking });
          }
          pub({ type: "THINKING_BLOCK_DELTA", block_id: thinking, delta: step.delta });
          break;
        case "text":
          out += 1;
          closeThinking();
          if (text === undefined) {
            text = this.#id();
            pub({ type: "TEXT_BLOCK_START", block_id: text });
          }
          pub({ type: "TEXT_BLOCK_DELTA", block_id: text, delta: step.delta });
          break;
        case "audio":
          out += 1;
          if (text === undefined) {
            text = this.#id();
            pub({ type: "TEXT_BLOCK_START", block_id: text });
          }
          pub({ type: "TEXT_BLOCK_DELTA", block_id: text, delta: step.transcript });
          if (data === undefined) {
            data = this.#id();
            pub({ type: "DATA_BLOCK_START", block_id: data, media_type: "audio/wav", name: null });
          }
          pub({ type: "DATA_BLOCK_DELTA", block_id: data, media_type: "audio/wav", data: WAV_CHUNKS_B64[step.index]!, url: null });
          break;
        case "call": {
          // (a call's END comes once the next call's first chunk was read: § Captured sequences)
          out += 2;
          closeThinking();
          closeText();
          const call: ToolCall = { id: this.#callId(), name: step.name, args: step.args, input: step.input };
          const half = Math.floor(call.input.length / 2);
          pub({ type: "TOOL_CALL_START", tool_call_id: call.id, tool_call_name: call.name });
          pub({ type: "TOOL_CALL_DELTA", tool_call_id: call.id, delta: call.input.slice(0, half) });
          if (openCall !== undefined) pub({ type: "TOOL_CALL_END", tool_call_id: openCall.id });
          await this.#sleep(0, run);
          if (run.cancelled || s.deleted) {
            openCall = call;
            return interrupted();
          }
          pub({ type: "TOOL_CALL_DELTA", tool_call_id: call.id, delta: call.input.slice(half) });
          openCall = call;
          calls.push(call);
          break;
        }
      }
    }
    closeThinking();
    closeText();
    if (openCall !== undefined) pub({ type: "TOOL_CALL_END", tool_call_id: openCall.id });
    if (data !== undefined) pub({ type: "DATA_BLOCK_END", block_id: data });
    pub({ type: "MODEL_CALL_END", input_tokens: 10, output_tokens: out, cache_input_tokens: 0, cache_creation_input_tokens: 0, finished_reason: "completed" });
    return calls;
  }

  /** Runs a tool that needs no answer: its result events (§ Scripted model policy, § App events); resolves its text output. */
  async #runTool(s: SimSession, run: Run, call: ToolCall, pub: (body: Json, metadata?: Json) => Json): Promise<string> {
    const start = () => pub({ type: "TOOL_RESULT_START", tool_call_id: call.id, tool_call_name: call.name });
    const textDelta = (delta: string) => pub({ type: "TOOL_RESULT_TEXT_DELTA", tool_call_id: call.id, delta });
    const end = (state = "success") => pub({ type: "TOOL_RESULT_END", tool_call_id: call.id, state });
    await this.#sleep(0, run);
    switch (call.name) {
      case "Bash": {
        const out = /^echo (.*)$/.exec(String(call.args.command));
        const text = out === null ? "" : `${out[1]}\n`;
        start();
        textDelta(text);
        end();
        return text;
      }
      case "ScriptedImage":
        start();
        textDelta("A 1x1 PNG:");
        pub({ type: "TOOL_RESULT_DATA_DELTA", tool_call_id: call.id, block_id: this.#id(), media_type: "image/png", data: TINY_PNG_B64, url: null });
        end();
        return "A 1x1 PNG:";
      case "TaskCreate": {
        const id = String(s.tasks.length + 1);
        s.tasks.push({ subject: call.args.subject, description: call.args.description, metadata: {}, created_at: timestamp(this.#clock()), state: "pending", id, owner: null, blocks: [], blocked_by: [] });
        // StateChangeMiddleware.on_acting: right after the tool ran, before its TOOL_RESULT_START
        this.#publish(s, { type: "CUSTOM", name: "state_updated", value: this.#state(s) });
        const text = `Task (id=${id}) created successfully: ${call.args.subject}`;
        start();
        textDelta(text);
        end();
        return text;
      }
      case "ScriptedProgress": {
        start();
        const steps = Number(call.args.steps ?? 3);
        for (let i = 1; i <= steps; i++) {
          await this.#sleep(10, run);
          if (run.cancelled) break;
          this.#publish(s, { type: "CUSTOM", name: "mcp_progress", value: { progress: i, total: steps, message: `step ${i}`, reply_id: s.lastReplyId, tool_call_id: call.id } });
        }
        if (run.cancelled) {
          textDelta(INTERRUPTED_TEXT);
          end("interrupted");
          return INTERRUPTED_TEXT;
        }
        textDelta("progress-done");
        end();
        return "progress-done";
      }
      default: {
        const text = `Tool ${call.name} is not available.`;
        start();
        textDelta(text);
        end("error");
        return text;
      }
    }
  }

  /** A USER_CONFIRM_RESULT / EXTERNAL_EXECUTION_RESULT (§ USER_CONFIRM_RESULT, § EXTERNAL_EXECUTION_RESULT, § Resume). */
  async #answer(s: SimSession, run: Run, input: Json): Promise<boolean | void> {
    const p = s.parked;
    if (s.deleted || p === undefined || input.reply_id !== p.replyId) return false;
    const reply = this.#parkedReplies.get(p.replyId)!;
    const pub = (body: Json, metadata: Json = {}) => this.#publish(s, { reply_id: p.replyId, ...body }, metadata, reply);
    const start = () => pub({ type: "REPLY_START", session_id: s.id, reply_id: p.replyId, name: "Scripted", role: "assistant" });
    const call = p.calls[0];
    if (input.type === "USER_CONFIRM_RESULT" && p.kind === "confirm") {
      const results = (Array.isArray(input.confirm_results) ? input.confirm_results : []).map((c: Json) => ({ confirmed: c?.confirmed === true, tool_call: c?.tool_call, rules: c?.rules ?? null }));
      pub({ type: "USER_CONFIRM_RESULT", confirm_results: results });
      const mine = results.find((c: Json) => c.tool_call?.id === call.id);
      if (mine === undefined) return;
      s.parked = undefined;
      start();
      pub({ type: "TOOL_RESULT_START", tool_call_id: call.id, tool_call_name: call.name });
      const text = mine.confirmed ? "" : DENIED_TEXT;
      pub({ type: "TOOL_RESULT_TEXT_DELTA", tool_call_id: call.id, delta: text });
      pub({ type: "TOOL_RESULT_END", tool_call_id: call.id, state: mine.confirmed ? "success" : "denied" });
      p.results.push(text);
    } else if (input.type === "EXTERNAL_EXECUTION_RESULT" && p.kind === "external") {
      const results = (Array.isArray(input.execution_results) ? input.execution_results : []).map((r: Json) => ({ type: "tool_result", id: r?.id, name: r?.name, output: r?.output, state: r?.state ?? "success", metadata: r?.metadata ?? {}, created_at: timestamp(this.#clock()), finished_at: null }));
      pub({ type: "EXTERNAL_EXECUTION_RESULT", execution_results: results });
      const mine = results.find((r: Json) => r.id === call.id);
      const answers = mine?.metadata?.answers;
      const valid = mine !== undefined && (mine.state !== "success" || (Array.isArray(answers) && answers.every((a: Json) => typeof a?.question === "string" && Array.isArray(a?.selected))));
      if (!valid) {
        // AskUser refuses the result: an error end, not persisted; the session stays parked
        this.#publish(s, { type: "REPLY_START", session_id: s.id, reply_id: p.replyId, name: "Scripted", role: "assistant" });
        this.#publish(s, { type: "REPLY_END", session_id: s.id, reply_id: p.replyId, finished_reason: "error", error: UNKNOWN_ERROR });
        return false;
      }
      s.parked = undefined;
      start();
      const output = typeof mine.output === "string" ? mine.output : JSON.stringify(mine.output);
      pub({ type: "TOOL_RESULT_TEXT_DELTA", tool_call_id: call.id, delta: output });
      pub({ type: "TOOL_RESULT_END", tool_call_id: call.id, state: mine.state }, mine.metadata);
      p.results.push(output);
    } else {
      return;
    }
    this.#parkedReplies.delete(p.replyId);
    await this.#loop(s, run, { replyId: p.replyId, reply, index: p.index, text: p.text, results: p.results, attachments: [] });
  }

  /**
   * `POST /sessions/{sid}/interrupt` (§ POST …/interrupt): a running reply is cancelled
   * (its open blocks closed, REPLY_END interrupted); otherwise a resume with the interrupt
   * queues: a parked reply ends interrupted (REPLY_START, TOOL_RESULT_* interrupted,
   * REPLY_END), an idle session gets a lone REPLY_START of its last reply. An interrupt
   * that lands while a run still holds the lock after it parked is lost (the reply stays
   * parked: the other outcome 2.0.11 shows, by timing).
   */
  #interrupt(s: SimSession): void {
    if (s.run !== undefined) {
      s.run.cancelled = true;
      s.run.wake?.();
      return;
    }
    this.#enqueue(s, 0, async () => {
      const p = s.parked;
      if (p === undefined) {
        if (s.lastReplyId !== null) this.#publish(s, { type: "REPLY_START", session_id: s.id, reply_id: s.lastReplyId, name: "Scripted", role: "assistant" });
        return;
      }
      const reply = this.#parkedReplies.get(p.replyId)!;
      const pub = (body: Json) => this.#publish(s, { reply_id: p.replyId, ...body }, {}, reply);
      s.parked = undefined;
      pub({ type: "REPLY_START", session_id: s.id, name: "Scripted", role: "assistant" });
      for (const call of p.calls) {
        if (!p.resultStarted) pub({ type: "TOOL_RESULT_START", tool_call_id: call.id, tool_call_name: call.name });
        pub({ type: "TOOL_RESULT_TEXT_DELTA", tool_call_id: call.id, delta: INTERRUPTED_TEXT });
        pub({ type: "TOOL_RESULT_END", tool_call_id: call.id, state: "interrupted" });
      }
      pub({ type: "REPLY_END", session_id: s.id, finished_reason: "interrupted", error: null });
      this.#parkedReplies.delete(p.replyId);
      this.#persist(s, p.index, reply);
    });
  }
}

/** A 1x1 transparent PNG (the ScriptedImage tool's result). */
const TINY_PNG_B64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** The runtime-state hint of a session's first reply (HINT_BLOCK), at the current time. */
function hintText(ms: number): string {
  const now = new Date(ms).toISOString().slice(0, 19);
  return `<system-reminder>Treat the following as the ground truth at this point of the conversation. Anything stated earlier is outdated, and a later reminder, if any, supersedes this one:\n<current-time>${now}</current-time>\n<timezone>UTC</timezone>\n</system-reminder>`;
}

/** The text a user message gives the model: its text blocks joined with "\n", system reminders left out. */
function userText(m: MsgJSON): string {
  return m.content
    .filter((b): b is Extract<typeof b, { type: "text" }> => b.type === "text")
    .map((b) => b.text)
    .filter((t) => !/^\s*<system-(reminder|notification)>/.test(t))
    .join("\n")
    .trim();
}
