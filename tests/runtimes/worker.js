// A Cloudflare Worker with the zero-config import (`workerd` condition: the .wasm is
// imported as a compiled module, which wrangler's bundler provides): POST the raw SSE
// bytes of a recording, get the rebuilt message back (tests/bundlers/rebuild.js).
import { Session } from "agentscope-message";
import { rebuild } from "./rebuild.js";

export default {
  async fetch(request) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    return Response.json({ entry: "agentscope-message", ...rebuild(new Session(), bytes) });
  },
};
