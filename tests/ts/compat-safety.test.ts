// `agentscope-message/compat` against hostile data and frozen state (issue 35): no key of
// an event reaches a prototype; a write the object refuses leaves it exactly as it was;
// frozen state folds through appendEventImmutable and an Immer draft; a refused event is
// reported, not thrown, unless strict.
import assert from "node:assert/strict";
import { test } from "node:test";
import { produce, setAutoFreeze } from "immer";
import {
  AssistantMsg,
  MsgError,
  appendEvent,
  appendEventImmutable,
  setAppendEventOptions,
  type AgentEvent,
  type EventInput,
  type Msg,
} from "../../pkg/dist/entry-compat.js";

/** Events as they come off the wire: parsed from JSON text (a `__proto__` key is then an
 * own key, as `JSON.parse` makes it). */
const wire = (json: string) => JSON.parse(json) as AgentEvent;

function toolReply(): Msg {
  const msg = AssistantMsg({ id: "r", name: "Friday", content: [] });
  appendEvent(msg, wire('{"type":"TOOL_CALL_START","reply_id":"r","tool_call_id":"c","tool_call_name":"ask"}'));
  appendEvent(msg, wire('{"type":"TOOL_RESULT_START","reply_id":"r","tool_call_id":"c","tool_call_name":"ask"}'));
  return msg;
}

function assertPrototypeClean(): void {
  assert.equal(({} as { polluted?: unknown }).polluted, undefined, "Object.prototype.polluted");
  assert.equal(typeof Object.prototype.toString, "function", "Object.prototype.toString");
  assert.equal(String({}), "[object Object]");
}

test("no key of an event reaches a prototype: __proto__, constructor, prototype at any depth", () => {
  const hostile = [
    '{"__proto__": {"polluted": "yes", "toString": 1}}',
    '{"a": {"__proto__": {"polluted": "yes"}}}',
    '{"constructor": {"prototype": {"polluted": "yes"}}}',
    '{"__proto__": null}',
  ];
  for (const metadata of hostile) {
    for (const fold of ["in place", "immutable"] as const) {
      let msg = toolReply();
      const end = wire(`{"type":"TOOL_RESULT_END","reply_id":"r","tool_call_id":"c","state":"success","metadata":${metadata}}`);
      msg = fold === "in place" ? appendEvent(msg, end) : appendEventImmutable(msg, end);
      assertPrototypeClean();
      const block = msg.content[1] as { metadata: Record<string, unknown> };
      // written as own data: the block's metadata is the event's, key for key
      assert.equal(Object.getPrototypeOf(block.metadata), Object.prototype, `${fold} ${metadata}: the metadata keeps its prototype`);
      assert.deepEqual(JSON.parse(JSON.stringify(block.metadata)), JSON.parse(metadata), `${fold} ${metadata}`);
      const key = Object.keys(JSON.parse(metadata))[0]!;
      assert.ok(Object.hasOwn(block.metadata, key), `${fold} ${metadata}: ${key} is an own key`);
      // and again over the same block: the keys now exist, the values are synced in place
      msg = fold === "in place" ? appendEvent(msg, end) : appendEventImmutable(msg, end);
      assertPrototypeClean();
    }
  }
});

test("a write the object refuses (frozen, sealed, non-writable, a Proxy) leaves it exactly as it was, and the refused event never comes back", () => {
  const msg = AssistantMsg({ id: "r", name: "Friday", content: [] });
  appendEvent(msg, { type: "TEXT_BLOCK_START", reply_id: "r", block_id: "t" });
  appendEvent(msg, { type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: "a" });
  Object.freeze(msg.content[0]);
  const before = JSON.stringify(msg);
  assert.throws(
    () => appendEvent(msg, { type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: "LOST" }),
    (e: unknown) => e instanceof MsgError && e.code === "not_writable" && e.cause instanceof TypeError,
  );
  assert.equal(JSON.stringify(msg), before);
  // the app gives the message writable blocks: what it shows is what is folded on
  msg.content = msg.content.map((b) => ({ ...b }));
  appendEvent(msg, { type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: "c" });
  appendEvent(msg, { type: "TEXT_BLOCK_END", reply_id: "r", block_id: "t" });
  assert.equal((msg.content[0] as { text: string }).text, "ac", "the refused delta did not come back");

  // a refused write in the middle of an event: the writes before it are undone
  const ended = AssistantMsg({ id: "r", name: "Friday", content: [] });
  appendEvent(ended, { type: "TEXT_BLOCK_START", reply_id: "r", block_id: "t" });
  Object.defineProperty(ended, "finished_reason", { value: null, writable: false, enumerable: true, configurable: true });
  const beforeEnd = JSON.stringify(ended);
  assert.throws(
    () => appendEvent(ended, { type: "REPLY_END", reply_id: "r", session_id: "s", finished_reason: "completed" }),
    (e: unknown) => e instanceof MsgError && e.code === "not_writable",
  );
  assert.equal(JSON.stringify(ended), beforeEnd, "finished_at, written first, is undone");
  assert.equal(ended.finished_at, null);

  // a sealed content list: a new block cannot be pushed
  const sealed = AssistantMsg({ id: "r", name: "Friday", content: [] });
  Object.seal(sealed.content);
  assert.throws(() => appendEvent(sealed, { type: "TEXT_BLOCK_START", reply_id: "r", block_id: "t" }), (e: unknown) => e instanceof MsgError && e.code === "not_writable");
  assert.equal(sealed.content.length, 0);

  // a Proxy that refuses every write, on a delta of a run (the fast path)
  const proxied = AssistantMsg({ id: "r", name: "Friday", content: [] });
  appendEvent(proxied, { type: "TEXT_BLOCK_START", reply_id: "r", block_id: "t" });
  appendEvent(proxied, { type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: "x" });
  appendEvent(proxied, { type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: "y" });
  const target = proxied.content[0]!;
  proxied.content[0] = new Proxy(target, { set: () => false });
  proxied.content = [...proxied.content];
  assert.throws(() => appendEvent(proxied, { type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: "z" }), (e: unknown) => e instanceof MsgError && e.code === "not_writable");
  assert.equal((proxied.content[0] as { text: string }).text, "xy");
});

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

test("frozen state: appendEventImmutable never writes into what it is given; an Immer produce draft folds in place", () => {
  const events: EventInput[] = [
    { type: "TEXT_BLOCK_START", reply_id: "r", block_id: "t" },
    ...["Hel", "lo", " wor", "ld"].map((delta) => ({ type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta }) as AgentEvent),
    { type: "TOOL_CALL_START", reply_id: "r", tool_call_id: "c", tool_call_name: "f" },
    { type: "TOOL_CALL_DELTA", reply_id: "r", tool_call_id: "c", delta: '{"q":' },
    { type: "TOOL_CALL_DELTA", reply_id: "r", tool_call_id: "c", delta: "1}" },
    { type: "TEXT_BLOCK_END", reply_id: "r", block_id: "t" },
    { type: "REPLY_END", reply_id: "r", session_id: "s", finished_reason: "completed" },
  ];
  // each state deep-frozen, as Redux Toolkit and Immer leave them
  let state = deepFreeze(AssistantMsg({ id: "r", name: "Friday", content: [] }));
  const seen: Msg[] = [state];
  for (const event of events) {
    const next = appendEventImmutable(state, event);
    assert.notEqual(next, state);
    state = deepFreeze(next);
    seen.push(state);
  }
  assert.equal((state.content[0] as { text: string }).text, "Hello world");
  assert.equal((state.content[1] as { input: string }).input, '{"q":1}');
  assert.equal(state.finished_reason, "completed");
  assert.equal((seen[3]!.content[0] as { text: string }).text, "Hello", "an earlier state is as it was");

  // in place on frozen state: refused, unchanged
  const before = JSON.stringify(seen[3]);
  assert.throws(() => appendEvent(seen[3]!, events[3]!), (e: unknown) => e instanceof MsgError && e.code === "not_writable");
  assert.equal(JSON.stringify(seen[3]), before);

  // Immer: the same events folded in place into a draft of frozen state
  setAutoFreeze(true);
  let base = AssistantMsg({ id: "r", name: "Friday", content: [] });
  for (const event of events) base = produce(base, (draft) => void appendEvent(draft, event));
  assert.ok(Object.isFrozen(base) && Object.isFrozen(base.content[0]));
  const shown = (m: Msg) => m.content.map((b) => [b.type, (b as { text?: string }).text ?? (b as { input?: string }).input, b.finished_at === null]);
  assert.deepEqual(shown(base), shown(state));
  assert.deepEqual(shown(base), [["text", "Hello world", false], ["tool_call", '{"q":1}', true]]);
  assert.equal(base.finished_reason, "completed");
});

test("a refused event is reported, not thrown, as the SDK appends or skips; strict throws", () => {
  const msg = AssistantMsg({ id: "r", name: "Friday", content: [] });
  appendEvent(msg, { type: "DATA_BLOCK_START", reply_id: "r", block_id: "d", media_type: "image/png" });
  appendEvent(msg, { type: "TEXT_BLOCK_START", reply_id: "r", block_id: "t" });
  const bad = { type: "DATA_BLOCK_DELTA", reply_id: "r", block_id: "d", media_type: "image/png", data: "not base64!" } as AgentEvent;
  const warn = console.warn;
  const warnings: unknown[] = [];
  console.warn = (...args: unknown[]) => void warnings.push(args);
  try {
    const before = JSON.stringify(msg);
    // twice: warned once per code
    assert.equal(appendEvent(msg, bad), msg);
    assert.equal(appendEventImmutable(msg, bad), msg);
    assert.equal(JSON.stringify(msg), before, "the message as the reference leaves it");
    assert.equal(warnings.length, 1);
    assert.match(String((warnings[0] as unknown[])[0]), /invalid_base64/);
    // the stream goes on
    appendEvent(msg, { type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: "after" });
    assert.equal((msg.content[1] as { text: string }).text, "after");
    // onRefused hears each, and nothing is logged then
    const told: MsgError[] = [];
    appendEvent(msg, bad, { onRefused: (e) => void told.push(e) });
    appendEvent(msg, bad, { onRefused: (e) => void told.push(e) });
    assert.deepEqual(told.map((e) => e.code), ["invalid_base64", "invalid_base64"]);
    assert.equal(warnings.length, 1);
    // strict, per call or for every call
    assert.throws(() => appendEvent(msg, bad, { strict: true }), (e: unknown) => e instanceof MsgError && e.code === "invalid_base64");
    setAppendEventOptions({ strict: true });
    try {
      assert.throws(() => appendEventImmutable(msg, bad), (e: unknown) => e instanceof MsgError && e.code === "invalid_base64");
    } finally {
      setAppendEventOptions({});
    }
    assert.equal(appendEvent(msg, bad), msg);
    // not an event: always thrown
    assert.throws(() => appendEvent(msg, 5 as unknown as AgentEvent), (e: unknown) => e instanceof MsgError && e.code === "invalid_argument");
  } finally {
    console.warn = warn;
  }
});
