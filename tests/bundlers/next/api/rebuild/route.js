// A route handler (server code in node) with the zero-config import: GET /api/rebuild
// rebuilds the recording in public/events.sse.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Session } from "agentscope-message";
import { rebuild } from "../../../rebuild.js";

export const dynamic = "force-dynamic";

export function GET() {
  const bytes = new Uint8Array(readFileSync(join(process.cwd(), "public/events.sse")));
  return Response.json({ entry: "agentscope-message", ...rebuild(new Session(), bytes) });
}
