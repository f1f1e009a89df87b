// The type of `#wasm` for the compiler (package.json maps `#wasm` to wasm-node.js in
// node, wasm-bun.js in Bun, wasm-module.js in Cloudflare Workers and Next.js Edge routes,
// and to wasm-web.js elsewhere; this declares what they provide).
export function defaultWasm(): Promise<Uint8Array> | object | undefined;
