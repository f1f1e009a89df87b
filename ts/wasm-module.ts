// Where `init()` finds the .wasm by default in Cloudflare Workers and Next.js Edge
// routes: the compiled `WebAssembly.Module` the platform's bundler made of the file.
import module from "./wasm/agentscope_message_bg.wasm?module";

export function defaultWasm(): object {
  return module;
}
