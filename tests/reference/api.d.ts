export * from "./message.js";
export * from "./event.js";
export * from "./session.js";
export { MsgError, type MsgErrorCode } from "./errors.js";
export { init, type WasmSource } from "./load.js";
