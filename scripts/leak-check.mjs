// Leak check of the native tests: builds the test binaries (the lib's unit tests, the CLI's,
// every tests/*.rs; not the doc tests) and runs each under a leak checker: LeakSanitizer
// (nightly `-Zsanitizer=leak`, fast; the CLI that tests spawn is built with it too, so a leak
// in it fails that test), else valgrind memcheck (--leak-check=full, children traced).
// Prints per binary the tests run and the bytes/blocks leaked (definitely + indirectly lost),
// records them in target/leak-summary.json, and exits 1 on any leak or failed test.
//   node scripts/leak-check.mjs [--valgrind] [binary...]
// --valgrind forces valgrind; binary names (cli, session, agentscope_message...) pick a few.
// Neither tool on the machine: a message and exit 0. CARGO_TARGET_DIR is honoured (default
// target/leak-check, so the normal build's cache and lock are left alone).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const args = process.argv.slice(2);
const only = args.filter((a) => !a.startsWith("--"));
const log = (s) => process.stderr.write(s + "\n");
const run = (cmd, argv, opts = {}) => spawnSync(cmd, argv, { cwd: root, encoding: "utf8", maxBuffer: 1 << 28, ...opts });
const t0 = Date.now();

// Tests the checker cannot run usefully, per tool (libtest `--skip` substring filters). None
// so far: no test exhausts memory on purpose; the largest input (reliability's 64 MiB line, fed
// in 64 KiB chunks) takes 8 s under valgrind, and the whole valgrind run about 19 minutes
// (the lib's fast-path tests and the proptest properties about 200-300 s each; ~140 processes).
const SKIP = { lsan: [], valgrind: [] };

// ---- which tool ----
const nightly = (run("rustup", ["toolchain", "list"]).stdout ?? "").split("\n").some((l) => l.startsWith("nightly"));
const libdir = nightly ? (run("rustc", ["+nightly", "--print", "target-libdir"]).stdout ?? "").trim() : "";
const hasLsan = libdir && existsSync(libdir) && readdirSync(libdir).some((f) => /rt\.lsan\.a$/.test(f));
const valgrindVersion = (run("valgrind", ["--version"]).stdout ?? "").trim();
const tool = hasLsan && !args.includes("--valgrind") ? "lsan" : valgrindVersion ? "valgrind" : null;
if (!tool) {
  log("leak check skipped: neither LeakSanitizer (rustup toolchain install nightly) nor valgrind is installed");
  process.exit(0);
}
const host = /host: (\S+)/.exec(run("rustc", [...(tool === "lsan" ? ["+nightly"] : []), "-vV"]).stdout)[1];
const version = tool === "lsan" ? `LeakSanitizer, ${run("rustc", ["+nightly", "--version"]).stdout.trim()}` : valgrindVersion;

// ---- build ----
// `--target` keeps the sanitizer off build scripts and proc macros (they run in the build).
const cargo = [...(tool === "lsan" ? ["+nightly"] : []), "test", "--tests", "--no-run", "--message-format=json",
  ...(tool === "lsan" ? ["--target", host] : [])];
const env = { ...process.env, CARGO_TARGET_DIR: resolve(process.env.CARGO_TARGET_DIR ?? join(root, "target/leak-check")) };
if (tool === "lsan") env.RUSTFLAGS = `${env.RUSTFLAGS ?? ""} -Zsanitizer=leak -Cforce-frame-pointers=yes`.trim();
log(`leak check with ${version}: cargo ${cargo.join(" ")}${tool === "lsan" ? ` (RUSTFLAGS=${env.RUSTFLAGS})` : ""}`);
const build = run("cargo", cargo, { env, stdio: ["ignore", "pipe", "inherit"] });
if (build.status !== 0) {
  log(`build failed (exit ${build.status})`);
  process.exit(1);
}
const binaries = build.stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l))
  .filter((m) => m.reason === "compiler-artifact" && m.profile?.test && m.executable)
  .map((m) => ({ name: m.target.name, kind: m.target.kind[0], path: m.executable }))
  .filter((b) => !only.length || only.includes(b.name))
  .sort((a, b) => a.name.localeCompare(b.name) || a.kind.localeCompare(b.kind));

// ---- run each binary ----
// The checker's reports go to files, one per process (the test binary and every CLI it spawns),
// so the CLI's own stderr, which tests compare, stays clean.
const skip = SKIP[tool].flatMap((f) => ["--skip", f]);
const logRoot = join(env.CARGO_TARGET_DIR, "leak-logs");
const results = [];
for (const b of binaries) {
  const t = Date.now();
  const logs = join(logRoot, `${b.name}-${b.kind}`);
  rmSync(logs, { recursive: true, force: true });
  mkdirSync(logs, { recursive: true });
  const [cmd, argv] = tool === "lsan"
    ? [b.path, [...skip]]
    : ["valgrind", ["--leak-check=full", "--errors-for-leak-kinds=definite,indirect", "--error-exitcode=99",
        "--trace-children=yes", "--num-callers=40", `--log-file=${join(logs, "valgrind.%p")}`, b.path, ...skip]];
  const LSAN_OPTIONS = `exitcode=23:malloc_context_size=24:log_path=${join(logs, "lsan")}`;
  const r = run(cmd, argv, { env: { ...process.env, LSAN_OPTIONS, RUST_BACKTRACE: "1" } });
  const out = (r.stdout ?? "") + (r.stderr ?? "");
  const reports = readdirSync(logs).map((f) => readFileSync(join(logs, f), "utf8")).join("\n");
  const counts = /test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored; \d+ measured; (\d+) filtered out/.exec(out);
  const leaked = { bytes: 0, blocks: 0 };
  const pattern = tool === "lsan"
    ? /(?:Direct|Indirect) leak of (\d+) byte\(s\) in (\d+) object\(s\)/g
    : /(?:definitely|indirectly) lost: ([\d,]+) bytes in ([\d,]+) blocks/g;
  for (const m of reports.matchAll(pattern)) {
    leaked.bytes += Number(m[1].replaceAll(",", ""));
    leaked.blocks += Number(m[2].replaceAll(",", ""));
  }
  const res = {
    binary: b.name, kind: b.kind, exit: r.status ?? r.signal, seconds: (Date.now() - t) / 1000,
    passed: counts ? Number(counts[1]) : 0, failed: counts ? Number(counts[2]) : null,
    ignored: counts ? Number(counts[3]) : 0, skipped: counts ? Number(counts[4]) : 0, leaked,
  };
  res.ok = r.status === 0 && res.failed === 0 && leaked.bytes === 0 && leaked.blocks === 0;
  results.push(res);
  log(`${res.ok ? "ok  " : "FAIL"} ${b.kind} ${b.name}: ${res.passed} passed, ${res.failed ?? "?"} failed, ` +
    `${res.ignored} ignored, ${res.skipped} skipped; leaked ${leaked.bytes} bytes in ${leaked.blocks} blocks ` +
    `(exit ${res.exit}, ${res.seconds.toFixed(1)} s)`);
  if (!res.ok) process.stderr.write(`${out.slice(-10000)}\n${reports.slice(0, 30000)}\n`);
}

// ---- summary ----
const total = (k) => results.reduce((s, r) => s + (r[k] ?? 0), 0);
const summary = {
  tool, version, date: new Date().toISOString(), seconds: (Date.now() - t0) / 1000,
  command: `node scripts/leak-check.mjs ${args.join(" ")}`.trim(), cargo: `cargo ${cargo.join(" ")}`,
  rustflags: tool === "lsan" ? env.RUSTFLAGS : undefined, skip_filters: SKIP[tool],
  passed: total("passed"), failed: total("failed"),
  leaked: { bytes: results.reduce((s, r) => s + r.leaked.bytes, 0), blocks: results.reduce((s, r) => s + r.leaked.blocks, 0) },
  ok: results.length > 0 && results.every((r) => r.ok), binaries: results,
};
mkdirSync(join(root, "target"), { recursive: true });
writeFileSync(join(root, "target/leak-summary.json"), JSON.stringify(summary, null, 2) + "\n");
log(`${summary.ok ? "no leak" : "LEAK OR FAILURE"}: ${results.length} binaries, ${summary.passed} tests passed, ` +
  `${summary.failed} failed, ${summary.leaked.bytes} bytes leaked in ${summary.leaked.blocks} blocks ` +
  `(${summary.seconds.toFixed(0)} s; target/leak-summary.json)`);
process.exit(summary.ok ? 0 : 1);
