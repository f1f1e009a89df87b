// The TypeScript support matrix: the packed package, installed as users get it, type-checked
// by TypeScript 5.9, 6.0 and 7 with `strict` and `skipLibCheck: false`, under the module
// resolutions `bundler`, `nodenext` and `node10`; in a project with the DOM library and in a
// node-only one (lib es2022 and @types/node, no DOM). Every cell compiles the READMEs'
// TypeScript snippets verbatim and emits declarations for inferred snapshot types (TS2742 /
// TS2883 when a type lives in a path the package does not export).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { installPackedPackage, root } from "./helpers.ts";

// Under target/ so that @types/node, @types/react and react resolve from the repository's
// node_modules by walking up; the package itself comes from the tarball of `npm pack`.
mkdirSync(join(root, "target"), { recursive: true });
const scratch = mkdtempSync(join(root, "target", "ts-consumer-"));

const compilers: Record<string, string> = {
  "5.9": "node_modules/typescript-5.9/bin/tsc",
  "6.0": "node_modules/typescript-6.0/bin/tsc",
  "7": "node_modules/typescript/bin/tsc",
};
const resolutions: Record<string, { module: string; moduleResolution: string }> = {
  bundler: { module: "esnext", moduleResolution: "bundler" },
  nodenext: { module: "nodenext", moduleResolution: "nodenext" },
  node10: { module: "esnext", moduleResolution: "node10" },
};

/** The ```ts / ```tsx blocks of a README, verbatim. */
function snippets(readme: string): { code: string; tsx: boolean }[] {
  const text = readFileSync(join(root, readme), "utf8");
  return [...text.matchAll(/```(ts|tsx)\n([\s\S]*?)```/g)].map((m) => ({ code: m[2]!, tsx: m[1] === "tsx" }));
}

before(() => {
  installPackedPackage(scratch, "ts-consumer");

  // (and the chats of docs/chat.md, examples/chat.ts and examples/react-chat/App.tsx, which the README links)
  const plainChat = snippets("docs/chat.md").filter(({ code }) => code.startsWith("// A chat with an AgentScope 2.0 service in plain TypeScript"));
  assert.equal(plainChat.length, 1, "docs/chat.md shows examples/chat.ts");
  // (and its React page, examples/react-chat/App.tsx)
  const reactChat = snippets("docs/chat.md").filter(({ code, tsx }) => tsx && code.startsWith("// A chat with an AgentScope 2.0 service (`agentscope.app.create_app`)"));
  assert.equal(reactChat.length, 1, "docs/chat.md shows examples/react-chat/App.tsx");
  const all = [...snippets("README.md"), ...snippets("pkg-template/README.md"), ...plainChat, ...reactChat];
  assert.ok(all.length >= 6, "the READMEs have TypeScript snippets");
  mkdirSync(join(scratch, "src"));
  mkdirSync(join(scratch, "dom"));
  all.forEach(({ code, tsx }, i) => {
    // the React snippet needs JSX and React's types: the DOM project only
    const dir = tsx ? "dom" : "src";
    writeFileSync(join(scratch, dir, `readme-${i}.${tsx ? "tsx" : "ts"}`), code);
  });
  // what the snippets leave to the reader
  writeFileSync(
    join(scratch, "src/globals.d.ts"),
    `import type { AgentEvent } from "agentscope-message";
declare global {
  const stream: AsyncIterable<AgentEvent>;
  function render(value: unknown): void;
  function showOfflineNotice(message: string): void;
}
`,
  );
  writeFileSync(join(scratch, "dom/globals.d.ts"), `declare global {\n  function Bubble(props: { msg: unknown }): null;\n}\nexport {};\n`);
  // a library exporting inferred types: the declaration emit must name them all
  writeFileSync(
    join(scratch, "src/emit.ts"),
    `import { AssistantMsg, Session, parseEvent, EventType } from "agentscope-message";
import { EventType as ConstantEventType } from "agentscope-message/constants";
import { init } from "agentscope-message/init";
export const session = new Session({ dedup: true });
export const snapshot = session.getSnapshot();
export const firstBlock = () => session.messages[0]?.content[0];
export const diagnostics = () => session.diagnostics;
export const parsed = () => parseEvent({ type: EventType.REPLY_START, reply_id: "r", session_id: "s", name: "a", role: "assistant" });
export const message = new AssistantMsg({ name: "a", content: [] });
export const json = () => message.toJSON();
export const usage = () => message.usage;
export const toolCalls = () => message.getContentBlocks("tool_call");
export const load = () => init();
export const same: typeof EventType = ConstantEventType;
`,
  );
  const base = {
    strict: true,
    skipLibCheck: false,
    // TypeScript's own lib files (lib.dom.d.ts and the rest: half of each cell's check
    // time) are not checked again in every cell; what the package declares against them
    // (its global SymbolConstructor.dispose) is reported in its own file, which is checked
    skipDefaultLibCheck: true,
    target: "es2022",
    declaration: true,
    emitDeclarationOnly: true,
    jsx: "react-jsx",
    isolatedModules: true,
    rootDir: ".",
  };
  for (const [name, r] of Object.entries(resolutions)) {
    const dom = { ...base, ...r, lib: ["es2022", "dom", "dom.iterable", "esnext.disposable"], types: ["node", "react"], outDir: `out/dom-${name}` };
    const nodeOnly = { ...base, ...r, lib: ["es2022", "esnext.disposable"], types: ["node"], outDir: `out/node-${name}` };
    writeFileSync(join(scratch, `tsconfig.dom-${name}.json`), JSON.stringify({ compilerOptions: dom, include: ["src", "dom"] }, null, 2));
    writeFileSync(join(scratch, `tsconfig.node-${name}.json`), JSON.stringify({ compilerOptions: nodeOnly, include: ["src"] }, null, 2));
  }
});

after(() => rmSync(scratch, { recursive: true, force: true }));

type Result = { status: number; output: string };
const results = new Map<string, Promise<Result>>();
const cells = Object.entries(compilers).flatMap(([version, tsc]) =>
  Object.keys(resolutions).flatMap((resolution) => ["dom", "node"].map((project) => ({ version, tsc, resolution, project }))),
);

// the cells compile three at a time (TypeScript 5.9 and 6.0 take seconds each)
before(() => {
  const lanes: Promise<unknown>[] = [Promise.resolve(), Promise.resolve(), Promise.resolve()];
  cells.forEach(({ version, tsc, resolution, project }, i) => {
    // TS 6 deprecates node10: an error unless acknowledged (TS 5.9 refuses the flag)
    const acknowledge = resolution === "node10" && version === "6.0" ? ["--ignoreDeprecations", "6.0"] : [];
    const result = lanes[i % 3]!.then(() => compile(tsc, `tsconfig.${project}-${resolution}.json`, acknowledge));
    lanes[i % 3] = result;
    results.set(`${version} ${resolution} ${project}`, result);
  });
});

for (const { version, resolution, project } of cells) {
  test(`TypeScript ${version}, ${resolution}, ${project === "dom" ? "with the DOM library" : "node-only (no DOM)"}`, async () => {
    const out = await results.get(`${version} ${resolution} ${project}`)!;
    // TS 7 has no node10 resolution any more: the cell does not exist
    if (version === "7" && resolution === "node10") {
      assert.match(out.output, /error TS5108: Option 'moduleResolution=node10' has been removed/);
      return;
    }
    assert.equal(out.output, "", `tsc ${version} (${resolution}, ${project}) reported errors`);
    assert.equal(out.status, 0);
    // the inferred types were written out
    const emitted = readFileSync(join(scratch, `out/${project}-${resolution}-${version}/src/emit.d.ts`), "utf8");
    assert.match(emitted, /export declare const snapshot: /);
  });
}

function compile(tsc: string, config: string, flags: string[]): Promise<Result> {
  const outDir = `out/${config.replace(/^tsconfig\.|\.json$/g, "")}-${tsc.includes("5.9") ? "5.9" : tsc.includes("6.0") ? "6.0" : "7"}`;
  const args = [join(root, tsc), "-p", config, "--pretty", "false", "--outDir", outDir, ...flags];
  return new Promise((resolve) => {
    execFile("node", args, { cwd: scratch, encoding: "utf8" }, (error, stdout, stderr) => {
      resolve({ status: error ? (typeof error.code === "number" ? error.code : 1) : 0, output: `${stdout}${stderr}`.trim() });
    });
  });
}
