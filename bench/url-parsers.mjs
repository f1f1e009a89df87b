// Compares URL normalisation of this port (the `url` crate, as the reference's pydantic
// `AnyUrl`) with the JS hosts' WHATWG `URL` (node, headless Chromium) on a corpus: the
// inputs of the WHATWG URL test data shipped in the `url` crate's source (found with
// `cargo metadata`) plus generated URLs (IDN, IPv4/IPv6 hosts, percent-encoding, ports,
// userinfo, special and non-special schemes, surrounding spaces). Prints the counts and
// the first differences; docs/size.md quotes them.
//
//   node bench/url-parsers.mjs [--show N]
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const show = Number(process.argv[process.argv.indexOf("--show") + 1]) || 10;

// the WHATWG URL test data's inputs
const metadata = JSON.parse(execFileSync("cargo", ["metadata", "--format-version", "1"], { cwd: root, encoding: "utf8", maxBuffer: 1 << 28 }));
const urlCrate = metadata.packages.find((p) => p.name === "url");
const testData = join(dirname(urlCrate.manifest_path), "tests/urltestdata.json");
const wpt = existsSync(testData)
  ? JSON.parse(readFileSync(testData, "utf8")).filter((e) => typeof e === "object" && typeof e.input === "string").map((e) => e.input)
  : [];

// generated: a fixed pseudo-random walk over the parts (the same corpus on every run)
let seed = 12345;
const pick = (list) => list[(seed = (seed * 1103515245 + 12345) & 0x7fffffff) % list.length];
const schemes = ["http", "https", "HTTP", "hTTps", "ws", "wss", "ftp", "file", "mailto", "data", "blob", "foo", "javascript", "urn", "s3", "gs"];
const separators = ["://", ":/", ":", ":\\\\", ":///", "://", "://", ":////"];
const users = ["", "", "", "user@", "u:p@", "@", "a@b@", "ü:ß@", "%40@", "u:@"];
const hosts = [
  "example.com", "EXAMPLE.com", "bücher.de", "BÜCHER.de", "xn--bcher-kva.de", "1.2.3.4", "0x7f.1", "127.1", "[::1]",
  "[2001:db8::1]", "[::ffff:1.2.3.4]", "[2001:DB8:0:0:0:0:0:1]", "%41.com", "ex%20ample.com", "例え.テスト", "😀.com",
  "a..b", "", "999999999999", "1.2.3.4.5", "faß.de", "xn--a.com", "localhost", "example.com.", "ex ample.com",
  "0300.0250.0.1", "4294967296", "[::1", "a%2eb", "bücher．de", "ΣΊΣΥΦΟΣ.gr", "xn--zca.de", "-x.com", "x_y.com",
  "a\tb.com", "%F0%9F%98%80.com", "ＥＸＡＭＰＬＥ.com", "\u200d.com", "ab\u00adc.de",
];
const ports = ["", "", "", ":80", ":443", ":0", ":65535", ":65536", ":8080", ":", ":21", ":0080", ":x"];
const paths = [
  "", "/", "/a/../b", "/./x", "/%2e%2E/y", "/a b", "/ü", "/%zz", "\\x\\y", "/a?b#c", "?q=ü", "#f ü", "/a%2Fb", "/{}|^`",
  "/x.png", "/a/./b/../../c", "/ä?ö=ü#ß", "?a=%", "/..", "/%00", "/\u0001", " ", "/a\nb", "/%C3%BC", "/😀", "?'\"<>", "/C:/x", "/|",
];
const generated = [];
for (let i = 0; i < 30000; i++) {
  const url = pick(schemes) + pick(separators) + pick(users) + pick(hosts) + pick(ports) + pick(paths);
  generated.push(pick([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]) === 0 ? `  ${url}\t ` : url);
}
const corpus = [...new Set([...wpt, ...generated])];

const port = JSON.parse(
  execFileSync("cargo", ["run", "--quiet", "--release", "--example", "normalize_urls"], { cwd: root, input: JSON.stringify(corpus), encoding: "utf8", maxBuffer: 1 << 28 }),
);
const href = (url) => {
  try {
    return new URL(url).href;
  } catch {
    return null;
  }
};
const node = corpus.map(href);
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
const page = await browser.newPage();
const chrome = await page.evaluate((urls) => urls.map((u) => { try { return new URL(u).href; } catch { return null; } }), corpus);
await browser.close();

console.log(`corpus: ${corpus.length} URLs (${new Set(wpt).size} WHATWG test inputs, the rest generated)`);
for (const [name, host] of [[`node ${process.version}`, node], ["Chromium", chrome]]) {
  const differ = corpus.map((url, i) => [url, port[i], host[i]]).filter(([, a, b]) => a !== b);
  console.log(`\n${name}: ${differ.length} differ from this port`);
  for (const [url, ours, theirs] of differ.slice(0, show)) console.log(`  ${JSON.stringify(url)}: port ${JSON.stringify(ours)}, ${name.split(" ")[0]} ${JSON.stringify(theirs)}`);
}
