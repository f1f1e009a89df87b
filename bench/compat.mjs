// Per-event cost of `agentscope-message/compat`'s appendEvent on plain objects: in place
// (the app passes back the object it got), with the app cloning the message before every
// event (structuredClone: rebuilt from its JSON each time), with a shallow copy
// ({...msg}: the tie kept), and the immutable form. The wasm package in pkg/ (build it
// first with `node scripts/build-pkg.mjs`). Prints figures; asserts nothing about time.
//   node --expose-gc bench/compat.mjs
import { readFileSync } from "node:fs";
import { AssistantMsg, appendEvent, appendEventImmutable, foldStats, resetFoldStats } from "../pkg/dist/entry-compat.js";

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Median wall time (ms) of `body` over `runs` runs, after one warm-up. */
function time(body, runs = 5) {
  body();
  const times = [];
  for (let i = 0; i < runs; i++) {
    globalThis.gc?.();
    const t0 = performance.now();
    body();
    times.push(performance.now() - t0);
  }
  return median(times);
}

const modes = {
  "in place": (msg, e) => appendEvent(msg, e),
  "shallow copy {...msg}": (msg, e) => appendEvent({ ...msg }, e),
  "immutable (appendEventImmutable)": (msg, e) => appendEventImmutable(msg, e),
  "structuredClone before every event": (msg, e) => appendEvent(structuredClone(msg), e),
};

/** Folds `events` (objects, one reply "r" or the recording's) with `fold`. */
const run = (events, fold) => () => {
  let msg;
  for (const e of events) {
    if (msg === undefined && e.type === "REPLY_START") msg = AssistantMsg({ id: e.reply_id, name: e.name, content: [] });
    if (msg !== undefined) msg = fold(msg, e);
  }
  return msg;
};

const recording = readFileSync(new URL("../examples/recordings/j_long_session_30_iters/events.jsonl", import.meta.url), "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line))
  .filter((e) => e.type !== "CUSTOM");
console.log(`j_long_session_30_iters (${recording.length} events, ${JSON.stringify(run(recording, modes["in place"])()).length} chars of message at the end): per event`);
for (const [label, fold] of Object.entries(modes)) {
  resetFoldStats();
  run(recording, fold)();
  const { rebuilds, unitsRead } = foldStats();
  const ms = time(run(recording, fold), label.startsWith("structuredClone") ? 3 : 5);
  console.log(`  ${label.padEnd(36)} ${((ms * 1000) / recording.length).toFixed(1).padStart(8)} µs   (one fold: ${rebuilds} rebuilds, ${unitsRead} units read)`);
}

const head = [
  { type: "REPLY_START", session_id: "s", reply_id: "r", name: "Friday" },
  { type: "TEXT_BLOCK_START", reply_id: "r", block_id: "t" },
];
const deltas = (n) => [...head, ...Array.from({ length: n }, (_, i) => ({ id: `e${i}`, type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: `word${i % 10} ` }))];
console.log("\nOne streamed text block: n deltas vs 10n (in place, linear: 10n / (10 x n) <= 2)");
for (const [label, fold] of Object.entries(modes)) {
  const [n, big] = label.startsWith("structuredClone") ? [500, 5_000] : [5_000, 50_000];
  const small = time(run(deltas(n), fold), 3);
  const large = time(run(deltas(big), fold), 3);
  console.log(
    `  ${label.padEnd(36)} ${String(n).padStart(6)}: ${small.toFixed(1).padStart(8)} ms  ${String(big).padStart(6)}: ${large.toFixed(1).padStart(9)} ms` +
      `  per event ${((large * 1000) / big).toFixed(1).padStart(7)} µs  ratio ${(large / (10 * small)).toFixed(2)}`,
  );
}
