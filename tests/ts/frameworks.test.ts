// `agentscope-message/vue` and `agentscope-message/svelte` in Chromium against the live
// AgentScope 2.0.11 service, with the package as users get it (`npm pack`, installed into
// a scratch consumer), pages in tests/chat-app/ (ChatVue.vue, ChatSvelte.svelte) served by
// Vite 8's dev server and built by Vite 8 (with @vitejs/plugin-vue and
// @sveltejs/vite-plugin-svelte). One node server serves the pages and forwards `/api/*`
// (same origin: the service has no CORS) to a counting proxy in front of the service.
// Every scenario ends with the page's messages equal to the stored ones.
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import { extname, join, normalize } from "node:path";
import { after, before, test } from "node:test";
import { svelte } from "@sveltejs/vite-plugin-svelte";
import vue from "@vitejs/plugin-vue";
import type { Browser, Page } from "playwright-core";
import { build, createServer as createViteServer, type ViteDevServer } from "vite";
import { installPackedPackage, type Json, launchChromium, nullRecordingVolatiles, root, thaw, listenLoopback } from "./helpers.ts";
import { startProxy, startService, stored, type Proxy, type Service } from "./service.ts";

mkdirSync(join(root, "target"), { recursive: true });
const scratch = mkdtempSync(join(root, "target", "frameworks-"));
const appDir = join(scratch, "app");
const dist = join(scratch, "dist");
const WAIT = 90_000;
const TEST = { timeout: 300_000 };

let service: Service | undefined;
let proxy: Proxy | undefined;
let browser: Browser | undefined;
let server: Server | undefined;
let vite: ViteDevServer | undefined;
let base = "";
let closeServer: (() => Promise<void>) | undefined;
const plugins = () => [vue(), svelte({ configFile: false })];

before(async () => {
  const started = startService({ AGENTSCOPE_SERVICE_DELAY_MS: "1" });
  started.catch(() => {});
  mkdirSync(appDir);
  installPackedPackage(appDir, "frameworks-consumer");
  cpSync(join(root, "tests/chat-app"), appDir, { recursive: true });
  const nodeEnv = process.env.NODE_ENV;
  await build({
    root: appDir,
    configFile: false,
    logLevel: "error",
    plugins: plugins(),
    build: { outDir: dist, emptyOutDir: true, rolldownOptions: { input: ["vue.html", "svelte.html"].map((f) => join(appDir, f)) } },
  });
  // `build` leaves NODE_ENV at production: the dev server must serve the dev builds
  if (nodeEnv === undefined) delete process.env.NODE_ENV;
  else process.env.NODE_ENV = nodeEnv;
  service = await started;
  proxy = await startProxy(service.url);
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname.startsWith("/api/")) {
      const target = new URL(proxy!.url);
      const out = request({ host: target.hostname, port: target.port, method: req.method, path: req.url!.slice("/api".length), headers: { ...req.headers, host: target.host } }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        res.flushHeaders();
        up.pipe(res);
      });
      out.on("error", () => res.socket?.destroy());
      res.on("close", () => out.destroy());
      req.pipe(out);
      return;
    }
    if (url.pathname.startsWith("/dev/")) return vite!.middlewares(req, res, () => res.writeHead(404).end());
    const path = normalize(join(dist, decodeURIComponent(url.pathname)));
    if (!path.startsWith(dist) || !existsSync(path)) return void res.writeHead(404).end();
    const type = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".wasm": "application/wasm", ".css": "text/css" }[extname(path)];
    res.writeHead(200, { "content-type": type ?? "application/octet-stream", "cache-control": "no-store" }).end(readFileSync(path));
  });
  vite = await createViteServer({
    root: appDir,
    mode: "development",
    base: "/dev/",
    configFile: false,
    logLevel: "error",
    clearScreen: false,
    appType: "mpa",
    plugins: plugins(),
    cacheDir: join(appDir, "node_modules/.vite-frameworks"),
    server: { middlewareMode: true, ws: { server } },
  });
  ({ base, close: closeServer } = await listenLoopback(server));
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await closeServer?.();
  await vite?.close();
  await proxy?.close();
  await service?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

interface Shown {
  status: string;
  sessionId: string;
  error: string;
  pending: string[];
  messages: Json[];
}
declare const app: { send(text: string): Promise<void>; stop(): Promise<void>; confirm(id: string, yes: boolean): Promise<void>; rawSessionId(): string | null };
declare const mountNow: () => void;

interface Opened {
  page: Page;
  problems: string[];
  /** The `.wasm` requests the page made, in order. */
  wasm: string[];
}

const frameworks = ["vue", "svelte"] as const;
const modes = ["dev", "build"] as const;
type Framework = (typeof frameworks)[number];
type Mode = (typeof modes)[number];

function pageUrl(framework: Framework, mode: Mode, extra = ""): string {
  const q = `user=${encodeURIComponent(service!.userId)}&agent=${encodeURIComponent(service!.agentId)}&model=${encodeURIComponent(JSON.stringify(service!.info.chat_model_config))}`;
  return `${base}${mode === "dev" ? "/dev/" : "/"}${framework}.html?${q}${extra}`;
}

async function openPage(url: string, page?: Page): Promise<Opened> {
  const opened: Opened = { page: page ?? (await browser!.newPage()), problems: [], wasm: [] };
  opened.page.on("pageerror", (e) => opened.problems.push(`pageerror: ${e}`));
  opened.page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") opened.problems.push(`console.${m.type()}: ${m.text()}`);
  });
  opened.page.on("request", (r) => {
    if (new URL(r.url()).pathname.endsWith(".wasm")) opened.wasm.push(r.url());
  });
  await opened.page.goto(url);
  return opened;
}

const shown = (page: Page): Promise<Shown> =>
  page.evaluate(() => {
    const main = document.getElementById("app");
    if (main === null) return { status: "", sessionId: "", error: "", pending: [], messages: [] };
    const pending = main.dataset.pending ?? "";
    return {
      status: main.dataset.status ?? "",
      sessionId: main.dataset.session ?? "",
      error: main.dataset.error ?? "",
      pending: pending === "" ? [] : pending.split(","),
      messages: JSON.parse(document.getElementById("messages")!.textContent || "[]"),
    };
  });

async function waitShown(page: Page, ok: (s: Shown) => boolean, what: string): Promise<Shown> {
  const t0 = Date.now();
  for (;;) {
    const s = await shown(page);
    if (ok(s)) return s;
    if (Date.now() - t0 > WAIT) throw new Error(`timed out waiting for ${what}: ${JSON.stringify({ ...s, messages: s.messages.length })}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const comparable = (messages: readonly Json[]): Json[] =>
  messages.map((m) => {
    const copy = thaw(m);
    nullRecordingVolatiles(copy);
    return copy;
  });

/** Waits until the page is `ready` with the stored messages; returns them. */
async function settledAsStored(page: Page, sessionId: string): Promise<Json[]> {
  const t0 = Date.now();
  for (;;) {
    const s = await shown(page);
    const want = comparable(await stored(service!, sessionId));
    if (s.status === "ready" && JSON.stringify(comparable(s.messages)) === JSON.stringify(want)) return want;
    if (Date.now() - t0 > WAIT) {
      assert.deepEqual(comparable(s.messages), want);
      assert.equal(s.status, "ready");
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

const texts = (msg: Json): string[] => (msg.content as Json[]).filter((b) => b.type === "text").map((b) => b.text);
const streams = (sessionId: string): number => proxy!.requests.filter((r) => r === `GET /sessions/${sessionId}/stream`).length;

/** Opens the page, waits for the chat to be ready, sends `text`. */
async function sendOn(framework: Framework, mode: Mode, text: string): Promise<Opened & { sessionId: string }> {
  const opened = await openPage(pageUrl(framework, mode));
  const { sessionId } = await waitShown(opened.page, (s) => s.status === "ready" && s.sessionId !== "", "the chat to open");
  await opened.page.evaluate((t) => app.send(t), text);
  return { ...opened, sessionId };
}

for (const mode of modes) {
  for (const framework of frameworks) {
    const name = `${framework} (${mode === "dev" ? "Vite dev server" : "Vite build"})`;

    test(`${name}: the .wasm is not requested before the component mounts; one stream per mounted chat; send`, TEST, async () => {
      const opened = await openPage(pageUrl(framework, mode, "&defer"));
      await opened.page.waitForFunction(() => typeof mountNow === "function", undefined, { timeout: WAIT });
      await new Promise((r) => setTimeout(r, 500));
      assert.deepEqual(opened.wasm, [], "no .wasm before the component mounts");
      await opened.page.evaluate(() => mountNow());
      const { sessionId } = await waitShown(opened.page, (s) => s.status === "ready" && s.sessionId !== "", "the chat to open");
      assert.equal(opened.wasm.length, 1, "the .wasm once the chat opens");
      assert.equal(await opened.page.evaluate(() => app.rawSessionId()), sessionId, "the raw chat's methods and fields work");
      await opened.page.evaluate(() => app.send("hello"));
      const want = await settledAsStored(opened.page, sessionId);
      assert.deepEqual(want.map((m) => m.role), ["user", "assistant"]);
      assert.deepEqual(texts(want[1]), ["You said: hello"]);
      assert.equal(streams(sessionId), 1, "one event stream for the mounted chat");
      assert.deepEqual(opened.problems, []);
      await opened.page.close();
    });

    test(`${name}: long 300 streams, then stop mid-reply keeps the text so far`, TEST, async () => {
      const { page, problems, sessionId } = await sendOn(framework, mode, "long 300");
      await waitShown(page, (s) => s.status === "streaming" && JSON.stringify(s.messages).includes("w20 "), "the reply streaming");
      await page.evaluate(() => app.stop());
      const want = await settledAsStored(page, sessionId);
      const reply = want.at(-1);
      assert.equal(reply.finished_reason, "interrupted");
      const text = texts(reply).join("");
      assert.ok(text.startsWith("w0 w1 w2 ") && !text.includes("w299"), `partial: ${text.length} chars`);
      assert.equal(streams(sessionId), 1);
      assert.deepEqual(problems, []);
      await page.close();
    });

    test(`${name}: long 300 streams to the end`, TEST, async () => {
      const { page, problems, sessionId } = await sendOn(framework, mode, "long 300");
      const seen = await waitShown(page, (s) => s.status === "streaming" && s.messages.length === 2, "the reply streaming");
      assert.equal(seen.messages[1].role, "assistant");
      const want = await settledAsStored(page, sessionId);
      assert.ok(texts(want.at(-1)).join("").includes("w299"));
      assert.equal(want.at(-1).finished_reason, "completed");
      assert.deepEqual(problems, []);
      await page.close();
    });

    test(`${name}: confirm, approved`, TEST, async () => {
      const { page, problems, sessionId } = await sendOn(framework, mode, "confirm");
      const parked = await waitShown(page, (s) => s.status === "awaiting_input" && s.pending.length === 1, "the confirmation");
      await page.evaluate((id) => app.confirm(id, true), parked.pending[0]!);
      const want = await settledAsStored(page, sessionId);
      assert.equal(texts(want.at(-1)).at(-1), "The Bash call was approved.");
      assert.deepEqual(problems, []);
      await page.close();
    });

    test(`${name}: reload with the session id mid-reply resumes the reply`, TEST, async () => {
      const { page, problems, sessionId } = await sendOn(framework, mode, "long 300");
      await waitShown(page, (s) => JSON.stringify(s.messages).includes("w10 "), "the reply streaming");
      assert.equal(streams(sessionId), 1);
      await openPage(pageUrl(framework, mode, `&session=${encodeURIComponent(sessionId)}`), page);
      const resumed = await waitShown(page, (s) => s.sessionId === sessionId, "the resumed chat");
      assert.equal(resumed.sessionId, sessionId);
      const want = await settledAsStored(page, sessionId);
      assert.equal(want.filter((m) => m.role === "assistant").length, 1, "one reply");
      assert.ok(texts(want.at(-1)).join("").includes("w299"));
      assert.equal(want.at(-1).finished_reason, "completed");
      assert.equal(streams(sessionId), 2, "one stream per mounted chat (before and after the reload)");
      assert.deepEqual(problems.filter((p) => !/net::ERR_ABORTED|Failed to fetch|aborted/i.test(p)), []);
      await page.close();
    });
  }
}
