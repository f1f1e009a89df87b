// The whole public API of `@agentscope-ai/agentscope`'s message, event, permission and
// state modules through `agentscope-message/compat`: the block factories, the schemas and
// parsers, `createEvent`, the permission decisions and engine, tasks and agent state. The
// expected values are the Python reference's (agentscope 2.0.11: shared/spec/REFERENCE.md
// §1–§3 and the conformance fixtures), written out by hand.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as compat from "../../pkg/dist/entry-compat.js";
import {
  AgentEventSchema,
  AgentState,
  Base64Source,
  ContentBlockSchema,
  DataBlock,
  EventType,
  GenerateReason,
  HintBlock,
  MsgError,
  PermissionEngine,
  ReplyContext,
  TaskContext,
  TextBlock,
  TextBlockSchema,
  ThinkingBlock,
  ToolCallBlock,
  ToolContext,
  ToolResultBlock,
  URLSource,
  UsageSchema,
  createEvent,
  createPermissionContext,
  createPermissionDecision,
  createTask,
  parseAgentEvent,
  parseAgentState,
  parseContentBlock,
  parseMsg,
  parsePermissionContext,
  parsePermissionDecision,
  parsePermissionRule,
  parseTask,
  setIdFactory,
  setTimestampFactory,
  type PermissionTool,
} from "../../pkg/dist/entry-compat.js";
import { conformanceCases, ourCode, type Json } from "./helpers.ts";

const T = "2026-09-01T12:34:56.123456";

/** Runs `f` with ids `id-1`, `id-2`, … and the fixed timestamp T. */
function fixed<R>(f: () => R): R {
  let n = 0;
  setIdFactory(() => `id-${++n}`);
  setTimestampFactory(() => T);
  try {
    return f();
  } finally {
    setIdFactory(null);
    setTimestampFactory(null);
  }
}

function code(c: string) {
  return (e: unknown) => e instanceof MsgError && e.code === c;
}

test("every value name of the SDK's message, event, permission and state modules is exported", () => {
  // the SDK's value exports (0.0.15: message/index.ts, event/index.ts, permission/index.ts, state/index.ts)
  const names = [
    ...["createMsg", "UserMsg", "AssistantMsg", "SystemMsg", "getTextContent", "getContentBlocks", "hasContentBlocks", "appendEvent"],
    ...["TextBlock", "ThinkingBlock", "HintBlock", "ToolCallBlock", "ToolResultBlock", "Base64Source", "URLSource", "DataBlock", "GenerateReason"],
    ...["TextBlockSchema", "ThinkingBlockSchema", "Base64SourceSchema", "URLSourceSchema", "DataSourceSchema", "DataBlockSchema", "HintBlockSchema"],
    ...["ToolCallBlockSchema", "ToolResultBlockSchema", "ContentBlockSchema", "UsageSchema", "MsgSchema", "parseContentBlock", "parseMsg"],
    ...["EventType", "ErrorType", "ReplyFinishedReason", "ReplyEndReason", "createEvent", "AgentEventSchema", "parseAgentEvent"],
    ...["PermissionBehavior", "PermissionMode", "createPermissionDecision", "createPermissionContext", "PermissionEngine"],
    ...["PermissionRuleSchema", "AdditionalWorkingDirectorySchema", "PermissionContextSchema", "PermissionDecisionSchema"],
    ...["parsePermissionRule", "parsePermissionContext", "parsePermissionDecision"],
    ...["TaskSchema", "createTask", "parseTask", "ToolContext", "ReplyContext", "TaskContext", "AgentState", "AgentStateSchema", "parseAgentState"],
    // used by the SDK's tests from its other modules
    ...["setIdFactory", "setTimestampFactory", "FinishedReason"],
  ];
  const exported = compat as Record<string, unknown>;
  assert.deepEqual(names.filter((n) => exported[n] === undefined), []);
  assert.deepEqual({ ...GenerateReason }, { AWAITING_TOOL_RESULT: "AWAITING_TOOL_RESULT", AWAITING_USER_CONFIRMATION: "AWAITING_USER_CONFIRMATION" });
});

test("the block factories fill Python's defaults (REFERENCE.md §1)", () => {
  fixed(() => {
    assert.deepEqual(TextBlock({ text: "hi" }), { type: "text", text: "hi", id: "id-1", created_at: T, finished_at: null });
    // a provider's extra key is kept after the declared ones
    const thinking = ThinkingBlock({ thinking: "hm", signature: "sig" });
    assert.deepEqual(thinking, { type: "thinking", thinking: "hm", id: "id-2", created_at: T, finished_at: null, signature: "sig" });
    assert.deepEqual(Object.keys(thinking), ["type", "thinking", "id", "created_at", "finished_at", "signature"]);
    assert.deepEqual(Base64Source({ data: "AQID", media_type: "image/png" }), { type: "base64", data: "AQID", media_type: "image/png" });
    // AnyUrl normalisation: a bare host gets its "/", scheme and host lower-cased
    assert.deepEqual(URLSource({ url: "HTTPS://Example.COM", media_type: "image/png" }), { type: "url", url: "https://example.com/", media_type: "image/png" });
    assert.throws(() => URLSource({ url: "not a url", media_type: "image/png" }), code("invalid_url"));
    assert.deepEqual(DataBlock({ source: { type: "url", url: "https://a.example/x.png", media_type: "image/png" } }), {
      type: "data",
      id: "id-3",
      source: { type: "url", url: "https://a.example/x.png", media_type: "image/png" },
      name: null,
      created_at: T,
      finished_at: null,
    });
    // a hint is finished when made (default_factory now), unless told otherwise
    assert.deepEqual(HintBlock({ hint: "h" }), { type: "hint", hint: "h", id: "id-4", source: null, created_at: T, finished_at: T });
    assert.equal(HintBlock({ hint: "h", finished_at: null }).finished_at, null);
    assert.deepEqual(ToolCallBlock({ id: "c1", name: "Bash", input: "{}" }), {
      type: "tool_call",
      id: "c1",
      name: "Bash",
      input: "{}",
      state: "pending",
      suggested_rules: [],
      created_at: T,
      finished_at: null,
    });
    // Python requires a tool call's id (the SDK does not check)
    assert.throws(() => ToolCallBlock({ name: "Bash", input: "{}" } as never), code("invalid_content"));
    // nested blocks of an output are filled in too
    assert.deepEqual(ToolResultBlock({ id: "c1", name: "Bash", output: [{ type: "text", text: "ok" }] }), {
      type: "tool_result",
      id: "c1",
      name: "Bash",
      output: [{ type: "text", text: "ok", id: "id-6", created_at: T, finished_at: null }],
      state: "running",
      metadata: {},
      created_at: T,
      finished_at: null,
    });
  });
});

test("parseContentBlock, parseMsg and parseAgentEvent give back the reference's wire JSON", () => {
  let events = 0;
  let blocks = 0;
  for (const [name, c] of conformanceCases()) {
    if (c.expected === undefined || c.expected === null) continue;
    // Python's own dumps: parsing them changes nothing (a message the reducer made
    // role-invalid no longer validates, in Python either)
    if (c.revalidation_error === undefined) assert.deepEqual(parseMsg(c.expected), c.expected, name);
    else assert.throws(() => parseMsg(c.expected), MsgError, name);
    for (const b of c.expected.content as Json[]) {
      assert.deepEqual(parseContentBlock(b), b, name);
      blocks++;
    }
    for (const e of c.events as Json[]) {
      assert.deepEqual(parseAgentEvent(e), e, `${name}: ${e.type}`);
      events++;
    }
  }
  assert.ok(events > 500 && blocks > 100);
});

test("the parsers refuse what the reference refuses, with its error kind", () => {
  let checked = 0;
  for (const [name, c] of conformanceCases()) {
    if (c.kind === "construct") {
      assert.throws(() => parseMsg(c.initial), code(ourCode(c.expected_error)), name);
      const safe = compat.MsgSchema.safeParse(c.initial);
      assert.equal(safe.success, false, name);
      if (c.expected_error_message !== undefined) assert.equal(safe.error?.message, c.expected_error_message, name);
      checked++;
    } else if (c.kind === "event") {
      assert.throws(() => parseAgentEvent(c.events.at(-1)), code("invalid_event"), name);
      assert.equal(AgentEventSchema.safeParse(c.events.at(-1)).success, false, name);
      checked++;
    }
  }
  assert.ok(checked >= 12);
  assert.throws(() => parseContentBlock({ type: "image", url: "x" }), code("invalid_content"));
  assert.throws(() => parseContentBlock("text"), code("invalid_content"));
  // a schema checks its own tag
  assert.throws(() => TextBlockSchema.parse({ type: "thinking", thinking: "x" }), code("invalid_content"));
  assert.equal(ContentBlockSchema.parse({ type: "thinking", thinking: "x", id: "t", created_at: "c" }).type, "thinking");
  assert.deepEqual(UsageSchema.parse({ input_tokens: 3, output_tokens: 4 }), { input_tokens: 3, output_tokens: 4, cache_input_tokens: 0, cache_creation_input_tokens: 0 });
});

test("createEvent fills the reference's event defaults (REFERENCE.md §3)", () => {
  fixed(() => {
    assert.deepEqual(createEvent({ type: EventType.REPLY_START, session_id: "s", reply_id: "r", name: "Friday" }), {
      id: "id-1",
      created_at: T,
      metadata: {},
      type: "REPLY_START",
      session_id: "s",
      reply_id: "r",
      name: "Friday",
      role: "assistant",
    });
    const end = createEvent({ type: EventType.REPLY_END, session_id: "s", reply_id: "r", id: "e", created_at: "c" });
    assert.deepEqual(end, { id: "e", created_at: "c", metadata: {}, type: "REPLY_END", session_id: "s", reply_id: "r", finished_reason: "completed", error: null });
    const usage = createEvent({ type: EventType.MODEL_CALL_END, reply_id: "r", input_tokens: 1, output_tokens: 2, id: "e", created_at: "c" });
    assert.deepEqual(usage, {
      id: "e",
      created_at: "c",
      metadata: {},
      type: "MODEL_CALL_END",
      reply_id: "r",
      input_tokens: 1,
      output_tokens: 2,
      cache_input_tokens: 0,
      cache_creation_input_tokens: 0,
      finished_reason: "completed",
    });
    // TEXT_BLOCK_END has Python's `text=null`
    assert.equal((createEvent({ type: EventType.TEXT_BLOCK_END, reply_id: "r", block_id: "b" }) as Json).text, null);
    const delta = createEvent({ type: EventType.TOOL_RESULT_DATA_DELTA, reply_id: "r", tool_call_id: "c", media_type: "image/png", data: "AQID", id: "e", created_at: "c" }) as Json;
    assert.deepEqual([delta.block_id, delta.data, delta.url], ["id-3", "AQID", null]);
    assert.deepEqual((createEvent({ type: EventType.CUSTOM, name: "x", id: "e", created_at: "c" }) as Json).value, {});
    assert.throws(
      () => createEvent({ type: EventType.TOOL_RESULT_DATA_DELTA, reply_id: "r", tool_call_id: "c", media_type: "image/png" }),
      (e: unknown) => code("invalid_event")(e) && /Exactly one of `data` or `url` must be provided/.test((e as Error).message),
    );
  });
});

test("permission decisions, rules, contexts (agentscope.permission)", () => {
  assert.deepEqual(createPermissionDecision({ behavior: "ask", message: "m" }), {
    behavior: "ask",
    message: "m",
    decision_reason: null,
    updated_input: null,
    suggested_rules: null,
    bypass_immune: false,
  });
  assert.deepEqual(parsePermissionDecision({ behavior: "deny", message: "no", decision_reason: "r" }), {
    behavior: "deny",
    message: "no",
    decision_reason: "r",
    updated_input: null,
    suggested_rules: null,
    bypass_immune: false,
  });
  assert.throws(() => parsePermissionDecision({ behavior: "maybe", message: "m" }), code("invalid_content"));
  const rule = { tool_name: "Bash", rule_content: null, behavior: "allow", source: "session" } as const;
  assert.deepEqual(parsePermissionRule(rule), rule);
  // rule_content is required though it may be null (REFERENCE.md §1)
  assert.throws(() => parsePermissionRule({ tool_name: "Bash", behavior: "allow", source: "s" }), MsgError);
  assert.deepEqual(parsePermissionContext({}), { mode: "default", working_directories: {}, allow_rules: {}, deny_rules: {}, ask_rules: {} });
  const ctx = parsePermissionContext({ mode: "explore", allow_rules: { Bash: [rule] }, "__proto__": { polluted: 1 } });
  assert.deepEqual(ctx.allow_rules, { Bash: [rule] });
  assert.equal(({} as Json).polluted, undefined);
  assert.throws(() => parsePermissionContext({ mode: "sometimes" }), code("invalid_content"));
});

test("PermissionEngine: deny, ask, read-only, the tool, allow, then the mode", async () => {
  const bash = (own: "passthrough" | "ask" | "allow", readOnly = false, immune = false): PermissionTool => ({
    name: "Bash",
    checkPermissions: () => ({ behavior: own, message: "tool", bypass_immune: immune }),
    checkReadOnly: () => readOnly,
    matchRule: (content, input) => String(input.command).startsWith(content),
    generateSuggestions: () => [{ tool_name: "Bash", rule_content: "ls", behavior: "allow", source: "session" }],
  });
  const engine = (mode: compat.PermissionMode) => new PermissionEngine(createPermissionContext(mode));
  const e = engine("default");
  e.addRule({ tool_name: "Bash", rule_content: "rm", behavior: "deny", source: "s" });
  e.addRule({ tool_name: "Bash", rule_content: "git", behavior: "allow", source: "s" });
  e.addRule({ tool_name: "Bash", rule_content: null, behavior: "passthrough", source: "s" });
  assert.deepEqual(Object.keys(e.context.deny_rules), ["Bash"]);
  assert.equal((await e.checkPermission(bash("passthrough"), { command: "rm -rf /" })).behavior, "deny");
  assert.equal((await e.checkPermission(bash("passthrough", true), { command: "cat x" })).behavior, "allow");
  const allowed = await e.checkPermission(bash("passthrough"), { command: "git status" });
  assert.deepEqual([allowed.behavior, allowed.updated_input], ["allow", { command: "git status" }]);
  const asked = await e.checkPermission(bash("passthrough"), { command: "make" });
  assert.deepEqual([asked.behavior, asked.decision_reason, asked.suggested_rules?.length], ["ask", "Mode: default", 1]);
  // a bypass-immune ask of the tool is not turned into allow by a matching allow rule
  assert.equal((await e.checkPermission(bash("ask", false, true), { command: "git push" })).behavior, "ask");
  assert.equal((await engine("explore").checkPermission(bash("passthrough"), { command: "make" })).behavior, "deny");
  assert.equal((await engine("bypass").checkPermission(bash("ask", false, true), { command: "make" })).behavior, "allow");
  const dontAsk = await engine("dont_ask").checkPermission(bash("passthrough"), { command: "make" });
  assert.equal(dontAsk.behavior, "deny");
});

test("tasks and agent state (agentscope state)", async () => {
  fixed(() => {
    assert.deepEqual(createTask({ subject: "s", description: "d", metadata: {} }), {
      subject: "s",
      description: "d",
      metadata: {},
      created_at: T,
      state: "pending",
      id: "id-1",
      owner: null,
      blocks: [],
      blocked_by: [],
    });
    assert.equal(parseTask({ subject: "s", description: "d", metadata: {}, id: "t", created_at: "c", blocked_by: ["u"] }).blocked_by[0], "u");
    assert.throws(() => parseTask({ subject: "s", description: "d", metadata: {}, state: "done" }), code("invalid_content"));
    // an older stored state, with reply_id / cur_iter at the top
    const state = parseAgentState({
      session_id: "sess",
      reply_id: "r1",
      cur_iter: 2,
      context: [{ name: "u", role: "user", id: "m", created_at: "c", content: [{ type: "text", text: "hi", id: "b", created_at: "c" }] }],
      tasks_context: { tasks: [{ subject: "s", description: "d", metadata: {}, id: "t", created_at: "c" }] },
    });
    assert.ok(state instanceof AgentState);
    assert.deepEqual([state.sessionId, state.replyId, state.curIter], ["sess", "r1", 2]);
    assert.ok(state.tasksContext instanceof TaskContext);
    const wire = state.toJSON();
    assert.deepEqual(wire.context[0]!.content[0], { type: "text", text: "hi", id: "b", created_at: "c", finished_at: null });
    assert.deepEqual(wire.reply_context, { reply_id: "r1", cur_iter: 2, structured_schema: null, structured_output: null });
    assert.deepEqual(wire.tool_context, { max_cache_files: 100, max_cache_bytes: 25000, read_file_cache: [], activated_groups: [] });
    assert.equal(wire.tasks_context.tasks[0]!.state, "pending");
    assert.deepEqual(wire.permission_context, createPermissionContext());
    // the reply's tool calls
    state.appendContext({ name: "Friday", blocks: [ToolCallBlock({ id: "c1", name: "Bash", input: "{}", state: "asking" })] });
    state.appendContext({ name: "Friday", blocks: [ToolCallBlock({ id: "c2", name: "Bash", input: "{}", state: "submitted" })] });
    assert.equal(state.context.length, 2);
    assert.deepEqual(state.getAwaitingToolCalls({ name: "Friday" }).map((c) => c.id), ["c1", "c2"]);
    assert.deepEqual(state.getUnfinishedToolCalls({ name: "Friday" }).map((c) => c.id), ["c1", "c2"]);
    assert.ok(new ReplyContext().replyId.startsWith("id-"));
    assert.throws(() => parseAgentState({ context: [{ name: "u", role: "user", content: [{ type: "hint", hint: "h" }] }] }), code("role_violation"));
  });
  const tools = new ToolContext();
  await tools.cacheFile({ filePath: "/a", lines: ["x".repeat(1024)], mtime: 5 });
  assert.deepEqual(await tools.getCache({ filePath: "/a", mtime: 5 }), { lines: ["x".repeat(1024)], updated_at: 5, bytes: 1, file_path: "/a" });
  assert.equal(await tools.getCache({ filePath: "/a", mtime: 6 }), null);
  assert.equal(tools.readFileCache.length, 0);
  assert.throws(() => new ToolContext({ maxCacheFiles: 1 }), code("invalid_argument"));
});
