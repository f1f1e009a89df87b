// `useSessions` (agentscope-message/react) and `dataBlock` (agentscope-message/chat) in
// Chromium against the live AgentScope 2.0.11 service (scripts/agentscope-service), with
// the package as users get it: `npm pack`, installed into a scratch consumer, the page
// tests/chat-app/sessions.jsx under <StrictMode> built by Vite 8 (a production build, and
// the dev server for StrictMode's double mount). The service has no CORS: one node server
// serves the page and forwards `/api/*` to it (same origin), counting requests. What the
// page lists is checked against the service's own list (`GET /sessions/`).
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { extname, join, normalize } from "node:path";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { build, createServer as createViteServer, type ViteDevServer } from "vite";
import { installPackedPackage, type Json, launchChromium, root, listenLoopback } from "./helpers.ts";
import { api, startService, type Service } from "./service.ts";

mkdirSync(join(root, "target"), { recursive: true });
const scratch = mkdtempSync(join(root, "target", "sessions-browser-"));
const app = join(scratch, "app");
const dist = join(scratch, "dist");
const WAIT = 60_000;
const TEST = { timeout: 180_000 };

let service: Service | undefined;
let browser: Browser | undefined;
let server: Server | undefined;
let vite: ViteDevServer | undefined;
let base = "";
let closeServer: (() => Promise<void>) | undefined;
/** `/api` requests as `METHOD /path` (the service's path, no query), in order. */
const requests: string[] = [];
/** Paths of `.wasm` files served. */
const wasm: string[] = [];

function forward(req: IncomingMessage, res: ServerResponse): void {
  const path = req.url!.slice("/api".length) || "/";
  requests.push(`${req.method} ${path.split("?")[0]}`);
  const upstream = new URL(service!.url);
  const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path, headers: { ...req.headers, host: upstream.host } }, (up) => {
    res.writeHead(up.statusCode ?? 502, up.headers);
    up.pipe(res);
  });
  out.on("error", () => res.socket?.destroy());
  req.pipe(out);
}

const types: Record<string, string> = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".wasm": "application/wasm" };

function serveBuilt(pathname: string, res: ServerResponse): void {
  const path = normalize(join(dist, decodeURIComponent(pathname)));
  if (!path.startsWith(dist) || !existsSync(path)) {
    res.writeHead(404).end();
    return;
  }
  if (path.endsWith(".wasm")) wasm.push(pathname);
  res.writeHead(200, { "content-type": types[extname(path)] ?? "application/octet-stream", "cache-control": "no-store" });
  res.end(readFileSync(path));
}

before(async () => {
  const started = startService({ AGENTSCOPE_SERVICE_DELAY_MS: "1" });
  started.catch(() => {}); // awaited below
  mkdirSync(app);
  installPackedPackage(app, "sessions-browser-consumer");
  cpSync(join(root, "tests/chat-app"), app, { recursive: true });
  const oxc = { jsx: { runtime: "automatic" as const } };
  // `build` sets process.env.NODE_ENV to production and leaves it: restored for the dev server
  const nodeEnv = process.env.NODE_ENV;
  await build({ root: app, configFile: false, logLevel: "error", oxc, build: { outDir: dist, emptyOutDir: true, rolldownOptions: { input: [join(app, "sessions.html")] } } });
  if (nodeEnv === undefined) delete process.env.NODE_ENV;
  else process.env.NODE_ENV = nodeEnv;
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname.startsWith("/api/")) return forward(req, res);
    if (url.pathname.startsWith("/dev/")) {
      vite!.middlewares(req, res, () => res.writeHead(404).end());
      return;
    }
    serveBuilt(url.pathname, res);
  });
  vite = await createViteServer({
    root: app,
    mode: "development",
    base: "/dev/",
    configFile: false,
    logLevel: "error",
    clearScreen: false,
    appType: "mpa",
    oxc,
    cacheDir: join(app, "node_modules/.vite-sessions"),
    server: { middlewareMode: true, ws: { server } },
  });
  service = await started;
  ({ base, close: closeServer } = await listenLoopback(server));
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await closeServer?.();
  await vite?.close();
  await service?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

type Settled = { value?: Json; error?: string; message?: string };
type Api = Record<"create" | "rename" | "remove" | "setPermissionMode" | "refresh", (...args: unknown[]) => Promise<Settled>>;
declare const sessionsApi: Api;
declare const attach: (length: number, type: string, name: string) => Promise<Settled>;
declare const mounts: number;

async function open(path: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser!.newPage();
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e}`));
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`console.${m.type()}: ${m.text()}`);
  });
  const q = new URLSearchParams({ user: service!.userId, agent: service!.agentId, model: JSON.stringify(service!.info.chat_model_config) });
  await page.goto(`${base}${path}?${q}`);
  await page.waitForFunction(() => typeof sessionsApi === "object" && document.getElementById("app")?.dataset.loading === "false", undefined, { timeout: WAIT });
  return { page, problems };
}

/** What the page lists: its sessions' JSON. */
const shown = async (page: Page): Promise<Json[]> => JSON.parse((await page.textContent("#sessions")) ?? "[]");

/** The service's own list. */
async function listed(): Promise<Json[]> {
  return (await api(service!, "GET", `/sessions/?agent_id=${service!.agentId}`)).sessions;
}

const ids = (list: readonly Json[]) => list.map((v) => v.session.id);
const count = (what: string, from = 0) => requests.slice(from).filter((r) => r === what).length;

test("production: one GET /sessions/ per mount, no .wasm; create, rename, setPermissionMode, remove refresh the list as the service has it", TEST, async () => {
  await api(service!, "POST", "/sessions/", { agent_id: service!.agentId, name: "made before", chat_model_config: service!.info.chat_model_config });
  const from = requests.length;
  const { page, problems } = await open("/sessions.html");
  assert.deepEqual(ids(await shown(page)), ids(await listed()));
  assert.ok((await shown(page)).some((v) => v.session.config.name === "made before"));
  // let any late effect run: still one list request, and the .wasm never loaded
  await page.waitForTimeout(300);
  assert.equal(count("GET /sessions/", from), 1, requests.slice(from).join("\n"));
  assert.deepEqual(requests.slice(from), ["GET /sessions/"]);
  assert.deepEqual(wasm, [], "useSessions loads no .wasm");

  const created = await page.evaluate(() => sessionsApi.create({ name: "from the page" }));
  assert.equal(created.error, undefined, created.message);
  const id = created.value as string;
  // the action resolved after its refresh: the list has it
  await page.waitForSelector(`li[data-id="${id}"]`, { timeout: WAIT });
  assert.equal(await page.textContent(`li[data-id="${id}"]`), "from the page");
  const made = (await listed()).find((v) => v.session.id === id);
  assert.equal(made.session.config.chat_model_config.credential_id, service!.info.chat_model_config.credential_id, "the hook's session option is the body");
  assert.deepEqual(ids(await shown(page)), ids(await listed()));

  const renamed = await page.evaluate((sid) => sessionsApi.rename(sid, "renamed in the page"), id);
  assert.equal(renamed.value.config.name, "renamed in the page");
  await page.waitForFunction((sid) => document.querySelector(`li[data-id="${sid}"]`)?.textContent === "renamed in the page", id, { timeout: WAIT });
  assert.equal((await listed()).find((v) => v.session.id === id).session.config.name, "renamed in the page");

  const moded = await page.evaluate((sid) => sessionsApi.setPermissionMode(sid, "explore"), id);
  assert.equal(moded.value.state.permission_context.mode, "explore");
  await page.waitForSelector(`li[data-id="${id}"][data-mode="explore"]`, { timeout: WAIT });
  assert.equal((await listed()).find((v) => v.session.id === id).session.state.permission_context.mode, "explore");

  // a run holds the session: the rename is refused with busy, the list stays
  await api(service!, "POST", "/chat/", { agent_id: service!.agentId, session_id: id, input: { name: "user", role: "user", content: [{ type: "text", text: "slow" }] } });
  let running = false;
  for (let i = 0; i < 100 && !running; i++) running = (await listed()).find((v) => v.session.id === id).status === "running";
  assert.ok(running);
  const busy = await page.evaluate((sid) => sessionsApi.rename(sid, "during the run"), id);
  assert.equal(busy.error, "busy", busy.message);
  assert.equal(await page.textContent(`li[data-id="${id}"]`), "renamed in the page");
  await page.evaluate(() => sessionsApi.refresh());
  await page.waitForSelector(`li[data-id="${id}"][data-status="running"]`, { timeout: WAIT });
  const badMode = await page.evaluate((sid) => sessionsApi.setPermissionMode(sid, "nope"), id);
  assert.equal(badMode.error, "invalid_argument");

  const removed = await page.evaluate((sid) => sessionsApi.remove(sid), id);
  assert.equal(removed.error, undefined, removed.message);
  await page.waitForFunction((sid) => document.querySelector(`li[data-id="${sid}"]`) === null, id, { timeout: WAIT });
  assert.ok(!ids(await listed()).includes(id), "the service lists it no more");
  const again = await page.evaluate((sid) => sessionsApi.remove(sid), id);
  assert.equal(again.error, "http_error");
  assert.deepEqual(ids(await shown(page)), ids(await listed()));
  // the browser logs the two refusals asked for (409, then 404); nothing else
  assert.deepEqual(
    problems.map((p) => p.replace(/^console\.error: Failed to load resource: the server responded with a status of (409|404) .*$/, "$1")),
    ["409", "404"],
  );
  await page.close();
});

test("development, StrictMode (mount, unmount, mount): still one GET /sessions/", TEST, async () => {
  const from = requests.length;
  const { page, problems } = await open("/dev/sessions.html");
  assert.equal(await page.evaluate(() => mounts), 2, "StrictMode mounted twice");
  await page.waitForTimeout(300);
  assert.equal(count("GET /sessions/", from), 1, requests.slice(from).join("\n"));
  assert.deepEqual(ids(await shown(page)), ids(await listed()));
  const created = await page.evaluate(() => sessionsApi.create({ name: "dev" }));
  await page.waitForSelector(`li[data-id="${created.value}"]`, { timeout: WAIT });
  assert.equal(count("POST /sessions/", from), 1);
  assert.equal(count("GET /sessions/", from), 2, "one list after the action");
  assert.deepEqual(problems, []);
  await page.close();
});

test("dataBlock on a browser File: the platform's base64 equals node's, the name and type from the File", TEST, async () => {
  const { page } = await open("/sessions.html");
  for (const n of [0, 1, 2, 3, 100_003, 1_000_000]) {
    const block = await page.evaluate(([length]) => attach(length, "image/png", "photo.png"), [n] as const);
    const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 7919 + 13) % 256);
    assert.deepEqual(block.value, { type: "data", source: { type: "base64", media_type: "image/png", data: Buffer.from(bytes).toString("base64") }, name: "photo.png" }, `${n} bytes`);
  }
  const big = await page.evaluate(() => attach(10 * 1024 * 1024 + 1, "image/png", "big.png"));
  assert.equal(big.error, "limit_exceeded");
  await page.close();
});
