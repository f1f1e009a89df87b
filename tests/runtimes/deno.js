// The Deno app: the package by an `npm:` specifier, zero-config (the .wasm is read from
// the package folder as it is imported, which needs read permission for that file); the
// recording's SSE bytes come on standard input (no permission needed).
import { Session } from "npm:agentscope-message";
import { rebuild } from "./rebuild.js";

const bytes = new Uint8Array(await new Response(Deno.stdin.readable).arrayBuffer());
console.log(JSON.stringify({ entry: "agentscope-message", ...rebuild(new Session(), bytes) }));
