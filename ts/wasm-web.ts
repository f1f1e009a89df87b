// Where `init()` finds the .wasm by default in browsers and bundlers: `undefined`, i.e.
// the glue's own `new URL("agentscope_message_bg.wasm", import.meta.url)`, next to it
// (a bundler such as Vite emits the asset from that expression).
export function defaultWasm(): undefined {
  return undefined;
}
