// `agentscope-message/vue`, `agentscope-message/svelte` and `agentscope-message/angular` in
// Chromium against the live AgentScope 2.0.11 service, with the package as users get it
// (`npm pack`, installed into a scratch consumer), pages in tests/chat-app/ (ChatVue.vue,
// ChatSvelte.svelte, angular-main.js; with `?sessions` SessionsVue.vue, SessionsSvelte.svelte
// and angular-main.js's SessionsPage: the session list beside a chat whose session the test
// switches) served by Vite 8's dev server and built by Vite 8 (with @vitejs/plugin-vue and
// @sveltejs/vite-plugin-svelte; Angular compiles its components in the page, JIT). One node server serves the pages
// and forwards `/api/*` to the service (same origin: the service has no CORS), counting
// requests and the event streams open (tests/ts/vite-app.ts). Every scenario ends with the
// page's messages equal to the stored ones, and its session list equal to the service's.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { svelte } from "@sveltejs/vite-plugin-svelte";
import vue from "@vitejs/plugin-vue";
import type { Page } from "playwright-core";
import { comparable, type Json } from "./helpers.ts";
import { api, newSession, sendUser, startService, stored, type Service } from "./service.ts";
import { serviceQuery, startViteApp, watchPage, type ViteApp } from "./vite-app.ts";

const WAIT = 90_000;
const TEST = { timeout: 300_000 };

let service: Service | undefined;
let site: ViteApp | undefined;

before(async () => {
  const started = startService({ AGENTSCOPE_SERVICE_DELAY_MS: "1" });
  started.catch(() => {});
  site = await startViteApp({
    name: "frameworks",
    pages: ["vue.html", "svelte.html", "angular.html"],
    config: () => ({ plugins: [vue(), svelte({ configFile: false })] }),
    dev: true,
    api: () => service!.url,
  });
  service = await started;
});

after(async () => {
  await site?.close();
  await service?.stop();
});

interface Shown {
  status: string;
  connection: string;
  sessionId: string;
  error: string;
  pending: string[];
  messages: Json[];
}
declare const app: { send(text: string): Promise<void>; stop(): Promise<void>; confirm(id: string, yes: boolean): Promise<void>; rawSessionId(): string | null; statusRuns?: number };
declare const mountNow: () => void;
/** An action's outcome in the page: its value, or the MsgError's code and message. */
type Settled = { value?: Json; error?: string; message?: string };
/** What SessionsVue.vue / SessionsSvelte.svelte / angular-main.js's SessionsPage put on `window`. */
declare const sessionsPage: {
  open(id: string | null): void;
  send(text: string): Promise<Settled>;
  chats(): { sessionId: string; connection: string }[];
  views(): { sessionId: string | null; status: string; ids: string[] }[];
  create(o: { name: string }): Promise<Settled>;
  rename(id: string, name: string): Promise<Settled>;
  remove(id: string): Promise<Settled>;
};

interface Opened {
  page: Page;
  problems: string[];
  /** The `.wasm` requests the page made, in order. */
  wasm: string[];
}

const frameworks = ["vue", "svelte", "angular"] as const;
const modes = ["dev", "build"] as const;
type Framework = (typeof frameworks)[number];
type Mode = (typeof modes)[number];

function pageUrl(framework: Framework, mode: Mode, extra = ""): string {
  return `${site!.base}${mode === "dev" ? "/dev/" : "/"}${framework}.html?${serviceQuery(service!)}${extra}`;
}

async function openPage(url: string, page?: Page): Promise<Opened> {
  const given = page ?? (await site!.browser.newPage());
  const opened: Opened = { page: given, problems: watchPage(given), wasm: [] };
  opened.page.on("request", (r) => {
    if (new URL(r.url()).pathname.endsWith(".wasm")) opened.wasm.push(r.url());
  });
  await opened.page.goto(url);
  return opened;
}

const shown = (page: Page): Promise<Shown> =>
  page.evaluate(() => {
    const main = document.getElementById("app");
    if (main === null) return { status: "", connection: "", sessionId: "", error: "", pending: [], messages: [] };
    const pending = main.dataset.pending ?? "";
    return {
      status: main.dataset.status ?? "",
      connection: main.dataset.connection ?? "",
      sessionId: main.dataset.session ?? "",
      error: main.dataset.error ?? "",
      pending: pending === "" ? [] : pending.split(","),
      messages: JSON.parse(document.getElementById("messages")!.textContent || "[]"),
    };
  });

async function waitShown(page: Page, ok: (s: Shown) => boolean, what: string): Promise<Shown> {
  const t0 = Date.now();
  for (;;) {
    const s = await shown(page);
    if (ok(s)) return s;
    if (Date.now() - t0 > WAIT) throw new Error(`timed out waiting for ${what}: ${JSON.stringify({ ...s, messages: s.messages.length })}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until the page is `ready` with the stored messages; returns them. */
async function settledAsStored(page: Page, sessionId: string): Promise<Json[]> {
  const t0 = Date.now();
  for (;;) {
    const s = await shown(page);
    const want = comparable(await stored(service!, sessionId));
    if (s.status === "ready" && JSON.stringify(comparable(s.messages)) === JSON.stringify(want)) return want;
    if (Date.now() - t0 > WAIT) {
      assert.deepEqual(comparable(s.messages), want);
      assert.equal(s.status, "ready");
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

const texts = (msg: Json): string[] => (msg.content as Json[]).filter((b) => b.type === "text").map((b) => b.text);
const streams = (sessionId: string): number => site!.requests.filter((r) => r === `GET /sessions/${sessionId}/stream`).length;

/** The agent's sessions as the service lists them (`GET /sessions/`). */
const listed = async (): Promise<Json[]> => (await api(service!, "GET", `/sessions/?agent_id=${encodeURIComponent(service!.agentId)}`)).sessions;

/** A new session with one turn (`text`) answered and stored, the run over; resolves its id. */
async function sessionWith(text: string): Promise<string> {
  const sessionId = await newSession(service!);
  await sendUser(service!, sessionId, text);
  const t0 = Date.now();
  for (;;) {
    const last = (await stored(service!, sessionId)).at(-1);
    const view = (await listed()).find((v) => v.session.id === sessionId);
    if (last?.role === "assistant" && last.finished_reason !== null && view?.status !== "running") return sessionId;
    if (Date.now() - t0 > WAIT) throw new Error(`timed out waiting for the reply to ${text} in ${sessionId}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until the event streams open through the test server are those of `sessionIds`. */
async function streamsOpen(sessionIds: string[]): Promise<void> {
  const want = sessionIds.map((id) => `/sessions/${id}/stream`).sort();
  const t0 = Date.now();
  while (JSON.stringify(site!.openStreams().sort()) !== JSON.stringify(want) && Date.now() - t0 < WAIT) await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(site!.openStreams().sort(), want, "the event streams open");
}

/** Waits until no `/api` request came for 500 ms (the `session_updated` a chat's stream replays as it connects lists the sessions once more). */
async function quiet(): Promise<void> {
  for (let seen = -1; seen !== site!.requests.length; ) {
    seen = site!.requests.length;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Waits until the page lists what the service lists (the whole JSON of each session, in order); returns it. */
async function listedAsService(page: Page): Promise<Json[]> {
  const t0 = Date.now();
  for (;;) {
    const loading = await page.evaluate(() => document.getElementById("app")?.dataset.loading);
    const mine = JSON.parse((await page.textContent("#sessions")) ?? "[]");
    const theirs = await listed();
    if (loading === "false" && JSON.stringify(mine) === JSON.stringify(theirs)) return theirs;
    if (Date.now() - t0 > WAIT) {
      assert.deepEqual(mine, theirs);
      assert.equal(loading, "false");
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Opens the page (a new chat: ready, no session yet), sends `text`; resolves once the chat shows the session its send made. */
async function sendOn(framework: Framework, mode: Mode, text: string): Promise<Opened & { sessionId: string }> {
  const opened = await openPage(pageUrl(framework, mode));
  await waitShown(opened.page, (s) => s.status === "ready" && s.sessionId === "", "the new chat");
  await opened.page.evaluate((t) => app.send(t), text);
  const { sessionId } = await waitShown(opened.page, (s) => s.sessionId !== "", "the session the send made");
  return { ...opened, sessionId };
}

declare const injectorChecks: () => Promise<{ outside: string; destroyed: string; sessionId: string; before: string; after: string }>;

test("angular: injectChat outside an injection context is Angular's NG0203, with a destroyed injector NG0205 (nothing opened); with { injector } the chat closes with that injector", TEST, async () => {
  const { page, problems } = await openPage(pageUrl("angular", "dev"));
  try {
    await waitShown(page, (s) => s.status === "ready", "the page's own chat (new: nothing asked)");
    const from = site!.requests.length;
    const checked = await page.evaluate(() => injectorChecks());
    assert.match(checked.outside, /^NG0203: injectChat\(\) can only be used within an injection context/);
    assert.match(checked.destroyed, /^NG0205: Injector has already been destroyed/);
    // (one chat opened: the one with the live injector, its session made by its send)
    assert.deepEqual(site!.requests.slice(from).filter((r) => r === "POST /sessions/"), ["POST /sessions/"]);
    assert.match(checked.sessionId, /^[0-9a-f]{32}$/);
    assert.deepEqual([checked.before, checked.after], ["open", "closed"]);
    // (the page's own chat is new: no session, no stream; the injector's chat closed)
    assert.equal((await shown(page)).sessionId, "");
    await streamsOpen([]);
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
    await streamsOpen([]);
  }
});

test("angular: the docs' component, its sessionId a required input bound by its parent, opens that session only (no session made first); an empty userId is status error, invalid_argument, with no request", TEST, async () => {
  const sessionId = await sessionWith("hello");
  const want = comparable(await stored(service!, sessionId));
  const from = site!.requests.length;
  const { page, problems } = await openPage(pageUrl("angular", "dev", `&child=${sessionId}`));
  try {
    await waitShown(page, (s) => s.sessionId === sessionId && s.status === "ready", "the bound session's chat");
    assert.deepEqual(await settledAsStored(page, sessionId), want);
    assert.deepEqual(site!.requests.slice(from).filter((r) => !r.startsWith("GET ")), [], "nothing posted: no session made");
    await streamsOpen([sessionId]);
    await quiet(); // (the chat's own record loads, after the session_updated its stream replays)
    const bad = site!.requests.length;
    await openPage(pageUrl("angular", "dev", `&child=${sessionId}&baduser`), page);
    const refused = await waitShown(page, (s) => s.status === "error", "the refused options");
    assert.equal(refused.error, "invalid_argument");
    await streamsOpen([]);
    assert.deepEqual(site!.requests.slice(bad), [], "no request");
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});

for (const mode of modes) {
  for (const framework of frameworks) {
    const name = `${framework} (${mode === "dev" ? "Vite dev server" : "Vite build"})`;

    test(`${name}: the .wasm is not requested before the component mounts, nor before the new chat's first send; one stream per mounted chat; send`, TEST, async () => {
      const opened = await openPage(pageUrl(framework, mode, "&defer"));
      await opened.page.waitForFunction(() => typeof mountNow === "function", undefined, { timeout: WAIT });
      await new Promise((r) => setTimeout(r, 500));
      assert.deepEqual(opened.wasm, [], "no .wasm before the component mounts");
      await opened.page.evaluate(() => mountNow());
      await waitShown(opened.page, (s) => s.status === "ready", "the new chat");
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(opened.wasm, [], "no .wasm before the first send");
      assert.equal(await opened.page.evaluate(() => app.rawSessionId()), null, "no raw chat yet");
      await opened.page.evaluate(() => app.send("hello"));
      const { sessionId } = await waitShown(opened.page, (s) => s.sessionId !== "", "the session the send made");
      assert.equal(opened.wasm.length, 1, "the .wasm once the chat opens");
      assert.equal(await opened.page.evaluate(() => app.rawSessionId()), sessionId, "the raw chat's methods and fields work");
      await waitShown(opened.page, (s) => s.messages.length === 2, "the reply");
      const want = await settledAsStored(opened.page, sessionId);
      assert.deepEqual(want.map((m) => m.role), ["user", "assistant"]);
      assert.deepEqual(texts(want[1]), ["You said: hello"]);
      assert.equal(streams(sessionId), 1, "one event stream for the mounted chat");
      assert.deepEqual(opened.problems, []);
      await opened.page.close();
    });

    test(`${name}: long 300 streams, then stop mid-reply keeps the text so far`, TEST, async () => {
      const { page, problems, sessionId } = await sendOn(framework, mode, "long 300");
      await waitShown(page, (s) => s.status === "streaming" && JSON.stringify(s.messages).includes("w20 "), "the reply streaming");
      await page.evaluate(() => app.stop());
      const want = await settledAsStored(page, sessionId);
      const reply = want.at(-1);
      assert.equal(reply.finished_reason, "interrupted");
      const text = texts(reply).join("");
      assert.ok(text.startsWith("w0 w1 w2 ") && !text.includes("w299"), `partial: ${text.length} chars`);
      assert.equal(streams(sessionId), 1);
      assert.deepEqual(problems, []);
      await page.close();
    });

    if (framework === "svelte") {
      test(`${name}: a store per value: an effect reading $status runs per status change, not per delta, over long 300`, TEST, async () => {
        const { page, problems, sessionId } = await sendOn(framework, mode, "long 300");
        const want = await settledAsStored(page, sessionId);
        assert.ok(texts(want.at(-1)).join("").includes("w299"));
        // connecting, ready, then submitted, streaming, ready: a few runs (an effect reading
        // `$chat.status` instead ran 34 and 49 times here: once per throttled update)
        const runs = await page.evaluate(() => app.statusRuns ?? 0);
        assert.ok(runs >= 3 && runs <= 8, `the effect ran ${runs} times`);
        assert.deepEqual(problems, []);
        await page.close();
      });
    }

    test(`${name}: confirm, approved`, TEST, async () => {
      const { page, problems, sessionId } = await sendOn(framework, mode, "confirm");
      const parked = await waitShown(page, (s) => s.status === "awaiting_input" && s.pending.length === 1, "the confirmation");
      await page.evaluate((id) => app.confirm(id, true), parked.pending[0]!);
      const want = await settledAsStored(page, sessionId);
      assert.equal(texts(want.at(-1)).at(-1), "The Bash call was approved.");
      assert.deepEqual(problems, []);
      await page.close();
    });

    test(`${name}: long 300 streams; a reload with the session id mid-reply resumes the reply, to the end`, TEST, async () => {
      const { page, problems, sessionId } = await sendOn(framework, mode, "long 300");
      const seen = await waitShown(page, (s) => s.status === "streaming" && s.messages.length === 2, "the reply streaming");
      assert.equal(seen.messages[1].role, "assistant");
      assert.equal(streams(sessionId), 1);
      await openPage(pageUrl(framework, mode, `&session=${encodeURIComponent(sessionId)}`), page);
      const resumed = await waitShown(page, (s) => s.sessionId === sessionId, "the resumed chat");
      assert.equal(resumed.sessionId, sessionId);
      const want = await settledAsStored(page, sessionId);
      assert.equal(want.filter((m) => m.role === "assistant").length, 1, "one reply");
      assert.ok(texts(want.at(-1)).join("").includes("w299"));
      assert.equal(want.at(-1).finished_reason, "completed");
      assert.equal(streams(sessionId), 2, "one stream per mounted chat (before and after the reload)");
      assert.deepEqual(problems.filter((p) => !/net::ERR_ABORTED|Failed to fetch|aborted/i.test(p)), []);
      await page.close();
    });

    test(`${name}: sessionId to another session (its stored messages, one stream, the first chat closed), to null (closed, no request), back (sends go to it)`, TEST, async () => {
      const first = await sessionWith("hello");
      const second = await sessionWith("think");
      const storedFirst = comparable(await stored(service!, first));
      const storedSecond = comparable(await stored(service!, second));
      assert.deepEqual(texts(storedSecond[1]), ["I thought about it."]);
      const { page, problems } = await openPage(pageUrl(framework, mode, `&sessions&session=${first}`));
      await waitShown(page, (s) => s.sessionId === first && s.connection === "open", "the first session's chat");
      assert.deepEqual(await settledAsStored(page, first), storedFirst);
      await streamsOpen([first]);

      await page.evaluate((id) => sessionsPage.open(id), second);
      await waitShown(page, (s) => s.sessionId === second && s.connection === "open", "the second session's chat");
      assert.deepEqual(await settledAsStored(page, second), storedSecond);
      await streamsOpen([second]);
      assert.deepEqual([streams(first), streams(second)], [1, 1]);
      assert.deepEqual(await page.evaluate(() => sessionsPage.chats()), [
        { sessionId: first, connection: "closed" },
        { sessionId: second, connection: "open" },
      ]);

      await quiet();
      const from = site!.requests.length;
      await page.evaluate(() => sessionsPage.open(null));
      const none = await waitShown(page, (s) => s.status === "closed", "no chat open");
      assert.deepEqual(none, { status: "closed", connection: "closed", sessionId: "", error: "", pending: [], messages: [] });
      const refused = await page.evaluate(() => sessionsPage.send("nobody hears this"));
      assert.equal(refused.error, "closed", refused.message);
      await new Promise((r) => setTimeout(r, 500));
      assert.deepEqual(site!.requests.slice(from), [], "no request with sessionId null");
      await streamsOpen([]);
      assert.deepEqual((await page.evaluate(() => sessionsPage.chats())).map((c) => c.connection), ["closed", "closed"]);

      await page.evaluate((id) => sessionsPage.open(id), first);
      await waitShown(page, (s) => s.sessionId === first && s.connection === "open", "the first session's chat again");
      assert.deepEqual(await settledAsStored(page, first), storedFirst);
      await streamsOpen([first]);
      assert.equal(streams(first), 2, "a stream of its own");
      const posts = site!.requests.length;
      const sent = await page.evaluate(() => sessionsPage.send("again"));
      assert.equal(sent.error, undefined, sent.message);
      await waitShown(page, (s) => s.messages.length === 4, "the reply to again");
      const now = await settledAsStored(page, first);
      assert.deepEqual(now.slice(0, 2), storedFirst);
      assert.deepEqual(texts(now[3]), ["You said: again"]);
      assert.deepEqual(site!.requests.slice(posts).filter((r) => !r.startsWith("GET ")), ["POST /chat/"]);
      assert.deepEqual(await page.evaluate(() => sessionsPage.chats()), [
        { sessionId: first, connection: "closed" },
        { sessionId: second, connection: "closed" },
        { sessionId: first, connection: "open" },
      ]);
      // every view the page got: a session's id with its own messages only, none while no chat was open
      const views = await page.evaluate(() => sessionsPage.views());
      assert.ok(views.some((v) => v.status === "closed") && views.some((v) => v.sessionId === second));
      for (const v of views) {
        const own = v.sessionId === first ? now : v.sessionId === second ? storedSecond : [];
        assert.ok(v.ids.every((id) => own.some((m) => m.id === id)), `a view mixing sessions: ${JSON.stringify(v)}`);
      }
      assert.deepEqual(problems, []);
      await page.close();
    });

    test(`${name}: a page whose chat has no sessionId makes no session until Send; Send makes one, shows the reply as stored, and the session list hears it and its auto-name with no refresh by the app`, TEST, async () => {
      const from = site!.requests.length;
      const { page, problems } = await openPage(pageUrl(framework, mode, "&sessions&new"));
      const fresh = await waitShown(page, (s) => s.status === "ready", "the new chat");
      assert.deepEqual(fresh, { status: "ready", connection: "closed", sessionId: "", error: "", pending: [], messages: [] });
      await listedAsService(page);
      await quiet();
      assert.deepEqual(site!.requests.slice(from).filter((r) => r !== "GET /sessions/"), [], "nothing but the list: no POST /sessions/ before Send");
      const before = await listed();
      const sent = site!.requests.length;
      const done = await page.evaluate(() => sessionsPage.send("hello"));
      assert.equal(done.error, undefined, done.message);
      const { sessionId } = await waitShown(page, (s) => s.sessionId !== "", "the session the send made");
      assert.ok(!before.some((v) => v.session.id === sessionId), "a session made by the send");
      assert.deepEqual(site!.requests.slice(sent).filter((r) => r === "POST /sessions/" || r === "POST /chat/"), ["POST /sessions/", "POST /chat/"]);
      const want = await settledAsStored(page, sessionId);
      assert.deepEqual(want.map((m) => m.role), ["user", "assistant"]);
      assert.deepEqual(texts(want[1]), ["You said: hello"]);
      const names = async (): Promise<string | undefined> =>
        (JSON.parse((await page.textContent("#sessions")) ?? "[]") as Json[]).find((v) => v.session.id === sessionId)?.session.config.name;
      const until = async (what: string, ok: (name: string | undefined) => boolean): Promise<void> => {
        const t0 = Date.now();
        while (!ok(await names())) {
          if (Date.now() - t0 > WAIT) throw new Error(`timed out waiting for ${what}: ${await names()}`);
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      await until("the new session in the list", (n) => n !== undefined);
      // the service names the session after its first turn; the page's list shows the name
      await until("the auto-name in the list", (n) => n === "Chat: hello");
      assert.deepEqual((await listedAsService(page)).find((v) => v.session.id === sessionId)?.session.config.name, "Chat: hello");
      assert.ok(!(await page.evaluate(() => sessionsPage.views())).some((v) => v.status === "error"));
      assert.deepEqual(problems, []);
      await page.close();
    });

    test(`${name}: ${{ vue: "useSessions", svelte: "createSessions", angular: "injectSessions" }[framework]} lists, creates, renames, removes; the list is the service's GET /sessions/ after each`, TEST, async () => {
      await newSession(service!, { name: `made before the ${name} page` });
      const from = site!.requests.length;
      const { page, problems } = await openPage(pageUrl(framework, mode, "&sessions"));
      assert.ok((await listedAsService(page)).some((v) => v.session.config.name === `made before the ${name} page`));
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(site!.requests.slice(from), ["GET /sessions/"], "one list; the chat of sessionId null asks nothing");
      assert.equal((await shown(page)).status, "closed");

      let mark = site!.requests.length;
      const made = await page.evaluate((n) => sessionsPage.create({ name: n }), `made by ${name}`);
      assert.equal(made.error, undefined, made.message);
      const id = made.value as string;
      const afterCreate = (await listedAsService(page)).find((v) => v.session.id === id);
      assert.equal(afterCreate?.session.config.name, `made by ${name}`);
      assert.equal(afterCreate.session.config.chat_model_config.credential_id, service!.info.chat_model_config.credential_id, "the options' session is the body");
      assert.deepEqual(site!.requests.slice(mark), ["POST /sessions/", "GET /sessions/"]);

      mark = site!.requests.length;
      const renamed = await page.evaluate(([sid, n]) => sessionsPage.rename(sid, n), [id, `renamed by ${name}`] as const);
      assert.equal(renamed.value?.config.name, `renamed by ${name}`, renamed.message);
      assert.equal((await listedAsService(page)).find((v) => v.session.id === id)?.session.config.name, `renamed by ${name}`);
      assert.deepEqual(site!.requests.slice(mark), [`PATCH /sessions/${id}`, "GET /sessions/"]);

      mark = site!.requests.length;
      const removed = await page.evaluate((sid) => sessionsPage.remove(sid), id);
      assert.equal(removed.error, undefined, removed.message);
      assert.ok(!(await listedAsService(page)).some((v) => v.session.id === id), "gone from the list");
      assert.deepEqual(site!.requests.slice(mark), [`DELETE /sessions/${id}`, "GET /sessions/"]);
      assert.deepEqual(problems, []);
      await page.close();
    });
  }
}
