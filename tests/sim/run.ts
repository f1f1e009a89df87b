// scripts/simulate: runs the chat's schedules (explore.ts) seed by seed, shrinks a failing
// one with fast-check and prints it; `--self-test` runs the explorer against deliberately
// broken copies of the chat (mutants.ts) and requires each to be caught.
//   --seeds A:B        the schedules of seeds A..B-1 (default 0:200)
//   --jobs N           in N processes (default 1)
//   --schedule JSON    one schedule (as a failure prints it), with its whole trace
//   --self-test        every mutant: caught within its seeds? (with --jobs N: N mutants at a time)
//   --regressions      the schedules found while building (regressions.ts): each must hold
//   --collect N        up to N failing seeds of --seeds, one per kind of violation, shrunk (JSON lines)
//   --module DIR       the package's dist folder to load (default pkg/dist)
import { fork } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import fc from "fast-check";
import { runSchedule, scheduleArb, showSchedule, type ChatModule, type Schedule } from "./explore.ts";
import { MUTANTS } from "./mutants.ts";
import { REGRESSIONS } from "./regressions.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const { values: args } = parseArgs({
  options: {
    seeds: { type: "string", default: "0:200" },
    jobs: { type: "string", default: "1" },
    schedule: { type: "string" },
    "self-test": { type: "boolean", default: false },
    regressions: { type: "boolean", default: false },
    collect: { type: "string" },
    module: { type: "string", default: join(root, "pkg/dist") },
    quiet: { type: "boolean", default: false },
    mutant: { type: "string" },
  },
});

async function load(dir: string): Promise<ChatModule> {
  // the package's main entry first: in node it loads the .wasm at import, on the real clock
  await import(pathToFileURL(join(resolve(dir), "index.js")).href);
  return (await import(pathToFileURL(join(resolve(dir), "chat.js")).href)) as ChatModule;
}

/** The schedule of `seed` (fast-check's first value for that seed). */
function scheduleOf(seed: number): Schedule {
  return fc.sample(scheduleArb, { seed, numRuns: 1 })[0]!;
}

/** Shrinks the failing schedule of `seed`; returns the smallest found and its outcome. */
async function shrink(seed: number, mod: ChatModule): Promise<Schedule> {
  const result = await fc.check(
    fc.asyncProperty(scheduleArb, async (s) => (await runSchedule(s, mod)).violations.length === 0),
    { seed, numRuns: 1, endOnFailure: false },
  );
  return (result.counterexample?.[0] as Schedule | undefined) ?? scheduleOf(seed);
}

/** Runs seeds [from, to); returns the first failing seed or null. */
async function runSeeds(from: number, to: number, mod: ChatModule, onViolation: "stop" | "report"): Promise<{ count: number; failed: number | null }> {
  let count = 0;
  for (let seed = from; seed < to; seed++) {
    if (process.env.SIMULATE_TRACE_SEEDS) console.error(`seed ${seed}`);
    const outcome = await runSchedule(scheduleOf(seed), mod);
    count += 1;
    if (outcome.violations.length > 0) {
      if (onViolation === "report") {
        console.log(`seed ${seed}: ${outcome.violations.length} violation(s)`);
        for (const v of outcome.violations) console.log(`  - ${v}`);
      }
      return { count, failed: seed };
    }
  }
  return { count, failed: null };
}

async function report(seed: number, mod: ChatModule): Promise<void> {
  console.log(`shrinking the schedule of seed ${seed}…`);
  const small = await shrink(seed, mod);
  const outcome = await runSchedule(small, mod);
  console.log(`shrunk schedule (replay: scripts/simulate --schedule '<this JSON>'):\n${showSchedule(small)}`);
  for (const v of outcome.violations) console.log(`  - ${v}`);
  console.log("trace:");
  for (const line of outcome.trace.slice(-80)) console.log(`  ${line}`);
}

async function main(): Promise<number> {
  if (args.schedule !== undefined) {
    const mod = await load(args.module);
    const outcome = await runSchedule(JSON.parse(args.schedule) as Schedule, mod);
    for (const line of outcome.trace) console.log(line);
    for (const v of outcome.violations) console.log(`violation: ${v}`);
    console.log(`1 schedules, ${outcome.violations.length} violations`);
    return outcome.violations.length > 0 ? 1 : 0;
  }
  if (args["self-test"]) return selfTest();
  if (args.collect !== undefined) {
    // every failing seed of --seeds, shrunk: one JSON line each (to find regressions)
    const mod = await load(args.module);
    const [a, b] = args.seeds.split(":").map(Number) as [number, number];
    const kinds = new Set<string>();
    for (let seed = a; seed < b && kinds.size < Number(args.collect); seed++) {
      const outcome = await runSchedule(scheduleOf(seed), mod);
      if (outcome.violations.length === 0) continue;
      const kind = outcome.violations[0]!.replace(/[0-9a-f]{32}/g, "ID").replace(/\d+/g, "N");
      if (kinds.has(kind)) continue;
      kinds.add(kind);
      const small = await shrink(seed, mod);
      const again = await runSchedule(small, mod);
      console.log(JSON.stringify({ seed, violation: again.violations[0] ?? outcome.violations[0], schedule: small }));
    }
    return 0;
  }
  if (args.regressions) {
    const mod = await load(args.module);
    let failing = 0;
    for (const r of REGRESSIONS) {
      const outcome = await runSchedule(r.schedule, mod);
      if (outcome.violations.length > 0) failing += 1;
      console.log(`${outcome.violations.length === 0 ? "holds" : "BROKEN"}: ${r.name}${outcome.violations.map((v) => `\n  - ${v.split("\n")[0]}`).join("")}`);
    }
    console.log(`${REGRESSIONS.length} regressions, ${failing} broken`);
    return failing > 0 ? 1 : 0;
  }
  const [a, b] = args.seeds.split(":").map(Number) as [number, number];
  if (!(Number.isInteger(a) && Number.isInteger(b) && b > a)) throw new Error("--seeds takes A:B, integers, B > A");
  const jobs = Math.max(1, Math.min(Number(args.jobs) || 1, b - a));
  if (jobs > 1) return parallel(a, b, jobs);
  const mod = await load(args.module);
  const { count, failed } = await runSeeds(a, b, mod, "report");
  if (failed !== null) {
    await report(failed, mod);
    console.log(`${count} schedules, 1 violations`);
    return 1;
  }
  console.log(`${count} schedules, 0 violations`);
  return 0;
}

/** Splits [a, b) over `jobs` child processes of this script. */
async function parallel(a: number, b: number, jobs: number): Promise<number> {
  const size = Math.ceil((b - a) / jobs);
  const runs: Promise<{ code: number; out: string }>[] = [];
  for (let j = 0; j < jobs; j++) {
    const from = a + j * size;
    const to = Math.min(b, from + size);
    if (from >= to) break;
    runs.push(
      new Promise((done) => {
        const child = fork(fileURLToPath(import.meta.url), ["--seeds", `${from}:${to}`, "--module", args.module], { execArgv: ["--import", "tsx"], stdio: ["ignore", "pipe", "inherit", "ipc"] });
        let out = "";
        child.stdout!.on("data", (d: Buffer) => (out += d));
        child.on("exit", (code) => done({ code: code ?? 1, out }));
      }),
    );
  }
  const results = await Promise.all(runs);
  let count = 0;
  let violations = 0;
  for (const r of results) {
    const last = /(\d+) schedules, (\d+) violations\s*$/.exec(r.out);
    if (last === null) {
      process.stdout.write(r.out);
      violations += 1;
      continue;
    }
    count += Number(last[1]);
    violations += Number(last[2]);
    if (r.code !== 0) process.stdout.write(r.out.slice(0, r.out.length - last[0].length));
  }
  console.log(`${count} schedules, ${violations} violations`);
  return violations > 0 ? 1 : 0;
}

/** One mutant (`MUTANTS[i]`): the package copied into `scratch`, one change made, the explorer run until it fails. */
async function selfTestOne(i: number, scratch: string): Promise<{ caught: boolean; line: string }> {
  const m = MUTANTS[i]!;
  // the whole package (its package.json maps `#wasm` and `#init`), one file of dist/ changed
  const copy = join(scratch, String(i));
  cpSync(dirname(resolve(args.module)), copy, { recursive: true, filter: (f) => !f.includes("node_modules") });
  const dir = join(copy, basename(resolve(args.module)));
  const file = join(dir, m.file);
  const text = readFileSync(file, "utf8");
  const at = text.indexOf(m.from);
  if (at < 0 || text.indexOf(m.from, at + 1) >= 0) return { caught: false, line: `mutant ${m.name}: its code is not found once in ${m.file} (the mutant is stale)` };
  writeFileSync(file, text.slice(0, at) + m.to + text.slice(at + m.from.length));
  const mod = await load(dir);
  const { count, failed } = await runSeeds(m.seeds[0], m.seeds[1], mod, "stop");
  if (failed === null) return { caught: false, line: `mutant ${m.name}: NOT caught in seeds ${m.seeds[0]}:${m.seeds[1]}` };
  const outcome = await runSchedule(scheduleOf(failed), mod);
  return { caught: true, line: `mutant ${m.name}: caught by seed ${failed} (${count} schedules): ${outcome.violations[0]?.split("\n")[0]}` };
}

/** Each mutant (see {@link selfTestOne}), `--jobs` at a time in child processes; prints `k/k mutants caught`. */
async function selfTest(): Promise<number> {
  const scratch = mkdtempSync(join(tmpdir(), "chat-mutants-"));
  try {
    if (args.mutant !== undefined) {
      // a child: one mutant, its line on stdout, exit 0 when caught
      const { caught, line } = await selfTestOne(Number(args.mutant), scratch);
      console.log(line);
      return caught ? 0 : 1;
    }
    const jobs = Math.max(1, Number(args.jobs) || 1);
    const results: { caught: boolean; line: string }[] = new Array(MUTANTS.length);
    // the widest searches first (they take longest), so that the jobs end together
    const order = MUTANTS.map((m, i) => [m.seeds[1] - m.seeds[0], i] as const).sort((x, y) => y[0] - x[0] || x[1] - y[1]).map(([, i]) => i);
    let next = 0;
    const worker = async () => {
      for (let k = next++; k < order.length; k = next++) {
        const i = order[k]!;
        results[i] = await new Promise((done) => {
          const child = fork(fileURLToPath(import.meta.url), ["--self-test", "--mutant", String(i), "--module", args.module], { execArgv: ["--import", "tsx"], stdio: ["ignore", "pipe", "inherit", "ipc"] });
          let out = "";
          child.stdout!.on("data", (d: Buffer) => (out += d));
          child.on("exit", (code) => done({ caught: code === 0, line: out.trim() || `mutant ${MUTANTS[i]!.name}: the child failed (exit ${code})` }));
        });
      }
    };
    await Promise.all(Array.from({ length: Math.min(jobs, MUTANTS.length) }, worker));
    for (const r of results) if (!args.quiet || !r.caught) console.log(r.line);
    const caught = results.filter((r) => r.caught).length;
    console.log(`${caught}/${MUTANTS.length} mutants caught`);
    return caught === MUTANTS.length ? 0 : 1;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

process.exitCode = await main();
