// `agentscope-message/compat` (also `/compat/message`, `/compat/event`, `/compat/permission`
// and `/compat/state`, for an import map or bundler alias of `@agentscope-ai/agentscope`):
// loads the .wasm on import, like the main entry.
import "#init";

export * from "./compat.js";
