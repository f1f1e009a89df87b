// `useSessions` (agentscope-message/react) and `dataBlock` (agentscope-message/chat) in
// Chromium against the live AgentScope 2.0.11 service (scripts/agentscope-service), with
// the package as users get it: `npm pack`, installed into a scratch consumer, the page
// tests/chat-app/sessions.jsx under <StrictMode> built by Vite 8 (a production build, and
// the dev server for StrictMode's double mount). The service has no CORS: one node server
// serves the page and forwards `/api/*` to it (same origin), counting requests. What the
// page lists is checked against the service's own list (`GET /sessions/`).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Page } from "playwright-core";
import type { Json } from "./helpers.ts";
import { api, startService, type Service } from "./service.ts";
import { serviceQuery, startViteApp, type ViteApp } from "./vite-app.ts";

const WAIT = 60_000;
const TEST = { timeout: 180_000 };

let service: Service | undefined;
let site: ViteApp | undefined;
/** Paths of `.wasm` files served. */
const wasm: string[] = [];

before(async () => {
  const started = startService({ AGENTSCOPE_SERVICE_DELAY_MS: "1" });
  started.catch(() => {}); // awaited below
  site = await startViteApp({
    name: "sessions-browser",
    pages: ["sessions.html"],
    config: () => ({ oxc: { jsx: { runtime: "automatic" } } }),
    dev: true,
    api: () => service!.url,
    onStatic: (pathname) => {
      if (pathname.endsWith(".wasm")) wasm.push(pathname);
    },
  });
  service = await started;
});

after(async () => {
  await site?.close();
  await service?.stop();
});

type Settled = { value?: Json; error?: string; message?: string };
type Api = Record<"create" | "rename" | "remove" | "setPermissionMode" | "refresh", (...args: unknown[]) => Promise<Settled>>;
declare const sessionsApi: Api;
declare const attach: (length: number, type: string, name: string) => Promise<Settled>;
declare const mounts: number;

async function open(path: string): Promise<{ page: Page; problems: string[] }> {
  const { page, problems } = await site!.open(`${path}?${serviceQuery(service!)}`);
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
const count = (what: string, from = 0) => site!.requests.slice(from).filter((r) => r === what).length;

test("production: one GET /sessions/ per mount, no .wasm; create, rename, setPermissionMode, remove refresh the list as the service has it", TEST, async () => {
  await api(service!, "POST", "/sessions/", { agent_id: service!.agentId, name: "made before", chat_model_config: service!.info.chat_model_config });
  const from = site!.requests.length;
  const { page, problems } = await open("/sessions.html");
  assert.deepEqual(ids(await shown(page)), ids(await listed()));
  assert.ok((await shown(page)).some((v) => v.session.config.name === "made before"));
  // let any late effect run: still one list request, and the .wasm never loaded
  await page.waitForTimeout(300);
  assert.equal(count("GET /sessions/", from), 1, site!.requests.slice(from).join("\n"));
  assert.deepEqual(site!.requests.slice(from), ["GET /sessions/"]);
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
  const from = site!.requests.length;
  const { page, problems } = await open("/dev/sessions.html");
  assert.equal(await page.evaluate(() => mounts), 2, "StrictMode mounted twice");
  await page.waitForTimeout(300);
  assert.equal(count("GET /sessions/", from), 1, site!.requests.slice(from).join("\n"));
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
