// The zero-config import in node: reads the .wasm from the package folder and
// instantiates it synchronously (no top-level await, so `require()` works too).
import { readFileSync } from "node:fs";
import { initNow } from "./load.js";
import { wasmUrl } from "./wasm-node.js";

initNow(() => readFileSync(wasmUrl()));
