// Memory: `free()` returns a message's wasm memory, and forgotten messages are reclaimed
// through weak references. Needs `node --expose-gc` (the test command passes it).
import assert from "node:assert/strict";
import { test } from "node:test";
import { AssistantMsg } from "../../pkg/dist/index.js";
import { Session } from "../../pkg/dist/session.js";
import { wasmExports } from "../../pkg/dist/load.js";

const gc = (globalThis as { gc?: () => void }).gc;
const memory = () => wasmExports!.memory.buffer.byteLength;
const MB = 1 << 20;
const text = "x".repeat(10_000);
const heap = () => process.memoryUsage().heapUsed;

function build(): AssistantMsg {
  const msg = new AssistantMsg({ name: "Friday", content: [], id: "r" });
  msg.appendEvent({ type: "TEXT_BLOCK_START", reply_id: "r", block_id: "t" });
  msg.appendEvent({ type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: text });
  return msg;
}

test("free() returns the memory of many create-and-drop cycles", () => {
  for (let i = 0; i < 1000; i++) build().free();
  const base = memory();
  for (let i = 0; i < 20_000; i++) build().free(); // 200 MB of text in all
  assert.ok(memory() - base <= 2 * MB, `grew by ${(memory() - base) / MB} MB`);
});

test("forgotten messages are reclaimed by the garbage collector", { skip: gc === undefined }, async () => {
  const settle = async () => {
    for (let i = 0; i < 5; i++) {
      gc!();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  for (let i = 0; i < 2000; i++) build();
  await settle();
  const base = memory();
  for (let round = 0; round < 10; round++) {
    for (let i = 0; i < 2000; i++) build(); // 20 MB a round, never freed by hand
    await settle();
  }
  // without reclamation this would be about 200 MB more
  assert.ok(memory() - base <= 48 * MB, `grew by ${(memory() - base) / MB} MB`);
});

/** 100k cycles of a small message (create → append → drop) and of a session (create →
 * feed → read → drop), with `free()` and without (left to the garbage collector, which
 * runs its finalizers only when the loop yields). */
test("100k create → append → drop cycles keep the JS heap and wasm memory flat", { skip: gc === undefined }, async () => {
  const settle = async (times = 3) => {
    for (let i = 0; i < times; i++) {
      gc!();
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  };
  const sse = new TextEncoder().encode(
    'data: {"type":"REPLY_START","session_id":"s","reply_id":"r","name":"a"}\n\n' +
      'data: {"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"t"}\n\n' +
      'data: {"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"t","delta":"hello"}\n\n',
  );
  const small = () => {
    const msg = new AssistantMsg({ name: "Friday", content: [], id: "r" });
    msg.appendEvent({ type: "TEXT_BLOCK_START", reply_id: "r", block_id: "t" });
    msg.appendEvent({ type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: "hello" });
    return msg;
  };
  const session = () => {
    const s = new Session();
    s.feed(sse);
    s.getSnapshot();
    return s;
  };
  for (const [name, make, free] of [
    ["message, free()", small, true],
    ["message, dropped", small, false],
    ["session, free()", session, true],
    ["session, dropped", session, false],
  ] as const) {
    for (let i = 0; i < 2000; i++) {
      const x = make();
      if (free) x.free();
    }
    await settle();
    const [wasm0, heap0] = [memory(), heap()];
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < 2000; i++) {
        const x = make();
        if (free) x.free();
      }
      // a loop that never yields must call free(): finalizers run between turns (one
      // collection a round here; three before each measure)
      await settle(1);
    }
    await settle();
    const [dw, dh] = [(memory() - wasm0) / MB, (heap() - heap0) / MB];
    assert.ok(dw <= 4, `${name}: wasm memory grew by ${dw.toFixed(1)} MB over 100k cycles`);
    assert.ok(dh <= 8, `${name}: JS heap grew by ${dh.toFixed(1)} MB over 100k cycles`);
  }
});

test("a large chunk is framed in pieces: an oversized frame is dropped as it comes, not copied whole", () => {
  // a 64 MiB string that is one frame past a 1 MiB cap: the wasm memory grows by a few
  // pieces' worth (1 MiB each), not by the chunk (which the glue would copy in whole)
  const session = new Session({ maxFrameBytes: MB });
  session.feed('{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"a"}\n');
  const base = memory();
  const line = `{"type":"CUSTOM","name":"x","value":"${"y".repeat(64 * MB)}"}\n`;
  assert.throws(() => session.feed(line), (e: unknown) => (e as { code?: string }).code === "limit_exceeded");
  assert.ok(memory() - base <= 16 * MB, `grew by ${(memory() - base) / MB} MB`);
  // bytes too, and the stream goes on after the dropped frame
  const bytes = new TextEncoder().encode(`${line}{"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"t"}\n`);
  assert.throws(() => session.feed(bytes), (e: unknown) => (e as { code?: string }).code === "limit_exceeded");
  assert.equal(session.feed(""), 1, "the start after it is applied");
  assert.ok(memory() - base <= 16 * MB, `grew by ${(memory() - base) / MB} MB`);
  assert.equal(session.get("r")!.content.length, 1);
  session.free();
});
