// The zero-config import in node: reads the .wasm from the package folder and
// instantiates it synchronously (no top-level await, so `require()` works too).
import { readFileSync } from "node:fs";
import { initNow } from "./load.js";

initNow(() => readFileSync(new URL("./wasm/agentscope_message_bg.wasm", import.meta.url)));
