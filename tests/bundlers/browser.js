// The browser app, zero-config entry: importing the package loads the .wasm (top-level
// await), then the page rebuilds the recording served at /events.sse and shows the
// result in <body data-result>.
import { Session } from "agentscope-message";
import { rebuild } from "./rebuild.js";

const bytes = new Uint8Array(await (await fetch("/events.sse")).arrayBuffer());
document.body.dataset.result = JSON.stringify({ entry: "agentscope-message", ...rebuild(new Session(), bytes) });
