// Native side of the benchmark: this crate (criterion, benches/wire.rs), the CLI, and the
// Python reference (agentscope 2.0.11) on the same AgentScope SSE files, written by
// bench/write-workloads.mjs. Writes bench/results-native.json, which bench/run-all.mjs
// puts into bench/RESULTS.md.
//   node bench/native.mjs            (part of `npm run bench`)
// Environment: BENCH_PYTHON (a python with agentscope==2.0.11; default: the venv that
// scripts/reference-venv makes in target/asvenv), BENCH_REFERENCE_TIMEOUT_S (a reference run is stopped after this and
// reported as not finished; default 300).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = join(root, 'target/bench-workloads');
const log = (s) => process.stderr.write(s + '\n');
const run = (cmd, args, opts = {}) => {
  log(`$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
  if (r.status !== 0) throw new Error(`${cmd} failed (${r.status})`);
};
const FILES = ['W1-10000', 'W1-100000', 'W1-1000000', 'W2', 'W3', 'W4'];
const median = (xs) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];

run(process.execPath, ['bench/write-workloads.mjs', dir]);

// ---- this crate: criterion's median per workload ----
run('cargo', ['bench', '--bench', 'wire'], { env: { ...process.env, BENCH_WORKLOADS: dir } });
const crate = {};
for (const f of FILES) {
  const est = JSON.parse(readFileSync(join(root, `target/criterion/wire/${f}/new/estimates.json`), 'utf8'));
  crate[f] = est.median.point_estimate / 1e9;
}

// ---- the CLI, a whole process per run: reading the file, replay, writing the message ----
run('cargo', ['build', '--release', '--features', 'cli', '--bin', 'agentscope-message']);
const cli = {};
for (const f of FILES) {
  const times = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const r = spawnSync(join(root, 'target/release/agentscope-message'), ['replay', join(dir, `${f}.sse`)], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) throw new Error(`the CLI failed on ${f}`);
    times.push((performance.now() - t) / 1000);
  }
  cli[f] = median(times);
}

// ---- the Python reference ----
function python() {
  if (process.env.BENCH_PYTHON) return process.env.BENCH_PYTHON;
  const r = spawnSync(join(root, 'scripts/reference-venv'), { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) log('no Python reference: bench/RESULTS.md says "not run"');
  return r.status === 0 ? r.stdout.trim() : null;
}
const reference = {};
const py = python();
const timeoutS = Number(process.env.BENCH_REFERENCE_TIMEOUT_S ?? 300);
const referenceRuns = (f, runs) => {
  const r = spawnSync(py, ['bench/reference.py', '--runs', String(runs), join(dir, `${f}.sse`)],
    { cwd: root, encoding: 'utf8', timeout: timeoutS * 1000 * runs });
  if (r.error?.code === 'ETIMEDOUT' || r.signal) return null;
  if (r.status !== 0) throw new Error(`the reference failed on ${f}: ${r.stderr}`);
  return JSON.parse(r.stdout).runs;
};
for (const f of py ? FILES : []) {
  // one run is enough for a run of many seconds; three otherwise
  let runs = referenceRuns(f, 1);
  if (runs && runs[0] < 10) runs = [...runs, ...(referenceRuns(f, 2) ?? [])];
  reference[f] = runs ? median(runs) : { timeoutS };
  log(runs ? `reference ${f}: ${median(runs).toFixed(2)} s (${runs.length} runs)` : `reference ${f}: not finished in ${timeoutS} s`);
}

const events = Object.fromEntries(FILES.map((f) => [f, readFileSync(join(dir, `${f}.sse`), 'latin1').split('\n\n').length - 1]));
const out = { date: new Date().toISOString(), files: FILES, events, crate, cli, reference };
writeFileSync(new URL('./results-native.json', import.meta.url), JSON.stringify(out, null, 2) + '\n');
log('wrote bench/results-native.json');
