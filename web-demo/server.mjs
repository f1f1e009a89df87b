// The demo server: serves the page and the built npm package, and streams real
// AgentScope recordings (examples/recordings/) over SSE, paced like the original run.
//
//   node web-demo/server.mjs [--port 8787] [--speed 1]      (npm run demo)
//
// GET  /api/scenarios                 the scenarios, with the user turns to show
// GET  /api/stream/:scenario?session=S&speed=X
//      SSE: one `id: <n>` + `data: <event JSON>` frame per event. A reconnect with
//      `Last-Event-ID: n` resumes at event n+1. Confirmation and external-execution
//      recordings pause where the reference's reply parked, until
// POST /api/decide  {session, decision: "approve" | "deny" | "submit", answers?}
//      continues with the recorded continuation (409 when the recording answered
//      otherwise: g1 was approved, g2 denied). `answers` (the page's ask-the-user form:
//      [{question, selected: [labels], other}]) must be the answer the recording gave
//      (h_external_execution: "Rust (Recommended)"), or it is a 409 too.
// Limits: a request body over 64 KiB is refused with 413; at most `maxSessions` (1,000)
// sessions are kept, each dropped after `sessionTtlMs` (30 min) without a request, and a
// parked stream ends when its client goes away. A bad request gets a 4xx, never a crash.
// Test hooks: `dropAfter=N` closes the connection once after event N (reconnect test);
// `overlap=K` makes a resumed stream start K events before the one asked for, as a
// proxy retry would (the client's dedup must skip them).
// The recordings are framed by the package's own framer (`splitEvents`), so pkg/ must be
// built (`node web-demo/server.mjs` builds it when missing).
//
// Live mode (`node web-demo/server.mjs --live`, `scripts/demo --live`): the page is a chat
// with a live AgentScope 2.0 service (`agentscope-message/chat`). The command starts
// `scripts/agentscope-service` (the offline scripted service), waits for its JSON line and
// stops it on SIGINT / SIGTERM; `startDemoServer({live: {url, agentId, userId,
// chatModelConfig}})` takes a service that runs already. The service has no CORS, so the
// page reaches it through this server: an allowlist of `/api/sessions/…` and `/api/chat/`
// requests (`LIVE_ROUTES`: the sessions of the demo's agent, their messages, stream, status
// and interrupt, `POST /chat/`) is forwarded with `/api` stripped (the answer streamed back,
// SSE included), with the demo's `agent_id`, the service's `X-User-ID` (the browser's is
// dropped) and a body of at most 16 MiB (413 above); anything else is a 403 / 404 that never
// reaches the service (credentials, agents, other agents' sessions). The page learns the agent,
// user and model config from a `<meta name="agentscope-live">` in the served HTML.
import { createServer, request } from "node:http";
import { execFileSync, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { createHash } from "node:crypto";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const recordingsDir = join(root, "examples/recordings");

/** Scenarios: every recording, with its events, phases and the user turns. */
function loadScenarios(splitEvents) {
  const scenarios = new Map();
  for (const id of readdirSync(recordingsDir).sort()) {
    const dir = join(recordingsDir, id);
    if (!existsSync(join(dir, "manifest.json"))) continue;
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
    const lines = splitEvents(readFileSync(join(dir, "events.jsonl")));
    // the recorded times, for pacing (the server reads them; the page never parses events)
    const times = lines.map((line) => Date.parse(JSON.parse(line).created_at));
    const phases = (manifest.phases ?? []).map((p) => ({
      first: p.published_events_lines[0],
      last: p.published_events_lines[1],
      user: p.input?.role === "user" ? { name: p.input.name, text: textOf(p.input) } : null,
      // the decision that starts this phase (what the user answered, as recorded)
      answers: answerOf(p.input),
      // what the user answered an ask-the-user tool (AskUser's result metadata), if any
      recorded: recordedAnswers(p.input),
    }));
    // the stream parks where the reference's reply waited for the user's answer; a new
    // user turn (another reply) follows without a pause
    const pauses = phases
      .slice(1)
      .map((p, i) => ({ after: phases[i].last, answers: p.answers, recorded: p.recorded }))
      .filter((p) => p.answers !== null);
    scenarios.set(id, { id, description: manifest.description, lines, times, phases, pauses });
  }
  return scenarios;
}

function textOf(msg) {
  return (msg.content ?? []).filter((b) => b.type === "text").map((b) => b.text).join("\n");
}

function answerOf(input) {
  if (input?.type === "USER_CONFIRM_RESULT") return input.confirm_results.every((r) => r.confirmed) ? "approve" : "deny";
  if (input?.type === "EXTERNAL_EXECUTION_RESULT") return "submit";
  return null;
}

function recordedAnswers(input) {
  if (input?.type !== "EXTERNAL_EXECUTION_RESULT") return null;
  const answers = (input.execution_results ?? []).flatMap((r) => r.metadata?.answers ?? []);
  return answers.length > 0 ? answers : null;
}

/** Does the page's answer (`[{question, selected, other}]`) say what the recording said? */
function sameAnswers(recorded, given) {
  if (!Array.isArray(given)) return false;
  return recorded.every((r) => {
    const g = given.find((a) => a && a.question === r.question);
    const selected = Array.isArray(g?.selected) ? g.selected : [];
    return (
      g !== undefined &&
      selected.length === (r.selected ?? []).length &&
      (r.selected ?? []).every((label) => selected.includes(label)) &&
      (g.other || null) === (r.other || null)
    );
  });
}

const quoteAnswers = (recorded) =>
  recorded.map((r) => [...(r.selected ?? []), ...(r.other ? [r.other] : [])].map((a) => `"${a}"`).join(", ")).join("; ");

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".png": "image/png",
};

// Files the page may load: the page itself, the package, and the vendored libraries.
const STATIC = [
  ["/pkg/", join(root, "pkg/dist/")],
  ["/vendor/marked/", join(root, "node_modules/marked/lib/")],
  ["/vendor/dompurify/", join(root, "node_modules/dompurify/dist/")],
  ["/", join(root, "web-demo/public/")],
];

const IMPORT_MAP = JSON.stringify({
  imports: {
    "agentscope-message": "/pkg/index.js",
    "agentscope-message/message": "/pkg/entry-message.js",
    "agentscope-message/session": "/pkg/entry-session.js",
    "agentscope-message/chat": "/pkg/chat.js",
    "#init": "/pkg/init-web.js",
    "#wasm": "/pkg/wasm-web.js",
    marked: "/vendor/marked/marked.esm.js",
    dompurify: "/vendor/dompurify/purify.es.mjs",
  },
});

/** The page; in live mode with what the page needs to reach the service (as a `<meta>`). */
function page(live) {
  const html = readFileSync(join(root, "web-demo/public/index.html"), "utf8");
  let head = `<script type="importmap">${IMPORT_MAP}</script>`;
  if (live) {
    const config = { baseUrl: "/api", agentId: live.agentId, userId: live.userId, chatModelConfig: live.chatModelConfig ?? null };
    head = `<meta name="agentscope-live" content="${escapeAttribute(JSON.stringify(config))}">\n  ${head}`;
  }
  return html.replace("<!-- IMPORT_MAP -->", head);
}

const escapeAttribute = (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// What the live page may ask of the service through `/api` (method, route after `/api`):
// the sessions of the demo's own agent (list, create, rename / permission mode, delete, their
// messages, stream, status, interrupt) and `POST /chat/`. Nothing else reaches the service.
const ID = "[A-Za-z0-9_-]{1,64}";
const LIVE_ROUTES = [
  ["GET", /^\/sessions\/$/],
  ["POST", /^\/sessions\/$/],
  ["PATCH", new RegExp(`^/sessions/${ID}$`)],
  ["DELETE", new RegExp(`^/sessions/${ID}$`)],
  ["GET", new RegExp(`^/sessions/${ID}/(?:messages|stream|status)$`)],
  ["POST", new RegExp(`^/sessions/${ID}/interrupt$`)],
  ["POST", /^\/chat\/$/],
];
// The fields a PATCH may set (rename, permission mode).
const PATCHABLE = new Set(["name", "permission_mode"]);
// The largest request body forwarded (attachments go inline as base64 in `POST /chat/`).
export const MAX_LIVE_BODY = 16 * 1024 * 1024;
// Request headers forwarded to the service; the rest (the browser's own `X-User-ID`, cookies,
// hop-by-hop headers, …) are dropped. `X-User-ID` is always the service's user.
const FORWARD = new Set(["accept", "content-type", "last-event-id", "cache-control"]);

/** Reads a request body, at most `limit` bytes; resolves null when it is larger. */
async function readBody(req, limit) {
  if (Number(req.headers["content-length"] ?? 0) > limit) return null;
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Forwards an allowed `/api/<route>` to the live service as `<route>`, streaming the answer
 * back (SSE included): the agent is always the demo's (`agent_id` in the query and in a JSON
 * body), the user always the service's, a body over `MAX_LIVE_BODY` is a 413.
 */
async function proxy(req, res, url, live, headers) {
  const path = url.pathname.slice("/api".length);
  const refuse = (status, detail) => {
    res.writeHead(status, { ...headers, "content-type": "application/json", connection: "close" });
    res.end(JSON.stringify({ detail }));
    req.resume();
  };
  if (!/^\/(?:sessions|chat)\//.test(path)) return refuse(404, `the demo does not forward ${path}`);
  if (!LIVE_ROUTES.some(([method, route]) => method === req.method && route.test(path))) {
    return refuse(403, `the demo does not forward ${req.method} ${path}`);
  }
  let body;
  if (req.method === "POST" || req.method === "PATCH") {
    const raw = await readBody(req, MAX_LIVE_BODY);
    if (raw === null) return refuse(413, `the body is over ${MAX_LIVE_BODY} bytes`);
    let json = {};
    try {
      if (raw.length > 0) json = JSON.parse(raw.toString("utf8"));
    } catch {
      return refuse(400, "the body must be JSON");
    }
    if (typeof json !== "object" || json === null || Array.isArray(json)) return refuse(400, "the body must be a JSON object");
    if (req.method === "PATCH" && !Object.keys(json).every((k) => PATCHABLE.has(k))) {
      return refuse(403, `the demo forwards a PATCH of ${[...PATCHABLE].join(" / ")} only`);
    }
    if (req.method === "POST" && !path.endsWith("/interrupt")) json.agent_id = live.agentId;
    body = Buffer.from(JSON.stringify(json));
  } else {
    req.resume();
  }
  const query = new URLSearchParams(url.search);
  query.set("agent_id", live.agentId);
  const target = `${live.url.replace(/\/+$/, "")}${path}?${query}`;
  const forwarded = Object.fromEntries(Object.entries(req.headers).filter(([k]) => FORWARD.has(k)));
  forwarded["x-user-id"] = live.userId;
  if (body !== undefined) {
    forwarded["content-type"] = "application/json";
    forwarded["content-length"] = String(body.length);
  }
  const out = request(target, { method: req.method, headers: forwarded }, (up) => {
    const back = { ...up.headers, ...headers };
    delete back.connection;
    delete back["keep-alive"];
    res.writeHead(up.statusCode ?? 502, back);
    res.flushHeaders();
    up.pipe(res);
    up.on("error", () => res.destroy());
  });
  out.on("error", () => {
    if (res.headersSent) return void res.destroy();
    res.writeHead(502, { ...headers, "content-type": "application/json" });
    res.end(JSON.stringify({ detail: "the AgentScope service cannot be reached" }));
  });
  // the page went away (a closed tab, an aborted stream): so does the upstream request
  res.on("close", () => out.destroy());
  out.end(body);
}

/** The Content-Security-Policy: no inline script but the import map (by hash). */
function csp() {
  const hash = createHash("sha256").update(IMPORT_MAP).digest("base64");
  return [
    "default-src 'self'",
    `script-src 'self' 'wasm-unsafe-eval' 'sha256-${hash}'`,
    "style-src 'self'",
    "img-src 'self' data: https: http:",
    "media-src 'self' data: https: http:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Delay before event i: the recorded gap, clamped, divided by the speed factor. */
function delay(scenario, i, speed) {
  if (!(speed > 0) || i === 0) return 0;
  const gap = scenario.times[i] - scenario.times[i - 1];
  // at most 10 s whatever the speed (a tiny speed must not overflow the timer)
  return Math.min(Math.min(Math.max(Number.isFinite(gap) ? gap : 30, 15), 400) / speed, 10_000);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const MAX_BODY = 64 * 1024;

export async function startDemoServer({
  port = 8787,
  host = "127.0.0.1",
  speed: defaultSpeed = 1,
  maxSessions = 1000,
  sessionTtlMs = 30 * 60 * 1000,
  live = null,
} = {}) {
  if (live !== null && (typeof live?.url !== "string" || typeof live.agentId !== "string" || typeof live.userId !== "string")) {
    throw new TypeError("startDemoServer: live must be {url, agentId, userId, chatModelConfig}");
  }
  // imported here, not at the top: the command line below builds pkg/ first when missing
  const { splitEvents } = await import("../pkg/dist/index.js");
  const scenarios = loadScenarios(splitEvents);
  // session id -> { decisions: Map<pauseIndex, {decision, resolve, promise}>, dropped, used }
  // (a Map keeps insertion order: the first entries are the least recently used)
  const sessions = new Map();
  const headers = { "content-security-policy": csp(), "x-content-type-options": "nosniff", "referrer-policy": "no-referrer" };

  const sessionOf = (id) => {
    const now = Date.now();
    const session = sessions.get(id) ?? { decisions: new Map(), dropped: false };
    sessions.delete(id);
    session.used = now;
    sessions.set(id, session);
    for (const [old, s] of sessions) {
      if (sessions.size <= maxSessions && now - s.used <= sessionTtlMs) break;
      sessions.delete(old);
    }
    return session;
  };
  const decisionSlot = (session, k) => {
    if (!session.decisions.has(k)) {
      let resolve;
      const promise = new Promise((r) => (resolve = r));
      session.decisions.set(k, { decision: null, resolve, promise });
    }
    return session.decisions.get(k);
  };

  async function stream(req, res, scenario, url) {
    const session = sessionOf(url.searchParams.get("session") ?? "default");
    const speed = Number(url.searchParams.get("speed") ?? defaultSpeed);
    const dropAfter = Number(url.searchParams.get("dropAfter") ?? 0);
    const overlap = Number(url.searchParams.get("overlap") ?? 0) || 0;
    const lastEventId = Number(req.headers["last-event-id"] ?? 0) || 0;
    const resumeFrom = lastEventId > 0 ? Math.max(0, lastEventId - overlap) : 0;
    res.writeHead(200, { ...headers, "content-type": "text/event-stream", "cache-control": "no-store", connection: "keep-alive" });
    res.write(": AgentScope event stream\nretry: 200\n\n");
    let closed = false;
    let onClose;
    const gone = new Promise((resolve) => (onClose = resolve));
    req.on("close", () => {
      closed = true;
      onClose();
    });
    for (let i = resumeFrom; i < scenario.lines.length && !closed; i++) {
      const pause = scenario.pauses.findIndex((p) => p.after === i); // 1-based line i = event i
      if (pause >= 0) {
        res.write(`event: paused\ndata: ${JSON.stringify({ answers: scenario.pauses[pause].answers })}\n\n`);
        // a client that goes away while parked ends the stream (nothing waits forever)
        await Promise.race([decisionSlot(session, pause).promise, gone]);
        if (closed) return;
      }
      await sleep(delay(scenario, i, speed));
      if (closed) return;
      // an event's JSON text is one line, but a data field must never carry a line end
      const data = scenario.lines[i].split(/\r\n|\r|\n/).map((l) => `data: ${l}\n`).join("");
      if (dropAfter > 0 && i + 1 === dropAfter && !session.dropped) {
        session.dropped = true;
        // drop the connection a moment after this frame is flushed, with a FIN in the
        // middle of the chunked body (a browser may discard what it has not handed to the
        // page yet when a connection fails); the client reconnects with Last-Event-ID
        res.write(`id: ${i + 1}\n${data}\n`, () => setTimeout(() => res.socket?.end(), 150));
        return;
      }
      res.write(`id: ${i + 1}\n${data}\n`);
    }
    if (!closed) res.end("event: end\ndata: {}\n\n");
  }

  async function decide(req, res) {
    const chunks = [];
    let size = 0;
    for await (const chunk of req) {
      size += chunk.length;
      if (size > MAX_BODY) {
        send(res, 413, { error: `the body is over ${MAX_BODY} bytes` });
        return void req.destroy();
      }
      chunks.push(chunk);
    }
    let input;
    try {
      input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return send(res, 400, { error: "body must be JSON" });
    }
    if (typeof input !== "object" || input === null || typeof input.session !== "string") {
      return send(res, 400, { error: "body must be an object {session, scenario, decision}" });
    }
    const session = sessions.get(input.session);
    const scenario = scenarios.get(input.scenario);
    if (!session || !scenario) return send(res, 404, { error: "unknown session or scenario" });
    const k = scenario.pauses.findIndex((_, j) => !session.decisions.get(j)?.decision);
    if (k < 0) return send(res, 409, { error: "nothing is waiting for a decision" });
    const want = scenario.pauses[k].answers;
    if (input.decision !== want) {
      return send(res, 409, { error: `this recording continues after "${want}"; only that answer has a recorded continuation` });
    }
    const recorded = scenario.pauses[k].recorded;
    if (recorded && input.answers !== undefined && !sameAnswers(recorded, input.answers)) {
      return send(res, 409, { error: `this recording continues after the answer ${quoteAnswers(recorded)}; only that answer has a recorded continuation` });
    }
    const slot = decisionSlot(session, k);
    slot.decision = input.decision;
    slot.resolve();
    send(res, 200, { ok: true });
  }

  function send(res, status, json) {
    res.writeHead(status, { ...headers, "content-type": "application/json" });
    res.end(JSON.stringify(json));
  }

  function serveStatic(res, pathname) {
    if (pathname === "/" || pathname === "/index.html") {
      res.writeHead(200, { ...headers, "content-type": TYPES[".html"], "cache-control": "no-store" });
      return res.end(page(live));
    }
    for (const [prefix, dir] of STATIC) {
      if (!pathname.startsWith(prefix)) continue;
      const file = normalize(join(dir, pathname.slice(prefix.length)));
      if (!file.startsWith(dir) || !existsSync(file)) break;
      try {
        const body = readFileSync(file);
        res.writeHead(200, { ...headers, "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
        return res.end(body);
      } catch {
        break;
      }
    }
    res.writeHead(404, headers).end("not found");
  }

  // any failure of a request is that request's 4xx/5xx, never the process's
  const server = createServer((req, res) => {
    try {
      route(req, res);
    } catch (e) {
      fail(res, e);
    }
  });
  function fail(res, e) {
    if (res.headersSent) return void res.destroy();
    send(res, e instanceof URIError ? 400 : 500, { error: e instanceof URIError ? "bad percent-encoding" : "internal error" });
  }

  function route(req, res) {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (live && (url.pathname === "/api" || url.pathname.startsWith("/api/"))) return void proxy(req, res, url, live, headers).catch((e) => fail(res, e));
    const match = /^\/api\/stream\/([\w-]+)$/.exec(url.pathname);
    if (req.method === "GET" && url.pathname === "/api/scenarios") {
      return send(res, 200, [...scenarios.values()].map(({ id, description, phases, pauses }) => ({
        id,
        description,
        users: phases.map((p) => p.user),
        pauses: pauses.map((p) => ({ after: p.after, answers: p.answers })),
      })));
    }
    if (req.method === "GET" && match) {
      const scenario = scenarios.get(match[1]);
      if (!scenario) return send(res, 404, { error: "unknown scenario" });
      return void stream(req, res, scenario, url).catch(() => res.destroy());
    }
    if (req.method === "POST" && url.pathname === "/api/decide") return void decide(req, res).catch((e) => fail(res, e));
    if (req.method === "GET") return serveStatic(res, decodeURIComponent(url.pathname));
    res.writeHead(405, headers).end();
  }

  return new Promise((resolve) => {
    server.listen(port, host, () => {
      const { port: actual } = server.address();
      resolve({ server, url: `http://${host}:${actual}/`, live: live !== null, sessions: () => sessions.size, close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) });
    });
  });
}

/**
 * Starts `scripts/agentscope-service` (its stderr, e.g. the venv install of a first run,
 * goes to this process's stderr; with `quiet`, only to `log()`: its last 20,000 characters). `ready` resolves once the service printed its JSON line,
 * with the `live` options of `startDemoServer`; `stop()` sends it SIGTERM and resolves on
 * its exit (callable at any time, also while it starts); `exited` resolves when it exits.
 */
export function startAgentScopeService({ env = {}, quiet = false, args = [] } = {}) {
  const child = spawn(join(root, "scripts/agentscope-service"), args, { cwd: root, stdio: ["ignore", "pipe", quiet ? "pipe" : "inherit"], env: { ...process.env, ...env } });
  let stderr = "";
  child.stderr?.on("data", (d) => void (stderr = (stderr + d).slice(-20_000)));
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    return exited;
  };
  const ready = new Promise((resolve, reject) => {
    void exited.then((code) => reject(new Error(`scripts/agentscope-service exited (${code}) before it was ready\n${stderr}`)));
    createInterface({ input: child.stdout }).once("line", (line) => {
      try {
        const info = JSON.parse(line);
        resolve({ url: info.urls[0], agentId: info.agent_id, userId: info.user_id, chatModelConfig: info.chat_model_config, info });
      } catch {
        void stop();
        reject(new Error(`scripts/agentscope-service printed ${line}`));
      }
    });
  });
  return { pid: child.pid, ready, stop, exited, log: () => stderr };
}

// `node web-demo/server.mjs [--live]`: build what is missing, then serve.
if (process.argv[1] && fileURLToPath(import.meta.url) === normalize(process.argv[1])) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : fallback;
  };
  if (!existsSync(join(root, "pkg/dist/index.js"))) {
    console.log("web-demo: building the npm package first (node scripts/build-pkg.mjs)");
    execFileSync("node", [join(root, "scripts/build-pkg.mjs")], { stdio: "inherit", cwd: root });
  }
  let service = null;
  let demo = null;
  let stopping = false;
  const shutdown = async (code) => {
    if (stopping) return;
    stopping = true;
    await Promise.all([demo?.close(), service?.stop()]);
    process.exit(code);
  };
  // Ctrl-C / SIGTERM stop the service too (also while its venv installs)
  process.on("SIGINT", () => void shutdown(0));
  process.on("SIGTERM", () => void shutdown(0));
  let live = null;
  if (process.argv.includes("--live")) {
    console.log("web-demo: starting the AgentScope service (scripts/agentscope-service; a first run makes its venv)…");
    service = startAgentScopeService();
    try {
      live = await service.ready;
    } catch (e) {
      if (!stopping) console.error(`web-demo: ${e.message}`);
      await shutdown(1);
    }
    // the service going away ends the demo: nothing is left to talk to
    void service.exited.then((code) => {
      if (!stopping) console.error(`web-demo: the AgentScope service exited (${code})`);
      void shutdown(1);
    });
    if (live) console.log(`web-demo: AgentScope service at ${live.url} (agent ${live.agentId})`);
  }
  if (!stopping) {
    demo = await startDemoServer({ port: arg("port", Number(process.env.PORT ?? 8787)), speed: arg("speed", 1), live });
    console.log(`web-demo: open ${demo.url}${live ? "  (live: a chat with the AgentScope service)" : ""}  (Ctrl-C to stop)`);
  }
}
