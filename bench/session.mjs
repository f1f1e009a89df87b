// The Session from the wire, and what a UI read costs (the wasm package in pkg/; build it
// first with `npm run build`). Prints figures; asserts nothing about time.
//   node --expose-gc bench/session.mjs
import { AssistantMsg, Session } from "../pkg/dist/index.js";

const CHUNK = 16 * 1024;
const encoder = new TextEncoder();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Median wall time (ms) of `body` over `runs` runs, after one warm-up. */
function time(body, runs = 3) {
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

const head = [
  { type: "REPLY_START", session_id: "s", reply_id: "r", name: "Friday" },
  { type: "TEXT_BLOCK_START", reply_id: "r", block_id: "t" },
  { type: "TOOL_RESULT_START", reply_id: "r", tool_call_id: "c", tool_call_name: "read_file" },
  { type: "DATA_BLOCK_START", reply_id: "r", block_id: "d", media_type: "image/png" },
];
const delta = {
  text: (i) => ({ id: `e${i}`, type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: `word${i % 10} ` }),
  "tool result": (i) => ({ id: `e${i}`, type: "TOOL_RESULT_TEXT_DELTA", reply_id: "r", tool_call_id: "c", delta: `line ${i} of the file\n` }),
  "base64 data (1 KiB chunks)": (i) => ({ id: `e${i}`, type: "DATA_BLOCK_DELTA", reply_id: "r", block_id: "d", media_type: "image/png", data: Buffer.alloc(1024, i % 251).toString("base64") }),
};
const sse = (events) => encoder.encode(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(""));

console.log("A UI read after every event (getSnapshot / toJSON): cost of 10k deltas vs 10 x 1k (target <= 2x)");
for (const [kind, make] of Object.entries(delta)) {
  const events = (n) => [...head, ...Array.from({ length: n }, (_, i) => make(i))].map((e) => JSON.stringify(e));
  const snapshotRun = (texts) => () => {
    const s = new Session();
    for (const t of texts) { s.apply(t); s.getSnapshot(); }
    s.free();
  };
  const toJSONRun = (texts) => () => {
    const m = new AssistantMsg({ name: "Friday", content: [], id: "r" });
    for (const t of texts) { m.appendEvent(t); m.toJSON(); }
    m.free();
  };
  for (const [label, run] of [["Session.getSnapshot", snapshotRun], ["Msg.toJSON", toJSONRun]]) {
    const small = time(run(events(1_000)));
    const big = time(run(events(10_000)));
    console.log(`  ${kind.padEnd(28)} ${label.padEnd(20)} 1k: ${small.toFixed(1).padStart(7)} ms  10k: ${big.toFixed(1).padStart(8)} ms  10k / (10 x 1k) = ${(big / (10 * small)).toFixed(2)}`);
  }
}

console.log("\nFrom the wire: SSE bytes in 16 KiB chunks through Session.feed (W1-like text deltas)");
for (const n of [10_000, 100_000]) {
  const wire = sse([...head.slice(0, 2), ...Array.from({ length: n }, (_, i) => delta.text(i))]);
  const feed = (snapshotEvery) => () => {
    const s = new Session();
    const perChunk = Math.max(1, Math.round((CHUNK / wire.length) * n));
    let seen = 0;
    for (let at = 0; at < wire.length; at += CHUNK) {
      s.feed(wire.subarray(at, at + CHUNK));
      seen += perChunk;
      if (snapshotEvery && seen >= snapshotEvery) { s.getSnapshot(); seen = 0; }
    }
    s.end();
    s.getSnapshot();
    s.free();
  };
  const wireMs = time(feed(0));
  const snapMs = time(feed(1_000));
  const mb = (wire.length / 1e6).toFixed(1);
  console.log(`  ${String(n).padStart(7)} deltas (${mb} MB)  wire: ${wireMs.toFixed(0).padStart(6)} ms (${((wireMs * 1e6) / n).toFixed(0)} ns/event)   + snapshot every ~1,000 events: ${snapMs.toFixed(0).padStart(6)} ms`);
}

console.log("\nA read after every event on many blocks or many messages: 40k vs 10 x 4k (target <= 2.5x)");
{
  const blockEvents = (n, reply = "r") =>
    Array.from({ length: n }, (_, i) => [
      JSON.stringify({ type: "TEXT_BLOCK_START", reply_id: reply, block_id: `b${i}` }),
      JSON.stringify({ type: "TEXT_BLOCK_DELTA", reply_id: reply, block_id: `b${i}`, delta: "x" }),
    ]).flat();
  const messageEvents = (n) =>
    Array.from({ length: n }, (_, i) => [
      JSON.stringify({ type: "REPLY_START", session_id: "s", reply_id: `r${i}`, name: "Friday" }),
      ...blockEvents(1, `r${i}`),
    ]).flat();
  const start = JSON.stringify(head[0]);
  const runs = {
    "blocks, Msg.toJSON": (n) => {
      const texts = blockEvents(n);
      return () => {
        const m = new AssistantMsg({ name: "Friday", content: [], id: "r" });
        for (const t of texts) { m.appendEvent(t); m.toJSON(); }
        m.free();
      };
    },
    "blocks, Session.getSnapshot": (n) => {
      const texts = [start, ...blockEvents(n)];
      return () => {
        const s = new Session();
        for (const t of texts) { s.apply(t); s.getSnapshot(); }
        s.free();
      };
    },
    "messages, Session.getSnapshot": (n) => {
      const texts = messageEvents(n);
      return () => {
        const s = new Session();
        for (const t of texts) { s.apply(t); s.getSnapshot(); }
        s.free();
      };
    },
  };
  for (const [label, make] of Object.entries(runs)) {
    const small = make(4_000);
    const ten = time(() => { for (let k = 0; k < 10; k++) small(); }, 1);
    const big = time(make(40_000), 1);
    console.log(`  ${label.padEnd(30)} 10 x 4k: ${ten.toFixed(0).padStart(6)} ms  40k: ${big.toFixed(0).padStart(6)} ms  40k / (10 x 4k) = ${(big / ten).toFixed(2)}`);
  }
}
