// Node: read the .wasm from the package folder and instantiate it synchronously.
import { readFileSync } from "node:fs";
import { initSync } from "./wasm/agentscope_message.js";

export const wasmExports = initSync({
  module: readFileSync(new URL("./wasm/agentscope_message_bg.wasm", import.meta.url)),
});
