// The browser app, explicit entry: nothing loads on import; `await init()` fetches the
// .wasm from its default location (next to the glue, or wherever the bundler emitted it).
// A failed load is a MsgError the app catches: it shows it in <body data-result>.
import { init, MsgError, Session } from "agentscope-message/init";
import { codeBeforeInit, rebuild } from "./rebuild.js";

const beforeInit = codeBeforeInit(Session, MsgError);
try {
  await init();
  const bytes = new Uint8Array(await (await fetch("/events.sse")).arrayBuffer());
  document.body.dataset.result = JSON.stringify({ entry: "agentscope-message/init", beforeInit, ...rebuild(new Session(), bytes) });
} catch (e) {
  document.body.dataset.result = JSON.stringify({ entry: "agentscope-message/init", beforeInit, error: e instanceof MsgError ? e.code : String(e), message: String(e.message) });
}
