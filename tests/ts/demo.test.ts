// The web demo in real Chromium (playwright-core, Debian's /usr/bin/chromium): the page
// plays real recordings over SSE (bytes into one `Session`), and what each bubble shows
// equals what the Rust CLI rebuilds from the same recording — the frontend and the
// backend agree. Logs are only ever framed by the package (`splitEvents`) or the CLI.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { isDeepStrictEqual } from "node:util";
import type { Browser, Page } from "playwright-core";
import { splitEvents } from "../../pkg/dist/index.js";
import { startAgentScopeService, startDemoServer, type LiveService } from "../../web-demo/server.mjs";
import { type Json, launchChromium, nullRecordingVolatiles, root, thaw } from "./helpers.ts";
import { stored, type Service } from "./service.ts";

const out = join(root, "web-demo/out");
let browser: Browser;
let server: { url: string; close: () => Promise<void> };

before(async () => {
  mkdirSync(out, { recursive: true });
  server = await startDemoServer({ port: 0 });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** What the Rust CLI rebuilds from a stream (a file, or bytes on stdin): one message per reply. */
function cli(file: string, input?: Buffer): Json[] {
  const stdout = execFileSync("cargo", ["run", "-q", "--features", "cli", "--bin", "agentscope-message", "--", "replay", "--all", input ? "-" : file], {
    cwd: root,
    encoding: "utf8",
    input,
  });
  return JSON.parse(stdout);
}

/** What the Rust CLI rebuilds from a recording. */
function backend(id: string, file: "events.jsonl" | "events.sse" = "events.jsonl"): Json[] {
  return cli(join(root, "examples/recordings", id, file));
}

async function open(id: string, extra = "", viewport = { width: 1100, height: 900 }, speed = 0): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(`pageerror: ${e}`));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`console: ${m.text()}`);
  });
  await page.goto(`${server.url}?scenario=${id}&speed=${speed}&autoplay=1${extra}`);
  return { page, errors };
}

/** The page in autoplay-off mode, recording requests to another host and dialogs. */
async function openWatched() {
  const opened = await open("f_tool_image", "&autoplay=0");
  const host = new URL(server.url).host;
  const foreign: string[] = [];
  const dialogs: string[] = [];
  opened.page.on("request", (r) => {
    if (!r.url().startsWith("data:") && new URL(r.url()).host !== host) foreign.push(r.url());
  });
  opened.page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return { ...opened, foreign, dialogs };
}

/**
 * A screenshot of the whole conversation: the chat is its own scroll container (between
 * the header and the status bar), so the viewport is made as tall as the page would be,
 * up to `maxHeight`, for the shot, then set back.
 */
async function shoot(page: Page, path: string, maxHeight = 3200): Promise<void> {
  const size = page.viewportSize()!;
  const need = await page.evaluate(() => {
    const scroller = document.getElementById("scroller")!;
    return document.documentElement.clientHeight - scroller.clientHeight + scroller.scrollHeight;
  });
  await page.setViewportSize({ width: size.width, height: Math.min(Math.max(need, size.height), maxHeight) });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.screenshot({ path });
  await page.setViewportSize(size);
}

/** Compares every bubble with the CLI's messages: texts, thinking, tool states, images. */
async function assertMatchesBackend(page: Page, id: string, messages: Json[] = backend(id)): Promise<void> {
  const bubbles = await page.locator("article.bubble.assistant").count();
  assert.equal(bubbles, messages.length, "one bubble per reply");
  for (const msg of messages) {
    const expected = await page.evaluate((m: Json) => {
      const toText = (window as unknown as { __demo: { markdownToText(md: string): string } }).__demo.markdownToText;
      const blocks = m.content as Json[];
      const outputs = blocks.filter((b) => b.type === "tool_result").flatMap((b) => (Array.isArray(b.output) ? b.output : []));
      return {
        texts: blocks.filter((b) => b.type === "text").map((b) => toText(b.text)),
        thinking: blocks.filter((b) => b.type === "thinking").map((b) => b.thinking),
        calls: blocks.filter((b) => b.type === "tool_call").map((b) => b.state),
        results: blocks
          .filter((b) => b.type === "tool_result")
          .map((b) => `${b.id}=${b.state}`)
          .sort(),
        // every result whose call is in the message is shown in that call's card
        paired: blocks.filter((b) => b.type === "tool_result" && blocks.some((c) => c.type === "tool_call" && c.id === b.id)).length,
        images: [...blocks, ...outputs].filter((b) => b.type === "data" && b.source.media_type.startsWith("image/")).length,
        name: m.name,
        finished: m.finished_reason ?? "",
      };
    }, msg);
    const bubble = page.locator(`article[data-reply-id="${msg.id}"]`);
    const shown = await bubble.evaluate((node) => ({
      texts: [...node.querySelectorAll('[data-block-type="text"]')].map((e) => e.textContent),
      thinking: [...node.querySelectorAll('[data-block-type="thinking"] .thinking-text')].map((e) => e.textContent),
      calls: [...node.querySelectorAll('[data-block-type="tool_call"]')].map((e) => (e as HTMLElement).dataset.state),
      results: [...node.querySelectorAll<HTMLElement>('[data-block-type="tool_result"]')].map((e) => `${e.dataset.toolCallId}=${e.dataset.state}`).sort(),
      paired: [...node.querySelectorAll<HTMLElement>('[data-block-type="tool_result"]')].filter(
        (e) => e.parentElement?.closest<HTMLElement>('[data-block-type="tool_call"]')?.dataset.toolCallId === e.dataset.toolCallId,
      ).length,
      images: node.querySelectorAll("img").length,
      name: node.querySelector("header .name")?.textContent,
      finished: (node as HTMLElement).dataset.finished,
    }));
    assert.deepEqual(shown, expected, `bubble ${msg.id} of ${id}`);
  }
}

async function done(page: Page): Promise<void> {
  await page.waitForSelector('body[data-state="done"]', { timeout: 30_000 });
}

for (const id of ["c_react_3_tools_2_iters", "f_tool_image", "l_two_replies_same_session"]) {
  test(`${id}: the page shows what the backend rebuilds`, async () => {
    const { page, errors } = await open(id);
    await done(page);
    await assertMatchesBackend(page, id);
    if (id === "f_tool_image") assert.ok((await page.locator("img").count()) >= 1, "the chart is shown");
    await shoot(page, join(out, `${id}.png`));
    assert.deepEqual(errors, []);
    await page.close();
  });
}

for (const [id, action] of [
  ["g1_confirm_approve", "approve"],
  ["g2_confirm_deny", "deny"],
  ["h_external_execution", "submit"],
] as const) {
  test(`${id}: the stream pauses for the user, who clicks ${action}`, async () => {
    const { page, errors } = await open(id);
    await page.waitForSelector('body[data-state="paused"]', { timeout: 30_000 });
    const button = page.locator(`button[data-action="${action}"]`);
    await button.waitFor({ timeout: 10_000 });
    const waiting = action === "submit" ? "submitted" : "asking";
    assert.ok((await page.locator(`[data-block-type="tool_call"][data-state="${waiting}"]`).count()) >= 1);
    // AskUser (the external tool of h_external_execution) asks with a form: pick the answer
    if (action === "submit") await page.locator("form.ask-form button.ask-option", { hasText: "Rust (Recommended)" }).click();
    await shoot(page, join(out, `${id}-paused.png`));
    await button.click();
    await done(page);
    await assertMatchesBackend(page, id);
    await shoot(page, join(out, `${id}.png`));
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test("?speed and ?scenario: a factor the picker lacks gets its option and is what Play asks for; bad values leave the defaults", async () => {
  const { page, errors } = await open("a_plain_chat_zh_emoji", "&autoplay=0");
  await page.waitForSelector('body[data-ready="1"]');
  const picked = () => page.evaluate(() => {
    const speed = document.querySelector<HTMLSelectElement>("#speed")!;
    return [speed.value, speed.selectedOptions[0]?.textContent, document.querySelector<HTMLSelectElement>("#scenario")!.value];
  });
  assert.deepEqual(await picked(), ["0", "instant", "a_plain_chat_zh_emoji"]);
  const asked: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/stream/")) asked.push(new URL(r.url()).searchParams.get("speed")!);
  });
  // autoplay, then Play: both streams at 2×
  const autoplayed = page.waitForRequest((r) => r.url().includes("/api/stream/"));
  await page.goto(`${server.url}?scenario=a_plain_chat_zh_emoji&speed=2&autoplay=1`);
  await autoplayed;
  await page.waitForSelector('body[data-ready="1"]');
  assert.deepEqual(await picked(), ["2", "2×", "a_plain_chat_zh_emoji"]);
  const played = page.waitForRequest((r) => r.url().includes("/api/stream/"));
  await page.click("#play");
  await played;
  assert.deepEqual(asked, ["2", "2"]);
  for (const bad of ["speed=-1&scenario=nope", "speed=abc", "speed=&scenario=", "speed=Infinity"]) {
    await page.goto(`${server.url}?${bad}&autoplay=0`);
    await page.waitForSelector('body[data-ready="1"]');
    assert.deepEqual(await picked(), ["1", "1×", "c_react_3_tools_2_iters"], bad);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("the wrong answer for a recording is refused with a message, and the stream stays paused", async () => {
  const { page, errors } = await open("g1_confirm_approve");
  await page.waitForSelector('body[data-state="paused"]', { timeout: 30_000 });
  await page.locator('button[data-action="deny"]').click();
  await page.waitForSelector("footer.status.error");
  assert.match((await page.locator("footer.status").textContent()) ?? "", /continues after "approve"/);
  assert.equal(await page.evaluate(() => document.body.dataset.state), "paused");
  await page.locator('button[data-action="approve"]').click();
  await done(page);
  await assertMatchesBackend(page, "g1_confirm_approve");
  // the refused POST is logged by the browser as a failed request, nothing else
  assert.deepEqual(errors.filter((e) => !e.includes("409")), []);
  await page.close();
});

test("a reconnect mid-stream resumes with Last-Event-ID: no duplicated text", async () => {
  const { page } = await open("c_react_3_tools_2_iters", "&dropAfter=20");
  await done(page);
  assert.ok(Number(await page.evaluate(() => document.body.dataset.reconnects)) >= 1, "the connection was dropped once");
  await assertMatchesBackend(page, "c_react_3_tools_2_iters");
  await page.close();
});

/** The codes of what the page's session skipped. */
async function skippedCodes(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    (window as unknown as { __demo: { state: { session: { diagnostics: { code: string }[] } } } }).__demo.state.session.diagnostics.map(
      (d) => d.code,
    ),
  );
}

test("a resumed stream that sends events again: the session's dedup skips them", async () => {
  const { page, errors } = await open("c_react_3_tools_2_iters", "&dropAfter=20&overlap=6");
  await done(page);
  assert.equal(await page.evaluate(() => document.body.dataset.reconnects), "1");
  const codes = await skippedCodes(page);
  // the server resends the 6 events before the Last-Event-ID the page sent (fewer if the
  // page had fewer when the connection failed): each of them is skipped once
  const duplicates = codes.filter((c) => c === "duplicate").length;
  assert.ok(duplicates >= 1 && duplicates <= 6, `the overlap was skipped: ${codes}`);
  await assertMatchesBackend(page, "c_react_3_tools_2_iters");
  assert.match((await page.locator("footer.status").textContent()) ?? "", /1 reconnect\(s\).*duplicate ×\d/);
  assert.equal(await page.locator("footer.status ol.errors").count(), 0);
  // the cut chunked response is the only thing the browser may log
  assert.deepEqual(errors.filter((e) => !/ERR_INCOMPLETE_CHUNKED_ENCODING|network error/i.test(e)), []);
  await page.close();
});

test("a dropped log file is replayed in the page", async () => {
  const { page, errors } = await open("f_tool_image", "&autoplay=0");
  await page.waitForSelector('body[data-ready="1"]');
  await page.setInputFiles("#file", join(root, "examples/recordings/d_parallel_tool_calls/events.sse"));
  await done(page);
  await assertMatchesBackend(page, "d_parallel_tool_calls");
  assert.match((await page.locator("footer.status").textContent()) ?? "", /replayed events\.sse: \d+ events/);
  assert.equal(await page.locator("footer.status ol.errors").count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

/** The SSE recording with other line ends: bare CR, or CRLF, LF and CR in turn. */
function relined(kind: "cr" | "mixed"): Buffer {
  const lf = readFileSync(join(root, "examples/recordings/c_react_3_tools_2_iters/events.sse"), "utf8");
  assert.ok(!lf.includes("\r") && lf.endsWith("\n\n"));
  if (kind === "cr") return Buffer.from(lf.replaceAll("\n", "\r"));
  // in this order a CR is never followed by an LF line end (CR LF would be one line end)
  const ends = ["\r\n", "\n", "\r"];
  const lines = lf.split("\n");
  const last = lines.pop();
  const text = lines.map((line, i) => line + ends[i % 3]).join("") + last;
  assert.ok(/\r\n/.test(text) && /[^\r]\n/.test(text) && /\r(?!\n)/.test(text), "all three line ends");
  return Buffer.from(text);
}

for (const kind of ["cr", "mixed"] as const) {
  test(`a dropped log with ${kind === "cr" ? "bare CR" : "mixed CRLF / LF / CR"} line ends: the same messages as the LF file`, async () => {
    const bytes = relined(kind);
    const lfFile = join(root, "examples/recordings/c_react_3_tools_2_iters/events.sse");
    const expected = backend("c_react_3_tools_2_iters", "events.sse");
    // the CLI and the package's framer (wasm) agree on it too
    const strip = (msgs: Json[]): Json[] => {
      msgs.forEach(nullRecordingVolatiles);
      return msgs;
    };
    assert.deepEqual(strip(cli("-", bytes)), strip(cli(lfFile)));
    assert.deepEqual(splitEvents(bytes), splitEvents(readFileSync(lfFile)));
    const { page, errors } = await open("f_tool_image", "&autoplay=0");
    await page.waitForSelector('body[data-ready="1"]');
    await page.setInputFiles("#file", { name: `events-${kind}.sse`, mimeType: "text/event-stream", buffer: bytes });
    await done(page);
    await assertMatchesBackend(page, "c_react_3_tools_2_iters", expected);
    assert.deepEqual(await skippedCodes(page), []);
    assert.equal(await page.locator("footer.status ol.errors").count(), 0);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test("every refused event of a dropped log is listed, and the rest is still rebuilt", async () => {
  const events = splitEvents(readFileSync(join(root, "examples/recordings/c_react_3_tools_2_iters/events.jsonl")));
  events[5] = "{not json";
  events[9] = '{"type": 3}';
  const { page, errors } = await open("f_tool_image", "&autoplay=0");
  await page.waitForSelector('body[data-ready="1"]');
  await page.setInputFiles("#file", { name: "broken.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(events.join("\n")) });
  await done(page);
  const listed = await page.locator("footer.status ol.errors li").allTextContents();
  assert.equal(listed.length, 2, listed.join("\n"));
  assert.match(listed[0]!, /^\[invalid_json\] at event 6: /);
  assert.match(listed[1]!, /^\[invalid_event\] at event 10: /);
  assert.match((await page.locator("footer.status").textContent()) ?? "", /replayed broken\.jsonl: 67 events.*2 error\(s\)/);
  assert.equal(await page.locator("article.bubble.assistant").count(), 1);
  assert.ok((await page.locator('[data-block-type="tool_call"]').count()) >= 3);
  await shoot(page, join(out, "dropped-log-errors.png"));
  assert.deepEqual(errors, []);
  await page.close();
});

test("model text cannot inject HTML (raw HTML is shown as text), and the server sends a Content-Security-Policy", async () => {
  const res = await fetch(server.url);
  assert.match(res.headers.get("content-security-policy") ?? "", /script-src 'self' 'wasm-unsafe-eval'/);
  const { page, errors } = await open("f_tool_image", "&autoplay=0");
  await page.waitForSelector('body[data-ready="1"]');
  const shown = await page.evaluate(() => {
    const demo = (window as unknown as { __demo: { markdownHtml(md: string): string; markdownToText(md: string): string } }).__demo;
    const inline = 'hi <img src=x onerror="window.pwned=1"><script>window.pwned=2</script> **there**';
    const block = "<div>\n<b>a block</b>\n</div>";
    return { inline: demo.markdownHtml(inline), text: demo.markdownToText(inline), block: demo.markdownHtml(block) };
  });
  // (the HTML as the sanitiser serialises it: quotes in text are not escaped)
  assert.equal(shown.inline, '<p>hi &lt;img src=x onerror="window.pwned=1"&gt;&lt;script&gt;window.pwned=2&lt;/script&gt; <strong>there</strong></p>\n');
  assert.equal(shown.text, 'hi <img src=x onerror="window.pwned=1"><script>window.pwned=2</script> there\n');
  // a raw HTML block is a paragraph of its text, line breaks kept
  assert.equal(shown.block, "<p>&lt;div&gt;<br>&lt;b&gt;a block&lt;/b&gt;<br>&lt;/div&gt;</p>\n");
  await page.waitForTimeout(200);
  assert.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
  assert.deepEqual(errors, []);
  await page.close();
});

test("the demo server's own SSE stream (what curl -N prints) replays through the CLI", async () => {
  const res = await fetch(`${server.url}api/stream/c_react_3_tools_2_iters?session=curl&speed=0`);
  assert.equal(res.status, 200);
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = bytes.toString("utf8");
  assert.match(text, /^id: 1$/m, "frames carry ids");
  assert.match(text, /event: end\ndata: \{\}/, "and it ends with a named end frame");
  const strip = (msgs: Json[]) => msgs.map((m) => ({ ...m, created_at: null, content: m.content.map((b: Json) => ({ ...b, created_at: null, finished_at: b.type === "hint" ? null : b.finished_at, output: Array.isArray(b.output) ? b.output.map((o: Json) => ({ ...o, created_at: null, id: o.type === "text" ? null : o.id })) : b.output })) }));
  assert.deepEqual(strip(cli("-", bytes)), strip(backend("c_react_3_tools_2_iters")));
});

test("the demo server survives bad requests and keeps a bounded number of sessions", async () => {
  const own = await startDemoServer({ port: 0, maxSessions: 2 });
  try {
    const decide = (body: string | Uint8Array<ArrayBuffer>) =>
      fetch(`${own.url}api/decide`, { method: "POST", body, headers: { "content-type": "application/json" } });
    // bad percent-encoding, bodies that are JSON but not an object, not JSON, too big
    assert.equal((await fetch(`${own.url}%`)).status, 400);
    assert.equal((await fetch(`${own.url}%E0%A4%A`)).status, 400);
    for (const body of ["null", "[]", '"x"', "7", '{"session": 1}', "{"]) {
      assert.equal((await decide(body)).status, 400, body);
    }
    assert.equal((await decide('{"session": "none", "scenario": "none", "decision": "approve"}')).status, 404);
    const big = await decide(new Uint8Array(2 * 1024 * 1024).fill(0x20)).catch(() => null);
    assert.ok(big === null || big.status === 413, `a 2 MiB body: ${big?.status}`);
    // still serving
    assert.equal((await fetch(`${own.url}api/scenarios`)).status, 200);
    // three sessions streamed: only the two most recent are kept
    for (const s of ["s1", "s2", "s3"]) {
      const res = await fetch(`${own.url}api/stream/a_plain_chat_zh_emoji?session=${s}&speed=0`);
      await res.arrayBuffer();
    }
    assert.equal(own.sessions(), 2);
  } finally {
    await own.close();
  }
});

/** Hostile strings, each placed in every field a model or tool controls. */
const XSS = [
  "<script>window.pwned=1</script>",
  "<img src=x onerror=window.pwned=2>",
  "<svg onload=window.pwned=3>",
  '<iframe src="javascript:window.pwned=4"></iframe>',
  "[click](javascript:window.pwned=5)",
  '<a href="javascript:window.pwned=6">x</a>',
  '<button data-action="approve">Approve</button>',
  '<div id="status">fake status</div>',
  '<form id="controls"><input name="speed"></form>',
  '<math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;img src=1 onerror=window.pwned=10&gt;">',
  "<style>body{display:none}</style>",
  "<link rel=stylesheet href=http://evil.example/x.css>",
  "![tracker](http://evil.example/track.png)",
  '<img src="http://evil.example/pixel.gif">',
  '<video><source onerror="window.pwned=15"></video>',
  "<body onload=window.pwned=16>",
  "<details open ontoggle=window.pwned=17>",
  '<object data="javascript:window.pwned=18"></object>',
  '<embed src="javascript:window.pwned=19">',
  '<meta http-equiv="refresh" content="0;url=http://evil.example/">',
  '<base href="http://evil.example/">',
  '"><script>window.pwned=22</script>',
  "javascript:window.pwned=23",
  '<a href="data:text/html,<script>alert(1)</script>">d</a>',
  "<input autofocus onfocus=window.pwned=25>",
  "<marquee onstart=window.pwned=26>",
  '<noscript><p title="</noscript><img src=x onerror=window.pwned=27>">',
  "<template><script>window.pwned=28</script></template>",
  "\u202e<b>rtl</b> override",
  '<a href="http://evil.example/" id="chat">x</a>',
  '<svg><a xlink:href="javascript:window.pwned=31"><text>x</text></a></svg>',
  '<img srcset="http://evil.example/a.png 1x">',
  "<audio src=http://evil.example/a.mp3 autoplay>",
  '<div style="background:url(http://evil.example/bg.png)">bg</div>',
];

test("an XSS corpus in every model-controlled field: no script, dialog, navigation, control or foreign request", async () => {
  const R = "xss";
  let n = 0;
  const ev = (type: string, fields: Json) => JSON.stringify({ id: `e${++n}`, created_at: "2026-01-01T00:00:00.000000", type, reply_id: R, ...fields });
  const lines = [ev("REPLY_START", { session_id: "s", name: XSS[0] })];
  XSS.forEach((x, i) => {
    // (the text after the payload must stay visible: a payload must not swallow it)
    const text = `${x} then ${i}\n\nafter ${i}`;
    lines.push(ev("TEXT_BLOCK_START", { block_id: `t${i}` }), ev("TEXT_BLOCK_DELTA", { block_id: `t${i}`, delta: text }), ev("TEXT_BLOCK_END", { block_id: `t${i}` }));
    lines.push(ev("THINKING_BLOCK_START", { block_id: `th${i}` }), ev("THINKING_BLOCK_DELTA", { block_id: `th${i}`, delta: x }));
    lines.push(ev("TOOL_CALL_START", { tool_call_id: `c${i}`, tool_call_name: x }), ev("TOOL_CALL_DELTA", { tool_call_id: `c${i}`, delta: x }), ev("TOOL_CALL_END", { tool_call_id: `c${i}` }));
    lines.push(ev("TOOL_RESULT_START", { tool_call_id: `c${i}`, tool_call_name: x }), ev("TOOL_RESULT_TEXT_DELTA", { tool_call_id: `c${i}`, delta: x }), ev("TOOL_RESULT_END", { tool_call_id: `c${i}`, state: "success" }));
    lines.push(ev("HINT_BLOCK", { block_id: `h${i}`, source: x, hint: x }));
    lines.push(ev("DATA_BLOCK_START", { block_id: `d${i}`, media_type: "image/png", name: x }));
  });
  // data sources from another host (image and tool output) and a hostile media type
  lines.push(ev("DATA_BLOCK_DELTA", { block_id: "d0", media_type: "image/png", url: "http://evil.example/img.png" }));
  lines.push(ev("DATA_BLOCK_DELTA", { block_id: "d1", media_type: 'image/png"><script>window.pwned=99</script>', url: "https://evil.example/x.png" }));
  lines.push(ev("TOOL_RESULT_START", { tool_call_id: "cx", tool_call_name: "f" }), ev("TOOL_RESULT_DATA_DELTA", { tool_call_id: "cx", block_id: "o", media_type: "image/png", url: "https://evil.example/out.png" }));
  const file = join(out, "xss.jsonl");
  mkdirSync(out, { recursive: true });
  writeFileSync(file, lines.join("\n") + "\n");

  const { page, errors, foreign, dialogs } = await openWatched();
  await page.waitForSelector('body[data-ready="1"]');
  const url = page.url();
  await page.setInputFiles("#file", file);
  await done(page);
  await page.waitForTimeout(300);
  const found = await page.evaluate(() => {
    const chat = document.getElementById("chat")!;
    const w = window as unknown as { pwned?: number };
    return {
      pwned: w.pwned ?? null,
      // the page's own elements are still the ones its code finds by id
      status: document.getElementById("status")?.closest("#chat") === null,
      chatIsPage: document.getElementById("chat") === chat && chat.closest("body") === document.body,
      ids: [...chat.querySelectorAll("[id]")].map((e) => e.id),
      banned: [...chat.querySelectorAll("script,iframe,object,embed,svg,math,style,link,meta,base,form,input,video,template,noscript,marquee,details[ontoggle]")].map((e) => e.tagName),
      buttons: [...chat.querySelectorAll("button")].map((b) => b.className),
      images: [...chat.querySelectorAll("img")].map((i) => (i.getAttribute("src") ?? "").slice(0, 11)),
      handlers: [...chat.querySelectorAll("*")].flatMap((e) => [...e.attributes].filter((a) => a.name.startsWith("on") || a.name === "style").map((a) => a.name)),
      links: [...chat.querySelectorAll("a[href]")].map((a) => a.getAttribute("href")!).filter((h) => !/^(https?:|mailto:|#)/.test(h)),
      loadButtons: chat.querySelectorAll("button.load-media").length,
      // what each text block shows (innerText: rendered text only), in order
      texts: [...chat.querySelectorAll<HTMLElement>('[data-block-type="text"]')].map((e) => e.innerText),
    };
  });
  assert.equal(found.pwned, null);
  assert.equal(found.texts.length, XSS.length);
  found.texts.forEach((text, i) => assert.match(text, new RegExp(` then ${i}\\n\\nafter ${i}$`), `text block ${i}: ${JSON.stringify(text)}`));
  assert.deepEqual(dialogs, []);
  assert.equal(page.url(), url, "no navigation");
  assert.deepEqual(foreign, [], "no request to another host");
  assert.ok(found.status && found.chatIsPage);
  assert.deepEqual(found.ids, []);
  assert.deepEqual(found.banned, []);
  assert.deepEqual(found.handlers, []);
  assert.deepEqual(found.links, [], "only http(s), mailto and fragment links");
  assert.ok(found.buttons.every((c) => c === "load-media"), `buttons: ${found.buttons}`);
  assert.ok(found.images.every((s) => s.startsWith("data:image")), `images: ${found.images}`);
  assert.equal(found.loadButtons, 2, "remote images wait for a click (the hostile media type is not shown)");
  assert.ok(XSS.length >= 30);
  // the hostile strings are shown as text where they are text (a tool's arguments)
  assert.ok((await page.locator("pre.tool-args").first().textContent())?.includes("<script>"));
  await page.locator("button.load-media").first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(out, "xss.png") });
  assert.deepEqual(errors.filter((e) => !e.includes("Content Security Policy")), []);
  await page.close();
});

// ---------- what a chat user expects: sticking to the bottom, tool cards, ask forms, dark mode, layout ----------

/** An event maker for crafted streams: wire JSON of one reply, numbered ids. */
function eventMaker(replyId: string): (type: string, fields: Json) => string {
  let n = 0;
  return (type, fields) => JSON.stringify({ id: `${replyId}-${++n}`, created_at: "2026-01-01T00:00:00.000000", type, reply_id: replyId, ...fields });
}

type Box = { top: number; bottom: number; left: number; right: number };
const intersects = (a: Box, b: Box): boolean => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** Where the chat's scroll area, its last line (the last reply's token line, or its last
 * block) and the status bar are, and whether the last line is what is painted there. */
async function layout(page: Page) {
  // after the next rendered frame: the chat follows its growth once per frame, after
  // layout (web-demo/public/scroll.js), so a change just made is followed by then
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
  // (no named function in here: tsx would wrap it in a helper the page does not have)
  return page.evaluate(() => {
    const scroller = document.getElementById("scroller")!;
    const bubbles = document.querySelectorAll("article.bubble.assistant");
    const bubble = bubbles[bubbles.length - 1]!;
    const meta = bubble.querySelector("footer.meta")!;
    const last = meta.textContent ? meta : bubble.querySelector(".blocks")!.lastElementChild!;
    const [s, t, r] = [scroller, document.getElementById("status")!, last].map((e) => e.getBoundingClientRect());
    const painted = document.elementFromPoint(r!.left + 4, r!.top + Math.min(r!.height / 2, 8));
    return {
      scroller: { top: s!.top, bottom: s!.bottom, left: s!.left, right: s!.right },
      status: { top: t!.top, bottom: t!.bottom, left: t!.left, right: t!.right },
      last: { top: r!.top, bottom: r!.bottom, left: r!.left, right: r!.right },
      lastIsPainted: painted !== null && last.contains(painted),
      fromBottom: scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight,
      viewport: innerHeight,
    };
  });
}

async function assertStatusBesideChat(page: Page, what: string): Promise<void> {
  const at = await layout(page);
  const where = `${what}: ${JSON.stringify(at)}`;
  assert.ok(!intersects(at.scroller, at.status), `the status bar is not over the chat (${where})`);
  assert.ok(!intersects(at.last, at.status), `the status bar is not over the last line (${where})`);
  assert.ok(at.status.bottom <= at.viewport + 0.5, `the status bar is in the viewport (${where})`);
  assert.ok(at.fromBottom <= 2, `the chat is at its bottom (${where})`);
  assert.ok(at.last.bottom <= at.scroller.bottom + 0.5, `the last line is in view (${where})`);
  assert.ok(at.lastIsPainted, `nothing is painted over the last line (${where})`);
}

/** The chat scroller's position: how far from its bottom, and its scrollTop. */
async function scrollState(page: Page) {
  return page.evaluate(() => {
    const s = document.getElementById("scroller")!;
    return {
      top: s.scrollTop,
      fromBottom: s.scrollHeight - s.scrollTop - s.clientHeight,
      overflow: s.scrollHeight - s.clientHeight,
      events: Number(document.body.dataset.events),
      state: document.body.dataset.state,
    };
  });
}

const moreEvents = (page: Page, n: number) =>
  page.waitForFunction((n) => Number(document.body.dataset.events) >= n || document.body.dataset.state === "done", n, { timeout: 30_000 });

test("while streaming the chat sticks to the bottom; after the user scrolls up it stays put and shows Jump to latest", async () => {
  // the long session (1,172 events), paced at 2× its recorded gaps (about 9 s: unpaced, it
  // could end before the user's scroll below, as it did once in 3.4 s), in a phone-sized
  // viewport
  const { page, errors } = await open("j_long_session_30_iters", "", { width: 390, height: 700 }, 2);
  page.setDefaultTimeout(30_000);
  await page.waitForFunction(() => {
    const s = document.getElementById("scroller")!;
    return s.scrollHeight - s.clientHeight > 1500;
  });
  const jump = page.locator("#jump");
  // at the bottom on every look while it streams (and the stream goes on meanwhile)
  const first = await scrollState(page);
  for (let i = 0; i < 5; i++) {
    const now = await scrollState(page);
    assert.equal(now.state, "streaming");
    assert.ok(now.fromBottom <= 2, `stuck to the bottom: ${JSON.stringify(now)}`);
    assert.equal(await jump.isVisible(), false, "no jump control while at the bottom");
    await page.waitForTimeout(80);
  }
  const before = await scrollState(page);
  assert.ok(before.events > first.events && before.overflow > first.overflow, "it streamed and grew meanwhile");
  // the user scrolls up (a wheel over the chat)
  const box = (await page.locator("#scroller").boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -900);
  await page.waitForFunction(() => {
    const s = document.getElementById("scroller")!;
    return s.scrollHeight - s.scrollTop - s.clientHeight > 600;
  });
  await page.waitForTimeout(250); // (the wheel's scroll may be animated)
  const up = await scrollState(page);
  assert.equal(up.state, "streaming", "scrolled up while it streams");
  await jump.waitFor({ state: "visible" });
  // more events arrive: the view stays where the user put it, the control stays
  await moreEvents(page, up.events + 80);
  const later = await scrollState(page);
  assert.ok(later.events >= up.events + 80 || later.state === "done");
  assert.ok(Math.abs(later.top - up.top) <= 1, `the view did not move: ${up.top} → ${later.top}`);
  assert.ok(later.fromBottom > up.fromBottom, "the chat grew below the view");
  assert.ok(await jump.isVisible(), "Jump to latest is shown");
  assert.equal(await page.evaluate(() => document.body.dataset.stick), "0");
  // Jump to latest: back at the bottom, and sticking again
  await jump.click();
  const jumped = await scrollState(page);
  assert.ok(jumped.fromBottom <= 2, JSON.stringify(jumped));
  assert.equal(await jump.isVisible(), false);
  if (jumped.state === "streaming") {
    await moreEvents(page, jumped.events + 40);
    assert.ok((await scrollState(page)).fromBottom <= 2, "it follows the stream again");
  }
  await done(page);
  const end = await scrollState(page);
  assert.ok(end.fromBottom <= 2, `at the bottom at the end: ${JSON.stringify(end)}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a tool call and its result are one card: the result under its call, JSON pretty-printed, collapsible", async () => {
  const { page, errors } = await open("c_react_3_tools_2_iters");
  await done(page);
  const results = backend("c_react_3_tools_2_iters").flatMap((m) => (m.content as Json[]).filter((b) => b.type === "tool_result"));
  assert.ok(results.length >= 3);
  let json = 0;
  for (const r of results) {
    const shown = await page.evaluate((id: string) => {
      const cards = document.querySelectorAll(`[data-block-type="tool_call"][data-tool-call-id="${id}"]`);
      const result = cards[0]?.querySelector(':scope > .tool-results > details[data-block-type="tool_result"]');
      const pre = result?.querySelector("pre.tool-output");
      return {
        cards: cards.length,
        inCard: result !== null && result !== undefined,
        call: cards[0]?.querySelector(".tool-name")?.textContent,
        text: pre?.textContent ?? null,
        json: pre?.classList.contains("json") ?? false,
        standalone: document.querySelectorAll(`#chat .blocks > [data-block-type="tool_result"][data-tool-call-id="${id}"]`).length,
      };
    }, r.id);
    assert.equal(shown.cards, 1, `one card for ${r.id}`);
    assert.ok(shown.inCard, `the result of ${r.id} is in its call's card`);
    assert.equal(shown.standalone, 0, "not also on its own");
    assert.equal(shown.call, r.name);
    const raw = (r.output as Json[]).map((o) => o.text).join("");
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(raw);
    } catch {
      // not JSON
    }
    if (parsed !== null && typeof parsed === "object") {
      json += 1;
      assert.equal(shown.text, JSON.stringify(parsed, null, 2), "pretty-printed JSON");
      assert.ok(shown.json && shown.text!.split("\n").length > 3);
    } else {
      assert.equal(shown.text, raw, "other output as is");
      assert.equal(shown.json, false);
    }
  }
  assert.ok(json >= 2, "the weather results are JSON");
  // collapsible: its summary closes and opens it
  const result = page.locator('details[data-block-type="tool_result"]').first();
  assert.equal(await result.evaluate((d) => (d as HTMLDetailsElement).open), true, "a short result is open");
  await result.locator("summary").click();
  assert.equal(await result.evaluate((d) => (d as HTMLDetailsElement).open), false);
  assert.equal(await result.locator("pre.tool-output").isVisible(), false);
  await result.locator("summary").click();
  assert.ok(await result.locator("pre.tool-output").isVisible());
  assert.deepEqual(errors, []);
  await page.close();
});

test("h_external_execution: the AskUser form sends the chosen answer; one the recording did not give is refused", async () => {
  const { page, errors } = await open("h_external_execution");
  await page.waitForSelector('body[data-state="paused"]', { timeout: 30_000 });
  const form = page.locator('[data-block-type="tool_call"][data-state="submitted"] form.ask-form');
  await form.waitFor();
  assert.equal(await form.locator(".ask-header").textContent(), "Language");
  assert.equal(await form.locator(".ask-text").textContent(), "Which language should the demo use?");
  assert.deepEqual(await form.locator("button.ask-option .ask-label").allTextContents(), ["Rust (Recommended)", "Python"]);
  assert.match((await form.textContent()) ?? "", /POST \/api\/decide/, "the form says what sending does");
  const send = form.locator('button[data-action="submit"]');
  assert.ok(await send.isDisabled(), "nothing chosen yet");
  const bodies: Json[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/api/decide")) bodies.push(JSON.parse(r.postData() ?? "null"));
  });
  await form.locator("button.ask-option", { hasText: "Python" }).click();
  assert.equal(await form.locator("button.ask-option", { hasText: "Python" }).getAttribute("aria-pressed"), "true");
  await send.click();
  await page.waitForSelector("footer.status.error");
  assert.match((await page.locator("footer.status").textContent()) ?? "", /continues after the answer "Rust \(Recommended\)"/);
  assert.equal(await page.evaluate(() => document.body.dataset.state), "paused");
  assert.ok(await send.isEnabled(), "the form can be answered again");
  // one choice only: picking Rust unpicks Python
  await form.locator("button.ask-option", { hasText: "Rust (Recommended)" }).click();
  assert.equal(await form.locator("button.ask-option", { hasText: "Python" }).getAttribute("aria-pressed"), "false");
  await send.click();
  await done(page);
  const question = "Which language should the demo use?";
  assert.deepEqual(
    bodies.map((b) => [b.decision, b.answers]),
    [
      ["submit", [{ question, selected: ["Python"], other: null }]],
      ["submit", [{ question, selected: ["Rust (Recommended)"], other: null }]],
    ],
  );
  await assertMatchesBackend(page, "h_external_execution");
  // answered: the question stays, read-only, above its result in the same card
  assert.equal(await page.locator("#chat form").count(), 0);
  const card = page.locator('[data-block-type="tool_call"][data-state="finished"]');
  assert.equal(await card.locator(".ask-summary .ask-text").textContent(), question);
  assert.match((await card.locator('[data-block-type="tool_result"] pre.tool-output').textContent()) ?? "", /with "Rust \(Recommended\)"/);
  assert.deepEqual(errors.filter((e) => !e.includes("409")), []);
  await page.close();
});

test("an ask-the-user form is the page's own: built as text from a crafted event; model text cannot make one", async () => {
  const { page, errors, foreign, dialogs } = await openWatched();
  await page.waitForSelector('body[data-ready="1"]');
  const question = '<img src=x onerror="window.pwned=1"> Which **one**? <script>window.pwned=2</script>';
  const options = ['<b onclick="window.pwned=3">bold</b>', "plain"];
  const input = JSON.stringify({ question, options });
  // model text that looks like the page's form, with its classes and data-action
  const fake = '<form class="ask ask-form"><fieldset class="ask-question"><button class="ask-option decision" data-action="submit" type="submit">Send answer</button><input class="ask-field" autofocus onfocus="window.pwned=4"></fieldset></form>';
  const ev = eventMaker("ask");
  const call = { type: "tool_call", id: "ask-1", name: "ask_user", input, state: "submitted", suggested_rules: [], created_at: "2026-01-01T00:00:00.000000", finished_at: null };
  const lines = [
    ev("REPLY_START", { session_id: "s", name: "Asker" }),
    ev("TEXT_BLOCK_START", { block_id: "t" }),
    ev("TEXT_BLOCK_DELTA", { block_id: "t", delta: fake }),
    ev("TEXT_BLOCK_END", { block_id: "t" }),
    ev("THINKING_BLOCK_START", { block_id: "th" }),
    ev("THINKING_BLOCK_DELTA", { block_id: "th", delta: fake }),
    ev("THINKING_BLOCK_END", { block_id: "th" }),
    ev("TOOL_CALL_START", { tool_call_id: "ask-1", tool_call_name: "ask_user" }),
    ev("TOOL_CALL_DELTA", { tool_call_id: "ask-1", delta: input }),
    ev("TOOL_CALL_END", { tool_call_id: "ask-1" }),
    ev("TOOL_RESULT_START", { tool_call_id: "ask-1", tool_call_name: "ask_user" }),
    ev("REQUIRE_EXTERNAL_EXECUTION", { tool_calls: [call] }),
  ];
  // the page's POST is answered here (there is no recording behind this stream)
  const posted: Json[] = [];
  await page.route("**/api/decide", async (route) => {
    posted.push(JSON.parse(route.request().postData() ?? "null"));
    await route.fulfill({ status: 200, contentType: "application/json", body: '{"ok":true}' });
  });
  // played as a live playback from the demo server is (one that can take an answer)
  await page.evaluate(async (lines) => {
    const demo = (window as unknown as { __demo: Demo & { state: { scenario: unknown; serverSession: string } } }).__demo;
    const pkg = "agentscope-message";
    const { Session } = await import(pkg);
    const session = new Session();
    demo.begin(session);
    demo.state.scenario = { id: "crafted", users: [] };
    demo.state.serverSession = "crafted-session";
    document.body.dataset.state = "streaming";
    for (const line of lines) session.apply(line);
    demo.flush();
  }, lines);
  const found = await page.evaluate(() => {
    const chat = document.getElementById("chat")!;
    const form = chat.querySelector("form");
    return {
      forms: chat.querySelectorAll("form").length,
      owner: form?.closest<HTMLElement>('[data-block-type="tool_call"]')?.dataset.toolCallId ?? null,
      inModelText: [...chat.querySelectorAll('[data-block-type="text"], [data-block-type="thinking"]')].flatMap((b) =>
        [...b.querySelectorAll("form, fieldset, button, input")].map((e) => e.tagName),
      ),
      decisions: [...chat.querySelectorAll("button.decision")].map((b) => b.closest("form.ask-form") === form),
      question: form?.querySelector(".ask-text")?.textContent,
      options: [...(form?.querySelectorAll("button.ask-option .ask-label") ?? [])].map((e) => e.textContent),
      markup: [...(form?.querySelectorAll("img, script, b, strong") ?? [])].map((e) => e.tagName),
      handlers: [...chat.querySelectorAll("*")].flatMap((e) => [...e.attributes].filter((a) => a.name.startsWith("on")).map((a) => a.name)),
      state: document.body.dataset.state,
    };
  });
  assert.equal(found.forms, 1, "one form: the page's");
  assert.equal(found.owner, "ask-1", "in the ask_user call's card");
  assert.deepEqual(found.inModelText, [], "model text makes no form, field or button");
  assert.deepEqual(found.decisions, [true], "the only decision button is the form's");
  assert.equal(found.question, question, "the question is text");
  assert.deepEqual(found.options, options, "so are the options");
  assert.deepEqual(found.markup, []);
  assert.deepEqual(found.handlers, []);
  assert.equal(found.state, "paused", "the page waits for the answer");
  const form = page.locator("#chat form.ask-form");
  const send = form.locator('button[data-action="submit"]');
  assert.ok(await send.isDisabled());
  await form.locator("button.ask-option", { hasText: "plain" }).click();
  assert.ok(await send.isEnabled());
  // a typed answer replaces the choice (one answer per question)
  await form.locator("input.ask-field").fill("something else");
  assert.equal(await form.locator("button.ask-option", { hasText: "plain" }).getAttribute("aria-pressed"), "false");
  await form.locator("input.ask-field").press("Enter"); // Enter sends, as the button does
  await page.waitForFunction(() => /answer sent/.test(document.getElementById("status")!.textContent ?? ""));
  assert.deepEqual(posted, [
    { session: "crafted-session", scenario: "crafted", decision: "submit", answers: [{ question, selected: [], other: "something else" }] },
  ]);
  assert.ok(await send.isDisabled(), "sent once");
  // the same stream as a dropped log: no server to answer to, so the questions are display-only
  await page.setInputFiles("#file", { name: "ask.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(lines.join("\n")) });
  await done(page);
  assert.equal(await page.locator("#chat form").count(), 0);
  assert.equal(await page.locator("#chat button.decision").count(), 0);
  assert.equal(await page.locator(".ask-summary .ask-text").textContent(), question);
  assert.match((await page.locator(".ask-summary").textContent()) ?? "", /display only/);
  await page.waitForTimeout(200);
  assert.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(foreign, []);
  assert.deepEqual(errors.filter((e) => !e.includes("Content Security Policy")), []);
  await page.close();
});

test("a dropped log that fails lists its errors: 3 bad lines give 3; past 10, \"and N more\"", async () => {
  const events = splitEvents(readFileSync(join(root, "examples/recordings/c_react_3_tools_2_iters/events.jsonl")));
  const { page, errors } = await open("f_tool_image", "&autoplay=0", { width: 390, height: 800 });
  await page.waitForSelector('body[data-ready="1"]');
  const replay = async (name: string, lines: string[]) => {
    await page.setInputFiles("#file", { name, mimeType: "application/jsonl", buffer: Buffer.from(lines.join("\n")) });
    await done(page);
    return {
      listed: await page.locator("footer.status ol.errors li").allTextContents(),
      more: await page.locator("footer.status .more").allTextContents(),
      status: (await page.locator("footer.status .status-text").textContent()) ?? "",
    };
  };
  const three = [...events];
  three[2] = "{not json";
  three[6] = '{"type": 3}';
  three[11] = "[1, 2]";
  const a = await replay("three.jsonl", three);
  assert.equal(a.listed.length, 3, a.listed.join("\n"));
  assert.match(a.listed[0]!, /^\[invalid_json\] at event 3: /);
  assert.match(a.listed[1]!, /^\[invalid_event\] at event 7: /);
  assert.match(a.listed[2]!, /^\[\w+\] at event 12: /);
  assert.deepEqual(a.more, []);
  assert.match(a.status, /replayed three\.jsonl: 67 events, 3 error\(s\)$/);
  await assertStatusBesideChat(page, "3 errors");
  // 25 bad lines: the first 10, then how many more (the status bar stays a bar)
  const many = events.flatMap((line, i) => (i < 25 ? [line, `{bad line ${i + 1}`] : [line]));
  const b = await replay("many.jsonl", many);
  assert.equal(b.listed.length, 10);
  assert.match(b.listed[0]!, /^\[invalid_json\] at event 2: /);
  assert.deepEqual(b.more, ["and 15 more"]);
  assert.match(b.status, /, 25 error\(s\)$/);
  await assertStatusBesideChat(page, "25 errors");
  const status = (await page.locator("footer.status").boundingBox())!;
  assert.ok(status.height <= 0.4 * 800 + 1, `the status bar is at most 40% of the viewport: ${status.height}`);
  await shoot(page, join(out, "dropped-log-25-errors.png"));
  assert.deepEqual(errors, []);
  await page.close();
});

test("a data: URL image is shown as an <img> (no request to another host); an http(s) one waits for a click", async () => {
  const recorded = splitEvents(readFileSync(join(root, "examples/recordings/f_tool_image/events.jsonl")))
    .map((line) => JSON.parse(line) as Json)
    .find((e) => e.type === "TOOL_RESULT_DATA_DELTA")!;
  const url = `data:image/png;base64,${recorded.data}`;
  const ev = eventMaker("img");
  const lines = [
    ev("REPLY_START", { session_id: "s", name: "Painter" }),
    ev("DATA_BLOCK_START", { block_id: "d", media_type: "image/png", name: "inline.png" }),
    ev("DATA_BLOCK_DELTA", { block_id: "d", media_type: "image/png", url }),
    ev("DATA_BLOCK_END", { block_id: "d" }),
    ev("TOOL_CALL_START", { tool_call_id: "c", tool_call_name: "render_chart" }),
    ev("TOOL_CALL_DELTA", { tool_call_id: "c", delta: "{}" }),
    ev("TOOL_CALL_END", { tool_call_id: "c" }),
    ev("TOOL_RESULT_START", { tool_call_id: "c", tool_call_name: "render_chart" }),
    ev("TOOL_RESULT_DATA_DELTA", { tool_call_id: "c", block_id: "o", media_type: "image/png", url }),
    ev("TOOL_RESULT_END", { tool_call_id: "c", state: "success" }),
    ev("DATA_BLOCK_START", { block_id: "r", media_type: "image/png" }),
    ev("DATA_BLOCK_DELTA", { block_id: "r", media_type: "image/png", url: "https://images.example/remote.png" }),
    ev("DATA_BLOCK_END", { block_id: "r" }),
    ev("REPLY_END", { session_id: "s", finished_reason: "completed", error: null }),
  ];
  const { page, errors, foreign } = await openWatched();
  await page.waitForSelector('body[data-ready="1"]');
  await page.setInputFiles("#file", { name: "images.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(lines.join("\n")) });
  await done(page);
  await page.waitForFunction(() => [...document.querySelectorAll("#chat img")].every((i) => (i as HTMLImageElement).complete));
  const images = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLImageElement>("#chat img")].map((i) => ({
      src: i.src.slice(0, 22),
      width: i.naturalWidth,
      inCard: i.closest<HTMLElement>('[data-block-type="tool_call"]')?.dataset.toolCallId ?? null,
    })),
  );
  assert.deepEqual(images.map((i) => i.src), ["data:image/png;base64,", "data:image/png;base64,"]);
  assert.ok(images.every((i) => i.width > 0), `decoded: ${JSON.stringify(images)}`);
  assert.deepEqual(images.map((i) => i.inCard), [null, "c"], "the tool's image is in its card");
  assert.equal(await page.locator("#chat .note", { hasText: "not shown" }).count(), 0);
  assert.equal(await page.locator("#chat button.load-media").count(), 1, "the https image waits for a click");
  assert.deepEqual(foreign, [], "no request to another host");
  assert.deepEqual(errors, []);
  await page.close();
});

test("390 and 1280 px, light and dark: the status bar is under the chat, never over it; dark mode follows prefers-color-scheme (web-demo/out/demo-*.png)", async () => {
  const shots = out;
  mkdirSync(shots, { recursive: true });
  const colours: Record<string, { body: string; card: string; ink: string; panel: string }> = {};
  for (const width of [390, 1280]) {
    for (const scheme of ["light", "dark"] as const) {
      const page = await browser.newPage({ viewport: { width, height: width < 600 ? 844 : 800 } });
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(`pageerror: ${e}`));
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${server.url}?scenario=g1_confirm_approve&speed=0&autoplay=1`);
      await page.waitForSelector('body[data-state="paused"]', { timeout: 30_000 });
      await assertStatusBesideChat(page, `${width} px ${scheme}, paused`);
      await page.locator('button[data-action="approve"]').click();
      await done(page);
      await assertStatusBesideChat(page, `${width} px ${scheme}, done`);
      colours[`${width} ${scheme}`] = await page.evaluate(() => ({
        body: getComputedStyle(document.body).backgroundColor,
        ink: getComputedStyle(document.body).color,
        card: getComputedStyle(document.querySelector(".tool-call")!).backgroundColor,
        panel: getComputedStyle(document.querySelector(".bubble.assistant .blocks")!).backgroundColor,
      }));
      // a tool call with its result, and CJK text and emoji, in the shot
      assert.ok((await page.locator('[data-block-type="tool_call"] [data-block-type="tool_result"]').count()) >= 2);
      assert.match((await page.locator("#chat").textContent()) ?? "", /上海/);
      await shoot(page, join(shots, `demo-${width}-${scheme}.png`), 2400);
      assert.deepEqual(errors, []);
      await page.close();
    }
  }
  for (const width of [390, 1280]) {
    const light = colours[`${width} light`]!;
    const dark = colours[`${width} dark`]!;
    for (const key of ["body", "ink", "card", "panel"] as const) assert.notEqual(light[key], dark[key], `${key} at ${width} px`);
  }
  // dark is dark: the page background's brightness
  const luma = (rgb: string) => {
    const [r, g, b] = rgb.match(/\d+/g)!.map(Number);
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  assert.ok(luma(colours["1280 dark"]!.body) < 40 && luma(colours["1280 light"]!.body) > 200, JSON.stringify(colours));
});

// ---------- streaming text: the work per frame grows with the delta, not the block ----------

/** The page's test hooks (web-demo/public/app.js, `window.__demo`). */
type Demo = {
  markdownHtml(md: string): string;
  readonly renderedChars: number;
  readonly plainTail: number;
  readonly plainChunk: number;
  begin(session: unknown): AbortSignal;
  flush(): void;
  finish(text: string): void;
  streamHtml(deltas: string[], everyDelta?: boolean): { html: string; frozen: number };
};

/** `text` in deltas of `size` characters (code units; one less where a surrogate pair would be cut). */
function deltasOf(text: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; ) {
    let end = Math.min(at + size, text.length);
    if (size > 1 && /[\uD800-\uDBFF]/.test(text[end - 1] ?? "")) end -= 1;
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}

/** The events of one reply whose one text block streams in `deltas`, then ends. */
function textReply(deltas: string[]): string[] {
  const R = "stream";
  let n = 0;
  const ev = (type: string, fields: Json) => JSON.stringify({ id: `e${++n}`, created_at: "2026-01-01T00:00:00.000000", type, reply_id: R, ...fields });
  return [
    ev("REPLY_START", { session_id: "s", name: "Streamer" }),
    ev("TEXT_BLOCK_START", { block_id: "t" }),
    ...deltas.map((delta) => ev("TEXT_BLOCK_DELTA", { block_id: "t", delta })),
    ev("TEXT_BLOCK_END", { block_id: "t" }),
    ev("REPLY_END", { session_id: "s", finished_reason: "completed", error: null }),
  ];
}

type Played = {
  html: string; // the block's HTML once the playback is done
  expected: string; // the one-shot render of the whole text, put in a block the same way
  chars: number; // characters the markdown parser read from the first event to the end
  inPlace: boolean; // the streaming block kept its node from its first delta to its end
  behind: number; // the most text a frame showed as plain text, waiting for its render
  unsafe: string[]; // what any frame showed that the sanitiser would not let through
  streamed: string; // what the block showed (innerText) on the last frame it was streaming
};

/**
 * Plays `events` in the page, each in a frame of its own (the worst case: a render per
 * delta), counting the markdown parser's work; with `inspect`, checks every frame's text
 * block for anything unsanitised (elements, attributes, links outside the allow-list;
 * the plain-text remainder holding an element).
 */
async function playFrames(page: Page, events: string[], text: string, inspect: boolean): Promise<Played> {
  return page.evaluate(
    async ({ events, text, inspect }) => {
      const demo = (window as unknown as { __demo: Demo }).__demo;
      const pkg = "agentscope-message"; // the page's import map resolves it: the page's own module
      const { Session } = await import(pkg);
      const tags = new Set(["P", "BR", "HR", "STRONG", "EM", "DEL", "CODE", "PRE", "BLOCKQUOTE", "UL", "OL", "LI", "A", "H1", "H2", "H3", "H4", "H5", "H6", "TABLE", "THEAD", "TBODY", "TR", "TH", "TD"]);
      const attrs = new Set(["href", "title", "start", "align", "target", "rel"]);
      const unsafe: string[] = [];
      const session = new Session();
      demo.begin(session);
      const start = demo.renderedChars;
      let first: Element | null = null;
      let inPlace = true;
      let behind = 0;
      let streamed = "";
      for (const event of events) {
        session.apply(event);
        demo.flush();
        const block = document.querySelector('[data-block-type="text"]');
        if (block === null) continue;
        if (block.classList.contains("streaming")) {
          if (first === null) first = block;
          else if (block !== first) inPlace = false;
          behind = Math.max(behind, block.querySelector(".pending")?.textContent?.length ?? 0);
          if (inspect) streamed = (block as HTMLElement).innerText;
        }
        // (no named function in here: tsx would wrap it in a helper the page does not have)
        for (const e of inspect ? block.querySelectorAll("*") : []) {
          if (e.tagName === "SPAN" && e.className === "pending") {
            if (e.children.length > 0) unsafe.push(`markup in the plain text: ${e.innerHTML.slice(0, 80)}`);
            continue;
          }
          // a long tail as plain text (markdown.js: PLAIN_TAIL): bare <div> chunks of text nodes
          if (e.tagName === "DIV" && e.className === "plain") {
            for (const c of e.children) if (c.tagName !== "DIV" || c.attributes.length > 0 || c.children.length > 0) unsafe.push(`markup in the plain text: ${c.outerHTML.slice(0, 80)}`);
            continue;
          }
          if (e.tagName === "DIV" && e.parentElement?.className === "plain") continue;
          if (!tags.has(e.tagName)) unsafe.push(`<${e.tagName}>`);
          for (const a of e.attributes) if (!attrs.has(a.name)) unsafe.push(`${e.tagName} ${a.name}=${a.value.slice(0, 40)}`);
          const href = e.getAttribute("href");
          if (href !== null && !/^(https?:|mailto:|#)/i.test(href)) unsafe.push(`href=${href.slice(0, 40)}`);
        }
      }
      demo.finish("done");
      const chars = demo.renderedChars - start;
      const html = document.querySelector('[data-block-type="text"]')!.innerHTML;
      const one = document.createElement("div"); // parsed as the page parses a block
      one.innerHTML = demo.markdownHtml(text);
      return { html, expected: one.innerHTML, chars, inPlace, behind, unsafe, streamed };
    },
    { events, text, inspect },
  );
}

/** A document with most of what a model writes, and what makes cutting it hard: fences
 * with blank lines, lists that continue after a blank line, a setext heading, indented
 * code, reference definitions before and after their use, raw HTML. */
const STREAM_DOC = [
  "# A streamed answer",
  "",
  '[docs]: https://example.com/docs "Docs"',
  "",
  'An intro with **bold**, _em_, ~~del~~, `code <b>`, a [link](https://example.com "t") and a [reference][docs].',
  "A second line of the same paragraph.",
  "",
  "Setext heading",
  "--------------",
  "",
  "- a tight item",
  "- one with a [forward reference][later]",
  "  continued in the item",
  "",
  "1. a loose",
  "",
  "2. list",
  "",
  "   with a second paragraph",
  "",
  "```ts",
  "const a = 1;",
  "",
  "",
  "const b = [a][docs];",
  "```",
  "",
  "| name | value |",
  "|:-----|------:|",
  "| a    | 1     |",
  "| b    | 2     |",
  "",
  "> a quote",
  "> - with a list",
  ">",
  "> and more, see [docs]",
  "",
  "    indented code",
  "",
  "    after a blank line",
  "",
  "Then a paragraph and an ![image](https://example.com/i.png).",
  "",
  "<div>a raw <em>HTML</em> block</div>",
  "",
  "inline <strong>HTML",
  "",
  "left open</strong> across a blank line",
  "",
  "***",
  "",
  "[later]: https://example.com/later",
  "",
  "The end.",
  "",
].join("\n");

test("a streamed text block ends as the one-shot render of its whole text (7- and 100-character deltas)", async () => {
  const { page, errors } = await open("f_tool_image", "&autoplay=0");
  await page.waitForSelector('body[data-ready="1"]');
  for (const size of [7, 100]) {
    const played = await playFrames(page, textReply(deltasOf(STREAM_DOC, size)), STREAM_DOC, true);
    assert.equal(played.html, played.expected, `${size}-character deltas`);
    assert.ok(played.inPlace, "the streaming block is updated in place");
    assert.deepEqual(played.unsafe, []);
  }
  // mid-stream, once the tail has caught up, the block shows what a one-shot render of its
  // text shows (a reference used before its definition is the one thing only the final
  // render resolves): the cuts between frozen and re-rendered text change nothing
  // (with 1-character deltas and a render on each, every prefix of the text is cut)
  const backward = STREAM_DOC.replace("[forward reference][later]", "reference");
  for (const [size, everyDelta] of [[1, true], [1, false], [7, false], [100, false]] as const) {
    const { html, frozen, expected } = await page.evaluate(
      ({ deltas, text, everyDelta }) => {
        const demo = (window as unknown as { __demo: Demo }).__demo;
        const one = document.createElement("div");
        one.innerHTML = demo.markdownHtml(text);
        return { ...demo.streamHtml(deltas, everyDelta), expected: one.innerHTML };
      },
      { deltas: deltasOf(backward, size), text: backward, everyDelta },
    );
    assert.equal(html, expected, `${size}-character deltas${everyDelta ? ", a render on each" : ""}`);
    // everything but the last paragraph, past the raw HTML (it is text: it leaves no element open)
    assert.equal(frozen, backward.indexOf("The end."), `frozen: ${frozen} of ${backward.length}`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("a streaming block never shows unsanitised text: the XSS corpus split across deltas", async () => {
  // links and definitions first (frozen as they come), then every payload, cut anywhere
  const doc = [
    "Links: [click](javascript:window.pwned=5), ![tracker](http://evil.example/track.png), javascript:window.pwned=23.",
    "[ref]: javascript:window.pwned=40",
    'a [reference][ref] to a hostile definition, and <a href="javascript:window.pwned=41">an anchor</a>',
    "```html\n<script>window.pwned=42</script>\n\n<img src=x onerror=window.pwned=43>\n```",
    ...XSS,
    "- a list\n\n  <img src=x onerror=window.pwned=44>",
    "> <svg onload=window.pwned=45>",
  ].join("\n\n");
  const { page, errors, foreign, dialogs } = await openWatched();
  await page.waitForSelector('body[data-ready="1"]');
  for (const size of [3, 7, 100]) {
    const played = await playFrames(page, textReply(deltasOf(doc, size)), doc, true);
    assert.deepEqual(played.unsafe, [], `${size}-character deltas`);
    assert.equal(played.html, played.expected);
  }
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(foreign, [], "no request to another host");
  assert.deepEqual(errors.filter((e) => !e.includes("Content Security Policy")), []);
  await page.close();
});

/** Raw HTML that, parsed as HTML, would run or swallow what follows it: the mXSS of issue
 * 19 (a MathML <style> is no raw-text element: `<!--` opens a comment to the end), raw-text
 * and escapable raw-text elements left open, a comment, the usual XSS. */
const SWALLOWERS = [
  "<math><mtext><table><mglyph><style><!--",
  "<math><mtext><table><mglyph><style><img src=x onerror=window.pwned=101>",
  "<img src=x onerror=window.pwned=102>",
  "<svg><script>window.pwned=103</script>",
  "[a link](javascript:window.pwned=104)",
  "<plaintext>",
  "<xmp>",
  "<textarea>",
  "<title>",
  "<noscript>",
  "<noembed>",
  "<iframe>",
  "<style>",
  "<script>",
  "<template>",
  "<select>",
  "<!--",
];

test("raw HTML is shown as text: no payload runs or hides the text after it (issue 19's mXSS), streamed and whole", async () => {
  const { page, errors, foreign, dialogs } = await openWatched();
  await page.waitForSelector('body[data-ready="1"]');
  for (const [i, payload] of SWALLOWERS.entries()) {
    // the payload inside a paragraph, then a paragraph after it
    const doc = `intro ${i}\n\n${payload} same paragraph ${i}\n\nnext block ${i} with **bold**`;
    for (const size of [5, 1000]) {
      const played = await playFrames(page, textReply(deltasOf(doc, size)), doc, true);
      const where = `${payload} in ${size}-character deltas`;
      assert.deepEqual(played.unsafe, [], where);
      assert.equal(played.html, played.expected, where);
      // what the bubble shows (innerText: the rendered text only), once the block ended
      const shown = await page.evaluate(() => (document.querySelector('[data-block-type="text"]') as HTMLElement).innerText);
      // (a javascript: link keeps its text and loses its href; an HTML block that starts
      // with <script, <style or <textarea, or a comment, runs to its end tag, CommonMark
      // says: the markdown after it is that block's text, shown as is)
      const visible = payload.startsWith("[") ? "a link" : payload;
      const rest = /^<(script|style|textarea)|^<!--/.test(payload) ? "**bold**" : "bold";
      assert.equal(shown, `intro ${i}\n\n${visible} same paragraph ${i}\n\nnext block ${i} with ${rest}`, where);
      // and while it streamed: the later text was there (formatted or still plain text)
      assert.ok(played.streamed.includes(`same paragraph ${i}`) && played.streamed.includes(`next block ${i} with`), `${where}: ${JSON.stringify(played.streamed)}`);
      if (payload.startsWith("[")) {
        // the link that lost its href does nothing when clicked
        const link = page.locator('[data-block-type="text"] a');
        assert.equal(await link.getAttribute("href"), null);
        await link.click();
      }
    }
  }
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(foreign, [], "no request to another host");
  assert.deepEqual(errors, []);
  await page.close();
});

test("a paragraph that grows past plainTail streams as plain text in chunks, lexed no more until a blank line; then markdown again", async () => {
  const { page, errors } = await open("f_tool_image", "&autoplay=0");
  await page.waitForSelector('body[data-ready="1"]');
  const { plainTail, plainChunk } = await page.evaluate(() => (window as unknown as { __demo: Demo }).__demo);
  const head = "# A title\n\nan intro with **bold**\n\n";
  // one paragraph: lines of 200 characters, one line of 3 × plainChunk spaced words, one
  // of emoji with no space at all (surrogate pairs), and the whole past 2 × plainTail
  const line = "words of a long paragraph, *emphasis* and `code` too; ".repeat(4).slice(0, 199) + "\n";
  const paragraph = [line.repeat(Math.ceil(plainTail / line.length)), "spaced word ".repeat(plainChunk), "\n", "😀".repeat(plainChunk * 2), "\n", line.repeat(Math.ceil(plainTail / line.length))].join("");
  const tail = "\n\nafter the long one, **bold** again\n\nthe end";
  const text = head + paragraph.trimEnd() + tail;
  const longStart = head.length;
  const longEnd = head.length + paragraph.trimEnd().length;
  const deltas = deltasOf(text, 1000);
  const frames = await page.evaluate(
    async ({ events, text, longStart }) => {
      const demo = (window as unknown as { __demo: Demo }).__demo;
      const pkg = "agentscope-message";
      const { Session } = await import(pkg);
      const session = new Session();
      demo.begin(session);
      const out: { received: number; lexed: number; plain: string | null; chunks: number[]; split: boolean; strong: boolean; title: boolean }[] = [];
      let received = 0;
      for (const event of events) {
        const parsed = JSON.parse(event);
        if (parsed.type === "TEXT_BLOCK_END") break;
        if (parsed.type === "TEXT_BLOCK_DELTA") received += parsed.delta.length;
        const before = demo.renderedChars;
        session.apply(event);
        demo.flush();
        const block = document.querySelector('[data-block-type="text"]');
        if (block === null) continue;
        const plain = block.querySelector(":scope > .plain");
        const chunks = plain ? [...plain.children].map((c) => c.textContent!.length) : [];
        out.push({
          received,
          lexed: demo.renderedChars - before,
          plain: plain?.textContent ?? null,
          chunks,
          // a chunk never ends inside a surrogate pair
          split: plain !== null && [...plain.children].some((c) => /[\uD800-\uDBFF]$/.test(c.textContent!)),
          strong: [...block.querySelectorAll("p strong")].some((e) => e.textContent === "bold" && e.parentElement!.textContent!.startsWith("after the long one")),
          title: block.querySelector("h1")?.textContent === "A title",
        });
      }
      // the end event, the end of the reply: the block is rendered whole
      for (const event of events.slice(events.findIndex((e) => JSON.parse(e).type === "TEXT_BLOCK_END"))) session.apply(event);
      demo.flush();
      demo.finish("done");
      const block = document.querySelector('[data-block-type="text"]')!;
      const one = document.createElement("div");
      one.innerHTML = demo.markdownHtml(text);
      return { out, html: block.innerHTML, expected: one.innerHTML, plainLeft: block.querySelector(".plain") !== null, longStart };
    },
    { events: textReply(deltas), text, longStart },
  );
  const plainFrames = frames.out.filter((f) => f.plain !== null);
  // past plainTail characters of the open paragraph, it is plain text up to its blank line
  const first = plainFrames[0]!;
  // (at the first render past plainTail: renders come at sizes that double)
  assert.ok(first.received - longStart > plainTail && first.received - longStart <= 2 * plainTail + 1000, `plain from ${first.received}`);
  // every frame from then on until the paragraph's blank line
  const last = plainFrames[plainFrames.length - 1]!;
  assert.ok(frames.out.every((f) => (f.received >= first.received && f.received <= longEnd + 1) === (f.plain !== null)), `plain until ${last.received} (the paragraph ends at ${longEnd})`);
  for (const f of plainFrames) {
    // exactly the text received from the paragraph's start, with the markdown above it frozen
    assert.equal(f.plain, text.slice(longStart, f.received), `at ${f.received}`);
    assert.ok(f.title, "the heading before it stays rendered");
    // (+ 1: the second half of a surrogate pair)
    assert.ok(Math.max(...f.chunks) <= 3 * plainChunk + 1, `chunks at ${f.received}: ${Math.max(...f.chunks)}`);
    // and every chunk but the last has plainChunk characters at least (it ends after them)
    assert.deepEqual(f.chunks.slice(0, -1).filter((n) => n < plainChunk), [], `chunks at ${f.received}`);
    assert.ok(!f.split, `a surrogate pair split at ${f.received}`);
  }
  // the chunks end at line ends where there are some (200-character lines, so ≥ plainChunk)
  assert.ok(last.chunks.length >= Math.floor((longEnd - longStart) / (3 * plainChunk)), `${last.chunks.length} chunks`);
  // the work per frame while it is plain text: no lexing at all
  assert.deepEqual(plainFrames.slice(1).map((f) => f.lexed).filter((n) => n > 0), []);
  // after the blank line: the long paragraph is frozen, the text after it markdown again
  const after = frames.out.filter((f) => f.received > longEnd + 30);
  assert.ok(after[0]!.title, "the heading is still there");
  assert.ok(after.length > 0 && after.every((f) => f.plain === null && f.strong), JSON.stringify(after.map((f) => [f.received, f.plain?.length, f.strong])));
  // and when it ends, the one-shot render of the whole text
  assert.equal(frames.html, frames.expected);
  assert.equal(frames.plainLeft, false);
  assert.deepEqual(errors, []);
  await page.close();
});

// The work bound: while a block streams, the markdown parser reads at most 2 characters per
// character received, plus 4 KiB per block (markdown.js: STREAM_BUDGET, STREAM_SLACK), plus the
// one render of a plain-text tail that may overdraw that credit (at most the text); when
// it ends it is rendered whole once (1 per character). So 4 × size + 4 KiB in all, whatever
// the deltas and the text, and nothing more (re-rendering the whole text per frame, as
// before, reads about size² / (2 × delta): 1,300 × size here).
const LINEAR = 4;

test("streaming 256 KiB in 100-character deltas: the markdown parser reads at most 4 × 256 KiB + 4 KiB", async (t) => {
  const size = 256 * 1024;
  const repeat = (unit: string) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
  const texts = {
    paragraphs: repeat("A paragraph with **bold** text, `code` and a [link](https://example.com/x) in it; it goes on for a while.\n\n"),
    "one paragraph": repeat("one long paragraph without a blank line, with *some* emphasis; "),
    "one fence without a blank line": `\`\`\`\n${repeat("let x = [1, 2, 3]; // a line of code\n")}`,
    "one fence with blank lines": `\`\`\`\n${repeat("let x = 1;\n\n")}`,
    "a list": repeat("- an item of a long list\n\n  with a second paragraph\n\n"),
  };
  const { page, errors } = await open("f_tool_image", "&autoplay=0");
  await page.waitForSelector('body[data-ready="1"]');
  for (const [kind, text] of Object.entries(texts)) {
    const played = await playFrames(page, textReply(deltasOf(text, 100)), text, false);
    const ratio = `${kind}: ${played.chars} characters read for ${text.length} (${(played.chars / text.length).toFixed(2)} per character), at most ${played.behind} shown as plain text`;
    t.diagnostic(ratio);
    assert.ok(played.chars <= LINEAR * text.length + 4096, ratio);
    // and the block keeps up: a tail waits until it has doubled at most
    assert.ok(played.behind <= text.length / 2, ratio);
    assert.ok(played.inPlace, kind);
    assert.equal(played.html, played.expected, kind);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

// ---------- live mode: the page as a chat with a live AgentScope 2.0 service ----------
//
// A real agentscope 2.0.11 service (scripts/agentscope-service: create_app, SQLite, the
// scripted model), the demo server in live mode in front of it (the page reaches the
// service through its /api), and the page in Chromium. Every test ends with the messages
// the bubbles show equal to what the service stored (GET /sessions/{sid}/messages), up to
// the values the reducer makes up itself (`nullRecordingVolatiles`).

describe("live mode", () => {
  let service: ReturnType<typeof startAgentScopeService>;
  let info: LiveService;
  // the tests' own view of the service (not through the page): what `stored` reads of a Service
  let observer: Pick<Service, "url" | "agentId" | "userId">;
  let live: { url: string; close: () => Promise<void> };

  before(async () => {
    service = startAgentScopeService({ env: { AGENTSCOPE_SERVICE_DELAY_MS: "2" }, quiet: true });
    info = await service.ready;
    observer = { url: info.url, agentId: info.agentId, userId: info.userId };
    live = await startDemoServer({ port: 0, live: info });
  });

  after(async () => {
    await live?.close();
    await service?.stop();
  });

  type LivePage = { page: Page; errors: string[]; sessionId: () => string };

  /** The live page (a new session: `?new`; or `?session=…` of `path`), once its chat is ready. */
  /** A live page, in a new browser context, or a new tab of `beside`'s (the same profile: its tabs share a session's stream). */
  async function openLive(path = "?new", viewport = { width: 1100, height: 900 }, ready = true, beside?: Page): Promise<LivePage> {
    const context = beside === undefined ? await browser.newContext({ viewport }) : beside.context();
    const page = await context.newPage();
    // (a context of its own ends with its first page, as browser.newPage()'s does)
    if (beside === undefined) page.once("close", () => void context.close().catch(() => {}));
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(`pageerror: ${e}`));
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(`console: ${m.text()}`);
    });
    await page.goto(`${live.url}${path}`);
    if (ready) await page.waitForSelector('body[data-state="ready"]', { timeout: 30_000 });
    return { page, errors, sessionId: () => new URL(page.url()).searchParams.get("session")! };
  }

  async function send(page: Page, text: string): Promise<void> {
    await page.fill("#prompt", text);
    await page.click("#send");
  }

  /** What the bubbles show (each bubble's message, in page order), read-only through `__demo.messages()`. */
  const shown = (page: Page): Promise<Json[]> => page.evaluate(() => (window as unknown as { __demo: { messages(): Json[] } }).__demo.messages());

  const comparable = (messages: Json[]) => {
    const copy = thaw(messages);
    for (const m of copy) nullRecordingVolatiles(m);
    return copy;
  };

  /**
   * Waits until the service stored `count` messages for the page's session, the last one
   * ended (unless `parked`: a reply waiting for the user), and the page shows them (polled;
   * a reply ends on the page before the service has saved it), then asserts that the
   * bubbles' messages equal the stored ones. Resolves the stored ones.
   */
  async function assertShowsStored(page: Page, sessionId: string, count: number, { parked = false, ms = 30_000 } = {}): Promise<Json[]> {
    const t0 = Date.now();
    for (;;) {
      const [mine, theirs] = await Promise.all([shown(page), stored(observer as Service, sessionId)]);
      const ended = parked ? theirs.at(-1)?.finished_reason === null : theirs.at(-1)?.finished_reason != null;
      const done = theirs.length === count && ended && isDeepStrictEqual(comparable(mine), comparable(theirs));
      if (done || Date.now() - t0 > ms) {
        // what the page said meanwhile (a refused decision shows in its status bar)
        const page_ = done ? "" : await page.evaluate(() => JSON.stringify({ status: (window as any).__demo?.chat?.()?.status, error: (window as any).__demo?.chat?.()?.error, pending: (window as any).__demo?.chat?.()?.pendingActions?.length, bar: document.querySelector("#status")?.textContent }));
        assert.equal(theirs.length, count, `the service stored ${count} messages; the page: ${page_}`);
        assert.equal(ended, true, `the last stored message ${parked ? "parked" : "ended"} within ${ms} ms; the page: ${page_}`);
        assert.deepEqual(comparable(mine), comparable(theirs), `the bubbles' messages are the stored messages; the page: ${page_}`);
        return theirs;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** The visible text of the last bubble's last text block. */
  const lastText = (page: Page) => page.locator("#chat > article.bubble:last-child [data-block-type=text]").last().innerText();

  /** The page's status (the chat's) and the last bubble's finished reason. */
  const ending = (page: Page) => page.evaluate(() => ({ state: document.body.dataset.state, finished: (document.querySelector("#chat > article.bubble:last-child") as HTMLElement | null)?.dataset.finished }));

  test("live: a user turn and its streamed reply, as stored; the session id goes in the URL", async () => {
    const { page, errors, sessionId } = await openLive();
    assert.match(sessionId(), /^[0-9a-f]{32}$/, "the new session's id is in the URL");
    await send(page, "hello live demo");
    const messages = await assertShowsStored(page, sessionId(), 2);
    assert.deepEqual(messages.map((m) => m.role), ["user", "assistant"]);
    assert.equal(await lastText(page), "You said: hello live demo");
    assert.equal(await page.locator("#chat > article.bubble.user").innerText().then((t) => t.includes("hello live demo")), true);
    assert.deepEqual(await ending(page), { state: "ready", finished: "completed" });
    assert.equal(await page.inputValue("#prompt"), "", "the composer is emptied");
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("live: the demo server forwards only the chat API to the service", async () => {
    const headers = { "X-User-ID": info.userId };
    const created = await fetch(`${live.url}api/sessions/`, { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify({ agent_id: info.agentId, chat_model_config: info.chatModelConfig }) });
    assert.equal(created.status, 201);
    const { session_id } = (await created.json()) as { session_id: string };
    const status = await fetch(`${live.url}api/sessions/${session_id}/status?agent_id=${info.agentId}`, { headers });
    assert.deepEqual(await status.json(), { session_id, status: "idle" });
    for (const path of ["api/credential/", "api/agent/", "api/scenarios"]) {
      assert.equal((await fetch(`${live.url}${path}`, { headers })).status, 404, path);
    }
  });

  for (const [decision, text, state] of [["approve", "The Bash call was approved.", "success"], ["deny", "The Bash call was denied.", "denied"]] as const) {
    test(`live: confirm → the tool card waits with Approve / Deny; clicking ${decision} continues the reply`, async () => {
      const { page, errors, sessionId } = await openLive();
      await send(page, "confirm");
      await page.waitForSelector('body[data-state="awaiting_input"] [data-block-type="tool_call"][data-state="asking"] button[data-action="approve"]', { timeout: 30_000 });
      await assertShowsStored(page, sessionId(), 2, { parked: true }); // the parked reply, as stored
      await page.locator(`button[data-action="${decision}"]`).click();
      const messages = await assertShowsStored(page, sessionId(), 2);
      assert.equal(messages[1]!.finished_reason, "completed");
      assert.equal(await lastText(page), text);
      const card = page.locator('[data-block-type="tool_call"]');
      assert.equal(await card.getAttribute("data-state"), messages[1]!.content.find((b: Json) => b.type === "tool_call").state);
      assert.equal(await card.locator('[data-block-type="tool_result"]').getAttribute("data-state"), state, "the result is in its call's card");
      assert.equal(await page.locator('button[data-action="approve"]').count(), 0, "no button left");
      assert.deepEqual(await ending(page), { state: "ready", finished: "completed" });
      assert.deepEqual(errors, []);
      await page.close();
    });
  }

  test("live: ask → the AskUser form; the chosen answer goes back as the tool's result", async () => {
    const { page, errors, sessionId } = await openLive();
    await send(page, "ask");
    const form = page.locator("form.ask-form");
    await form.waitFor({ timeout: 30_000 });
    // the parked reply, as stored (as the confirm test checks it)
    await assertShowsStored(page, sessionId(), 2, { parked: true });
    assert.equal(await form.locator(".ask-text").innerText(), "Which color do you prefer?");
    assert.deepEqual(await form.locator(".ask-label").allInnerTexts(), ["Red", "Blue"]);
    await form.locator(".ask-option", { hasText: "Blue" }).click();
    await form.locator("button.decision").click();
    const messages = await assertShowsStored(page, sessionId(), 2);
    assert.equal(await lastText(page), "You answered: Blue");
    const result = messages[1]!.content.find((b: Json) => b.type === "tool_result");
    assert.equal(result.state, "success");
    assert.equal(await page.locator("form.ask-form").count(), 0, "the form is gone once answered");
    assert.deepEqual(await ending(page), { state: "ready", finished: "completed" });
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("live: Stop mid-reply (long 3000) ends it interrupted, with what it had", async () => {
    const { page, errors, sessionId } = await openLive();
    await send(page, "long 3000");
    await page.waitForFunction(() => document.querySelector("#chat > article.bubble.assistant")?.textContent?.includes("w100 "), null, { timeout: 30_000 });
    assert.equal(await page.evaluate(() => document.body.dataset.state), "streaming");
    await page.click("#stop");
    const messages = await assertShowsStored(page, sessionId(), 2);
    assert.equal(messages[1]!.finished_reason, "interrupted");
    const text = await lastText(page);
    assert.ok(text.startsWith("w0 w1 w2 ") && !text.includes("w2999"), `an interrupted text: ${text.slice(0, 40)}…${text.slice(-40)}`);
    assert.deepEqual(await ending(page), { state: "ready", finished: "interrupted" });
    assert.equal(await page.isDisabled("#stop"), true, "Stop is disabled once the reply ended");
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("live: a reload mid-reply (long 1500) resumes the session: history, then the stream", async () => {
    const { page, errors, sessionId } = await openLive();
    const sid = sessionId();
    await send(page, "long 1500");
    await page.waitForFunction(() => document.querySelector("#chat > article.bubble.assistant")?.textContent?.includes("w200 "), null, { timeout: 30_000 });
    await page.reload();
    assert.equal(sessionId(), sid, "the same session after the reload");
    // back mid-reply: the reply streams on in the same bubble
    await page.waitForFunction(() => document.body.dataset.state === "streaming" && document.querySelector("#chat > article.bubble.assistant") !== null, null, { timeout: 30_000 });
    const messages = await assertShowsStored(page, sid, 2);
    assert.equal(messages[1]!.finished_reason, "completed");
    const text = await lastText(page);
    assert.ok(text.startsWith("w0 w1 ") && text.trimEnd().endsWith("w1499"), "the whole reply, once");
    assert.equal(text.split(" ").filter((w) => w === "w200").length, 1, "no text doubled");
    assert.deepEqual(await ending(page), { state: "ready", finished: "completed" });
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("live: a second tab on the same session sees the first tab's reply stream", async () => {
    const one = await openLive();
    const sid = one.sessionId();
    // (a tab of the same browser: the tab that sends tells the others, which join its stream)
    const two = await openLive(`?session=${sid}`, undefined, true, one.page);
    await send(one.page, "long 1500");
    // tab 2 shows the reply while it streams (it never sent anything)
    await two.page.waitForFunction(
      () => document.body.dataset.state === "streaming" && (document.querySelector("#chat > article.bubble.assistant")?.textContent?.includes("w300 ") ?? false),
      null,
      { timeout: 30_000 },
    );
    for (const tab of [one, two]) {
      const messages = await assertShowsStored(tab.page, sid, 2);
      assert.deepEqual(messages.map((m) => m.role), ["user", "assistant"], "tab 2 gets tab 1's user turn from the history");
      assert.ok((await lastText(tab.page)).trimEnd().endsWith("w1499"));
      assert.deepEqual(await ending(tab.page), { state: "ready", finished: "completed" });
      assert.deepEqual(tab.errors, []);
    }
    await one.page.close();
    await two.page.close();
  });

  // ---------- the live demo as an app: sessions, attachments, tasks, a team, audio ----------

  /** The service's own list of the agent's sessions (`GET /sessions/?agent_id=…`), not through the page. */
  async function serviceSessions(): Promise<Json[]> {
    const res = await fetch(`${info.url}/sessions/?agent_id=${info.agentId}`, { headers: { "X-User-ID": info.userId } });
    assert.equal(res.status, 200);
    return ((await res.json()) as { sessions: Json[] }).sessions;
  }
  const serviceSession = async (id: string) => (await serviceSessions()).find((v) => v.session.id === id);

  /** Polls `check` (a promise of a truthy value) until it holds, for up to `ms`; resolves its value. */
  async function until<T>(what: string, check: () => Promise<T>, ms = 30_000): Promise<NonNullable<T>> {
    const t0 = Date.now();
    for (;;) {
      const value = await check();
      if (value) return value as NonNullable<T>;
      if (Date.now() - t0 > ms) assert.fail(`timed out: ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** The session list as the page shows it: [id, name, current]. */
  const listed = (page: Page) =>
    page.$$eval("#session-list > li.session", (items) => items.map((li) => [(li as HTMLElement).dataset.sessionId, li.querySelector(".session-name")?.textContent, li.getAttribute("aria-current") === "true"]));

  /** Waits until the stored messages of the page's session end with a text containing `text`, then asserts the page shows them all. */
  async function assertShowsStoredEnding(page: Page, sessionId: string, text: string): Promise<Json[]> {
    const all = await until(`a stored reply with "${text}"`, async () => {
      const messages = await stored(observer as Service, sessionId);
      const last = messages.at(-1);
      return last?.finished_reason != null && last.content.some((b: Json) => b.type === "text" && b.text.includes(text)) ? messages : null;
    });
    return assertShowsStored(page, sessionId, all.length);
  }

  // a 1×1 PNG (the seeimage echo counts its base64 characters as the model got them)
  const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

  test("live app: the session list — New, the auto-named title after the first reply, rename inline, delete after a confirm step; a bare URL opens the most recent", async () => {
    const { page, errors, sessionId } = await openLive();
    const first = sessionId();
    await until("the new session listed, current", async () => (await listed(page)).find(([id, , current]) => id === first && current));
    await send(page, "hello session list");
    await assertShowsStored(page, first, 2);
    // the service names it after the first reply (CUSTOM session_updated): the list and the header follow
    await until("the auto-named title in the list", async () => (await listed(page)).find(([id, name]) => id === first && name === "Chat: hello session list"));
    assert.equal((await serviceSession(first))!.session.config.name, "Chat: hello session list");
    await until("the title in the header", async () => (await page.textContent("#live-title")) === "Chat: hello session list");
    assert.equal(await page.evaluate(() => (window as unknown as { __demo: { chat(): Json } }).__demo.chat().session.session.config.name), "Chat: hello session list");

    // New: a second session, opened, empty; the first still listed
    await page.click("#new-session");
    await until("a new session in the URL", async () => sessionId() !== first && (await page.evaluate(() => document.body.dataset.state)) === "ready");
    const second = sessionId();
    assert.equal(await page.locator("#chat > article.bubble").count(), 0, "the new session's chat is empty");
    await until("both listed, the new one current", async () => {
      const rows = await listed(page);
      return rows.find(([id, , current]) => id === second && current) && rows.find(([id, , current]) => id === first && !current);
    });
    assert.ok(await serviceSession(second), "the service has it");

    // rename the first one inline (Enter saves); Escape cancels another edit
    const row = (id: string) => page.locator(`#session-list > li[data-session-id="${id}"]`);
    await row(first).locator("button.rename").click();
    await row(first).locator("input.rename-field").fill("Renamed by the test");
    await row(first).locator("input.rename-field").press("Enter");
    await until("the service renamed it", async () => (await serviceSession(first))!.session.config.name === "Renamed by the test");
    await until("the list shows the new name", async () => (await listed(page)).find(([id, name]) => id === first && name === "Renamed by the test"));
    await row(second).locator("button.rename").click();
    await row(second).locator("input.rename-field").fill("not this");
    await row(second).locator("input.rename-field").press("Escape");
    assert.notEqual((await serviceSession(second))!.session.config.name, "not this");

    // open the first again by clicking it: its messages, as stored
    await row(first).locator("button.session-open").click();
    await until("the first session open", async () => sessionId() === first);
    await assertShowsStored(page, first, 2);
    assert.equal(await page.textContent("#live-title"), "Renamed by the test");

    // delete the second: a confirm step (Cancel keeps it), then Delete
    await row(second).locator("button.delete").click();
    await row(second).locator(".session-confirm button.cancel").click();
    assert.equal(await row(second).count(), 1, "Cancel keeps it");
    assert.ok(await serviceSession(second));
    await row(second).locator("button.delete").click();
    await row(second).locator(".session-confirm button.delete").click();
    await until("gone from the list", async () => (await row(second).count()) === 0);
    assert.equal(await serviceSession(second), undefined, "gone from the service");
    assert.equal(sessionId(), first, "the open session stays open");

    // deleting the open session opens the most recent other one
    await page.click("#new-session");
    await until("a third session open", async () => ![first, second].includes(sessionId()) && (await page.evaluate(() => document.body.dataset.state)) === "ready");
    const third = sessionId();
    await row(third).locator("button.delete").click();
    await row(third).locator(".session-confirm button.delete").click();
    await until("the deleted open session is gone", async () => (await row(third).count()) === 0 && sessionId() !== third);
    assert.equal(await serviceSession(third), undefined);

    // a bare URL creates nothing: it opens the most recent session
    const before = (await serviceSessions()).length;
    const again = await openLive("");
    const newest = (await serviceSessions()).filter((v) => v.session.origin.type === "user").sort((a, b) => String(b.session.updated_at).localeCompare(String(a.session.updated_at)))[0]!;
    assert.equal(again.sessionId(), newest.session.id, "the most recent session");
    assert.equal((await serviceSessions()).length, before, "no session created by opening the page");
    assert.deepEqual([...errors, ...again.errors], []);
    await again.page.close();
    await page.close();
  });

  test("live app: images attached by picking, pasting and dropping, as thumbnails; sent with seeimage, echoed; over 10 MiB refused with limit_exceeded", async () => {
    const { page, errors, sessionId } = await openLive();
    await page.setInputFiles("#attach", { name: "dot.png", mimeType: "image/png", buffer: PNG });
    await page.waitForSelector("#attachments .attachment img");
    // paste and drop (a File in a DataTransfer, as the browser makes them)
    // (no named function in here: tsx would wrap it in a helper the page does not have)
    await page.evaluate((bytes) => {
      const paste = new DataTransfer();
      paste.items.add(new File([new Uint8Array(bytes)], "pasted.png", { type: "image/png" }));
      document.getElementById("prompt")!.dispatchEvent(new ClipboardEvent("paste", { clipboardData: paste, bubbles: true, cancelable: true }));
      const drop = new DataTransfer();
      drop.items.add(new File([new Uint8Array(bytes)], "dropped.png", { type: "image/png" }));
      document.getElementById("prompt")!.dispatchEvent(new DragEvent("drop", { dataTransfer: drop, bubbles: true, cancelable: true }));
    }, [...PNG]);
    await until("three thumbnails", async () => (await page.locator("#attachments .attachment").count()) === 3);
    // ✕ takes one back
    await page.locator("#attachments .attachment button.remove").last().click();
    assert.equal(await page.locator("#attachments .attachment").count(), 2);
    // a file over 10 MiB is refused by dataBlock: the status says so, no thumbnail
    await page.setInputFiles("#attach", { name: "huge.png", mimeType: "image/png", buffer: Buffer.alloc(10 * 1024 * 1024 + 1) });
    await until("limit_exceeded in the status", async () => /huge\.png not attached — limit_exceeded/.test((await page.textContent("#status")) ?? ""));
    assert.equal(await page.locator("#attachments .attachment").count(), 2);
    // a text file is not an image
    await page.setInputFiles("#attach", { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hi") });
    await until("only images", async () => /notes\.txt not attached: only images/.test((await page.textContent("#status")) ?? ""));

    await send(page, "seeimage");
    const b64 = PNG.toString("base64");
    const echo = `I received image/png (base64, ${b64.length} chars); image/png (base64, ${b64.length} chars).`;
    const messages = await assertShowsStored(page, sessionId(), 2);
    assert.equal(await lastText(page), echo);
    const images = messages[0]!.content.filter((b: Json) => b.type === "data");
    assert.deepEqual(images.map((b: Json) => [b.source.media_type, b.source.data]), [["image/png", b64], ["image/png", b64]], "stored as sent");
    assert.equal(await page.locator("#chat > article.bubble.user img.media").count(), 2, "the user's bubble shows its images");
    assert.equal(await page.locator("#chat > article.bubble.user img.media").first().evaluate((img) => (img as HTMLImageElement).naturalWidth), 1, "the image loaded (CSP: img-src data:)");
    assert.equal(await page.locator("#attachments .attachment").count(), 0, "the tray is emptied");
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("live app: task → the tasks panel shows it; the mode selector sets the permission mode (the service's list agrees), refused with busy while a run holds the session", async () => {
    const { page, errors, sessionId } = await openLive("?new", { width: 1280, height: 800 });
    const sid = sessionId();
    assert.equal(await page.inputValue("#permission-mode"), "default");
    await send(page, "task");
    await page.waitForSelector('#tasks li.task[data-state="pending"]', { timeout: 30_000 });
    await assertShowsStored(page, sid, 2);
    const tasks = (await serviceSession(sid))!.session.state.tasks_context.tasks as Json[];
    assert.equal(tasks.length, 1);
    assert.deepEqual(
      await page.$$eval("#tasks li.task", (items) => items.map((li) => [(li as HTMLElement).dataset.taskId, li.querySelector(".task-subject")?.textContent, li.querySelector(".task-desc")?.textContent, (li as HTMLElement).dataset.state])),
      tasks.map((t) => [t.id, t.subject, t.description, t.state]),
      "the panel's tasks are the service's",
    );
    assert.equal(tasks[0]!.subject, "Write the report");

    await page.selectOption("#permission-mode", "accept_edits");
    await until("the service's mode", async () => (await serviceSession(sid))!.session.state.permission_context.mode === "accept_edits");
    await until("the page's mode", async () => (await page.evaluate(() => document.body.dataset.permissionMode)) === "accept_edits");

    // while a reply runs: Stop is enabled, and the mode cannot change (busy): said, and the selector goes back
    await send(page, "slow");
    await page.waitForFunction(() => document.body.dataset.state === "streaming", null, { timeout: 30_000 });
    assert.equal(await page.isEnabled("#stop"), true, "Stop is enabled while streaming");
    await page.selectOption("#permission-mode", "explore");
    await until("busy in the panel", async () => /^busy/.test((await page.textContent("#permission-note")) ?? ""));
    await until("the selector shows the mode the session has", async () => (await page.inputValue("#permission-mode")) === "accept_edits");
    assert.equal((await serviceSession(sid))!.session.state.permission_context.mode, "accept_edits");
    await assertShowsStored(page, sid, 4);
    assert.equal(await page.isDisabled("#stop"), true, "Stop is disabled once the reply ended");
    // (at rest for idleStreamMs, 2 s, the page holds no stream: connection idle)
    await until("the stream let go at rest", async () => (await page.evaluate(() => document.body.dataset.connection)) === "idle");
    assert.deepEqual(await page.evaluate(() => [document.body.dataset.state, document.body.dataset.connection, document.querySelector("#status .status-connection")!.textContent, document.querySelector("#status .status-text")!.textContent]), ["ready", "idle", "stream idle (at rest: no connection held)", "ready"]);
    // after the run, the change goes through
    await page.selectOption("#permission-mode", "explore");
    await until("the service's mode, after the run", async () => (await serviceSession(sid))!.session.state.permission_context.mode === "explore");
    // (the refused PATCH is the browser's one logged 409)
    assert.deepEqual(errors.filter((e) => !/status of 409 \(Conflict\)/.test(e)), []);
    assert.ok(errors.length <= 1, errors.join("\n"));
    await page.close();
  });

  test("live app: team → the worker's confirmation card (the leader stays ready); Approve; the leader's reply", async () => {
    const { page, errors, sessionId } = await openLive("?new", { width: 1280, height: 800 });
    const sid = sessionId();
    await send(page, "team");
    const card = page.locator("#worker-cards .worker-card");
    await card.waitFor({ timeout: 30_000 });
    assert.match(await card.locator(".worker-title").innerText(), /^worker worker wants to run Bash$/);
    assert.equal(await card.locator("pre").innerText(), "touch worker.txt");
    await assertShowsStoredEnding(page, sid, "The team is at work.");
    assert.equal(await page.evaluate(() => document.body.dataset.state), "ready", "the worker's call does not make the leader awaiting_input");
    assert.equal(await page.locator("#team-section").isVisible(), true);
    assert.match(await page.textContent("#team") ?? "", /Scripted team, led by Scripted.*worker/s);
    await card.locator('button[data-action="approve"]').click();
    const messages = await assertShowsStoredEnding(page, sid, "The worker said:");
    assert.equal(await lastText(page), "The worker said: report: the Bash call was approved.");
    assert.equal(messages.at(-1)!.role, "assistant");
    await until("the card is gone", async () => (await card.count()) === 0);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("live app: audio → an <audio controls> whose data: URL is the stored block's data, and it loads", async () => {
    const { page, errors, sessionId } = await openLive();
    await send(page, "audio");
    const messages = await assertShowsStored(page, sessionId(), 2);
    const block = messages[1]!.content.find((b: Json) => b.type === "data");
    assert.equal(block.source.media_type, "audio/wav");
    const audio = page.locator("#chat > article.bubble.assistant audio.media");
    assert.equal(await audio.count(), 1);
    const src = (await audio.getAttribute("src"))!;
    assert.equal(src, `data:audio/wav;base64,${block.source.data}`);
    assert.ok(Buffer.from(src.split(",")[1]!, "base64").subarray(0, 4).toString() === "RIFF", "a WAV file");
    assert.equal(await audio.evaluate((a) => (a as HTMLAudioElement).controls), true);
    const loaded = await audio.evaluate((a: HTMLAudioElement) => new Promise<number>((resolve) => {
      if (a.readyState >= 1) return resolve(a.duration);
      a.addEventListener("loadedmetadata", () => resolve(a.duration));
      a.addEventListener("error", () => resolve(-1));
    }));
    assert.ok(loaded > 0, `the browser reads it as audio (CSP media-src data:): duration ${loaded}`);
    assert.equal(await lastText(page), "Here is a short beep.");
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("live screenshots (web-demo/out/live-*.png): a confirm card waiting, a finished tool reply, dark mode, 390 and 1280 px", async () => {
    const { page, errors, sessionId } = await openLive("?new", { width: 1280, height: 800 });
    await send(page, "tool");
    await assertShowsStored(page, sessionId(), 2);
    assert.equal(await lastText(page), "Tool said: tool-ok.");
    await shoot(page, join(out, "live-tool-1280.png"));
    await send(page, "confirm");
    await page.waitForSelector('button[data-action="approve"]', { timeout: 30_000 });
    await assertShowsStored(page, sessionId(), 4, { parked: true });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
      for (const scheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await assertStatusBesideChat(page, `live ${width} px ${scheme}, waiting`);
        await page.screenshot({ path: join(out, `live-confirm-${width}${scheme === "dark" ? "-dark" : ""}.png`) });
      }
    }
    await page.emulateMedia({ colorScheme: "light" });
    await page.locator('button[data-action="approve"]').click();
    await assertShowsStored(page, sessionId(), 4);
    await page.setViewportSize({ width: 390, height: 844 });
    await assertStatusBesideChat(page, "live 390 px, done");
    await shoot(page, join(out, "live-tool-390.png"));
    await page.emulateMedia({ colorScheme: "dark" });
    await page.setViewportSize({ width: 1280, height: 800 });
    await shoot(page, join(out, "live-done-1280-dark.png"));
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("live app screenshots (web-demo/out/live-app-*.png): sessions, an attached image, a task, a worker's card; 390 and 1280 px, light and dark; the drawers at 390 px", async () => {
    const { page, errors, sessionId } = await openLive("?new", { width: 1280, height: 800 });
    const sid = sessionId();
    await send(page, "hello from the screenshot");
    await assertShowsStored(page, sid, 2);
    await page.setInputFiles("#attach", { name: "dot.png", mimeType: "image/png", buffer: PNG });
    await page.waitForSelector("#attachments .attachment img");
    await send(page, "seeimage");
    await assertShowsStored(page, sid, 4);
    await send(page, "task");
    await assertShowsStored(page, sid, 6);
    await send(page, "team");
    await page.locator("#worker-cards .worker-card").waitFor({ timeout: 30_000 });
    await assertShowsStoredEnding(page, sid, "The team is at work.");
    await page.setInputFiles("#attach", { name: "dot.png", mimeType: "image/png", buffer: PNG });
    await page.fill("#prompt", "seeimage");
    await until("the auto-named title", async () => (await page.textContent("#live-title")) === "Chat: hello from the screenshot");
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
      for (const scheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await assertStatusBesideChat(page, `live app ${width} px ${scheme}`);
        const fits = await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth);
        assert.ok(fits, `nothing wider than the viewport at ${width} px`);
        const worker = (await page.locator("#worker-cards").boundingBox())!;
        const composer = (await page.locator("#composer").boundingBox())!;
        assert.ok(worker.y + worker.height <= composer.y + 0.5, "the worker's card is above the composer");
        await page.screenshot({ path: join(out, `live-app-${width}-${scheme}.png`) });
      }
    }
    // 390 px: the session list and the panel are drawers over the chat
    await page.emulateMedia({ colorScheme: "light" });
    assert.equal(await page.locator("#sessions").isVisible(), false);
    await page.click("#toggle-sessions");
    assert.equal(await page.locator("#sessions").isVisible(), true);
    await page.screenshot({ path: join(out, "live-app-390-sessions.png") });
    await page.click("#toggle-panel");
    assert.equal(await page.locator("#sessions").isVisible(), false, "one drawer at a time");
    assert.equal(await page.locator("#panel").isVisible(), true);
    assert.equal(await page.locator("#tasks li.task").count(), 1);
    await page.screenshot({ path: join(out, "live-app-390-panel.png") });
    await page.click("#toggle-panel");
    await page.locator('#worker-cards button[data-action="approve"]').click();
    await assertShowsStoredEnding(page, sid, "The worker said:");
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.click("#send");
    await assertShowsStoredEnding(page, sid, "I received image/png");
    await page.emulateMedia({ colorScheme: "dark" });
    await shoot(page, join(out, "live-app-done-1280-dark.png"));
    assert.deepEqual(errors, []);
    await page.close();
  });
});
