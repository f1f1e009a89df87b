// Event objects folded by their parts (issue 35): `Msg.appendEvent`, `Session.apply` and
// compat's `appendEvent` / `appendEventImmutable` send a text delta to wasm as its
// strings, and join the deltas of one block into one text while no cap can refuse them.
// A seeded explorer (fast-check) checks that every way folds every sequence exactly as the
// same events given as wire JSON text (the decoder's path): the same message after each
// read, the same refusals with the same codes, under small caps that refuse mid-run.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { AssistantMsg, Msg, MsgError, Session, setIdFactory, setTimestampFactory } from "../../pkg/dist/index.js";
import * as compat from "../../pkg/dist/entry-compat.js";

type Ev = Record<string, unknown>;

const ids = ["t1", "t2"];
const calls = ["c1", "c2"];
// deltas: ASCII, non-ASCII, astral, lone surrogates (these go as JSON text), empty
const delta = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom("é", "你好", "🌍", "\ud83c", "\udf0d", "", "a\u0000b", "x".repeat(40)),
);
const meta = fc.constantFrom<unknown>(undefined, {}, { k: 1 });
let n = 0;
const stamp = () => ({ id: `e${n++}`, created_at: "2026-01-01T00:00:00.000Z" });

const event: fc.Arbitrary<Ev> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom("TEXT_BLOCK_START", "THINKING_BLOCK_START", "TEXT_BLOCK_END", "THINKING_BLOCK_END"), block: fc.constantFrom(...ids) }).map(({ kind, block }) => ({ ...stamp(), type: kind, reply_id: "r", block_id: block })) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom("TOOL_CALL_START", "TOOL_RESULT_START"), call: fc.constantFrom(...calls) }).map(({ kind, call }) => ({ ...stamp(), type: kind, reply_id: "r", tool_call_id: call, tool_call_name: "f" })) },
  { weight: 1, arbitrary: fc.record({ call: fc.constantFrom(...calls), data: fc.boolean() }).map(({ call, data }) => data
    ? { ...stamp(), type: "TOOL_RESULT_DATA_DELTA", reply_id: "r", tool_call_id: call, block_id: "d", media_type: "text/plain", data: "aGk=" }
    : { ...stamp(), type: "TOOL_RESULT_END", reply_id: "r", tool_call_id: call, state: "success" }) },
  {
    weight: 8,
    arbitrary: fc
      .record({
        kind: fc.constantFrom("TEXT_BLOCK_DELTA", "THINKING_BLOCK_DELTA", "TOOL_CALL_DELTA", "TOOL_RESULT_TEXT_DELTA"),
        reply: fc.constantFrom("r", "r", "r", "x"),
        target: fc.constantFrom(...ids, ...calls),
        delta,
        metadata: meta,
        id: fc.boolean(),
      })
      .map(({ kind, reply, target, delta, metadata, id }) => {
        const e: Ev = { type: kind, reply_id: reply, [kind.startsWith("TOOL") ? "tool_call_id" : "block_id"]: target, delta };
        if (metadata !== undefined) e.metadata = metadata;
        if (id) e.id = n % 7 === 0 ? `d${n++}\ud800` : `d${n++}`;
        return e;
      }),
  },
);

/** A run of deltas to one block, as a model streams them, mostly after the block's start. */
const STARTS: Record<string, string> = {
  TEXT_BLOCK_DELTA: "TEXT_BLOCK_START",
  THINKING_BLOCK_DELTA: "THINKING_BLOCK_START",
  TOOL_CALL_DELTA: "TOOL_CALL_START",
  TOOL_RESULT_TEXT_DELTA: "TOOL_RESULT_START",
};
const run = fc
  .record({
    kind: fc.constantFrom("TEXT_BLOCK_DELTA", "THINKING_BLOCK_DELTA", "TOOL_CALL_DELTA", "TOOL_RESULT_TEXT_DELTA"),
    which: fc.nat(1),
    started: fc.nat(3),
    deltas: fc.array(delta, { minLength: 2, maxLength: 30 }),
    ids: fc.boolean(),
  })
  .map(({ kind, which, started, deltas, ids: withIds }) => {
    const tool = kind.startsWith("TOOL");
    const key = tool ? "tool_call_id" : "block_id";
    const target = (tool ? calls : ids)[which]!;
    const events = deltas.map((d) => ({ ...(withIds ? { id: `r${n++}` } : {}), type: kind, reply_id: "r", [key]: target, delta: d }) as Ev);
    if (started > 0) events.unshift({ ...stamp(), type: STARTS[kind], reply_id: "r", [key]: target, ...(tool ? { tool_call_name: "f" } : {}) });
    return events;
  });

/** An op: events, or a read of every way's message. */
const op = fc.oneof(
  { weight: 10, arbitrary: event.map((e) => ({ events: [e] })) },
  { weight: 3, arbitrary: run.map((events) => ({ events })) },
  { weight: 1, arbitrary: fc.constant({ read: true as const }) },
);
// caps near what the blocks hold (a text block is made with ~110 bytes of wire JSON here),
// so that runs meet them
const caps = fc.record({
  maxDeltaBytes: fc.constantFrom(0, 3, 8, 40),
  maxBlockBytes: fc.constantFrom(0, 150, 200, 300),
  maxMessageBytes: fc.constantFrom(0, 700, 1000, 1600),
});

/** What a fold did: the code it threw, or "ok". */
function outcome(f: () => unknown): string {
  try {
    f();
    return "ok";
  } catch (e) {
    if (!(e instanceof MsgError)) throw e;
    return e.code;
  }
}

const START = { name: "Friday", id: "r", created_at: "T" };

// the blocks' made-up times and ids the same in every way
setTimestampFactory(() => "T");
setIdFactory(() => "id");

test("Msg.appendEvent and Session.apply fold event objects as their wire JSON text, under caps that refuse mid-run", () => {
  fc.assert(
    fc.property(caps, fc.array(op, { maxLength: 80 }), fc.boolean(), fc.boolean(), (limits, ops, dedup, listen) => {
      const byText = new AssistantMsg({ ...START, content: [] }).setLimits(limits);
      const byObject = new AssistantMsg({ ...START, content: [] }).setLimits(limits);
      const session = new Session({ ...limits, dedup });
      const sessionByText = new Session({ ...limits, dedup });
      // a listener is told of each apply that changed something (no delta joins then)
      let told = 0;
      if (listen) session.subscribe(() => void told++);
      // a deduplicating session's replays: each delta with an id is applied twice
      const replays: Ev[] = [];
      session.apply({ type: "REPLY_START", reply_id: "r", session_id: "s", name: "Friday", id: "start", created_at: "T" });
      sessionByText.apply(JSON.stringify({ type: "REPLY_START", reply_id: "r", session_id: "s", name: "Friday", id: "start", created_at: "T" }));
      for (const o of ops) {
        if ("read" in o) {
          assert.deepEqual(byObject.toJSON(), byText.toJSON());
          assert.deepEqual(session.messages, sessionByText.messages);
          continue;
        }
        for (const e of o.events) {
          const want = outcome(() => byText.appendEvent(JSON.stringify(e)));
          assert.equal(outcome(() => byObject.appendEvent(e as never)), want, JSON.stringify(e));
          let a = "", b = "";
          const sa = outcome(() => (a = session.apply(e as never)));
          const sb = outcome(() => (b = sessionByText.apply(JSON.stringify(e))));
          assert.equal(sa, sb);
          assert.equal(a, b);
          if (typeof e.id === "string" && /^[dr]/.test(e.id)) replays.push(e);
          if (typeof e.id === "string" && e.id.endsWith("\ud800")) replays.push({ ...e, id: e.id.replace("\ud800", "\ud801") });
        }
        // a replay of an earlier delta (a reconnect's): the same outcome both ways
        const again = replays.at(-2);
        if (again !== undefined) {
          let a = "", b = "";
          assert.equal(outcome(() => (a = session.apply(again as never))), outcome(() => (b = sessionByText.apply(JSON.stringify(again)))));
          assert.equal(a, b, JSON.stringify(again));
        }
      }
      if (listen) assert.ok(told >= 0);
      assert.deepEqual(byObject.toJSON(), byText.toJSON());
      assert.deepEqual(byObject.takenBytes, byText.takenBytes);
      assert.deepEqual(session.messages, sessionByText.messages);
      byText.free();
      byObject.free();
    }),
    { seed: 35, numRuns: 400 },
  );
});

test("compat's appendEvent in place and appendEventImmutable fold event objects as Msg folds their JSON text", () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
      const byText = new AssistantMsg({ ...START, content: [] });
      const inPlace = compat.AssistantMsg({ ...START, content: [] });
      let immutable = compat.AssistantMsg({ ...START, content: [] });
      const strict = { strict: true };
      for (const o of ops) {
        if ("read" in o) continue;
        for (const e of o.events) {
          const want = outcome(() => byText.appendEvent(JSON.stringify(e)));
          assert.equal(outcome(() => compat.appendEvent(inPlace, e as never, strict)), want);
          assert.equal(outcome(() => (immutable = compat.appendEventImmutable(immutable, e as never, strict))), want);
          // what the app shows after each event
          const text = JSON.stringify(byText.content);
          assert.equal(JSON.stringify(inPlace.content), text);
          assert.equal(JSON.stringify(immutable.content), text);
        }
      }
      assert.deepEqual(JSON.parse(JSON.stringify(inPlace)), byText.toJSON());
      assert.deepEqual(JSON.parse(JSON.stringify(immutable)), byText.toJSON());
      byText.free();
    }),
    { seed: 3535, numRuns: 300 },
  );
});

test("a run of deltas crosses into wasm as one text: the reads between deltas see every delta", () => {
  const msg = new AssistantMsg({ ...START, content: [] });
  msg.appendEvent({ type: "TEXT_BLOCK_START", reply_id: "r", block_id: "t" } as never);
  const seen: string[] = [];
  for (const d of ["a", "b", "c"]) {
    msg.appendEvent({ type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: d } as never);
    msg.appendEvent({ type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: d.toUpperCase() } as never);
    seen.push(msg.getTextContent() ?? "");
  }
  assert.deepEqual(seen, ["aA", "aAbB", "aAbBcC"]);
  // a cap met inside a run refuses exactly the delta that crosses it
  msg.setLimits({ maxBlockBytes: msg.takenBytes });
  assert.throws(() => msg.appendEvent({ type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: "x".repeat(1000) } as never), (e: unknown) => e instanceof MsgError && e.code === "limit_exceeded");
  assert.equal(msg.getTextContent(), "aAbBcC");
  msg.free();
  assert.ok(Msg);
});

test("an event object is read as JSON.stringify reads it: each property once, a throwing getter or a class instance as JSON text", () => {
  const text = new AssistantMsg({ ...START, content: [] });
  const object = new AssistantMsg({ ...START, content: [] });
  for (const m of [text, object]) m.appendEvent({ type: "TEXT_BLOCK_START", reply_id: "r", block_id: "t" } as never);
  // a getter read once: "a", then "b" (a second read would give "b" where the JSON has "a")
  let reads = 0;
  const once = { type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", get delta() { return reads++ === 0 ? "a" : "b"; } };
  object.appendEvent(once as never);
  text.appendEvent(JSON.stringify({ type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: "a" }));
  assert.equal(reads, 1);
  // a getter that throws: MsgError invalid_argument, as JSON.stringify's throw is
  const throwing = { type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", get delta(): string { throw new Error("no"); } };
  assert.throws(() => object.appendEvent(throwing as never), (e: unknown) => e instanceof MsgError && e.code === "invalid_argument");
  // a class instance whose delta is a prototype getter: JSON.stringify leaves it out, so
  // the event has no delta (invalid_event), whatever the getter gives
  class Ev {
    type = "TEXT_BLOCK_DELTA";
    reply_id = "r";
    block_id = "t";
    get delta() {
      return "x";
    }
  }
  const want = outcome(() => text.appendEvent(JSON.stringify(new Ev())));
  assert.equal(want, "invalid_event");
  assert.equal(outcome(() => object.appendEvent(new Ev() as never)), want);
  assert.deepEqual(object.toJSON(), text.toJSON());
  assert.equal(object.getTextContent(), "a");
  text.free();
  object.free();
});

test("compat: a header field the app changed is seen by a delta as by any event (the message rebuilt and validated)", () => {
  for (const immutable of [false, true]) {
    const byObject = compat.AssistantMsg({ ...START, content: [] });
    compat.appendEvent(byObject, { type: "TEXT_BLOCK_START", reply_id: "r", block_id: "t" } as never);
    compat.appendEvent(byObject, { type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: "x" } as never);
    const byText = structuredClone(byObject);
    for (const m of [byObject, byText]) (m as { role: string }).role = "robot";
    const delta = { type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: "y" };
    const strict = { strict: true };
    const fold = (m: compat.Msg, e: unknown) => (immutable ? compat.appendEventImmutable(m, e as never, strict) : compat.appendEvent(m, e as never, strict));
    const want = outcome(() => fold(byText, JSON.stringify(delta)));
    assert.equal(want, "invalid_role");
    assert.equal(outcome(() => fold(byObject, delta)), want);
    assert.equal((byObject.content[0] as { text: string }).text, "x");
  }
});
