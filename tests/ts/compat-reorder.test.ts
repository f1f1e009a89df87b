// `agentscope-message/compat` when the app reorders its message's `content` list in place
// (a sort, a reverse, a swap): the list and its length stay, so the tie to the wasm-held
// message must see that the blocks moved, or a change written by position goes into
// another block. An outside attack found exactly that: two parallel tool calls sorted by
// name, then each call's arguments went into the other call and the end was lost. The
// reference's `appendEvent` finds each block by its id, so the blocks' order is the app's
// and their contents are the events'.
import assert from "node:assert/strict";
import { basename } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { AssistantMsg, appendEvent, appendEventImmutable, type AgentEvent, type Msg } from "../../pkg/dist/entry-compat.js";
import { nullRecordingVolatiles, recordingEvents, recordings, thaw, type Json } from "./helpers.ts";

const R = "r";

test("two parallel tool calls sorted by name in place: each call keeps its own arguments and its end", () => {
  for (const immutable of [false, true]) {
    const fold = (msg: Msg, event: AgentEvent): Msg => (immutable ? appendEventImmutable(msg, event) : appendEvent(msg, event));
    let msg = AssistantMsg({ id: R, name: "Friday", content: [] });
    for (const event of [
      { type: "TOOL_CALL_START", reply_id: R, tool_call_id: "b", tool_call_name: "zeta" },
      { type: "TOOL_CALL_START", reply_id: R, tool_call_id: "a", tool_call_name: "alpha" },
      { type: "TOOL_CALL_DELTA", reply_id: R, tool_call_id: "b", delta: '{"z":' },
      { type: "TOOL_CALL_DELTA", reply_id: R, tool_call_id: "a", delta: '{"a":' },
    ] as AgentEvent[]) msg = fold(msg, event);
    // the app lists parallel calls by name
    (msg.content as { name: string }[]).sort((x, y) => x.name.localeCompare(y.name));
    for (const event of [
      { type: "TOOL_CALL_DELTA", reply_id: R, tool_call_id: "b", delta: "26}" },
      { type: "TOOL_CALL_DELTA", reply_id: R, tool_call_id: "a", delta: "1}" },
      { type: "TOOL_CALL_END", reply_id: R, tool_call_id: "b" },
    ] as AgentEvent[]) msg = fold(msg, event);
    // (TOOL_CALL_END sets the call's finished_at, its state stays: REFERENCE.md)
    const got = (msg.content as { id: string; name: string; input: string; state: string; finished_at: string | null }[]).map((b) => [b.id, b.name, b.input, b.state, b.finished_at !== null]);
    assert.deepEqual(
      got,
      [
        ["a", "alpha", '{"a":1}', "pending", false],
        ["b", "zeta", '{"z":26}', "pending", true],
      ],
      immutable ? "immutable" : "in place",
    );
  }
});

/** An in-place reorder of a list: the same change to any list of the same length. */
type Reorder = { kind: "reverse" } | { kind: "swap"; i: number; j: number } | { kind: "rotate"; by: number };

function reorder<T>(list: T[], op: Reorder): void {
  if (list.length < 2) return;
  if (op.kind === "reverse") list.reverse();
  else if (op.kind === "swap") {
    const i = op.i % list.length;
    const j = op.j % list.length;
    [list[i], list[j]] = [list[j]!, list[i]!];
  } else {
    for (let k = 0; k < op.by % list.length; k++) list.push(list.shift()!);
  }
}

const reorderArb: fc.Arbitrary<Reorder> = fc.oneof(
  fc.constant({ kind: "reverse" as const }),
  fc.record({ kind: fc.constant("swap" as const), i: fc.nat(50), j: fc.nat(50) }),
  fc.record({ kind: fc.constant("rotate" as const), by: fc.integer({ min: 1, max: 50 }) }),
);

// (the long recordings' folds take seconds each: the others have every kind of block)
const dirs = recordings().filter((dir) => !/^(j_long|perf_)/.test(basename(dir)));

test("every recording, with its message's blocks reordered in place at random points: the blocks the events make, in the app's order", () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...dirs),
      fc.boolean(),
      fc.array(fc.tuple(fc.nat(1_000_000), reorderArb), { minLength: 1, maxLength: 6 }),
      (dir, immutable, ops) => {
        const events = recordingEvents(dir, "events.jsonl").map((text) => JSON.parse(text) as AgentEvent);
        const fold = (msg: Msg, event: AgentEvent): Msg => (immutable ? appendEventImmutable(msg, event) : appendEvent(msg, event));
        const at = new Map(ops.map(([where, op]) => [where % events.length, op]));
        // the same events without reordering: what each block ends as
        const plain = new Map<string, Msg>();
        // with the reorders, and the order they made: order[i] is the position, in the
        // message folded without them, of the block now at i
        const moved = new Map<string, { msg: Msg; order: number[] }>();
        events.forEach((event, k) => {
          if (event.type === "CUSTOM") return;
          if (event.type === "REPLY_START" && !plain.has(event.reply_id)) {
            plain.set(event.reply_id, AssistantMsg({ id: event.reply_id, name: event.name, content: [] }));
            moved.set(event.reply_id, { msg: AssistantMsg({ id: event.reply_id, name: event.name, content: [] }), order: [] });
          }
          const reply = event.reply_id;
          const a = plain.get(reply);
          const b = moved.get(reply);
          if (a === undefined || b === undefined) return;
          const op = at.get(k);
          if (op !== undefined) {
            reorder(b.msg.content as unknown[], op);
            reorder(b.order, op);
          }
          plain.set(reply, fold(a, event));
          b.msg = fold(b.msg, event);
          // new blocks are appended at the end of both
          while (b.order.length < plain.get(reply)!.content.length) b.order.push(b.order.length);
        });
        for (const [reply, { msg, order }] of moved) {
          // (ids and times the reducer makes up: nulled in both)
          const want = thaw(plain.get(reply)!) as { content: Json[] };
          want.content = order.map((i) => want.content[i]!);
          nullRecordingVolatiles(want as Json);
          const got = thaw(msg);
          nullRecordingVolatiles(got);
          assert.deepEqual(got, want, `${basename(dir)} ${immutable ? "immutable" : "in place"}, reply ${reply}`);
        }
      },
    ),
    { seed: 3605, numRuns: 150 },
  );
});
