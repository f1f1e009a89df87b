// The demo page replaying a dropped log of one long text block, in headless Chromium:
// the wall time from dropping the file to the end of the replay, for one paragraph of
// SIZE MB and for the same text in paragraphs of 1 KB. Prints figures; asserts nothing.
//   node --import tsx bench/demo-replay.ts [SIZE_MB=10] [DELTA_CHARS=1024]
// (pkg/ must be built: `npm run build`.)
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDemoServer } from "../web-demo/server.mjs";
import { launchChromium } from "../tests/ts/helpers.ts";

const size = Math.round(Number(process.argv[2] ?? 10) * 1024 * 1024);
const deltaChars = Number(process.argv[3] ?? 1024);

const words = "a long paragraph of model text, with *some* emphasis and `code` now and then; ";
const texts: Record<string, string> = {
  "one paragraph": words.repeat(Math.ceil(size / words.length)).slice(0, size),
  "1 KB paragraphs": (words.repeat(13).slice(0, 1022) + "\n\n").repeat(Math.ceil(size / 1024)).slice(0, size),
};

/** The JSON Lines log of one reply whose one text block streams `text` in deltas. */
function log(text: string): string {
  let n = 0;
  const ev = (type: string, fields: object) => JSON.stringify({ id: `e${++n}`, created_at: "2026-01-01T00:00:00.000000", type, reply_id: "r", ...fields });
  const lines = [ev("REPLY_START", { session_id: "s", name: "Bench" }), ev("TEXT_BLOCK_START", { block_id: "t" })];
  for (let at = 0; at < text.length; at += deltaChars) lines.push(ev("TEXT_BLOCK_DELTA", { block_id: "t", delta: text.slice(at, at + deltaChars) }));
  lines.push(ev("TEXT_BLOCK_END", { block_id: "t" }), ev("REPLY_END", { session_id: "s", finished_reason: "completed", error: null }));
  return lines.join("\n") + "\n";
}

const dir = mkdtempSync(join(tmpdir(), "demo-replay-"));
const server = await startDemoServer({ port: 0 });
const browser = await launchChromium();
try {
  console.log(`${(size / 1024 / 1024).toFixed(1)} MB of text in ${deltaChars}-character deltas, replayed as a dropped log`);
  for (const [kind, text] of Object.entries(texts)) {
    const file = join(dir, "log.jsonl");
    writeFileSync(file, log(text));
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    await page.goto(`${server.url}?autoplay=0`);
    await page.waitForSelector('body[data-ready="1"]');
    const start = await page.evaluate(() => (window as unknown as { __demo: { renderedChars: number } }).__demo.renderedChars);
    const t0 = performance.now();
    await page.setInputFiles("#file", file);
    await page.waitForSelector('body[data-state="done"]', { timeout: 0 });
    const seconds = (performance.now() - t0) / 1000;
    const shown = await page.evaluate(() => ({
      chars: (window as unknown as { __demo: { renderedChars: number } }).__demo.renderedChars,
      text: document.querySelector('[data-block-type="text"]')?.textContent?.length ?? 0,
    }));
    console.log(`${kind}: ${seconds.toFixed(1)} s; markdown parser read ${((shown.chars - start) / text.length).toFixed(2)} characters per character; the block shows ${shown.text} characters`);
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
