// Every real recording (JSON Lines and SSE frames) rebuilt through the TS API, opened
// from REPLY_START as the documentation's example does, equals the reference's message.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { test } from "node:test";
import { AssistantMsg, EventType, Msg, type AgentEvent } from "../../pkg/dist/index.js";
import { nullRecordingVolatiles, recordingEvents, recordings, thaw } from "./helpers.ts";

test("all 15 recordings are present", () => assert.equal(recordings().length, 15));

for (const dir of recordings()) {
  for (const file of ["events.jsonl", "events.sse"] as const) {
    test(`${basename(dir)}/${file}`, () => {
      const replies = new Map<string, Msg>();
      for (const text of recordingEvents(dir, file)) {
        const event = JSON.parse(text) as AgentEvent;
        if (event.type === EventType.REPLY_START && !replies.has(event.reply_id)) {
          replies.set(event.reply_id, new AssistantMsg({ name: event.name, content: [], id: event.reply_id }));
        }
        // half the events go in as the JSON text received, half as objects
        const target = "reply_id" in event ? replies.get(event.reply_id) : undefined;
        target?.appendEvent(text.length % 2 === 0 ? text : event);
      }
      const want = JSON.parse(readFileSync(join(dir, "final_msg.json"), "utf8"));
      const expected = Array.isArray(want) ? want : [want];
      const actual = [...replies.values()].map((m) => thaw(m.toJSON()));
      assert.equal(actual.length, expected.length);
      actual.forEach(nullRecordingVolatiles);
      expected.forEach(nullRecordingVolatiles);
      assert.equal(JSON.stringify(actual), JSON.stringify(expected));
    });
  }
}
