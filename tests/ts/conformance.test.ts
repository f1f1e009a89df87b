// Every conformance case through the public TS API (the wasm core in node).
import assert from "node:assert/strict";
import { test } from "node:test";
import { AssistantMsg, Msg, MsgError, parseEvent, type AgentEvent, type ContentBlockType } from "../../pkg/dist/index.js";
import { conformanceCases, nullPaths, ourCode, thaw, type Json } from "./helpers.ts";

function open(c: Json): Msg {
  if (c.initial !== null) return Msg.fromJSON(c.initial);
  const start = c.events[0];
  return new AssistantMsg({ name: start.name, content: [], id: start.reply_id });
}

function types(key: string): ContentBlockType[] | null {
  return key === "null" ? null : key === "[]" ? [] : (key.split(",") as ContentBlockType[]);
}

function checkQueries(msg: Msg, q: Json): void {
  assert.equal(msg.getTextContent(), q.get_text_content);
  assert.equal(msg.getTextContent(q.get_text_content_sep.separator), q.get_text_content_sep.result);
  for (const [key, want] of Object.entries(q.has_content_blocks)) {
    assert.equal(msg.hasContentBlocks(types(key)), want, `has_content_blocks(${key})`);
  }
  for (const [key, want] of Object.entries(q.get_content_blocks_ids)) {
    assert.deepEqual(msg.getContentBlocks(types(key)).map((b) => b.id), want, `ids(${key})`);
  }
  for (const [key, want] of Object.entries(q.get_content_blocks_count)) {
    assert.equal(msg.getContentBlocks(types(key)).length, want, `count(${key})`);
  }
}

const cases = conformanceCases();

test("all 68 golden cases are present", () => assert.equal(cases.length, 68));

for (const [name, c] of cases) {
  test(name, () => {
    if (c.expected_error === undefined) {
      const msg = open(c);
      for (const event of c.events as AgentEvent[]) msg.appendEvent(event);
      const actual = thaw(msg.toJSON());
      const expected = thaw(c.expected);
      nullPaths(actual, c.volatile_paths);
      nullPaths(expected, c.volatile_paths);
      // same values and same key order
      assert.equal(JSON.stringify(actual), JSON.stringify(expected));
      assert.equal(msg.toJSONString(), JSON.stringify(msg.toJSON()));
      checkQueries(msg, c.queries);
      return;
    }
    const code = ourCode(c.expected_error);
    let thrown: unknown;
    try {
      if (c.kind === "construct") Msg.fromJSON(c.initial);
      else if (c.kind === "event") parseEvent(c.events[0]);
      else {
        const msg = open(c);
        for (const event of c.events.slice(0, -1)) msg.appendEvent(event);
        const before = msg.toJSONString();
        try {
          msg.appendEvent(c.events.at(-1));
        } finally {
          assert.equal(msg.toJSONString(), before, "a rejected event changes nothing");
        }
      }
    } catch (e) {
      thrown = e;
    }
    assert.ok(thrown instanceof MsgError, `${name}: throws MsgError, got ${thrown}`);
    assert.equal(thrown.code, code);
    if (c.expected_error_message !== undefined) assert.equal(thrown.message, c.expected_error_message);
  });
}
