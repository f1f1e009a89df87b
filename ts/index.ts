// agentscope-message: the AgentScope 2.0 message model and streaming-event reducer,
// compiled from Rust to WebAssembly. Importing it loads the .wasm (top-level await in
// browsers and bundlers, synchronously in node). Also available as the subpaths
// `agentscope-message/message`, `agentscope-message/event` and
// `agentscope-message/session` (and `agentscope-message/react` for the React hook);
// `agentscope-message/init` is the same API with an explicit `init()`, and
// `agentscope-message/constants` has `EventType`, `MsgError` and the types only.
import "#init";

export * from "./api.js";
