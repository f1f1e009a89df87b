// Where `init()` finds the .wasm by default in node: read from the package folder.
import { readFile } from "node:fs/promises";

/** The package's .wasm file. The literal `new URL(…, import.meta.url)` lets a bundler emit
 * the file as an asset and point the URL at it; when it points it at a web path instead
 * (Next.js does, rendering a client component on the server), the package's own file is
 * read, found from this module's own URL (which such a bundler leaves as it is; built as
 * a string, so that the bundler does not rewrite that one too). */
export function wasmUrl(): URL {
  const url = new URL("./wasm/agentscope_message_bg.wasm", import.meta.url);
  if (url.protocol === "file:") return url;
  const here = import.meta.url;
  return new URL(`${here.slice(0, here.lastIndexOf("/"))}/wasm/agentscope_message_bg.wasm`);
}

export function defaultWasm(): Promise<Uint8Array> {
  return readFile(wasmUrl());
}
