// Module layout: no import circle between the modules of src/ (the Rust crate), nor
// between those of ts/ (the TypeScript layer of the npm package) or of the demo page. A circle means two
// modules can only be read, changed or moved together; this keeps each layer readable
// from the bottom up.
//
// Rust: a module is a top-level module of src/ (`src/x.rs`, or `src/x/mod.rs` with its
// submodules `src/x/*.rs`); it uses module `y` where its code names `crate::y…` (in a
// `use` item or inline, macros and serde's `with = "crate::…"` strings included), or a
// name the crate root re-exports from `y` (`crate::Msg` is `msg`'s). Comments and doc
// comments do not count; test code does. src/bin/ is another crate.
// TypeScript: a module is a file ts/*.ts; it uses those it names by a relative import
// (`import`, `import type`, `export … from`, a side-effect or dynamic `import`), as
// TypeScript's own scanner reads them. The same for the demo page's web-demo/public/*.js.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import ts from "typescript-5.9";
import { root } from "./helpers.ts";

/** Module → the modules it uses, each with where it first does (`file:line`). */
type Graph = Map<string, Map<string, string>>;

function addEdge(graph: Graph, from: string, to: string, site: string): void {
  if (from === to) return;
  const edges = graph.get(from) ?? new Map<string, string>();
  graph.set(from, edges);
  if (!edges.has(to)) edges.set(to, site);
}

/** The line of offset `at` in `text`, from 1. */
function lineOf(text: string, at: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < at; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** Every import circle of `graph`: one shortest cycle through each strongly connected
 * component of more than one module (Tarjan), as `a → b → … → a` with the sites. */
function cycles(graph: Graph): string[] {
  const nodes = [...new Set([...graph.keys(), ...[...graph.values()].flatMap((e) => [...e.keys()])])].sort();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of [...(graph.get(v)?.keys() ?? [])].sort()) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const v of nodes) if (!index.has(v)) visit(v);
  return components.map((component) => {
    // breadth-first from the component's first module back to itself, inside it
    const start = component[0]!;
    const members = new Set(component);
    const previous = new Map<string, string>();
    const queue = [start];
    let last: string | undefined;
    while (queue.length > 0 && last === undefined) {
      const v = queue.shift()!;
      for (const w of [...(graph.get(v)?.keys() ?? [])].sort()) {
        if (!members.has(w)) continue;
        if (w === start) {
          last = v;
          break;
        }
        if (!previous.has(w)) {
          previous.set(w, v);
          queue.push(w);
        }
      }
    }
    const path = [start];
    for (let v = last!; v !== start; v = previous.get(v)!) path.splice(1, 0, v);
    path.push(start);
    const steps = path.slice(1).map((to, i) => `    ${path[i]} → ${to}  (${graph.get(path[i]!)!.get(to)})`);
    const inside = component.flatMap((v) =>
      [...(graph.get(v) ?? [])].filter(([w]) => members.has(w)).map(([w, site]) => `    ${v} → ${w}  (${site})`),
    );
    return (
      `${path.join(" → ")}\n${steps.join("\n")}\n` +
      `  the circles' modules: ${component.join(", ")}; their uses of each other:\n${inside.join("\n")}`
    );
  });
}

function assertAcyclic(what: string, graph: Graph): void {
  const found = cycles(graph);
  assert.equal(found.length, 0, `import circles in ${what}:\n${found.join("\n")}`);
}

// ---- Rust ----------------------------------------------------------------------------

/** `source` with its comments (doc comments too) blanked out, newlines kept, so that
 * offsets and lines stay; strings, raw strings and char literals are skipped whole (a
 * `//` in a string is no comment), lifetimes left alone. */
function stripRustComments(source: string): string {
  const out: string[] = [];
  const blank = (text: string) => text.replace(/[^\n]/g, " ");
  const literal = /b?r(#*)"|b?"|b?'(?:\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]{1,6}\}|.)|[^\\'\n])'/suy;
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === "/" && source[i + 1] === "/") {
      const end = source.indexOf("\n", i);
      const stop = end === -1 ? source.length : end;
      out.push(blank(source.slice(i, stop)));
      i = stop;
      continue;
    }
    if (c === "/" && source[i + 1] === "*") {
      let depth = 0;
      let j = i;
      do {
        if (source.startsWith("/*", j)) {
          depth++;
          j += 2;
        } else if (source.startsWith("*/", j)) {
          depth--;
          j += 2;
        } else {
          j++;
        }
      } while (depth > 0 && j < source.length);
      out.push(blank(source.slice(i, j)));
      i = j;
      continue;
    }
    if ((c === "r" || c === "b" || c === '"' || c === "'") && !/[\w$]/.test(source[i - 1] ?? "")) {
      literal.lastIndex = i;
      const m = literal.exec(source);
      if (m !== null) {
        let end: number;
        if (m[0].endsWith("'")) {
          end = i + m[0].length;
        } else if (m[1] !== undefined) {
          const close = source.indexOf(`"${m[1]}`, i + m[0].length);
          end = close === -1 ? source.length : close + 1 + m[1].length;
        } else {
          let j = i + m[0].length;
          while (j < source.length && source[j] !== '"') j += source[j] === "\\" ? 2 : 1;
          end = j + 1;
        }
        out.push(source.slice(i, end));
        i = end;
        continue;
      }
    }
    out.push(c);
    i++;
  }
  return out.join("");
}

/** The first segment after each `crate::` (or `$crate::`) in `code`, with its offset:
 * `crate::a::b` and `crate::{a::b, c}` name `a` (and `c`). */
function crateReferences(code: string): { name: string; at: number }[] {
  const found: { name: string; at: number }[] = [];
  const segment = /\s*([A-Za-z_]\w*)/y;
  for (const m of code.matchAll(/(?<![\w])crate\s*::\s*/g)) {
    const at = m.index!;
    let j = at + m[0].length;
    if (code[j] !== "{") {
      segment.lastIndex = j;
      const s = segment.exec(code);
      if (s !== null) found.push({ name: s[1]!, at });
      continue;
    }
    // a group: the first segment of each of its items
    let depth = 0;
    let itemStart = true;
    for (; j < code.length; j++) {
      const c = code[j]!;
      if (c === "{") {
        depth++;
        if (depth === 1) itemStart = true;
      } else if (c === "}") {
        if (--depth === 0) break;
      } else if (c === "," && depth === 1) {
        itemStart = true;
      } else if (itemStart && depth === 1 && /[A-Za-z_]/.test(c)) {
        segment.lastIndex = j;
        const s = segment.exec(code)!;
        found.push({ name: s[1]!, at: j });
        itemStart = false;
      }
    }
  }
  return found;
}

/** The names a `use` tree brings in (`a::{B, c::D as E}` → B, E) and whether it has a
 * glob. */
function useLeaves(tree: string): { names: string[]; glob: boolean } {
  const names: string[] = [];
  let glob = false;
  for (const item of tree.replace(/[{}]/g, ",").split(",")) {
    const path = item.trim();
    if (path === "") continue;
    if (path.endsWith("*")) glob = true;
    const alias = /\bas\s+(\w+)$/.exec(path);
    const last = alias?.[1] ?? path.split("::").pop()!.trim();
    if (/^\w+$/.test(last) && last !== "self") names.push(last);
  }
  return { names, glob };
}

function rustGraph(): Graph {
  const src = join(root, "src");
  const lib = stripRustComments(readFileSync(join(src, "lib.rs"), "utf8"));
  const modules = new Set([...lib.matchAll(/^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;/gm)].map((m) => m[1]!));
  assert.ok(modules.size > 5, `src/lib.rs declares the modules (found ${[...modules].join(", ")})`);

  const files = new Map<string, string>(); // path → module
  for (const name of readdirSync(src).sort()) {
    const path = join(src, name);
    if (name.endsWith(".rs") && name !== "lib.rs") {
      files.set(path, name.slice(0, -3));
    } else if (modules.has(name) && statSync(path).isDirectory()) {
      const walk = (dir: string): void => {
        for (const entry of readdirSync(dir).sort()) {
          const p = join(dir, entry);
          if (statSync(p).isDirectory()) walk(p);
          else if (entry.endsWith(".rs")) files.set(p, name);
        }
      };
      walk(path);
    }
  }
  const code = new Map([...files.keys()].map((path) => [path, stripRustComments(readFileSync(path, "utf8"))]));

  // what the crate root re-exports: `crate::Msg` is module `msg`'s
  const reexported = new Map<string, string>();
  const globbed: string[] = [];
  for (const m of lib.matchAll(/\bpub\s+use\s+(?:crate::|self::)?(\w+)\s*::([^;]+);/g)) {
    const leaves = useLeaves(m[2]!);
    for (const name of leaves.names) reexported.set(name, m[1]!);
    if (leaves.glob) globbed.push(m[1]!);
  }
  const declares = (module: string, name: string): boolean =>
    [...files].some(
      ([path, of]) =>
        of === module &&
        new RegExp(`\\bpub\\s+(?:(?:const|async|unsafe)\\s+)*(?:struct|enum|fn|type|trait|const|static|union|mod)\\s+${name}\\b`).test(code.get(path)!),
    );

  const graph: Graph = new Map();
  for (const [path, module] of files) {
    const text = code.get(path)!;
    graph.set(module, graph.get(module) ?? new Map());
    for (const { name, at } of crateReferences(text)) {
      const site = `${relative(root, path)}:${lineOf(text, at)}`;
      const target = modules.has(name) ? name : (reexported.get(name) ?? globbed.find((g) => declares(g, name)));
      assert.ok(target !== undefined, `${site}: crate::${name} is neither a module nor a name the crate root re-exports`);
      addEdge(graph, module, target, `${site} crate::${name}`);
    }
    // `super::x` (also `super::super::x` in a submodule) naming another top-level module
    for (const m of text.matchAll(/(?<![\w])(?:super\s*::\s*)+([A-Za-z_]\w*)/g)) {
      const name = m[1]!;
      if (modules.has(name) && name !== module) addEdge(graph, module, name, `${relative(root, path)}:${lineOf(text, m.index!)} ${m[0]}`);
    }
  }
  return graph;
}

// ---- TypeScript ----------------------------------------------------------------------

/** The relative module specifiers that `source` imports, with their offsets: read by
 * TypeScript's own import scanner (`preProcessFile`: every `import`, `import type`,
 * `export … from`, side-effect and dynamic `import(…)`, not those in comments or strings). */
function relativeImports(source: string): { specifier: string; at: number }[] {
  return ts.preProcessFile(source, true, true)
    .importedFiles.filter((f) => /^(\.\.?\/|#)/.test(f.fileName))
    .map((f) => ({ specifier: f.fileName, at: f.pos }));
}

/** The package's own imports (`#init`, `#wasm`) → every file of ts/ they may load
 * (pkg-template/package.json `imports`, one target per runtime condition). */
function packageImports(): Map<string, string[]> {
  const manifest = JSON.parse(readFileSync(join(root, "pkg-template/package.json"), "utf8"));
  const aliases = new Map<string, string[]>();
  for (const [name, targets] of Object.entries(manifest.imports as Record<string, Record<string, string>>)) {
    aliases.set(name, [...new Set(Object.values(targets))].map((t) => `./${t.replace(/^\.\/dist\//, "")}`));
  }
  return aliases;
}

/** The files of `dir` (relative to the repository) with extension `ext`, and the files
 * of `dir` each imports (`./x.js`; deeper paths are generated code, as ts/wasm/). */
function importGraph(dir: string, ext: ".ts" | ".js", aliases = new Map<string, string[]>()): Graph {
  const files = readdirSync(join(root, dir))
    .filter((f) => f.endsWith(ext) && statSync(join(root, dir, f)).isFile())
    .sort();
  const byStem = new Map(files.map((f) => [f.replace(/(\.d)?\.[jt]s$/, ""), f]));
  const graph: Graph = new Map();
  for (const file of files) {
    const text = readFileSync(join(root, dir, file), "utf8");
    graph.set(file, graph.get(file) ?? new Map());
    for (const { specifier, at } of relativeImports(text)) {
      const site = `${dir}/${file}:${lineOf(text, at)} "${specifier}"`;
      const resolved = specifier.startsWith("#") ? aliases.get(specifier) : [specifier];
      assert.ok(resolved !== undefined, `${site} is not one of the package's imports`);
      for (const one of resolved) {
        if (!one.startsWith("./") || one.slice(2).includes("/")) continue;
        const target = byStem.get(one.slice(2).replace(/\.(js|ts)$/, ""));
        assert.ok(target !== undefined, `${site} names no file of ${dir}/ (${one})`);
        addEdge(graph, file, target, site);
      }
    }
  }
  return graph;
}

// ---- the tests -----------------------------------------------------------------------

test("the modules of src/ import each other without a circle", () => {
  const graph = rustGraph();
  // the reading found the uses (a reader that finds nothing passes trivially)
  assert.ok(graph.get("msg")?.has("block"), "msg uses block");
  assert.ok(graph.get("session")?.has("event"), "session uses event");
  assertAcyclic("src/ (module → module, where)", graph);
});

test("the modules of ts/ import each other without a circle", () => {
  const graph = importGraph("ts", ".ts", packageImports());
  assert.ok(graph.get("api.ts")?.has("message.ts"), "api.ts imports message.ts");
  assert.ok(graph.get("event.ts")?.has("event-type.ts"), "event.ts imports event-type.ts");
  assert.ok(graph.get("load.ts")?.has("wasm-bun.ts"), "load.ts imports #wasm, which is wasm-bun.ts in Bun");
  assertAcyclic("ts/ (file → file, where)", graph);
});

test("the modules of the demo page (web-demo/public/) import each other without a circle", () => {
  const graph = importGraph("web-demo/public", ".js");
  assert.ok(graph.get("app.js")?.has("playback.js"), "app.js imports playback.js");
  assert.ok(graph.get("app.js")?.has("live.js"), "app.js imports live.js (dynamically)");
  assertAcyclic("web-demo/public/ (file → file, where)", graph);
});

test("the layout readers skip comments and strings and read every form of a use", () => {
  assert.deepEqual(
    crateReferences(
      stripRustComments(
        [
          "use crate::a::{B, C};",
          "// use crate::commented;",
          "/// [`crate::doc`] /* crate::nested */",
          "/* crate::block /* nested */ crate::still */",
          "use crate::{d::E, f, g::{H, i::J}};",
          'let s = "// not a comment"; let t = crate::k::l(); let u = r#"x"#;',
          "fn f<'a>(c: char) -> &'a str { if c == '\"' { crate::m::n!() } else { \"\" } }",
          '#[serde(with = "crate::o::p")]',
        ].join("\n"),
      ),
    ).map((r) => r.name),
    ["a", "d", "f", "g", "k", "m", "o"],
  );
  assert.deepEqual(
    relativeImports(
      [
        'import { a } from "./a.js";',
        'import type { B } from "./b.js";',
        "import {\n  c,\n  type D,\n} from './c.js';",
        'export * from "./e.js";',
        'export { F, type G } from "./f.js";',
        'export type * from "./g.js";',
        'import "./h.js";',
        'type I = import("./i.js").I;',
        '// import { x } from "./commented.js";',
        "/* export * from './commented-too.js'; */",
        'const s = "import { y } from \'./string.js\'"; const r = /["\'`]/; const t = `${"}"}`;',
        'import { j } from "#j";',
        'import initWasm from "./wasm/gen.js";',
      ].join("\n"),
    )
      .map((r) => r.specifier)
      .sort(),
    ["#j", "./a.js", "./b.js", "./c.js", "./e.js", "./f.js", "./g.js", "./h.js", "./i.js", "./wasm/gen.js"],
  );
  const toy: Graph = new Map();
  for (const [from, to] of [["a", "b"], ["b", "c"], ["c", "a"], ["c", "d"], ["d", "e"], ["e", "d"], ["f", "a"]]) {
    addEdge(toy, from!, to!, `${from}.rs:1`);
  }
  const found = cycles(toy);
  assert.deepEqual(
    found.map((c) => c.split("\n")[0]),
    ["d → e → d", "a → b → c → a"],
  );
  addEdge(toy, "x", "x", "x.rs:1"); // a module's use of itself is no circle
  toy.get("e")!.delete("d");
  toy.get("c")!.delete("a");
  assert.deepEqual(cycles(toy), []);
});
