// `agentscope-message/constants`: `EventType`, `MsgError` and every type of the package,
// with nothing that loads the .wasm (the types are erased; these two values are plain JS).
export * from "./event-type.js";
export { EventType } from "./event-type.js";
export { MsgError, type MsgErrorCode } from "./errors.js";
export type * from "./message.js";
export type * from "./session.js";
export type { WasmSource } from "./load.js";
