// Where `init()` finds the .wasm by default in Bun: the file imported as a file (embedded
// by `bun build --compile`), read.
import { readFile } from "node:fs/promises";
import path from "./wasm/agentscope_message_bg.wasm" with { type: "file" };

export function defaultWasm(): Promise<Uint8Array> {
  return readFile(path);
}
