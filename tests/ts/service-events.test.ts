// The app events of the live agentscope 2.0.11 service (scripts/agentscope-service: the real
// create_app, SQLite, in-memory bus, the scripted model of scripts/agentscope-service.md), seen
// by a raw observer (plain fetch and SSE framing, not through `Chat`): the CUSTOM events
// (`state_updated`, `team_updated`, `subagent_require_user_confirm` /
// `subagent_user_confirm_result`, `mcp_progress`, `session_updated`), a permission-mode change,
// audio data blocks, and the attachments the model received. No mocks of the service.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Json } from "./helpers.ts";
import { api, newSession, readEvents, sendUser, startService, stored, until, watchEvents, type EventWatch, type Service } from "./service.ts";

let service: Service;

before(async () => {
  service = await startService({ AGENTSCOPE_SERVICE_DELAY_MS: "2" });
});

after(async () => {
  const code = await service?.stop();
  assert.equal(code, 0, service?.log());
});

const custom = (name: string) => (e: Json) => e.type === "CUSTOM" && e.name === name;
const replyEnd = (e: Json) => e.type === "REPLY_END";
const texts = (events: Json[], replyId?: string) =>
  events.filter((e) => e.type === "TEXT_BLOCK_DELTA" && (replyId === undefined || e.reply_id === replyId)).map((e) => e.delta).join("");
const index = (events: Json[], ok: (e: Json) => boolean) => events.findIndex(ok);

/** The service's list entry of a session (`GET /sessions/?agent_id=…`). */
/** The session's status once it no longer says `running` (the service's last word after 10 s). */
async function settledStatus(sessionId: string, agentId: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { status } = await api(service, "GET", `/sessions/${sessionId}/status?agent_id=${agentId}`);
    if (status !== "running" || Date.now() > deadline) return status;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function listed(sessionId: string): Promise<Json> {
  const list = await api(service, "GET", `/sessions/?agent_id=${service.agentId}`);
  return list.sessions.find((v: Json) => v.session.id === sessionId);
}

/** Runs `body` with a raw observer of the session's stream open (closed after). */
async function watching<T>(sessionId: string, body: (watch: EventWatch) => Promise<T>): Promise<T> {
  const watch = watchEvents(service, sessionId);
  try {
    await watch.ready;
    return await body(watch);
  } finally {
    watch.close();
  }
}

/** Sends `text` on a new session and reads its events until `done`. */
async function run(text: string | Json[], done: (events: Json[]) => boolean = (events) => events.some(custom("session_updated"))): Promise<{ sessionId: string; events: Json[] }> {
  const sessionId = await newSession(service);
  return watching(sessionId, async (watch) => {
    await sendUser(service, sessionId, text);
    await until(() => done(watch.events), `the events of "${JSON.stringify(text).slice(0, 40)}"`, 30_000);
    return { sessionId, events: [...watch.events] };
  });
}

test("CUSTOM frames carry only id, created_at, metadata, type, name, value; session_updated is {} after the first reply", async () => {
  const { events } = await run("hello events");
  const named = events.find(custom("session_updated"))!;
  assert.deepEqual(Object.keys(named).sort(), ["created_at", "id", "metadata", "name", "type", "value"]);
  assert.deepEqual(named.value, {});
  assert.ok(index(events, custom("session_updated")) > index(events, replyEnd), "after REPLY_END (auto-naming)");
});

test("task → TaskCreate → state_updated with the task in tasks_context (after the call, and after the reply), equal to the stored state", async () => {
  const { sessionId, events } = await run("task");
  const updates = events.filter(custom("state_updated"));
  assert.equal(updates.length, 2, "once from the tool call (on_acting), once from the reply (on_reply)");
  for (const u of updates) {
    assert.deepEqual(Object.keys(u.value).sort(), ["permission_context", "tasks_context"]);
    assert.equal(u.value.tasks_context.tasks.length, 1);
    const [task] = u.value.tasks_context.tasks;
    assert.equal(task.id, "1");
    assert.equal(task.subject, "Write the report");
    assert.equal(task.description, "Write the quarterly report.");
    assert.equal(task.state, "pending");
    assert.equal(u.value.permission_context.mode, "default");
  }
  const call = events.find((e) => e.type === "TOOL_CALL_START" && e.tool_call_name === "TaskCreate");
  assert.ok(call, "the model called TaskCreate");
  const resultStart = index(events, (e) => e.type === "TOOL_RESULT_START" && e.tool_call_id === call.tool_call_id);
  assert.ok(index(events, custom("state_updated")) < resultStart, "the first state_updated comes before the tool's result");
  assert.ok(events.lastIndexOf(updates[1]) > index(events, replyEnd), "the second after REPLY_END");
  assert.equal(texts(events).endsWith("The task is on the list."), true);
  // the service's record holds the same state
  const entry = await listed(sessionId);
  assert.deepEqual(entry.session.state.tasks_context, updates[1].value.tasks_context);
  assert.deepEqual(entry.session.state.permission_context, updates[1].value.permission_context);
});

test("permission mode: PATCH emits no event and changes the record; the next state_updated carries the mode; bypass runs a confirm call without asking", async () => {
  const sessionId = await newSession(service);
  await watching(sessionId, async (watch) => {
    const record = await api(service, "PATCH", `/sessions/${sessionId}?agent_id=${service.agentId}`, { permission_mode: "accept_edits" });
    assert.equal(record.state.permission_context.mode, "accept_edits");
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(watch.events, [], "a PATCH publishes nothing on the stream");
    assert.equal((await listed(sessionId)).session.state.permission_context.mode, "accept_edits");
    const bad = await fetch(`${service.url}/sessions/${sessionId}?agent_id=${service.agentId}`, { method: "PATCH", headers: { "X-User-ID": service.userId, "Content-Type": "application/json" }, body: JSON.stringify({ permission_mode: "bogus" }) });
    assert.equal(bad.status, 422);
    await sendUser(service, sessionId, "task");
    const update = await watch.waitFor(custom("state_updated"), "state_updated");
    assert.equal(update.value.permission_context.mode, "accept_edits");
    await watch.waitFor(custom("session_updated"), "the end of the task reply");
    // bypass: the non-read-only Bash call of `confirm` runs without REQUIRE_USER_CONFIRM
    await api(service, "PATCH", `/sessions/${sessionId}?agent_id=${service.agentId}`, { permission_mode: "bypass" });
    const from = watch.events.length;
    await sendUser(service, sessionId, "confirm");
    await watch.waitFor(replyEnd, "the confirm reply to end", 30_000, from);
    const mine: Json[] = watch.events.slice(from);
    assert.equal(mine.some((e) => e.type === "REQUIRE_USER_CONFIRM"), false);
    assert.equal(texts(mine), "I need to create a file.The Bash call was approved.");
  });
});

test("confirm approved with its suggested rule → state_updated after REPLY_END with the rule in permission_context.allow_rules", async () => {
  const sessionId = await newSession(service);
  await watching(sessionId, async (watch) => {
    await sendUser(service, sessionId, "confirm");
    const asking = await watch.waitFor((e) => e.type === "REQUIRE_USER_CONFIRM", "REQUIRE_USER_CONFIRM");
    const [call] = asking.tool_calls;
    const from = watch.events.length;
    await api(service, "POST", "/chat/", { agent_id: service.agentId, session_id: sessionId, input: { type: "USER_CONFIRM_RESULT", reply_id: asking.reply_id, confirm_results: [{ confirmed: true, tool_call: call, rules: call.suggested_rules }] } });
    const update = await watch.waitFor(custom("state_updated"), "state_updated", 30_000, from);
    const mine = watch.events.slice(from);
    assert.ok(mine.indexOf(update) > index(mine, replyEnd), "after the resumed reply's REPLY_END (on_reply)");
    const rules = update.value.permission_context.allow_rules.Bash;
    assert.equal(rules.length, 1);
    assert.equal(rules[0].tool_name, "Bash");
    assert.equal(rules[0].rule_content, "touch confirm.txt:*");
    assert.equal(rules[0].behavior, "allow");
    assert.equal(texts(mine), "The Bash call was approved.");
  });
});

test("team → team_updated twice, the team in the session list; the member's confirmation on the leader, re-sent on connect, answered on the leader session", async () => {
  const leader = await newSession(service);
  await watching(leader, async (watch) => {
    await sendUser(service, leader, "team");
    const require = await watch.waitFor(custom("subagent_require_user_confirm"), "subagent_require_user_confirm");
    const events = [...watch.events];
    const firstEnd = events.find(replyEnd);
    assert.equal(texts(events, firstEnd.reply_id), "Creating a team.The team is at work.");
    const updated = events.filter(custom("team_updated"));
    assert.equal(updated.length, 2, "TeamCreate and AgentCreate");
    for (const u of updated) assert.deepEqual(u.value, {});
    for (const tool of ["TeamCreate", "AgentCreate"]) {
      const call = events.find((e) => e.type === "TOOL_CALL_START" && e.tool_call_name === tool);
      const end = index(events, (e) => e.type === "TOOL_RESULT_END" && e.tool_call_id === call.tool_call_id);
      assert.ok(custom("team_updated")(events[end + 1]), `team_updated right after ${tool}'s result`);
    }

    // the team is in the leader's list entry
    const entry = await listed(leader);
    assert.equal(entry.team.team.data.name, "Scripted team");
    assert.equal(entry.team.team.session_id, leader);
    assert.equal(entry.session.team_id, entry.team.team.id);
    const [member] = entry.team.team.data.members;
    assert.equal(member.role, "created");

    // the projected request: the member's REQUIRE_USER_CONFIRM, whole
    const v = require.value;
    assert.deepEqual(Object.keys(v).sort(), ["created_at", "event", "event_type", "reply_id", "worker_agent_id", "worker_agent_name", "worker_session_id"]);
    assert.equal(v.worker_session_id, member.session_id);
    assert.equal(v.worker_agent_id, member.agent_id);
    assert.equal(v.worker_agent_name, "worker");
    assert.equal(v.event_type, "require_user_confirm");
    assert.equal(v.event.type, "REQUIRE_USER_CONFIRM");
    assert.equal(v.event.reply_id, v.reply_id);
    const [call] = v.event.tool_calls;
    assert.equal(call.name, "Bash");
    assert.equal(JSON.parse(call.input).command, "touch worker.txt");
    assert.equal(call.state, "asking");
    // the member parks its run a moment after the request is out: its status settles then
    assert.equal(await settledStatus(v.worker_session_id, v.worker_agent_id), "awaiting_permission");
    assert.equal(await settledStatus(leader, service.agentId), "idle");
    // the member's own stream has the request too
    const own = await readEvents(service, v.worker_session_id, (es) => es.some((e) => e.type === "REQUIRE_USER_CONFIRM"), { agentId: v.worker_agent_id });
    assert.equal(own.find((e) => e.type === "REQUIRE_USER_CONFIRM").reply_id, v.reply_id);

    // every connect to the leader's stream re-sends the pending request (a fresh event id)
    // (after the replay log, which still holds the original, with its id)
    const fresh = (e: Json) => custom("subagent_require_user_confirm")(e) && e.id !== require.id;
    const again = await readEvents(service, leader, (es) => es.some(fresh));
    assert.deepEqual(again.filter(custom("subagent_require_user_confirm")).map((e) => e.id === require.id), [true, false]);
    const resent = again.filter(fresh);
    assert.equal(resent.length, 1);
    assert.deepEqual(resent[0].value, v);
    assert.ok(again.indexOf(resent[0]) > again.findIndex((e) => e.id === require.id));

    // answered on the LEADER session with the member's reply id: routed to the member
    const from = watch.events.length;
    const answer = await api(service, "POST", "/chat/", { agent_id: service.agentId, session_id: leader, input: { type: "USER_CONFIRM_RESULT", reply_id: v.reply_id, confirm_results: [{ confirmed: true, tool_call: call }] } });
    assert.deepEqual(answer, { status: "started", session_id: v.worker_session_id });
    const result = await watch.waitFor(custom("subagent_user_confirm_result"), "subagent_user_confirm_result", 30_000, from);
    assert.deepEqual(result.value, { worker_session_id: v.worker_session_id, reply_id: v.reply_id });
    // the member ran the call and reported: its report wakes the leader for a new reply
    const start = await watch.waitFor((e) => e.type === "REPLY_START", "the leader's next reply", 30_000, from);
    assert.notEqual(start.reply_id, firstEnd.reply_id);
    await watch.waitFor((e) => replyEnd(e) && e.reply_id === start.reply_id, "the leader's next reply to end", 30_000, from);
    assert.equal(texts(watch.events, start.reply_id), "The worker said: report: the Bash call was approved.");
    const memberMessages = await stored({ ...service, agentId: v.worker_agent_id }, v.worker_session_id);
    const memberReply = memberMessages.find((m: Json) => m.id === v.reply_id);
    const bash = memberReply.content.find((b: Json) => b.type === "tool_result" && b.name === "Bash");
    assert.equal(bash.state, "success");

    // answered: a new connect no longer re-sends it
    const later = watchEvents(service, leader);
    await later.ready;
    await new Promise((r) => setTimeout(r, 700));
    later.close();
    assert.ok(later.events.length > 0, "the replay came");
    assert.equal(later.events.some(custom("subagent_require_user_confirm")), false);
  });
});

test("audio → DATA_BLOCK_START / 3 DATA_BLOCK_DELTAs / END (audio/wav); the deltas concatenate to the WAV, stored as streamed", async () => {
  const { sessionId, events } = await run("audio");
  const start = events.find((e) => e.type === "DATA_BLOCK_START")!;
  assert.equal(start.media_type, "audio/wav");
  const deltas = events.filter((e) => e.type === "DATA_BLOCK_DELTA" && e.block_id === start.block_id);
  assert.equal(deltas.length, 3);
  for (const d of deltas) assert.equal(d.media_type, "audio/wav");
  const endAt = index(events, (e) => e.type === "DATA_BLOCK_END" && e.block_id === start.block_id);
  assert.ok(endAt > events.lastIndexOf(deltas[2]));
  assert.equal(texts(events), "Here is a short beep.", "the transcript is the text");
  const joined = deltas.map((d) => d.data).join("");
  const bytes = Buffer.concat(deltas.map((d) => Buffer.from(d.data, "base64")));
  assert.equal(joined, bytes.toString("base64"), "no delta is padded: the base64 strings concatenate");
  // a 44-byte streaming WAV header (sizes 0xFFFFFFFF), 24 kHz mono 16-bit, then 292 bytes of PCM
  assert.equal(bytes.length, 44 + 292);
  assert.equal(bytes.subarray(0, 4).toString("latin1"), "RIFF");
  assert.equal(bytes.readUInt32LE(4), 0xffffffff);
  assert.equal(bytes.subarray(8, 16).toString("latin1"), "WAVEfmt ");
  assert.equal(bytes.readUInt16LE(22), 1);
  assert.equal(bytes.readUInt32LE(24), 24000);
  assert.equal(bytes.readUInt16LE(34), 16);
  assert.equal(bytes.subarray(36, 40).toString("latin1"), "data");
  assert.equal(bytes.readUInt32LE(40), 0xffffffff);
  // the stored block: the streamed WAV as it is (2.0.11 stores the placeholder sizes too)
  const messages = await stored(service, sessionId);
  const data = messages.at(-1).content.find((b: Json) => b.type === "data");
  assert.equal(data.source.type, "base64");
  assert.equal(data.source.media_type, "audio/wav");
  assert.equal(data.source.data, joined);
});

test("seeimage → the model echoes each attachment as it received it (base64 and URL); none without", async () => {
  const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
  const { sessionId, events } = await run([
    { type: "text", text: "seeimage please" },
    { type: "data", source: { type: "base64", media_type: "image/png", data: png }, name: "pixel.png" },
    { type: "data", source: { type: "url", url: "https://example.com/cat.png", media_type: "image/png" } },
  ]);
  assert.equal(texts(events), `I received image/png (base64, ${png.length} chars); an image (url, https://example.com/cat.png).`);
  const [user] = await stored(service, sessionId);
  assert.deepEqual(user.content.filter((b: Json) => b.type === "data").map((b: Json) => b.source), [
    { type: "base64", media_type: "image/png", data: png },
    { type: "url", url: "https://example.com/cat.png", media_type: "image/png" },
  ]);
  const plain = await run("describe");
  assert.equal(texts(plain.events), "I received no attachment.");
});

test("progress → three mcp_progress CUSTOMs {progress, total, message, reply_id, tool_call_id} inside the tool's result", async () => {
  const { events } = await run("progress");
  const call = events.find((e) => e.type === "TOOL_CALL_START" && e.tool_call_name === "ScriptedProgress");
  const progress = events.filter(custom("mcp_progress"));
  assert.deepEqual(progress.map((p) => p.value), [1, 2, 3].map((i) => ({ progress: i, total: 3, message: `step ${i}`, reply_id: call.reply_id, tool_call_id: call.tool_call_id })));
  const resultStart = index(events, (e) => e.type === "TOOL_RESULT_START" && e.tool_call_id === call.tool_call_id);
  const resultEnd = index(events, (e) => e.type === "TOOL_RESULT_END" && e.tool_call_id === call.tool_call_id);
  for (const p of progress) {
    const at = events.indexOf(p);
    assert.ok(resultStart < at && at < resultEnd);
  }
  assert.equal(texts(events), "The progress tool finished.");
});
