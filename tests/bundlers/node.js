// The node app, zero-config entry (the .wasm loads synchronously on import): rebuilds the
// recording whose events.sse path is the first argument and prints the result as JSON.
import { readFileSync } from "node:fs";
import { Session } from "agentscope-message";
import { rebuild } from "./rebuild.js";

console.log(JSON.stringify({ entry: "agentscope-message", ...rebuild(new Session(), new Uint8Array(readFileSync(process.argv[2]))) }));
