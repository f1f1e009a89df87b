// `agentscope-message/message`: loads the .wasm on import, like the main entry.
import "#init";

export * from "./message.js";
