// Every real recording (JSON Lines and SSE) rebuilt through the TS `Session` equals the
// reference's messages: fed whole, fed in random chunks (text and bytes, with LF, CRLF
// and bare-CR line ends), and applied event by event (half objects, half JSON text).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { test } from "node:test";
import { Session, setIdFactory, setTimestampFactory, type MsgJSON } from "../../pkg/dist/index.js";
import { nullRecordingVolatiles, recordingEvents, recordings, thaw } from "./helpers.ts";

test("all 15 recordings are present", () => assert.equal(recordings().length, 15));

function expected(dir: string): string {
  const want = JSON.parse(readFileSync(join(dir, "final_msg.json"), "utf8"));
  const list = Array.isArray(want) ? want : [want];
  list.forEach(nullRecordingVolatiles);
  return JSON.stringify(list);
}

function stable(messages: readonly MsgJSON[]): string {
  const list = messages.map(thaw);
  list.forEach(nullRecordingVolatiles);
  return JSON.stringify(list);
}

/** A small deterministic generator for chunk sizes. */
function* sizes(seed: number): Generator<number> {
  let x = seed;
  for (;;) {
    x = (x * 1103515245 + 12345) % 2147483648;
    yield 1 + (x % 3000);
  }
}

for (const dir of recordings()) {
  for (const file of ["events.jsonl", "events.sse"] as const) {
    test(`${basename(dir)}/${file}`, () => {
      const want = expected(dir);
      const bytes = readFileSync(join(dir, file));
      using whole = new Session();
      whole.feed(bytes);
      whole.end();
      assert.equal(stable(whole.messages), want, "fed whole");
      assert.deepEqual(whole.diagnostics, []);

      using oneByOne = new Session();
      recordingEvents(dir, file).forEach((text, i) => oneByOne.apply(i % 2 === 0 ? text : JSON.parse(text)));
      assert.equal(stable(oneByOne.messages), want, "applied event by event");
    });
  }
}

test("random chunking of every recording gives the messages of the whole file", () => {
  setIdFactory(() => "id");
  setTimestampFactory(() => "T");
  try {
    let seed = 7;
    for (const dir of recordings()) {
      for (const file of ["events.jsonl", "events.sse"]) {
        const text = readFileSync(join(dir, file), "utf8");
        using whole = new Session();
        whole.feed(text);
        whole.end();
        const want = JSON.stringify(whole.messages);
        for (const [ends, asBytes] of [["\n", false], ["\r\n", true], ["\r", false], ["\r", true]] as const) {
          const variant = text.replaceAll("\n", ends);
          const input = asBytes ? new TextEncoder().encode(variant) : variant;
          using session = new Session();
          const size = sizes(seed++);
          for (let at = 0; at < input.length; ) {
            const next = Math.min(input.length, at + size.next().value!);
            session.feed(input.slice(at, next));
            at = next;
          }
          session.end();
          assert.equal(JSON.stringify(session.messages), want, `${basename(dir)}/${file} ${JSON.stringify(ends)} ${asBytes ? "bytes" : "text"}`);
        }
      }
    }
  } finally {
    setIdFactory(null);
    setTimestampFactory(null);
  }
});
