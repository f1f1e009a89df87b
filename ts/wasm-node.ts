// Where `init()` finds the .wasm by default in node: read from the package folder.
import { readFile } from "node:fs/promises";

export function defaultWasm(): Promise<Uint8Array> {
  return readFile(new URL("./wasm/agentscope_message_bg.wasm", import.meta.url));
}
