// Browsers and bundlers: fetch and instantiate the .wasm next to the JS glue (a bundler
// such as Vite picks the asset up from `new URL(..., import.meta.url)`).
import init from "./wasm/agentscope_message.js";

export const wasmExports = await init();
