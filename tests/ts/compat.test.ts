// `agentscope-message/compat`: the functional API of `@agentscope-ai/agentscope` on plain
// objects. Every recording and conformance case folded into a plain object in place
// equals the reference's message; the clone path too; the in-place cost does not grow
// with the message (counted work, not time); the immutable form shares unchanged blocks
// and equals the in-place result; the enums are run-time values; errors leave the object
// as it was.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { test } from "node:test";
import {
  AssistantMsg,
  ErrorType,
  EventType,
  FinishedReason,
  MsgError,
  PermissionBehavior,
  PermissionMode,
  ReplyFinishedReason,
  SystemMsg,
  UserMsg,
  appendEvent,
  appendEventImmutable,
  createMsg,
  createPermissionContext,
  foldStats,
  getContentBlocks,
  getTextContent,
  hasContentBlocks,
  resetFoldStats,
  setIdFactory,
  setTimestampFactory,
  type AgentEvent,
  type ContentBlockType,
  type Msg,
} from "../../pkg/dist/entry-compat.js";
import { conformanceCases, nullPaths, nullRecordingVolatiles, ourCode, recordingEvents, recordings, root, thaw, type Json } from "./helpers.ts";

type Fold = (msg: Msg, event: AgentEvent) => Msg;

/** Folds a recording's events into plain messages as an app does: a message opened on a
 * REPLY_START with a new reply_id (a continuation keeps it), each event applied to its
 * reply's message through `fold`, which returns the message to keep. */
function foldRecording(events: AgentEvent[], fold: Fold): Msg[] {
  const byReply = new Map<string, Msg>();
  for (const event of events) {
    if (event.type === "CUSTOM") continue;
    if (event.type === "REPLY_START" && !byReply.has(event.reply_id)) {
      byReply.set(event.reply_id, AssistantMsg({ id: event.reply_id, name: event.name, content: [] }));
    }
    const msg = byReply.get(event.reply_id);
    if (msg !== undefined) byReply.set(event.reply_id, fold(msg, event));
  }
  return [...byReply.values()];
}

function expected(dir: string): string {
  const want = JSON.parse(readFileSync(join(dir, "final_msg.json"), "utf8"));
  const list = Array.isArray(want) ? want : [want];
  list.forEach(nullRecordingVolatiles);
  return JSON.stringify(list);
}

function stable(messages: Msg[]): string {
  const list = messages.map(thaw);
  list.forEach(nullRecordingVolatiles);
  return JSON.stringify(list);
}

function eventsOf(dir: string, file: "events.jsonl" | "events.sse"): AgentEvent[] {
  return recordingEvents(dir, file).map((text) => JSON.parse(text) as AgentEvent);
}

const inPlace: Fold = (msg, event) => appendEvent(msg, event);
// an app that clones its message (structuredClone: a deep copy) before every event
const cloning: Fold = (msg, event) => appendEvent(structuredClone(msg), event);
const immutable: Fold = (msg, event) => appendEventImmutable(msg, event);

test("all 15 recordings are present", () => assert.equal(recordings().length, 15));

for (const dir of recordings()) {
  for (const file of ["events.jsonl", "events.sse"] as const) {
    test(`compat ${basename(dir)}/${file}: in place, cloned, immutable`, () => {
      const want = expected(dir);
      const events = eventsOf(dir, file);
      resetFoldStats();
      const kept: Msg[] = [];
      const placed = foldRecording(events, (msg, event) => {
        const out = appendEvent(msg, event);
        assert.equal(out, msg, "appendEvent returns the object it was given");
        kept.push(msg);
        return out;
      });
      assert.equal(stable(placed), want, "in place");
      // the app's own objects were mutated: one per reply, rebuilt once (the first event)
      assert.equal(new Set(kept).size, placed.length);
      assert.equal(foldStats().rebuilds, placed.length);
      // (the long session's cloning fold is quadratic: once, from its JSON Lines)
      if (!(basename(dir).startsWith("j_long") && file === "events.sse")) {
        assert.equal(stable(foldRecording(events, cloning)), want, "cloned before every event");
      }
      assert.equal(stable(foldRecording(events, immutable)), want, "immutable");
    });
  }
}

test("the in-place, cloned and immutable folds give the same objects, ids and times included", () => {
  let n = 0;
  const reset = () => {
    n = 0;
    setIdFactory(() => `id${n++}`);
    setTimestampFactory(() => "2026-01-01T00:00:00.000Z");
  };
  try {
    for (const dir of recordings()) {
      const events = eventsOf(dir, "events.jsonl");
      reset();
      const a = JSON.stringify(foldRecording(events, inPlace));
      // (the cloning fold of the long session is quadratic: compared in its own test)
      if (!basename(dir).startsWith("j_long")) {
        reset();
        assert.equal(JSON.stringify(foldRecording(events, cloning)), a, basename(dir));
      }
      reset();
      const c = JSON.stringify(foldRecording(events, immutable));
      assert.equal(c, a, basename(dir));
    }
  } finally {
    setIdFactory(null);
    setTimestampFactory(null);
  }
});

test("in place, an event costs what it changes, not the message's size", () => {
  const msg = AssistantMsg({ id: "r", name: "Friday", content: [] });
  const big = "x".repeat(1 << 20);
  for (let i = 0; i < 200; i++) {
    appendEvent(msg, { type: "TEXT_BLOCK_START", reply_id: "r", block_id: `b${i}` });
    appendEvent(msg, { type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: `b${i}`, delta: i === 0 ? big : "y" });
    appendEvent(msg, { type: "TEXT_BLOCK_END", reply_id: "r", block_id: `b${i}` });
  }
  appendEvent(msg, { type: "TEXT_BLOCK_START", reply_id: "r", block_id: "last" });
  const block = msg.content.at(-1)!;
  const first = msg.content[0];
  // a message of 1 MiB and 201 blocks: 2,000 deltas read their tail and the header only
  const perEvent = (from: number, to: number) => {
    resetFoldStats();
    for (let i = from; i < to; i++) appendEvent(msg, { type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "last", delta: `${i} ` });
    return foldStats();
  };
  const early = perEvent(0, 1000);
  const late = perEvent(1000, 2000);
  for (const stats of [early, late]) {
    assert.equal(stats.rebuilds, 0, "no rebuild");
    assert.equal(stats.blocksWritten, 0, "no block written whole");
    assert.equal(stats.tailsWritten, 1000);
    assert.ok(stats.unitsRead / 1000 < 400, `read ${stats.unitsRead / 1000} units per event`);
  }
  assert.ok(late.unitsRead <= early.unitsRead * 1.1, "the later deltas read no more than the earlier ones");
  assert.equal(msg.content.at(-1), block, "the block object is the one written first");
  assert.equal(msg.content[0], first);
  assert.ok((block as { text: string }).text.startsWith("0 1 2 ") && (block as { text: string }).text.endsWith("1999 "));

  // a shallow copy keeps the content list, and with it the tie: no rebuild either
  resetFoldStats();
  const copy = { ...msg };
  appendEvent(copy, { type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "last", delta: "!" });
  assert.equal(foldStats().rebuilds, 0);
  // a deep copy is rebuilt from its JSON: a cost proportional to the message
  const deep = structuredClone(copy);
  appendEvent(deep, { type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "last", delta: "?" });
  assert.equal(foldStats().rebuilds, 1);
  assert.ok(foldStats().unitsRead > big.length);
  assert.ok((deep.content.at(-1) as { text: string }).text.endsWith("1999 !?"));
  // a top-level field the app changed is noticed: rebuilt from the object as it is
  resetFoldStats();
  deep.metadata = { seen: true };
  appendEvent(deep, { type: "TEXT_BLOCK_END", reply_id: "r", block_id: "last" });
  assert.equal(foldStats().rebuilds, 1);
  assert.deepEqual(deep.metadata, { seen: true });
});

test("a recording folded in place reads about what its events carry (no re-serialisation)", () => {
  const dir = recordings().find((d) => basename(d).startsWith("j_long_session"))!;
  const texts = recordingEvents(dir, "events.jsonl");
  const events = texts.map((t) => JSON.parse(t) as AgentEvent);
  resetFoldStats();
  const [msg] = foldRecording(events, inPlace);
  const inPlaceStats = foldStats();
  const size = JSON.stringify(msg).length;
  const carried = texts.reduce((n, t) => n + t.length, 0);
  resetFoldStats();
  foldRecording(events, cloning);
  const clonedStats = foldStats();
  assert.equal(inPlaceStats.rebuilds, 1);
  assert.ok(inPlaceStats.unitsRead < 2 * carried, `in place read ${inPlaceStats.unitsRead} units for ${carried} of events`);
  // the cloning app pays the message on every event: quadratic
  assert.ok(clonedStats.rebuilds > events.length / 2);
  assert.ok(clonedStats.unitsRead > 100 * size, `cloned read ${clonedStats.unitsRead} units, message ${size}`);
});

test("the immutable form shares unchanged blocks and leaves prev as it was", () => {
  const dir = recordings().find((d) => basename(d).startsWith("c_react"))!;
  const events = eventsOf(dir, "events.jsonl");
  let prev: Msg | undefined;
  let changedBlocks = 0;
  for (const event of events) {
    if (event.type === "REPLY_START" && prev === undefined) prev = AssistantMsg({ id: event.reply_id, name: event.name, content: [] });
    if (prev === undefined) continue;
    const before = JSON.stringify(prev);
    const next = appendEventImmutable(prev, event);
    assert.equal(JSON.stringify(prev), before, `${event.type}: prev unchanged`);
    if (next === prev) continue;
    assert.notEqual(next.content, prev.content);
    let changed = 0;
    prev.content.forEach((block, i) => {
      if (next.content[i] !== block) changed++;
    });
    if (event.type.endsWith("_DELTA") || event.type.endsWith("_START")) assert.ok(changed <= 1, `${event.type} changed ${changed} blocks`);
    changedBlocks += changed;
    prev = next;
  }
  assert.ok(changedBlocks > 0);
  // an event that changes nothing returns prev itself
  const same = appendEventImmutable(prev!, { type: "TEXT_BLOCK_DELTA", reply_id: "another", block_id: "b", delta: "x" });
  assert.equal(same, prev);
  // a delta of a streamed text: only that block is new, and it is a copy
  const msg = appendEventImmutable(AssistantMsg({ id: "r", name: "a", content: "hello" }), { type: "TEXT_BLOCK_START", reply_id: "r", block_id: "t" });
  const grown = appendEventImmutable(msg, { type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: "hi" });
  assert.equal(grown.content[0], msg.content[0]);
  assert.notEqual(grown.content[1], msg.content[1]);
  assert.equal((msg.content[1] as { text: string }).text, "");
  assert.equal((grown.content[1] as { text: string }).text, "hi");
  // an older version is rebuilt (a branch), the newer one unaffected
  resetFoldStats();
  const branch = appendEventImmutable(msg, { type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: "yo" });
  assert.equal(foldStats().rebuilds, 1);
  assert.equal((branch.content[1] as { text: string }).text, "yo");
  assert.equal((grown.content[1] as { text: string }).text, "hi");
});

const cases = conformanceCases();

test("all 68 conformance cases are present", () => assert.equal(cases.length, 68));

function types(key: string): ContentBlockType[] | null {
  return key === "null" ? null : key === "[]" ? [] : (key.split(",") as ContentBlockType[]);
}

function open(c: Json): Msg {
  if (c.initial !== null) return structuredClone(c.initial) as Msg;
  const start = c.events[0];
  return AssistantMsg({ name: start.name, content: [], id: start.reply_id });
}

for (const [name, c] of cases) {
  if (c.kind === "construct" || c.kind === "event") continue;
  test(`compat conformance ${name}`, () => {
    for (const fold of [inPlace, immutable]) {
      let msg = open(c);
      if (c.expected_error === undefined) {
        for (const event of c.events as AgentEvent[]) msg = fold(msg, event);
        const actual = thaw(msg);
        const want = thaw(c.expected);
        nullPaths(actual, c.volatile_paths);
        nullPaths(want, c.volatile_paths);
        assert.deepEqual(actual, want);
        const q = c.queries;
        assert.equal(getTextContent(msg), q.get_text_content);
        assert.equal(getTextContent(msg, q.get_text_content_sep.separator), q.get_text_content_sep.result);
        for (const [key, want] of Object.entries(q.has_content_blocks)) assert.equal(hasContentBlocks(msg, types(key)), want, key);
        for (const [key, want] of Object.entries(q.get_content_blocks_ids)) {
          assert.deepEqual(getContentBlocks(msg, types(key)).map((b) => b.id), want, key);
        }
        continue;
      }
      for (const event of c.events.slice(0, -1)) msg = fold(msg, event);
      const before = JSON.stringify(msg);
      const last = c.events.at(-1) as AgentEvent;
      const refusal = (e: unknown) => e instanceof MsgError && e.code === ourCode(c.expected_error);
      // strict: thrown, as the reference raises
      assert.throws(() => (fold === inPlace ? appendEvent(msg, last, { strict: true }) : appendEventImmutable(msg, last, { strict: true })), refusal);
      assert.equal(JSON.stringify(msg), before, "a rejected event changes nothing");
      // by default, as the SDK: the message returned as the reference leaves it, the
      // refusal told to onRefused
      const told: unknown[] = [];
      const onRefused = (e: MsgError, event: unknown) => told.push([e, event]);
      const back = fold === inPlace ? appendEvent(msg, last, { onRefused }) : appendEventImmutable(msg, last, { onRefused });
      assert.equal(back, msg);
      assert.equal(JSON.stringify(msg), before);
      assert.equal(told.length, 1);
      assert.ok(refusal((told[0] as unknown[])[0]));
      assert.equal((told[0] as unknown[])[1], last);
    }
  });
}

test("a bad event is a MsgError with a code, the object unchanged and still tied", () => {
  const msg = AssistantMsg({ id: "r", name: "Friday", content: [] });
  appendEvent(msg, { type: "TEXT_BLOCK_START", reply_id: "r", block_id: "t" });
  appendEvent(msg, { type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: "a" });
  const before = JSON.stringify(msg);
  resetFoldStats();
  const bad = [
    [{ type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: 5 }, "invalid_event"],
    [{ type: "NOT_AN_EVENT", reply_id: "r" }, "invalid_event"],
    ["{not json", "invalid_json"],
    [null, "invalid_argument"],
  ] as const;
  for (const [event, code] of bad) {
    const strict = { strict: true };
    assert.throws(() => appendEvent(msg, event as unknown as AgentEvent, strict), (e: unknown) => e instanceof MsgError && e.code === code);
    assert.throws(() => appendEventImmutable(msg, event as unknown as AgentEvent, strict), (e: unknown) => e instanceof MsgError && e.code === code);
    assert.equal(JSON.stringify(msg), before);
  }
  assert.throws(() => appendEvent({} as Msg, { type: "USER_INTERRUPT", reply_id: "r" }), (e: unknown) => e instanceof MsgError && e.code === "invalid_argument");
  appendEvent(msg, { type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: "b" });
  assert.equal(foldStats().rebuilds, 0);
  assert.equal(getTextContent(msg), "ab");
  // an event of another reply, or CUSTOM, is skipped (validated) without a rebuild
  const other = structuredClone(msg);
  appendEvent(other, { type: "TEXT_BLOCK_DELTA", reply_id: "x", block_id: "t", delta: "c" });
  appendEvent(other, { type: "CUSTOM", name: "state_updated", value: {} });
  assert.equal(foldStats().rebuilds, 0);
  assert.throws(() => appendEvent(other, { type: "CUSTOM" } as AgentEvent, { strict: true }), (e: unknown) => e instanceof MsgError && e.code === "invalid_event");
});

test("the factories are plain functions returning plain objects", () => {
  const user = UserMsg({ name: "user", content: "hi" });
  assert.equal(Object.getPrototypeOf(user), Object.prototype);
  assert.equal(user.role, "user");
  assert.equal(user.finished_at, user.created_at);
  assert.match(user.id, /^[0-9a-f]{32}$/);
  assert.equal(user.content[0]!.type, "text");
  assert.equal(getTextContent(user), "hi");
  user.name = "renamed"; // mutable
  const asst = AssistantMsg({ name: "Friday", content: [], id: null, created_at: "", metadata: null });
  assert.equal(asst.finished_at, null);
  assert.deepEqual(asst.metadata, {});
  assert.equal(asst.usage, null);
  assert.deepEqual(Object.keys(asst), ["name", "content", "role", "id", "metadata", "created_at", "usage", "finished_at", "finished_reason", "structured_output", "error"]);
  const withUsage = AssistantMsg({ name: "a", content: "x", usage: { input_tokens: 1, output_tokens: 2 } });
  assert.deepEqual(withUsage.usage, { input_tokens: 1, output_tokens: 2, cache_input_tokens: 0, cache_creation_input_tokens: 0 });
  assert.equal(SystemMsg({ name: "system", content: "be brief" }).role, "system");
  assert.throws(
    () => UserMsg({ name: "user", content: [{ type: "tool_call", id: "c", name: "f", input: "{}", state: "pending" }] }),
    (e: unknown) => e instanceof MsgError && e.code === "role_violation",
  );
  const made = createMsg({ name: "user", content: "x", role: "user" });
  assert.equal(made.finished_at, null, "createMsg has no role default");
  assert.equal(getContentBlocks(made), made.content, "no filter: the content list itself");
  assert.deepEqual(getContentBlocks(made, ["text", "data"]).map((b) => b.type), ["text"]);
  assert.equal(hasContentBlocks(made, "tool_call"), false);
  setIdFactory(() => "fixed");
  try {
    assert.equal(AssistantMsg({ name: "a", content: [] }).id, "fixed");
  } finally {
    setIdFactory(null);
  }
});

test("the enums are run-time values", () => {
  assert.equal(ReplyFinishedReason.ERROR, "error");
  assert.equal(ReplyFinishedReason.EXCEED_MAX_ITERS, "exceed_max_iters");
  assert.equal(EventType.REPLY_END, "REPLY_END");
  assert.equal(ErrorType.RATE_LIMIT, "rate_limit");
  assert.equal(FinishedReason.COMPLETED, "completed");
  assert.equal(PermissionBehavior.ASK, "ask");
  assert.equal(PermissionMode.DONT_ASK, "dont_ask");
  assert.ok(Object.isFrozen(ReplyFinishedReason));
  assert.ok(Object.isFrozen(PermissionMode));
  const msg = AssistantMsg({ id: "r", name: "a", content: [] });
  appendEvent(msg, { type: "REPLY_END", reply_id: "r", session_id: "s", finished_reason: "error", error: { type: "upstream", message: "boom" } });
  assert.ok(msg.finished_reason === ReplyFinishedReason.ERROR);
  assert.equal(msg.error?.type, ErrorType.UPSTREAM);
});

test("createPermissionContext: an empty context of a mode, as @agentscope-ai/agentscope/permission's", () => {
  assert.deepEqual(createPermissionContext(), { mode: "default", working_directories: {}, allow_rules: {}, deny_rules: {}, ask_rules: {} });
  const ctx = createPermissionContext(PermissionMode.EXPLORE);
  assert.equal(ctx.mode, "explore");
  ctx.allow_rules.Bash = [{ tool_name: "Bash", rule_content: "ls", behavior: PermissionBehavior.ALLOW, source: "session" }];
  assert.notEqual(createPermissionContext().allow_rules, ctx.allow_rules, "a new object each call");
  assert.throws(
    () => createPermissionContext("sometimes" as PermissionMode),
    (e: unknown) => e instanceof MsgError && e.code === "invalid_argument",
  );
});

/** Vue 2's reactivity as it treats a message put in a store or `data()` (`observe`): each
 * object's keys made getters / setters (a set value is observed), each list's `push`
 * patched to observe what it adds. A value added otherwise (a list assigned past its
 * end) stays unobserved: the view would not update for it. */
function vue2Observer() {
  const observed = new WeakSet<object>();
  const arrayMethods = Object.create(Array.prototype) as unknown[];
  Object.defineProperty(arrayMethods, "push", {
    value(this: unknown[], ...items: unknown[]) {
      items.forEach(observe);
      return Array.prototype.push.apply(this, items);
    },
  });
  function observe(value: unknown): void {
    if (typeof value !== "object" || value === null || observed.has(value)) return;
    observed.add(value);
    if (Array.isArray(value)) {
      Object.setPrototypeOf(value, arrayMethods);
      value.forEach(observe);
      return;
    }
    for (const key of Object.keys(value)) {
      let current = (value as Record<string, unknown>)[key];
      observe(current);
      Object.defineProperty(value, key, {
        enumerable: true,
        configurable: true,
        get: () => current,
        set: (next: unknown) => {
          current = next;
          observe(next);
        },
      });
    }
  }
  return { observe, observed };
}

/** The blocks of a message and of its blocks' lists (a tool result's output, a hint's parts). */
function listedBlocks(msg: Msg): object[] {
  const out: object[] = [];
  for (const block of msg.content) {
    out.push(block);
    for (const inner of [(block as { output?: unknown }).output, (block as { hint?: unknown }).hint]) {
      if (Array.isArray(inner)) out.push(...(inner as object[]));
    }
  }
  return out;
}

test("a Vue 2 store: every new block is pushed (observed), and a store that copies the list per event folds every recording", () => {
  for (const dir of recordings()) {
    const want = expected(dir);
    const events = eventsOf(dir, "events.jsonl");
    // the message kept in a Vue 2 store and mutated in place: every block, also a tool
    // result's output parts, arrives through an observed push, as with the reference's
    // `msg.content.push(...)`
    const { observe, observed } = vue2Observer();
    const folded = foldRecording(events, (msg, event) => {
      observe(msg);
      return appendEvent(msg, event);
    });
    assert.equal(stable(folded), want, `${basename(dir)}: observed, in place`);
    for (const msg of folded) {
      for (const block of listedBlocks(msg)) assert.ok(observed.has(block), `${basename(dir)}: a block added unobserved`);
    }
    // the Vue port's Vuex store: appendEvent on the stored reply, then a shallow copy with
    // a copy of the content list committed in its place (each event rebuilds the message
    // from its JSON: a new content list is not the one written)
    if (basename(dir).startsWith("j_long")) continue;
    resetFoldStats();
    let replaced = 0;
    const copied = foldRecording(events, (reply, event) => {
      appendEvent(reply, event);
      replaced++;
      return { ...reply, content: reply.content.slice() };
    });
    assert.equal(stable(copied), want, `${basename(dir)}: list copied per event`);
    assert.ok(foldStats().rebuilds <= replaced);
  }
});

test("agentscope-message/compat/init loads nothing on import: the factories wait for init(), the enums do not", () => {
  // a fresh process: this one loaded the .wasm with the zero-config entry
  const script = `
    import { AssistantMsg, EventType, MsgError, PermissionMode, appendEvent, init } from ${JSON.stringify(join(root, "pkg/dist/entry-compat-init.js"))};
    const out = { enums: [EventType.REPLY_END, PermissionMode.BYPASS] };
    try { AssistantMsg({ name: "a", content: [] }); out.before = "no error"; } catch (e) { out.before = e instanceof MsgError ? e.code : String(e); }
    await init();
    const msg = AssistantMsg({ id: "r", name: "a", content: [] });
    appendEvent(msg, { type: "TEXT_BLOCK_START", reply_id: "r", block_id: "t" });
    appendEvent(msg, { type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: "hi" });
    out.text = msg.content[0].text;
    console.log(JSON.stringify(out));`;
  const out = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }));
  assert.deepEqual(out, { enums: ["REPLY_END", "bypass"], before: "not_initialized", text: "hi" });
});
