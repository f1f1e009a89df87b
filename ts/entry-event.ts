// `agentscope-message/event`: loads the .wasm on import, like the main entry.
import "#init";

export * from "./event.js";
