export * from "./compat.js";
export { init, type WasmSource } from "./load.js";
