// `Chat` against two instances of the live agentscope 2.0.11 service on one Redis
// (`scripts/agentscope-service --redis`: Debian's redis-server on a free loopback port,
// agentscope's own RedisStorage and RedisMessageBus, two uvicorn processes). No mocks:
// instances are killed with SIGKILL, connections broken by a loopback proxy. After every
// scenario the messages the client rebuilt equal the messages the service stored.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { AgentScopeTransport, Chat, type ChatOptions, type ChatTransport } from "../../pkg/dist/chat.js";
import type { MsgError, MsgJSON } from "../../pkg/dist/index.js";
import { nullRecordingVolatiles, thaw, type Json } from "./helpers.ts";
import { api, redisCommand, Routed, startProxy, startService, stored, until, type Proxy, type Service } from "./service.ts";

const ENV = { AGENTSCOPE_SERVICE_DELAY_MS: "5", AGENTSCOPE_SERVICE_SLOW_MS: "300" };
let shared: Service;
const opened: Chat[] = [];
const services: Service[] = [];

/** How many tests take a cluster of their own (they kill or hang an instance): each is
 * started in the background while the tests before it run (starting one takes seconds). */
const OWN_CLUSTERS = 3;
let spare: Promise<Service> | undefined;
let taken = 0;

before(async () => {
  shared = await cluster();
  spare = startCluster();
});

after(async () => {
  for (const chat of opened) chat.close();
  // (a spare nobody took: a test failed before it)
  await spare?.catch(() => {});
  await Promise.all(
    services.map(async (s) => {
      const code = await s.stop();
      // SIGTERM stops Redis and the instances left cleanly, also after one was killed
      assert.equal(code, 0, s.log());
      for (const pid of [...s.pids, s.redis!.pid]) assert.throws(() => process.kill(pid, 0), { code: "ESRCH" }, `process ${pid} is gone`);
    }),
  );
});

function startCluster(): Promise<Service> {
  const started = startService(ENV, ["--redis"]).then((service) => {
    services.push(service);
    return service;
  });
  started.catch(() => {}); // (awaited by the test that takes it)
  return started;
}

/** Redis and two instances on it: the shared ones, or (a test's own) the spare, the next one started meanwhile. */
async function cluster(): Promise<Service> {
  let next: Promise<Service>;
  if (shared === undefined) next = startCluster();
  else {
    next = spare ?? startCluster();
    spare = ++taken < OWN_CLUSTERS ? startCluster() : undefined;
  }
  const service = await next;
  assert.equal(service.urls.length, 2);
  assert.equal(service.pids.length, 2);
  return service;
}

function transport(service: Service, baseUrl: string | string[]): AgentScopeTransport {
  return new AgentScopeTransport({ baseUrl, userId: service.userId, agentId: service.agentId, session: { chat_model_config: service.info.chat_model_config } });
}

async function open(how: ChatTransport, options: ChatOptions = {}): Promise<Chat> {
  const chat = await Chat.open(how, { statusPollMs: 500, retry: { initialMs: 100 }, ...options });
  opened.push(chat);
  await until(() => chat.status !== "connecting", "the chat to connect");
  return chat;
}

const idle = (chat: Chat) => chat.status === "ready" || chat.status === "awaiting_input" || chat.status === "error";

function comparable(messages: readonly MsgJSON[] | Json[]): Json[] {
  return messages.map((m) => {
    const copy = thaw(m);
    nullRecordingVolatiles(copy);
    return copy;
  });
}

/** Waits until the run is over and the chat shows what the service stored (read through `base`), then asserts they are equal. */
async function assertStored(service: Service, chat: Chat, base = service.urls[0]!): Promise<Json[]> {
  await until(() => idle(chat), `the reply to end (status ${chat.status})`, 90_000);
  const t0 = Date.now();
  let last: Json[] = [];
  for (;;) {
    last = await stored(service, chat.sessionId, base);
    if (idle(chat) && JSON.stringify(comparable(chat.messages)) === JSON.stringify(comparable(last))) break;
    if (Date.now() - t0 > 20_000) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.deepEqual(comparable(chat.messages), comparable(last));
  return last;
}

/** The stored messages once the session stayed idle for 2 s (a duplicate run would have started), also equal to the chat's. */
async function settledStore(service: Service, chat: Chat): Promise<Json[]> {
  await new Promise((r) => setTimeout(r, 2000));
  const status = await api(service, "GET", `/sessions/${chat.sessionId}/status?agent_id=${service.agentId}`);
  assert.equal(status.status, "idle");
  return assertStored(service, chat);
}

/** Polls the service's `/status` of a session through `base` until it is `want` (10 s at most). */
async function untilStatus(service: Service, sessionId: string, base: string, want: string): Promise<void> {
  const t0 = Date.now();
  let status = "";
  while (Date.now() - t0 < 10_000) {
    status = (await api(service, "GET", `/sessions/${sessionId}/status?agent_id=${service.agentId}`, undefined, base)).status;
    if (status === want) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(status, want);
}

const lastReply = (chat: Chat) => chat.messages.filter((m) => m.role === "assistant").at(-1);
const textOf = (m: MsgJSON | Json | undefined) =>
  ((m?.content ?? []) as Json[]).filter((b) => b.type === "text").map((b) => b.text as string).join("");
const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i} `).join("");
/** How many words of `long N` the last reply shows. */
const wordsShown = (chat: Chat) => (textOf(lastReply(chat)).match(/w\d+ /g) ?? []).length;

test("the stream on instance A, POST /chat/ on instance B: the reply streams through Redis and equals the stored one", async () => {
  const [a, b] = shared.urls as [string, string];
  const stream = transport(shared, a);
  const chat = await open(new Routed(stream, transport(shared, b)));
  await chat.send("long 300");
  await until(() => chat.status === "streaming", "the reply to stream on A");
  await assertStored(shared, chat, b);
  assert.equal(textOf(lastReply(chat)), words(300));
  // the same messages read through either instance
  assert.deepEqual(comparable(await stored(shared, chat.sessionId, a)), comparable(await stored(shared, chat.sessionId, b)));
  assert.equal(lastReply(chat)!.finished_reason, "completed");
  chat.close();
});

test("a page reload that lands on the other instance mid-reply shows the whole reply, equal to the stored one", async () => {
  const [a, b] = shared.urls as [string, string];
  const first = await open(transport(shared, a));
  await first.send("long 600");
  await until(() => wordsShown(first) >= 100, "100 words on A");
  first.close();
  const again = await open(transport(shared, b), { sessionId: first.sessionId });
  await until(() => wordsShown(again) >= 300, "300 words on B");
  // the replay from B's bus began at the reply's REPLY_START (600 events < the log's 1,000)
  assert.deepEqual(again.getSnapshot().partial, []);
  await assertStored(shared, again, b);
  assert.equal(textOf(lastReply(again)), words(600));
  again.close();
});

test("a confirmation answered and an interrupt sent through the other instance", async () => {
  const [a, b] = shared.urls as [string, string];
  const routed = new Routed(transport(shared, a), transport(shared, b));
  const chat = await open(routed);
  // the run parks on B
  await chat.send("confirm");
  await until(() => chat.status === "awaiting_input", "the confirmation");
  // (the run still holds the session for a moment after REQUIRE_USER_CONFIRM, while it parks)
  await untilStatus(shared, chat.sessionId, a, "awaiting_permission");
  // answered on A: the reply parked on B goes on there
  routed.posts = transport(shared, a);
  await chat.confirm(chat.pendingActions[0]!.toolCall.id, true);
  await assertStored(shared, chat, b);
  assert.equal(textOf(lastReply(chat)), "I need to create a file.The Bash call was approved.");

  // a slow reply runs on B; the interrupt goes through A (the bus carries it to B)
  routed.posts = transport(shared, b);
  await chat.send("slow");
  await until(() => textOf(lastReply(chat)).startsWith("s0 s1 "), "two slow words");
  routed.posts = transport(shared, a);
  await chat.stop();
  const storedNow = await assertStored(shared, chat, b);
  const reply = storedNow.at(-1)!;
  assert.equal(reply.finished_reason, "interrupted");
  const shown = (textOf(reply).match(/s\d+ /g) ?? []).length;
  assert.ok(shown >= 2 && shown < 20, `the interrupted reply kept ${shown} of 20 words`);
  chat.close();
});

test("connection refused: every request goes to the next instance at once", async () => {
  // a port nobody listens on (the proxy's, closed)
  const gone = await startProxy(shared.urls[0]!);
  await gone.close();
  const how = transport(shared, [gone.url, shared.urls[1]!]);
  const chat = await open(how);
  // POST /sessions/ went to the second instance: its connection was refused first
  assert.equal(how.baseUrl, shared.urls[1]);
  how.failover(); // back to the dead one: the send is refused there and sent to B
  assert.equal(how.baseUrl, gone.url);
  await chat.send("hello over there");
  await assertStored(shared, chat);
  assert.equal(textOf(lastReply(chat)), "You said: hello over there");
  assert.equal(chat.messages.length, 2);
  chat.close();
  // (the run that answered may still be saving: at rest first)
  await untilStatus(shared, chat.sessionId, shared.urls[1]!, "idle");
  // requests failing at once on the dead one move on once, not once each (which would land back on it)
  const many = transport(shared, [gone.url, shared.urls[1]!]);
  const statuses = await Promise.all([1, 2, 3, 4].map(() => many.status(chat.sessionId)));
  assert.deepEqual(statuses, ["idle", "idle", "idle", "idle"]);
  assert.equal(many.baseUrl, shared.urls[1]);
});

test("a send whose connection breaks is checked on the other instance, never applied twice", async () => {
  const [a, b] = shared.urls as [string, string];
  const proxy: Proxy = await startProxy(a);
  try {
    const how = transport(shared, [proxy.url, b]);
    const errors: unknown[] = [];
    const chat = await open(how, { onError: (e) => errors.push(e) });

    // the service took the message, its answer was lost: the chat finds the run and sends nothing more
    proxy.breakNextPost("after");
    await chat.send("long 200");
    assert.equal(how.baseUrl, b);
    await assertStored(shared, chat);
    // a second run of the same message would start the moment the first frees the session
    let all = await settledStore(shared, chat);
    assert.deepEqual(all.map((m) => m.role), ["user", "assistant"]);
    assert.equal(textOf(all.at(-1)), words(200));
    assert.ok(errors.some((e) => (e as MsgError).code === "service_unavailable"));

    // the message never reached the service: the check finds it idle and unstored, and sends it again on the next
    how.failover();
    assert.equal(how.baseUrl, proxy.url);
    proxy.breakNextPost("before");
    await chat.send("hello once");
    await assertStored(shared, chat);
    all = await settledStore(shared, chat);
    assert.deepEqual(all.map((m) => m.role), ["user", "assistant", "user", "assistant"]);
    assert.deepEqual(
      all.filter((m) => m.role === "user").map((m) => textOf(m)),
      ["long 200", "hello once"],
    );
    assert.equal(textOf(all.at(-1)), "You said: hello once");
    // the proxy saw each POST /chat/ once
    assert.equal(proxy.requests.filter((r) => r === "POST /chat/").length, 2);
    chat.close();
  } finally {
    await proxy.close();
  }
});

test("instance A, serving the stream but not the run, is killed mid-reply: the client fails over to B, nothing lost or doubled", async () => {
  const service = await cluster();
  const [a, b] = service.urls as [string, string];
  const reads = transport(service, [a, b]);
  const chat = await open(new Routed(reads, transport(service, b)), { stallMs: 5000 });
  await chat.send("long 800");
  await until(() => wordsShown(chat) >= 150, "150 words through A");
  process.kill(service.pids[0]!, "SIGKILL");
  await until(() => reads.baseUrl === b, "the failover to B");
  await assertStored(service, chat, b);
  assert.equal(textOf(lastReply(chat)), words(800));
  assert.equal(lastReply(chat)!.finished_reason, "completed");
  assert.equal(chat.error, null);
  chat.close();
});

test("instance A, serving the stream, hangs (SIGSTOP) mid-reply: the stalled stream moves to B, nothing lost or doubled", async () => {
  const service = await cluster();
  const [a, b] = service.urls as [string, string];
  const reads = transport(service, [a, b]);
  const chat = await open(new Routed(reads, transport(service, b)), { stallMs: 1500 });
  await chat.send("long 800");
  await until(() => wordsShown(chat) >= 150, "150 words through A");
  process.kill(service.pids[0]!, "SIGSTOP");
  try {
    // the connection to A stays open and silent: only the stall timer can tell
    await until(() => reads.baseUrl === b, "the failover to B", 15_000);
    await assertStored(service, chat, b);
    assert.equal(textOf(lastReply(chat)), words(800));
    chat.close();
    // a request to the hung instance is given up after timeoutMs and goes to the next
    const hung = new AgentScopeTransport({ baseUrl: [a, b], userId: service.userId, agentId: service.agentId, timeoutMs: 1000 });
    assert.equal(await hung.status(chat.sessionId), "idle");
    assert.equal(hung.baseUrl, b);
    const alone = new AgentScopeTransport({ baseUrl: a, userId: service.userId, agentId: service.agentId, timeoutMs: 500 });
    await assert.rejects(alone.status(chat.sessionId), (e: MsgError) => e.code === "service_unavailable" && /no answer in 500 ms/.test(e.message));
  } finally {
    process.kill(service.pids[0]!, "SIGCONT");
  }
});

test("the instance running the reply is killed: the client shows it interrupted, says why, and the next message runs once the lock's lease ends", async () => {
  const service = await cluster();
  const [a, b] = service.urls as [string, string];
  // the stream on A; inputs to B, then (B refusing connections) to A
  const chat = await open(new Routed(transport(service, a), transport(service, [b, a])), { lostRunMs: 3000 });
  await chat.send("long 3000");
  await until(() => wordsShown(chat) >= 100, "100 words from B");
  process.kill(service.pids[1]!, "SIGKILL");
  await until(() => chat.status === "error", `the lost run to show (status ${chat.status})`, 30_000);
  const error = chat.error!;
  assert.equal(error.code, "run_lost");
  assert.match(error.message, /no event for \d+ s while the service still says it runs/);
  assert.match(error.message, /at most 10 minutes/);
  const lost = lastReply(chat)!;
  assert.equal(lost.finished_reason, "interrupted");
  const shown = wordsShown(chat);
  assert.ok(shown >= 100 && shown < 3000, `${shown} words`);
  assert.equal(textOf(lost), words(shown));
  // what the service says: the session is locked by the dead run, the partial reply not stored
  const statusPath = `/sessions/${chat.sessionId}/status?agent_id=${service.agentId}`;
  assert.equal((await api(service, "GET", statusPath, undefined, a)).status, "running");
  assert.ok(!(await stored(service, chat.sessionId, a)).some((m) => m.id === lost.id));
  const lockKey = `agentscope:session:lock:${chat.sessionId}`;
  const ttl = Number((await redisCommand(service.redis!.port, "TTL", lockKey)).slice(1));
  assert.ok(ttl > 0 && ttl <= 600, `the lock's lease: ${ttl} s`);

  // a message now: B refuses the connection, A takes it; its run waits for the lock
  await chat.send("hello after the loss");
  assert.equal(chat.status, "submitted");
  assert.equal(chat.error, null);
  // it waits (status submitted), and after lostRunMs the chat says why
  await until(() => chat.error?.code === "run_lost", "the wait explained", 20_000);
  assert.match(chat.error!.message, /the message waits: the session is held by a run with no event for \d+ s/);
  assert.match(chat.error!.message, /this message runs then/);
  assert.equal(chat.status, "submitted");
  // the lease ends (Redis would after at most 600 s; the test ends it now): the message runs on A
  assert.equal(await redisCommand(service.redis!.port, "DEL", lockKey), ":1");
  await assertStored(service, chat, a);
  assert.equal(textOf(lastReply(chat)), "You said: hello after the loss");
  // the lost reply is gone with the store's say; the chat shows what the service keeps
  assert.ok(!chat.messages.some((m) => m.id === lost.id));
  assert.equal(chat.error, null);
  chat.close();
});

test("a reconnect past the replay log on Redis (trimmed to about 1,000 events): the reply ends equal to the stored one", async () => {
  const [a, b] = shared.urls as [string, string];
  const proxy = await startProxy(a);
  try {
    const chat = await open(new Routed(transport(shared, [proxy.url, b]), transport(shared, b)));
    await chat.send("long 1800");
    await until(() => wordsShown(chat) >= 1500, "1,500 words", 60_000);
    const id = lastReply(chat)!.id;
    await proxy.dropStreams();
    // the replay began mid-reply (and on Redis skips the entries past its first 1,000):
    // the reply is marked partial, and the stored one replaces it when the run has saved
    await until(() => chat.getSnapshot().partial.includes(id), "the reply marked partial", 20_000);
    await assertStored(shared, chat, b);
    // (the replay may have missed nothing: then the chat equals the store before the reload that clears the mark)
    await until(() => chat.getSnapshot().partial.length === 0, "the stored reply in place of the partial one", 20_000);
    assert.deepEqual(comparable(chat.messages), comparable(await stored(shared, chat.sessionId, b)));
    assert.equal(textOf(lastReply(chat)), words(1800));
    chat.close();
  } finally {
    await proxy.close();
  }
});
