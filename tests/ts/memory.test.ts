// Memory: `free()` returns a message's wasm memory, and forgotten messages are reclaimed
// through weak references. Needs `node --expose-gc` (the test command passes it).
import assert from "node:assert/strict";
import { test } from "node:test";
import { AssistantMsg } from "../../pkg/dist/index.js";
import { wasmExports } from "../../pkg/dist/init-node.js";

const gc = (globalThis as { gc?: () => void }).gc;
const memory = () => wasmExports.memory.buffer.byteLength;
const MB = 1 << 20;
const text = "x".repeat(10_000);

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
