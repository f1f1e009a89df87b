// A Cloudflare Worker that hands init() the .wasm's bytes (POSTed to it): workerd refuses
// to compile bytes, so this fails, as `init_failed` with the hint to pass a compiled
// module; it prints the error's code and message.
import { init, Session } from "agentscope-message/init";

export default {
  async fetch(request) {
    try {
      await init(new Uint8Array(await request.arrayBuffer()));
      new Session();
      return Response.json({ loaded: true });
    } catch (e) {
      return Response.json({ code: e.code, message: e.message });
    }
  },
};
