// The package as users get it: `npm pack`, install the tarball into a fresh scratch
// project, import it from node ESM, and load it in a page in headless Chromium; both
// rebuild a recording with Msg.appendEvent and with a Session fed the raw SSE bytes.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { homedir, tmpdir } from "node:os";
import { extname, join } from "node:path";
import { after, before, test } from "node:test";
import { installPackedPackage, launchChromium, nullRecordingVolatiles, recordingEvents, root } from "./helpers.ts";

const scratch = mkdtempSync(join(tmpdir(), "agentscope-message-consumer-"));
const recording = join(root, "examples/recordings/f_tool_image");
const expectedText = (() => {
  const want = JSON.parse(readFileSync(join(recording, "final_msg.json"), "utf8"));
  nullRecordingVolatiles(want);
  return JSON.stringify(want);
})();

before(() => {
  installPackedPackage(scratch, "consumer");
  writeFileSync(join(scratch, "events.json"), JSON.stringify(recordingEvents(recording, "events.sse")));
  writeFileSync(join(scratch, "events.sse"), readFileSync(join(recording, "events.sse")));
});

after(() => rmSync(scratch, { recursive: true, force: true }));

// the consumer's code: the same in node and in the page (events are SSE `data` texts)
const consumer = `
import { AssistantMsg, EventType } from "agentscope-message/message";
import { MsgError, Session } from "agentscope-message";
function stable(msg) {
  const json = JSON.parse(JSON.stringify(msg));
  json.created_at = null;
  for (const b of json.content) {
    b.created_at = null;
    if (b.type === "hint") b.finished_at = null;
    for (const item of Array.isArray(b.output) ? b.output : []) { item.created_at = null; if (item.type === "text") item.id = null; }
  }
  return JSON.stringify(json);
}
/** The raw SSE bytes of the recording through a Session, in 1 KiB chunks. */
export function viaSession(bytes) {
  const session = new Session();
  for (let at = 0; at < bytes.length; at += 1024) session.feed(bytes.subarray(at, at + 1024));
  session.end();
  return stable(session.messages[0]);
}
export function rebuild(frames) {
  let msg = null;
  for (const data of frames) {
    const event = JSON.parse(data);
    if (event.type === EventType.REPLY_START) msg = new AssistantMsg({ name: event.name, content: [], id: event.reply_id });
    else msg?.appendEvent(data);
  }
  let code = null;
  try { msg.appendEvent({ type: "TEXT_BLOCK_DELTA", reply_id: msg.id }); } catch (e) { code = e instanceof MsgError ? e.code : String(e); }
  return { json: stable(msg), code };
}
`;

test("the shipped .wasm names no path of the machine that built it", () => {
  const wasm = readFileSync(join(root, "pkg/dist/wasm/agentscope_message_bg.wasm"));
  const paths = [root.replace(/\/$/, ""), homedir(), process.env.CARGO_HOME ?? join(homedir(), ".cargo")];
  // (a home of "/" would match anything)
  for (const path of paths.filter((p) => p.length > 4)) {
    assert.equal(wasm.includes(Buffer.from(path)), false, path);
  }
  // a panic is a bare trap (-Cpanic=immediate-abort, scripts/build-pkg.mjs): no panic
  // location, so no source path at all, not even a remapped one
  assert.doesNotMatch(wasm.toString("latin1"), /[\w-]+\/[\w/.-]*\.rs\b/);
});

test("node ESM imports the installed package", () => {
  writeFileSync(join(scratch, "consumer.mjs"), consumer);
  writeFileSync(
    join(scratch, "main.mjs"),
    `import { readFileSync } from "node:fs";\nimport { rebuild, viaSession } from "./consumer.mjs";\n` +
      `const out = rebuild(JSON.parse(readFileSync("events.json", "utf8")));\n` +
      `out.session = viaSession(new Uint8Array(readFileSync("events.sse")));\n` +
      `console.log(JSON.stringify(out));\n`,
  );
  const out = JSON.parse(execFileSync("node", ["main.mjs"], { cwd: scratch, encoding: "utf8" }));
  assert.equal(out.code, "invalid_event");
  assert.equal(out.json, expectedText);
  assert.equal(out.session, expectedText);
});

// the page of the explicit entry: constants first, init() on demand
const explicitPage = `<script type="module">
import { EventType } from "agentscope-message/constants";
import { init, MsgError, UserMsg } from "agentscope-message/init";
const steps = { constant: EventType.TEXT_BLOCK_DELTA };
steps.requestsBeforeInit = performance.getEntriesByType("resource").filter((e) => e.name.endsWith(".wasm")).length;
try { new UserMsg({ name: "u", content: "hi" }); } catch (e) { steps.beforeInit = e.code; }
try { await init("/missing.wasm"); } catch (e) { steps.missing = [e instanceof MsgError ? "MsgError" : String(e), e.code]; }
await init();
await init("/missing.wasm"); // loaded: resolves at once, nothing fetched
steps.text = new UserMsg({ name: "u", content: "hi" }).getTextContent();
// the zero-config subpath the consumer imports finds the module loaded: nothing fetched
const { rebuild } = await import("/consumer.mjs");
steps.rebuilt = rebuild(await (await fetch("/events.json")).json()).json;
document.body.dataset.result = JSON.stringify(steps);
</script>`;

test("node: the explicit entry loads on init() only, rejects a bad .wasm with a MsgError, and retries", () => {
  writeFileSync(
    join(scratch, "explicit.mjs"),
    `let instantiations = 0;
for (const name of ["instantiate", "compile"]) {
  const original = WebAssembly[name];
  WebAssembly[name] = (...args) => { instantiations++; return original.apply(WebAssembly, args); };
}
const OriginalModule = WebAssembly.Module;
WebAssembly.Module = new Proxy(OriginalModule, { construct(target, args) { instantiations++; return new target(...args); } });
const { EventType, MsgError: ConstantsMsgError } = await import("agentscope-message/constants");
const afterConstants = instantiations;
const { init, MsgError, UserMsg, Session } = await import("agentscope-message/init");
const afterImport = instantiations;
const out = { constant: EventType.REPLY_END, afterConstants, afterImport, sameError: ConstantsMsgError === MsgError };
const code = (f) => { try { f(); return "no error"; } catch (e) { return e instanceof MsgError ? e.code : String(e); } };
out.beforeInit = [code(() => new UserMsg({ name: "u", content: "x" })), code(() => new Session())];
out.bad = await init(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 9])).then(() => "resolved", (e) => [e instanceof MsgError, e.code]);
// a valid module that is not this package's: refused before the glue keeps it
out.foreign = await init(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(() => "resolved", (e) => [e.code, /not this package's/.test(e.message)]);
const { readFileSync } = await import("node:fs");
const { createRequire } = await import("node:module");
const wasmPath = createRequire(import.meta.url).resolve("agentscope-message").replace(/index\.js$/, "wasm/agentscope_message_bg.wasm");
const module = new OriginalModule(readFileSync(wasmPath));
await Promise.all([init(module), init(module)]);
await init(new Uint8Array(1));
out.text = new UserMsg({ name: "u", content: "x" }).getTextContent();
const main = await import("agentscope-message");
out.sameClass = main.UserMsg === UserMsg;
console.log(JSON.stringify(out));
`,
  );
  const out = JSON.parse(execFileSync("node", ["explicit.mjs"], { cwd: scratch, encoding: "utf8" }));
  assert.deepEqual(out, {
    constant: "REPLY_END",
    afterConstants: 0,
    afterImport: 0,
    sameError: true,
    beforeInit: ["not_initialized", "not_initialized"],
    bad: [true, "init_failed"],
    foreign: ["init_failed", true],
    text: "x",
    sameClass: true,
  });
});

test("node: require() and the zero-config subpaths load the .wasm synchronously", () => {
  writeFileSync(
    join(scratch, "require.cjs"),
    `const { UserMsg } = require("agentscope-message");
const { parseEvent } = require("agentscope-message/event");
const { Session } = require("agentscope-message/session");
console.log(JSON.stringify([new UserMsg({ name: "u", content: "r" }).getTextContent(), parseEvent({ type: "USER_INTERRUPT", reply_id: "r" }).type, typeof new Session().feed]));
`,
  );
  const out = JSON.parse(execFileSync("node", ["require.cjs"], { cwd: scratch, encoding: "utf8" }));
  assert.deepEqual(out, ["r", "USER_INTERRUPT", "function"]);
});

test("a browser page loads the installed package", async () => {
  const pkgDir = "/node_modules/agentscope-message/dist";
  const page = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="importmap">${JSON.stringify({
    imports: {
      "agentscope-message": `${pkgDir}/index.js`,
      "agentscope-message/message": `${pkgDir}/entry-message.js`,
      "agentscope-message/init": `${pkgDir}/explicit.js`,
      "agentscope-message/constants": `${pkgDir}/constants.js`,
      "#init": `${pkgDir}/init-web.js`,
      "#wasm": `${pkgDir}/wasm-web.js`,
    },
  })}</script></head><body>
<script type="module">
import { rebuild, viaSession } from "/consumer.mjs";
const frames = await (await fetch("/events.json")).json();
const out = rebuild(frames);
out.session = viaSession(new Uint8Array(await (await fetch("/events.sse")).arrayBuffer()));
document.body.dataset.result = JSON.stringify(out);
</script></body></html>`;
  writeFileSync(join(scratch, "index.html"), page);
  writeFileSync(join(scratch, "explicit.html"), page.replace(/<script type="module">[\s\S]*<\/script>/, explicitPage));
  const types: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".json": "application/json", ".wasm": "application/wasm" };
  const server: Server = createServer((req, res) => {
    const path = join(scratch, decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname));
    try {
      const body = readFileSync(path.endsWith("/") ? join(path, "index.html") : path);
      res.writeHead(200, { "content-type": types[extname(path) || ".html"] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const browser = await launchChromium();
  try {
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on("pageerror", (e) => errors.push(String(e)));
    await tab.goto(`http://127.0.0.1:${port}/`);
    await tab.waitForFunction(() => document.body.dataset.result !== undefined, undefined, { timeout: 20_000 });
    const out = JSON.parse((await tab.evaluate(() => document.body.dataset.result)) as string);
    assert.deepEqual(errors, []);
    assert.equal(out.code, "invalid_event");
    assert.equal(out.json, expectedText);
    assert.equal(out.session, expectedText);

    // the explicit entry: no .wasm requested until init(); a 404 is a MsgError the page
    // catches, then the default location loads
    const explicit = await browser.newPage();
    const wasmRequests: string[] = [];
    explicit.on("request", (r) => {
      if (r.url().endsWith(".wasm")) wasmRequests.push(new URL(r.url()).pathname);
    });
    const explicitErrors: string[] = [];
    explicit.on("pageerror", (e) => explicitErrors.push(String(e)));
    await explicit.goto(`http://127.0.0.1:${port}/explicit.html`);
    await explicit.waitForFunction(() => document.body.dataset.result !== undefined, undefined, { timeout: 20_000 });
    const steps = JSON.parse((await explicit.evaluate(() => document.body.dataset.result)) as string);
    assert.deepEqual(explicitErrors, []);
    assert.deepEqual(steps, {
      constant: "TEXT_BLOCK_DELTA",
      requestsBeforeInit: 0,
      beforeInit: "not_initialized",
      missing: ["MsgError", "init_failed"],
      text: "hi",
      rebuilt: expectedText,
    });
    assert.deepEqual(wasmRequests, ["/missing.wasm", `${pkgDir}/wasm/agentscope_message_bg.wasm`]);
  } finally {
    await browser.close();
    server.close();
  }
});
