// Per-event cost of Msg.appendEvent in node (the wasm package in pkg/; build it first
// with `npm run build`). Prints figures; asserts nothing about time.
//   node bench/append.mjs
import { readFileSync } from "node:fs";
import { AssistantMsg, splitEvents } from "../pkg/dist/index.js";

const root = new URL("..", import.meta.url);
const us = (ms, n) => ((ms * 1000) / n).toFixed(2);

function time(label, n, body) {
  body(); // warm-up
  const t0 = performance.now();
  body();
  const ms = performance.now() - t0;
  console.log(`${label.padEnd(58)} ${String(n).padStart(7)} events  ${ms.toFixed(1).padStart(8)} ms  ${us(ms, n).padStart(6)} µs/event`);
}

// 1. 100k text deltas, as objects and as the JSON text an SSE frame carries
const N = 100_000;
// as a service publishes them: with id, created_at and metadata
const deltas = Array.from({ length: N }, (_, i) => ({
  id: `ev-${i}`, created_at: "2025-06-01T12:00:00.000000", metadata: {},
  type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: "abcd",
}));
const texts = deltas.map((e) => JSON.stringify(e));
// hand-made events without id / created_at: the package generates both (uuid4, clock)
const bare = Array.from({ length: N }, () => ({ type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: "abcd" }));
const open = () => new AssistantMsg({ name: "Friday", content: [], id: "r" }).appendEvent({ type: "TEXT_BLOCK_START", reply_id: "r", block_id: "t" });
time("100k text deltas, appendEvent(object)", N, () => { const m = open(); for (const e of deltas) m.appendEvent(e); m.free(); });
time("100k text deltas, appendEvent(JSON text from SSE)", N, () => { const m = open(); for (const e of texts) m.appendEvent(e); m.free(); });
time("100k text deltas without id/created_at, appendEvent(object)", N, () => { const m = open(); for (const e of bare) m.appendEvent(e); m.free(); });
time("100k text deltas, appendEvent + getTextContent every 100", N, () => {
  const m = open();
  deltas.forEach((e, i) => { m.appendEvent(e); if (i % 100 === 0) m.getTextContent(); });
  m.free();
});

// 2. the long realistic session: apply, and apply + read the whole message after every event
const session = splitEvents(readFileSync(new URL("examples/recordings/j_long_session_30_iters/events.jsonl", root)));
const start = JSON.parse(session[0]);
const openSession = () => new AssistantMsg({ name: start.name, content: [], id: start.reply_id });
time("j_long_session_30_iters, appendEvent(JSON text)", session.length, () => { const m = openSession(); for (const l of session) m.appendEvent(l); m.free(); });
time("j_long_session_30_iters, appendEvent + toJSON() after each", session.length, () => {
  const m = openSession();
  for (const l of session) { m.appendEvent(l); m.toJSON(); }
  m.free();
});
time("j_long_session_30_iters, appendEvent + full JSON.parse after each", session.length, () => {
  const m = openSession();
  for (const l of session) { m.appendEvent(l); JSON.parse(m.toJSONString()); }
  m.free();
});
const m = openSession();
for (const l of session) m.appendEvent(l);
console.log(`(j_long_session_30_iters: ${m.content.length} blocks, ${m.toJSONString().length} bytes of wire JSON)`);
