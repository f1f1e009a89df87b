// Folding already-parsed event objects (issue 35, item 1): the same event objects of a
// workload (bench/workloads.mjs, parsed once, outside the timing) folded into a fresh
// message by each way, in one node process:
//   (a) plain     a plain-JS in-place fold (bench/plain-fold.mjs): the yardstick
//   (b) compat    `agentscope-message/compat`'s appendEvent, in place (pkg/dist/entry-compat.js)
//   (c) immut.    compat's appendEventImmutable
//   (d) Msg       `Msg.appendEvent` (pkg/dist/index.js)
//   (e) Session   `Session.apply`
//   (g) plain-immutable  the plain fold writing a new message, content list and block
//                 per event instead (what an immutable update's copies cost alone)
//   (f) SDK       `appendEvent` of the TS SDK @agentscope-ai/agentscope, when its built
//                 message module is given (`--sdk <file>` or BENCH_AGENTSCOPE_SDK; it is
//                 on no registry: docs/benchmarks.md says how to build it)
// Per workload and way: untimed warm-up folds of the workload's first 20,000 events (W3:
// first 16), repeated until 50,000 events were folded (at most 10 times), then `--runs` (default 3) timed folds, each into a fresh message, with a
// full GC before each; the median per event is printed. Timed: making the message and
// applying every event; not timed: reading the final message (`toJSON()`, `get()`) and
// freeing it. After the runs, each way's final message must equal the plain fold's (up to
// the ids and timestamps a reducer makes up) and the event objects must be unchanged;
// otherwise it says so loudly and exits 1.
//
// Bounds (issue 35): on W1 and W4, (b)-(e) within 3x the plain fold (goal 2x); on W2 no
// slower than the SDK (when given); W3 is reported only. A bound missed is a FAIL and the
// exit status is 1.
//
//   node --expose-gc bench/fold-objects.mjs [--sdk /tmp/sdk-build/message.mjs]
//        [--only W1-10k,W1-100k,W1-1M,W2,W3,W4] [--ways plain,compat,immutable,msg,session,plain-immutable,sdk]
//        [--runs 3] [--json <file>]
// (pkg/ must be built: `node scripts/build-pkg.mjs`.)
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { plainAppend, plainAppendImmutable, plainMsg } from './plain-fold.mjs';
import { pyDumps, REPLY_ID, toAgentScope, w1, w2, w3, w4 } from './workloads.mjs';

const { values: args } = parseArgs({
  options: {
    sdk: { type: 'string' },
    only: { type: 'string' },
    ways: { type: 'string' },
    runs: { type: 'string', default: '3' },
    json: { type: 'string' },
  },
});
const RUNS = Number(args.runs);
if (!(RUNS >= 1)) throw new Error('--runs takes a positive number');
if (typeof globalThis.gc !== 'function') console.error('warning: run with `node --expose-gc` (no full GC before each run)');

const pkg = await import('../pkg/dist/index.js');
const compat = await import('../pkg/dist/entry-compat.js');
const sdkPath = args.sdk ?? process.env.BENCH_AGENTSCOPE_SDK;
let sdk = null;
if (sdkPath) {
  sdk = await import(pathToFileURL(resolve(sdkPath)).href);
  if (typeof sdk.appendEvent !== 'function' || typeof sdk.AssistantMsg !== 'function') {
    throw new Error(`${sdkPath}: not the SDK's message module (no appendEvent / AssistantMsg export)`);
  }
}

// ---------------- the workloads ----------------
// W3 as the issue (and bench/python_fold.py) has it: 10 MiB in deltas of 64 KiB of binary
// (87,384 base64 characters each); the side-by-side benchmark's W3 uses 4 KiB deltas.
const WORKLOADS = [
  { id: 'W1-10k', label: 'W1 10k text deltas', kind: 'W1', ops: () => w1(10_000) },
  { id: 'W1-100k', label: 'W1 100k text deltas', kind: 'W1', ops: () => w1(100_000) },
  { id: 'W1-1M', label: 'W1 1M text deltas', kind: 'W1', ops: () => w1(1_000_000) },
  { id: 'W2', label: 'W2 1,000 tool calls × 50 deltas', kind: 'W2', ops: () => w2(1000, 50) },
  { id: 'W3', label: 'W3 10 MiB base64, 64 KiB deltas', kind: 'W3', ops: () => w3(10 << 20, 64 << 10) },
  { id: 'W4', label: 'W4 ReAct, 20 iterations', kind: 'W4', ops: () => w4(20) },
];

/** The events of a workload as an app holds them: each the `JSON.parse` of its SSE frame's data. */
const parsedEvents = (ops) => toAgentScope(ops).map((e) => JSON.parse(pyDumps(e)));

// ---------------- the ways ----------------
const WAYS = [
  {
    id: 'plain', label: '(a) plain-JS in-place fold',
    fold(events) {
      const m = plainMsg(REPLY_ID, 'Friday');
      for (const e of events) plainAppend(m, e);
      return m;
    },
    read: (m) => m,
  },
  {
    id: 'compat', label: '(b) compat `appendEvent` in place', bounded: true,
    fold(events) {
      let m = compat.AssistantMsg({ id: REPLY_ID, name: 'Friday', content: [] });
      for (const e of events) m = compat.appendEvent(m, e);
      return m;
    },
    read: (m) => m,
  },
  {
    id: 'immutable', label: '(c) compat `appendEventImmutable`', bounded: true,
    fold(events) {
      let m = compat.AssistantMsg({ id: REPLY_ID, name: 'Friday', content: [] });
      for (const e of events) m = compat.appendEventImmutable(m, e);
      return m;
    },
    read: (m) => m,
  },
  {
    id: 'msg', label: '(d) `Msg.appendEvent`', bounded: true,
    fold(events) {
      const m = new pkg.AssistantMsg({ name: 'Friday', content: [], id: REPLY_ID });
      for (const e of events) m.appendEvent(e);
      return m;
    },
    read: (m) => m.toJSON(),
    free: (m) => m.free(),
  },
  {
    id: 'session', label: '(e) `Session.apply`', bounded: true,
    fold(events) {
      const s = new pkg.Session();
      for (const e of events) s.apply(e);
      return s;
    },
    read: (s) => s.get(REPLY_ID),
    free: (s) => s.free(),
  },
  {
    id: 'plain-immutable', label: '(g) plain-JS immutable fold (new message, list and block per event)',
    fold(events) {
      let m = plainMsg(REPLY_ID, 'Friday');
      for (const e of events) m = plainAppendImmutable(m, e);
      return m;
    },
    read: (m) => m,
  },
  {
    id: 'sdk', label: '(f) TS SDK `appendEvent`', sdk: true,
    fold(events) {
      const m = sdk.AssistantMsg({ name: 'Friday', content: [], id: REPLY_ID });
      for (const e of events) sdk.appendEvent(m, e);
      return m;
    },
    read: (m) => m,
  },
];

const pick = (list, csv, what) => {
  if (!csv) return list;
  const ids = csv.split(',').map((s) => s.trim()).filter(Boolean);
  for (const id of ids) if (!list.some((x) => x.id === id)) throw new Error(`unknown ${what} ${id} (${list.map((x) => x.id).join(', ')})`);
  return list.filter((x) => ids.includes(x.id));
};
const workloads = pick(WORKLOADS, args.only, 'workload');
const ways = pick(WAYS, args.ways, 'way').filter((w) => !w.sdk || sdk !== null);
if (!ways.some((w) => w.id === 'plain')) ways.unshift(WAYS[0]); // the yardstick always runs

// ---------------- equality up to made-up ids and timestamps ----------------
/**
 * A message as compared: keys sorted, every `created_at` / `finished_at` reduced to
 * whether it is set, and the ids of a tool result's output blocks (made up by each
 * reducer) dropped. Everything else (ids given by events, texts, states, usage,
 * metadata) must be equal.
 */
function canonical(msg) {
  const walk = (v) => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    const out = {};
    for (const k of Object.keys(v).sort()) {
      if (v[k] === undefined) continue;
      out[k] = k === 'created_at' || k === 'finished_at' ? (v[k] === null ? null : '<time>') : walk(v[k]);
    }
    return out;
  };
  const m = walk(msg);
  for (const b of m.content ?? []) {
    if (b.type === 'tool_result' && Array.isArray(b.output)) for (const o of b.output) if (o && typeof o === 'object') delete o.id;
  }
  return m;
}

/** The first path where `a` and `b` differ, with both values (shortened), or null. */
function firstDifference(a, b, path = '$') {
  if (Object.is(a, b)) return null;
  const short = (v) => {
    const s = JSON.stringify(v);
    return s === undefined ? 'undefined' : s.length > 120 ? `${s.slice(0, 60)}…(${s.length} chars)…${s.slice(-40)}` : s;
  };
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) {
    return `${path}: ${short(a)} vs ${short(b)}`;
  }
  if (Array.isArray(a)) {
    if (a.length !== b.length) return `${path}.length: ${a.length} vs ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  for (const k of keys) {
    if (!(k in a)) return `${path}.${k}: missing vs ${short(b[k])}`;
    if (!(k in b)) return `${path}.${k}: ${short(a[k])} vs missing`;
    const d = firstDifference(a[k], b[k], `${path}.${k}`);
    if (d) return d;
  }
  return null;
}

/** A digest of the event objects, to check that no way changed them. */
function digest(events) {
  const h = createHash('sha1');
  for (const e of events) h.update(JSON.stringify(e));
  return h.digest('hex');
}

// ---------------- the runs ----------------
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Warm-up, then `RUNS` timed folds; returns the per-run times (ms) and the final message. */
function measure(way, events, warmup) {
  for (let done = 0, pass = 0; pass < 10 && (pass === 0 || done < 50_000); pass++, done += warmup.length) {
    way.free?.(way.fold(warmup));
  }
  const times = [];
  let final;
  for (let r = 0; r < RUNS; r++) {
    globalThis.gc?.();
    const t0 = performance.now();
    const m = way.fold(events);
    times.push(performance.now() - t0);
    if (r === RUNS - 1) final = canonical(way.read(m));
    way.free?.(m);
  }
  return { times, final };
}

const rows = [];
let failed = false;
const loud = (text) => console.error(`\n!!!!!!!! ${text}\n`);
for (const wl of workloads) {
  let events = parsedEvents(wl.ops());
  const warmup = events.slice(0, wl.kind === 'W3' ? 16 : 20_000);
  const before = digest(events);
  const cells = [];
  let reference;
  for (const way of ways) {
    process.stderr.write(`${wl.id} ${way.id} … `);
    let cell;
    try {
      const { times, final } = measure(way, events, warmup);
      cell = { way, times, ms: median(times), equal: true };
      if (way.id === 'plain') reference = final;
      else {
        const diff = firstDifference(reference, final);
        if (diff !== null) {
          cell.equal = false;
          cell.diff = diff;
          loud(`${wl.id}: ${way.label} ends with a message that is NOT EQUAL to the plain fold's: ${diff} (plain vs this way)`);
        }
      }
      process.stderr.write(`${times.map((t) => t.toFixed(1)).join(' / ')} ms\n`);
    } catch (e) {
      cell = { way, error: String(e?.stack ?? e) };
      loud(`${wl.id}: ${way.label} threw: ${cell.error}`);
    }
    cells.push(cell);
  }
  const changed = digest(events) !== before;
  if (changed) loud(`${wl.id}: the event objects were changed by a way's fold`);
  const n = events.length;
  events = null;
  const plainMs = cells.find((c) => c.way.id === 'plain')?.ms;
  const sdkMs = cells.find((c) => c.way.id === 'sdk')?.ms;
  for (const c of cells) {
    const row = { workload: wl.id, label: wl.label, events: n, way: c.way.id, wayLabel: c.way.label };
    if (c.error) {
      Object.assign(row, { result: 'ERROR', error: c.error });
      failed = true;
    } else {
      Object.assign(row, {
        runsMs: c.times,
        medianMs: c.ms,
        usPerEvent: (c.ms * 1000) / n,
        xPlain: c.ms / plainMs,
        xSdk: sdkMs === undefined ? null : c.ms / sdkMs,
      });
      let bound = '';
      let result = '';
      if (c.way.bounded) {
        if (wl.kind === 'W1' || wl.kind === 'W4') {
          bound = '≤ 3× plain (goal 2×)';
          result = row.xPlain <= 2 ? 'PASS' : row.xPlain <= 3 ? 'PASS (goal 2× missed)' : 'FAIL';
        } else if (wl.kind === 'W2') {
          bound = '≤ 1× SDK';
          result = row.xSdk === null ? 'n/a (no --sdk)' : row.xSdk <= 1 ? 'PASS' : 'FAIL';
        } else {
          bound = 'reported only';
        }
      }
      if (!c.equal) result = `NOT EQUAL (${c.diff})`;
      if (changed) result = `${result} events changed`.trim();
      if (result.startsWith('FAIL') || !c.equal || changed) failed = true;
      Object.assign(row, { bound, result });
    }
    rows.push(row);
  }
}

// ---------------- the table ----------------
const fmtUs = (us) => (us >= 100 ? us.toFixed(0) : us >= 10 ? us.toFixed(1) : us >= 1 ? us.toFixed(2) : us.toFixed(3));
const fmtX = (x) => (x === null || x === undefined ? '–' : x >= 100 ? `${x.toFixed(0)}×` : x >= 10 ? `${x.toFixed(1)}×` : x >= 0.1 ? `${x.toFixed(2)}×` : `${x.toPrecision(2)}×`);
const fmtMs = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : ms >= 10 ? `${ms.toFixed(0)} ms` : `${ms.toFixed(1)} ms`);
console.log(`\nFolding parsed event objects: median of ${RUNS} runs, each into a fresh message (node ${process.version}${sdk ? `; SDK: ${sdkPath}` : '; no SDK given'})\n`);
console.log('| workload | way | µs / event | median fold | × plain fold | × SDK | bound | result |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  const head = `| ${r.label} (${r.events.toLocaleString('en-US')} events) | ${r.wayLabel} |`;
  if (r.result === 'ERROR') console.log(`${head} – | – | – | – | | ERROR |`);
  else console.log(`${head} ${fmtUs(r.usPerEvent)} | ${fmtMs(r.medianMs)} | ${fmtX(r.xPlain)} | ${fmtX(r.xSdk)} | ${r.bound} | ${r.result} |`);
}
if (args.json) {
  writeFileSync(args.json, JSON.stringify({ node: process.version, runs: RUNS, sdk: sdkPath ?? null, rows }, null, 2) + '\n');
}
if (failed) {
  console.log('\nFAIL: a bound is missed, a way threw, or a final message is not equal (see above).');
  process.exit(1);
}
console.log('\nPASS: every bound met and every final message equal.');
