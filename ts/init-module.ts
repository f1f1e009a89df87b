// The zero-config import where the platform hands the .wasm over as a compiled
// `WebAssembly.Module` and refuses to compile bytes at run time: Cloudflare Workers
// (workerd; wrangler's bundler imports `*.wasm?module` as a module) and Next.js Edge
// routes (`edge-light`; "Dynamic Code Evaluation … not allowed in Edge Runtime").
// Instantiating a module is allowed there, synchronously, so the package is ready on
// import. A failure is kept for the first call (`init_failed` with the host's reason),
// never thrown at startup: a Worker that fails at startup cannot even report it.
import module from "./wasm/agentscope_message_bg.wasm?module";
import { initLater } from "./load.js";

initLater(module);
