// `agentscope-message/react` as users get it: `npm pack`, install the tarball into a
// scratch consumer, build the app in tests/react-app/ with Vite 8 (production, React 19)
// and run it in headless Chromium against a server that streams real recordings over SSE
// in delayed chunks. What the page renders must equal the recording's final message, the
// hook must re-render per chunk (not per event), and `pendingActions` must show the calls
// awaiting confirmation mid-stream.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import type { Page } from "playwright-core";
import { splitEvents } from "../../pkg/dist/index.js";
import { type Json, root } from "./helpers.ts";
import { startViteApp, type ViteApp } from "./vite-app.ts";

const recordingsDir = join(root, "examples/recordings");
const CHUNKS = 8;
const CHUNK_DELAY_MS = 40;

let site: ViteApp | undefined;
/** Paths the page requested, with the content type served. */
const served: [string, string][] = [];
/** Set while a held stream waits before its last chunk; calling it sends the rest. */
let release: (() => void) | undefined;
let onHeld: (() => void) | undefined;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The recording's SSE frames, re-encoded from the events the package's framer reads. */
function sseFrames(recording: string): string[] {
  return splitEvents(readFileSync(join(recordingsDir, recording, "events.sse"))).map((e) => `data: ${e}`);
}

function jsonl(recording: string): Json[] {
  return splitEvents(readFileSync(join(recordingsDir, recording, "events.jsonl"))).map((e) => JSON.parse(e));
}

/** Streams `/events.sse?rec=…[&upto=N][&hold=1]`: the first N frames, in CHUNKS byte
 * slices cut anywhere (inside frames and UTF-8 sequences), CHUNK_DELAY_MS apart; with
 * `hold`, the second half waits for the test's `release`. */
async function streamRecording(url: URL, res: import("node:http").ServerResponse): Promise<void> {
  const rec = url.searchParams.get("rec") ?? "";
  if (!/^[a-z0-9_]+$/.test(rec) || !existsSync(join(recordingsDir, rec, "events.sse"))) {
    res.writeHead(404).end();
    return;
  }
  const frames = sseFrames(rec);
  const upto = Number(url.searchParams.get("upto") ?? frames.length);
  const bytes = Buffer.from(frames.slice(0, upto).map((f) => `${f}\n\n`).join(""), "utf8");
  res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
  const size = Math.ceil(bytes.length / CHUNKS);
  for (let i = 0; i < CHUNKS; i++) {
    if (i === CHUNKS / 2 && url.searchParams.get("hold") === "1") {
      await new Promise<void>((resolve) => {
        release = resolve;
        onHeld?.();
      });
    }
    res.write(bytes.subarray(i * size, (i + 1) * size));
    await sleep(CHUNK_DELAY_MS);
  }
  res.end();
}

before(async () => {
  // the package as published (tests/ts/vite-app.ts), the app built for production with
  // Vite's JS API, served with the SSE endpoint beside it. Under target/ (git-ignored),
  // `vite`, `react` and `react-dom` resolve from the repository's node_modules by walking
  // up: no registry download of React or Vite, and a single React copy shared by the app
  // and the package's react.js (it has no runtime dependencies; react is an optional peer
  // and is not installed).
  site = await startViteApp({
    name: "react",
    from: "tests/react-app",
    route: (url, _req, res) => {
      if (url.pathname !== "/events.sse") return false;
      served.push([url.pathname, "text/event-stream"]);
      streamRecording(url, res).catch(() => res.destroy());
      return true;
    },
    onStatic: (pathname, type) => void served.push([pathname, type]),
  });
  assert.ok(!existsSync(join(site.app, "node_modules/react")), "the optional react peer is not installed; it resolves from the repo");
});

after(async () => {
  release?.();
  await site?.close();
});

interface Shown {
  done: string;
  error: string;
  renders: number;
  streamingRenders: number;
  pending: number;
  pendingIds: string;
  replies: string[];
  blocks: { type: string; id: string; name: string | null; state: string | null; text: string | null; length: number | null }[];
}

/** What the page shows: the app's data attributes and every rendered block. */
function readPage(page: Page): Promise<Shown> {
  return page.evaluate(() => {
    const app = document.getElementById("app") as HTMLElement;
    const d = app.dataset;
    return {
      done: d.done ?? "",
      error: d.error ?? "",
      renders: Number(d.renders),
      streamingRenders: Number(d.streamingRenders),
      pending: Number(d.pending),
      pendingIds: d.pendingIds ?? "",
      replies: [...app.querySelectorAll("article")].map((a) => (a as HTMLElement).dataset.replyId ?? ""),
      blocks: [...app.querySelectorAll<HTMLElement>("[data-block-type]")].map((e) => {
        const t = e.dataset.blockType ?? "";
        const texty = t === "text" || t === "thinking";
        return {
          type: t,
          id: e.dataset.id ?? "",
          name: e.dataset.name ?? null,
          state: e.dataset.state ?? null,
          text: texty ? e.textContent : null,
          length: texty ? Number(e.dataset.textLength) : null,
        };
      }),
    };
  });
}

/** The same view worked out from a recording's final_msg.json. */
function expectedBlocks(msg: Json): Shown["blocks"] {
  return (msg.content as Json[]).map((b) => {
    const text: string | null = b.type === "text" ? b.text : b.type === "thinking" ? b.thinking : null;
    const call = b.type === "tool_call" || b.type === "tool_result";
    return { type: b.type, id: b.id, name: call ? b.name : null, state: call ? b.state : null, text, length: text === null ? null : text.length };
  });
}

const open = (query: string) => site!.open(`/?${query}`);

const waitDone = (page: Page) =>
  page.waitForFunction(() => document.getElementById("app")?.dataset.done === "true", undefined, { timeout: 20_000 });

test("only the react subpath imports react", () => {
  const distDir = join(root, "pkg/dist");
  const importsReact = /(?:\bfrom\s*|\bimport\s*\(?\s*)["']react(?:-dom)?(?:\/[^"']*)?["']/;
  assert.match(readFileSync(join(distDir, "react.js"), "utf8"), importsReact, "the check sees react.js's import");
  // index.js and session.js, and every module they import (transitively) in dist/
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, "utf8");
    assert.doesNotMatch(code, importsReact, `${file} imports react`);
    for (const [, spec] of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}\/[^"']+)["']/g)) visit(join(dirname(file), spec!));
  };
  visit(join(distDir, "index.js"));
  visit(join(distDir, "session.js"));
  visit(join(distDir, "init-web.js"));
  assert.ok(!seen.has(join(distDir, "react.js")));
  assert.ok(seen.size >= 6, `walked ${seen.size} modules`);
});

test("a Vite + React production app streams c_react_3_tools_2_iters with useEventStream", async () => {
  const rec = "c_react_3_tools_2_iters";
  const final = JSON.parse(readFileSync(join(recordingsDir, rec, "final_msg.json"), "utf8"));
  const events = sseFrames(rec).length;
  assert.equal(events, jsonl(rec).length);
  const held = new Promise<void>((resolve) => (onHeld = resolve));
  const { page, problems } = await open(`rec=${rec}&hold=1`);
  try {
    // mid-stream: half the slices are out; the page renders a partial message
    await held;
    await page.waitForFunction(
      () => {
        const d = document.getElementById("app")?.dataset;
        return d !== undefined && Number(d.streamingRenders) >= 2 && document.querySelector('[data-block-type="text"]') !== null;
      },
      undefined,
      { timeout: 20_000 },
    );
    const mid = await readPage(page);
    assert.equal(mid.done, "false");
    assert.ok(mid.blocks.length < final.content.length, `partial: ${mid.blocks.length} blocks`);
    // what is shown so far is a prefix of the final message, block by block
    mid.blocks.forEach((b, i) => {
      const want = expectedBlocks(final)[i]!;
      assert.deepEqual([b.type, b.id], [want.type, want.id]);
      if (b.text !== null) assert.ok(want.text!.startsWith(b.text!), `${b.text} starts ${want.text}`);
    });
    // tag the rendered block elements: stable blockKeys keep them mounted till the end
    const tagged = await page.evaluate(() => {
      const nodes = [...document.querySelectorAll("[data-block-type]")];
      (window as unknown as { __tagged: Element[] }).__tagged = nodes;
      return nodes.length;
    });
    release!();
    release = undefined;
    await waitDone(page);
    const shown = await readPage(page);
    assert.deepEqual(problems, []);
    assert.equal(shown.error, "");
    assert.deepEqual(shown.replies, [final.id]);
    assert.deepEqual(shown.blocks, expectedBlocks(final));
    // the texts, spelled out from final_msg.json
    assert.deepEqual(
      shown.blocks.filter((b) => b.type === "text").map((b) => b.text),
      (final.content as Json[]).filter((b) => b.type === "text").map((b) => b.text as string),
    );
    assert.deepEqual(
      shown.blocks.filter((b) => b.type === "tool_call" || b.type === "tool_result").map((b) => `${b.type}:${b.state}`),
      ["tool_call:finished", "tool_result:success", "tool_call:finished", "tool_call:finished", "tool_result:success", "tool_result:success"],
    );
    assert.equal(shown.pending, 0);
    const stillMounted = await page.evaluate(() =>
      (window as unknown as { __tagged: Element[] }).__tagged.every((n) => n.isConnected),
    );
    assert.ok(stillMounted, `the ${tagged} blocks rendered mid-stream stay mounted`);
    // one notification per feed: re-rendered while streaming, but per chunk, not per event
    assert.ok(shown.streamingRenders >= 2, `${shown.streamingRenders} renders while streaming`);
    assert.ok(shown.renders <= CHUNKS + 4, `${shown.renders} renders for ${CHUNKS} chunks`);
    assert.ok(shown.renders * 4 < events, `${shown.renders} renders for ${events} events`);
    // the wasm came from the Vite build, served as application/wasm
    const wasm = served.filter(([path]) => path.endsWith(".wasm"));
    assert.ok(wasm.length >= 1 && wasm.every(([, type]) => type === "application/wasm"), JSON.stringify(served));
  } finally {
    await page.close();
  }
});

test("pendingActions in the app shows the calls asking for confirmation (g1_confirm_approve)", async () => {
  const rec = "g1_confirm_approve";
  const events = jsonl(rec);
  assert.equal(sseFrames(rec).length, events.length);
  // up to and including the first REQUIRE_USER_CONFIRM: the calls it asks about that no
  // USER_CONFIRM_RESULT answered yet
  const cut = events.findIndex((e) => e.type === "REQUIRE_USER_CONFIRM") + 1;
  assert.ok(cut > 0);
  const asking = new Set<string>();
  for (const e of events.slice(0, cut)) {
    if (e.type === "REQUIRE_USER_CONFIRM") for (const c of e.tool_calls as Json[]) if (c.state === "asking") asking.add(c.id);
    if (e.type === "USER_CONFIRM_RESULT") for (const r of e.confirm_results as Json[]) asking.delete(r.tool_call.id);
  }
  const started = events.slice(0, cut).filter((e) => e.type === "TOOL_CALL_START").map((e) => e.tool_call_id as string);
  assert.deepEqual([...asking], ["call_aCOijDY8JUN16MQ7TjCjQuVB"]);

  const { page, problems } = await open(`rec=${rec}&upto=${cut}`);
  try {
    await waitDone(page);
    const shown = await readPage(page);
    assert.deepEqual(problems, []);
    assert.equal(shown.error, "");
    assert.equal(shown.pending, asking.size);
    assert.equal(shown.pendingIds, [...asking].map((id) => `confirm:${id}`).join(","));
    const calls = shown.blocks.filter((b) => b.type === "tool_call");
    assert.deepEqual(calls.map((b) => b.id), started);
    for (const call of calls) assert.equal(call.state === "asking", asking.has(call.id), `${call.id} is ${call.state}`);
  } finally {
    await page.close();
  }

  // the whole recording: the call was approved and ran, nothing is pending any more
  const whole = await open(`rec=${rec}`);
  try {
    await waitDone(whole.page);
    const shown = await readPage(whole.page);
    const final = JSON.parse(readFileSync(join(recordingsDir, rec, "final_msg.json"), "utf8"));
    assert.deepEqual(whole.problems, []);
    assert.equal(shown.pending, 0);
    assert.deepEqual(shown.blocks, expectedBlocks(final));
  } finally {
    await whole.page.close();
  }
});

test("useEventStream(null) after a stream (a stop): the session and what arrived stay, done", async () => {
  const { page, problems } = await open("rec=g1_confirm_approve&reset");
  try {
    await page.waitForFunction(() => document.getElementById("app")?.dataset.url === "", undefined, { timeout: 20_000 });
    // give the hook's effect for the null URL time to run and re-render
    await page.waitForFunction(() => document.getElementById("app")?.dataset.done === "true", undefined, { timeout: 3_000 });
    const shown = await readPage(page);
    const session = await page.evaluate(() => document.getElementById("app")?.dataset.session);
    assert.deepEqual(problems, []);
    const replies = [...new Set(jsonl("g1_confirm_approve").filter((e) => e.type === "REPLY_START").map((e) => e.reply_id))];
    assert.deepEqual({ session, done: shown.done, error: shown.error, replies: shown.replies }, { session: "some", done: "true", error: "", replies });
  } finally {
    await page.close();
  }
});
