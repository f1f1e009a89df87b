// The consumer app's logic, the same in every build (browser and node): feed the raw SSE
// bytes of a recording to a Session in small chunks (cut inside frames and UTF-8
// sequences), end it, and return the rebuilt message as wire JSON text with the values
// the reducer makes up itself (timestamps, output text ids) nulled, as
// tests/ts/helpers.ts's nullRecordingVolatiles does for final_msg.json.
export const CHUNK = 333;

function stable(msg) {
  const json = JSON.parse(JSON.stringify(msg));
  json.created_at = null;
  for (const block of json.content) {
    block.created_at = null;
    if (block.type === "hint") block.finished_at = null;
    for (const item of Array.isArray(block.output) ? block.output : []) {
      item.created_at = null;
      if (item.type === "text") item.id = null;
    }
  }
  return JSON.stringify(json);
}

/** `session` is a new Session of whichever entry the app imports; `bytes` a Uint8Array. */
export function rebuild(session, bytes) {
  let chunks = 0;
  for (let at = 0; at < bytes.length; at += CHUNK, chunks++) session.feed(bytes.subarray(at, at + CHUNK));
  session.end();
  return { chunks, messages: session.messages.length, json: stable(session.messages[0]) };
}

/** What `new Session()` throws before `init()` (the explicit entry): its code. */
export function codeBeforeInit(Session, MsgError) {
  try {
    new Session();
    return "no error";
  } catch (e) {
    return e instanceof MsgError ? e.code : String(e);
  }
}
