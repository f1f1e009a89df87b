// An Edge route with the explicit entry: `await init()` and no argument (the
// `edge-light` default source is the imported module); POST /api/edge-init.
import { init, MsgError, Session } from "agentscope-message/init";
import { codeBeforeInit, rebuild } from "../../../rebuild.js";

export const runtime = "edge";

export async function POST(request) {
  const beforeInit = codeBeforeInit(Session, MsgError);
  await init();
  const bytes = new Uint8Array(await request.arrayBuffer());
  return Response.json({ entry: "agentscope-message/init", beforeInit, ...rebuild(new Session(), bytes) });
}
