// Many tabs of one browser on the live AgentScope 2.0.11 service (issue 38, item 1): a
// browser keeps at most 6 HTTP/1.1 connections per host and profile, and each chat held
// its event stream, so 6 tabs left a send waiting and a 7th tab did not load. The chats of
// one session now share one stream (a Web Lock picks the tab that holds it, a
// BroadcastChannel relays its frames) and hold none at rest (`idleStreamMs`).
//
// The pages load the built package (pkg/dist, or PKG_DIST: the package of another build,
// e.g. the code before this change) from one node server that also forwards `/api/*` to
// the service, over HTTP/1.1, a new upstream connection per request (no pooling, no
// multiplexing): the browser's 6-connection limit is the page's, as with the demo server.
// The server counts the event streams open at once per session.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer, request } from "node:http";
import { extname, join, normalize, resolve } from "node:path";
import { after, before, test } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { comparable, type Json, launchChromium, listenLoopback, root } from "./helpers.ts";
import { newSession, startService, stored, type Service } from "./service.ts";

const TEST = { timeout: 300_000 };
const WAIT = 60_000;
const TABS = 10;
const dist = resolve(process.env.PKG_DIST ?? join(root, "pkg/dist"));

let service: Service | undefined;
let site: { base: string; close: () => Promise<void> } | undefined;
let browser: Browser | undefined;

/**
 * Event streams open now by session (`tab#n`: the tab's X-Tab header), and the most open
 * at once for a second or more (a handover, the old connection's close and the new one's
 * request crossing on the wire, overlaps for a moment; two tabs streaming do not).
 */
const open = new Map<string, Set<string>>();
const peak = new Map<string, number>();
/** What each stream did, by session (for a failure's message). */
const streamLog = new Map<string, string[]>();
let streamsSeen = 0;

const TYPES: Record<string, string> = { ".js": "text/javascript", ".wasm": "application/wasm", ".html": "text/html", ".json": "application/json" };

const PAGE = `<!doctype html><meta charset="utf-8"><title>tab</title>
<script type="importmap">${JSON.stringify({ imports: { "#init": "/pkg/init-web.js", "#wasm": "/pkg/wasm-web.js" } })}</script>
<script type="module">
import { Chat, AgentScopeTransport } from "/pkg/chat.js";
const q = new URLSearchParams(location.search);
const config = await (await fetch("/config.json")).json();
const transport = new AgentScopeTransport({ baseUrl: "/api", userId: config.userId, agentId: config.agentId, headers: { "X-Tab": q.get("tab") } });
window.problems = [];
try {
  window.chat = await Chat.open(transport, { sessionId: q.get("session"), onError: (e) => problems.push(String(e?.message ?? e)) });
} catch (e) {
  window.openError = String(e?.message ?? e);
}
// what the chat showed since it opened: its first assistant message, and how many snapshots had a partial reply
window.seen = { first: null, partial: 0 };
window.chat?.subscribe(() => {
  const s = window.chat.getSnapshot();
  if (s.partial.length > 0) window.seen.partial += 1;
  const reply = s.messages.find((m) => m.role === "assistant");
  if (window.seen.first === null && reply !== undefined) window.seen.first = JSON.stringify(reply.content);
});
window.view = () => {
  const s = window.chat?.getSnapshot();
  return s === undefined ? null : { status: s.status, connection: s.connection, messages: s.messages, partial: s.partial, error: s.error?.message ?? null };
};
</script>`;

before(async () => {
  const started = startService({ AGENTSCOPE_SERVICE_SLOW_MS: "400", AGENTSCOPE_SERVICE_DELAY_MS: "5" });
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/tab.html") {
      res.writeHead(200, { "content-type": "text/html", "cache-control": "no-store" });
      res.end(PAGE);
      return;
    }
    if (url.pathname === "/config.json") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ userId: service!.userId, agentId: service!.agentId }));
      return;
    }
    if (url.pathname.startsWith("/pkg/")) {
      const file = normalize(join(dist, url.pathname.slice(5)));
      if (!file.startsWith(dist)) return void res.writeHead(403).end();
      try {
        const body = readFileSync(file);
        res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
        res.end(body);
      } catch {
        res.writeHead(404).end();
      }
      return;
    }
    if (!url.pathname.startsWith("/api/")) return void res.writeHead(404).end();
    const path = url.pathname.slice(4) + url.search;
    const stream = req.method === "GET" ? /^\/sessions\/([^/]+)\/stream$/.exec(url.pathname.slice(4))?.[1] : undefined;
    const tab = String(req.headers["x-tab"] ?? "?");
    const id = `${tab}#${++streamsSeen}`;
    if (stream !== undefined) {
      const now = open.get(stream) ?? new Set<string>();
      now.add(id);
      open.set(stream, now);
      const log = streamLog.get(stream) ?? [];
      streamLog.set(stream, log);
      const t0 = Date.now();
      log.push(`${t0} open ${id} (${now.size} open)`);
      setTimeout(() => {
        if (now.has(id)) peak.set(stream, Math.max(peak.get(stream) ?? 0, now.size));
      }, 1000);
      peak.set(stream, Math.max(peak.get(stream) ?? 0, 1));
      res.on("close", () => {
        now.delete(id);
        log.push(`${Date.now()} close ${id} after ${Date.now() - t0} ms`);
      });
    }
    const target = new URL(service!.url);
    // a new connection per request (agent: false): nothing pooled or multiplexed
    const up = request({ host: target.hostname, port: target.port, method: req.method, path, headers: { ...req.headers, host: target.host }, agent: false }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    up.on("error", () => res.destroy());
    res.on("close", () => up.destroy());
    req.pipe(up);
  });
  site = await listenLoopback(server);
  service = await started;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await site?.close();
  await service?.stop();
});

interface View {
  status: string;
  connection: string;
  messages: Json[];
  partial: string[];
  error: string | null;
}

const view = (page: Page): Promise<View | null> => page.evaluate(() => (window as unknown as { view?: () => View | null }).view?.() ?? null);

/** Opens `tab` on `sessionId` in `context`; resolves once its chat is open (status ready; `anyStatus`: in any status). */
async function openTab(context: BrowserContext, sessionId: string, tab: number, anyStatus = false): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${site!.base}/tab.html?session=${sessionId}&tab=${tab}`, { timeout: WAIT });
  await page.waitForFunction((any) => {
    const v = (window as unknown as { view?: () => { status: string } | null }).view?.();
    return any ? v !== null && v !== undefined : v?.status === "ready";
  }, anyStatus, { timeout: WAIT, polling: 100 });
  return page;
}

/** The text of the assistant's messages `v` shows. */
const replyText = (v: View | null): string =>
  (v?.messages ?? [])
    .filter((m) => m.role === "assistant")
    .map((m) => JSON.stringify(m.content))
    .join("");

/** Waits until `page` is at rest and shows what the service stored for `sessionId`; returns what it showed last. */
async function untilEqual(page: Page, sessionId: string, what: string, minMessages: number): Promise<Json[]> {
  const deadline = Date.now() + WAIT;
  let last: View | null = null;
  let want: Json[] = [];
  for (;;) {
    want = comparable(await stored(service!, sessionId));
    last = await view(page);
    if (last !== null && last.status === "ready" && last.partial.length === 0 && want.length >= minMessages) {
      try {
        assert.deepEqual(comparable(last.messages), want);
        return want;
      } catch {
        // not yet
      }
    }
    if (Date.now() > deadline) {
      assert.fail(`${what}: not equal to the store in ${WAIT} ms: status ${last?.status}, connection ${last?.connection}, ${last?.messages.length} messages (stored ${want.length}), error ${last?.error}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Waits until `page` shows an assistant text with `needle`. */
async function untilText(page: Page, needle: string): Promise<void> {
  const deadline = Date.now() + WAIT;
  while (!replyText(await view(page)).includes(needle)) {
    assert.ok(Date.now() < deadline, `${needle} shown (${replyText(await view(page)).slice(-80)})`);
    await new Promise((r) => setTimeout(r, 30));
  }
}

/** What `page`'s chat showed since it opened (see PAGE). */
const seen = (page: Page): Promise<{ first: string | null; partial: number }> => page.evaluate(() => (window as unknown as { seen: { first: string | null; partial: number } }).seen);

/** Sends `text` from `page` (resolves once the POST is answered). */
async function send(page: Page, text: string): Promise<void> {
  await page.evaluate((t) => (window as unknown as { chat: { send(t: string): Promise<void> } }).chat.send(t), text);
}

test("10 tabs on one session: all load, a send from tab 1 and from tab 10 is answered in every tab, one stream", TEST, async () => {
  const context = await browser!.newContext();
  try {
    const sessionId = await newSession(service!);
    const pages: Page[] = [];
    for (let i = 1; i <= TABS; i++) pages.push(await openTab(context, sessionId, i));
    for (const [from, text] of [[0, "slow one"], [TABS - 1, "think two"]] as const) {
      await send(pages[from]!, text);
      const want = await untilEqual(pages[from]!, sessionId, `tab ${from + 1} (the sender)`, 0);
      assert.ok(want.some((m) => m.role === "assistant" && JSON.stringify(m.content).includes(text.startsWith("slow") ? "s19" : "I thought about it.")), `the reply to ${text} is stored`);
      for (const [i, page] of pages.entries()) await untilEqual(page, sessionId, `tab ${i + 1} after the send of ${text}`, want.length);
    }
    assert.equal((await stored(service!, sessionId)).length, 4);
    assert.ok((peak.get(sessionId) ?? 0) <= 1, `at most one event stream of the session at once (${peak.get(sessionId)}): ${streamLog.get(sessionId)?.join("; ")}`);
    for (const page of pages) assert.deepEqual(await page.evaluate(() => (window as unknown as { problems: string[] }).problems), []);
  } finally {
    await context.close();
  }
});

test("10 tabs on 10 sessions: all load, sends from tab 10 and tab 3 are answered, each tab equals its store, one stream per session", TEST, async () => {
  const context = await browser!.newContext();
  try {
    const sessions: string[] = [];
    const pages: Page[] = [];
    for (let i = 1; i <= TABS; i++) {
      sessions.push(await newSession(service!));
      pages.push(await openTab(context, sessions[i - 1]!, i));
    }
    for (const [at, text] of [[TABS - 1, "slow ten"], [2, "think three"]] as const) {
      await send(pages[at]!, text);
      const want = await untilEqual(pages[at]!, sessions[at]!, `tab ${at + 1}`, 2);
      assert.equal(want.length, 2, `tab ${at + 1}: its turn and the reply`);
    }
    for (const [i, page] of pages.entries()) {
      const want = await untilEqual(page, sessions[i]!, `tab ${i + 1}`, 0);
      assert.equal(want.length, i === TABS - 1 || i === 2 ? 2 : 0);
    }
    for (const s of sessions) assert.ok((peak.get(s) ?? 0) <= 1, `at most one event stream of session ${s} at once (${peak.get(s)})`);
    // at rest (idleStreamMs after), no tab holds a stream: connections stay free for the requests
    const deadline = Date.now() + 15_000;
    let views = await Promise.all(pages.map(view));
    while (views.some((v) => v?.connection !== "idle") && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      views = await Promise.all(pages.map(view));
    }
    assert.deepEqual(views.map((v) => v?.connection), Array(TABS).fill("idle"));
    assert.equal([...open.values()].reduce((n, s) => n + s.size, 0), 0, "no event stream open at rest");
  } finally {
    await context.close();
  }
});

test("the tab holding the stream closes mid-reply: another takes it over, every tab still ends equal to the store", TEST, async () => {
  const context = await browser!.newContext();
  try {
    const sessionId = await newSession(service!);
    const pages: Page[] = [];
    for (let i = 1; i <= 4; i++) pages.push(await openTab(context, sessionId, i));
    await send(pages[1]!, "slow failover");
    // the reply is under way and one tab holds the stream
    const deadline = Date.now() + WAIT;
    let holder: string | undefined;
    for (;;) {
      const v = await view(pages[3]!);
      const text = JSON.stringify(v?.messages ?? []);
      holder = [...(open.get(sessionId) ?? [])][0]?.split("#")[0];
      if (holder !== undefined && text.includes("s3 ")) break;
      assert.ok(Date.now() < deadline, "the reply streams in tab 4");
      await new Promise((r) => setTimeout(r, 50));
    }
    const leader = Number(holder) - 1;
    assert.ok(leader >= 0 && leader < 4, `the holder is a tab (${holder})`);
    assert.ok(!JSON.stringify((await view(pages[3]!))?.messages).includes("s19"), "closed mid-reply");
    await pages[leader]!.close();
    const rest = pages.filter((_, i) => i !== leader);
    let want: Json[] = [];
    for (const [i, page] of rest.entries()) want = await untilEqual(page, sessionId, `remaining tab ${i + 1}`, 2);
    assert.ok(JSON.stringify(want).includes("s19"), "the whole reply is stored");
    assert.ok((peak.get(sessionId) ?? 0) <= 1, `at most one event stream of the session at once (${peak.get(sessionId)}): ${streamLog.get(sessionId)?.join("; ")}`);
    // the lock passed: another tab connected (from its own cursor) after the holder went
    const log = streamLog.get(sessionId) ?? [];
    // (the new request and the old connection's close may cross on the wire: after its open)
    const heldFrom = log.findIndex((l) => l.includes(` open ${holder}#`));
    assert.ok(log.some((l) => l.includes(` close ${holder}#`)), `the holder's stream closed: ${log.join("; ")}`);
    assert.ok(heldFrom >= 0 && log.slice(heldFrom).some((l) => / open (\d+)#/.exec(l)?.[1] !== undefined && !l.includes(` open ${holder}#`)), `another tab took the stream over: ${log.join("; ")}`);
  } finally {
    await context.close();
  }
});

test("a tab opened mid-reply shows the reply from its start at once (the holder catches it up), then equal to the store", TEST, async () => {
  const context = await browser!.newContext();
  try {
    const sessionId = await newSession(service!);
    const first = await openTab(context, sessionId, 1);
    await send(first, "slow catch up");
    const deadline = Date.now() + WAIT;
    while (!replyText(await view(first)).includes("s1 ")) {
      assert.ok(Date.now() < deadline, "the reply streams in tab 1");
      await new Promise((r) => setTimeout(r, 50));
    }
    const late = await openTab(context, sessionId, 2, true);
    // the first view of tab 2 that shows the reply: from its first delta on, whole, mid-reply
    let shown: View | null = null;
    for (;;) {
      shown = await view(late);
      if (replyText(shown) !== "") break;
      assert.ok(Date.now() < deadline, "tab 2 shows the reply");
      await new Promise((r) => setTimeout(r, 25));
    }
    const text = replyText(shown);
    assert.ok(!text.includes("s19 "), `tab 2 saw the reply before it ended (else this test shows nothing): ${text}`);
    assert.ok(text.includes("s0 s1 "), `tab 2 shows the reply from its start: ${text}`);
    assert.deepEqual(shown!.partial, [], "nothing of the reply is missing in tab 2");
    const want = await untilEqual(first, sessionId, "tab 1", 2);
    assert.ok(JSON.stringify(want).includes("s19"), "the whole reply is stored");
    await untilEqual(late, sessionId, "tab 2", 2);
    assert.ok((peak.get(sessionId) ?? 0) <= 1, `at most one event stream of the session at once (${peak.get(sessionId)}): ${streamLog.get(sessionId)?.join("; ")}`);
    for (const page of [first, late]) assert.deepEqual(await page.evaluate(() => (window as unknown as { problems: string[] }).problems), []);
  } finally {
    await context.close();
  }
});

test("the holder closes mid-way through a reply longer than the service's replay log, then a tab comes: it shows the reply whole from its start (the tab that took over had it relayed)", TEST, async () => {
  const context = await browser!.newContext();
  try {
    const sessionId = await newSession(service!);
    const pages = [await openTab(context, sessionId, 1), await openTab(context, sessionId, 2)];
    await send(pages[0]!, "long 3000");
    await untilText(pages[1]!, "w1200 ");
    const holder = Number([...(open.get(sessionId) ?? [])][0]?.split("#")[0]) - 1;
    assert.ok(holder === 0 || holder === 1, `a tab holds the stream (${holder + 1})`);
    await pages[holder]!.close();
    const survivor = pages[1 - holder]!;
    // (its own connection replays the service's last 1,000 events only: it starts mid-reply)
    await untilText(survivor, "w1900 ");
    const late = await openTab(context, sessionId, 3, true);
    const deadline = Date.now() + WAIT;
    while ((await seen(late)).first === null) {
      assert.ok(Date.now() < deadline, "the late tab shows the reply");
      await new Promise((r) => setTimeout(r, 25));
    }
    const first = (await seen(late)).first!;
    assert.ok(!first.includes("w2999 "), `the late tab came before the reply ended (else this test shows nothing): ${first.slice(-80)}`);
    assert.ok(first.includes('"text":"w0 w1 w2 '), `the late tab shows the reply from its start: ${first.slice(0, 80)}`);
    const want = await untilEqual(survivor, sessionId, "the tab that took over", 2);
    assert.ok(JSON.stringify(want).includes("w2999 "), "the whole reply is stored");
    await untilEqual(late, sessionId, "the late tab", 2);
    // (the survivor's own connection replays from mid-reply: it is marked partial, as any
    // such replay, until the stored reply replaces it; the late tab had the whole reply)
    assert.equal((await seen(late)).partial, 0, "the late tab never showed the reply partial");
    assert.ok((peak.get(sessionId) ?? 0) <= 1, `at most one event stream of the session at once (${peak.get(sessionId)}): ${streamLog.get(sessionId)?.join("; ")}`);
  } finally {
    await context.close();
  }
});

test("a tab following another tab's run shows that tab's turn while the reply streams", TEST, async () => {
  const context = await browser!.newContext();
  try {
    const sessionId = await newSession(service!);
    const [sender, follower] = [await openTab(context, sessionId, 1), await openTab(context, sessionId, 2)];
    await send(sender, "slow question");
    await untilText(follower, "s2 ");
    const shown = (await view(follower))!;
    assert.ok(!replyText(shown).includes("s19 "), "mid-reply");
    assert.deepEqual(
      shown.messages.map((m) => (m.role === "user" ? `user ${JSON.stringify(m.content[0]?.text)}` : m.role)),
      ['user "slow question"', "assistant"],
      "the follower shows the sender's turn above the reply",
    );
    for (const page of [sender, follower]) await untilEqual(page, sessionId, "a tab", 2);
  } finally {
    await context.close();
  }
});

test("a stop from another tab before the reply started: the sender's turn, dropped by the service, goes quietly", TEST, async () => {
  const context = await browser!.newContext();
  try {
    const sessionId = await newSession(service!);
    const [sender, stopper] = [await openTab(context, sessionId, 1), await openTab(context, sessionId, 2)];
    // the stopper stops as soon as it sees the run (the sender's wake), before its reply starts
    const stopped = stopper.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const chat = (window as unknown as { chat: { status: string; subscribe(f: () => void): () => void; stop(): Promise<void> } }).chat;
          const off = chat.subscribe(() => {
            if (chat.status === "ready") return;
            off();
            const was = chat.status;
            chat.stop().then(() => resolve(was), (e: unknown) => resolve(`refused: ${String(e)}`));
          });
        }),
    );
    await send(sender, "slow stop me");
    assert.equal(await stopped, "streaming", "the stopper stopped the run it saw");
    // the service dropped the turn, or stored it with an interrupted reply: either way every
    // tab ends equal to the store, at rest, with no error (not run_lost after lostRunMs)
    for (const page of [sender, stopper]) await untilEqual(page, sessionId, "a tab", 0);
    for (const page of [sender, stopper]) assert.equal((await view(page))!.error, null);
    for (const page of [sender, stopper]) assert.deepEqual(await page.evaluate(() => (window as unknown as { problems: string[] }).problems), []);
  } finally {
    await context.close();
  }
});
