// The .wasm as the runtimes' bundlers hand it over (init-module.ts, init-bun.ts): a
// compiled module (`?module`: wrangler, Next.js Edge routes), or a file path (Bun's
// `with { type: "file" }`).
declare module "*.wasm?module" {
  const module: WebAssembly.Module;
  export default module;
}
declare module "*.wasm" {
  const path: string;
  export default path;
}
