// One cell of the side-by-side benchmark, in its own process (bench/run-all.mjs spawns it):
//   node --expose-gc bench/cell.mjs <impl> <W1|W2|W3|W4> [n]
// Builds the workload and the implementation's input (untimed), prints "READY {events, wireBytes}"
// on stderr,
// then times whole runs (input -> final message), GC before each, and prints one JSON
// line on stdout. Runs: 5 when a run takes < 0.5 s, else 3, fewer when the runs would
// not fit in BENCH_RUN_BUDGET_S (default 40 s; the runner's timeout starts at READY).
import { writeFileSync } from 'node:fs';
import { build } from './workloads.mjs';
import { prepare } from './impls.mjs';

const [impl, wl, nArg] = process.argv.slice(2);
const n = nArg ? Number(nArg) : undefined;
const budgetMs = Number(process.env.BENCH_RUN_BUDGET_S ?? 40) * 1000;
const mb = (bytes) => Math.round(bytes / 1048576);

const s0 = performance.now();
const cell = await prepare(impl, wl, build(wl, n));
const setupMs = performance.now() - s0;
globalThis.gc?.();
const rssBeforeMB = mb(process.memoryUsage().rss);
const maxRssSetupMB = Math.round(process.resourceUsage().maxRSS / 1024);
// Reset the peak-RSS high-water mark to the current RSS (Linux: /proc/self/clear_refs "5"), so
// that the peak counts the input held in memory and the runs, not the building of the input.
let peakReset = false;
try { writeFileSync('/proc/self/clear_refs', '5'); peakReset = true; } catch {}
process.stderr.write(`READY ${JSON.stringify({ events: cell.events, wireBytes: cell.wireBytes })}\n`);

const times = [];
let result;
const t0 = performance.now();
for (let i = 0; ; i++) {
  globalThis.gc?.();
  const start = performance.now();
  result = await cell.run();
  const ms = performance.now() - start;
  times.push(ms);
  const target = times[0] < 500 ? 5 : 3;
  if (times.length >= target) break;
  if (performance.now() - t0 + ms > budgetMs) break; // the next run would not fit
}
const sorted = [...times].sort((a, b) => a - b);
const medianMs = sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
console.log(JSON.stringify({
  impl, workload: wl, n: n ?? null, events: cell.events, wireBytes: cell.wireBytes,
  runs: times.map((t) => +t.toFixed(2)), medianMs: +medianMs.toFixed(2),
  nsPerEvent: Math.round((medianMs * 1e6) / cell.events),
  peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024), peakReset, rssBeforeRunsMB: rssBeforeMB, maxRssSetupMB,
  setupMs: Math.round(setupMs), result, notes: cell.notes,
}));
