// The web demo in real Chromium (playwright-core, Debian's /usr/bin/chromium): the page
// plays real recordings over SSE, and what each bubble shows equals what the Rust CLI
// rebuilds from the same recording — the frontend and the backend agree.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import { startDemoServer } from "../../web-demo/server.mjs";
import { root, type Json } from "./helpers.ts";

const out = join(root, "web-demo/out");
let browser: Browser;
let server: { url: string; close: () => Promise<void> };

before(async () => {
  mkdirSync(out, { recursive: true });
  server = await startDemoServer({ port: 0 });
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** What the Rust CLI rebuilds from a recording: one message per reply. */
function backend(id: string): Json[] {
  const file = join(root, "examples/recordings", id, "events.jsonl");
  const stdout = execFileSync("cargo", ["run", "-q", "--bin", "agentscope-message", "--", "replay", "--all", file], { cwd: root, encoding: "utf8" });
  return JSON.parse(stdout);
}

async function open(id: string, extra = ""): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(`pageerror: ${e}`));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`console: ${m.text()}`);
  });
  await page.goto(`${server.url}?scenario=${id}&speed=0&autoplay=1${extra}`);
  return { page, errors };
}

/** Compares every bubble with the CLI's messages: texts, thinking, tool states, images. */
async function assertMatchesBackend(page: Page, id: string): Promise<void> {
  const messages = backend(id);
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
        results: blocks.filter((b) => b.type === "tool_result").map((b) => b.state),
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
      results: [...node.querySelectorAll('[data-block-type="tool_result"]')].map((e) => (e as HTMLElement).dataset.state),
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
    await page.screenshot({ path: join(out, `${id}.png`), fullPage: true });
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
    await page.screenshot({ path: join(out, `${id}-paused.png`), fullPage: true });
    await button.click();
    await done(page);
    await assertMatchesBackend(page, id);
    await page.screenshot({ path: join(out, `${id}.png`), fullPage: true });
    assert.deepEqual(errors, []);
    await page.close();
  });
}

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

test("a dropped log file is replayed in the page", async () => {
  const { page, errors } = await open("f_tool_image", "&autoplay=0");
  await page.waitForSelector('body[data-ready="1"]');
  await page.setInputFiles("#file", join(root, "examples/recordings/d_parallel_tool_calls/events.sse"));
  await done(page);
  await assertMatchesBackend(page, "d_parallel_tool_calls");
  assert.deepEqual(errors, []);
  await page.close();
});

test("model text cannot inject HTML, and the server sends a Content-Security-Policy", async () => {
  const res = await fetch(server.url);
  assert.match(res.headers.get("content-security-policy") ?? "", /script-src 'self' 'wasm-unsafe-eval'/);
  const { page, errors } = await open("f_tool_image", "&autoplay=0");
  await page.waitForSelector('body[data-ready="1"]');
  const html = await page.evaluate(() =>
    (window as unknown as { __demo: { markdownToText(md: string): string } }).__demo.markdownToText(
      'hi <img src=x onerror="window.pwned=1"><script>window.pwned=2</script> **there**',
    ),
  );
  assert.equal(html.includes("pwned"), false);
  await page.waitForTimeout(200);
  assert.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
  // DOMPurify's own parse of the hostile string trips the CSP (which blocks it): that
  // report is the only console output allowed here
  assert.deepEqual(errors.filter((e) => !e.includes("Content Security Policy")), []);
  await page.close();
});
