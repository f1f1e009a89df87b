// The npm tarball installed where users install it, by `scripts/release`: into a fresh
// node project and into a fresh Vite app (its own vite from the package index, built,
// served and opened in headless Chromium). Each replays a real recorded AgentScope stream
// (examples/recordings/c_react_3_tools_2_iters/events.sse) with `Session` and must show
// the message the reference rebuilt (final_msg.json), but for what the reducer makes up
// itself (examples/recordings/README.md).
//
//   node scripts/release-smoke.mjs TARBALL SCRATCH
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { extname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(import.meta.url), "../..");
const [tarball, scratch] = process.argv.slice(2).map((p) => resolve(p));
if (tarball === undefined || scratch === undefined) throw new Error("usage: release-smoke.mjs TARBALL SCRATCH");
const recording = join(root, "examples/recordings/c_react_3_tools_2_iters");

// what the reducer makes up itself, set to null on both sides
const canonical = `
function canonical(msg) {
  msg = structuredClone(msg);
  msg.created_at = null;
  for (const block of msg.content) {
    block.created_at = null;
    if (block.type === "hint") block.finished_at = null;
    if (Array.isArray(block.output)) for (const item of block.output) {
      item.created_at = null;
      if (item.type === "text") item.id = null;
    }
  }
  return JSON.stringify(msg);
}`;
const fold = `
import { Session } from "agentscope-message";
${canonical}
export function replay(bytes) {
  const session = new Session();
  session.feed(bytes);
  session.end();
  return canonical(session.messages[0]);
}`;
const expected = (() => {
  const want = JSON.parse(readFileSync(join(recording, "final_msg.json"), "utf8"));
  return new Function(`${canonical}; return canonical;`)()(want);
})();

function npmInstall(dir, manifest) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ private: true, type: "module", ...manifest }, null, 2));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--silent"], { cwd: dir, stdio: "inherit" });
}

// 1. a fresh node project
const node = join(scratch, "node-project");
npmInstall(node, { name: "smoke-node", dependencies: { "agentscope-message": `file:${tarball}` } });
writeFileSync(join(node, "fold.mjs"), fold);
writeFileSync(
  join(node, "main.mjs"),
  `import { readFileSync } from "node:fs";\nimport { replay } from "./fold.mjs";\nprocess.stdout.write(replay(readFileSync(${JSON.stringify(join(recording, "events.sse"))})));\n`,
);
const inNode = execFileSync("node", ["main.mjs"], { cwd: node, encoding: "utf8" });
if (inNode !== expected) throw new Error(`node project: the replayed message differs from final_msg.json:\n${inNode}\n${expected}`);
console.error("release-smoke: the tarball in a fresh node project: the recording's message, as the reference rebuilt it");

// 2. a fresh Vite app, built, served and opened in Chromium
const vite = join(scratch, "vite-app");
const viteVersion = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).devDependencies.vite;
npmInstall(vite, { name: "smoke-vite", dependencies: { "agentscope-message": `file:${tarball}` }, devDependencies: { vite: viteVersion } });
mkdirSync(join(vite, "public"));
copyFileSync(join(recording, "events.sse"), join(vite, "public/events.sse"));
writeFileSync(join(vite, "fold.js"), fold);
writeFileSync(
  join(vite, "main.js"),
  `import { replay } from "./fold.js";\nconst bytes = new Uint8Array(await (await fetch("./events.sse")).arrayBuffer());\ndocument.querySelector("#out").textContent = replay(bytes);\n`,
);
writeFileSync(join(vite, "index.html"), `<!doctype html><meta charset="utf-8"><title>smoke</title><pre id="out"></pre><script type="module" src="./main.js"></script>\n`);
execFileSync(join(vite, "node_modules/.bin/vite"), ["build", "--logLevel", "warn"], { cwd: vite, stdio: "inherit" });
const dist = join(vite, "dist");
const types = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".wasm": "application/wasm", ".sse": "text/plain" };
const server = createServer((req, res) => {
  const path = join(dist, new URL(req.url, "http://x").pathname.replace(/\/$/, "/index.html"));
  try {
    const body = readFileSync(path);
    res.writeHead(200, { "content-type": types[extname(path)] ?? "application/octet-stream" });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const { chromium } = createRequire(join(root, "package.json"))("playwright-core");
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
try {
  const page = await browser.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.waitForFunction(() => document.querySelector("#out")?.textContent !== "", null, { timeout: 30_000 }).catch(() => {});
  const shown = await page.textContent("#out");
  if (shown !== expected) throw new Error(`Vite app: the page shows ${JSON.stringify(shown?.slice(0, 200))}, not the recording's message (${problems.join("; ")})`);
} finally {
  await browser.close();
  server.close();
}
console.error("release-smoke: the tarball in a fresh Vite app, built and opened in Chromium: the recording's message, as the reference rebuilt it");
