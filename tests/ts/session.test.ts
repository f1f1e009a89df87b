// The TS `Session`: the hand-worked cases of tests/fixtures/session/cases.json (the same
// file the Rust and wasm suites run), snapshots (equal to toJSON at every step,
// structural sharing), subscribe, checkpoints, read(), and the UI helpers.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import {
  AssistantMsg,
  Msg,
  MsgError,
  Session,
  blockKey,
  openBlocks,
  parseToolInput,
  pendingActions,
  setIdFactory,
  setTimestampFactory,
  splitEvents,
  type MsgJSON,
  type SessionOptions,
  type ToolCallBlock,
} from "../../pkg/dist/index.js";
import { root, type Json } from "./helpers.ts";

const fixture = JSON.parse(readFileSync(join(root, "tests/fixtures/session/cases.json"), "utf8"));

/** `expected` is contained in `actual` (objects on the keys given, arrays element-wise). */
function subset(actual: Json, expected: Json, at: string): string | null {
  if (expected !== null && typeof expected === "object") {
    if (Array.isArray(expected)) {
      if (!Array.isArray(actual) || actual.length !== expected.length) return `${at}: got ${JSON.stringify(actual)}, want ${JSON.stringify(expected)}`;
      for (let i = 0; i < expected.length; i++) {
        const d = subset(actual[i], expected[i], `${at}[${i}]`);
        if (d) return d;
      }
      return null;
    }
    if (actual === null || typeof actual !== "object") return `${at}: got ${JSON.stringify(actual)}`;
    for (const [k, v] of Object.entries(expected)) {
      if (!(k in actual)) return `${at}.${k}: missing`;
      const d = subset(actual[k], v, `${at}.${k}`);
      if (d) return d;
    }
    return null;
  }
  return actual === expected ? null : `${at}: got ${JSON.stringify(actual)}, want ${JSON.stringify(expected)}`;
}

function tsOptions(o: Json): SessionOptions {
  return { strict: o.strict, dedup: o.dedup, toolCallMatch: o.tool_call_match, blockMatch: o.block_match };
}

/** Feeds a case's stream in chunks of `size` (0: whole), as text or bytes. */
function run(c: Json, size: number, bytes: boolean): Json {
  using session = new Session(tsOptions(c.options));
  const input: string | Uint8Array = bytes ? new TextEncoder().encode(c.stream) : c.stream;
  const step = size === 0 ? Math.max(input.length, 1) : size;
  let error: Json = null;
  try {
    for (let at = 0; at < input.length; at += step) session.feed(input.slice(at, at + step));
    session.end();
  } catch (e) {
    assert.ok(e instanceof MsgError, String(e));
    error = { code: e.code, index: e.index, event_id: e.eventId ?? null };
  }
  return { error, messages: session.messages, diagnostics: session.diagnostics };
}

for (const c of fixture.cases) {
  test(`session case ${c.name}`, () => {
    const want = { error: null, ...c.expected };
    for (const [size, bytes] of [[0, false], [1, true], [7, false], [5, true]] as const) {
      const diff = subset(run(c, size, bytes), want, `${c.name} (${size} ${bytes ? "bytes" : "chars"})`);
      assert.equal(diff, null);
    }
  });
}

test("a strict refusal leaves the session as it was, and the rest of the chunk stays queued", () => {
  const c = fixture.cases.find((x: Json) => x.name === "after_end_strict");
  using session = new Session({ strict: true });
  const before = () => JSON.stringify(session.messages);
  let snapshot = "";
  assert.throws(
    () => {
      try {
        session.feed(c.stream);
      } finally {
        snapshot = before();
      }
    },
    (e: unknown) => e instanceof MsgError && e.code === "after_end" && e.index === 5 && e.eventId === "e4" && /e4/.test(e.message),
  );
  assert.equal(session.messages[0]!.content[0]!.type === "text" && session.messages[0]!.content[0]!.text, "Hi");
  assert.equal(before(), snapshot);
  assert.equal(session.end(), 0);
});

test("skipInvalid: a frame that is not JSON or not an event is a diagnostic, and the events behind it are applied", () => {
  const stream = [
    `data: {"type":"REPLY_START","session_id":"s","reply_id":"r","name":"Friday"}`,
    `data: {"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"t"}`,
    `data: {not json`,
    `data: {"type":"TEXT_BLOCK_DELTA","reply_id":"r","delta":"lost"}`,
    `data: {"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"t","delta":"Hi"}`,
    "",
  ].join("\n\n");
  using lenient = new Session({ skipInvalid: true });
  assert.equal(lenient.feed(stream), 3);
  assert.deepEqual(
    lenient.diagnostics.map((d) => [d.index, d.code]),
    [
      [3, "invalid_json"],
      [4, "invalid_event"],
    ],
  );
  assert.equal(lenient.messages[0]!.content[0]!.type === "text" && lenient.messages[0]!.content[0]!.text, "Hi");
  // by default the reference's error, at the same frame
  using strict = new Session();
  assert.throws(() => strict.feed(stream), (e: unknown) => e instanceof MsgError && e.code === "invalid_json" && e.index === 3);
  assert.throws(() => new Session({ skipInvalid: "yes" as unknown as boolean }), (e: unknown) => e instanceof MsgError && e.code === "invalid_argument");
});

test("a chunk of several pieces gives what small chunks give: the same first refusal, the rest waiting", () => {
  const lines = [
    `{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"Friday"}`,
    `{"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"t"}`,
  ];
  for (let i = 0; i < 120_000; i++) {
    if (i === 60_000) lines.push(`{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"nope","delta":"x"}`);
    lines.push(`{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"t","delta":"ab"}`);
  }
  const text = lines.join("\n") + "\n";
  assert.ok(text.length > 8 << 20);
  for (const chunk of [text, new TextEncoder().encode(text)]) {
    using session = new Session({ strict: true });
    assert.throws(() => session.feed(chunk), (e: unknown) => e instanceof MsgError && e.code === "unknown_block" && e.index === 60_003);
    const first = session.messages[0]!.content[0]!;
    assert.equal(first.type === "text" && first.text.length, 120_000);
    assert.equal(session.feed(""), 60_000);
    const all = session.messages[0]!.content[0]!;
    assert.equal(all.type === "text" && all.text.length, 240_000);
  }
});

test("read() with onError goes on after a refused event", async () => {
  const stream = [
    '{"type":"REPLY_START","id":"e0","session_id":"s","reply_id":"r","name":"A"}',
    '{"type":"TEXT_BLOCK_START","id":"e1","reply_id":"r","block_id":"b"}',
    '{"type":"DATA_BLOCK_DELTA","id":"e2","reply_id":"r","block_id":"b","media_type":"image/png"}',
    '{"type":"TEXT_BLOCK_DELTA","id":"e3","reply_id":"r","block_id":"b","delta":"ok"}',
  ].join("\n");
  const errors: MsgError[] = [];
  using session = new Session();
  await session.read([stream.slice(0, 100), stream.slice(100)], { onError: (e) => errors.push(e) });
  assert.deepEqual(errors.map((e) => [e.code, e.index, e.eventId]), [["invalid_event", 3, "e2"]]);
  assert.equal(session.messages[0]!.content[0]!.type === "text" && session.messages[0]!.content[0]!.text, "ok");
  using strictly = new Session();
  await assert.rejects(strictly.read([stream]), (e: unknown) => e instanceof MsgError && e.code === "invalid_event");
});

test("read() takes a fetch Response and a ReadableStream of bytes, and rejects an HTTP error", async () => {
  const sse = readFileSync(join(root, "examples/recordings/b_thinking_text/events.sse"));
  const chunks = (n: number) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < sse.length; at += n) controller.enqueue(new Uint8Array(sse.subarray(at, at + n)));
        controller.close();
      },
    });
  using a = new Session();
  await a.read(new Response(chunks(333)));
  using b = new Session();
  await b.read(chunks(1000));
  assert.equal(a.messages.length, 1);
  assert.equal(JSON.stringify(a.messages[0]!.content.map((x) => x.type)), JSON.stringify(b.messages[0]!.content.map((x) => x.type)));
  assert.equal(a.framing, "sse");
  using c = new Session();
  await assert.rejects(c.read(new Response("nope", { status: 502, statusText: "Bad Gateway" })), (e: unknown) => e instanceof MsgError && e.code === "invalid_stream" && e.message === "HTTP 502 Bad Gateway");
  const controller = new AbortController();
  controller.abort(new Error("stop"));
  using d = new Session();
  await assert.rejects(d.read(chunks(10), { signal: controller.signal }), /stop/);
});

/** A stream of `n` text deltas, or tool-result deltas, or base64 data deltas. */
function growing(kind: "text" | "tool" | "data", n: number): string[] {
  const out = ['{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"A"}'];
  if (kind === "text") out.push('{"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"b"}');
  if (kind === "tool") out.push('{"type":"TOOL_RESULT_START","reply_id":"r","tool_call_id":"t","tool_call_name":"f"}');
  if (kind === "data") out.push('{"type":"DATA_BLOCK_START","reply_id":"r","block_id":"d","media_type":"image/png"}');
  out.push('{"type":"THINKING_BLOCK_START","reply_id":"r","block_id":"k"}');
  for (let i = 0; i < n; i++) {
    if (kind === "text") out.push(JSON.stringify({ type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "b", delta: `w${i} 你好🌍 ` }));
    if (kind === "tool") out.push(JSON.stringify({ type: "TOOL_RESULT_TEXT_DELTA", reply_id: "r", tool_call_id: "t", delta: `line ${i}\n` }));
    // 1, 2 or 4 bytes per chunk, so the base64 tail crosses 3-byte groups
    if (kind === "data") out.push(JSON.stringify({ type: "DATA_BLOCK_DELTA", reply_id: "r", block_id: "d", media_type: "image/png", data: ["QQ==", "QUI=", "QUJDRA=="][i % 3] }));
  }
  out.push('{"type":"TEXT_BLOCK_END","reply_id":"r","block_id":"b","text":"final"}');
  return out;
}

test("a snapshot equals toJSON() after every event, and unchanged blocks keep their identity", () => {
  setIdFactory(() => "id");
  setTimestampFactory(() => "T");
  try {
    for (const kind of ["text", "tool", "data"] as const) {
      using session = new Session();
      const msg = new AssistantMsg({ name: "A", content: [], id: "r" });
      let previous: MsgJSON | undefined;
      for (const event of growing(kind, 40)) {
        session.feed(event + "\n");
        msg.appendEvent(event);
        const snap = session.getSnapshot().messages[0]!;
        assert.equal(JSON.stringify(snap), msg.toJSONString(), `${kind}: session snapshot`);
        assert.equal(JSON.stringify(msg.toJSON()), msg.toJSONString(), `${kind}: Msg.toJSON`);
        assert.ok(Object.isFrozen(snap) && snap.content.every((b) => Object.isFrozen(b)));
        if (previous && previous.content.length === snap.content.length) {
          // the thinking block (index 1) never changes after its start
          assert.equal(snap.content[1], previous.content[1], `${kind}: unchanged block keeps its identity`);
        }
        previous = snap;
      }
      assert.equal(session.getSnapshot(), session.getSnapshot(), "no change: the same snapshot object");
      msg.free();
    }
  } finally {
    setIdFactory(null);
    setTimestampFactory(null);
  }
});

test("subscribe: one notification per feed that changed something, never re-entrant", () => {
  using session = new Session();
  const seen: number[] = [];
  let depth = 0;
  const stop = session.subscribe(() => {
    depth++;
    assert.equal(depth, 1, "not re-entrant");
    seen.push(session.getSnapshot().messages.length);
    // a listener that feeds: its own notification comes after this one returns
    if (seen.length === 1) session.feed('{"type":"REPLY_START","session_id":"s","reply_id":"r2","name":"B"}\n');
    depth--;
  });
  const stopBroken = session.subscribe(() => {
    throw new Error("a broken listener");
  });
  const two = '{"type":"REPLY_START","session_id":"s","reply_id":"r1","name":"A"}\n{"type":"TEXT_BLOCK_START","reply_id":"r1","block_id":"b"}\n';
  // a throwing listener's error is rethrown later (queueMicrotask), not through feed
  const later: (() => void)[] = [];
  const queue = globalThis.queueMicrotask;
  globalThis.queueMicrotask = (f) => later.push(f);
  try {
    session.feed(two);
  } finally {
    globalThis.queueMicrotask = queue;
  }
  assert.deepEqual(seen, [1, 2]);
  assert.equal(later.length, 2, "one rethrow per notification of the broken listener");
  assert.throws(later[0]!, /a broken listener/);
  stopBroken();
  session.feed('{"type":"CUSTOM","name":"nothing"}\n');
  assert.deepEqual(seen, [1, 2], "nothing changed: no notification");
  stop();
  session.feed('{"type":"TEXT_BLOCK_DELTA","reply_id":"r1","block_id":"b","delta":"x"}\n');
  assert.deepEqual(seen, [1, 2], "unsubscribed");
});

test("checkpoint and restore with dedup: a replay from an earlier point gives the same messages", () => {
  const events = splitEvents(readFileSync(join(root, "examples/recordings/g1_confirm_approve/events.jsonl")));
  setIdFactory(() => "id");
  setTimestampFactory(() => "T");
  try {
    using whole = new Session({ dedup: true });
    whole.feed(events.join("\n"));
    whole.end();
    const want = JSON.stringify(whole.messages);
    for (const cut of [1, 10, 26, events.length]) {
      using first = new Session({ dedup: true });
      first.feed(events.slice(0, cut).join("\n") + "\n");
      const checkpoint = first.checkpoint();
      using resumed = Session.restore(checkpoint);
      resumed.feed(events.slice(Math.floor(cut / 2)).join("\n"));
      resumed.end();
      assert.equal(JSON.stringify(resumed.messages), want, `cut ${cut}`);
      assert.equal(resumed.diagnostics.filter((d) => d.code === "duplicate").length, cut - Math.floor(cut / 2));
    }
  } finally {
    setIdFactory(null);
    setTimestampFactory(null);
  }
  assert.throws(() => Session.restore("{}"), (e: unknown) => e instanceof MsgError && e.code === "invalid_checkpoint");
});

test("pendingActions lists calls awaiting a confirmation or an external executor", () => {
  for (const [name, kind] of [["g1_confirm_approve", "confirm"], ["h_external_execution", "external"]] as const) {
    const events = splitEvents(readFileSync(join(root, `examples/recordings/${name}/events.jsonl`)));
    const parked = events.findIndex((e) => /"type": "(REQUIRE_USER_CONFIRM|REQUIRE_EXTERNAL_EXECUTION)"/.test(e));
    using session = new Session();
    // a JSON Lines line is complete at its line end
    session.feed(events.slice(0, parked + 1).join("\n") + "\n");
    const pending = pendingActions(session.getSnapshot());
    assert.ok(pending.length >= 1, name);
    for (const p of pending) {
      assert.equal(p.kind, kind);
      assert.equal(p.replyId, session.messages[0]!.id);
      assert.equal(session.messages[0]!.content[p.index], p.toolCall);
    }
    session.feed(events.slice(parked + 1).join("\n"));
    session.end();
    assert.deepEqual(pendingActions(session.messages), [], `${name}: nothing pending at the end`);
  }
});

test("parseToolInput: a best-effort view that never throws; input stays exact", () => {
  const cases: [string, unknown][] = [
    ["", {}],
    ["{", {}],
    ['{"q": "hel', { q: "hel" }],
    ['{"a": [1, 2', { a: [1] }],
    ['{"a": {"b": true}}', { a: { b: true } }],
    ['{"pattern":"\\d+', null],
  ];
  for (const [input, want] of cases) assert.deepEqual(parseToolInput(input), want, input);
  using session = new Session();
  session.feed('{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"A"}\n{"type":"TOOL_CALL_START","reply_id":"r","tool_call_id":"t","tool_call_name":"grep"}\n');
  for (const piece of ['{"pattern":', '"\\\\d+', '", "path": "src"}']) {
    session.feed(JSON.stringify({ type: "TOOL_CALL_DELTA", reply_id: "r", tool_call_id: "t", delta: piece }) + "\n");
  }
  const call = session.messages[0]!.content[0] as ToolCallBlock;
  assert.equal(call.input, '{"pattern":"\\\\d+", "path": "src"}', "the exact concatenation");
  assert.deepEqual(parseToolInput(call), { pattern: "\\d+", path: "src" });
  assert.equal(parseToolInput(call), parseToolInput(call), "computed once per block object");
});

test("blockKey is unique where ids collide (a tool call and its result)", () => {
  const events = splitEvents(readFileSync(join(root, "examples/recordings/c_react_3_tools_2_iters/events.sse")));
  using session = new Session();
  session.feed(events.join("\n"));
  const msg = session.messages[0]!;
  const ids = msg.content.map((b) => b.id);
  assert.ok(new Set(ids).size < ids.length, "the recording has calls and results sharing ids");
  const keys = msg.content.map((b, i) => blockKey(b, i));
  assert.equal(new Set(keys).size, keys.length);
});

test("bad arguments are MsgError(invalid_argument); a freed session keeps its last snapshot", () => {
  const bad: [string, () => unknown][] = [
    ["unknown option", () => new Session({ fast: true } as never)],
    ["options as a list", () => new Session([] as never)],
    ["mistyped option", () => new Session({ dedup: "yes" } as never)],
    ["toolCallMatch", () => new Session({ toolCallMatch: "last" } as never)],
    ["blockMatch", () => new Session({ blockMatch: "last" } as never)],
    ["feed a number", () => new Session().feed(42 as never)],
    ["apply null", () => new Session().apply(null as never)],
    ["subscribe a string", () => new Session().subscribe("x" as never)],
    ["splitEvents a number", () => splitEvents(1 as never)],
  ];
  for (const [what, f] of bad) assert.throws(f, (e: unknown) => e instanceof MsgError && e.code === "invalid_argument", what);
  const session = new Session();
  session.feed('{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"A"}\n');
  const last = session.getSnapshot();
  session.free();
  assert.equal(session.getSnapshot(), last);
  assert.throws(() => session.feed("x"), (e: unknown) => e instanceof MsgError && e.code === "freed");
  session.subscribe(() => {})();
});

test("read(): an abort while the source waits rejects at once and cancels the source", async () => {
  let cancelled: unknown = "not cancelled";
  const stalled = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('data: {"type":"REPLY_START","session_id":"s","reply_id":"r","name":"A"}\n\n'));
    },
    cancel(reason) {
      cancelled = reason;
    },
  });
  const controller = new AbortController();
  using session = new Session();
  const reading = session.read(stalled, { signal: controller.signal });
  setTimeout(() => controller.abort(new Error("user left")), 50);
  await assert.rejects(reading, /user left/);
  assert.match(String(cancelled), /user left/);
  assert.equal(session.messages.length, 1, "what arrived before the abort is kept");
  using again = new Session();
  const used = new Response("data: {}\n\n");
  await used.text();
  await assert.rejects(again.read(used), (e: unknown) => e instanceof MsgError && e.code === "invalid_argument");
});

test("UI helpers take only what they document; diagnostics keep their identity until they change", () => {
  for (const [what, f] of [
    ["parseToolInput(null)", () => parseToolInput(null as never)],
    ["pendingActions(null)", () => pendingActions(null as never)],
    ["pendingActions(5)", () => pendingActions(5 as never)],
    ["pendingActions({})", () => pendingActions({} as never)],
    // a content entry that is not a block (an outside attack found a raw TypeError here)
    ["pendingActions: a null block", () => pendingActions({ id: "r", role: "assistant", content: [null] } as never)],
    ["pendingActions: a null block in a list", () => pendingActions([{ id: "r", content: ["text"] }] as never)],
    ["openBlocks: a null block", () => openBlocks({ id: "r", content: [null], finished_at: null } as never)],
    ["blockKey(null)", () => blockKey(null as never, 0)],
  ] as const) {
    assert.throws(f, (e: unknown) => e instanceof MsgError && e.code === "invalid_argument", what);
  }
  using session = new Session();
  session.feed("event: ping\ndata: 1\n\n");
  const first = session.diagnostics;
  assert.equal(session.diagnostics, first);
  session.feed("event: ping\ndata: 2\n\n");
  assert.notEqual(session.diagnostics, first);
  assert.equal(session.diagnostics.length, 2);
  session.end();
  assert.throws(() => session.feed("data: {}\n\n"), (e: unknown) => e instanceof MsgError && e.code === "invalid_stream");
  session.restartStream();
  assert.equal(session.feed('{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"A"}\n'), 1);
});

test("international domain names in wasm: put in ASCII by the host's URL parser, as the reference does", () => {
  // expected values: agentscope 2.0.11 (tests/fixtures/reference-json, tests/idn.rs)
  const cases: [string, string | null][] = [
    ["https://bücher.de/x.png", "https://xn--bcher-kva.de/x.png"],
    ["HTTPS://BÜCHER.DE/x.png", "https://xn--bcher-kva.de/x.png"],
    ["https://bücher\uff0ede/x.png", "https://xn--bcher-kva.de/x.png"],
    ["https://xn--a.com/x.png", null],
    ["https://ex ample.com/x.png", null],
  ];
  for (const [url, want] of cases) {
    using session = new Session();
    session.feed('{"type":"REPLY_START","session_id":"s","reply_id":"r","name":"A"}\n{"type":"DATA_BLOCK_START","reply_id":"r","block_id":"d","media_type":"image/png"}\n');
    const delta = JSON.stringify({ type: "DATA_BLOCK_DELTA", reply_id: "r", block_id: "d", media_type: "image/png", url }) + "\n";
    if (want === null) {
      assert.throws(() => session.feed(delta), (e: unknown) => e instanceof MsgError && e.code === "invalid_url", url);
    } else {
      session.feed(delta);
      const block = session.messages[0]!.content[0]!;
      assert.ok(block.type === "data" && block.source.type === "url");
      assert.equal(block.source.url, want, url);
    }
  }
});

test("maxFrameBytes: a longer frame is a limit_exceeded MsgError and the stream goes on", () => {
  const session = new Session({ maxFrameBytes: 200 });
  const frame = (e: object) => `data: ${JSON.stringify(e)}\n\n`;
  const delta = (t: string) => frame({ type: "TEXT_BLOCK_DELTA", reply_id: "r", block_id: "t", delta: t });
  session.feed(frame({ type: "REPLY_START", session_id: "s", reply_id: "r", name: "a" }) + frame({ type: "TEXT_BLOCK_START", reply_id: "r", block_id: "t" }));
  assert.throws(() => session.feed(delta("a") + delta("x".repeat(300)) + delta("b")), (e: unknown) => e instanceof MsgError && e.code === "limit_exceeded");
  session.feed(new Uint8Array());
  session.end();
  assert.equal((session.getSnapshot().messages[0]!.content[0] as { text: string }).text, "ab");
  for (const bad of [-1, 1.5, "10", 2 ** 32, 2 ** 40]) {
    assert.throws(() => new Session({ maxFrameBytes: bad as never }), (e: unknown) => e instanceof MsgError && e.code === "invalid_argument");
  }
  // the largest cap wasm32 takes, and 0 (no cap)
  for (const ok of [0, 2 ** 32 - 1]) new Session({ maxFrameBytes: ok }).free();
});

test("read: a stream that cannot be framed is reported once with onError, and the rest is not read", async () => {
  const session = new Session();
  let pulled = 0;
  function* garbage() {
    for (let i = 0; i < 50; i++) {
      pulled++;
      yield "garbage ";
    }
  }
  const errors: string[] = [];
  await session.read(garbage(), { onError: (e) => errors.push(`${e.code}: ${e.message}`) });
  assert.equal(errors.length, 1, errors.join("\n"));
  assert.match(errors[0]!, /^invalid_stream: at event 1: cannot tell the framing/);
  assert.equal(pulled, 1);
  assert.deepEqual(session.messages, []);
  // without onError the first one rejects, as before
  await assert.rejects(new Session().read(garbage()), (e: unknown) => e instanceof MsgError && e.code === "invalid_stream");
});

test("one session reads phase after phase with read() alone: the second read starts a new stream", async () => {
  const session = new Session({ dedup: true });
  const start = { type: "REPLY_START", id: "e1", session_id: "s", reply_id: "r", name: "Friday" };
  const open = { type: "TEXT_BLOCK_START", id: "e2", reply_id: "r", block_id: "t" };
  const delta = (id: string, text: string) => ({ type: "TEXT_BLOCK_DELTA", id, reply_id: "r", block_id: "t", delta: text });
  const sse = (...events: object[]) => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("");
  // phase 1 ends mid-frame (a cut connection): the unfinished frame is dropped by the next read
  const first = sse(start, open, delta("e3", "Hel"));
  // (the cut frame is the stream's last: end() reports it)
  await assert.rejects(session.read([first + 'data: {"type": "TEXT_BLOCK_DEL']), (e: MsgError) => e.code === "invalid_json");
  // phase 2 replays the run (dedup skips what was applied) and goes on
  await session.read([sse(start, open, delta("e3", "Hel"), delta("e4", "lo"), { type: "REPLY_END", id: "e5", session_id: "s", reply_id: "r" })]);
  const block = session.get("r")?.content[0];
  assert.equal(block?.type === "text" ? block.text : undefined, "Hello");
  assert.equal(session.isEnded("r"), true);
  // (the reply ends with its text block open: a note, not a skip)
  assert.deepEqual(session.diagnostics.map((d) => d.code), ["duplicate", "duplicate", "duplicate", "unclosed_blocks"]);
  // feeding after end() still says what to call, in the TS name
  assert.throws(() => session.feed("data: {}\n\n"), (e: MsgError) => e.code === "invalid_stream" && e.message.includes("restartStream()"));
  session.free();
});

test("insert: a stored reply a continuation REPLY_START goes on with; isEnded follows REPLY_START / REPLY_END", () => {
  const session = new Session();
  const parked = new AssistantMsg({
    name: "Friday",
    id: "r",
    content: [{ type: "tool_call", id: "c1", name: "Bash", input: "{}", state: "asking" }],
  }).toJSON();
  session.insert(parked);
  assert.equal(session.isEnded("r"), false);
  assert.equal(session.isEnded("nope"), false);
  assert.equal(session.messages.length, 1);
  session.apply({ type: "REPLY_START", session_id: "s", reply_id: "r", name: "Friday" } as never);
  session.apply({ type: "TOOL_RESULT_START", reply_id: "r", tool_call_id: "c1", tool_call_name: "Bash" } as never);
  session.apply({ type: "REPLY_END", session_id: "s", reply_id: "r" } as never);
  const content = session.get("r")!.content;
  assert.deepEqual(content.map((b) => b.type), ["tool_call", "tool_result"]);
  assert.equal(session.isEnded("r"), true);
  // replacing a message the snapshot has read already: the snapshot shows the new one
  const replacement = new AssistantMsg({ name: "Friday", id: "r", content: "stored whole" }).toJSON();
  session.insert(replacement);
  assert.deepEqual(session.get("r"), replacement);
  assert.equal(session.isEnded("r"), false);
  // a message Msg.fromJSON refuses is refused here too, the session unchanged
  assert.throws(() => session.insert({ ...parked, role: "user" } as MsgJSON), (e: MsgError) => e.code === "role_violation");
  assert.equal(session.messages.length, 1);
  session.free();
});

test("read: a second read() while one is under way is refused (two streams would interleave); the first goes on", async () => {
  const session = new Session();
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  async function* slow() {
    yield 'data: {"type": "REPLY_START", "session_id": "s", "reply_id": "r", "name": "n"}\n\n';
    await gate;
    yield 'data: {"type": "TEXT_BLOCK_START", "reply_id": "r", "block_id": "t"}\n\n';
  }
  const first = session.read(slow());
  await assert.rejects(session.read(["data: {}\n\n"]), (e: MsgError) => e.code === "invalid_argument" && /already reading/.test(e.message));
  release();
  await first;
  assert.deepEqual(session.get("r")?.content.map((b) => b.type), ["text"]);
  // once it is over, the next read() is fine
  await session.read(['data: {"type": "TEXT_BLOCK_DELTA", "reply_id": "r", "block_id": "t", "delta": "x"}\n\n']);
  session.free();
});

test("read: an abort ends a read of an async iterable that does not yield, at once, and asks it to finish", async () => {
  const session = new Session();
  let returned = false;
  const stuck: AsyncIterable<string> = {
    [Symbol.asyncIterator]: () => ({
      next: () => new Promise<IteratorResult<string>>(() => {}),
      return: async () => {
        returned = true;
        return { done: true, value: undefined };
      },
    }),
  };
  const controller = new AbortController();
  const t0 = Date.now();
  setTimeout(() => controller.abort(new Error("stop now")), 50);
  await assert.rejects(session.read(stuck, { signal: controller.signal }), /stop now/);
  assert.ok(Date.now() - t0 < 2_000, `${Date.now() - t0} ms`);
  assert.equal(returned, true);
  session.free();
});

test("read with onError keeps a high surrogate held across a refused event (the low half comes in the next chunk)", async () => {
  const session = new Session();
  const errors: string[] = [];
  const start = 'data: {"type": "REPLY_START", "session_id": "s", "reply_id": "r", "name": "n"}\n\n' +
    'data: {"type": "TEXT_BLOCK_START", "reply_id": "r", "block_id": "t"}\n\n';
  // the refused frame completes in the chunk that ends inside the next event, on a high surrogate
  const chunk1 = start + "data: {not json\n\n" + 'data: {"type": "TEXT_BLOCK_DELTA", "reply_id": "r", "block_id": "t", "delta": "a\ud83c';
  const chunk2 = '\udf0d"}\n\n';
  await session.read([chunk1, chunk2], { onError: (e) => errors.push(e.code) });
  assert.deepEqual(errors, ["invalid_json"]);
  const block = session.get("r")?.content[0];
  assert.equal(block?.type === "text" ? block.text : undefined, "a\u{1F30D}");
  session.free();
});

test("lastEventId follows the SSE standard: an id-only block sets it, an empty id resets it, a reconnect keeps it", () => {
  const session = new Session();
  session.feed('id: 7\ndata: {"type": "REPLY_START", "session_id": "s", "reply_id": "r", "name": "n"}\n\n');
  assert.equal(session.lastEventId, "7");
  session.feed("id: 8\n\n");
  assert.equal(session.lastEventId, "8");
  session.feed("id\n\n");
  assert.equal(session.lastEventId, null);
  session.feed("id: 9\n\n");
  session.restartStream();
  session.feed(": ping\n\n");
  assert.equal(session.lastEventId, "9");
  session.free();
});

test("restore refuses two messages with one id and a last_event_id with a line end", () => {
  const session = new Session();
  session.feed('id: 5\ndata: {"type": "REPLY_START", "session_id": "s", "reply_id": "r", "name": "n"}\n\n');
  const good = JSON.parse(session.checkpoint());
  const twice = JSON.stringify({ ...good, messages: [good.messages[0], good.messages[0]] });
  assert.throws(() => Session.restore(twice), (e: MsgError) => e.code === "invalid_checkpoint" && /two messages/.test(e.message));
  const crlf = JSON.stringify({ ...good, last_event_id: "5\r\nX-Evil: 1" });
  assert.throws(() => Session.restore(crlf), (e: MsgError) => e.code === "invalid_checkpoint");
  assert.equal(Session.restore(JSON.stringify(good)).lastEventId, "5");
  session.free();
});

test("a REPLY_END that leaves blocks open: an unclosed_blocks diagnostic naming them, and openBlocks lists them", () => {
  const session = new Session({ strict: true });
  session.feed([
    '{"type": "REPLY_START", "session_id": "s", "reply_id": "r", "name": "n"}',
    '{"type": "TEXT_BLOCK_START", "reply_id": "r", "block_id": "t"}',
    '{"type": "TEXT_BLOCK_DELTA", "reply_id": "r", "block_id": "t", "delta": "This will "}',
    '{"type": "TOOL_CALL_START", "reply_id": "r", "tool_call_id": "c", "tool_call_name": "f"}',
    '{"type": "TOOL_CALL_END", "reply_id": "r", "tool_call_id": "c"}',
    // a failed run: no TEXT_BLOCK_END (the reply did end: never refused, also when strict)
    '{"type": "REPLY_END", "session_id": "s", "reply_id": "r", "finished_reason": "error"}',
  ].join("\n") + "\n");
  assert.deepEqual(
    session.diagnostics.map((d) => [d.index, d.code, d.message]),
    [[6, "unclosed_blocks", 'REPLY_END of a reply whose blocks never ended: text "t"']],
  );
  const msg = session.get("r")!;
  assert.deepEqual(openBlocks(msg).map(({ block, index }) => [index, block.type]), [[0, "text"]]);
  assert.throws(() => openBlocks(null as never), (e: MsgError) => e.code === "invalid_argument");
  session.free();
});

test("caps: session options pass to each message; Msg.setLimits; each refusal changes nothing", () => {
  const start = (reply: string) => `{"type":"REPLY_START","session_id":"s","reply_id":"${reply}","name":"a"}\n`;
  const open = (reply: string) => `{"id":"e","created_at":"T","type":"TEXT_BLOCK_START","reply_id":"${reply}","block_id":"t"}\n`;
  const delta = (reply: string, text: string) => `{"type":"TEXT_BLOCK_DELTA","reply_id":"${reply}","block_id":"t","delta":"${text}"}\n`;
  const session = new Session({ maxDeltaBytes: 3, maxBlocks: 1 });
  session.feed(start("r"));
  // a message counts its own wire JSON when opened
  const opened = session.takenBytes;
  assert.equal(opened, JSON.stringify(session.get("r")).length);
  session.feed(open("r") + delta("r", "abc"));
  assert.throws(() => session.feed(delta("r", "abcd")), (e: unknown) => e instanceof MsgError && e.code === "limit_exceeded" && /max_delta_bytes/.test(e.message));
  assert.throws(() => session.feed(open("r").replace('"t"', '"u"')), (e: unknown) => e instanceof MsgError && e.code === "limit_exceeded" && /max_blocks/.test(e.message));
  const msg = session.get("r")!;
  assert.deepEqual(msg.content.map((b) => b.type === "text" && b.text), ["abc"]);
  // the start takes in its wire JSON, each delta its payload
  const startLength = `{"id":"e","created_at":"T","metadata":{},"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"t"}`.length;
  assert.equal(session.takenBytes, opened + startLength + 3);
  // a message of its own
  const own = Msg.fromJSON('{"name":"a","role":"assistant","id":"m","content":[]}');
  const made = own.takenBytes;
  assert.equal(made, own.toJSONString().length);
  own.setLimits({ maxMessageBytes: made + startLength + 2 });
  assert.deepEqual(own.limits, { maxDeltaBytes: 64 * 2 ** 20, maxBlockBytes: 256 * 2 ** 20, maxMessageBytes: made + startLength + 2, maxBlocks: 100_000 });
  own.appendEvent(open("m"));
  assert.throws(() => own.appendEvent(delta("m", "abc")), (e: unknown) => e instanceof MsgError && e.code === "limit_exceeded");
  own.appendEvent(delta("m", "ab"));
  assert.equal(own.takenBytes, made + startLength + 2);
  const block = own.toJSON().content[0]!;
  assert.equal(block.type === "text" ? block.text : block.type, "ab");
  for (const bad of [{ maxBlocks: -1 }, { maxBlocks: 1.5 }, { maxBlocks: 2 ** 32 }, { maxBlocks: "1" }, { nope: 1 }]) {
    assert.throws(() => own.setLimits(bad as never), (e: unknown) => e instanceof MsgError && e.code === "invalid_argument");
    assert.throws(() => new Session(bad as never), (e: unknown) => e instanceof MsgError && e.code === "invalid_argument");
  }
});

test("pendingActions lists an ask about a call never started (started: false) until its answer", () => {
  const call = { type: "tool_call", id: "ghost", name: "rm", input: "{}" };
  const session = new Session();
  session.apply({ type: "REPLY_START", session_id: "s", reply_id: "r", name: "a" });
  session.apply({ type: "TOOL_CALL_START", reply_id: "r", tool_call_id: "c1", tool_call_name: "ls" });
  session.apply({ type: "REQUIRE_USER_CONFIRM", reply_id: "r", tool_calls: [{ ...call, id: "c1", name: "ls" }, call] } as never);
  const pending = pendingActions(session.getSnapshot());
  assert.deepEqual(
    pending.map((a) => [a.kind, a.replyId, a.toolCall.id, a.toolCall.state, a.index, a.started]),
    [
      ["confirm", "r", "c1", "asking", 0, true],
      ["confirm", "r", "ghost", "asking", -1, false],
    ],
  );
  assert.ok(Object.isFrozen(session.getSnapshot().unstartedCalls[0]!.toolCall));
  // a list of messages knows nothing of them
  assert.equal(pendingActions(session.getSnapshot().messages).length, 1);
  session.apply({ type: "USER_CONFIRM_RESULT", reply_id: "r", confirm_results: [{ confirmed: false, tool_call: call }] } as never);
  assert.deepEqual(session.getSnapshot().unstartedCalls, []);
  assert.deepEqual(pendingActions(session.getSnapshot()).map((a) => a.toolCall.id), ["c1"]);
});

test("a CUSTOM event is a custom diagnostic with its name and value; apply says custom", () => {
  const session = new Session({ dedup: true });
  session.feed(
    'id: 1\ndata: {"id":"c1","type":"CUSTOM","name":"state_updated","value":{"tasks_context":{"tasks":[{"id":"t1"}]},"permission_context":{"mode":"default"}}}\n\n' +
      'id: 2\ndata: {"type":"CUSTOM","name":"session_updated"}\n\n' +
      'id: 3\ndata: {"id":"c1","type":"CUSTOM","name":"state_updated","value":{}}\n\n',
  );
  assert.deepEqual(session.diagnostics, [
    {
      index: 1,
      code: "custom",
      message: 'CUSTOM event "state_updated"',
      event_type: "CUSTOM",
      event_id: "c1",
      reply_id: null,
      sse_id: "1",
      name: "state_updated",
      value: { tasks_context: { tasks: [{ id: "t1" }] }, permission_context: { mode: "default" } },
    },
    { index: 2, code: "custom", message: 'CUSTOM event "session_updated"', event_type: "CUSTOM", event_id: null, reply_id: null, sse_id: "2", name: "session_updated", value: {} },
    // a repeat with dedup: a duplicate, without name or value
    { index: 3, code: "duplicate", message: "event c1 was already applied", event_type: "CUSTOM", event_id: "c1", reply_id: null, sse_id: "3" },
  ]);
  assert.equal(session.apply('{"type":"CUSTOM","name":"team_updated","value":{"n":1}}'), "custom");
  const [last] = session.takeDiagnostics().slice(-1);
  assert.deepEqual([last!.code, last!.name, last!.value], ["custom", "team_updated", { n: 1 }]);
  // no message was opened or changed
  assert.deepEqual(session.messages, []);
  session.free();
});

test("keepEvents: every decoded event with its outcome, parsed from its text as it came; take empties", () => {
  const events = [
    '{"id":"a1","type":"REPLY_START","session_id":"s","reply_id":"r","name":"Friday"}',
    '{"id":"c1","type":"CUSTOM","name":"mcp_progress","value":{"reply_id":"r","tool_call_id":"t","progress":0.5}}',
    '{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"nope","delta":"x"}',
    "{not json}",
    '{"type":"NEWER_EVENT"}',
    '{"id":"a1","type":"REPLY_START","session_id":"s","reply_id":"r","name":"Friday"}',
    '{"id":"a2","type":"TEXT_BLOCK_START","reply_id":"r","block_id":"b"}',
  ];
  const session = new Session({ keepEvents: true, dedup: true, skipInvalid: true });
  session.feed(events.map((e) => `data: ${e}\n\n`).join("") + "event: ping\ndata: 1\n\n");
  const kept = session.takeEvents();
  assert.deepEqual(
    kept.map((k) => [k.index, k.outcome, k.event]),
    [
      [1, "applied", JSON.parse(events[0]!)],
      [2, "custom", JSON.parse(events[1]!)],
      [3, "unknown_block", JSON.parse(events[2]!)],
      [6, "duplicate", JSON.parse(events[5]!)],
      [7, "applied", JSON.parse(events[6]!)],
    ],
  );
  // the event as it came: no id or created_at filled in
  assert.equal("created_at" in kept[0]!.event, false);
  assert.deepEqual(session.takeEvents(), []);
  // apply keeps its text; an event that does not decode is not kept (skipped here)
  assert.equal(session.apply({ type: "CUSTOM", name: "x", value: {} } as never), "custom");
  assert.equal(session.apply('{"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"b","delta":5}'), "invalid_event");
  assert.deepEqual(session.takeEvents(), [{ index: 9, outcome: "custom", event: { type: "CUSTOM", name: "x", value: {} } }]);
  // in a checkpoint the option is; the kept events are not
  const restored = Session.restore(session.checkpoint());
  restored.feed(`data: ${events[1]}\n\n`);
  assert.deepEqual(restored.takeEvents().map((k) => k.outcome), ["duplicate"]);
  restored.free();
  // off by default; a wrong type is refused
  const off = new Session();
  off.feed(`data: ${events[1]}\n\n`);
  assert.deepEqual(off.takeEvents(), []);
  off.free();
  assert.throws(() => new Session({ keepEvents: "yes" } as never), (e: unknown) => e instanceof MsgError && e.code === "invalid_argument");
  session.free();
});
