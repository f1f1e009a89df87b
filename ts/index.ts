// agentscope-message: the AgentScope 2.0 message model and streaming-event reducer,
// compiled from Rust to WebAssembly. Also available as the subpaths
// `agentscope-message/message` and `agentscope-message/event`.
export * from "./message.js";
export * from "./event.js";
export { MsgError, type MsgErrorCode } from "./errors.js";
