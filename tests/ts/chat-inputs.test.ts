// Inputs agentscope 2.0.11 chokes on, refused before any request, and service answers of
// the wrong shape, refused as a MsgError (issue 36, item 5). Unit-level: the transport gets
// a `fetch` that records every request (to prove that none left) and answers with fixed
// bodies; what the service does with such an input is shown live in sessions.test.ts.
import assert from "node:assert/strict";
import { test } from "node:test";
import { AgentScopeTransport, Chat, MsgError, SessionsClient, type ChatTransport, type HistoryPage } from "../../pkg/dist/chat.js";
import { sessionRecord } from "./helpers.ts";

const LONE = "caf\ud800"; // a high surrogate without its low half
const SID = "s1";
const T = "2026-01-01T00:00:00.000001";

type Call = { method: string; path: string; body?: string };

/** A session view as `GET /sessions/` lists it. */
function view(id = SID): unknown {
  return {
    session: sessionRecord(id, "n", { auto: true }),
    status: "awaiting_external_result",
    is_running: false,
    team: null,
  };
}

/** A stored reply parked on two tool calls: `ask` waits for an external result, `tool` for a confirmation. */
const parked = {
  name: "Friday",
  role: "assistant",
  id: "reply-1",
  content: [
    { type: "tool_call", id: "ask", name: "AskUser", input: "{}", state: "submitted", suggested_rules: [], created_at: T, finished_at: T },
    { type: "tool_call", id: "tool", name: "Bash", input: "{}", state: "asking", suggested_rules: [], created_at: T, finished_at: T },
  ],
  metadata: {},
  created_at: T,
  usage: null,
  finished_at: null,
};

/**
 * A fetch that records every request and answers from `answers` (by `METHOD path`, path
 * without the query), else as a parked session of the fake service: its list, its history
 * (the parked reply), a stream that stays open, its status.
 */
function recordingFetch(answers: Record<string, () => Response> = {}): { fetch: typeof fetch; calls: Call[] } {
  const calls: Call[] = [];
  const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });
  const f = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input));
    const method = init?.method ?? "GET";
    const call: Call = { method, path: url.pathname };
    if (typeof init?.body === "string") call.body = init.body;
    calls.push(call);
    const key = `${method} ${url.pathname}`;
    if (answers[key] !== undefined) return answers[key]();
    switch (key) {
      case "GET /sessions/":
        return json({ sessions: [view()], total: 1 });
      case `GET /sessions/${SID}/messages`:
        return json({ messages: [parked], event_cursor: null, is_running: false, has_more: false });
      case `GET /sessions/${SID}/status`:
        return json({ status: "awaiting_external_result" });
      case `GET /sessions/${SID}/stream`: {
        const signal = init?.signal;
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            signal?.addEventListener("abort", () => controller.error(signal.reason), { once: true });
          },
        });
        return new Response(body, { headers: { "content-type": "text/event-stream" } });
      }
      default:
        return json({ detail: "not in this fake" }, 500);
    }
  };
  return { fetch: f as typeof fetch, calls };
}

const transportOf = (f: typeof fetch) => new AgentScopeTransport({ baseUrl: "http://service.test", userId: "u", agentId: "a", fetch: f });

/** Asserts that `run` rejects with a MsgError of `code`. */
async function refused(run: () => Promise<unknown>, code: string | readonly string[], what: string): Promise<MsgError> {
  try {
    await run();
  } catch (e) {
    assert.ok(e instanceof MsgError, `${what}: not a MsgError but ${String(e)}`);
    if (typeof code === "string") assert.equal(e.code, code, `${what}: ${e.message}`);
    else assert.ok(code.includes(e.code), `${what}: ${e.code} ${e.message}`);
    return e;
  }
  assert.fail(`${what}: not refused`);
}

/** A chat open on the fake parked session, and the requests it made. */
async function parkedChat(): Promise<{ chat: Chat; calls: Call[] }> {
  const { fetch: f, calls } = recordingFetch();
  const chat = await Chat.open(transportOf(f), { sessionId: SID });
  assert.deepEqual(chat.pendingActions.map((a) => a.toolCall.id), ["ask", "tool"]);
  return { chat, calls };
}

const writes = (calls: readonly Call[]) => calls.filter((c) => c.method !== "GET");

// 1. lone surrogates

test("a lone surrogate in Chat.rename is refused invalid_argument, no PATCH sent", async () => {
  const { chat, calls } = await parkedChat();
  try {
    await refused(() => chat.rename(LONE), "invalid_argument", "rename");
    assert.deepEqual(writes(calls), []);
  } finally {
    chat.close();
  }
});

test("a lone surrogate in SessionsClient update / rename / create is refused invalid_argument, no request sent", async () => {
  const { fetch: f, calls } = recordingFetch();
  const sessions = new SessionsClient(transportOf(f));
  await refused(() => sessions.rename(SID, LONE), "invalid_argument", "rename");
  await refused(() => sessions.update(SID, { name: "ok", knowledge_config: { [LONE]: 1 } }), "invalid_argument", "update (a key)");
  await refused(() => sessions.update(SID, { tts_model_config: { voice: ["x", LONE.slice(3)] } }), "invalid_argument", "update (nested)");
  await refused(() => sessions.create({ name: LONE }), "invalid_argument", "create name");
  await refused(() => sessions.create({ fields: { workspace_id: "\udc00" } }), "invalid_argument", "create fields");
  await refused(() => new SessionsClient(transportOf(f), { session: { name: LONE } }).create(), "invalid_argument", "create: the client's session");
  await refused(() => transportOf(f).request("POST", "/sessions/", { body: { name: LONE } }), "invalid_argument", "the transport's request");
  await refused(() => new AgentScopeTransport({ baseUrl: "http://service.test", userId: "u", agentId: "a", fetch: f, session: { name: LONE } }).createSession(), "invalid_argument", "createSession");
  assert.equal(calls.length, 0, JSON.stringify(calls));
  // a whole surrogate pair and an escaped backslash before "ud800" are text: sent
  await sessions.create({ name: "🌍 \\ud800" }).catch(() => {});
  assert.equal(calls.length, 1);
  assert.equal(JSON.parse(calls[0]!.body!).name, "🌍 \\ud800");
});

test("a lone surrogate anywhere in submitExternal's results (output text, blocks, metadata) is refused invalid_argument, no POST /chat/ sent", async () => {
  const { chat, calls } = await parkedChat();
  try {
    await refused(() => chat.submitExternal({ toolCallId: "ask", output: LONE }), "invalid_argument", "output text");
    await refused(() => chat.submitExternal({ toolCallId: "ask", output: [{ type: "text", text: LONE }] as never }), "invalid_argument", "output block");
    await refused(() => chat.submitExternal({ toolCallId: "ask", output: "ok", metadata: { answers: [{ question: "q", selected: [LONE] }] } }), "invalid_argument", "metadata");
    await refused(() => chat.submitExternal({ toolCallId: "ask", output: "ok", metadata: { [LONE]: true } }), "invalid_argument", "metadata key");
    await refused(() => chat.confirm("tool", true, { rules: [{ tool_name: "Bash", rule_content: LONE }] }), "invalid_argument", "confirm rules");
    await refused(
      () => chat.post({ type: "EXTERNAL_EXECUTION_RESULT", reply_id: "reply-1", execution_results: [{ type: "tool_result", id: "ask", name: "AskUser", output: LONE, state: "success" }] } as never),
      "invalid_argument",
      "post",
    );
    assert.deepEqual(writes(calls), []);
    // still waiting, and answerable (nothing was marked answered)
    assert.deepEqual(chat.pendingActions.map((a) => a.toolCall.id), ["ask", "tool"]);
  } finally {
    chat.close();
  }
});

// 2. data block URLs that are not http(s)

test("a data block with a file: / data: / other URL is refused invalid_argument in submitExternal, confirm, post and send, no POST /chat/ sent", async () => {
  const { chat, calls } = await parkedChat();
  const block = (url: string) => ({ type: "data", source: { type: "url", url, media_type: "text/plain" } });
  try {
    for (const url of ["file:///etc/hostname", " file:///etc/hostname", "FILE:///etc/hostname", "data:text/plain,hi", "ftp://host/x", "/etc/hostname", "http//x", "javascript:alert(1)"]) {
      await refused(() => chat.submitExternal({ toolCallId: "ask", output: [block(url)] as never }), "invalid_argument", `submitExternal ${url}`);
      await refused(
        () => chat.post({ type: "EXTERNAL_EXECUTION_RESULT", reply_id: "reply-1", execution_results: [{ type: "tool_result", id: "ask", name: "AskUser", output: [block(url)], state: "success" }] } as never),
        "invalid_argument",
        `post ${url}`,
      );
      await refused(() => chat.confirm("tool", true, { rules: [{ content: [block(url)] }] }), "invalid_argument", `confirm ${url}`);
      // a user turn: refused for the URL before the status (busy: a call waits) is asked
      // (a URL the reference itself refuses, such as a relative one, by the model: invalid_url)
      await refused(() => chat.send([{ type: "text", text: "look" }, block(url)] as never), ["invalid_argument", "invalid_url"], `send ${url}`);
    }
    assert.deepEqual(writes(calls), []);
    assert.deepEqual(chat.pendingActions.map((a) => a.toolCall.id), ["ask", "tool"]);
  } finally {
    chat.close();
  }
  // and a transport used alone: its POST /chat/ never carries one
  const { fetch: f, calls: direct } = recordingFetch();
  const input = { type: "EXTERNAL_EXECUTION_RESULT", reply_id: "reply-1", execution_results: [{ type: "tool_result", id: "ask", name: "AskUser", output: [block("file:///etc/hostname")], state: "success" }] };
  await refused(() => transportOf(f).chat(SID, input as never), "invalid_argument", "transport.chat");
  assert.deepEqual(direct, []);
});

// 3. session ids that are not one path segment

test("session ids '.', '..' and '' are refused invalid_argument by SessionsClient, the transport and Chat.open, no request sent", async () => {
  const { fetch: f, calls } = recordingFetch();
  const transport = transportOf(f);
  const sessions = new SessionsClient(transport);
  for (const id of [".", "..", "", "\ud800"]) {
    const what = JSON.stringify(id);
    await refused(() => sessions.remove(id), "invalid_argument", `remove(${what})`);
    await refused(() => sessions.rename(id, "n"), "invalid_argument", `rename(${what})`);
    await refused(() => sessions.update(id, { name: "n" }), "invalid_argument", `update(${what})`);
    await refused(() => sessions.setPermissionMode(id, "default"), "invalid_argument", `setPermissionMode(${what})`);
    await refused(() => sessions.get(id), "invalid_argument", `get(${what})`);
    await refused(() => sessions.state(id), "invalid_argument", `state(${what})`);
    await refused(() => transport.history(id), "invalid_argument", `history(${what})`);
    await refused(() => transport.stream(id, { after: null, signal: new AbortController().signal }), "invalid_argument", `stream(${what})`);
    await refused(() => transport.chat(id, null), "invalid_argument", `chat(${what})`);
    await refused(() => transport.interrupt(id), "invalid_argument", `interrupt(${what})`);
    await refused(() => transport.status(id), "invalid_argument", `status(${what})`);
    await refused(() => Chat.open(transport, { sessionId: id }), "invalid_argument", `Chat.open(${what})`);
  }
  assert.equal(calls.length, 0, JSON.stringify(calls));
  // a dot inside an id is fine ("..." and "a.b" are plain segments)
  await sessions.remove("...").catch(() => {});
  assert.deepEqual(calls.map((c) => `${c.method} ${c.path}`), ["DELETE /sessions/..."]);
});

test("a custom ChatTransport never sees a '..' session id from Chat.open", async () => {
  const seen: string[] = [];
  const transport = new Proxy({} as ChatTransport, {
    get: (_t, name) => (name === "then" ? undefined : (...args: unknown[]) => {
      seen.push(String(name));
      return Promise.reject(new MsgError("service_unavailable", `not here (${String(args[0])})`));
    }),
  });
  await refused(() => Chat.open(transport, { sessionId: ".." }), "invalid_argument", "Chat.open");
  assert.deepEqual(seen, []);
});

test("Chat.open refuses the session id a custom transport's createSession returns when it is not one path segment: invalid_argument, no request of it", async () => {
  for (const id of ["..", ".", "", 42, null, LONE]) {
    const seen: string[] = [];
    const transport = new Proxy({} as ChatTransport, {
      get: (_t, name) =>
        name === "then"
          ? undefined
          : (...args: unknown[]) => {
              seen.push(`${String(name)}(${JSON.stringify(args[0] ?? null)})`);
              return name === "createSession" ? Promise.resolve(id) : Promise.reject(new MsgError("service_unavailable", "not here"));
            },
    });
    const e = await refused(() => Chat.open(transport), "invalid_argument", `createSession answering ${JSON.stringify(id)}`);
    assert.match(e.message, /the session id the transport's createSession returned/);
    assert.deepEqual(seen, ["createSession(null)"], `createSession answering ${JSON.stringify(id)}`);
  }
});

// 4. service answers of the wrong shape

test("SessionsClient: a list answer of null, null entries, an entry without state (or other bad shapes) is a MsgError http_error, not a TypeError", async () => {
  const good = view() as { session: Record<string, unknown> };
  const bodies: [string, unknown][] = [
    ["null", null],
    ["an array", []],
    ["a string", "sessions"],
    ["sessions: null", { sessions: null }],
    ["a null entry", { sessions: [view("x"), null] }],
    ["a number entry", { sessions: [1] }],
    ["an entry without session", { sessions: [{ status: "idle" }] }],
    ["an entry with session null", { sessions: [{ session: null, status: "idle" }] }],
    ["an entry without state", { sessions: [{ ...good, session: { ...good.session, state: undefined } }] }],
    ["a state without permission_context", { sessions: [{ ...good, session: { ...good.session, state: { tasks_context: { tasks: [] } } } }] }],
    ["an entry without id", { sessions: [{ ...good, session: { ...good.session, id: 7 } }] }],
    ["an entry without config", { sessions: [{ ...good, session: { ...good.session, config: null } }] }],
  ];
  for (const [what, body] of bodies) {
    const { fetch: f } = recordingFetch({ "GET /sessions/": () => Response.json(body) });
    const sessions = new SessionsClient(transportOf(f));
    for (const [name, run] of [
      ["list", () => sessions.list()],
      ["get", () => sessions.get(SID)],
      ["state", () => sessions.state(SID)],
    ] as const) {
      const e = await refused(run, "http_error", `${name}, ${what}`);
      assert.equal(e.status, 200, `${name}, ${what}`);
    }
  }
  // create and update answering null
  const { fetch: f } = recordingFetch({ "POST /sessions/": () => Response.json(null, { status: 201 }), [`PATCH /sessions/${SID}`]: () => Response.json(null) });
  const sessions = new SessionsClient(transportOf(f));
  await refused(() => sessions.create(), "http_error", "create, null");
  await refused(() => sessions.rename(SID, "n"), "http_error", "rename, null");
  const dots = recordingFetch({ "POST /sessions/": () => Response.json({ session_id: ".." }, { status: 201 }) });
  await refused(() => new SessionsClient(transportOf(dots.fetch)).create(), "http_error", "create, session_id ..");
  await refused(() => transportOf(dots.fetch).createSession(), "http_error", "createSession, session_id ..");
});

test("AgentScopeTransport: a history, status or new session answer of the wrong shape is a MsgError http_error, not a TypeError", async () => {
  for (const [what, body] of [
    ["null", null],
    ["messages: null", { messages: null }],
    ["a null message", { messages: [null], event_cursor: null, is_running: false, has_more: false }],
    ["a message without content", { messages: [{ id: "m", role: "user" }] }],
  ] as const) {
    const { fetch: f } = recordingFetch({ [`GET /sessions/${SID}/messages`]: () => Response.json(body) });
    await refused(() => transportOf(f).history(SID), "http_error", `history, ${what}`);
    // and Chat.open reports it as such
    await refused(() => Chat.open(transportOf(f), { sessionId: SID }), "http_error", `Chat.open, ${what}`);
  }
  for (const [what, body] of [["null", null], ["{}", {}], ["status: 3", { status: 3 }]] as const) {
    const { fetch: f } = recordingFetch({ [`GET /sessions/${SID}/status`]: () => Response.json(body) });
    await refused(() => transportOf(f).status(SID), "http_error", `status, ${what}`);
  }
  for (const [what, body] of [["null", null], ["session_id: 1", { session_id: 1 }], ["session_id: ''", { session_id: "" }]] as const) {
    const { fetch: f } = recordingFetch({ "POST /sessions/": () => Response.json(body, { status: 201 }) });
    await refused(() => transportOf(f).createSession(), "http_error", `createSession, ${what}`);
    await refused(() => Chat.open(transportOf(f)), "http_error", `Chat.open (new session), ${what}`);
  }
});

// attack 36, r1 / r2: a block of a stored message that is not an object with a string type
const badBlocks = [
  ["content [null]", [null]],
  ["content [1]", [1]],
  ["a block without type", [{ text: "x" }]],
  ["a tool call without id", [{ type: "tool_call", name: "Bash", input: "{}", state: "asking" }]],
] as const;

test("a history page with a content block that is not an object with a string type is http_error at open (any transport), never a TypeError", async () => {
  for (const [what, content] of badBlocks) {
    for (const role of ["user", "assistant"]) {
      const page = { messages: [{ id: "m1", role, name: "x", content }], event_cursor: null, is_running: false, has_more: false };
      const { fetch: f } = recordingFetch({ [`GET /sessions/${SID}/messages`]: () => Response.json(page) });
      await refused(() => transportOf(f).history(SID), "http_error", `history, ${role} ${what}`);
      await refused(() => Chat.open(transportOf(f), { sessionId: SID }), "http_error", `Chat.open, ${role} ${what}`);
      // a custom transport that hands the page on unchecked: the chat checks it itself
      const inner = transportOf(recordingFetch().fetch);
      const unchecked: ChatTransport = {
        createSession: (o) => inner.createSession(o),
        history: async () => ({ messages: page.messages as never, eventCursor: null, isRunning: false, hasMore: false }),
        stream: (sid, o) => inner.stream(sid, o),
        chat: (sid, input, o) => inner.chat(sid, input, o),
        interrupt: (sid, o) => inner.interrupt(sid, o),
        status: (sid, o) => inner.status(sid, o),
      };
      await refused(() => Chat.open(unchecked, { sessionId: SID }), "http_error", `Chat.open (custom transport), ${role} ${what}`);
    }
  }
});

test("a later reload answering a malformed block is http_error: nothing of it merged, the chat still reads, sends and closes", async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => unhandled.push(e);
  process.on("unhandledRejection", onUnhandled);
  try {
    for (const [what, content] of badBlocks) {
      let pages = 0;
      const good = { messages: [], event_cursor: null, is_running: false, has_more: false };
      const bad = { messages: [{ id: "m1", role: "user", name: "u", content }], event_cursor: null, is_running: false, has_more: false };
      const errors: unknown[] = [];
      const { fetch: f, calls } = recordingFetch({
        [`GET /sessions/${SID}/messages`]: () => Response.json(pages++ === 0 ? good : bad),
        // the stream ends at once: the chat reloads the page before it reconnects
        [`GET /sessions/${SID}/stream`]: () => new Response(": bye\n\n", { headers: { "content-type": "text/event-stream" } }),
        [`GET /sessions/${SID}/status`]: () => Response.json({ status: "idle" }),
        "POST /chat/": () => Response.json({ status: "started" }),
      });
      const chat = await Chat.open(transportOf(f), { sessionId: SID, retry: { initialMs: 20, maxMs: 50, attempts: 100 }, onError: (e) => errors.push(e) });
      try {
        for (let i = 0; i < 100 && pages < 2; i++) await new Promise((r) => setTimeout(r, 10));
        await new Promise((r) => setTimeout(r, 50));
        const snapshot = chat.getSnapshot();
        assert.deepEqual(snapshot.messages, [], what);
        assert.ok(errors.some((e) => e instanceof MsgError && e.code === "http_error"), `${what}: the reload's http_error reported`);
        assert.ok(errors.every((e) => e instanceof MsgError), `${what}: ${errors.map(String).join(", ")}`);
        assert.ok(typeof chat.status === "string");
        await chat.send("hi");
        assert.ok(calls.some((c) => c.method === "POST" && c.path === "/chat/"), what);
      } finally {
        chat.close();
      }
    }
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(unhandled.map(String), []);
  } finally {
    process.off("unhandledRejection", onUnhandled);
  }
});

// F5: timeoutMs covers the whole answer, not only its headers
test("a history answer whose body stalls after its first bytes is given up after timeoutMs (service_unavailable, cause timeout); a 204 answer is read", async () => {
  let stalled: ReadableStreamDefaultController<Uint8Array> | undefined;
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
    if (init?.method === "DELETE") return new Response(null, { status: 204 });
    // headers at once, 10 bytes of the body, then nothing (until the request is aborted)
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        stalled = controller;
        controller.enqueue(new TextEncoder().encode('{"messages'));
        init?.signal?.addEventListener("abort", () => controller.error(init.signal!.reason), { once: true });
      },
    });
    void url;
    return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
  }) as typeof globalThis.fetch;
  const transport = new AgentScopeTransport({ baseUrl: "http://service.test", userId: "u", agentId: "a", fetch, timeoutMs: 300 });
  const t0 = Date.now();
  await assert.rejects(transport.history(SID), (e: unknown) => e instanceof MsgError && e.code === "service_unavailable" && e.cause === "timeout");
  const took = Date.now() - t0;
  assert.ok(took >= 250 && took < 5000, `given up after ${took} ms`);
  assert.ok(stalled !== undefined);
  // a DELETE answered 204 (no body) resolves
  await new SessionsClient(transport).remove(SID);
});

// what is sent is what is checked: a `toJSON` that turns into a file: data block is refused
test("a value whose toJSON() is a data block with a file: URL is refused invalid_argument in SessionsClient.update / create and transport.chat; no request sent", async () => {
  const calls: string[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push(`${init?.method ?? "GET"} ${String(input)}`);
    return new Response("{}", { status: 200, headers: { "content-type": "application/json" } });
  }) as typeof globalThis.fetch;
  const transport = new AgentScopeTransport({ baseUrl: "http://service.test", userId: "u", agentId: "a", fetch });
  const sneaky = { toJSON: () => ({ type: "data", source: { type: "url", url: "file:///etc/passwd", media_type: "text/plain" } }) };
  const refused = (e: unknown) => e instanceof MsgError && e.code === "invalid_argument" && /http\(s\)/.test(e.message);
  const sessions = new SessionsClient(transport);
  await assert.rejects(sessions.update(SID, { x: [sneaky] }), refused);
  await assert.rejects(sessions.create({ fields: { x: sneaky } } as never), refused);
  await assert.rejects(transport.chat(SID, { id: "m", role: "user", name: "u", content: [sneaky] } as never), refused);
  assert.deepEqual(calls, []);
});

// a flake of the live suites: a kept-alive connection the server had just closed

test("one instance: a request safe to repeat (POST /sessions/, history) is tried once more after a reset or a 503, a POST /chat/ and a timed-out request never", async () => {
  const reset = () => new TypeError("fetch failed", { cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }) });
  const flaky = (fail: () => Response | Error, times: number) => {
    const calls: string[] = [];
    const f = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const url = new URL(String(input));
      calls.push(`${init?.method ?? "GET"} ${url.pathname}`);
      if (calls.length <= times) {
        const failure = fail();
        if (failure instanceof Error) throw failure;
        return failure;
      }
      if (url.pathname === "/sessions/") return new Response(JSON.stringify({ session_id: SID }), { status: 201 });
      return new Response(JSON.stringify({ messages: [], event_cursor: null, is_running: false, has_more: false }), { status: 200 });
    };
    return { f: f as typeof fetch, calls };
  };
  const one = flaky(reset, 1);
  assert.equal(await transportOf(one.f).createSession(), SID);
  assert.deepEqual(one.calls, ["POST /sessions/", "POST /sessions/"]);
  const unavailable = flaky(() => new Response("{}", { status: 503 }), 1);
  assert.deepEqual((await transportOf(unavailable.f).history(SID)).messages, []);
  assert.equal(unavailable.calls.length, 2);
  // twice in a row: given up after the second
  const twice = flaky(reset, 2);
  await refused(() => transportOf(twice.f).createSession(), "service_unavailable", "two resets");
  assert.equal(twice.calls.length, 2);
  // POST /chat/ is never repeated by the transport (the chat checks with the service first)
  const chat = flaky(reset, 1);
  await refused(() => transportOf(chat.f).chat(SID, { name: "user", role: "user", content: [] } as never), "service_unavailable", "a reset POST /chat/");
  assert.deepEqual(chat.calls, ["POST /chat/"]);
});

// attack 36, r7 / r8 / r15 / r16: one code per fault, whatever the shape; nothing sent
test("a lone surrogate is invalid_argument in every shape send and post take, and in userName (at open); nothing sent", async () => {
  const { chat, calls } = await parkedChat();
  try {
    for (const [what, run] of [
      ["send(text)", () => chat.send(LONE)],
      ["send([text block])", () => chat.send([{ type: "text", text: LONE }])],
      ["send({content})", () => chat.send({ content: LONE })],
      ["send({metadata})", () => chat.send({ content: "x", metadata: { k: LONE } })],
      ["send(msg JSON)", () => chat.send({ id: "x1", role: "user", name: LONE, content: [{ type: "text", text: "x" }], metadata: {}, created_at: T } as never)],
      ["post([msg JSON])", () => chat.post([{ id: "x2", role: "user", name: "u", content: [{ type: "text", text: LONE }], metadata: {}, created_at: T }] as never)],
    ] as const) {
      await refused(run, "invalid_argument", what);
    }
    assert.deepEqual(writes(calls), []);
  } finally {
    chat.close();
  }
  await refused(() => Chat.open(transportOf(recordingFetch().fetch), { sessionId: SID, userName: "a\ud800b" }), "invalid_argument", "userName");
});

test("wrong argument types are MsgErrors (never a TypeError), answers of the wrong shape are refused before the request", async () => {
  const { chat, calls } = await parkedChat();
  const aborted = new AbortController();
  aborted.abort();
  const t = transportOf(recordingFetch().fetch);
  const sessions = new SessionsClient(t);
  try {
    await refused(() => chat.confirm("tool", true, null as never), "invalid_argument", "confirm options null");
    await refused(() => chat.confirm("tool", true, { rules: 5 as never }), "invalid_argument", "confirm rules 5");
    await refused(() => chat.submitExternal({ toolCallId: "ask" } as never), "invalid_argument", "submitExternal without output");
    await refused(() => chat.submitExternal({ toolCallId: "ask", output: "x", metadata: "x" as never }), "invalid_argument", "submitExternal metadata 'x'");
    await refused(() => chat.submitExternal({ toolCallId: "ask", output: "x", state: "bogus" as never }), "invalid_argument", "submitExternal state bogus");
    assert.deepEqual(writes(calls), []);
    // (the calls still wait: none was marked answered)
    assert.deepEqual(chat.pendingActions.map((a) => a.answered ?? false), [false, false]);
  } finally {
    chat.close();
  }
  await refused(() => sessions.list(null as never), "invalid_argument", "sessions.list(null)");
  await refused(() => sessions.rename(SID, "x", null as never), "invalid_argument", "sessions.rename(…, null)");
  await refused(() => t.history(SID, null as never), "invalid_argument", "transport.history(…, null)");
  await refused(() => t.request("GET", "/sessions/", null as never), "invalid_argument", "transport.request(…, null)");
  const e = await refused(() => sessions.list({ signal: aborted.signal }), "aborted", "an aborted signal");
  assert.ok(e.cause instanceof DOMException);
});

test("a CUSTOM state_updated whose tasks_context or permission_context is null (or a list) is ignored: state stays as it was", async () => {
  const { AppState } = await import("../../pkg/dist/app-state.js");
  const app = new AppState(SID, null, new AbortController().signal, () => {}, () => {});
  const good = { tasks_context: { tasks: [] }, permission_context: { mode: "default" } };
  const custom = (value: unknown) => ({ type: "CUSTOM", name: "state_updated", value }) as never;
  app.apply(custom(good));
  assert.deepEqual(app.state, good);
  for (const value of [{ tasks_context: null, permission_context: { mode: "x" } }, { tasks_context: { tasks: [] }, permission_context: null }, { tasks_context: [], permission_context: {} }]) {
    app.apply(custom(value));
    assert.deepEqual(app.state, good, JSON.stringify(value));
  }
});

test("a CUSTOM subagent_require_user_confirm whose worker fields are not strings (an object with a toString that is not a function) is taken with \"\" for them, never a TypeError", async () => {
  const { AppState } = await import("../../pkg/dist/app-state.js");
  const app = new AppState(SID, null, new AbortController().signal, () => {}, () => {});
  const call = { type: "tool_call", id: "c1", name: "Bash", input: "{}", state: "asking", suggested_rules: [], created_at: T, finished_at: null };
  const value = { reply_id: "r1", worker_session_id: { toString: 1 }, worker_agent_id: 7, worker_agent_name: "Ann", event: { type: "REQUIRE_USER_CONFIRM", tool_calls: [call] } };
  app.apply({ type: "CUSTOM", name: "subagent_require_user_confirm", value } as never);
  assert.deepEqual(
    app.workerCalls().map((a) => [a.kind, a.replyId, a.toolCall.id, a.worker]),
    [["confirm", "r1", "c1", { sessionId: "", agentId: "", agentName: "Ann" }]],
  );
});

test("timeoutMs holds with a fetch that ignores its signal: headers that never come and a body that stalls are given up (service_unavailable, cause timeout)", async () => {
  let calls = 0;
  const never = (async () => {
    calls += 1;
    return new Promise<Response>(() => {}); // (the signal is ignored)
  }) as typeof globalThis.fetch;
  const stalling = (async () => {
    calls += 1;
    // 10 bytes of the body, then nothing, whatever the signal says
    const body = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode('{"messages')) });
    return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
  }) as typeof globalThis.fetch;
  for (const [what, fetch] of [["headers", never], ["body", stalling]] as const) {
    calls = 0;
    const transport = new AgentScopeTransport({ baseUrl: "http://service.test", userId: "u", agentId: "a", fetch, timeoutMs: 200 });
    const t0 = Date.now();
    await assert.rejects(transport.history(SID), (e: unknown) => e instanceof MsgError && e.code === "service_unavailable" && e.cause === "timeout", what);
    const took = Date.now() - t0;
    assert.ok(took >= 150 && took < 5000, `${what}: given up after ${took} ms`);
    assert.equal(calls, 1, `${what}: one request (a timed-out one is not repeated)`);
    // Chat.open reading that history gives up the same way
    await refused(() => Chat.open(transport, { sessionId: SID }), "service_unavailable", `Chat.open, ${what}`);
  }
});

// 5. found by an outside attack of the bindings

test("a session removed (SessionsClient.remove) while Chat.open reads its history: the chat opens over (error http_error 404), no stream, a send refused with nothing posted", async () => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const { fetch, calls } = recordingFetch({
    [`GET /sessions/${SID}/messages`]: () => new Response(JSON.stringify({ messages: [], event_cursor: null, is_running: false, has_more: false }), { headers: { "content-type": "application/json" } }),
    [`DELETE /sessions/${SID}`]: () => new Response(null, { status: 204 }),
  });
  // the history's answer, given by the service before the delete, reaches the page after it
  const slow: typeof globalThis.fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (String(input).includes("/messages")) await held;
    return response;
  };
  const transport = transportOf(slow);
  const opening = Chat.open(transport, { sessionId: SID, onError: () => {} });
  while (!calls.some((c) => c.path.endsWith("/messages"))) await new Promise((r) => setTimeout(r, 1));
  await new SessionsClient(transportOf(fetch)).remove(SID);
  release();
  const chat = await opening;
  assert.equal(chat.status, "error");
  assert.equal(chat.error?.code, "http_error");
  assert.equal(chat.error?.status, 404);
  await refused(() => chat.send("hello"), "http_error", "a send after the removal");
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(
    calls.map((c) => `${c.method} ${c.path}`).filter((c) => !c.startsWith("GET /sessions/ ") && c !== "GET /sessions/"),
    [`GET /sessions/${SID}/messages`, `DELETE /sessions/${SID}`],
    "no stream, no POST /chat/",
  );
  chat.close();
});

test("instantKey: one instant written with or without its zero fraction, Z or +00:00, is one key; another instant or a naive time is not", async () => {
  const { instantKey } = await import("../../pkg/dist/chat-state.js");
  assert.equal(instantKey("2026-01-01T00:00:02"), instantKey("2026-01-01T00:00:02.000000"));
  assert.equal(instantKey("2026-01-01T00:00:02.5Z"), instantKey("2026-01-01T00:00:02.500000+00:00"));
  assert.notEqual(instantKey("2026-01-01T00:00:02.000001"), instantKey("2026-01-01T00:00:02"));
  assert.notEqual(instantKey("2026-01-01T00:00:02Z"), instantKey("2026-01-01T00:00:02"));
  assert.equal(instantKey("not a time"), "not a time");
});

test("onFinish once when the stored reply's finished_at writes the stream's REPLY_END instant differently (…:02 and …:02.000000)", async () => {
  const enc = new TextEncoder();
  let push: (event: Record<string, unknown>) => void = () => {};
  let page: HistoryPage = { messages: [], eventCursor: null, isRunning: false, hasMore: false };
  const transport: ChatTransport = {
    createSession: async () => SID,
    history: async () => page,
    stream: async (_sid, { signal }) =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            push = (event) => controller.enqueue(enc.encode(`data: ${JSON.stringify(event)}\n\n`));
            signal.addEventListener("abort", () => controller.error(signal.reason), { once: true });
          },
        }),
        { headers: { "content-type": "text/event-stream" } },
      ),
    chat: async () => {},
    interrupt: async () => {},
    status: async () => "idle",
  };
  const finished: string[] = [];
  const chat = await Chat.open(transport, { sessionId: SID, onFinish: (m) => finished.push(`${m.id} ${m.finished_at}`) });
  while (chat.getSnapshot().connection !== "open") await new Promise((r) => setTimeout(r, 1));
  await chat.send("hi");
  const at = (s: string) => `2026-01-01T00:00:0${s}`;
  const events = [
    { type: "REPLY_START", session_id: SID, reply_id: "r9", name: "A", role: "assistant" },
    { type: "TEXT_BLOCK_START", reply_id: "r9", block_id: "b1" },
    { type: "TEXT_BLOCK_DELTA", reply_id: "r9", block_id: "b1", delta: "hi" },
    { type: "TEXT_BLOCK_END", reply_id: "r9", block_id: "b1" },
  ];
  events.forEach((e, i) => push({ id: `e${i}`, created_at: at("1"), ...e }));
  await new Promise((r) => setTimeout(r, 30));
  // the store holds the reply ended at the same instant, written with its microseconds
  const user = chat.messages[0]!;
  const live = chat.messages.at(-1)!;
  page = { messages: [user, { ...live, finished_at: `${at("2")}.000000`, finished_reason: "completed" }], eventCursor: "e9", isRunning: false, hasMore: false };
  push({ id: "e9", created_at: at("2"), type: "REPLY_END", session_id: SID, reply_id: "r9", finished_reason: "completed" });
  await new Promise((r) => setTimeout(r, 200));
  chat.close();
  assert.deepEqual(finished, [`r9 ${at("2")}`]);
});
