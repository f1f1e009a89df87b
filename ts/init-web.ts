// The zero-config import in browsers and bundlers: waits for the .wasm next to the JS
// glue (top-level await). `agentscope-message/init` leaves this to the app's `init()`.
import { init } from "./load.js";

await init();
