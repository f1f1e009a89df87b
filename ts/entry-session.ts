// `agentscope-message/session`: loads the .wasm on import, like the main entry.
import "#init";

export * from "./session.js";
