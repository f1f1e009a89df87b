// `agentscope-message/init`: the whole API without loading the .wasm on import. Call
// `await init()` (optionally with a URL, bytes or a `WebAssembly.Module`) before anything
// else; until it resolves, every call throws `MsgError` `not_initialized`.
export * from "./api.js";
