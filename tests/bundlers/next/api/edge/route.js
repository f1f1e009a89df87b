// An Edge route (`runtime = "edge"`) with the zero-config import: the `edge-light`
// condition imports the .wasm as a compiled module (`?module`), which Next.js provides;
// POST /api/edge with the raw SSE bytes of a recording.
import { Session } from "agentscope-message";
import { rebuild } from "../../../rebuild.js";

export const runtime = "edge";

export async function POST(request) {
  return Response.json({ entry: "agentscope-message", ...rebuild(new Session(), new Uint8Array(await request.arrayBuffer())) });
}
