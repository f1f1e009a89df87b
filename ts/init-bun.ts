// The zero-config import in Bun: the .wasm imported as a file, which `bun build
// --compile` embeds in the executable (its path then lies in the executable's own file
// system, `/$bunfs/…`, which `readFileSync` reads), `bun build --outdir` copies next to
// the bundle, and plain `bun` resolves to the file in the package folder. Instantiated
// synchronously, as in node.
import { readFileSync } from "node:fs";
import { initNow } from "./load.js";
import { wasmFile } from "./wasm-bun.js";

initNow(() => readFileSync(wasmFile()));
