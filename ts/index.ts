// agentscope-message: the AgentScope 2.0 message model and streaming-event reducer,
// compiled from Rust to WebAssembly. Also available as the subpaths
// `agentscope-message/message`, `agentscope-message/event` and
// `agentscope-message/session` (and `agentscope-message/react` for the React hook).
export * from "./message.js";
export * from "./event.js";
export * from "./session.js";
export { MsgError, type MsgErrorCode } from "./errors.js";
