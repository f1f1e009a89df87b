// The node app, explicit entry, for a bundle deployed without node_modules: the .wasm is
// copied next to the bundle and handed to init() as bytes (the documented
// `init(readFileSync(pathOfTheWasm))`).
import { readFileSync } from "node:fs";
import { init, MsgError, Session } from "agentscope-message/init";
import { codeBeforeInit, rebuild } from "./rebuild.js";

const beforeInit = codeBeforeInit(Session, MsgError);
await init(readFileSync(new URL("./agentscope_message_bg.wasm", import.meta.url)));
const bytes = new Uint8Array(readFileSync(process.argv[2]));
console.log(JSON.stringify({ entry: "agentscope-message/init", beforeInit, ...rebuild(new Session(), bytes) }));
