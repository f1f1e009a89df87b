// `Chat` (agentscope-message/chat) against the live agentscope 2.0.11 service
// (scripts/agentscope-service: the real create_app, SQLite, in-memory bus, the scripted
// model of scripts/agentscope-service.md), in node, through a loopback proxy that can cut
// or stall the event stream. No mocks. After every scenario the messages the client
// rebuilt equal the messages the service stored (GET /sessions/{sid}/messages), up to the
// values the reducer makes up itself (helpers.ts, nullRecordingVolatiles).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { AgentScopeTransport, Chat, type ChatOptions } from "../../pkg/dist/chat.js";
import { MsgError, type MsgJSON } from "../../pkg/dist/index.js";
import { installPackedPackage, nullRecordingVolatiles, root, thaw, type Json } from "./helpers.ts";
import { api, sendUser, startProxy, startService, stored, until, type Proxy, type Service } from "./service.ts";

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
  const code = await service?.stop();
  // SIGTERM stops the service cleanly
  assert.equal(code, 0, service?.log());
});

function transport(base = proxy.url): AgentScopeTransport {
  return new AgentScopeTransport({ baseUrl: base, userId: service.userId, agentId: service.agentId, session: { chat_model_config: chatModelConfig } });
}

async function open(options: ChatOptions = {}, base?: string): Promise<Chat> {
  const chat = await Chat.open(transport(base), { statusPollMs: 1000, ...options });
  opened.push(chat);
  await until(() => chat.status !== "connecting", "the chat to connect");
  return chat;
}

const idle = (chat: Chat) => chat.status === "ready" || chat.status === "awaiting_input" || chat.status === "error";

/** Comparable copies: volatile values the reducer makes up itself nulled. */
function comparable(messages: readonly MsgJSON[]): Json[] {
  return messages.map((m) => {
    const copy = thaw(m);
    nullRecordingVolatiles(copy);
    return copy;
  });
}

/** Waits until the run is over and the chat shows what the service stored, then asserts they are equal. */
async function assertStored(chat: Chat): Promise<Json[]> {
  let last: Json[] = [];
  await until(() => idle(chat), `the reply to end (status ${chat.status})`, 60_000);
  const t0 = Date.now();
  // the client reloads the stored page once the run has saved: wait for it to agree
  for (;;) {
    last = await stored(service, chat.sessionId);
    if (idle(chat) && JSON.stringify(comparable(chat.messages)) === JSON.stringify(comparable(last))) break;
    if (Date.now() - t0 > 20_000) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.deepEqual(comparable(chat.messages), comparable(last));
  return last;
}

/** Waits until the service says the session's run is over and `count` messages are stored. */
async function runOver(sessionId: string | null, count: number): Promise<void> {
  for (;;) {
    const page = await api(service, "GET", `/sessions/${sessionId}/messages?agent_id=${service.agentId}`);
    if (!page.is_running && page.messages.length === count) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const texts = (m: MsgJSON | undefined, type = "text") =>
  (m?.content ?? []).filter((b) => b.type === type).map((b) => (b as { text?: string; thinking?: string }).text ?? (b as { thinking?: string }).thinking);
const lastReply = (chat: Chat) => chat.messages.filter((m) => m.role === "assistant").at(-1);
const words = (n: number, from = 0) => Array.from({ length: n - from }, (_, i) => `w${i + from} `).join("");

test("each scripted reply (text, thinking, a tool, parallel tools, an image) equals the stored message", async () => {
  const chat = await open();
  await chat.send("hello there");
  await assertStored(chat);
  assert.deepEqual(texts(lastReply(chat)), ["You said: hello there"]);
  assert.equal(chat.messages[0]!.role, "user");

  await chat.send("think");
  await assertStored(chat);
  assert.deepEqual(texts(lastReply(chat), "thinking"), ["Let me think about this."]);
  assert.deepEqual(texts(lastReply(chat)), ["I thought about it."]);

  await chat.send("tool");
  await assertStored(chat);
  const tool = lastReply(chat)!;
  assert.deepEqual(tool.content.filter((b) => b.type !== "hint").map((b) => b.type), ["text", "tool_call", "tool_result", "text"]);
  assert.deepEqual(texts(tool).at(-1), "Tool said: tool-ok.");

  await chat.send("parallel");
  await assertStored(chat);
  const both = lastReply(chat)!;
  assert.equal(both.content.filter((b) => b.type === "tool_call").length, 2);
  assert.equal(both.content.filter((b) => b.type === "tool_result").length, 2);

  await chat.send("image");
  await assertStored(chat);
  const result = lastReply(chat)!.content.find((b) => b.type === "tool_result") as Json;
  const image = result.output.find((b: Json) => b.type === "data");
  assert.equal(image.source.media_type, "image/png");
  assert.equal(chat.messages.length, 10);
  chat.close();
  assert.equal(chat.status, "closed");
  await assert.rejects(chat.send("again"), (e: MsgError) => e.code === "closed");
});

test("a confirmation: approve, deny, and always allow (the remembered rule asks no more)", async () => {
  const chat = await open();
  await chat.send("confirm");
  await until(() => chat.status === "awaiting_input", "the confirmation");
  const [ask] = chat.pendingActions;
  assert.equal(ask!.kind, "confirm");
  assert.equal(ask!.toolCall.name, "Bash");
  // the waiting reply is stored already (no REPLY_END: the run parked)
  await assertStored(chat);
  await assert.rejects(chat.send("hi"), (e: MsgError) => e.code === "busy");
  await assert.rejects(chat.confirm("no-such-call", true), (e: MsgError) => e.code === "invalid_argument");
  await chat.confirm(ask!.toolCall.id, true);
  await assertStored(chat);
  assert.equal(texts(lastReply(chat)).at(-1), "The Bash call was approved.");
  // answering twice is refused by the client (the service would park on it)
  await assert.rejects(chat.confirm(ask!.toolCall.id, true), (e: MsgError) => e.code === "invalid_argument");

  await chat.send("confirm");
  await until(() => chat.status === "awaiting_input", "the second confirmation");
  await chat.confirm(chat.pendingActions[0]!.toolCall.id, false);
  await assertStored(chat);
  const denied = lastReply(chat)!;
  assert.equal(texts(denied).at(-1), "The Bash call was denied.");
  assert.equal((denied.content.find((b) => b.type === "tool_result") as Json).state, "denied");

  await chat.send("confirm");
  await until(() => chat.status === "awaiting_input", "the third confirmation");
  const third = chat.pendingActions[0]!.toolCall;
  assert.ok(third.suggested_rules.length > 0);
  await chat.confirm(third.id, true, { rules: third.suggested_rules });
  await assertStored(chat);
  await chat.send("confirm");
  await assertStored(chat);
  assert.equal(texts(lastReply(chat)).at(-1), "The Bash call was approved.");
  assert.equal(lastReply(chat)!.content.find((b) => b.type === "tool_call")!.state, "finished");
  chat.close();
});

test("an external execution (AskUser) answered with submitExternal", async () => {
  const chat = await open();
  await chat.send("ask");
  await until(() => chat.status === "awaiting_input", "the AskUser call");
  const [action] = chat.pendingActions;
  assert.equal(action!.kind, "external");
  assert.equal(action!.toolCall.name, "AskUser");
  await assert.rejects(chat.confirm(action!.toolCall.id, true), (e: MsgError) => e.code === "invalid_argument");
  await chat.submitExternal({
    toolCallId: action!.toolCall.id,
    output: "Blue",
    metadata: { answers: [{ question: "Which color do you prefer?", selected: ["Blue"] }] },
  });
  await assertStored(chat);
  assert.equal(texts(lastReply(chat)).at(-1), "You answered: Blue");
  chat.close();
});

test("a model error mid-stream: status error with run_failed, the message as stored; the next send clears it", async () => {
  const chat = await open();
  await chat.send("fail");
  await until(() => chat.status === "error", "the failed run");
  assert.equal(chat.error?.code, "run_failed");
  await assertStored(chat);
  assert.equal(lastReply(chat)!.finished_reason, "error");
  await chat.send("after");
  assert.equal(chat.error, null);
  await assertStored(chat);
  assert.equal(chat.status, "ready");
  chat.close();
});

test("stop mid-stream: the reply ends interrupted and keeps its partial text, as stored; an idle stop sends nothing", async () => {
  const chat = await open();
  await chat.send("long 3000");
  await until(() => (texts(lastReply(chat))[0]?.length ?? 0) > 200, "some text");
  assert.equal(chat.status, "streaming");
  await chat.stop();
  await assertStored(chat);
  const reply = lastReply(chat)!;
  assert.equal(reply.finished_reason, "interrupted");
  const text = texts(reply)[0]!;
  assert.ok(text.length > 200 && text.length < words(3000).length, `${text.length} characters`);
  assert.ok(words(3000).startsWith(text), "the kept text is the reply's beginning");
  const before = proxy.requests.filter((r) => r.includes("/interrupt")).length;
  await chat.stop();
  assert.equal(proxy.requests.filter((r) => r.includes("/interrupt")).length, before);
  chat.close();
});

test("the event stream cut at a random byte, then reconnected: no text lost or doubled", async () => {
  const chat = await open({ retry: { initialMs: 50 } });
  const streams = () => proxy.requests.filter((r) => r.endsWith("/stream")).length;
  const before = streams();
  await chat.send("long 800");
  await until(() => (texts(lastReply(chat))[0]?.length ?? 0) > 100, "some text");
  // the next connection is cut at a byte chosen at random (inside a frame, most likely)
  const at = 2_000 + Math.floor(Math.random() * 30_000);
  proxy.cutAfter(at);
  // drop the current connection: the proxy kills it by closing every socket it holds
  await proxy.dropStreams();
  await assertStored(chat);
  assert.equal(texts(lastReply(chat))[0], words(800), `cut at byte ${at}`);
  assert.ok(streams() >= before + 2, `${streams() - before} connections`);
  chat.close();
});

test("a stalled stream (no byte for stallMs) is dropped and resumed", async () => {
  const chat = await open({ stallMs: 1_500, retry: { initialMs: 50 } });
  const streams = () => proxy.requests.filter((r) => r.endsWith("/stream")).length;
  await chat.send("slow");
  await until(() => (texts(lastReply(chat))[0]?.length ?? 0) > 5, "some text");
  proxy.stallAfter(0);
  const before = streams();
  await proxy.dropStreams();
  // the stalled connection is noticed and replaced
  await until(() => streams() >= before + 2, "a reconnect after the stall", 20_000);
  await assertStored(chat);
  assert.equal(texts(lastReply(chat))[0], Array.from({ length: 20 }, (_, i) => `s${i} `).join(""));
  chat.close();
});

test("a reconnect after the reply ended and saved: ready at once, not when the watchdog asks", async () => {
  const chat = await open({ statusPollMs: 30_000, retry: { initialMs: 100, maxMs: 300, attempts: 100 }, onError: () => {} });
  await chat.send("long 300");
  await until(() => (texts(lastReply(chat))[0]?.length ?? 0) > words(20).length, "20 words");
  proxy.refuseStreams(true);
  await proxy.dropStreams();
  // out of reach until the run has ended and saved
  await runOver(chat.sessionId, 2);
  proxy.refuseStreams(false);
  // the reload holds the whole reply (its REPLY_END never reached this page)
  await until(() => chat.status === "ready", `ready after the reconnect (status ${chat.status})`, 5_000);
  await assertStored(chat);
  assert.equal(texts(lastReply(chat))[0], words(300));
  chat.close();
});

test("a send during a run is busy (nothing sent); a send right at REPLY_END waits out the service's 409", async () => {
  const chat = await open();
  await chat.send("long 300");
  await until(() => chat.status === "streaming", "streaming");
  const posts = () => proxy.requests.filter((r) => r === "POST /chat/").length;
  const before = posts();
  await assert.rejects(chat.send("too soon"), (e: MsgError) => e.code === "busy");
  assert.equal(posts(), before);
  assert.equal(chat.messages.filter((m) => m.role === "user").length, 1);
  await assertStored(chat);
  // the service may store the reply a moment before its run ends: a chat opened in that
  // moment sees a running session, and its send is busy too. Open the next one after.
  await runOver(chat.sessionId, 2);
  // the next one sent the moment a reply ends (from onFinish: the run still saves, so the
  // service answers 409 and the client retries)
  let resolveSecond!: () => void;
  const second = new Promise<void>((r) => (resolveSecond = r));
  let fired = false;
  const again = await open({
    sessionId: chat.sessionId,
    onFinish: () => {
      if (fired) return;
      fired = true;
      void again.send("right after").then(resolveSecond, (e) => assert.fail(e));
    },
  });
  await again.send("long 200");
  await second;
  await assertStored(again);
  assert.deepEqual(texts(lastReply(again)), ["You said: right after"]);
  assert.ok(proxy.statuses.includes("POST /chat/ 409"), "the service said 409 at least once");
  chat.close();
  again.close();
});

test("service quirks: a stray REPLY_START after an idle interrupt, a stale confirmation, a user message while a confirmation waits", async () => {
  const chat = await open();
  await chat.send("hello");
  await assertStored(chat);
  // another client interrupts the idle session: the service sends REPLY_START of the finished reply and nothing else
  await api(service, "POST", `/sessions/${chat.sessionId}/interrupt?agent_id=${service.agentId}`);
  await new Promise((r) => setTimeout(r, 500));
  await until(() => chat.status === "ready", "ready after the stray REPLY_START", 10_000);
  await assertStored(chat);

  await chat.send("confirm");
  await until(() => chat.status === "awaiting_input", "the confirmation");
  const call = chat.pendingActions[0]!;
  // another client sends a user message meanwhile: REPLY_START + REPLY_END error (setup); the call still waits
  await new Promise((r) => setTimeout(r, 1500));
  await api(service, "POST", "/chat/", { agent_id: service.agentId, session_id: chat.sessionId, input: { name: "user", role: "user", content: [{ type: "text", text: "meanwhile" }] } });
  await until(() => chat.messages.some((m) => m.error?.type === "setup"), "the setup error reply");
  await assertStored(chat);
  assert.equal(chat.status, "awaiting_input");
  await chat.confirm(call.toolCall.id, true);
  await assertStored(chat);
  // the same answer again, from another client (stale): USER_CONFIRM_RESULT, REPLY_START and never REPLY_END
  const stale = { type: "USER_CONFIRM_RESULT", reply_id: call.replyId, confirm_results: [{ confirmed: true, tool_call: call.toolCall }] };
  await api(service, "POST", "/chat/", { agent_id: service.agentId, session_id: chat.sessionId, input: stale });
  await new Promise((r) => setTimeout(r, 500));
  // the client asks the service (statusPollMs) and settles instead of streaming for ever
  await until(() => chat.status === "ready", "ready after the stale confirmation", 15_000);
  await assertStored(chat);
  chat.close();
});

test("a reload while a confirmation waits (the service says is_running false): the card comes from the stored reply", async () => {
  const first = await open();
  await first.send("confirm");
  await until(() => first.status === "awaiting_input", "the confirmation");
  first.close();
  await new Promise((r) => setTimeout(r, 1000));
  const reloaded = await open({ sessionId: first.sessionId });
  await until(() => reloaded.status === "awaiting_input", "the pending card after the reload");
  const [action] = reloaded.pendingActions;
  assert.equal(action!.toolCall.name, "Bash");
  await reloaded.confirm(action!.toolCall.id, true);
  await assertStored(reloaded);
  assert.equal(texts(lastReply(reloaded)).at(-1), "The Bash call was approved.");
  reloaded.close();
});

test("two tabs on one session: the second sees the first's reply stream, and both end equal to the store", async () => {
  const one = await open();
  const two = await open({ sessionId: one.sessionId });
  await one.send("long 400");
  await until(() => (texts(lastReply(two))[0]?.length ?? 0) > 100, "the reply streaming in the second tab");
  assert.equal(two.status, "streaming");
  await assertStored(one);
  await assertStored(two);
  assert.deepEqual(comparable(one.messages), comparable(two.messages));
  one.close();
  two.close();
});

test("listeners: coalesced (far fewer than events), a throwing one reported and harmless", async () => {
  const errors: unknown[] = [];
  const chat = await open({ onError: (e) => errors.push(e), throttleMs: 50 });
  let calls = 0;
  chat.subscribe(() => {
    calls += 1;
  });
  chat.subscribe(() => {
    throw new Error("a listener bug");
  });
  const t0 = Date.now();
  await chat.send("long 1000");
  await until(() => chat.status === "ready", "the end");
  const elapsed = Date.now() - t0;
  const during = calls;
  await assertStored(chat);
  assert.equal(texts(lastReply(chat))[0], words(1000));
  // at most one per 50 ms (throttleMs), however many events and chunks came
  assert.ok(during > 1 && during <= elapsed / 50 + 2, `${during} notifications in ${elapsed} ms for 1,000+ events`);
  assert.ok(errors.some((e) => (e as Error).message === "a listener bug"));
  chat.close();
});

test("bad arguments and a lost service are typed errors", async () => {
  await assert.rejects(Chat.open({} as never), (e: MsgError) => e.code === "invalid_argument");
  assert.throws(() => new AgentScopeTransport({ baseUrl: "not a url", userId: "u", agentId: "a" }), (e: MsgError) => e.code === "invalid_argument");
  await assert.rejects(Chat.open(transport(), { sessionId: "no-such-session" }), (e: MsgError) => e.code === "http_error" && e.status === 404);
  // a port nobody listens on
  const gone = new AgentScopeTransport({ baseUrl: "http://127.0.0.1:9", userId: "u", agentId: "a" });
  await assert.rejects(Chat.open(gone), (e: MsgError) => e.code === "service_unavailable");
  // a chat whose service goes away: reconnects, then says so
  const lone = await startProxy(service.url);
  const chat = await open({ retry: { initialMs: 20, maxMs: 50, attempts: 3 }, onError: () => {} }, lone.url);
  await lone.close();
  await until(() => chat.status === "error", "the lost service", 20_000);
  assert.equal(chat.error?.code, "service_unavailable");
  chat.close();
});

test("a stream lost while a reply parks on a confirmation: after the reconnect, the stored reply waits for its answer", async () => {
  const chat = await open({ retry: { initialMs: 100, maxMs: 300, attempts: 50 }, onError: () => {} });
  await chat.send("confirm");
  await until(() => chat.messages.length === 2, "the reply to start");
  // the stream breaks before REQUIRE_USER_CONFIRM and stays out of reach while the run parks
  proxy.refuseStreams(true);
  await proxy.dropStreams();
  await until(() => chat.getSnapshot().connection === "reconnecting", "the reconnect");
  // the reply's status is kept apart from the connection's
  assert.ok(chat.status === "streaming" || chat.status === "awaiting_input", chat.status);
  await new Promise((r) => setTimeout(r, 1500));
  proxy.refuseStreams(false);
  // the replay after the cursor holds nothing of the parked reply: the stored one is put in
  await until(() => chat.status === "awaiting_input", "the pending card after the reconnect", 20_000);
  await assertStored(chat);
  await chat.confirm(chat.pendingActions[0]!.toolCall.id, true);
  await assertStored(chat);
  assert.equal(texts(lastReply(chat)).at(-1), "The Bash call was approved.");
  chat.close();
});

test("a slow POST /chat/: submitted until the reply starts (the watchdog waits for it), a second send busy", async () => {
  const chat = await open({ statusPollMs: 200 });
  proxy.delayPosts(1500);
  try {
    const sent = chat.send("hello slow post");
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(chat.status, "submitted");
    await assert.rejects(chat.send("again"), (e: MsgError) => e.code === "busy");
    await sent;
  } finally {
    proxy.delayPosts(0);
  }
  await assertStored(chat);
  assert.deepEqual(texts(lastReply(chat)), ["You said: hello slow post"]);
  chat.close();
});

test("send then stop at once: the turn the service never stored goes; an event of a reply it never stored is not shown", async () => {
  const chat = await open();
  await chat.send("slow");
  await chat.stop();
  await until(() => idle(chat), "the stopped run");
  await assertStored(chat);
  // a foreign event on the stream (a reply the store never gets)
  proxy.injectNext('data: {"type": "TEXT_BLOCK_DELTA", "reply_id": "bogus", "block_id": "b", "delta": "INJECTED"}\n\n');
  await proxy.dropStreams();
  await until(() => chat.status === "ready", "the reconnect");
  await chat.send("after the junk");
  await assertStored(chat);
  assert.ok(!JSON.stringify(chat.messages).includes("INJECTED"));
  chat.close();
});

test("a stream that answers 200 with junk and ends: the attempts run out (status error), they do not start afresh", async () => {
  const chat = await open({ retry: { initialMs: 20, maxMs: 40, attempts: 3 }, onError: () => {} });
  proxy.junkStreams(true);
  try {
    await proxy.dropStreams();
    await until(() => chat.status === "error", "the lost service", 20_000);
    assert.equal(chat.error?.code, "service_unavailable");
  } finally {
    proxy.junkStreams(false);
  }
  chat.reconnect();
  await until(() => chat.status === "ready", "the reconnect()");
  chat.close();
});

test("bad options and transport arguments are invalid_argument, before any request", async () => {
  const requests = proxy.requests.length;
  for (const options of [{ stallMs: 0 }, { stallMs: 3e9 }, { throttleMs: Infinity }, { retry: "x" }, { onError: "x" }, { retry: { attempts: -1 } }]) {
    await assert.rejects(Chat.open(transport(), options as never), (e: MsgError) => e.code === "invalid_argument", JSON.stringify(options));
  }
  assert.equal(proxy.requests.length, requests, "no session was made for bad options");
  const base = { userId: "u", agentId: "a" };
  for (const bad of [
    { ...base, baseUrl: "ftp://x" },
    { ...base, baseUrl: "javascript:alert(1)" },
    { ...base, baseUrl: "http://h/?x=1" },
    { ...base, baseUrl: "http://h", userId: "a\nb" },
    { ...base, baseUrl: "http://h", headers: "abc" },
    { ...base, baseUrl: "http://h", headers: { "X-A": "1\r\n2" } },
    { ...base, baseUrl: "http://h", session: [1, 2] },
  ]) {
    assert.throws(() => new AgentScopeTransport(bad as never), (e: MsgError) => e.code === "invalid_argument", JSON.stringify(bad));
  }
  const chat = await open({ stallMs: Infinity });
  await assert.rejects(chat.send("a\ud800b"), (e: MsgError) => e.code === "invalid_argument");
  assert.equal(chat.messages.length, 0);
  chat.close();
});

test("the plain TypeScript example of docs/chat.md (examples/chat.ts) runs on the packed package against the service", () => {
  const example = readFileSync(join(root, "examples/chat.ts"), "utf8");
  assert.ok(readFileSync(join(root, "docs/chat.md"), "utf8").includes(example.trim()), "docs/chat.md shows examples/chat.ts verbatim");
  mkdirSync(join(root, "target"), { recursive: true });
  const scratch = mkdtempSync(join(root, "target", "chat-example-"));
  installPackedPackage(scratch, "chat-example");
  copyFileSync(join(root, "examples/chat.ts"), join(scratch, "chat.ts"));
  const out = execFileSync(process.execPath, ["--import", "tsx", "chat.ts", JSON.stringify(service.info)], { cwd: scratch, encoding: "utf8", timeout: 120_000 });
  assert.match(out, /^approving Bash \{"command": "touch confirm.txt"/m);
  assert.match(out, /^The Bash call was approved\.$/m);
});

// ---------------------------------------------------------------- issue 29: status, stop, repair, never twice

test("a new chat is ready before its stream's headers arrive (a proxy holding them until the first byte): send works, the reply streams", async () => {
  proxy.holdStreamHeaders(true);
  try {
    const chat = await open();
    // the service sends a new session's stream no byte until an event or its 30 s heartbeat
    assert.equal(chat.status, "ready");
    assert.equal(chat.getSnapshot().connection, "connecting");
    await chat.send("hello before the headers");
    await assertStored(chat);
    assert.equal(texts(lastReply(chat))[0], "You said: hello before the headers");
    assert.equal(chat.getSnapshot().connection, "open");
    chat.close();
  } finally {
    proxy.holdStreamHeaders(false);
  }
});

test("stop() right after send(), before the stream's headers came: the interrupt follows the POST, the reply does not run whole", async () => {
  proxy.holdStreamHeaders(true);
  try {
    const chat = await open();
    const from = proxy.requests.length;
    const sending = chat.send("long 3000");
    const stopping = chat.stop();
    assert.equal(chat.status, "stopping");
    await Promise.all([sending, stopping]);
    const mine = proxy.requests.slice(from).filter((r) => r === "POST /chat/" || r.endsWith("/interrupt"));
    assert.deepEqual(mine, ["POST /chat/", `POST /sessions/${chat.sessionId}/interrupt`]);
    const all = await assertStored(chat);
    assert.equal(chat.status, "ready");
    assert.equal(chat.error, null);
    const reply = all.find((m) => m.role === "assistant");
    // dropped before it started, or ended interrupted: never the whole reply
    if (reply !== undefined) assert.equal(reply.finished_reason, "interrupted");
    assert.ok(!JSON.stringify(all).includes("w2999 "));
    chat.close();
  } finally {
    proxy.holdStreamHeaders(false);
  }
});

test("stop() right after send() (status submitted): a turn the service drops ends quietly, no run_lost", async () => {
  const chat = await open({ statusPollMs: 250 });
  const sending = chat.send("slow");
  assert.equal(chat.status, "submitted");
  await chat.stop();
  await sending;
  await assertStored(chat);
  assert.equal(chat.status, "ready");
  // the watchdog asks the service (statusPollMs 250 here: 4 times at least): nothing to report
  await new Promise((r) => setTimeout(r, 1000));
  assert.equal(chat.error, null);
  assert.equal(chat.status, "ready");
  await assertStored(chat);
  chat.close();
});

test("a reload past the service's 1,000-event replay log: what arrived, marked partial; the reload that repairs it is retried after a 503", async () => {
  const first = await open();
  await first.send("long 2500");
  await until(() => (texts(lastReply(first))[0]?.length ?? 0) > words(1400).length, "1,400 words", 60_000);
  first.close();
  const errors: unknown[] = [];
  const reloaded = await open({ sessionId: first.sessionId, onError: (e) => errors.push(e), retry: { initialMs: 200, maxMs: 1000 } });
  await until(() => reloaded.getSnapshot().partial.length > 0, "a partial reply");
  // the replay started mid-reply: what arrived is a later part of the text, never invented
  const shown = texts(reloaded.messages.find((m) => m.id === reloaded.getSnapshot().partial[0]))[0] ?? "";
  assert.ok(!shown.startsWith("w0 ") && shown.length > 0, shown.slice(0, 40));
  assert.ok(words(2500).includes(shown), "a contiguous part of the reply");
  // the reloads after REPLY_END fail twice (each 503 twice: one instance, the transport
  // tries a read once more itself)
  proxy.failNext(/^GET \/sessions\/[^/]+\/messages$/, 503, 4);
  try {
    await assertStored(reloaded);
  } finally {
    proxy.failNext(/$^/, 0, 0);
  }
  assert.deepEqual(reloaded.getSnapshot().partial, []);
  assert.equal(texts(lastReply(reloaded))[0], words(2500));
  assert.equal(errors.filter((e) => (e as MsgError).status === 503).length, 2);
  reloaded.close();
});

test("two text deltas delivered swapped: once the run saved, the page shows the stored reply", async () => {
  proxy.swapNext('"delta": "w3 "');
  const chat = await open();
  await chat.send("long 10");
  await assertStored(chat);
  assert.equal(texts(lastReply(chat))[0], words(10));
  chat.close();
});

test("a POST /chat/ whose connection broke after it went out, reaching the service 1.3 s later: found by the second check, never sent twice", async () => {
  const chat = await open({ onError: () => {} });
  const from = proxy.requests.length;
  const said = proxy.statuses.length;
  // the first check (after 1 s) finds the session idle and the message unstored; the
  // second (1 s later) finds the run the late request started
  proxy.breakNextPostArrivingLate(1300);
  await chat.send("hello late");
  const all = await assertStored(chat);
  assert.deepEqual(all.map((m) => m.role), ["user", "assistant"]);
  assert.equal(texts(all[1])[0], "You said: hello late");
  assert.deepEqual(proxy.statuses.slice(said).filter((s) => s.startsWith("POST /chat/")), ["POST /chat/ connection broken", "POST /chat/ 200 forwarded late"]);
  assert.equal(proxy.requests.slice(from).filter((r) => r === "POST /chat/").length, 1);
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal((await stored(service, chat.sessionId)).length, 2);
  chat.close();
});

// ---------------------------------------------------------------- a run that takes the session late; a page read at rest that comes late

test("a run that takes the session after POST /chat/ came back (the service says idle meanwhile): the turn waits for it, its message is kept", async () => {
  const chat = await open({ statusPollMs: 200 });
  const statusPath = `/sessions/${chat.sessionId}/status?agent_id=${service.agentId}`;
  const asked = () => proxy.requests.filter((r) => r === `GET /sessions/${chat.sessionId}/status`).length;
  // every snapshot from the send until the reply starts: the turn shown, status submitted, no error
  let watching = false;
  const wrong: string[] = [];
  chat.subscribe(() => {
    const s = chat.getSnapshot();
    if (!watching || s.messages.some((m) => m.role === "assistant")) return;
    if (s.status !== "submitted" || s.error !== null || !s.messages.some((m) => m.role === "user")) wrong.push(`${s.status} ${s.error?.code} ${s.messages.length}`);
  });

  // a user message: the POST answered at once, the run started 4 s later
  const from = proxy.statuses.length;
  proxy.startLate(4000);
  const sending = chat.send("hello late run");
  watching = true;
  await sending;
  const t0 = Date.now();
  const before = asked();
  // what the service says meanwhile: idle, the message not stored
  assert.equal((await api(service, "GET", statusPath)).status, "idle");
  assert.deepEqual(await stored(service, chat.sessionId), []);
  // the watchdog asks (every 200 ms of silence) and hears idle: the turn stays
  await new Promise((r) => setTimeout(r, Math.max(0, 2000 - (Date.now() - t0))));
  assert.equal(chat.status, "submitted");
  assert.equal(chat.error, null);
  assert.deepEqual(chat.messages.map((m) => m.role), ["user"]);
  assert.ok(asked() - before >= 2, `asked ${asked() - before} times`);
  assert.ok(!proxy.statuses.slice(from).includes("POST /chat/ 200 forwarded late"), "asked before the run started");
  await until(() => proxy.statuses.slice(from).includes("POST /chat/ 200 forwarded late"), "the POST to reach the service");
  const all = await assertStored(chat);
  assert.deepEqual(all.map((m) => m.role), ["user", "assistant"]);
  assert.deepEqual(texts(lastReply(chat)), ["You said: hello late run"]);
  assert.equal(chat.error, null);
  watching = false;

  // an answer: the service still says the call waits (awaiting_permission) until its run starts
  await chat.send("confirm");
  await until(() => chat.status === "awaiting_input", "the confirmation");
  const call = chat.pendingActions[0]!;
  // (the parked run lets go of the session once it saved)
  for (let t = Date.now(); (await api(service, "GET", statusPath)).status !== "awaiting_permission"; await new Promise((r) => setTimeout(r, 100))) {
    assert.ok(Date.now() - t < 20_000, "the service at rest on the confirmation");
  }
  const mark = proxy.statuses.length;
  proxy.startLate(4000);
  await chat.confirm(call.toolCall.id, true);
  const t1 = Date.now();
  const before2 = asked();
  assert.equal((await api(service, "GET", statusPath)).status, "awaiting_permission");
  await new Promise((r) => setTimeout(r, Math.max(0, 2000 - (Date.now() - t1))));
  assert.equal(chat.status, "submitted");
  assert.equal(chat.error, null);
  assert.ok(asked() - before2 >= 2, `asked ${asked() - before2} times`);
  assert.ok(!proxy.statuses.slice(mark).includes("POST /chat/ 200 forwarded late"), "asked before the run started");
  await until(() => proxy.statuses.slice(mark).includes("POST /chat/ 200 forwarded late"), "the answer to reach the service");
  await until(() => texts(lastReply(chat)).at(-1) === "The Bash call was approved.", "the approved reply");
  await assertStored(chat);
  assert.equal(chat.error, null);
  assert.deepEqual(wrong, []);
  chat.close();
});

test("a POST /chat/ answered whose run never starts: the turn waits lostRunMs after the answer, then goes with run_lost", async () => {
  const chat = await open({ statusPollMs: 200, lostRunMs: 2500 });
  proxy.startLate(Infinity);
  await chat.send("hello never run");
  const t0 = Date.now();
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(chat.status, "submitted");
  assert.equal(chat.error, null);
  await until(() => chat.status !== "submitted", "the turn to go", 20_000);
  assert.ok(Date.now() - t0 >= 2400, `went after ${Date.now() - t0} ms`);
  assert.equal(chat.status, "ready");
  const error = chat.getSnapshot().error;
  assert.equal(error?.code, "run_lost");
  assert.match(error!.message, /a message was not stored/);
  assert.deepEqual(await assertStored(chat), []);
  // the session works on
  await chat.send("hello again");
  await assertStored(chat);
  assert.deepEqual(texts(lastReply(chat)), ["You said: hello again"]);
  assert.equal(chat.error, null);
  chat.close();
});

test("a reply that ends while the reload before it is on its way: the page is reloaded again, the other tab's turn shows as stored", async () => {
  const chat = await open();
  const page = `GET /sessions/${chat.sessionId}/messages`;
  // another tab's turn streams here; the reload after its REPLY_END reads the page at rest, which comes late
  const from = proxy.statuses.length;
  proxy.holdNextRestPage(8000);
  await sendUser(service, chat.sessionId, "hello one");
  await until(() => proxy.statuses.slice(from).includes(`${page} held`), "the page read at rest", 20_000);
  // meanwhile the other tab sends again: its reply streams and ends while that page is on its way
  await sendUser(service, chat.sessionId, "hello two");
  await until(() => texts(lastReply(chat))[0] === "You said: hello two" && chat.status === "ready", "the second reply", 20_000);
  assert.ok(!proxy.statuses.slice(from).includes(`${page} relayed late`), "the second reply ended before the held page came");
  await until(() => proxy.statuses.slice(from).includes(`${page} relayed late`), "the held page", 20_000);
  const all = await assertStored(chat);
  assert.deepEqual(all.map((m) => m.role), ["user", "assistant", "user", "assistant"]);
  chat.close();
});
