// The whole AgentScope app through `Chat` (issue 29), against the live agentscope 2.0.11
// service (scripts/agentscope-service: its scripted model makes the real service emit
// each app event; scripts/agentscope-service.md has their wire shapes). No mocks: after
// each scenario the page's messages equal the stored ones, and its app state equals the
// service's (`GET /sessions/`).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { AgentScopeTransport, Chat, SessionsClient, dataBlock, type ChatOptions } from "../../pkg/dist/chat.js";
import type { AgentEvent, MsgJSON } from "../../pkg/dist/index.js";
import { nullRecordingVolatiles, thaw, type Json } from "./helpers.ts";
import { startProxy, startService, stored, until, type Proxy, type Service } from "./service.ts";

let service: Service;
let proxy: Proxy;
let chatModelConfig: Json;
const opened: Chat[] = [];

before(async () => {
  service = await startService({ AGENTSCOPE_SERVICE_DELAY_MS: "2" });
  proxy = await startProxy(service.url);
  chatModelConfig = service.info.chat_model_config;
});

after(async () => {
  for (const chat of opened) chat.close();
  await proxy?.close();
  assert.equal(await service?.stop(), 0, service?.log());
});

const transport = () =>
  new AgentScopeTransport({ baseUrl: proxy.url, userId: service.userId, agentId: service.agentId, session: { chat_model_config: chatModelConfig } });

async function open(options: ChatOptions = {}): Promise<Chat> {
  const chat = await Chat.open(transport(), { statusPollMs: 1000, ...options });
  opened.push(chat);
  return chat;
}

const comparable = (messages: readonly MsgJSON[]) =>
  messages.map((m) => {
    const copy = thaw(m);
    nullRecordingVolatiles(copy);
    return copy;
  });

/** Waits until the chat is at rest and shows what the service stored; asserts they are equal. */
async function assertStored(chat: Chat): Promise<Json[]> {
  const rest = () => chat.status === "ready" || chat.status === "awaiting_input" || chat.status === "error";
  await until(rest, `the reply to end (status ${chat.status})`, 60_000);
  let last: Json[] = [];
  for (const t0 = Date.now(); Date.now() - t0 < 20_000; await new Promise((r) => setTimeout(r, 100))) {
    last = await stored(service, chat.sessionId);
    if (rest() && JSON.stringify(comparable(chat.messages)) === JSON.stringify(comparable(last))) break;
  }
  assert.deepEqual(comparable(chat.messages), comparable(last));
  return last;
}

/** The service's own view of the session (its list entry). */
const listed = async (sessionId: string) => new SessionsClient(transport()).get(sessionId);
const textOf = (m: MsgJSON | Json | undefined) => (m?.content ?? []).filter((b: Json) => b.type === "text").map((b: Json) => b.text).join("");
const customs = (events: AgentEvent[], name: string) => events.filter((e) => e.type === "CUSTOM" && e.name === name) as Extract<AgentEvent, { type: "CUSTOM" }>[];

test("onEvent: every event once (CUSTOM included) across a reconnect; state and session follow state_updated and session_updated, equal to the service's", async () => {
  const events: AgentEvent[] = [];
  const chat = await open({ onEvent: (e) => events.push(e) });
  // the state is loaded when the chat opens: no task yet, the default mode
  assert.deepEqual(chat.getSnapshot().state?.tasks_context.tasks, []);
  assert.equal(chat.getSnapshot().state?.permission_context.mode, "default");
  assert.equal(chat.getSnapshot().session?.session.id, chat.sessionId);
  await chat.send("task");
  await assertStored(chat);
  await until(() => customs(events, "session_updated").length > 0, "session_updated (auto-naming)");
  // a reconnect replays the run from the log: nothing passed twice
  await proxy.dropStreams();
  await until(() => chat.getSnapshot().connection === "open", "the reconnect");
  await new Promise((r) => setTimeout(r, 500));
  const ids = events.map((e) => e.id);
  assert.equal(new Set(ids).size, ids.length, "each event once");
  const types = events.map((e) => e.type);
  assert.equal(types[0], "REPLY_START");
  assert.ok(types.includes("TOOL_CALL_START") && types.includes("REPLY_END"));
  // state_updated after TaskCreate's call and after the reply: the snapshot holds the last
  assert.equal(customs(events, "state_updated").length, 2);
  const service_ = await listed(chat.sessionId);
  await until(() => chat.getSnapshot().session?.session.config.name === service_.session.config.name, "the auto-named title");
  assert.match(service_.session.config.name, /^Chat: task/);
  const { tasks_context, permission_context } = service_.session.state;
  assert.deepEqual(thaw(chat.getSnapshot().state), thaw({ tasks_context, permission_context }));
  assert.deepEqual(chat.getSnapshot().state!.tasks_context.tasks.map((t) => [t.subject, t.state]), [["Write the report", "pending"]]);
  assert.equal(textOf(chat.messages.at(-1)), "Creating a task.The task is on the list.");

  // the permission mode (PATCH: the service streams nothing for it)
  await chat.setPermissionMode("bypass");
  assert.equal(chat.getSnapshot().state?.permission_context.mode, "bypass");
  assert.equal((await listed(chat.sessionId)).session.state.permission_context.mode, "bypass");
  await chat.rename("Quarterly");
  assert.equal(chat.getSnapshot().session?.session.config.name, "Quarterly");
  // with bypass, a call that asked before runs without asking
  await chat.send("confirm");
  await assertStored(chat);
  assert.equal(chat.pendingActions.length, 0);
  assert.equal(textOf(chat.messages.at(-1)), "I need to create a file.The Bash call was approved.");
  chat.close();
});

test("a team worker's confirmation: in pendingActions (worker set, the leader's status untouched), answered by confirm through the leader session", async () => {
  const events: AgentEvent[] = [];
  const chat = await open({ onEvent: (e) => events.push(e) });
  await chat.send("team");
  await until(() => chat.pendingActions.some((a) => a.worker !== undefined), "the worker's confirmation", 60_000);
  const action = chat.pendingActions.find((a) => a.worker !== undefined)!;
  assert.equal(action.kind, "confirm");
  assert.equal(action.worker!.agentName, "worker");
  assert.equal(action.toolCall.name, "Bash");
  assert.equal(JSON.parse(action.toolCall.input).command, "touch worker.txt");
  await until(() => customs(events, "team_updated").length === 2, "team_updated twice");
  // (each team_updated reloads the record, one load after the other: the second brings the member)
  await until(() => ((chat.getSnapshot().session?.team as Json)?.team?.data?.members ?? []).length > 0, "the team's member in the session record");
  const team = chat.getSnapshot().session!.team as Json;
  assert.equal(team.team.data.name, "Scripted team");
  assert.equal(team.team.data.members[0].session_id, action.worker!.sessionId);
  // the worker's call does not hold the leader: it is at rest
  await until(() => chat.status === "ready", `the leader at rest (status ${chat.status})`);
  await chat.confirm(action.toolCall.id, true);
  // answered: the card goes, the worker reports, the leader answers in a new reply
  await until(() => !chat.pendingActions.some((a) => a.worker !== undefined), "the card to go", 30_000);
  await until(() => textOf(chat.messages.at(-1)) === "The worker said: report: the Bash call was approved.", "the leader's reply", 60_000);
  await assertStored(chat);
  assert.equal(customs(events, "subagent_user_confirm_result").length, 1);
  chat.close();
});

test("audio: the data block's deltas reach onEvent as they stream; the reply equals the stored one", async () => {
  const deltas: string[] = [];
  const chat = await open({
    onEvent: (e) => {
      if (e.type === "DATA_BLOCK_DELTA") deltas.push(e.data ?? "");
    },
  });
  await chat.send("audio");
  const all = await assertStored(chat);
  const block = all.at(-1)!.content.find((b: Json) => b.type === "data");
  assert.equal(block.source.media_type, "audio/wav");
  assert.equal(deltas.length, 3);
  assert.equal(deltas.join(""), block.source.data);
  chat.close();
});

test("attachments: send(blocks) and send({content, metadata}) with dataBlock; the model received what was sent", async () => {
  const chat = await open();
  const png = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));
  const image = await dataBlock(new Blob([png], { type: "image/png" }));
  await chat.send([{ type: "text", text: "seeimage" }, image]);
  let all = await assertStored(chat);
  assert.equal(textOf(all.at(-1)), "I received image/png (base64, 96 chars).");
  assert.deepEqual(all[0].content[1].source, image.source);
  const url = await dataBlock("https://example.com/cat.png", { mediaType: "image/png" });
  await chat.send({ content: [{ type: "text", text: "describe" }, url], metadata: { from: "test" } });
  all = await assertStored(chat);
  assert.deepEqual(all.at(-2)!.metadata, { from: "test" });
  assert.equal(textOf(all.at(-1)), "I received an image (url, https://example.com/cat.png).");
  // a user message may hold text and data only: refused before anything is sent
  const from = proxy.requests.length;
  await assert.rejects(chat.send([{ type: "thinking", thinking: "no" } as never]), (e: Error & { code?: string }) => e.code === "role_violation");
  assert.equal(proxy.requests.slice(from).filter((r) => r === "POST /chat/").length, 0);
  chat.close();
});

test("post(): user messages and a USER_CONFIRM_RESULT with send's and confirm's rules", async () => {
  const chat = await open();
  const made = await import("../../pkg/dist/index.js");
  const msg = new made.UserMsg({ name: "user", content: "confirm" });
  await chat.post(msg.toJSON());
  msg.free();
  await until(() => chat.status === "awaiting_input", "the confirmation");
  const call = chat.pendingActions[0]!.toolCall;
  await assert.rejects(
    chat.post({ type: "USER_CONFIRM_RESULT", reply_id: chat.pendingActions[0]!.replyId, confirm_results: [{ confirmed: true, tool_call: { ...call, id: "nope" } }] } as never),
    (e: Error & { code?: string }) => e.code === "invalid_argument",
  );
  await chat.post({ type: "USER_CONFIRM_RESULT", reply_id: chat.pendingActions[0]!.replyId, confirm_results: [{ confirmed: false, tool_call: call }] } as never);
  await until(() => textOf(chat.messages.at(-1)).endsWith("The Bash call was denied."), "the denied reply");
  const all = await assertStored(chat);
  assert.equal(textOf(all.at(-1)).endsWith("The Bash call was denied."), true);
  await assert.rejects(chat.post(null), (e: Error & { code?: string }) => e.code === "invalid_argument");
  chat.close();
});

test("mcp_progress: per tool call in the snapshot while it runs (as onEvent sees it), gone when its result ends", async () => {
  const seen: Json[] = [];
  let chat: Chat | undefined = undefined;
  chat = await open({
    onEvent: (e) => {
      // after the reducer applied the event: the snapshot holds it
      if (e.type === "CUSTOM" && e.name === "mcp_progress") seen.push(thaw(chat!.getSnapshot().progress[(e.value as Json).tool_call_id]));
    },
  });
  await chat.send("progress");
  const all = await assertStored(chat);
  const call = all.at(-1)!.content.find((b: Json) => b.type === "tool_call");
  assert.deepEqual(
    seen.map((v) => [v.progress, v.total, v.message, v.tool_call_id, v.reply_id]),
    [1, 2, 3].map((i) => [i, 3, `step ${i}`, call.id, all.at(-1)!.id]),
  );
  assert.deepEqual(chat.getSnapshot().progress, {});
  chat.close();
});

test("found by a hostile test: stop while a call waits, a second answer, a deleted session, close, a file:// attachment, another agent's session", async () => {
  // stop() while a confirmation waits: agentscope 2.0.11 either keeps the reply parked (the
  // call still waits) or ends it interrupted, by timing: the chat is never "stopping" for good
  const stopped = await open({ onError: () => {} });
  await stopped.send("confirm");
  await until(() => stopped.status === "awaiting_input", "the confirmation");
  await stopped.stop();
  await until(() => stopped.status === "awaiting_input" || stopped.status === "ready", `awaiting_input or ready after the stop (${stopped.status})`);
  await assertStored(stopped);
  stopped.close();
  const chat = await open({ onError: () => {} });
  await chat.send("confirm");
  await until(() => chat.status === "awaiting_input", "the confirmation");
  // two answers at once: the second is refused, one POST /chat/ goes
  const call = chat.pendingActions[0]!.toolCall.id;
  const from = proxy.requests.length;
  const answers = await Promise.allSettled([chat.confirm(call, true), chat.confirm(call, false)]);
  assert.equal(answers[0].status, "fulfilled");
  assert.equal(answers[1].status === "rejected" && (answers[1].reason as { code?: string }).code, "invalid_argument");
  assert.equal(proxy.requests.slice(from).filter((r) => r === "POST /chat/").length, 1);
  // (at rest also while the answer's continuation has not come yet: wait for its text)
  await until(() => textOf(chat.messages.at(-1)).endsWith("The Bash call was approved."), "the approved reply");
  await assertStored(chat);
  assert.equal(proxy.requests.slice(from).filter((r) => r === "POST /chat/").length, 1);
  // a data block whose URL the service would read on its own disk: refused, nothing sent
  const before = proxy.requests.length;
  await assert.rejects(
    chat.send([{ type: "text", text: "seeimage" }, { type: "data", source: { type: "url", url: "file:///etc/hostname", media_type: "text/plain" } } as never]),
    (e: Error & { code?: string }) => e.code === "invalid_argument",
  );
  assert.equal(proxy.requests.slice(before).filter((r) => r === "POST /chat/").length, 0);
  // the session deleted under the chat: lost, with the service's 404
  await new SessionsClient(transport()).remove(chat.sessionId);
  await chat.send("hello?").catch(() => {});
  await until(() => chat.getSnapshot().connection === "lost", `the deleted session noticed (${chat.status} / ${chat.getSnapshot().connection})`);
  assert.equal(chat.status, "error");
  assert.equal(chat.error?.status, 404);
  chat.close();
  assert.equal(chat.getSnapshot().connection, "closed");
  // another agent's session (the history route does not check the agent; the list does)
  const mine = await open();
  const other = new AgentScopeTransport({ baseUrl: proxy.url, userId: service.userId, agentId: "no-such-agent" });
  await assert.rejects(Chat.open(other, { sessionId: mine.sessionId }), (e: Error & { code?: string; status?: number }) => e.code === "http_error" && e.status === 404);
  mine.close();
});
