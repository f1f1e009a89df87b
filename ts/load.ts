// Loading the .wasm: `init()`, the explicit entry's promise, and the synchronous load of
// the zero-config import in node. Both mark the package ready (`errors.ts`).
import initWasm, { initSync, type InitInput, type InitOutput } from "./wasm/agentscope_message.js";
import { defaultWasm } from "#wasm";
import { MsgError, markFailed, markReady } from "./errors.js";

/**
 * Where {@link init} gets the .wasm: a URL to fetch (`string` or `URL`), its bytes
 * (`ArrayBuffer`, a typed array or `Buffer`), a compiled `WebAssembly.Module`, or a
 * fetch `Response` — or a promise of one. (Typed loosely so that a project without the
 * DOM library can name it.)
 */
export type WasmSource = string | URL | ArrayBuffer | ArrayBufferView | object;

let loaded = false;
/** The instance's exports once loaded (its `memory`, for the package's own tests). */
export let wasmExports: InitOutput | undefined;
let pending: Promise<void> | undefined;

/**
 * Loads and instantiates the .wasm; resolves once every other export of the package can
 * be used. Without `source`: the `agentscope_message_bg.wasm` shipped next to the JS
 * (fetched in a browser, a bundler emits it as an asset; read from the package folder
 * in node). Idempotent: once loaded (by an earlier call or by the zero-config import
 * `agentscope-message`), it resolves at once and ignores `source`; concurrent calls
 * share one load. A failed load can be retried.
 *
 * Rejects with `MsgError` code `init_failed` (a 404, no network, a Content Security
 * Policy without `'wasm-unsafe-eval'`, bytes that are not this package's .wasm); the
 * message carries the host's reason.
 */
export function init(source?: WasmSource | Promise<WasmSource>): Promise<void> {
  if (loaded) return Promise.resolve();
  pending ??= (async () => {
    try {
      const input = await (source ?? defaultWasm());
      const module = input === undefined ? undefined : await compileOurs(input);
      wasmExports = await initWasm(module === undefined ? undefined : { module_or_path: module as InitInput });
    } catch (e) {
      pending = undefined;
      throw loadError(e);
    }
    loaded = true;
    markReady();
  })();
  return pending;
}

/**
 * Instantiates the .wasm synchronously (the zero-config import in node and Bun) from the
 * bytes or the compiled module `read` returns. Throws `MsgError` `init_failed` (e.g.
 * ENOENT in a bundle that moved the package's files).
 */
export function initNow(read: () => ArrayBufferView | object): void {
  if (loaded) return;
  try {
    const input = adopt(read());
    if (input instanceof WebAssembly.Module) checkOurs(input);
    wasmExports = initSync({ module: input as Uint8Array<ArrayBuffer> });
  } catch (e) {
    throw loadError(e);
  }
  loaded = true;
  markReady();
}

/**
 * Instantiates a compiled module synchronously (the zero-config import in Cloudflare
 * Workers and Next.js Edge routes). Never throws: a failure is kept, and every call
 * before a successful {@link init} throws it (`init_failed`). (`module` is typed loosely,
 * as {@link WasmSource} is, for projects without the DOM library.)
 */
export function initLater(module: object): void {
  try {
    initNow(() => module);
  } catch (e) {
    markFailed(e as MsgError);
  }
}

/**
 * A source compiled, and checked to be this package's .wasm before the glue sees it: the
 * glue keeps whatever instance it was given first, so a foreign module (one that
 * compiles) must never reach it, or no later `init()` could repair the package.
 */
async function compileOurs(source: unknown): Promise<WebAssembly.Module> {
  let input = source;
  const isRequest = typeof Request !== "undefined" && input instanceof Request;
  if (typeof input === "string" || input instanceof URL || isRequest) input = await fetch(input as string);
  if (typeof Response !== "undefined" && input instanceof Response) {
    if (!input.ok) throw new Error(`HTTP ${input.status} ${input.statusText}`.trim());
    input = await input.arrayBuffer();
  }
  input = adopt(input);
  const module = input instanceof WebAssembly.Module ? input : await WebAssembly.compile(input as Uint8Array<ArrayBuffer>);
  return checkOurs(module);
}

/**
 * A compiled module made in another realm (Next.js runs Edge routes in a sandbox and
 * hands them modules compiled outside it) fails the glue's `instanceof
 * WebAssembly.Module`, and the glue would then try to compile it as bytes. The engine
 * takes such a module as it is (its checks are not by prototype), so give it this
 * realm's prototype (the caller's object is changed; a frozen one is refused).
 */
function adopt<T>(input: T): T {
  if (!(input instanceof WebAssembly.Module) && Object.prototype.toString.call(input) === "[object WebAssembly.Module]") {
    if (!Reflect.setPrototypeOf(input as object, WebAssembly.Module.prototype)) {
      throw new Error("a WebAssembly.Module of another realm that cannot be adopted (it is frozen): pass one of this realm");
    }
  }
  return input;
}

function checkOurs(module: WebAssembly.Module): WebAssembly.Module {
  if (!WebAssembly.Module.exports(module).some((e) => e.name === "msghandle_appendEvent")) {
    throw new Error("the module is not this package's .wasm (it has no msghandle_appendEvent export)");
  }
  return module;
}

/** What the bundlers that emit no asset from the glue's `new URL(…, import.meta.url)` need (docs/loading.md). */
const copyIt =
  "esbuild and Rollup need agentscope_message_bg.wasm copied next to the bundle; Angular CLI: add the .wasm to " +
  "angular.json's assets (docs/loading.md)";

/** `init_failed`, with the host's reason and a hint for the common causes. */
function loadError(e: unknown): MsgError {
  const reason = e instanceof Error ? e.message : String(e);
  let hint = "";
  if (/magic word.*3c/i.test(reason)) {
    hint = " (an HTML page was served instead of the .wasm: a dev server's or a static host's fallback? With Vite before 8, " +
      `set optimizeDeps: { exclude: ["agentscope-message"] }; ${copyIt})`;
  } else if (/(failed to fetch Wasm: |^HTTP )404\b/.test(reason)) {
    hint = ` (nothing at the .wasm's URL, next to the JS: ${copyIt})`;
  } else if (/Requires read access/.test(reason)) {
    hint = " (Deno: the package reads its .wasm, on import or in init(); run with --allow-read, or only that " +
      "file: --allow-read=<the path above>)";
  } else if (/code generation disallowed|code generation .*not allowed|Dynamic Code Evaluation/i.test(reason)) {
    hint = " (this runtime refuses to compile .wasm bytes: pass init() a compiled WebAssembly.Module, such as the " +
      "one a `agentscope_message_bg.wasm?module` import gives)";
  } else if (reason.includes("ENOENT")) {
    hint = " (a bundle that inlined the package looks for the .wasm in wasm/ next to it: keep agentscope-message " +
      "external, or call init(bytes) from agentscope-message/init)";
  }
  return new MsgError("init_failed", `could not load agentscope-message's .wasm: ${reason}${hint}`);
}
