// The Rust crate as it would be published: what `cargo package` ships (the library, the
// CLI, the README and the licence, under 1 MiB), that it compiles from that package alone
// (checked in the repository's target/; `scripts/release --dry-run` runs cargo's own
// verification, `cargo publish --dry-run`), that its documentation has no rustdoc warning, and that
// `rust-version` is the true minimum: the newest `rust-version` among the dependencies
// the library and the CLI build with (this machine has one toolchain, so the minimum is
// read from the dependency graph, not compiled with).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { root } from "./helpers.ts";

function cargo(args: string[], env: NodeJS.ProcessEnv = {}): { stdout: string; stderr: string } {
  const run = spawnSync("cargo", args, { cwd: root, encoding: "utf8", env: { ...process.env, ...env }, maxBuffer: 256 << 20 });
  assert.equal(run.status, 0, `cargo ${args.join(" ")}\n${run.stdout}\n${run.stderr}`);
  return { stdout: run.stdout, stderr: run.stderr };
}

test("cargo package ships the library, the CLI, the README and the licence, under 1 MiB, and they compile alone", () => {
  const files = cargo(["package", "--list", "--allow-dirty"]).stdout.trim().split("\n");
  // cargo's own files, and the lock file it adds for a package with a binary
  const cargoOwn = new Set([".cargo_vcs_info.json", "Cargo.lock", "Cargo.toml", "Cargo.toml.orig"]);
  const ours = files.filter((f) => !cargoOwn.has(f));
  assert.deepEqual(ours.filter((f) => !/^src\/.*\.rs$/.test(f)), ["LICENSE", "README.md"]);
  assert.ok(ours.includes("src/lib.rs") && ours.includes("src/bin/agentscope-message.rs"), ours.join(", "));
  const bytes = ours.reduce((sum, f) => sum + statSync(join(root, f)).size, 0);
  assert.ok(bytes < 1 << 20, `${bytes} bytes`);

  // packaged; the only warnings are the tests, benchmarks and examples it leaves in the
  // repository. (Not cargo's own verification: it builds every dependency again in a
  // target of its own, 40 s here; the release's `cargo publish --dry-run` runs it.)
  const { stderr } = cargo(["package", "--allow-dirty", "--no-verify"]);
  const warnings = stderr.split("\n").filter((l) => l.startsWith("warning:"));
  const other = warnings.filter((l) => !/^warning: ignoring (test|benchmark|example) `\w+` as `(tests|benches|examples)\/\w+\.rs` is not included in the published package$/.test(l));
  assert.deepEqual(other, []);
  // the package's files alone compile, the library and the CLI (every feature): checked
  // in the repository's target/ (the dependencies as the clippy gate checked them; a
  // check writes no library or binary over the repository's own)
  const version = /^version = "(.*)"$/m.exec(readFileSync(join(root, "Cargo.toml"), "utf8"))![1]!;
  const unpacked = mkdtempSync(join(root, "target", "crate-"));
  try {
    const tar = spawnSync("tar", ["xzf", join(root, "target/package", `agentscope-message-${version}.crate`), "-C", unpacked], { encoding: "utf8" });
    assert.equal(tar.status, 0, tar.stderr);
    const manifest = join(unpacked, `agentscope-message-${version}`, "Cargo.toml");
    cargo(["check", "--locked", "--manifest-path", manifest, "--features", "cli,stream", "--lib", "--bins"], { CARGO_TARGET_DIR: join(root, "target") });
  } finally {
    rmSync(unpacked, { recursive: true, force: true });
  }
});

test("the crate's documentation builds with no rustdoc warning, as docs.rs builds it (feature stream)", () => {
  const { stderr } = cargo(["doc", "--no-deps", "--lib", "--features", "stream"], { RUSTDOCFLAGS: "-D warnings" });
  assert.doesNotMatch(stderr, /^warning/m);
});

test("rust-version is the newest minimum of the dependencies the library and the CLI build with", () => {
  const metadata = JSON.parse(cargo(["metadata", "--format-version", "1", "--locked"]).stdout);
  const byId = new Map<string, { name: string; version: string; rust_version: string | null }>(metadata.packages.map((p: { id: string }) => [p.id, p]));
  const nodes = new Map<string, { deps: { pkg: string; dep_kinds: { kind: string | null }[] }[] }>(metadata.resolve.nodes.map((n: { id: string }) => [n.id, n]));
  const self = metadata.packages.find((p: { name: string }) => p.name === "agentscope-message");
  // the closure over normal and build dependencies (any target), not dev-dependencies
  const seen = new Set<string>();
  const queue = [self.id as string];
  while (queue.length > 0) {
    const id = queue.pop()!;
    for (const dep of nodes.get(id)?.deps ?? []) {
      if (dep.dep_kinds.some((k) => k.kind !== "dev") && !seen.has(dep.pkg)) {
        seen.add(dep.pkg);
        queue.push(dep.pkg);
      }
    }
  }
  const parse = (v: string) => v.split(".").map(Number).concat(0, 0).slice(0, 3) as [number, number, number];
  const newer = (a: string, b: string) => {
    const [x, y] = [parse(a), parse(b)];
    return x[0] !== y[0] ? x[0] > y[0] : x[1] !== y[1] ? x[1] > y[1] : x[2] > y[2];
  };
  let newest = { version: "1.85", by: "edition 2024" };
  for (const id of seen) {
    const p = byId.get(id)!;
    if (p.rust_version !== null && newer(p.rust_version, newest.version)) newest = { version: p.rust_version, by: `${p.name} ${p.version}` };
  }
  assert.ok(seen.size > 10, `the dependency closure was read (${seen.size} packages)`);
  assert.deepEqual(parse(self.rust_version), parse(newest.version), `rust-version ${self.rust_version}; the newest minimum is ${newest.version} (${newest.by})`);
});
