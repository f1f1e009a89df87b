// The type of `#wasm` for the compiler (package.json maps `#wasm` to wasm-node.js in
// node and to wasm-web.js elsewhere; this declares what both provide).
export function defaultWasm(): Promise<Uint8Array> | undefined;
