// agentscope-message/assistant-ui: the message converter on hand-worked messages (node),
// and a page built with assistant-ui's own primitives (tests/chat-app/assistant-ui.jsx,
// a Vite 8 build of the package as users get it, `npm pack`) in Chromium against the live
// AgentScope 2.0.11 service: send through the composer, approve a call through the tool
// UI's `respondToApproval`, Stop mid-reply; each ends with the chat's messages equal to
// the stored ones. Then the thread list over the sessions (`useSessionThreads`) with
// assistant-ui's ThreadList primitives: the service's sessions listed, no session made by
// opening the page or New, the first message making exactly one (auto-named), switching
// threads, rename and delete.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Page } from "playwright-core";
import { convertMessage, convertMessages, isRunning, toSendInput } from "../../pkg/dist/assistant-ui.js";
import type { MsgJSON } from "../../pkg/dist/message.js";
import { comparable, type Json } from "./helpers.ts";
import { api, startService, stored, type Service } from "./service.ts";
import { serviceQuery, startViteApp, type ViteApp } from "./vite-app.ts";

// ------------------------------------------------------------------ the converter

const T = "2026-01-02T03:04:05.000Z";
function msg(id: string, role: "user" | "assistant", content: Json[], extra: Partial<Record<keyof MsgJSON, Json>> = {}): MsgJSON {
  return { name: role, content, role, id, metadata: {}, created_at: T, usage: null, finished_at: T, finished_reason: "completed", structured_output: null, error: null, ...extra } as MsgJSON;
}

describe("convertMessage", () => {
  test("text, thinking, a finished tool call with its result, an image; the hint left out", () => {
    const m = msg("r1", "assistant", [
      { type: "thinking", thinking: "let me look", id: "b1" },
      { type: "tool_call", id: "c1", name: "Bash", input: '{"command":"ls"}', state: "finished" },
      { type: "tool_result", id: "c1", name: "Bash", output: [{ type: "text", text: "a\n" }, { type: "text", text: "b" }], state: "success" },
      { type: "hint", hint: "<system-reminder>x</system-reminder>" },
      { type: "text", text: "Done." },
      { type: "data", source: { type: "base64", media_type: "image/png", data: "iVBO" }, name: "p.png" },
    ]);
    assert.deepEqual(convertMessage(m), {
      role: "assistant",
      id: "r1",
      createdAt: new Date(T),
      metadata: { custom: { agentscope: { name: "assistant" } } },
      status: { type: "complete", reason: "stop" },
      content: [
        { type: "reasoning", text: "let me look" },
        { type: "tool-call", toolCallId: "c1", toolName: "Bash", args: { command: "ls" }, argsText: '{"command":"ls"}', result: "a\nb" },
        { type: "text", text: "Done." },
        { type: "image", image: "data:image/png;base64,iVBO", filename: "p.png" },
      ],
    });
  });

  test("a call asking: an approval to answer, the message requires action", () => {
    const m = msg("r2", "assistant", [{ type: "tool_call", id: "c2", name: "Bash", input: '{"command":"rm', state: "asking" }], { finished_at: null, finished_reason: null });
    const out = convertMessage(m, { running: true });
    assert.deepEqual(out.status, { type: "requires-action", reason: "tool-calls" });
    // truncated JSON: what parsed so far
    assert.deepEqual(out.content, [{ type: "tool-call", toolCallId: "c2", toolName: "Bash", args: { command: "rm" }, argsText: '{"command":"rm', approval: { id: "c2" } }]);
  });

  test("a denied call: approval false and the result 'denied', not the model-facing reminder", () => {
    const m = msg("r3", "assistant", [
      { type: "tool_call", id: "c3", name: "Bash", input: "{}", state: "finished" },
      { type: "tool_result", id: "c3", name: "Bash", output: "<system-reminder>The user denied it</system-reminder>", state: "denied" },
    ]);
    assert.deepEqual(convertMessage(m).content, [
      { type: "tool-call", toolCallId: "c3", toolName: "Bash", args: {}, argsText: "{}", result: "denied", isError: true, approval: { id: "c3", approved: false } },
    ]);
  });

  test("a running result is preliminary; an error result isError; interrupted and failed replies are incomplete", () => {
    const running = msg("r4", "assistant", [
      { type: "tool_call", id: "c4", name: "Slow", input: "{}", state: "allowed" },
      { type: "tool_result", id: "c4", name: "Slow", output: "half", state: "running" },
      { type: "tool_call", id: "c5", name: "Bad", input: "{}", state: "finished" },
      { type: "tool_result", id: "c5", name: "Bad", output: "boom", state: "error" },
    ], { finished_at: null, finished_reason: null });
    const out = convertMessage(running, { running: true });
    assert.deepEqual(out.status, { type: "running" });
    assert.deepEqual(out.content, [
      { type: "tool-call", toolCallId: "c4", toolName: "Slow", args: {}, argsText: "{}", result: "half", isPreliminary: true },
      { type: "tool-call", toolCallId: "c5", toolName: "Bad", args: {}, argsText: "{}", result: "boom", isError: true },
    ]);
    assert.deepEqual(convertMessage(msg("r5", "assistant", [], { finished_reason: "interrupted" })).status, { type: "incomplete", reason: "cancelled" });
    assert.deepEqual(convertMessage(msg("r6", "assistant", [], { finished_reason: "error", error: { type: "x", message: "m" } })).status, { type: "incomplete", reason: "error", error: "m" });
  });

  test("a user message: text and a file (URL), no status", () => {
    const m = msg("u1", "user", [
      { type: "text", text: "see" },
      { type: "data", source: { type: "url", url: "https://example.test/a.pdf", media_type: "application/pdf" } },
    ]);
    assert.deepEqual(convertMessage(m), {
      role: "user",
      id: "u1",
      createdAt: new Date(T),
      metadata: { custom: { agentscope: { name: "user" } } },
      content: [
        { type: "text", text: "see" },
        { type: "file", data: "https://example.test/a.pdf", mimeType: "application/pdf", sourceType: "url" },
      ],
    });
  });

  test("convertMessages: a result in a later message joins its call; only the last unfinished reply runs", () => {
    const a = msg("r7", "assistant", [{ type: "tool_call", id: "c7", name: "T", input: "{}", state: "finished" }]);
    const b = msg("r8", "assistant", [{ type: "tool_result", id: "c7", name: "T", output: "ok", state: "success" }, { type: "text", text: "hi" }], { finished_at: null, finished_reason: null });
    const [x, y] = convertMessages([a, b], "streaming");
    assert.deepEqual(x!.content, [{ type: "tool-call", toolCallId: "c7", toolName: "T", args: {}, argsText: "{}", result: "ok" }]);
    assert.deepEqual(y!.content, [{ type: "text", text: "hi" }]);
    assert.deepEqual(y!.status, { type: "running" });
    assert.deepEqual(convertMessages([b], "ready")[0]!.status, { type: "incomplete", reason: "other" });
    assert.deepEqual(["ready", "submitted", "streaming", "stopping", "awaiting_input"].map((s) => isRunning(s as never)), [false, true, true, true, false]);
  });

  test("toSendInput: text parts and attachments as blocks", () => {
    const blocks = toSendInput({
      content: [{ type: "text", text: "look" }],
      attachments: [
        { id: "a", type: "image", name: "p.png", status: { type: "complete" }, content: [{ type: "image", image: "data:image/png;base64,iVBO", filename: "p.png" }] },
        { id: "b", type: "file", name: "d.txt", status: { type: "complete" }, content: [{ type: "file", data: "aGk=", mimeType: "text/plain", filename: "d.txt" }] },
      ],
    });
    assert.deepEqual(blocks, [
      { type: "text", text: "look" },
      { type: "data", source: { type: "base64", media_type: "image/png", data: "iVBO" }, name: "p.png" },
      { type: "data", source: { type: "base64", media_type: "text/plain", data: "aGk=" }, name: "d.txt" },
    ]);
  });
});

// ------------------------------------------------------------------ in Chromium

const WAIT = 90_000;
const TEST = { timeout: 300_000 };

describe("assistant-ui primitives in Chromium against the live service", () => {
  let service: Service | undefined;
  let site: ViteApp | undefined;
  /** `POST /sessions/` requests through the test server's `/api`. */
  const created = () => site!.requests.filter((r) => /^POST \/sessions\/?$/.test(r)).length;

  before(async () => {
    const started = startService({ AGENTSCOPE_SERVICE_DELAY_MS: "1" });
    started.catch(() => {});
    site = await startViteApp({ name: "assistant-ui", pages: ["assistant-ui.html"], config: () => ({ oxc: { jsx: { runtime: "automatic" } } }), api: () => service!.url });
    service = await started;
  });

  after(async () => {
    await site?.close();
    await service?.stop();
  });

  /** Opens the page (a new chat: ready, no session, none made until the first message). */
  async function open(): Promise<{ page: Page; problems: string[] }> {
    const before = created();
    const { page, problems } = await site!.open(`/assistant-ui.html?${serviceQuery(service!)}`, { warnings: false });
    await page.waitForFunction(() => document.getElementById("app")?.dataset.status === "ready", null, { timeout: WAIT });
    assert.equal(await page.evaluate(() => document.getElementById("app")!.dataset.session), "", "no session before the first message");
    assert.equal(created(), before, "opening the page makes no session");
    return { page, problems };
  }

  async function type(page: Page, text: string): Promise<void> {
    await page.fill("#input", text);
    await page.click("#send");
  }

  /** The session the first message made, once the page shows it. */
  async function sessionOf(page: Page): Promise<string> {
    await page.waitForFunction(() => (document.getElementById("app")?.dataset.session ?? "") !== "", null, { timeout: WAIT });
    return page.evaluate(() => document.getElementById("app")!.dataset.session!);
  }

  const status = (page: Page) => page.evaluate(() => document.getElementById("app")!.dataset.status!);

  /** Waits for `ready` with the chat's messages equal to the stored ones; returns them. */
  async function asStored(page: Page, sessionId: string): Promise<Json[]> {
    const t0 = Date.now();
    for (;;) {
      // (no chat yet while it connects: `sessionId` says the id given from the first render on)
      const shown = comparable(await page.evaluate(() => ((window as unknown as { chat: { getSnapshot(): { messages: unknown[] } } | null }).chat?.getSnapshot().messages ?? []) as Json[]));
      const want = comparable(await stored(service!, sessionId));
      const st = await status(page);
      if (st === "ready" && JSON.stringify(shown) === JSON.stringify(want)) return want;
      if (Date.now() - t0 > WAIT) {
        assert.deepEqual(shown, want);
        assert.equal(st, "ready");
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  test("send 'hello' through the composer: 'You said: hello' rendered by the thread, as stored", TEST, async () => {
    const { page, problems } = await open();
    await type(page, "hello");
    const sessionId = await sessionOf(page);
    await page.waitForSelector(".message.assistant .text:has-text('You said: hello')", { timeout: WAIT });
    assert.equal(await page.locator(".message.user .text").first().textContent(), "hello");
    const want = await asStored(page, sessionId);
    assert.equal(want.length, 2);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("attach: a file picked through the composer's Attach (the default adapter) goes with the text as a data block, as stored", TEST, async () => {
    const { page, problems } = await open();
    const chooser = page.waitForEvent("filechooser");
    await page.click("#attach");
    await (await chooser).setFiles({ name: "note.txt", mimeType: "text/plain", buffer: Buffer.from("hi there") });
    // assistant-ui 0.15 adds nothing for an adapter whose accept is "*/*" (only "*" is any file)
    await page.waitForSelector(".attachment:has-text('note.txt')", { timeout: 10_000 });
    await type(page, "hello");
    const sessionId = await sessionOf(page);
    await page.waitForSelector(".message.assistant .text:has-text('You said: hello')", { timeout: WAIT });
    const want = await asStored(page, sessionId);
    const blocks = (want[0] as { content: { type: string; text?: string; source?: Json; name?: string }[] }).content;
    assert.deepEqual(
      blocks.map(({ type, text, source, name }) => ({ type, text, source, name })),
      [
        { type: "text", text: "hello", source: undefined, name: undefined },
        { type: "data", text: undefined, source: { type: "base64", media_type: "text/plain", data: Buffer.from("hi there").toString("base64") }, name: "note.txt" },
      ],
    );
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("confirm: the tool UI's approval (send disabled while it waits), Approve → 'The Bash call was approved.', as stored", TEST, async () => {
    const { page, problems } = await open();
    await type(page, "confirm");
    const sessionId = await sessionOf(page);
    await page.waitForSelector(".tool[data-tool='Bash'] button.approve", { timeout: WAIT });
    assert.equal(await status(page), "awaiting_input");
    await page.fill("#input", "more");
    assert.equal(await page.isDisabled("#send"), true, "sending is disabled while a confirmation waits");
    await page.fill("#input", "");
    await page.click(".tool[data-tool='Bash'] button.approve");
    await page.waitForSelector(".message.assistant .text:has-text('The Bash call was approved.')", { timeout: WAIT });
    assert.equal(await page.locator(".tool[data-tool='Bash'] button.approve").count(), 0);
    await asStored(page, sessionId);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("Stop during 'long 3000': the composer's cancel stops the run; the reply ends interrupted, as stored", TEST, async () => {
    const { page, problems } = await open();
    await type(page, "long 3000");
    const sessionId = await sessionOf(page);
    await page.waitForFunction(() => document.querySelectorAll(".message.assistant .text").length > 0 && document.getElementById("app")!.dataset.status === "streaming", null, { timeout: WAIT });
    await page.click("#cancel");
    const want = await asStored(page, sessionId);
    const reply = want.at(-1)!;
    assert.equal(reply.finished_reason, "interrupted");
    const text = (reply.content as Json[]).filter((b) => b.type === "text").map((b) => b.text).join("");
    assert.ok(text.length > 0 && text.length < 3000, `an interrupted reply of ${text.length} chars`);
    assert.deepEqual(problems, []);
    await page.close();
  });

  // ---------------------------------------------------------------- the thread list

  /** The agent's sessions as the service lists them: id → name. */
  async function listed(): Promise<Map<string, string>> {
    const views = (await api(service!, "GET", `/sessions/?agent_id=${encodeURIComponent(service!.agentId)}`)).sessions as Json[];
    return new Map(views.map((v) => [v.session.id as string, v.session.config.name as string]));
  }

  /** The page's thread list: id → title, in its order. */
  const shownThreads = (page: Page) =>
    page.evaluate(() => [...document.querySelectorAll("#threads .thread")].map((t) => [t.querySelector(".id")!.textContent!, t.querySelector(".trigger")!.textContent!] as [string, string]));

  async function until(what: string, ok: () => Promise<boolean>): Promise<void> {
    const t0 = Date.now();
    while (!(await ok())) {
      if (Date.now() - t0 > WAIT) assert.fail(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  const item = (page: Page, id: string) => page.locator("#threads .thread", { has: page.locator(`.id:text-is("${id}")`) });

  test("threads: the service's sessions listed; page and New make no session; the first message makes one, auto-named; switch; rename; delete", TEST, async () => {
    const before = created();
    const { page, problems } = await site!.open(`/assistant-ui.html?threads=1&${serviceQuery(service!)}`, { warnings: false });
    await page.waitForFunction(() => document.getElementById("app")?.dataset.listed !== undefined && document.getElementById("app")!.dataset.listed !== "", null, { timeout: WAIT });
    // the list is the service's (sessions of the tests above)
    const service0 = await listed();
    assert.ok(service0.size >= 3, `the earlier tests' sessions: ${service0.size}`);
    await until("the thread list", async () => JSON.stringify(await shownThreads(page)) === JSON.stringify([...service0]));
    assert.equal(await status(page), "closed", "the new thread opens no chat");
    await page.click("#new");
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(created(), before, "opening the page and pressing New make no session");
    assert.equal((await listed()).size, service0.size);

    // the first message: one session, its chat, the reply, then the auto-name as the title
    await type(page, "hello");
    await page.waitForSelector(".message.assistant .text:has-text('You said: hello')", { timeout: WAIT });
    const a = await page.evaluate(() => document.getElementById("app")!.dataset.session!);
    assert.ok(a !== "" && !service0.has(a));
    assert.equal(created(), before + 1, "exactly one POST /sessions/");
    const service1 = await listed();
    assert.deepEqual([...service1.keys()].filter((id) => !service0.has(id)), [a]);
    await until("the title 'Chat: hello'", async () => (await item(page, a).locator(".trigger").textContent()) === "Chat: hello");
    assert.equal((await listed()).get(a), "Chat: hello");
    assert.equal(await item(page, a).getAttribute("data-active"), "true");
    const storedA = await asStored(page, a);

    // a second thread
    await page.click("#new");
    await page.waitForFunction(() => document.getElementById("app")!.dataset.status === "closed" && document.querySelectorAll(".message").length === 0, null, { timeout: WAIT });
    await type(page, "second thread");
    await page.waitForSelector(".message.assistant .text:has-text('You said: second thread')", { timeout: WAIT });
    const b = await page.evaluate(() => document.getElementById("app")!.dataset.session!);
    assert.ok(b !== "" && b !== a);
    assert.equal(created(), before + 2);
    const storedB = await asStored(page, b);

    // switching shows each session's stored messages
    await item(page, a).locator(".trigger").click();
    await page.waitForFunction((id) => document.getElementById("app")!.dataset.session === id, a, { timeout: WAIT });
    assert.deepEqual(await asStored(page, a), storedA);
    await page.waitForSelector(".message.user .text:text-is('hello')", { timeout: WAIT });
    assert.equal(await page.locator(".message").count(), 2);
    await item(page, b).locator(".trigger").click();
    await page.waitForFunction((id) => document.getElementById("app")!.dataset.session === id, b, { timeout: WAIT });
    assert.deepEqual(await asStored(page, b), storedB);
    await page.waitForSelector(".message.user .text:text-is('second thread')", { timeout: WAIT });

    // rename reaches the service, and the list shows it
    await page.fill("#rename-title", "Renamed thread");
    await item(page, a).locator(".rename").click();
    await until("the renamed title", async () => (await item(page, a).locator(".trigger").textContent()) === "Renamed thread");
    assert.equal((await listed()).get(a), "Renamed thread");

    // delete the open thread: gone from the service and the list; the new thread is open
    await item(page, b).locator(".delete").click();
    await until("the deleted thread gone", async () => (await item(page, b).count()) === 0);
    assert.equal((await listed()).has(b), false);
    await page.waitForFunction(() => document.getElementById("app")!.dataset.session === "" && document.getElementById("app")!.dataset.status === "closed", null, { timeout: WAIT });
    assert.deepEqual(await shownThreads(page), [...(await listed())]);
    assert.equal(created(), before + 2, "no other session was made");
    assert.deepEqual(problems, []);
    await page.close();
  });
});
