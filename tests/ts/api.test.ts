// The public TS API: factories, errors, snapshots, memory handles, injected factories.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  AssistantMsg,
  EventType,
  Msg,
  MsgError,
  SystemMsg,
  UserMsg,
  setIdFactory,
  setTimestampFactory,
} from "../../pkg/dist/index.js";
import * as message from "../../pkg/dist/entry-message.js";
import * as event from "../../pkg/dist/event.js";

test("subpaths export what the documentation imports", () => {
  assert.equal(message.Msg, Msg);
  assert.equal(message.EventType, EventType);
  assert.equal(event.EventType.TEXT_BLOCK_DELTA, "TEXT_BLOCK_DELTA");
  assert.equal(Object.keys(EventType).length, 28);
});

test("factories follow the reference's defaults and role rules", () => {
  const user = new UserMsg({ name: "user", content: "hello", created_at: "T0" });
  assert.ok(user instanceof Msg && user instanceof UserMsg);
  assert.equal(user.role, "user");
  assert.equal(user.finished_at, "T0", "UserMsg defaults finished_at to created_at");
  assert.equal(user.content.length, 1);
  assert.equal(user.content[0]!.type, "text");
  assert.equal(user.getTextContent(), "hello");
  assert.match(user.id, /^[0-9a-f]{32}$/);

  const sys = new SystemMsg({ name: "system", content: [{ type: "text", text: "be brief" }] });
  assert.equal(sys.role, "system");
  const asst = new AssistantMsg({ name: "Friday", content: "", usage: { input_tokens: 1, output_tokens: 2 } });
  assert.equal(asst.finished_at, null);
  assert.deepEqual(asst.usage, { input_tokens: 1, output_tokens: 2, cache_input_tokens: 0, cache_creation_input_tokens: 0 });

  assert.throws(
    () => new SystemMsg({ name: "s", content: [{ type: "data", source: { type: "url", url: "https://x.y/a.png", media_type: "image/png" } }] }),
    (e: unknown) => e instanceof MsgError && e.code === "role_violation" && e.message === "System message can only contain text blocks.",
  );
  assert.throws(
    () => new Msg({ name: "n", role: "tool" as "user", content: [] }),
    (e: unknown) => e instanceof MsgError && e.code === "invalid_role",
  );
  assert.throws(
    () => Msg.fromJSON('{"name": "n", "role": "user", "content": "plain string"}'),
    (e: unknown) => e instanceof MsgError && e.code === "invalid_content" && e instanceof Error,
  );
});

test("appendEvent returns the message, rejects bad events atomically with a code", () => {
  const msg = new AssistantMsg({ name: "Friday", content: [], id: "r" });
  assert.equal(msg.appendEvent({ type: "DATA_BLOCK_START", reply_id: "r", block_id: "d", media_type: "image/png" }), msg);
  msg.appendEvents([
    { type: "DATA_BLOCK_DELTA", reply_id: "r", block_id: "d", media_type: "image/png", data: "aGVs" },
    '{"type": "DATA_BLOCK_DELTA", "reply_id": "r", "block_id": "d", "media_type": "image/png", "data": "bG8="}',
  ]);
  const before = msg.toJSONString();
  const block = msg.content[0]!;
  assert.ok(block.type === "data" && block.source.type === "base64");
  assert.equal(block.source.data, "aGVsbG8=");
  for (const [bad, code] of [
    [{ type: "DATA_BLOCK_DELTA", reply_id: "r", block_id: "d", media_type: "image/png", data: "AAA" }, "invalid_base64"],
    [{ type: "DATA_BLOCK_DELTA", reply_id: "r", block_id: "d", media_type: "image/png", url: "nope" }, "invalid_url"],
    [{ type: "DATA_BLOCK_DELTA", reply_id: "r", block_id: "d", media_type: "image/png" }, "invalid_event"],
    ["{not json", "invalid_json"],
  ] as const) {
    assert.throws(() => msg.appendEvent(bad as never), (e: unknown) => e instanceof MsgError && e.code === code);
    assert.equal(msg.toJSONString(), before);
  }
  // CUSTOM and foreign replies are skipped
  msg.appendEvent({ type: "CUSTOM", name: "x" }).appendEvent({ type: "TEXT_BLOCK_START", reply_id: "other", block_id: "t" });
  assert.equal(msg.toJSONString(), before);
});

test("snapshots are frozen, cached per revision, and share unchanged blocks", () => {
  const msg = new AssistantMsg({ name: "Friday", content: [], id: "r" });
  msg.appendEvents([
    { type: "TEXT_BLOCK_START", reply_id: "r", block_id: "a" },
    { type: "TEXT_BLOCK_START", reply_id: "r", block_id: "b" },
  ]);
  const s1 = msg.toJSON();
  assert.equal(msg.toJSON(), s1, "no change: the same object");
  assert.ok(Object.isFrozen(s1) && Object.isFrozen(s1.content[0]));
  msg.appendEvent({ type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "b", delta: "x" });
  const s2 = msg.toJSON();
  assert.notEqual(s2, s1);
  assert.equal(s2.content[0], s1.content[0], "unchanged block keeps its identity");
  assert.notEqual(s2.content[1], s1.content[1]);
  assert.equal(JSON.stringify(msg), msg.toJSONString());
});

test("free() and Symbol.dispose release the message", () => {
  const msg = new AssistantMsg({ name: "Friday", content: "hi" });
  msg.free();
  assert.throws(() => msg.getTextContent(), (e: unknown) => e instanceof MsgError && e.code === "freed");
  msg.free(); // twice is harmless
  let escaped: Msg | undefined;
  {
    using scoped = new UserMsg({ name: "u", content: "x" });
    escaped = scoped;
    assert.equal(scoped.getTextContent(), "x");
  }
  assert.throws(() => escaped!.toJSON(), (e: unknown) => e instanceof MsgError && e.code === "freed");
});

test("id and timestamp factories are injectable and restorable", () => {
  let n = 0;
  setIdFactory(() => `id-${n++}`);
  setTimestampFactory(() => "T");
  try {
    const msg = new UserMsg({ name: "u", content: "hi" });
    assert.equal(msg.content[0]!.id, "id-0");
    assert.equal(msg.id, "id-1");
    assert.equal(msg.created_at, "T");
  } finally {
    setIdFactory(null);
    setTimestampFactory(null);
  }
  const msg = new UserMsg({ name: "u", content: "hi" });
  assert.match(msg.id, /^[0-9a-f]{32}$/);
  assert.match(msg.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
});

test("arguments of the wrong type are a MsgError, and the module keeps working", () => {
  const msg = new AssistantMsg({ name: "Friday", content: [], id: "r" });
  const bad: [string, () => unknown][] = [
    ["appendEvent(undefined)", () => msg.appendEvent(undefined as never)],
    ["appendEvent(5)", () => msg.appendEvent(5 as never)],
    ["appendEvent(circular)", () => { const o: Record<string, unknown> = {}; o.self = o; msg.appendEvent(o as never); }],
    ["getTextContent(5)", () => msg.getTextContent(5 as never)],
    ["getContentBlocks(5)", () => msg.getContentBlocks(5 as never)],
    ["name: 1", () => new AssistantMsg({ name: 1 as never, content: [] })],
    ["options undefined", () => new AssistantMsg(undefined as never)],
    ["Msg.fromJSON(undefined)", () => Msg.fromJSON(undefined as never)],
  ];
  for (const [what, f] of bad) {
    assert.throws(f, (e: unknown) => e instanceof MsgError && e.code === "invalid_argument", what);
  }
  msg.appendEvent({ type: "TEXT_BLOCK_START", reply_id: "r", block_id: "t" });
  msg.appendEvent({ type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: "still fine" });
  assert.equal(msg.getTextContent(), "still fine");
});

test("a factory that replaces itself while it runs does not break the module", () => {
  let calls = 0;
  setIdFactory(() => {
    calls += 1;
    setIdFactory(null);
    return "once";
  });
  try {
    const msg = new UserMsg({ name: "u", content: "hi" });
    assert.equal(msg.content[0]!.id, "once");
    assert.match(msg.id, /^[0-9a-f]{32}$/, "the second id comes from the restored default");
    assert.equal(calls, 1);
  } finally {
    setIdFactory(null);
  }
});

test("a failing host clock or missing crypto never breaks the module (no JS exception through wasm)", () => {
  const now = Date.now;
  try {
    for (const broken of [() => NaN, () => 1e20, () => { throw new Error("no clock"); }]) {
      Date.now = broken as () => number;
      // the default timestamp: the last time made (here, none yet or a real one), never a throw
      const msg = new AssistantMsg({ name: "Friday", content: "hi" });
      assert.match(msg.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      msg.free();
    }
  } finally {
    Date.now = now;
  }
  // and the module still works, with the real clock
  const later = new AssistantMsg({ name: "Friday", content: "hi" });
  assert.ok(Math.abs(Date.parse(later.created_at) - Date.now()) < 60_000);
  later.free();

  const crypto = Object.getOwnPropertyDescriptor(globalThis, "crypto");
  Object.defineProperty(globalThis, "crypto", { value: undefined, configurable: true, writable: true });
  try {
    // well past one pool of 256: every id is still a fresh uuid4, none repeats
    const ids = new Set<string>();
    for (let i = 0; i < 600; i++) {
      const m = new AssistantMsg({ name: "Friday", content: "" });
      assert.match(m.id, /^[0-9a-f]{12}4[0-9a-f]{3}[89ab][0-9a-f]{15}$/);
      ids.add(m.id);
      m.free();
    }
    assert.equal(ids.size, 600);
  } finally {
    Object.defineProperty(globalThis, "crypto", crypto!);
  }
  const again = new AssistantMsg({ name: "Friday", content: "" });
  assert.match(again.id, /^[0-9a-f]{32}$/);
  again.free();
});

test("arguments JSON.stringify cannot write are a MsgError (invalid_argument), not a TypeError", async () => {
  const { parseEvent } = await import("../../pkg/dist/event.js");
  const { Session } = await import("../../pkg/dist/session.js");
  const cyclic: Record<string, unknown> = { type: "CUSTOM", name: "x" };
  cyclic.value = cyclic;
  const big = { type: "CUSTOM", name: "x", value: { n: 1n } };
  const getter = { type: "CUSTOM", name: "x", get value() { throw new Error("boom"); } };
  let deep: unknown = {};
  for (let i = 0; i < 100_000; i++) deep = { d: deep };
  const invalid = (f: () => unknown) =>
    assert.throws(f, (e: unknown) => e instanceof MsgError && e.code === "invalid_argument");
  for (const event of [cyclic, big, getter]) {
    invalid(() => parseEvent(event as never));
    invalid(() => new Session().apply(event as never));
    invalid(() => new AssistantMsg({ name: "a", content: [] }).appendEvent(event as never));
  }
  invalid(() => new AssistantMsg({ name: "a", content: [], usage: { input_tokens: 1n, output_tokens: 2 } as never }));
  invalid(() => new AssistantMsg({ name: "a", content: [], metadata: cyclic }));
  invalid(() => new AssistantMsg({ name: "a", content: [], metadata: { deep } }));
  // and the module keeps working
  assert.equal(parseEvent('{"type": "CUSTOM", "name": "x"}').type, "CUSTOM");
});

test("more arguments of the wrong kind are MsgError (invalid_argument): no toJSON text, non-iterables, non-functions, detached bytes", async () => {
  const { parseEvent } = await import("../../pkg/dist/event.js");
  const { Session } = await import("../../pkg/dist/session.js");
  const invalid = (f: () => unknown) =>
    assert.throws(f, (e: unknown) => e instanceof MsgError && e.code === "invalid_argument");
  const noText = { toJSON: () => undefined };
  invalid(() => parseEvent(noText as never));
  invalid(() => new Session().apply(noText as never));
  invalid(() => new AssistantMsg({ name: "a", content: [] }).appendEvent(noText as never));
  invalid(() => Msg.fromJSON(noText as never));
  invalid(() => new AssistantMsg({ name: "a", content: [] }).appendEvents(123 as never));
  invalid(() => setTimestampFactory("nope" as never));
  invalid(() => setIdFactory(42 as never));
  const buffer = new ArrayBuffer(8);
  structuredClone(buffer, { transfer: [buffer] }); // detaches it
  invalid(() => new Session().feed(buffer));
  // and the module keeps working
  const msg = new AssistantMsg({ name: "a", content: [], id: "r" });
  msg.appendEvents([{ type: "TEXT_BLOCK_START", reply_id: "r", block_id: "t" }]);
  assert.equal(msg.content.length, 1);
});

test("numbers keep their digits in toJSONString(); in toJSON() they are JS numbers", () => {
  // the reference's own output (tests/fixtures/reference-json): ints of any size, `-0` is
  // 0, doubles by Python's repr, `1e400` is an infinity written null; token sums exact
  const msg = Msg.fromJSON(
    '{"name":"a","content":[],"role":"assistant","id":"r","created_at":"T0",' +
      '"metadata":{"big":-12345678901234567890123,"z":-0,"d":9007199254740993.0,"inf":1e400}}',
  );
  msg.appendEvents([
    '{"type":"MODEL_CALL_END","reply_id":"r","input_tokens":18446744073709551616,"output_tokens":1}',
    '{"type":"MODEL_CALL_END","reply_id":"r","input_tokens":18446744073709551616,"output_tokens":1}',
  ]);
  const text = msg.toJSONString();
  assert.ok(text.includes('"metadata":{"big":-12345678901234567890123,"z":0,"d":9007199254740992.0,"inf":null}'), text);
  assert.ok(text.includes('"usage":{"input_tokens":36893488147419103232,"output_tokens":2,'), text);
  assert.equal(msg.toJSON().usage!.input_tokens, 36893488147419103232);
  assert.equal(msg.toJSON().metadata.inf, null);
  // a sum past 128 bits is refused and changes nothing
  const max = "170141183460469231731687303715884105727";
  assert.throws(
    () => msg.appendEvent(`{"type":"MODEL_CALL_END","reply_id":"r","input_tokens":${max},"output_tokens":1}`),
    (e: unknown) => e instanceof MsgError && e.code === "limit_exceeded",
  );
  assert.equal(msg.toJSONString(), text);
});
