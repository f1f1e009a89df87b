// A Cloudflare Worker with the explicit entry: `await init()` in the fetch handler, with
// no argument (the `workerd` condition's default source is the imported module).
import { init, MsgError, Session } from "agentscope-message/init";
import { codeBeforeInit, rebuild } from "./rebuild.js";

export default {
  async fetch(request) {
    const beforeInit = codeBeforeInit(Session, MsgError);
    await init();
    const bytes = new Uint8Array(await request.arrayBuffer());
    return Response.json({ entry: "agentscope-message/init", beforeInit, ...rebuild(new Session(), bytes) });
  },
};
