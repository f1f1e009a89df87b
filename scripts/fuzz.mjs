// Fuzzing with cargo fuzz (libFuzzer; needs the nightly toolchain): the targets of fuzz/
// (decode, framing, session, apply, validate), each seeded from the conformance fixtures and the
// recordings. Prints each target's executions and records them in target/fuzz-summary.json.
//   node scripts/fuzz.mjs [--seconds S | --runs N] [--jobs J] [target...]
// Default: 15 s per target. The targets are built once, then run J at a time (default: one
// per core; each libFuzzer process uses one). A crash stops the run with libFuzzer's report
// and the crashing input in fuzz/artifacts/.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { availableParallelism } from "node:os";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const CARGO_FUZZ_VERSION = "0.13.1";
const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const args = process.argv.slice(2);
let limit = ["-max_total_time=15"];
let jobs = availableParallelism();
const targets = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--seconds") limit = [`-max_total_time=${args[++i]}`];
  else if (args[i] === "--runs") limit = [`-runs=${args[++i]}`];
  else if (args[i] === "--jobs") jobs = Math.max(1, Number(args[++i]) || 1);
  else targets.push(args[i]);
}
const all = ["decode", "framing", "session", "apply", "validate"];
const log = (s) => process.stderr.write(s + "\n");

const version = spawnSync("cargo", ["fuzz", "--version"], { encoding: "utf8" }).stdout ?? "";
if (!version.includes(CARGO_FUZZ_VERSION)) {
  log(`installing cargo-fuzz ${CARGO_FUZZ_VERSION}`);
  execFileSync("cargo", ["install", "cargo-fuzz", "--version", CARGO_FUZZ_VERSION, "--locked", "--force"], { stdio: "inherit" });
}

// ---- seed corpus from the fixtures and recordings ----
const corpus = join(root, "target/fuzz-corpus");
rmSync(corpus, { recursive: true, force: true });
const seeds = { decode: [], framing: [], session: [], apply: [], validate: [] };
const conformance = join(root, "tests/fixtures/conformance");
for (const f of readdirSync(conformance)) {
  const c = JSON.parse(readFileSync(join(conformance, f), "utf8"));
  for (const e of c.events ?? []) seeds.decode.push(JSON.stringify(e));
  if (c.events?.length) seeds.apply.push(c.events.map((e) => JSON.stringify({ ...e, reply_id: "r" })).join("\n"));
  if (c.expected && typeof c.expected === "object" && !c.expected.error) seeds.validate.push(JSON.stringify(c.expected));
  if (c.initial) seeds.validate.push(JSON.stringify(c.initial));
}
const recordings = join(root, "examples/recordings");
for (const d of readdirSync(recordings, { withFileTypes: true }).filter((d) => d.isDirectory())) {
  for (const f of ["events.sse", "events.jsonl"]) {
    const text = readFileSync(join(recordings, d.name, f));
    // the first byte picks the chunking (framing) or the options and chunking (session)
    seeds.framing.push(Buffer.concat([Buffer.from([7]), text]));
    seeds.session.push(Buffer.concat([Buffer.from([0x3a]), text]));
  }
  seeds.validate.push(readFileSync(join(recordings, d.name, "final_msg.json")));
}
for (const [target, list] of Object.entries(seeds)) {
  const dir = join(corpus, target);
  mkdirSync(dir, { recursive: true });
  list.forEach((s, i) => writeFileSync(join(dir, `seed-${i}`), s));
}

// ---- run ----
const summaryFile = join(root, "target/fuzz-summary.json");
let summary = {};
try {
  summary = JSON.parse(readFileSync(summaryFile, "utf8"));
} catch {}
const chosen = targets.length ? targets : all;
log(`fuzz: building ${chosen.join(", ")}`);
const built = spawnSync("cargo", ["+nightly", "fuzz", "build", "--fuzz-dir", "fuzz", ...(chosen.length === 1 ? chosen : [])], { cwd: root, stdio: "inherit" });
if (built.status !== 0) {
  log(`fuzz: the build FAILED (exit ${built.status})`);
  process.exit(1);
}

/** Runs one target (already built: cargo only checks it) to its limit; resolves with its executions, or exits on a crash. */
function fuzz(target) {
  log(`fuzz ${target} (${limit.join(" ")})`);
  const child = spawn("cargo", ["+nightly", "fuzz", "run", "--fuzz-dir", "fuzz", target, join(corpus, target), "--",
    ...limit, "-rss_limit_mb=4096", "-max_len=16384", "-print_final_stats=1"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  // libFuzzer's output can be long: only its tail is kept (the report of a crash is there)
  let out = "";
  const keep = (d) => void (out = (out + d).slice(-1 << 20));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  return new Promise((resolve) => {
    child.on("close", (status) => {
      const runs = /stat::number_of_executed_units:\s*(\d+)/.exec(out);
      if (status !== 0 || !runs) {
        process.stderr.write(out.slice(-6000));
        log(`fuzz ${target}: FAILED (exit ${status})`);
        process.exit(1);
      }
      summary[target] = { executions: Number(runs[1]), limit: limit.join(" "), crashes: 0, date: new Date().toISOString() };
      log(`fuzz ${target}: ${Number(runs[1]).toLocaleString("en-US")} executions, no crash`);
      resolve();
    });
  });
}

const queue = [...chosen];
await Promise.all(Array.from({ length: Math.min(jobs, queue.length) }, async () => {
  while (queue.length > 0) await fuzz(queue.shift());
}));
mkdirSync(join(root, "target"), { recursive: true });
writeFileSync(summaryFile, JSON.stringify(summary, null, 2) + "\n");
