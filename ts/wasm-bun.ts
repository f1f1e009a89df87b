// Where `init()` finds the .wasm by default in Bun: the file imported as a file (embedded
// by `bun build --compile`), read.
import { readFile } from "node:fs/promises";
import path from "./wasm/agentscope_message_bg.wasm" with { type: "file" };

/** The .wasm as Bun's file import gives it: an absolute path (the package folder under
 * plain `bun`, `/$bunfs/…` inside a `bun build --compile` executable), or, in a bundle of
 * `bun build --outdir`, a path relative to the bundle (Bun copies the file next to it),
 * which must not be read from the working folder. */
export function wasmFile(): string | URL {
  return /^\.\.?\//.test(path) ? new URL(path, import.meta.url) : path;
}

export function defaultWasm(): Promise<Uint8Array> {
  return readFile(wasmFile());
}
