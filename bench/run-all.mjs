// Side-by-side benchmark: this package (from ../pkg/dist) against peer streaming reducers,
// every cell in its own `node --expose-gc` process (bench/cell.mjs). Prints a markdown
// table on stdout (progress on stderr) and writes bench/results.json and bench/RESULTS.md.
//   node bench/run-all.mjs            (part of `npm run bench`)
// Environment: BENCH_TIMEOUT_S (per cell, counted from the end of its setup; default 45),
// BENCH_ONLY=<impl,impl> and BENCH_WORKLOADS=<W1:10000,W2> to run a subset (the files are
// then not written).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { CHUNK, IMPLS } from './impls.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('..', import.meta.url));
const TIMEOUT_S = Number(process.env.BENCH_TIMEOUT_S ?? 45);
const SETUP_CAP_S = 180;
const WORKLOADS = [['W1', 10_000], ['W1', 100_000], ['W1', 1_000_000], ['W2'], ['W3'], ['W4']];
const only = process.env.BENCH_ONLY?.split(',');
const onlyWl = process.env.BENCH_WORKLOADS?.split(',');
const partial = Boolean(only || onlyWl);
const log = (s) => process.stderr.write(s + '\n');

// ---------------- preflight: the package under test and the peers ----------------
if (!existsSync(new URL('../pkg/dist/index.js', import.meta.url))) {
  log('pkg/dist/index.js is missing: building it (node scripts/build-pkg.mjs)');
  const r = spawnSync(process.execPath, ['scripts/build-pkg.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
if (!existsSync(new URL('./node_modules/ai/package.json', import.meta.url))) {
  log('bench/node_modules is missing: installing the peers (npm ci in bench/)');
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: here, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// ---------------- one cell ----------------
function runCell(impl, wl, n) {
  return new Promise((resolve) => {
    const args = ['--expose-gc', '--max-old-space-size=8192', 'cell.mjs', impl, wl, ...(n ? [String(n)] : [])];
    const env = { ...process.env, BENCH_RUN_BUDGET_S: String(Math.max(1, TIMEOUT_S - 5)) };
    const child = spawn(process.execPath, args, { cwd: here, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '', timedOut = false, phase = 'setup', sizes = {};
    const kill = () => { timedOut = true; child.kill('SIGKILL'); };
    let timer = setTimeout(kill, SETUP_CAP_S * 1000);
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => {
      err += d;
      const ready = phase === 'setup' && /^READY (.*)\n/m.exec(err);
      if (ready) {
        phase = 'runs';
        sizes = JSON.parse(ready[1]);
        clearTimeout(timer);
        timer = setTimeout(kill, TIMEOUT_S * 1000);
      }
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const base = { impl, workload: wl, n: n ?? null, ...sizes };
      if (timedOut) return resolve({ ...base, status: 'timeout', limitS: phase === 'runs' ? TIMEOUT_S : SETUP_CAP_S, phase });
      const line = out.trim().split('\n').pop();
      if (code !== 0 || !line) return resolve({ ...base, status: 'error', code, stderr: err.replace(/^READY .*\n/m, '').trim().slice(-2000) });
      resolve({ status: 'ok', ...JSON.parse(line) });
    });
  });
}

// ---------------- the matrix ----------------
const wlKey = (wl, n) => (n ? `${wl}:${n}` : wl);
const cells = [];
const t0 = Date.now();
for (const [wl, n] of WORKLOADS) {
  if (onlyWl && !onlyWl.includes(wlKey(wl, n))) continue;
  for (const [impl] of IMPLS) {
    if (only && !only.includes(impl)) continue;
    if (wl === 'W1' && n === 1_000_000) {
      const prev = cells.find((c) => c.impl === impl && c.workload === 'W1' && c.n === 100_000);
      if (prev && prev.status !== 'ok') {
        cells.push({ impl, workload: wl, n, status: 'skipped', reason: 'W1 100k did not finish' });
        log(`${impl.padEnd(14)} ${wlKey(wl, n).padEnd(10)} skipped (100k did not finish)`);
        continue;
      }
    }
    const c = await runCell(impl, wl, n);
    cells.push(c);
    log(`${impl.padEnd(14)} ${wlKey(wl, n).padEnd(10)} ${c.status === 'ok' ? `${fmtMs(c.medianMs).padStart(8)} (${c.runs.length} runs) ${String(c.nsPerEvent).padStart(9)} ns/ev ${String(c.peakRssMB).padStart(5)} MB` : c.status + (c.stderr ? ': ' + c.stderr.split('\n').slice(-3).join(' | ') : '')}   [${((Date.now() - t0) / 1000).toFixed(0)} s]`);
  }
}
const totalS = (Date.now() - t0) / 1000;

// ---------------- the table ----------------
function fmtMs(ms) {
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}
const fmtNs = (ns) => (ns >= 1_000_000 ? `${(ns / 1e6).toFixed(1)} ms` : ns >= 100_000 ? `${(ns / 1000).toFixed(0)} µs` : ns >= 10_000 ? `${(ns / 1000).toFixed(1)} µs` : `${ns.toLocaleString('en-US')} ns`);
const get = (impl, wl, n) => cells.find((c) => c.impl === impl && c.workload === wl && c.n === (n ?? null));
function fmtCell(c) {
  if (!c) return '';
  if (c.status === 'ok') return `${fmtMs(c.medianMs)} · ${fmtNs(c.nsPerEvent)}/ev · ${c.peakRssMB} MB${c.runs.length < 3 ? ` (${c.runs.length} run${c.runs.length > 1 ? 's' : ''})` : ''}`;
  if (c.status === 'timeout') return c.phase === 'runs' ? `>${c.limitS} s` : `setup >${c.limitS} s`;
  if (c.status === 'skipped') return `>${TIMEOUT_S} s (not run)`;
  return 'error';
}
function growth(impl) {
  const a = get(impl, 'W1', 100_000), b = get(impl, 'W1', 1_000_000);
  if (a?.status !== 'ok') return '—';
  if (b?.status === 'ok') return `×${(b.medianMs / a.medianMs).toFixed(1)}`;
  if (b) return `>×${((TIMEOUT_S * 1000) / a.medianMs).toFixed(1)}`;
  return '';
}
const PEERS = ['ai6-read', 'ai6-chat', 'agui', 'langchain', 'openai', 'anthropic'];
const header = ['Implementation', ...WORKLOADS.map(([wl, n]) => (n ? `${wl} ${n >= 1e6 ? n / 1e6 + 'M' : n / 1e3 + 'k'}` : { W2: 'W2 1000×50 tool args', W3: 'W3 10 MB base64', W4: 'W4 ReAct ×20' }[wl])), 'W1 1M/100k'];
const rows = IMPLS.filter(([id]) => cells.some((c) => c.impl === id)).map(([id, text]) => [text, ...WORKLOADS.map(([wl, n]) => fmtCell(get(id, wl, n))), growth(id)]);
// the fastest peer per column
const fastest = WORKLOADS.map(([wl, n]) => {
  const ok = PEERS.map((p) => get(p, wl, n)).filter((c) => c?.status === 'ok').sort((x, y) => x.medianMs - y.medianMs);
  return ok.length ? `${ok[0].impl}: ${fmtMs(ok[0].medianMs)} · ${fmtNs(ok[0].nsPerEvent)}/ev` : '';
});
if (fastest.some(Boolean)) rows.push(['*fastest peer*', ...fastest, '']);
const md = (rs) => rs.map((r) => `| ${r.join(' | ')} |`).join('\n');
const table = md([header, header.map(() => '---'), ...rows]);

// wire sizes: what each format costs in bytes
const formats = [['as-wire', 'AgentScope SSE (reference `json.dumps`)'], ['ai6-read', 'AI SDK UI message stream (SSE)'], ['agui', 'AG-UI (SSE)'], ['langchain', 'LangChain SSE `event: data`'], ['openai', 'OpenAI Responses (SSE)'], ['anthropic', 'Anthropic NDJSON']];
const sizeRows = formats.filter(([id]) => cells.some((c) => c.impl === id && c.wireBytes)).map(([id, text]) => [text, ...WORKLOADS.map(([wl, n]) => {
  const c = get(id, wl, n);
  return c?.wireBytes ? `${c.events.toLocaleString('en-US')} ev · ${(c.wireBytes / 1e6).toFixed(1)} MB` : '';
})]);
const sizeTable = md([['Wire format', ...header.slice(1, -1)], header.slice(0, -1).map(() => '---'), ...sizeRows]);

// notes per implementation: a note found in every workload is general, else prefixed with its workloads
const noteLines = [];
for (const [id, text] of IMPLS) {
  const byNote = new Map();
  const wls = new Set();
  for (const c of cells) {
    if (c.impl !== id || !c.notes) continue;
    wls.add(c.workload);
    for (const n of c.notes) (byNote.get(n) ?? byNote.set(n, new Set()).get(n)).add(c.workload);
  }
  if (!byNote.size) continue;
  const parts = [...byNote].map(([n, w]) => (w.size === wls.size ? n : `${[...w].join(', ')}: ${n}`));
  noteLines.push(`- ${text}: ${parts.join('; ')}.`);
}
const machine = { node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memGB: Math.round(os.totalmem() / 2 ** 30), platform: `${os.platform()} ${os.release()} ${os.arch()}` };
const command = 'npm run bench  (cargo bench --bench reduce, bench/append.mjs, bench/session.mjs, then node bench/run-all.mjs)';

console.log(table);
log(`\ntotal ${totalS.toFixed(0)} s`);
if (partial) process.exit(0);

writeFileSync(new URL('./results.json', import.meta.url), JSON.stringify({
  command, runner: 'node bench/run-all.mjs', date: new Date().toISOString(), machine,
  timeoutS: TIMEOUT_S, chunkBytes: CHUNK, totalSeconds: Math.round(totalS), cells,
}, null, 2) + '\n');

// ---------------- the native side (bench/native.mjs, run just before) ----------------
let nativeSection = '';
const nativeFile = new URL('./results-native.json', import.meta.url);
if (existsSync(nativeFile)) {
  const nat = JSON.parse(readFileSync(nativeFile, 'utf8'));
  const secs = (s) => (s >= 1 ? `${s.toFixed(2)} s` : `${(s * 1000).toPrecision(3)} ms`);
  const LABELS = { 'W1-10000': 'W1 10k', 'W1-100000': 'W1 100k', 'W1-1000000': 'W1 1M', W2: 'W2', W3: 'W3', W4: 'W4' };
  const per = (s, n) => `${Math.round((s * 1e9) / n).toLocaleString('en-US')} ns/ev`;
  const rows = nat.files.map((f) => {
    const n = nat.events[f], ref = nat.reference[f], c = nat.crate[f];
    const refCell = ref == null ? 'not run (no Python reference)' : typeof ref === 'object' ? `>${ref.timeoutS} s (stopped)` : `${secs(ref)} · ${per(ref, n)}`;
    return [LABELS[f], n.toLocaleString('en-US'), `${secs(c)} · ${per(c, n)}`, secs(nat.cli[f]), refCell,
      typeof ref === 'number' ? `×${Math.round(ref / c).toLocaleString('en-US')}` : typeof ref === 'object' && ref ? `>×${Math.round(ref.timeoutS / c).toLocaleString('en-US')}` : ''];
  });
  nativeSection = `
## Native: this crate, its CLI and the Python reference on the same files

Generated by \`node bench/native.mjs\` (the step of \`npm run bench\` before this one) on ${nat.date.slice(0, 10)}; raw figures:
\`bench/results-native.json\`. The files are the AgentScope SSE text this package gets in *wire* mode above
(\`node bench/write-workloads.mjs\`). *Crate*: criterion's median (\`cargo bench --bench wire\`, benches/wire.rs) of
\`Session::feed\` in 64 KiB chunks, \`end()\`, and the message's wire JSON. *CLI*: median of 5 whole processes of
\`agentscope-message replay FILE\` (reading the file, writing the message). *Reference*: agentscope 2.0.11 in a venv
(\`bench/reference.py\`): per SSE frame \`TypeAdapter(AgentEvent).validate_json\`, \`AssistantMsg\` opened at
\`REPLY_START\`, \`msg.append_event\`, then \`model_dump_json()\`; median of 3 runs (1 run when it takes over 10 s).

${md([['Workload', 'Events', 'Crate (criterion)', 'CLI (process)', 'Python reference', 'Reference / crate'], ['---', '---', '---', '---', '---', '---'], ...rows])}
`;
}

writeFileSync(new URL('./RESULTS.md', import.meta.url), `# Side-by-side benchmark: agentscope-message vs peer reducers

Generated by \`node bench/run-all.mjs\` (the last step of \`npm run bench\`) on ${new Date().toISOString().slice(0, 10)}.
Machine: ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memGB} GB RAM, ${machine.platform}, Node ${machine.node}.
Whole matrix: ${Math.round(totalS)} s (\`npm run bench\` as a whole: about a minute more). Raw figures: \`bench/results.json\`.

Each cell is one fresh process (\`node --expose-gc --max-old-space-size=8192 bench/cell.mjs <impl> <workload> [n]\`). The
input is built before timing; a timed run goes from the wire text (or the pre-parsed events) to the final message. A cell
reports the **median wall time** of 5 runs (runs under 0.5 s) or 3 runs, fewer when the runs would not fit in 40 s (marked
"(1 run)"), GC before each run; **ns/event** is the median divided by the number of events in that implementation's own
wire format (the counts differ a little, see the second table); **peak RSS** is the process's \`resourceUsage().maxRSS\`
at the end, its high-water mark reset after setup (\`/proc/self/clear_refs\`), so it counts the input held in memory (the
wire bytes, or the parsed objects) and the runs, not the building of the input. A cell is stopped after ${TIMEOUT_S} s of runs (">${TIMEOUT_S} s"); W1 1M is not run for a
peer that did not finish W1 100k. "W1 1M/100k" is the growth of the median from 100k to 1M text deltas (linear = ×10).

Workloads (the abstract ops of the shared peer harness): W1 one text block of n 4-character deltas; W2 1,000 tool calls ×
50 argument deltas; W3 10 MB of binary as 2,560 base64 deltas of 4 KiB raw; W4 20 ReAct iterations (200 thinking deltas,
200 text deltas, 2 tool calls × 30 argument deltas, 2 tool results × 50 deltas).

This package (\`../pkg/dist/index.js\`): AgentScope events as the reference serialises them (\`id\`, \`created_at\`,
\`metadata\`, \`type\`, then the fields with their defaults, Python \`json.dumps\` separators), one \`REPLY_START\` …
\`REPLY_END\` reply with \`MODEL_CALL_START\`/\`MODEL_CALL_END\` per step. *wire*: the SSE bytes (\`data: {json}\\n\\n\`) in
${CHUNK / 1024} KiB chunks split anywhere → \`session.feed(chunk)\`, \`end()\`, \`getSnapshot()\`. *snapshots*: the same plus
\`getSnapshot()\` whenever another 1,000 events were applied. *objects*: pre-parsed event objects → \`session.apply(obj)\`,
then \`getSnapshot()\`. *Msg*: pre-parsed objects → \`AssistantMsg.appendEvent(obj)\`, then \`toJSON()\`. Floors: the same SSE
bytes through \`TextDecoder\`, split on \`"\\n\\n"\` and stripped of \`"data: "\`, without and with \`JSON.parse\` per event.

Peers (exact versions in \`bench/package.json\` / \`bench/package-lock.json\`): each gets its own wire format as bytes in
${CHUNK / 1024} KiB chunks and pays its own decoding, ending with its final message:
${noteLines.join('\n')}

## Results (median wall time · per event · peak RSS)

${table}

## Wire size of each format (events · MB)

${sizeTable}
${nativeSection}`);
log('wrote bench/results.json and bench/RESULTS.md');
