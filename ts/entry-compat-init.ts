// `agentscope-message/compat/init`: the compat API without loading the .wasm on import,
// as `agentscope-message/init` is for the main API: for bundlers without top-level
// `await` (webpack 4: Vue CLI 4, Create React App 4) and apps that paint first. Call
// `await init()` (optionally with a URL, bytes or a `WebAssembly.Module`) before the
// first factory or `appendEvent`; until it resolves they throw `MsgError`
// `not_initialized`. The enums need no .wasm.
export * from "./compat.js";
export { init, type WasmSource } from "./load.js";
