// The explicit entry with `await init()` and no argument (the runtime's default source:
// in Bun, the .wasm imported as a file, embedded by `bun build --compile`); rebuilds the
// recording whose events.sse path is the first argument.
import { readFileSync } from "node:fs";
import { init, MsgError, Session } from "agentscope-message/init";
import { codeBeforeInit, rebuild } from "./rebuild.js";

const beforeInit = codeBeforeInit(Session, MsgError);
await init();
const bytes = new Uint8Array(readFileSync(process.argv[2]));
console.log(JSON.stringify({ entry: "agentscope-message/init", beforeInit, ...rebuild(new Session(), bytes) }));
