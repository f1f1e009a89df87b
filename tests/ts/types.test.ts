// Type tests: `tsc --noEmit` (in the test command) fails if a line marked with an
// expect-error directive compiles, i.e. if the public types stop catching these mistakes.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  AssistantMsg,
  EventType,
  parseEvent,
  type AgentEvent,
  type ContentBlock,
  type EventOf,
  type ParsedEvent,
  type TextBlockDeltaEvent,
} from "../../pkg/dist/index.js";
import type * as Constants from "../../pkg/dist/constants.js";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assertType = <T extends true>(): T => true as T;

test("public types", () => {
  const msg = new AssistantMsg({ name: "Friday", content: [], id: "r" });
  const ok: AgentEvent = { type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: "x" };
  msg.appendEvent(ok);
  // @ts-expect-error a delta must be a string
  const wrongType: AgentEvent = { type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: 5 };
  // @ts-expect-error reply_id is required
  const missing: AgentEvent = { type: "TEXT_BLOCK_DELTA", block_id: "t", delta: "x" };
  // @ts-expect-error not one of the 28 types
  const unknown: AgentEvent = { type: "TEXT_BLOCK_APPEND", reply_id: "r" };
  const misuse = () => {
    // @ts-expect-error the factories take one options object
    new AssistantMsg("Friday", []);
  };
  void misuse;
  void [wrongType, missing, unknown];

  // narrowing on the tag gives the event's own fields
  const e = ok as AgentEvent;
  if (e.type === EventType.TOOL_CALL_START) {
    const name: string = e.tool_call_name;
    void name;
  }
  assertType<Equal<EventOf<"TEXT_BLOCK_DELTA">, TextBlockDeltaEvent>>();
  assertType<Equal<(typeof EventType)["REPLY_END"], "REPLY_END">>();

  // blocks read from a message have every key, null where empty
  const block = msg.content[0] as ContentBlock;
  if (block?.type === "text") {
    const finished: string | null = block.finished_at;
    const id: string = block.id;
    void [finished, id];
  }
  const texts = msg.getContentBlocks("text");
  assertType<Equal<(typeof texts)[number]["type"], "text">>();
  // the list is read-only (and frozen), like `content`
  // @ts-expect-error no push on a readonly array
  assert.throws(() => texts.push(texts[0]!), TypeError);
  assert.equal(texts.length, 0);

  // parseEvent fills id, created_at and metadata: they are no longer optional
  const parsed = parseEvent({ type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: "x" });
  const parsedId: string = parsed.id;
  const parsedDelta: string = parsed.delta;
  // @ts-expect-error read-only
  const write = () => (parsed.delta = "y");
  void write;
  const anyParsed: ParsedEvent = parseEvent(JSON.stringify(ok));
  if (anyParsed.type === "TOOL_CALL_START") {
    const created: string = anyParsed.created_at;
    void created;
  }
  assert.equal(typeof parsedId, "string");
  assert.equal(parsedDelta, "x");

  // the constants entry names the same types
  assertType<Equal<Constants.AgentEvent, AgentEvent>>();
  assertType<Equal<Constants.ContentBlock, ContentBlock>>();
  assertType<Equal<Constants.EventType, EventType>>();
});
