// Bug 6 of issue 29: with every cap off, a text block grows past the longest string a JS
// engine holds (V8: 2^29 − 24 UTF-16 units). Its snapshot used to break the session: a
// RangeError with the reader moved on (every later snapshot stale), or, when the read
// ran out of wasm memory, an `unreachable` trap after which the session could be neither
// used nor freed. Now the snapshot throws MsgError `limit_exceeded` and the session stays
// usable. About 1.3 GB of memory: skipped on a machine with less than 4 GiB free.
import assert from "node:assert/strict";
import { freemem } from "node:os";
import { test } from "node:test";
import { MsgError, Session } from "../../pkg/dist/index.js";

const MiB = 2 ** 20;
const enough = freemem() >= 4 * 2 ** 30;

test("a snapshot past the longest JS string is a limit_exceeded MsgError; the session stays usable", { skip: !enough && "less than 4 GiB free" }, () => {
  const off = { maxFrameBytes: 0, maxDeltaBytes: 0, maxBlockBytes: 0, maxMessageBytes: 0, maxSessionBytes: 0 };
  const session = new Session(off);
  session.feed('{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"A"}\n{"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"b"}\n');
  const delta = (text: string) => {
    session.feed('{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"b","delta":"');
    session.feed(text);
    session.feed('"}\n');
  };
  const quarter = "x".repeat(256 * MiB);
  delta(quarter);
  const first = session.getSnapshot();
  const block = first.messages[0]!.content[0]!;
  assert.equal(block.type === "text" && block.text.length, 256 * MiB);
  // 512 MiB of text: 2^29 UTF-16 units, 24 more than V8 holds
  delta(quarter);
  const past = (e: unknown) => e instanceof MsgError && e.code === "limit_exceeded" && /536870912 UTF-16 units, past the 536870888/.test(e.message);
  assert.throws(() => session.getSnapshot(), past);
  // nothing was read: the same error again, not a stale snapshot
  assert.throws(() => session.getSnapshot(), past);
  assert.equal(session.events, 4);
  // the session goes on: the reply replaced by a small message reads again
  session.insert({ name: "A", role: "assistant", id: "r", content: [{ type: "text", id: "b", text: "short" }] } as never);
  const again = session.getSnapshot().messages[0]!.content[0]!;
  assert.equal(again.type === "text" && again.text, "short");
  session.free();
  assert.throws(() => session.events, (e: unknown) => e instanceof MsgError && e.code === "freed");
});
