// Assembles the npm package in pkg/ (ignored by git): the wasm core, the library with its
// binding (feature "wasm") linked as a cdylib by `cargo rustc -p agentscope-message
// --crate-type cdylib` in wasm/ (a workspace of its own, with its own Cargo.lock: the
// table-free idna_adapter and the size profile), JS glue and wire types from wasm-bindgen
// (web target, weak refs), wasm-opt from the npm `binaryen` package, the compiled TS
// layer, and pkg-template/. Prints the .wasm size and fails past the gzip budget.
//
// Usage: node scripts/build-pkg.mjs [--dev]   (--dev: no wasm-opt, faster)
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, gzipSync, constants } from "node:zlib";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dev = process.argv.includes("--dev");
const GZIP_BUDGET = 160_000; // bytes: the hard ceiling (docs/size.md); exactness and bounds come before bytes
const run = (cmd, args, opts = {}) => {
  console.log(`$ ${cmd} ${args.join(" ")}`);
  execFileSync(cmd, args, { stdio: "inherit", cwd: root, ...opts });
};
const bin = (name) => join(root, "node_modules", ".bin", name);

// The standard library is rebuilt with the crate, for size (-Zbuild-std: 149.7 → 133.2 KB
// gzip, docs/size.md): `optimize_for_size` picks std's small variants, and
// `-Cpanic=immediate-abort` makes a panic a bare trap, without the formatting machinery of
// a panic message. That is no change for users: a panic in wasm32 traps either way (and
// nothing here panics: docs/reliability.md). These flags are unstable: RUSTC_BOOTSTRAP=1
// lets the stable toolchain take them, with its own rust-src (scripts/setup). They are
// checked with rustc 1.95 (older ones may lack `-Cpanic=immediate-abort`): an older rustc
// is refused here with that reason. With no panic locations left, the shipped .wasm names
// no source file; the remaps keep it so should any path remain (`crates/…`,
// `agentscope-message/…`, `rust/…`).
const rustc = execFileSync("rustc", ["--version"], { cwd: root, encoding: "utf8" }).trim();
const [, major, minor] = /^rustc (\d+)\.(\d+)/.exec(rustc) ?? [];
if (!(Number(major) > 1 || Number(minor) >= 95)) {
  console.error(`error: the .wasm build needs rustc 1.95 or later (-Zbuild-std, -Cpanic=immediate-abort); found ${rustc}. Run: rustup update stable`);
  process.exit(1);
}
const registry = join(process.env.CARGO_HOME ?? join(homedir(), ".cargo"), "registry/src");
const sysroot = execFileSync("rustc", ["--print", "sysroot"], { cwd: root, encoding: "utf8" }).trim();
const remaps = [
  `--remap-path-prefix=${root.replace(/\/$/, "")}=agentscope-message`,
  `--remap-path-prefix=${join(sysroot, "lib/rustlib/src/rust")}=rust`,
  ...(existsSync(registry) ? readdirSync(registry).map((d) => `--remap-path-prefix=${join(registry, d)}=crates`) : []),
];
// wasm/Cargo.lock holds the main Cargo.lock's versions but for idna_adapter (so that the
// .wasm is built from what the native tests test): refused here when the two drift apart
const lockVersions = (file) =>
  new Set([...readFileSync(join(root, file), "utf8").matchAll(/^\[\[package\]\]\nname = "(.+)"\nversion = "(.+)"$/gm)]
    .map(([, name, version]) => `${name} ${version}`));
const mainLock = lockVersions("Cargo.lock");
const drifted = [...lockVersions("wasm/Cargo.lock")]
  .filter((p) => !mainLock.has(p) && !/^(idna_adapter|agentscope-message-wasm) /.test(p));
if (drifted.length) {
  console.error(`error: wasm/Cargo.lock has versions that Cargo.lock has not: ${drifted.join(", ")}. Copy Cargo.lock to wasm/ and run \`cargo update -p idna_adapter --precise 1.0.0 --manifest-path wasm/Cargo.toml\``);
  process.exit(1);
}
// cargo's target folder: CARGO_TARGET_DIR when set (relative to the repository), else
// target/ (for wasm/ too, which would have its own). The library itself is the cdylib:
// linked from a crate of wasm/ that depends on it, the .wasm is 0.6 KB gzip larger.
const targetDir = resolve(root, process.env.CARGO_TARGET_DIR ?? "target");
run("cargo", [
  "rustc", "--manifest-path", "wasm/Cargo.toml", "--locked", "-p", "agentscope-message", "--lib",
  "--profile", "wasm-release", "--target", "wasm32-unknown-unknown", "--crate-type", "cdylib",
  "-Zbuild-std=std,panic_abort", "-Zbuild-std-features=optimize_for_size",
], {
  env: {
    ...process.env,
    CARGO_TARGET_DIR: targetDir,
    RUSTC_BOOTSTRAP: "1",
    CARGO_ENCODED_RUSTFLAGS: [...remaps, "-Zunstable-options", "-Cpanic=immediate-abort"].join("\x1f"),
  },
});
const wasmIn = join(targetDir, "wasm32-unknown-unknown/wasm-release/agentscope_message.wasm");
const glue = join(root, "ts/wasm");
rmSync(glue, { recursive: true, force: true });
run("wasm-bindgen", ["--target", "web", "--weak-refs", "--out-dir", glue, wasmIn]);
const wasmOut = join(glue, "agentscope_message_bg.wasm");
if (!dev) {
  // -Oz, then flattening and re-looping the control flow and -Oz twice more: 2 KB gzip
  // smaller than -Oz alone, the same speed (docs/benchmarks.md)
  const passes = ["-Oz", "--flatten", "--rereloop", "-Oz", "-Oz"];
  run(bin("wasm-opt"), [...passes, "--strip-debug", "--strip-producers", wasmOut, "-o", wasmOut]);
}

const pkg = join(root, "pkg");
rmSync(pkg, { recursive: true, force: true });
// typescript (7) by path: the aliased typescript-5.9 / -6.0 of the type tests may own .bin/tsc
run("node", [join(root, "node_modules/typescript/bin/tsc"), "-p", "ts/tsconfig.json"]);
cpSync(glue, join(pkg, "dist/wasm"), { recursive: true });
// The declarations must type-check in a project without the DOM library (node-only, with
// skipLibCheck off): the glue's loader types name DOM / WebAssembly globals, written here
// structurally (only ts/load.ts uses them); and a side-effect `import "#init"` carries no
// types (TypeScript 6 refuses it under node10 resolution), so it is left out of the .d.ts.
const domFree = [
  ["export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;",
    "export type InitInput = string | URL | ArrayBuffer | ArrayBufferView | object;"],
  ["export type SyncInitInput = BufferSource | WebAssembly.Module;",
    "export type SyncInitInput = ArrayBuffer | ArrayBufferView | object;"],
  ["readonly memory: WebAssembly.Memory;", "readonly memory: { readonly buffer: ArrayBuffer };"],
  ["readonly __wbindgen_externrefs: WebAssembly.Table;", "readonly __wbindgen_externrefs: unknown;"],
];
const glueTypes = join(pkg, "dist/wasm/agentscope_message.d.ts");
let glueText = readFileSync(glueTypes, "utf8");
for (const [from, to] of domFree) {
  if (!glueText.includes(from)) throw new Error(`build-pkg: the glue's declarations changed, no ${from}`);
  glueText = glueText.replace(from, to);
}
writeFileSync(glueTypes, glueText);
for (const f of readdirSync(join(pkg, "dist")).filter((f) => f.endsWith(".d.ts"))) {
  const path = join(pkg, "dist", f);
  const text = readFileSync(path, "utf8");
  if (text.includes('import "#init";\n')) writeFileSync(path, text.replace('import "#init";\n', ""));
}
for (const f of ["package.json", "README.md"]) cpSync(join(root, "pkg-template", f), join(pkg, f));
cpSync(join(root, "LICENSE"), join(pkg, "LICENSE"));
const version = /^version = "(.*)"$/m.exec(readFileSync(join(root, "Cargo.toml"), "utf8"))[1];
const manifest = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
manifest.version = version;
writeFileSync(join(pkg, "package.json"), JSON.stringify(manifest, null, 2) + "\n");

const wasm = readFileSync(wasmOut);
const gz = gzipSync(wasm, { level: 9 }).length;
const br = brotliCompressSync(wasm, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
console.log(`agentscope_message_bg.wasm: ${wasm.length} bytes raw, ${gz} gzip -9, ${br} brotli${dev ? " (dev build, no wasm-opt)" : ""}`);
if (!dev && gz > GZIP_BUDGET) {
  console.error(`error: .wasm is ${gz} bytes gzipped, over the budget of ${GZIP_BUDGET}`);
  process.exit(1);
}
mkdirSync(join(root, "target"), { recursive: true });
writeFileSync(join(root, "target/wasm-size.json"), JSON.stringify({ raw: wasm.length, gzip: gz, brotli: br }) + "\n");
