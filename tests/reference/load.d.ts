import { type InitOutput } from "./wasm/agentscope_message.js";
/**
 * Where {@link init} gets the .wasm: a URL to fetch (`string` or `URL`), its bytes
 * (`ArrayBuffer`, a typed array or `Buffer`), a compiled `WebAssembly.Module`, or a
 * fetch `Response` — or a promise of one. (Typed loosely so that a project without the
 * DOM library can name it.)
 */
export type WasmSource = string | URL | ArrayBuffer | ArrayBufferView | object;
/** The instance's exports once loaded (its `memory`, for the package's own tests). */
export declare let wasmExports: InitOutput | undefined;
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
export declare function init(source?: WasmSource | Promise<WasmSource>): Promise<void>;
/**
 * Instantiates the .wasm synchronously (the zero-config import in node and Bun) from the
 * bytes or the compiled module `read` returns. Throws `MsgError` `init_failed` (e.g.
 * ENOENT in a bundle that moved the package's files).
 */
export declare function initNow(read: () => ArrayBufferView | object): void;
/**
 * Instantiates a compiled module synchronously (the zero-config import in Cloudflare
 * Workers and Next.js Edge routes). Never throws: a failure is kept, and every call
 * before a successful {@link init} throws it (`init_failed`). (`module` is typed loosely,
 * as {@link WasmSource} is, for projects without the DOM library.)
 */
export declare function initLater(module: object): void;
