// `agentscope-message/compat` (also `/compat/message` and `/compat/event`, for an import
// map or bundler alias of `@agentscope-ai/agentscope`): loads the .wasm on import, like the
// main entry.
import "#init";

export * from "./compat.js";
