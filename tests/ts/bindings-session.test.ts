// The session of a bound chat, in every binding (the core bindChat, React, Vue, Svelte,
// Angular), in node with a transport of the test's own that records its calls (no service):
// - `sessionId` says the id given from the first view on, while the chat connects and
//   after an open that failed (an app mirroring it into the URL kept null for ~0.4 s);
// - a new `sessionId` that is the id of the chat shown (the session it created, passed
//   back by the app) keeps that chat: one history load, one stream; a later new id (or
//   none) still opens a new chat;
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
 * A ChatTransport that records its calls in `calls` (`createSession`, `history s1`,
 * `stream s1`, `abort s1`): new sessions are `new-1`, `new-2`, …; a history waits for
 * `hold` (when set) and fails with `failHistory` (when set); a stream stays open until aborted.
 */
function recorder(): ChatTransport & { calls: string[]; hold?: Promise<void>; failHistory?: MsgError; sessions: SessionsTransport } {
  let made = 0;
  const t = {
    calls: [] as string[],
    hold: undefined as Promise<void> | undefined,
    failHistory: undefined as MsgError | undefined,
    async createSession() {
      t.calls.push("createSession");
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
    async chat() {},
    async interrupt() {},
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
  stop();
  svelte.close();
  scope.stop();
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

/** The calls of one chat that created a session and kept it: no second history or stream, nothing aborted. */
const ONE_CHAT = ["createSession", "history new-1", "stream new-1"];

test("vue useChat: the id of the session the chat created, given back, keeps the chat; a later change opens a new one", async () => {
  const t = recorder();
  const sessionId = ref<string | null | undefined>(undefined);
  const scope = effectScope();
  const chat = scope.run(() => useVueChat({ transport: t, sessionId }))!;
  await until("ready", () => chat.status.value === "ready");
  const opened = chat.chat.value;
  sessionId.value = chat.sessionId.value;
  await nextTick();
  await sleep(30);
  assert.deepEqual(t.calls, ONE_CHAT);
  assert.equal(chat.chat.value, opened);
  assert.equal(chat.status.value, "ready");
  sessionId.value = undefined;
  await until("a new chat", () => chat.sessionId.value === "new-2");
  assert.deepEqual(t.calls, [...ONE_CHAT, "abort new-1", "createSession", "history new-2", "stream new-2"]);
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
  await until("ready", () => view.status === "ready");
  const opened = view.chat;
  ids.set(view.sessionId);
  await sleep(30);
  assert.deepEqual(t.calls, ONE_CHAT);
  assert.equal(view.chat, opened);
  ids.set(undefined);
  await until("a new chat", () => view.sessionId === "new-2");
  assert.deepEqual(t.calls, [...ONE_CHAT, "abort new-1", "createSession", "history new-2", "stream new-2"]);
  stop();
  chat.close();
});

test("react useChat: the created session's id passed back as sessionId keeps the chat; a later change opens a new one", async () => {
  const t = recorder();
  const react = await mountReact({ transport: t });
  await until("ready", () => react.results.at(-1)!.status === "ready");
  const opened = react.results.at(-1)!.chat;
  const id = react.results.at(-1)!.sessionId!;
  const before = react.results.length;
  await react.rerender({ transport: t, sessionId: id });
  await sleep(50);
  assert.deepEqual(t.calls, ONE_CHAT);
  // every render since showed the same chat, ready (never connecting)
  assert.ok(react.results.slice(before).every((r) => r.chat === opened && r.status === "ready" && r.sessionId === id));
  await react.rerender({ transport: t });
  await until("a new chat", () => react.results.at(-1)!.sessionId === "new-2");
  assert.deepEqual(t.calls, [...ONE_CHAT, "abort new-1", "createSession", "history new-2", "stream new-2"]);
  await react.unmount();
});

test("angular injectChat: the created session's id set on the sessionId signal keeps the chat; a later change opens a new one", async () => {
  const ng = angular();
  const t = recorder();
  const sessionId = signal<string | null | undefined>(undefined);
  const chat = injectChat({ transport: t, sessionId, injector: ng.injector });
  ng.tick();
  await until("ready", () => chat.status() === "ready");
  const opened = chat.chat();
  sessionId.set(chat.sessionId());
  ng.tick();
  await sleep(30);
  assert.deepEqual(t.calls, ONE_CHAT);
  assert.equal(chat.chat(), opened);
  sessionId.set(undefined);
  ng.tick();
  await until("a new chat", () => chat.sessionId() === "new-2");
  assert.deepEqual(t.calls, [...ONE_CHAT, "abort new-1", "createSession", "history new-2", "stream new-2"]);
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
  for (let i = 0; i < 100 && seen.length < 3; i++) await sleep(10);
  bound.close();
  scope.stop();
  svelte.close();
  void vue;
  assert.ok(seen.length >= 3, `${seen.length} requests`);
  for (const headers of seen) {
    assert.equal(headers.authorization, "Bearer t0k3n");
    assert.equal(headers["x-user-id"], "u");
  }
});
