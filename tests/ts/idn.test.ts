// International domain names (issue 19): the corpus of tests/fixtures/idn.json, with the
// reference's results, through the npm package in node and in headless Chromium. The
// .wasm has no IDNA tables: it asks the JS host's `URL` parser, whose answers differ
// (Chromium lets `xn--a` through, node 20 maps ẞ to "ss" and runs no bidi rule across
// labels), and checks them (src/url.rs url_host_to_ascii_with) so that both give the
// reference's result. tests/idn.rs runs the same corpus natively.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { extname, join } from "node:path";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import * as api from "../../pkg/dist/index.js";
import { launchChromium, root } from "./helpers.ts";

/** A case: the URL, and what the reference stores (`expected`) or why it refuses it. */
type Case = { url: string; expected?: string; error?: string };
type Place = "node" | "chromium";
type Corpus = { observed: Case[]; checked: Case[]; known_differences: (Case & { differs: Partial<Record<Place, Case>> })[] };
type Result = { expected: string } | { error: string };

const corpus: Corpus = JSON.parse(readFileSync(join(root, "tests/fixtures/idn.json"), "utf8"));

/** The reference's result of a case, or its result in `place` for a known difference. */
function wanted(c: Corpus["known_differences"][number] | Case, place?: Place): Result {
  const here = place !== undefined && "differs" in c ? (c.differs[place] ?? c) : c;
  return here.error !== undefined ? { error: here.error } : { expected: here.expected! };
}

/**
 * Each URL of `urls` through the package: as a stored message's URL source
 * (`Msg.fromJSON`), and when `viaEvent`, as a `DATA_BLOCK_DELTA`'s URL too (both must
 * agree). Self-contained: it also runs in the page.
 */
function results(pkg: Pick<typeof api, "Msg" | "AssistantMsg">, urls: string[], viaEvent: boolean): (Result | string)[] {
  const prefix = "Input should be a valid URL, ";
  const attempt = (f: () => string): Result | string => {
    try {
      return { expected: f() };
    } catch (e) {
      const { code, message } = e as { code?: string; message: string };
      return code === "invalid_url" && message.startsWith(prefix) ? { error: message.slice(prefix.length) } : `${code}: ${message}`;
    }
  };
  return urls.map((url) => {
    const stored = attempt(() => {
      const content = [{ type: "data" as const, id: "d1", created_at: "T0", source: { type: "url" as const, url, media_type: "image/png" } }];
      const block = pkg.Msg.fromJSON({ name: "a", role: "assistant", id: "m1", created_at: "T0", content }).content[0]!;
      return block.type === "data" && block.source.type === "url" ? block.source.url : "not a URL source";
    });
    if (!viaEvent) return stored;
    const reduced = attempt(() => {
      const msg = new pkg.AssistantMsg({ name: "agent", content: [], id: "r1" });
      msg.appendEvent({ type: "DATA_BLOCK_START", reply_id: "r1", block_id: "b1", media_type: "image/png" });
      msg.appendEvent({ type: "DATA_BLOCK_DELTA", reply_id: "r1", block_id: "b1", media_type: "image/png", url });
      const block = msg.content[0]!;
      return block.type === "data" && block.source.type === "url" ? block.source.url : "not a URL source";
    });
    return JSON.stringify(stored) === JSON.stringify(reduced) ? stored : `stored ${JSON.stringify(stored)}, reduced ${JSON.stringify(reduced)}`;
  });
}

/** Runs every list of the corpus with `run` and compares with the results wanted in `place`. */
async function checkCorpus(place: Place, run: (urls: string[], viaEvent: boolean) => Promise<(Result | string)[]>) {
  for (const [list, viaEvent] of [["observed", true], ["checked", false], ["known_differences", false]] as const) {
    const cases: (Case | Corpus["known_differences"][number])[] = corpus[list];
    assert.ok(cases.length > 0);
    const got = await run(cases.map((c) => c.url), viaEvent);
    const failed = cases.flatMap((c, i) => (isDeep(got[i], wanted(c, place)) ? [] : [`${JSON.stringify(c.url)}: ${JSON.stringify(got[i])}, wanted ${JSON.stringify(wanted(c, place))}`]));
    assert.deepEqual(failed, [], `${place}, ${list}`);
  }
}

const isDeep = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

test("node: every URL of the corpus as the reference stores or refuses it", async () => {
  await checkCorpus("node", async (urls, viaEvent) => results(api, urls, viaEvent));
});

test("node: ẞ is ß, as the reference maps it (node's URL maps it to ss)", () => {
  assert.equal(new URL("https://ẞ.de/x").hostname, "ss.de"); // what node's own parser says
  assert.deepEqual(results(api, ["https://ẞ.de/x", "https://FAẞ.de/x"], true), [
    { expected: "https://xn--zca.de/x" },
    { expected: "https://xn--fa-hia.de/x" },
  ]);
  assert.deepEqual(wanted(corpus.checked.find((c) => c.url === "https://ẞ.de/x")!), { expected: "https://xn--zca.de/x" });
});

test("node: the bidi rule across labels, which node's URL does not run", () => {
  assert.equal(new URL("https://1.ي/x").hostname, "1.xn--mhb"); // node's own parser accepts it
  const refused = { error: "invalid international domain name" };
  assert.deepEqual(results(api, ["https://1.ي/x", "https://a-.ي/x", "https://1א/x", "https://ي.1/x", "https://a1.ي/x"], false), [
    refused,
    refused,
    refused,
    refused,
    { expected: "https://a1.xn--mhb/x" },
  ]);
});

let browser: Browser;
let server: Server;
let origin: string;

before(async () => {
  const types: Record<string, string> = { ".js": "text/javascript", ".wasm": "application/wasm" };
  const page = `<!doctype html><meta charset="utf-8"><script type="importmap">${JSON.stringify({
    imports: { "#init": "/pkg/dist/init-web.js", "#wasm": "/pkg/dist/wasm-web.js" },
  })}</script><script type="module">
import * as pkg from "/pkg/dist/index.js";
globalThis.pkg = pkg;
// tsx (esbuild keepNames) wraps the inner functions of results() in a helper only node has
globalThis.__name = (f) => f;
document.body.dataset.ready = "1";
</script>`;
  server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    try {
      const body = path === "/" ? page : readFileSync(join(root, path.replace(/^\/pkg\//, "pkg/")));
      res.writeHead(200, { "content-type": types[extname(path)] ?? "text/html" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** `results` in a Chromium page with the package loaded. */
async function inChromium(urls: string[], viaEvent: boolean): Promise<(Result | string)[]> {
  const tab = await browser.newPage();
  const errors: string[] = [];
  tab.on("pageerror", (e) => errors.push(String(e)));
  try {
    await tab.goto(`${origin}/`);
    await tab.waitForFunction(() => document.body.dataset.ready === "1", undefined, { timeout: 20_000 });
    const out = await tab.evaluate(
      ([source, urls, viaEvent]) => {
        const run = new Function(`return (${source})`)() as typeof results;
        return run((globalThis as unknown as { pkg: typeof api }).pkg, urls, viaEvent);
      },
      [results.toString(), urls, viaEvent] as const,
    );
    assert.deepEqual(errors, []);
    return out;
  } finally {
    await tab.close();
  }
}

test("Chromium: every URL of the corpus as the reference stores or refuses it", async () => {
  await checkCorpus("chromium", inChromium);
});

test("Chromium: a Punycode label of a control character is refused (Chromium's URL accepts xn--a.com)", async () => {
  assert.deepEqual(await inChromium(["https://xn--a.com/"], true), [{ error: "invalid international domain name" }]);
  const tab = await browser.newPage();
  try {
    // what Chromium's own parser says
    assert.equal(await tab.evaluate(() => new URL("https://xn--a.com/").hostname), "xn--a.com");
  } finally {
    await tab.close();
  }
  assert.deepEqual(wanted(corpus.observed.find((c) => c.url === "https://xn--a.com/")!), { error: "invalid international domain name" });
});
