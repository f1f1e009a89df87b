// Everything the package exports, without loading the .wasm: `index.ts` (zero-config)
// and `explicit.ts` (`agentscope-message/init`) both re-export this.
export * from "./message.js";
export * from "./event.js";
export * from "./session.js";
export { MsgError, type MsgErrorCode } from "./errors.js";
export { init, type WasmSource } from "./load.js";
