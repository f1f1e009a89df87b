// `SessionsClient` and `dataBlock` (agentscope-message/chat) against the live agentscope
// 2.0.11 service (scripts/agentscope-service: the real create_app, SQLite, the scripted
// model). No mocks: every assertion about a session is checked against what the service
// itself lists (`GET /sessions/` through the tests' own `api` helper), and an attachment
// against the message the service stored.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { AgentScopeTransport, Chat, MAX_ATTACHMENT_BYTES, PERMISSION_MODES, SessionsClient, dataBlock, type SessionView } from "../../pkg/dist/chat.js";
import { MsgError, UserMsg } from "../../pkg/dist/index.js";
import type { Json } from "./helpers.ts";
import { createSessions } from "../../pkg/dist/svelte.js";
import { api, startService, stored, until, type Service } from "./service.ts";

let service: Service;
let chatModelConfig: Json;
/** Requests made through `counting()` transports, as `METHOD /path`. */
const requests: string[] = [];

before(async () => {
  service = await startService({ AGENTSCOPE_SERVICE_DELAY_MS: "2" });
  chatModelConfig = service.info.chat_model_config;
});

after(async () => {
  const code = await service?.stop();
  assert.equal(code, 0, service?.log());
});

/** A transport whose requests are recorded in `requests`. */
function counting(): AgentScopeTransport {
  const f: typeof fetch = (input, init) => {
    requests.push(`${init?.method ?? "GET"} ${new URL(String(input)).pathname}`);
    return fetch(input, init);
  };
  return new AgentScopeTransport({ baseUrl: service.url, userId: service.userId, agentId: service.agentId, fetch: f });
}

function client(): SessionsClient {
  return new SessionsClient(counting(), { session: { chat_model_config: chatModelConfig } });
}

/** The service's own list (not through the client). */
async function listed(): Promise<Json[]> {
  const body = await api(service, "GET", `/sessions/?agent_id=${service.agentId}`);
  assert.equal(body.total, body.sessions.length);
  return body.sessions;
}

const find = (list: readonly Json[], id: string) => list.find((v) => v.session.id === id);

/** Rejects with a MsgError of this code (and status, if given). */
async function rejects(p: Promise<unknown>, code: string, status?: number): Promise<MsgError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof MsgError, `a MsgError, got ${e}`);
    assert.equal(e.code, code, e.message);
    if (status !== undefined) assert.equal(e.status, status, e.message);
    return e;
  }
  assert.fail(`expected a MsgError ${code}`);
}

async function waitIdle(sessionId: string): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    const { status } = await api(service, "GET", `/sessions/${sessionId}/status?agent_id=${service.agentId}`);
    if (status === "idle") return;
    if (Date.now() - t0 > 60_000) assert.fail(`session ${sessionId} still ${status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test("list and create: a named session with its chat_model_config, as the service lists it", async () => {
  const sessions = client();
  const before = await sessions.list();
  assert.ok(Array.isArray(before));
  const id = await sessions.create({ name: "first session", chatModelConfig });
  assert.match(id, /^[0-9a-f]{32}$/);
  const mine = await sessions.list();
  assert.equal(mine.length, before.length + 1);
  const view: SessionView = find(mine, id)!;
  assert.deepEqual(view, find(await listed(), id), "the client's list is the service's");
  assert.equal(view.status, "idle");
  assert.equal(view.is_running, false);
  assert.equal(view.team, null);
  const record = view.session;
  assert.equal(record.agent_id, service.agentId);
  assert.equal(record.user_id, service.userId);
  assert.deepEqual(record.origin, { type: "user" });
  assert.equal(record.team_id, null);
  assert.equal(record.config.name, "first session");
  assert.deepEqual(record.config.naming, { auto: false }, "a name given is kept (no auto-naming)");
  assert.equal(record.config.chat_model_config?.credential_id, chatModelConfig.credential_id);
  assert.equal(record.config.chat_model_config?.model, chatModelConfig.model);
  assert.match(record.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
  assert.match(record.updated_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
  assert.deepEqual(record.state.tasks_context, { tasks: [] });
  assert.equal(record.state.permission_context.mode, "default");
  for (const key of ["working_directories", "allow_rules", "deny_rules", "ask_rules"] as const) {
    assert.deepEqual(record.state.permission_context[key], {}, key);
  }
  // `get` and `state` come from the same list
  assert.deepEqual(await sessions.get(id), view);
  assert.deepEqual(await sessions.state(id), { tasks_context: record.state.tasks_context, permission_context: record.state.permission_context });
});

test("create without a name: the client's session fields are the body; the service names it by the time, auto-naming on", async () => {
  const sessions = client();
  const id = await sessions.create();
  const record = (await sessions.get(id)).session;
  assert.deepEqual(record.config.chat_model_config?.credential_id, chatModelConfig.credential_id, "chat_model_config from the client's session option");
  assert.match(record.config.name, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  assert.equal(record.config.naming.auto, true);
  // an explicit null overrides the default: a session with no model yet
  const bare = await sessions.create({ chatModelConfig: null, name: "no model" });
  assert.equal((await sessions.get(bare)).session.config.chat_model_config, null);
  // `fields` are more body fields in the service's names
  const other = await sessions.create({ fields: { name: "by fields" } });
  assert.equal((await sessions.get(other)).session.config.name, "by fields");
});

test("rename: PATCH {name}, the record back, the list shows it, auto-naming off", async () => {
  const sessions = client();
  const id = await sessions.create();
  const record = await sessions.rename(id, "renamed ✓ 名前");
  assert.equal(record.id, id);
  assert.equal(record.config.name, "renamed ✓ 名前");
  assert.deepEqual(record.config.naming, { auto: false });
  const view = find(await listed(), id);
  assert.equal(view.session.config.name, "renamed ✓ 名前");
  assert.deepEqual(view.session.config.naming, { auto: false });
  // the rest of the settings stay
  assert.equal(view.session.config.chat_model_config.credential_id, chatModelConfig.credential_id);
});

test("setPermissionMode: every mode 2.0.11 accepts lands in state.permission_context.mode", async () => {
  const sessions = client();
  const id = await sessions.create({ name: "modes" });
  assert.deepEqual(PERMISSION_MODES, ["default", "accept_edits", "explore", "bypass", "dont_ask"]);
  for (const mode of [...PERMISSION_MODES].reverse()) {
    const record = await sessions.setPermissionMode(id, mode);
    assert.equal(record.state.permission_context.mode, mode);
    assert.equal(find(await listed(), id).session.state.permission_context.mode, mode, "GET /sessions/ shows it");
    assert.equal((await sessions.state(id)).permission_context.mode, mode);
  }
  // the name is untouched by a mode change
  assert.equal((await sessions.get(id)).session.config.name, "modes");
});

test("remove: DELETE → 204, then gone; a second remove, a rename, a get of it: http_error 404", async () => {
  const sessions = client();
  const id = await sessions.create({ name: "to delete" });
  assert.ok(find(await listed(), id));
  assert.equal(await sessions.remove(id), undefined);
  assert.equal(find(await listed(), id), undefined, "the service lists it no more");
  const again = await rejects(sessions.remove(id), "http_error", 404);
  assert.match(again.message, /not found/);
  await rejects(sessions.rename(id, "x"), "http_error", 404);
  await rejects(sessions.setPermissionMode(id, "explore"), "http_error", 404);
  await rejects(sessions.get(id), "http_error", 404);
  await rejects(sessions.state(id), "http_error", 404);
});

test("remove through a binding (svelte createSessions) ends the open Chat of that session: stream aborted, lost, status error, http_error 404", async () => {
  const id = await client().create({ name: "open, then deleted" });
  const streams: AbortSignal[] = [];
  const f: typeof fetch = (input, init) => {
    if (new URL(String(input)).pathname.endsWith("/stream") && init?.signal) streams.push(init.signal);
    return fetch(input, init);
  };
  const chat = await Chat.open(new AgentScopeTransport({ baseUrl: service.url, userId: service.userId, agentId: service.agentId, fetch: f }), { sessionId: id });
  try {
    await until(() => chat.getSnapshot().status === "ready", "the chat ready");
    const list = createSessions({ baseUrl: service.url, userId: service.userId, agentId: service.agentId });
    await list.remove(id);
    list.close();
    // at once, not when the service ends the stream (agentscope 2.0.11 keeps it open)
    const s = chat.getSnapshot();
    assert.deepEqual([s.status, s.connection, s.error?.code, s.error?.status], ["error", "lost", "http_error", 404]);
    assert.match(s.error!.message, /deleted/);
    assert.equal(streams.length, 1);
    assert.ok(streams[0]!.aborted, "the event stream is aborted");
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual([chat.getSnapshot().status, chat.getSnapshot().connection], ["error", "lost"], "no reconnect");
  } finally {
    chat.close();
  }
});

test("a PATCH while a run holds the session: busy (409); after the run, it goes through", async () => {
  const sessions = client();
  const id = await sessions.create({ name: "busy" });
  await api(service, "POST", "/chat/", { agent_id: service.agentId, session_id: id, input: { name: "user", role: "user", content: [{ type: "text", text: "slow" }] } });
  // the run takes the session's lock within milliseconds
  let view = await sessions.get(id);
  for (let i = 0; view.status !== "running" && i < 100; i++) view = await sessions.get(id);
  assert.equal(view.status, "running", "the list says the run holds the session");
  assert.equal(view.is_running, true);
  const busy = await rejects(sessions.rename(id, "during"), "busy", 409);
  assert.match(busy.message, /while the session is running/);
  await rejects(sessions.setPermissionMode(id, "explore"), "busy", 409);
  await waitIdle(id);
  // (auto-naming is off for a named session: the name stays "busy" until renamed)
  assert.equal((await sessions.rename(id, "after")).config.name, "after");
  assert.equal((await sessions.get(id)).status, "idle");
});

test("bad arguments: invalid_argument before any request", async () => {
  const sessions = client();
  const before = requests.length;
  const bad: [string, () => Promise<unknown>][] = [
    ["get('')", () => sessions.get("")],
    ["state(1)", () => sessions.state(1 as unknown as string)],
    ["rename(id, '')", () => sessions.rename("a".repeat(32), "")],
    ["rename('', name)", () => sessions.rename("", "x")],
    ["rename(id, null)", () => sessions.rename("a".repeat(32), null as unknown as string)],
    ["setPermissionMode(id, 'nope')", () => sessions.setPermissionMode("a".repeat(32), "nope" as never)],
    ["setPermissionMode(id, 'DEFAULT')", () => sessions.setPermissionMode("a".repeat(32), "DEFAULT" as never)],
    ["remove(undefined)", () => sessions.remove(undefined as unknown as string)],
    ["update(id, [])", () => sessions.update("a".repeat(32), [] as never)],
    ["create({name: ''})", () => sessions.create({ name: "" })],
    ["create({chatModelConfig: 'x'})", () => sessions.create({ chatModelConfig: "x" as never })],
    ["create({fields: []})", () => sessions.create({ fields: [] as never })],
  ];
  for (const [what, call] of bad) await rejects(call(), "invalid_argument").catch((e) => assert.fail(`${what}: ${e}`));
  assert.deepEqual(requests.slice(before), [], "no request was made");
  assert.throws(() => new SessionsClient({} as never), (e: unknown) => e instanceof MsgError && e.code === "invalid_argument");
  assert.throws(() => new SessionsClient(counting(), { session: [] as never }), (e: unknown) => e instanceof MsgError && e.code === "invalid_argument");
  // what the service refuses: http_error with its status
  await rejects(sessions.update("a".repeat(32), { name: "x" }), "http_error", 404);
  const id = await sessions.create({ name: "refused" });
  await rejects(sessions.update(id, { permission_mode: "nope" }), "http_error", 422);
  const unknownAgent = new SessionsClient(new AgentScopeTransport({ baseUrl: service.url, userId: service.userId, agentId: "f".repeat(32) }));
  await rejects(unknownAgent.list(), "http_error", 404);
  // a service that is not there
  const gone = new SessionsClient(new AgentScopeTransport({ baseUrl: "http://127.0.0.1:9", userId: "u", agentId: "a" }));
  await rejects(gone.list(), "service_unavailable");
});

test("a name with a lone surrogate is refused before any request (stored, it made GET /sessions/ answer 500 for good)", async () => {
  const sessions = client();
  const id = await sessions.create({ name: "before" });
  const lone = "caf\ud800";
  const before = requests.length;
  await rejects(sessions.rename(id, lone), "invalid_argument");
  await rejects(sessions.update(id, { name: lone }), "invalid_argument");
  await rejects(sessions.create({ name: lone }), "invalid_argument");
  const transport = counting();
  const chat = await Chat.open(transport, { sessionId: id });
  try {
    const opened = requests.length;
    await rejects(chat.rename(lone), "invalid_argument");
    assert.deepEqual(requests.slice(opened).filter((r) => !r.startsWith("GET ")), [], "no PATCH");
  } finally {
    chat.close();
  }
  assert.ok(!requests.slice(before).some((r) => r.startsWith("PATCH ") || r.startsWith("POST /sessions/")), "no PATCH, no POST /sessions/");
  // the service's own list still answers, with the name as it was
  assert.equal(find(await listed(), id)?.session.config.name, "before");
});

// ------------------------------------------------------------------ attachments

const bytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 7919 + 13) % 256);

test("dataBlock: a Blob, a File, bytes (Uint8Array, ArrayBuffer, a DataView), base64 equal to Buffer's", async () => {
  const data = bytes(100_003); // not a multiple of 3: padding
  const expected = Buffer.from(data).toString("base64");
  const fromBlob = await dataBlock(new Blob([data], { type: "image/png" }));
  assert.deepEqual(fromBlob, { type: "data", source: { type: "base64", media_type: "image/png", data: expected } });
  const fromFile = await dataBlock(new File([data], "cat.png", { type: "image/png" }));
  assert.deepEqual(fromFile, { type: "data", source: { type: "base64", media_type: "image/png", data: expected }, name: "cat.png" });
  const renamed = await dataBlock(new File([data], "cat.png", { type: "image/png" }), { name: "dog.png", mediaType: "image/x-png" });
  assert.equal(renamed.name, "dog.png");
  assert.equal(renamed.source.media_type, "image/x-png");
  const untyped = await dataBlock(new Blob([data]));
  assert.equal(untyped.source.media_type, "application/octet-stream");
  assert.deepEqual(await dataBlock(data, { mediaType: "image/png" }), fromBlob);
  assert.deepEqual(await dataBlock(data.buffer, { mediaType: "image/png" }), fromBlob);
  const padded = new Uint8Array(data.length + 10);
  padded.set(data, 5);
  assert.deepEqual(await dataBlock(new DataView(padded.buffer, 5, data.length), { mediaType: "image/png" }), fromBlob, "a view's own bytes only");
  assert.deepEqual(await dataBlock(padded.subarray(5, 5 + data.length), { mediaType: "image/png", name: "x" }), { ...fromBlob, name: "x" });
  assert.deepEqual((await dataBlock(new Uint8Array(0), { mediaType: "text/plain" })).source, { type: "base64", media_type: "text/plain", data: "" });
  // a media type with parameters
  assert.equal((await dataBlock(data, { mediaType: "text/plain; charset=utf-8" })).source.media_type, "text/plain; charset=utf-8");
});

test("dataBlock: base64 by btoa over chunks where neither Uint8Array.toBase64 nor Buffer exists (older browsers)", async () => {
  const proto = Uint8Array.prototype as Uint8Array & { toBase64?: unknown };
  const own = Object.getOwnPropertyDescriptor(proto, "toBase64");
  const buffer = globalThis.Buffer;
  for (const n of [0, 1, 2, 3, 24_569, 24_570, 24_571, 3 * 24_570 + 2, 1_000_001]) {
    const data = bytes(n);
    const expected = buffer.from(data).toString("base64");
    try {
      if (own) delete proto.toBase64;
      (globalThis as { Buffer?: unknown }).Buffer = undefined;
      const block = await dataBlock(data, { mediaType: "application/octet-stream" });
      assert.equal(block.source.type === "base64" && block.source.data, expected, `${n} bytes`);
    } finally {
      globalThis.Buffer = buffer;
      if (own) Object.defineProperty(proto, "toBase64", own);
    }
  }
});

test("dataBlock: http(s) URLs as URL sources; file:, data:, relative and other URLs refused", async () => {
  assert.deepEqual(await dataBlock("https://example.com/a cat.png", { mediaType: "image/png" }), {
    type: "data",
    source: { type: "url", url: "https://example.com/a%20cat.png", media_type: "image/png" },
  });
  assert.deepEqual(await dataBlock(new URL("http://example.com"), { mediaType: "image/jpeg", name: "x.jpg" }), {
    type: "data",
    source: { type: "url", url: "http://example.com/", media_type: "image/jpeg" },
    name: "x.jpg",
  });
  for (const url of ["file:///etc/passwd", "data:image/png;base64,iVBORw0KGgo=", "ftp://example.com/a.png", "javascript:alert(1)", "/relative.png", "not a url"]) {
    await rejects(dataBlock(url, { mediaType: "image/png" }), "invalid_argument");
  }
  await rejects(dataBlock(new URL("file:///etc/passwd"), { mediaType: "text/plain" }), "invalid_argument");
  await rejects(dataBlock("https://example.com/a.png"), "invalid_argument"); // no media type
});

test("dataBlock: the size cap (default 10 MiB) is limit_exceeded; bad arguments are invalid_argument", async () => {
  assert.equal(MAX_ATTACHMENT_BYTES, 10 * 1024 * 1024);
  const big = new Uint8Array(MAX_ATTACHMENT_BYTES + 1);
  await rejects(dataBlock(big, { mediaType: "image/png" }), "limit_exceeded");
  await rejects(dataBlock(new Blob([big], { type: "image/png" })), "limit_exceeded");
  const atCap = await dataBlock(big.subarray(0, MAX_ATTACHMENT_BYTES), { mediaType: "application/octet-stream" });
  assert.equal(atCap.source.type === "base64" && atCap.source.data.length, 4 * Math.ceil(MAX_ATTACHMENT_BYTES / 3));
  await rejects(dataBlock(bytes(11), { mediaType: "image/png", maxBytes: 10 }), "limit_exceeded");
  assert.ok(await dataBlock(bytes(10), { mediaType: "image/png", maxBytes: 10 }));
  assert.ok(await dataBlock(big, { mediaType: "image/png", maxBytes: Infinity }));
  for (const [what, call] of [
    ["bytes without a media type", () => dataBlock(bytes(3))],
    ["a bad media type", () => dataBlock(bytes(3), { mediaType: "png" })],
    ["a media type with a line break", () => dataBlock(bytes(3), { mediaType: "image/png\r\nX: y" })],
    ["a number", () => dataBlock(42 as never)],
    ["null", () => dataBlock(null as never)],
    ["an object", () => dataBlock({} as never)],
    ["maxBytes -1", () => dataBlock(bytes(3), { mediaType: "image/png", maxBytes: -1 })],
    ["maxBytes 1.5", () => dataBlock(bytes(3), { mediaType: "image/png", maxBytes: 1.5 })],
    ["a name that is not a string", () => dataBlock(bytes(3), { mediaType: "image/png", name: 1 as never })],
  ] as const) {
    await rejects(call(), "invalid_argument").catch((e) => assert.fail(`${what}: ${e}`));
  }
});

test("an attached image: UserMsg takes the block, the service stores the user turn with the same data block", async () => {
  const sessions = client();
  const id = await sessions.create({ name: "attachment" });
  const image = await dataBlock(new File([bytes(300_000)], "photo.png", { type: "image/png" }));
  const linked = await dataBlock("https://example.com/photo.png", { mediaType: "image/png" });
  const msg = new UserMsg({ name: "user", content: [{ type: "text", text: "what is in this picture?" }, image, linked] });
  const input = msg.toJSON();
  msg.free();
  await api(service, "POST", "/chat/", { agent_id: service.agentId, session_id: id, input });
  await waitIdle(id);
  const messages = await stored(service, id);
  const turn = messages.find((m: Json) => m.id === input.id);
  assert.ok(turn, "the user turn is stored with its id");
  assert.equal(turn.content.length, 3);
  const [text, data, url] = turn.content;
  assert.equal(text.text, "what is in this picture?");
  assert.deepEqual(data.source, image.source, "the same base64 source");
  assert.equal(data.name, "photo.png");
  assert.deepEqual(url.source, linked.source, "the same URL source");
  assert.deepEqual(turn, input, "the stored turn is the one sent");
  assert.equal(messages.at(-1).role, "assistant", "the reply came");
});
