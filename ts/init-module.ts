// The zero-config import where the platform hands the .wasm over as a compiled
// `WebAssembly.Module`: Cloudflare Workers (`workerd`; wrangler's bundler imports
// `*.wasm?module` as a module, and workerd refuses to compile bytes) and Next.js Edge
// routes (`edge-light`; Next.js compiles the module at build, and edge platforms may
// refuse code generation at run time). Instantiating a module is allowed there,
// synchronously, so the package is ready on import. A failure is kept for the first call
// (`init_failed` with the host's reason), never thrown at startup: a Worker that fails
// at startup cannot even report it.
import { initLater } from "./load.js";
import { defaultWasm } from "./wasm-module.js";

initLater(defaultWasm());
