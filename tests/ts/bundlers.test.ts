// The package in real consumer builds: one `npm pack` tarball installed into a scratch
// project, the same small app (tests/bundlers/: a Session fed the raw SSE bytes of
// f_tool_image in 333-byte chunks, with the zero-config import and with
// `agentscope-message/init` + `await init()`) built by each bundler through its JS API,
// and the output run in node or in headless Chromium (one browser for the whole file).
// Each case asserts the rebuilt message equals the recording's final_msg.json, and each
// configuration is the one docs/loading.md documents: nothing, or the one line stated, whose
// absence is shown to fail the way docs/loading.md says.
//
//   node ESM, require()        no bundler                   none
//   esbuild, node (esm)        zero-config import           ENOENT; --external or init(bytes)
//   Rollup, node (esm)         zero-config import           ENOENT; external
//   esbuild, browser (esm)     both entries                 404 until the .wasm is copied next to the bundle
//   Rollup + node-resolve      both entries                 404 until the .wasm is copied next to the bundle
//   webpack 5, browser         both entries                 none
//   Vite 7, production build   both entries                 none
//   Vite 7, dev server         both entries                 blank page until optimizeDeps.exclude
//   Vite 8, dev server         both entries                 none (its production build: react.test.ts)
//   Next.js 16 (Turbopack)     both entries, client         none (a route handler on the server,
//                              components, a route and      two Edge routes, client components
//                              two Edge routes              prerendered at build)
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";
import { after, before, test } from "node:test";
import { nodeResolve } from "@rollup/plugin-node-resolve";
import * as esbuild from "esbuild";
import type { Browser } from "playwright-core";
import { rollup, type RollupLog } from "rollup";
import { createServer as createViteServer } from "vite";
import { build as buildVite7, createServer as createVite7Server } from "vite-7";
import webpack from "webpack";
import { freePort, installPackedPackage, type Json, launchChromium, recordingFinalText, root } from "./helpers.ts";

// Under target/ (git-ignored) so that the bundlers resolve from the repository's
// node_modules by walking up; the package itself comes from the tarball, installed with
// npm into the scratch project's own node_modules, as a user gets it.
mkdirSync(join(root, "target"), { recursive: true });
const scratch = mkdtempSync(join(root, "target", "bundlers-consumer-"));
/** The consumer project: the app's sources, its package.json and node_modules. */
const app = join(scratch, "app");
/** Every browser build's output, out/<name>/ (outside app/, Vite's root). */
const outRoot = join(scratch, "out");
const out = (name: string) => join(outRoot, name);
/** Node builds go in app/build/<name>/: a bundle that keeps the package external finds
 * it in app/node_modules, as on a server deployed with its node_modules. */
const nodeOut = (name: string) => join(app, "build", name);
const recording = join(root, "examples/recordings/f_tool_image");
const sse = join(recording, "events.sse");
const wasmFile = join(app, "node_modules/agentscope-message/dist/wasm/agentscope_message_bg.wasm");
const CHUNK = 333; // tests/bundlers/rebuild.js
const chunks = Math.ceil(readFileSync(sse).length / CHUNK);
const expectedText = recordingFinalText(recording);

let browser: Browser | undefined;
let server: Server | undefined;
let base = "";

before(async () => {
  mkdirSync(app);
  installPackedPackage(app, "bundlers-consumer");
  cpSync(join(root, "tests/bundlers"), app, { recursive: true });
  // Vite serves public/ in dev; the static server below serves /events.sse itself
  mkdirSync(join(app, "public"));
  copyFileSync(sse, join(app, "public/events.sse"));
  mkdirSync(outRoot);

  // a static server for every browser build in out/<name>/, plus /events.sse
  const types: Record<string, string> = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".wasm": "application/wasm" };
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const path =
      url.pathname === "/events.sse" ? sse : normalize(join(outRoot, decodeURIComponent(url.pathname.endsWith("/") ? `${url.pathname}index.html` : url.pathname)));
    try {
      if (path !== sse && !path.startsWith(outRoot)) throw new Error("outside");
      const body = readFileSync(path);
      res.writeHead(200, { "content-type": path === sse ? "text/event-stream" : (types[extname(path)] ?? "application/octet-stream") });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  rmSync(scratch, { recursive: true, force: true });
});

type Entry = "agentscope-message" | "agentscope-message/init";

/** What the app reports once it rebuilt the recording (tests/bundlers/rebuild.js). */
function rebuilt(entry: Entry | "agentscope-message (require)"): Json {
  return { entry, ...(entry === "agentscope-message/init" ? { beforeInit: "not_initialized" } : {}), chunks, messages: 1, json: expectedText };
}

// ---------------------------------------------------------------------------------- node

interface NodeRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

function runNode(file: string): NodeRun {
  const { status, stdout, stderr } = spawnSync(process.execPath, [file, sse], { cwd: app, encoding: "utf8" });
  return { status, stdout, stderr };
}

function assertNodeRebuilt(run: NodeRun, entry: Entry | "agentscope-message (require)"): void {
  assert.equal(run.status, 0, run.stderr);
  const { json, ...result } = JSON.parse(run.stdout);
  const { json: want, ...wanted } = rebuilt(entry);
  assert.equal(json, want);
  assert.deepEqual(result, wanted);
}

/** The zero-config node import of a bundle that inlined the package: the .wasm is looked
 * for next to the bundle, where nobody put it (docs/loading.md: a node bundle that inlines the package). */
function assertEnoent(run: NodeRun, dir: string): void {
  assert.notEqual(run.status, 0);
  assert.equal(run.stdout, "");
  assert.ok(
    run.stderr.includes(`ENOENT: no such file or directory, open '${join(dir, "wasm/agentscope_message_bg.wasm")}'`),
    run.stderr,
  );
  // a MsgError with the hint, not a bare fs error
  assert.match(run.stderr, /MsgError: could not load agentscope-message's \.wasm: .* keep agentscope-message external/);
  assert.match(run.stderr, /code: 'init_failed'/);
}

test("node, no bundler: ESM import and require() of the installed package", () => {
  assertNodeRebuilt(runNode(join(app, "node.js")), "agentscope-message");
  const cjs = runNode(join(app, "node.cjs"));
  assertNodeRebuilt(cjs, "agentscope-message (require)");
  assert.equal(cjs.stderr, "", "require() of the ESM package: no warning");
});

test("esbuild, node bundle: ENOENT unconfigured; --external:agentscope-message or init(readFileSync(…)) work", async () => {
  const node = { bundle: true, platform: "node", format: "esm", logLevel: "silent" } as const;

  // unconfigured: the package is inlined and reads ./wasm/… relative to the bundle
  await esbuild.build({ ...node, entryPoints: [join(app, "node.js")], outdir: nodeOut("esbuild-node") });
  assertEnoent(runNode(join(nodeOut("esbuild-node"), "node.js")), nodeOut("esbuild-node"));

  // fix 1: keep the package external; node resolves it from node_modules at run time
  await esbuild.build({ ...node, entryPoints: [join(app, "node.js")], outdir: nodeOut("esbuild-node-external"), external: ["agentscope-message"] });
  assert.match(readFileSync(join(nodeOut("esbuild-node-external"), "node.js"), "utf8"), /from "agentscope-message"/);
  assertNodeRebuilt(runNode(join(nodeOut("esbuild-node-external"), "node.js")), "agentscope-message");

  // fix 2: the explicit entry, given the bytes of the .wasm deployed next to the bundle
  await esbuild.build({ ...node, entryPoints: [join(app, "node-init.js")], outdir: nodeOut("esbuild-node-init") });
  copyFileSync(wasmFile, join(nodeOut("esbuild-node-init"), "agentscope_message_bg.wasm"));
  assertNodeRebuilt(runNode(join(nodeOut("esbuild-node-init"), "node-init.js")), "agentscope-message/init");
});

test("Rollup 4, node bundle: ENOENT unconfigured (exportConditions node); external works", async () => {
  const write = async (dir: string, external: (string | RegExp)[]) => {
    const warnings: string[] = [];
    const bundle = await rollup({
      input: join(app, "node.js"),
      external,
      plugins: [nodeResolve({ exportConditions: ["node"] })],
      onwarn: (w: RollupLog) => void warnings.push(`${w.code}: ${w.message}`),
    });
    await bundle.write({ dir, format: "es" });
    await bundle.close();
    assert.deepEqual(warnings, []);
  };
  await write(nodeOut("rollup-node"), [/^node:/]);
  assertEnoent(runNode(join(nodeOut("rollup-node"), "node.js")), nodeOut("rollup-node"));
  await write(nodeOut("rollup-node-external"), [/^node:/, "agentscope-message"]);
  assertNodeRebuilt(runNode(join(nodeOut("rollup-node-external"), "node.js")), "agentscope-message");
});

// ------------------------------------------------------------------------------- browser

interface PageRun {
  result: Json | undefined;
  /** Uncaught errors (a rejected top-level await shows here). */
  errors: string[];
  /** console.error / console.warn lines. */
  console: string[];
  /** Every .wasm response: path, status, content type. */
  wasm: [string, number, string][];
}

/** Opens `url` in a fresh context; resolves when the app reported or a page error. */
async function openPage(url: string): Promise<PageRun> {
  const page = await browser!.newPage();
  const run: PageRun = { result: undefined, errors: [], console: [], wasm: [] };
  let failed = () => {};
  const failure = new Promise<void>((resolve) => (failed = resolve));
  page.on("pageerror", (e) => {
    run.errors.push(String(e));
    failed();
  });
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") run.console.push(`${m.type()}: ${m.text()}`);
  });
  page.on("response", (r) => {
    const path = new URL(r.url()).pathname;
    if (path.endsWith(".wasm")) run.wasm.push([path, r.status(), r.headers()["content-type"] ?? ""]);
  });
  try {
    await page.goto(url);
    const reported = page.waitForFunction(() => document.body.dataset.result !== undefined, undefined, { timeout: 20_000 });
    reported.catch(() => {});
    await Promise.race([reported, failure]);
    const text = await page.evaluate(() => document.body.dataset.result);
    run.result = text === undefined ? undefined : JSON.parse(text);
  } finally {
    await page.close();
  }
  return run;
}

/** The app rebuilt the recording, with no error or warning, the .wasm served as wasm. */
function assertPageRebuilt(run: PageRun, entry: Entry): string {
  assert.deepEqual(run.errors, []);
  assert.deepEqual(run.console, []);
  const { json, ...result } = run.result ?? {};
  const { json: want, ...wanted } = rebuilt(entry);
  assert.equal(json, want);
  assert.deepEqual(result, wanted);
  assert.equal(run.wasm.length, 1, JSON.stringify(run.wasm));
  const [[path, status, type]] = run.wasm as [[string, number, string]];
  assert.deepEqual([status, type.split(";")[0]], [200, "application/wasm"], path);
  return path;
}

/** Both pages of a build (index.html: zero-config; init.html: explicit) rebuild the
 * recording; returns where the .wasm was fetched from. */
async function assertBuildWorks(url: string): Promise<string> {
  const path = assertPageRebuilt(await openPage(`${url}/`), "agentscope-message");
  assertPageRebuilt(await openPage(`${url}/init.html`), "agentscope-message/init");
  return path;
}

/** Both pages fail to load the .wasm: the zero-config page never runs (its import
 * throws MsgError init_failed: a blank page), the explicit one catches init_failed. */
async function assertBuildFails(url: string, reason: RegExp): Promise<PageRun> {
  const zero = await openPage(`${url}/`);
  assert.equal(zero.result, undefined, "the app did not run");
  assert.equal(zero.errors.length, 1, JSON.stringify(zero.errors));
  assert.match(zero.errors[0]!, /^MsgError: could not load agentscope-message's \.wasm: /);
  assert.match(zero.errors[0]!, reason);
  const explicit = await openPage(`${url}/init.html`);
  assert.deepEqual(explicit.errors, []);
  const { message, ...rest } = explicit.result;
  assert.deepEqual(rest, { entry: "agentscope-message/init", beforeInit: "not_initialized", error: "init_failed" });
  assert.match(message, reason);
  return zero;
}

function copyPages(dir: string, script: "module" | "defer" = "module"): void {
  for (const f of ["index.html", "init.html"]) {
    const html = readFileSync(join(app, f), "utf8");
    writeFileSync(join(dir, f), script === "module" ? html : html.replace('type="module"', "defer"));
  }
}

test("esbuild, browser bundle: 404 for the .wasm until it is copied next to the bundle", async () => {
  // esbuild leaves `new URL("agentscope_message_bg.wasm", import.meta.url)` as it is
  await esbuild.build({
    entryPoints: [join(app, "browser.js"), join(app, "browser-init.js")],
    bundle: true,
    platform: "browser",
    format: "esm",
    outdir: out("esbuild"),
    logLevel: "silent",
  });
  copyPages(out("esbuild"));
  const bare = await assertBuildFails(`${base}/esbuild`, /failed to fetch Wasm: 404 Not Found fetching '[^']*\/esbuild\/agentscope_message_bg\.wasm'/);
  assert.deepEqual(bare.wasm, [["/esbuild/agentscope_message_bg.wasm", 404, ""]]);
  // the one line: cp node_modules/agentscope-message/dist/wasm/agentscope_message_bg.wasm dist/
  copyFileSync(wasmFile, join(out("esbuild"), "agentscope_message_bg.wasm"));
  assert.equal(await assertBuildWorks(`${base}/esbuild`), "/esbuild/agentscope_message_bg.wasm");
});

test("Rollup 4 + node-resolve (browser): 404 for the .wasm until it is copied next to the chunks", async () => {
  const warnings: string[] = [];
  const bundle = await rollup({
    input: [join(app, "browser.js"), join(app, "browser-init.js")],
    plugins: [nodeResolve({ exportConditions: ["browser"] })],
    onwarn: (w: RollupLog) => void warnings.push(`${w.code}: ${w.message}`),
  });
  await bundle.write({ dir: out("rollup"), format: "es" });
  await bundle.close();
  assert.deepEqual(warnings, []);
  copyPages(out("rollup"));
  await assertBuildFails(`${base}/rollup`, /failed to fetch Wasm: 404 Not Found fetching '[^']*\/rollup\/agentscope_message_bg\.wasm'/);
  copyFileSync(wasmFile, join(out("rollup"), "agentscope_message_bg.wasm"));
  assert.equal(await assertBuildWorks(`${base}/rollup`), "/rollup/agentscope_message_bg.wasm");
});

test("webpack 5, browser: no configuration (the .wasm is emitted as an asset)", async () => {
  const stats = await new Promise<webpack.Stats>((resolve, reject) =>
    webpack(
      { mode: "production", context: app, entry: { browser: "./browser.js", "browser-init": "./browser-init.js" }, output: { path: out("webpack") } },
      (err, result) => (err || !result ? reject(err ?? new Error("no stats")) : resolve(result)),
    ),
  );
  const info = stats.toJson({ all: false, errors: true, warnings: true });
  assert.deepEqual(info.errors, []);
  // only the size hints (the .wasm is 377 KiB, over webpack's 244 KiB recommendation)
  for (const w of info.warnings ?? []) assert.match(w.message, /exceed the recommended size limit|limit the size of your bundles/);
  copyPages(out("webpack"), "defer"); // webpack's output is a classic script
  const wasm = readdirSync(out("webpack")).filter((f) => f.endsWith(".wasm"));
  assert.equal(wasm.length, 1);
  assert.equal(await assertBuildWorks(`${base}/webpack`), `/webpack/${wasm[0]}`);
});

test("Vite 7, production build: no configuration", async () => {
  await buildVite7({
    root: app,
    base: "./",
    configFile: false,
    logLevel: "silent",
    build: { outDir: out("vite7"), emptyOutDir: true, rollupOptions: { input: [join(app, "index.html"), join(app, "init.html")] } },
  });
  assert.match(await assertBuildWorks(`${base}/vite7`), /^\/vite7\/assets\/agentscope_message_bg-[\w-]+\.wasm$/);
});

/** Vite's dev server on `app/`, with its own dependency cache under node_modules. */
async function viteDev(
  create: typeof createViteServer | typeof createVite7Server,
  cache: string,
  optimizeDeps: { exclude?: string[] } = {},
): Promise<{ url: string; close: () => Promise<void> }> {
  const port = await freePort();
  const dev = await create({
    root: app,
    configFile: false,
    logLevel: "silent",
    clearScreen: false,
    cacheDir: join(app, "node_modules", cache),
    optimizeDeps,
    server: { host: "127.0.0.1", port, strictPort: true },
  });
  await dev.listen();
  return { url: `http://127.0.0.1:${port}`, close: () => dev.close() };
}

test("Vite 7, dev server: a blank page without optimizeDeps.exclude, works with it", async () => {
  const bare = await viteDev(createVite7Server, ".vite-7");
  try {
    // the pre-bundled copy looks for the .wasm next to itself in the dependency cache,
    // where there is none: Vite answers with index.html (the SPA fallback)
    const zero = await assertBuildFails(bare.url, /expected magic word 00 61 73 6d, found 3c 21 64 6f/);
    assert.deepEqual(zero.wasm, [["/node_modules/.vite-7/deps/agentscope_message_bg.wasm", 200, "text/html"]]);
    assert.ok(existsSync(join(app, "node_modules/.vite-7/deps/agentscope-message.js")), "pre-bundled");
  } finally {
    await bare.close();
  }
  const excluded = await viteDev(createVite7Server, ".vite-7-exclude", { exclude: ["agentscope-message"] });
  try {
    assert.equal(await assertBuildWorks(excluded.url), "/node_modules/agentscope-message/dist/wasm/agentscope_message_bg.wasm");
    assert.ok(!existsSync(join(app, "node_modules/.vite-7-exclude/deps/agentscope-message.js")), "not pre-bundled");
  } finally {
    await excluded.close();
  }
});

test("Vite 8, dev server: no configuration", async () => {
  const dev = await viteDev(createViteServer, ".vite-8");
  try {
    // pre-bundled too, but the optimizer points the glue's URL back at the package's file
    assert.equal(await assertBuildWorks(dev.url), "/node_modules/agentscope-message/dist/wasm/agentscope_message_bg.wasm");
    assert.ok(existsSync(join(app, "node_modules/.vite-8/deps/agentscope-message.js")), "pre-bundled");
  } finally {
    await dev.close();
  }
});

test("Next.js 16 (Turbopack), production build: no configuration (a route handler, two Edge routes; client components with either entry)", async () => {
  // tests/bundlers/next/ is the app router directory: a route handler (node) and two
  // client components, which `next build` also renders on the server
  cpSync(join(root, "tests/bundlers/next"), join(app, "app"), { recursive: true });
  const next = join(root, "node_modules/next/dist/bin/next");
  // without the NODE_ENV a Vite dev server of an earlier case set in this process
  const { NODE_ENV: _viteSet, ...inherited } = process.env;
  const env = { ...inherited, NEXT_TELEMETRY_DISABLED: "1" };
  const build = spawnSync(process.execPath, [next, "build"], { cwd: app, env, encoding: "utf8" });
  assert.equal(build.status, 0, `${build.stdout}\n${build.stderr}`);
  const port = await freePort();
  const server = spawn(process.execPath, [next, "start", "--hostname", "127.0.0.1", "--port", String(port)], { cwd: app, env, stdio: "ignore" });
  try {
    const url = `http://127.0.0.1:${port}`;
    let rebuiltOnServer: Json | undefined;
    for (let tries = 0; rebuiltOnServer === undefined; tries++) {
      try {
        rebuiltOnServer = await (await fetch(`${url}/api/rebuild`)).json();
      } catch (e) {
        if (tries === 100) throw e;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    const { json, ...result } = rebuiltOnServer;
    const { json: want, ...wanted } = rebuilt("agentscope-message");
    assert.equal(json, want);
    assert.deepEqual(result, wanted);
    // the Edge routes (`runtime = "edge"`: no code generation from bytes; the .wasm comes
    // as a module compiled outside the route's sandbox), with either entry
    for (const [route, entry] of [["edge", "agentscope-message"], ["edge-init", "agentscope-message/init"]] as const) {
      const response = await fetch(`${url}/api/${route}`, { method: "POST", body: readFileSync(sse) });
      assert.equal(response.status, 200, await response.clone().text());
      const { json: edgeJson, ...edgeResult } = (await response.json()) as Json;
      const { json: edgeWant, ...edgeWanted } = rebuilt(entry);
      assert.equal(edgeJson, edgeWant, route);
      assert.deepEqual(edgeResult, edgeWanted, route);
    }
    assert.match(assertPageRebuilt(await openPage(`${url}/`), "agentscope-message"), /^\/_next\/static\/media\/agentscope_message_bg\.[\w-]+\.wasm$/);
    assert.match(assertPageRebuilt(await openPage(`${url}/init`), "agentscope-message/init"), /^\/_next\/static\/media\/agentscope_message_bg\.[\w-]+\.wasm$/);
  } finally {
    server.kill();
  }
});
