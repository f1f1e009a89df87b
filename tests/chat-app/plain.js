// A page of tests/ts/chat-browser.test.ts: the framework-free `Chat` of
// agentscope-message/chat against the live service, through the test server's same-origin
// `/api` proxy. The test drives it with `window.driver` (page.evaluate) and compares what
// it rebuilt with what the service stored.
import { AgentScopeTransport, Chat } from "agentscope-message/chat";
import { KEEP_STREAM } from "./service-options.js";

/** The transport, recording each history page it fetched (to know a refresh happened). */
class RecordingTransport extends AgentScopeTransport {
  pages = [];
  async history(sessionId, options) {
    const page = await super.history(sessionId, options);
    this.pages.push({ isRunning: page.isRunning, ids: page.messages.map((m) => m.id) });
    return page;
  }
}

let chat = null;
let transport = null;
/** Each reply as it was when its REPLY_END arrived (`onFinish`): rebuilt from events only. */
let finished = [];
let notifications = 0;
const show = () => {
  document.getElementById("status").textContent = chat.status;
};

function pending(kind) {
  const action = chat.pendingActions.find((a) => a.kind === kind);
  if (action === undefined) throw new Error(`no pending ${kind} action (status ${chat.status})`);
  return action.toolCall.id;
}

window.driver = {
  async open() {
    chat?.close();
    const config = await (await fetch("/config.json")).json();
    transport = new RecordingTransport({
      baseUrl: `${location.origin}/api`,
      userId: config.userId,
      agentId: config.agentId,
      session: { chat_model_config: config.chatModelConfig },
    });
    finished = [];
    notifications = 0;
    chat = await Chat.open(transport, { onFinish: (m) => finished.push(m), ...KEEP_STREAM });
    chat.subscribe(() => {
      notifications += 1;
      show();
    });
    show();
    return chat.sessionId;
  },
  send: (text) => chat.send(text),
  confirm: (approved) => chat.confirm(pending("confirm"), approved),
  submitExternal: (result) => chat.submitExternal({ toolCallId: pending("external"), ...result }),
  stop: () => chat.stop(),
  close: () => chat?.close(),
  snapshot() {
    const s = chat.getSnapshot();
    return {
      sessionId: chat.sessionId,
      status: s.status,
      error: s.error === null ? null : { code: s.error.code, message: s.error.message },
      messages: s.messages,
      pendingActions: s.pendingActions.map((a) => ({ kind: a.kind, replyId: a.replyId, toolCallId: a.toolCall.id })),
      partial: s.partial,
      diagnostics: chat.diagnostics.length,
      pages: transport.pages,
      finished,
      notifications,
    };
  },
};
document.getElementById("status").textContent = "idle";
