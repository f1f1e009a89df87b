// What the chat-app pages know of the service, from the query string the tests write
// (`serviceQuery` of tests/ts/vite-app.ts): the test server's same-origin `/api` proxy,
// the user, the agent and the new sessions' model.
export const query = new URLSearchParams(location.search);

// (these pages' tests follow each chat's own event stream: its connects, drops, replays, one per
// chat; so they keep it, as node does. The browser default, a stream shared by the tabs and
// closed at rest, is tests/ts/tabs.test.ts's)
export const KEEP_STREAM = { idleStreamMs: Infinity, shareStream: false };

export const serviceOptions = {
  baseUrl: `${location.origin}/api`,
  userId: query.get("user"),
  agentId: query.get("agent"),
  session: { chat_model_config: JSON.parse(query.get("model")) },
  ...KEEP_STREAM,
};

/** Runs an action; resolves its value or `{error: code, message}` (a MsgError does not cross `page.evaluate`). */
export const settle = (p) => p.then((value) => ({ value: value ?? null }), (e) => ({ error: e.code ?? String(e), message: e.message }));
