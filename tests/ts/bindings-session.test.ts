// The session of a bound chat, in every binding (the core bindChat, React, Vue, Svelte,
// Angular), in node with a transport of the test's own that records its calls (no service):
// - `sessionId` says the id given from the first view on, while the chat connects and
//   after an open that failed (an app mirroring it into the URL kept null for ~0.4 s);
// - a chat of no `sessionId` asks nothing until its first send, which makes its session
//   (one for sends racing it; a failed create rejects typed and the next send tries again)
//   and the page's session lists hear of it;
// - a new `sessionId` that is the id of the chat shown (the session its first send
//   created, passed back by the app) keeps that chat: one history load, one stream; a
//   later new id (or none) still opens a new chat;
// - `SessionsClient.remove` (and the bindings' `remove`) ends the open chats of the
//   deleted session: stream aborted, connection `lost`, status `error`, `http_error` 404.
// React runs in react-dom's client renderer over a stand-in container (its component
// renders nothing); Angular in TestBed, zoneless, over the core platform (no DOM).
import assert from "node:assert/strict";
import { test } from "node:test";
import "@angular/compiler";
import { ErrorHandler, Injector, NgModule, createPlatformFactory, platformCore, provideZonelessChangeDetection, signal, ɵINJECTOR_SCOPE, ApplicationModule } from "@angular/core";
import { TestBed, TestComponentRenderer } from "@angular/core/testing";
import { createElement } from "react";
import { createRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { writable } from "svelte/store";
import { effectScope, nextTick, ref } from "vue";
import { injectChat } from "../../pkg/dist/angular.js";
import { bindChat, bindSessions, type ChatView } from "../../pkg/dist/binding.js";
import { Chat, MsgError, SessionsClient, type ChatTransport, type HistoryPage, type SessionsTransport } from "../../pkg/dist/chat.js";
import { useChat as useReactChat, type UseChatOptions, type UseChatResult } from "../../pkg/dist/react.js";
import { createChat } from "../../pkg/dist/svelte.js";
import { useChat as useVueChat } from "../../pkg/dist/vue.js";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function until(what: string, ok: () => boolean, ms = 3000): Promise<void> {
  const t0 = Date.now();
  while (!ok()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/**
 * A ChatTransport that records its calls in `calls` (`createSession`, `abort create`,
 * `history s1`, `stream s1`, `chat s1`, `abort s1`): new sessions are `new-1`, `new-2`, …; a create
 * waits for `holdCreate` and fails with `failCreate` (when set); a history waits for
 * `hold` (when set) and fails with `failHistory` (when set); a stream stays open until aborted.
 */
function recorder(): ChatTransport & { calls: string[]; hold?: Promise<void>; failHistory?: MsgError; holdCreate?: Promise<void>; failCreate?: MsgError; sessions: SessionsTransport } {
  let made = 0;
  const t = {
    calls: [] as string[],
    hold: undefined as Promise<void> | undefined,
    failHistory: undefined as MsgError | undefined,
    holdCreate: undefined as Promise<void> | undefined,
    failCreate: undefined as MsgError | undefined,
    async createSession(o: { signal?: AbortSignal } = {}) {
      t.calls.push("createSession");
      // (an abort while the create is pending is logged: `abort create`)
      const aborted = (): void => void t.calls.push("abort create");
      o.signal?.addEventListener("abort", aborted, { once: true });
      try {
        await t.holdCreate;
      } finally {
        o.signal?.removeEventListener("abort", aborted);
      }
      if (t.failCreate) throw t.failCreate;
      return `new-${++made}`;
    },
    async history(id: string): Promise<HistoryPage> {
      t.calls.push(`history ${id}`);
      await t.hold;
      if (t.failHistory) throw t.failHistory;
      return { messages: [], eventCursor: null, isRunning: false, hasMore: false };
    },
    async stream(id: string, { signal }: { after: string | null; signal: AbortSignal }) {
      t.calls.push(`stream ${id}`);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          signal.addEventListener("abort", () => {
            t.calls.push(`abort ${id}`);
            controller.error(signal.reason);
          }, { once: true });
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    },
    async chat(id: string) {
      t.calls.push(`chat ${id}`);
    },
    async interrupt(id: string) {
      t.calls.push(`interrupt ${id}`);
    },
    async status() {
      return "idle" as const;
    },
    /** the session routes, for a SessionsClient (the chat's transport has none: it loads no session list) */
    sessions: {
      agentId: "agent",
      async request(method: string, path: string) {
        t.calls.push(`${method} ${path}`);
        return method === "DELETE" ? new Response(null, { status: 204 }) : Response.json({ sessions: [], total: 0 });
      },
    } as SessionsTransport,
  };
  return t;
}

/** Waits until `held`'s history is asked for, so that the chat is connecting with it pending. */
function holding(t: ReturnType<typeof recorder>): () => void {
  let release!: () => void;
  t.hold = new Promise<void>((resolve) => (release = resolve));
  return release;
}

// ------------------------------------------------------------------ (1) sessionId while connecting

test("bindChat: with a given id, sessionId says it from the first view on, while connecting and after a failed open", async () => {
  const t = recorder();
  const release = holding(t);
  const views: ChatView[] = [];
  const handle = bindChat({ transport: t, sessionId: "s1" }, (v) => views.push(v));
  assert.equal(handle.view().status, "connecting");
  assert.equal(handle.view().sessionId, "s1");
  t.failHistory = new MsgError("service_unavailable", "down");
  release();
  await until("the failed open", () => handle.view().status === "error");
  assert.equal(handle.view().error?.code, "service_unavailable");
  assert.equal(handle.view().sessionId, "s1");
  assert.deepEqual(views.map((v) => [v.status, v.sessionId]), [["error", "s1"]]);
  handle.close();
  // a new session has no id until it is made
  const fresh = bindChat({ transport: recorder() }, () => {});
  assert.equal(fresh.view().sessionId, null);
  fresh.close();
  assert.equal(bindChat({ transport: t, sessionId: null }, () => {}).view().sessionId, null);
});

test("vue useChat and svelte createChat: sessionId is the id given while connecting", async () => {
  const t = recorder();
  const release = holding(t);
  const scope = effectScope();
  const vue = scope.run(() => useVueChat({ transport: t, sessionId: "s1" }))!;
  assert.equal(vue.status.value, "connecting");
  assert.equal(vue.sessionId.value, "s1");
  const svelte = createChat({ transport: t, sessionId: writable<string | null | undefined>("s2") });
  const seen: [string, string | null][] = [];
  const stop = svelte.subscribe((v) => seen.push([v.status, v.sessionId]));
  release();
  await until("both open", () => vue.status.value === "ready" && seen.at(-1)?.[0] === "ready");
  assert.deepEqual(seen[0], ["connecting", "s2"]);
  assert.ok(seen.every(([, id]) => id === "s2"), JSON.stringify(seen));
  svelte.close();
  stop();
  scope.stop();
  assert.deepEqual(seen.at(-1), ["closed", "s2"]);
  // (what still reads the refs after the scope's end sees the chat closed)
  assert.deepEqual([vue.status.value, vue.connection.value, vue.sessionId.value], ["closed", "closed", "s1"]);
});

/** React: mounts `useChat(props)` in react-dom's client renderer; `latest` is the last result, `rerender` renders new props. */
async function mountReact(options: UseChatOptions): Promise<{ results: UseChatResult[]; rerender(o: UseChatOptions): Promise<void>; unmount(): Promise<void> }> {
  const g = globalThis as { window?: unknown };
  const noop = (): void => {};
  const win: Record<string, unknown> = { event: undefined, HTMLIFrameElement: class {} };
  const doc = { nodeType: 9, addEventListener: noop, removeEventListener: noop, defaultView: win, activeElement: null };
  win.document = doc;
  g.window = win;
  const container = { nodeType: 1, nodeName: "DIV", tagName: "DIV", namespaceURI: "http://www.w3.org/1999/xhtml", ownerDocument: doc, addEventListener: noop, removeEventListener: noop };
  const results: UseChatResult[] = [];
  const Probe = (props: { options: UseChatOptions }) => {
    results.push(useReactChat(props.options));
    return null;
  };
  const root = createRoot(container as unknown as Element);
  // (no act(): React's scheduler runs the renders and effects on its own, as in a page)
  const render = async (o: UseChatOptions): Promise<void> => {
    const n = results.length;
    root.render(createElement(Probe, { options: o }));
    await until("a render", () => results.length > n);
    await sleep(10);
  };
  await render(options);
  return {
    results,
    rerender: render,
    unmount: async () => {
      root.unmount();
      await sleep(10);
      delete g.window;
    },
  };
}

test("react useChat: sessionId is the id given from the first render on (server render, and the client's before the open)", async () => {
  const t = recorder();
  const release = holding(t);
  const html = renderToString(createElement(() => createElement("p", null, String(useReactChat({ transport: t, sessionId: "s1" }).sessionId))));
  assert.equal(html, "<p>s1</p>");
  const react = await mountReact({ transport: t, sessionId: "s1" });
  assert.ok(react.results.length > 0);
  assert.deepEqual([...new Set(react.results.map((r) => `${r.status} ${r.sessionId}`))], ["connecting s1"]);
  release();
  await until("the open", () => react.results.at(-1)!.status === "ready");
  assert.ok(react.results.every((r) => r.sessionId === "s1"));
  await react.unmount();
});

/** Angular: TestBed over the core platform, zoneless; `tick()` runs the effects. */
let ngReady = false;
function angular(): { injector: Injector; tick(): void; reset(): void } {
  if (!ngReady) initAngular();
  ngReady = true;
  TestBed.resetTestingModule(); // (after a test that failed before its own reset)
  TestBed.configureTestingModule({ providers: [provideZonelessChangeDetection()] });
  return { injector: TestBed.inject(Injector), tick: () => TestBed.tick(), reset: () => TestBed.resetTestingModule() };
}

function initAngular(): void {
  const Env = NgModule({
    exports: [ApplicationModule],
    providers: [
      { provide: ɵINJECTOR_SCOPE, useValue: "root" },
      { provide: ErrorHandler, useValue: new ErrorHandler() },
      { provide: TestComponentRenderer, useValue: new TestComponentRenderer() },
    ],
  })(class Env {});
  TestBed.initTestEnvironment(Env, createPlatformFactory(platformCore, "test", [])());
}

test("angular injectChat: sessionId is the id given before the first change detection, and while connecting", async () => {
  const ng = angular();
  const t = recorder();
  const release = holding(t);
  const chat = injectChat({ transport: t, sessionId: () => "s1", injector: ng.injector });
  assert.equal(chat.status(), "connecting");
  assert.equal(chat.sessionId(), "s1");
  ng.tick();
  await until("the history asked for", () => t.calls.length > 0);
  assert.deepEqual(t.calls, ["history s1"]);
  assert.equal(chat.sessionId(), "s1");
  release();
  await until("the open", () => chat.status() === "ready");
  assert.equal(chat.sessionId(), "s1");
  ng.reset();
});

// ------------------------------------------------------------------ (3) the chat's own id given back

/** The calls of one chat whose first send created a session, kept: no second history or stream, nothing aborted. */
const ONE_CHAT = ["createSession", "history new-1", "stream new-1", "chat new-1"];
/** The calls of the next new chat's first send, once the first chat is closed. */
const NEXT_CHAT = ["abort new-1", "createSession", "history new-2", "stream new-2", "chat new-2"];

test("vue useChat: the id of the session the chat created, given back, keeps the chat; a later change opens a new one", async () => {
  const t = recorder();
  const sessionId = ref<string | null | undefined>(undefined);
  const scope = effectScope();
  const chat = scope.run(() => useVueChat({ transport: t, sessionId }))!;
  assert.deepEqual([chat.status.value, chat.sessionId.value], ["ready", null]);
  await sleep(30);
  assert.deepEqual(t.calls, [], "nothing asked before the first send");
  await chat.send("hi");
  const opened = chat.chat.value;
  assert.equal(chat.sessionId.value, "new-1");
  sessionId.value = chat.sessionId.value;
  await nextTick();
  await sleep(30);
  assert.deepEqual(t.calls, ONE_CHAT);
  assert.equal(chat.chat.value, opened);
  assert.equal(chat.sessionId.value, "new-1");
  sessionId.value = undefined;
  await until("a new chat", () => chat.sessionId.value === null && chat.status.value === "ready");
  assert.deepEqual(t.calls, [...ONE_CHAT, "abort new-1"]);
  await chat.send("hi");
  assert.equal(chat.sessionId.value, "new-2");
  assert.deepEqual(t.calls, [...ONE_CHAT, ...NEXT_CHAT]);
  sessionId.value = null;
  await nextTick();
  assert.equal(chat.status.value, "closed");
  scope.stop();
});

test("svelte createChat: a store of ids given the created session's id keeps the chat", async () => {
  const t = recorder();
  const ids = writable<string | null | undefined>(undefined);
  const chat = createChat({ transport: t, sessionId: ids });
  let view!: ChatView;
  const stop = chat.subscribe((v) => (view = v));
  assert.deepEqual([view.status, view.sessionId], ["ready", null]);
  await sleep(30);
  assert.deepEqual(t.calls, [], "nothing asked before the first send");
  await chat.send("hi");
  const opened = view.chat;
  assert.equal(view.sessionId, "new-1");
  ids.set(view.sessionId);
  await sleep(30);
  assert.deepEqual(t.calls, ONE_CHAT);
  assert.equal(view.chat, opened);
  ids.set(undefined);
  assert.deepEqual([view.status, view.sessionId, view.chat], ["ready", null, null]);
  await chat.send("hi");
  assert.equal(view.sessionId, "new-2");
  assert.deepEqual(t.calls, [...ONE_CHAT, ...NEXT_CHAT]);
  // closed outside a component: the store's readers see it closed
  chat.close();
  assert.deepEqual([view.status, view.connection, view.sessionId, view.chat], ["closed", "closed", "new-2", null]);
  stop();
});

test("react useChat: the created session's id passed back as sessionId keeps the chat; a later change opens a new one", async () => {
  const t = recorder();
  const react = await mountReact({ transport: t });
  await sleep(30);
  assert.deepEqual(t.calls, [], "nothing asked before the first send");
  assert.ok(react.results.every((r) => r.status === "ready" && r.sessionId === null && r.chat === null));
  await react.results.at(-1)!.send("hi");
  await until("the chat on its session", () => react.results.at(-1)!.sessionId === "new-1");
  const opened = react.results.at(-1)!.chat;
  assert.notEqual(opened, null);
  const id = react.results.at(-1)!.sessionId!;
  const before = react.results.length;
  await react.rerender({ transport: t, sessionId: id });
  await sleep(50);
  assert.deepEqual(t.calls, ONE_CHAT);
  // every render since showed the same chat (never connecting)
  assert.ok(react.results.slice(before).every((r) => r.chat === opened && r.status !== "connecting" && r.sessionId === id));
  await react.rerender({ transport: t });
  await until("a new chat", () => react.results.at(-1)!.chat === null);
  assert.deepEqual([react.results.at(-1)!.status, react.results.at(-1)!.sessionId], ["ready", null]);
  await react.results.at(-1)!.send("hi");
  await until("the new chat on its session", () => react.results.at(-1)!.sessionId === "new-2");
  assert.deepEqual(t.calls, [...ONE_CHAT, ...NEXT_CHAT]);
  await react.unmount();
});

test("angular injectChat: the created session's id set on the sessionId signal keeps the chat; a later change opens a new one", async () => {
  const ng = angular();
  const t = recorder();
  const sessionId = signal<string | null | undefined>(undefined);
  const chat = injectChat({ transport: t, sessionId, injector: ng.injector });
  ng.tick();
  assert.deepEqual([chat.status(), chat.sessionId()], ["ready", null]);
  await sleep(30);
  assert.deepEqual(t.calls, [], "nothing asked before the first send");
  await chat.send("hi");
  ng.tick();
  const opened = chat.chat();
  assert.equal(chat.sessionId(), "new-1");
  sessionId.set(chat.sessionId());
  ng.tick();
  await sleep(30);
  assert.deepEqual(t.calls, ONE_CHAT);
  assert.equal(chat.chat(), opened);
  sessionId.set(undefined);
  ng.tick();
  assert.deepEqual([chat.status(), chat.sessionId(), chat.chat()], ["ready", null, null]);
  await chat.send("hi");
  ng.tick();
  assert.equal(chat.sessionId(), "new-2");
  assert.deepEqual(t.calls, [...ONE_CHAT, ...NEXT_CHAT]);
  ng.reset();
});

// ------------------------------------------------------------------ (2) deleting the open session

test("SessionsClient.remove ends the open chats of the deleted session: stream aborted, lost, status error, http_error 404", async () => {
  const t = recorder();
  const [a, b, other] = await Promise.all([Chat.open(t, { sessionId: "s1" }), Chat.open(t, { sessionId: "s1" }), Chat.open(t, { sessionId: "s2" })]);
  await until("streams open", () => [a, b, other].every((c) => c.getSnapshot().status === "ready"));
  await new SessionsClient(t.sessions).remove("s1");
  for (const chat of [a, b]) {
    const s = chat.getSnapshot();
    assert.equal(s.status, "error");
    assert.equal(s.connection, "lost");
    assert.ok(s.error instanceof MsgError);
    assert.equal(s.error.code, "http_error");
    assert.equal(s.error.status, 404);
    assert.match(s.error.message, /deleted/);
  }
  await until("both streams aborted", () => t.calls.filter((c) => c === "abort s1").length === 2);
  assert.equal(other.getSnapshot().status, "ready");
  assert.ok(!t.calls.includes("abort s2"));
  // a closed chat is no longer told
  other.close();
  await new SessionsClient(t.sessions).remove("s2");
  assert.equal(other.getSnapshot().status, "closed");
  a.close();
  b.close();
});

test("the bindings' remove (bindSessions: useSessions, createSessions, injectSessions) ends the bound chat of that session", async () => {
  const t = recorder();
  let view!: ChatView;
  const chat = bindChat({ transport: t, sessionId: "s1" }, (v) => (view = v));
  await until("ready", () => view?.status === "ready");
  // bindSessions makes its own AgentScopeTransport: its fetch answers the DELETE
  const fetch = async (url: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    t.calls.push(`${init?.method ?? "GET"} ${new URL(String(url)).pathname}`);
    return init?.method === "DELETE" ? new Response(null, { status: 204 }) : Response.json({ sessions: [], total: 0 });
  };
  const sessions = bindSessions({ baseUrl: "http://127.0.0.1:9", userId: "u", agentId: "agent", fetch }, () => {}, false);
  await sessions.remove("s1");
  await until("the chat ended", () => view.status === "error");
  assert.equal(view.connection, "lost");
  assert.equal(view.error?.status, 404);
  assert.equal(view.sessionId, "s1");
  assert.ok(t.calls.includes("DELETE /sessions/s1"));
  assert.ok(t.calls.includes("abort s1"));
  chat.close();
  sessions.close();
});

test("headers of the bound chat's options go on every request of its transport (bindChat, vue useChat, svelte createChat)", async () => {
  // a fetch that records each request's headers, then fails as a refused connection
  const seen: Record<string, string>[] = [];
  const fetch = async (_url: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    seen.push(Object.fromEntries(new Headers(init?.headers).entries()));
    throw new TypeError("fetch failed");
  };
  const options = { baseUrl: "http://127.0.0.1:9", userId: "u", agentId: "agent", fetch, headers: { Authorization: "Bearer t0k3n" }, retry: { initialMs: 1, maxMs: 1, attempts: 1 } };
  const bound = bindChat(options, () => {});
  const scope = effectScope();
  const vue = scope.run(() => useVueChat(options))!;
  const svelte = createChat(options);
  // (a new chat asks nothing until its first send: its create is the first request)
  await sleep(30);
  assert.equal(seen.length, 0);
  const failed = await Promise.all([bound, vue, svelte].map((c) => c.send("hi").then(() => null, (e: MsgError) => e.code)));
  assert.deepEqual(failed, ["service_unavailable", "service_unavailable", "service_unavailable"]);
  for (let i = 0; i < 100 && seen.length < 3; i++) await sleep(10);
  bound.close();
  scope.stop();
  svelte.close();
  assert.ok(seen.length >= 3, `${seen.length} requests`);
  for (const headers of seen) {
    assert.equal(headers.authorization, "Bearer t0k3n");
    assert.equal(headers["x-user-id"], "u");
  }
});

// ------------------------------------------------------------------ (4) a new chat's session, made by its first send

test("bindChat with no sessionId: ready at once with no request; stop, loadOlder, confirm and submitExternal ask nothing; the first send makes the session, shows the message, opens and sends", async () => {
  const t = recorder();
  const views: ChatView[] = [];
  const handle = bindChat({ transport: t }, (v) => views.push(v));
  const first = handle.view();
  assert.deepEqual([first.status, first.connection, first.sessionId, first.chat, first.messages, first.error], ["ready", "closed", null, null, [], null]);
  await sleep(30);
  assert.deepEqual(t.calls, [], "no request at open");
  await handle.stop();
  assert.equal(await handle.loadOlder(), false);
  await assert.rejects(handle.confirm("call-1", true), (e: MsgError) => e instanceof MsgError && e.code === "invalid_argument");
  await assert.rejects(handle.submitExternal({ toolCallId: "call-1", output: "x" }), (e: MsgError) => e instanceof MsgError && e.code === "invalid_argument");
  await assert.rejects(handle.post({ type: "USER_CONFIRM_RESULT", reply_id: "r", confirm_results: [{ confirmed: true, tool_call: { id: "call-1" } }] } as never), (e: MsgError) => e.code === "invalid_argument");
  // refused before a session is made, as Chat.send refuses them
  await assert.rejects(handle.send("\ud800"), (e: MsgError) => e.code === "invalid_argument");
  await assert.rejects(handle.send([{ type: "data", source: { type: "url", url: "file:///etc/passwd", media_type: "text/plain" } }]), (e: MsgError) => e.code === "invalid_argument");
  assert.deepEqual(t.calls, [], "nothing asked by those");
  assert.equal(views.length, 0, "nor shown");
  await handle.send("hello");
  assert.deepEqual(t.calls, ["createSession", "history new-1", "stream new-1", "chat new-1"]);
  // submitted with the message from the press on, then the chat on its session with it
  assert.equal(views[0]!.status, "submitted");
  assert.equal(views[0]!.sessionId, null);
  assert.deepEqual(views[0]!.messages.map((m) => [m.role, ...m.content.map((c) => (c as { text?: string }).text)]), [["user", "hello"]]);
  const sent = views[0]!.messages[0]!.id;
  const opened = views.find((v) => v.chat !== null)!;
  assert.equal(opened.sessionId, "new-1");
  assert.deepEqual(opened.messages.map((m) => m.id), [sent], "the same message, never a view without it");
  assert.ok(views.every((v) => v.status !== "connecting" && v.status !== "error"), JSON.stringify(views.map((v) => v.status)));
  assert.equal(handle.view().sessionId, "new-1");
  // later actions go to that chat
  await handle.stop();
  assert.equal(t.calls.filter((c) => c === "createSession").length, 1);
  handle.close();
});

test("bindChat with no sessionId: stop() in the same moment as the first send waits for the session its send makes, and stops that reply (the interrupt goes out)", async () => {
  const t = recorder();
  const handle = bindChat({ transport: t }, () => {});
  const sent = handle.send("hello");
  const stopped = handle.stop(); // (the .wasm still loading, no session yet)
  await sent;
  await stopped;
  for (let i = 0; i < 100 && !t.calls.includes("interrupt new-1"); i++) await sleep(10);
  assert.deepEqual(t.calls.filter((c) => c === "createSession" || c.startsWith("chat ") || c.startsWith("interrupt ")), ["createSession", "chat new-1", "interrupt new-1"]);
  handle.close();
});

test("bindChat with no sessionId: two sends racing before the session exists make one session, both on its chat", async () => {
  const t = recorder();
  let release!: () => void;
  t.holdCreate = new Promise<void>((resolve) => (release = resolve));
  const handle = bindChat({ transport: t }, () => {});
  const a = handle.send("one");
  const b = handle.send("two");
  const c = handle.post({ role: "user", name: "user", content: [{ type: "text", text: "three" }] } as never);
  await until("the create asked", () => t.calls.length > 0);
  await sleep(20);
  release();
  const settled = await Promise.allSettled([a, b, c]);
  assert.equal(settled[0]!.status, "fulfilled");
  // (the others reach the one chat: it takes them, or refuses one while a reply is in flight)
  for (const s of settled.slice(1)) if (s.status === "rejected") assert.equal((s.reason as MsgError).code, "busy");
  assert.deepEqual(t.calls.filter((x) => x === "createSession"), ["createSession"]);
  assert.ok(t.calls.filter((x) => x.startsWith("chat ")).every((x) => x === "chat new-1"));
  assert.deepEqual(t.calls.filter((x) => x.startsWith("history ") || x.startsWith("stream ")), ["history new-1", "stream new-1"]);
  handle.close();
});

test("bindChat with no sessionId: a failed create rejects the send with its MsgError and leaves the chat new and usable: the retry makes the session", async () => {
  const t = recorder();
  t.failCreate = new MsgError("service_unavailable", "down");
  const views: ChatView[] = [];
  const handle = bindChat({ transport: t }, (v) => views.push(v));
  const racing = [handle.send("hello"), handle.send("again")];
  for (const p of racing) await assert.rejects(p, (e: MsgError) => e instanceof MsgError && e.code === "service_unavailable");
  assert.deepEqual(t.calls, ["createSession"], "one create for both");
  const failed = handle.view();
  assert.deepEqual([failed.status, failed.sessionId, failed.chat, failed.messages, failed.error?.code], ["ready", null, null, [], "service_unavailable"]);
  t.failCreate = undefined;
  await handle.send("hello");
  assert.deepEqual(t.calls, ["createSession", "createSession", "history new-1", "stream new-1", "chat new-1"]);
  assert.equal(handle.view().sessionId, "new-1");
  assert.equal(handle.view().error, null);
  // an open that fails once the session is made: the retry opens that session (no second one)
  const u = recorder();
  u.failHistory = new MsgError("http_error", "boom", { status: 500 });
  const other = bindChat({ transport: u }, () => {});
  await assert.rejects(other.send("hello"), (e: MsgError) => e.code === "http_error");
  assert.deepEqual([other.view().status, other.view().sessionId, other.view().error?.code], ["ready", null, "http_error"]);
  u.failHistory = undefined;
  await other.send("hello");
  assert.deepEqual(u.calls, ["createSession", "history new-1", "history new-1", "stream new-1", "chat new-1"]);
  handle.close();
  other.close();
});

test("bindChat with no sessionId: closed before its first send, or while the session is made, sends nothing", async () => {
  const t = recorder();
  const handle = bindChat({ transport: t }, () => {});
  handle.close();
  await assert.rejects(handle.send("hello"), (e: MsgError) => e.code === "closed");
  assert.deepEqual(t.calls, []);
  let release!: () => void;
  t.holdCreate = new Promise<void>((resolve) => (release = resolve));
  const views: ChatView[] = [];
  const other = bindChat({ transport: t }, (v) => views.push(v));
  const sending = other.send("hello");
  await until("the create asked", () => t.calls.length > 0);
  assert.equal(other.view().status, "submitted");
  other.close();
  // the create's request is aborted at the close, and the handle reads closed
  assert.deepEqual(t.calls, ["createSession", "abort create"]);
  assert.equal(other.view().status, "closed");
  assert.equal(other.view().connection, "closed");
  release();
  await assert.rejects(sending, (e: MsgError) => e.code === "closed");
  await sleep(20);
  assert.deepEqual(t.calls, ["createSession", "abort create"], "no open, no POST after the close");
  assert.equal(other.view().status, "closed");
});

/** A fetch answering as an AgentScope service with no session at first: `requests` logs `METHOD path`; a stream stays open until aborted. */
function fakeService(): { fetch: typeof fetch; requests: string[]; made: string[] } {
  const requests: string[] = [];
  const made: string[] = [];
  const view = (id: string) => ({ session: { id, config: { name: id }, state: { tasks_context: {}, permission_context: {} } }, status: "idle" });
  const fetch = async (url: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const method = init?.method ?? "GET";
    const path = new URL(String(url)).pathname;
    requests.push(`${method} ${path}`);
    if (method === "POST" && path === "/sessions/") {
      made.push(`made-${made.length + 1}`);
      return Response.json({ session_id: made.at(-1) }, { status: 201 });
    }
    if (method === "GET" && path === "/sessions/") return Response.json({ sessions: made.map(view), total: made.length });
    if (path.endsWith("/messages")) return Response.json({ messages: [], event_cursor: null, is_running: false, has_more: false });
    if (path.endsWith("/stream")) {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          init?.signal?.addEventListener("abort", () => controller.error(init.signal!.reason), { once: true });
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    }
    if (path.endsWith("/status")) return Response.json({ status: "idle" });
    return Response.json({});
  };
  return { fetch: fetch as typeof globalThis.fetch, requests, made };
}

test("bindChat with no sessionId: the page's session lists of its service hear of the session its first send makes (none before)", async () => {
  const service = fakeService();
  const where = { baseUrl: "http://127.0.0.1:9", userId: "u", agentId: "agent", fetch: service.fetch };
  let list = bindSessions(where, () => {}).view();
  const sessions = bindSessions(where, (v) => (list = v));
  await until("the first list", () => !list.loading);
  const chat = bindChat(where, () => {});
  await sleep(50);
  assert.deepEqual(service.requests, ["GET /sessions/", "GET /sessions/"], "the lists' own: the new chat asks nothing");
  assert.deepEqual(list.sessions, []);
  await chat.send("hello");
  assert.deepEqual(service.made, ["made-1"]);
  await until("the list shows the new session", () => list.sessions.some((v) => v.session.id === "made-1"));
  assert.equal(chat.view().sessionId, "made-1");
  assert.equal(service.requests.filter((r) => r === "POST /sessions/").length, 1);
  chat.close();
  sessions.close();
});
