// A page of tests/ts/chat-browser.test.ts (issue 29): the framework-free `Chat` of
// agentscope-message/chat with what it carries of the whole AgentScope app: every event
// through `onEvent`, the session's `state` / `session` / `progress`, a team worker's
// confirmation in `pendingActions`, attachments made by `dataBlock` from a browser `File`.
// Against the live service through the test server's same-origin `/api` proxy; the test
// drives it with `window.whole` (page.evaluate) and compares it with the service's own.
import { AgentScopeTransport, Chat, dataBlock } from "agentscope-message/chat";
import { KEEP_STREAM } from "./service-options.js";

let chat = null;
/** Every event `onEvent` passed, in order (deep copies: the test reads them later). */
let events = [];
let errors = [];
/** At each `CUSTOM mcp_progress`: its tool call's entry of `getSnapshot().progress`. */
let progressSeen = [];
const show = () => {
  document.getElementById("status").textContent = chat.status;
};

/** A 1×1 PNG (70 bytes). */
const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** Runs an action; resolves `{value}` or `{error: code}` (a MsgError does not cross `page.evaluate`). */
const settle = (p) => p.then((value) => ({ value: value ?? null }), (e) => ({ error: e.code ?? String(e), message: e.message }));

window.whole = {
  async open() {
    chat?.close();
    const config = await (await fetch("/config.json")).json();
    const transport = new AgentScopeTransport({
      baseUrl: `${location.origin}/api`,
      userId: config.userId,
      agentId: config.agentId,
      session: { chat_model_config: config.chatModelConfig },
    });
    events = [];
    errors = [];
    progressSeen = [];
    chat = await Chat.open(transport, {
      ...KEEP_STREAM,
      onEvent: (e) => {
        events.push(structuredClone(e));
        // the snapshot already holds the event: a progress entry of its tool call
        if (e.type === "CUSTOM" && e.name === "mcp_progress") progressSeen.push(structuredClone(chat.getSnapshot().progress[e.value.tool_call_id] ?? null));
      },
      onError: (e) => errors.push(String(e?.code ?? e)),
      retry: { initialMs: 100, maxMs: 500 },
    });
    chat.subscribe(show);
    show();
    return chat.sessionId;
  },
  /** `send` with what the test passes: a text, blocks, or `{content, metadata}`. */
  send: (input) => settle(chat.send(input)),
  /** A `File` of the 1×1 PNG (as a file picker gives it) through `dataBlock`. */
  async pngBlock() {
    const bytes = Uint8Array.from(atob(PNG_BASE64), (c) => c.charCodeAt(0));
    return dataBlock(new File([bytes], "dot.png", { type: "image/png" }));
  },
  /** Sends "seeimage" with the PNG attached (`send(blocks)`); resolves the block sent. */
  async sendImage() {
    const block = await this.pngBlock();
    const sent = await settle(chat.send([{ type: "text", text: "seeimage" }, block]));
    return { block, sent };
  },
  confirm: (toolCallId, approved) => settle(chat.confirm(toolCallId, approved)),
  stop: () => settle(chat.stop()),
  close: () => chat?.close(),
  snapshot() {
    const s = chat.getSnapshot();
    return structuredClone({
      sessionId: chat.sessionId,
      status: s.status,
      connection: s.connection,
      error: s.error === null ? null : { code: s.error.code, message: s.error.message },
      messages: s.messages,
      state: s.state,
      session: s.session,
      progress: s.progress,
      partial: s.partial,
      pendingActions: s.pendingActions.map((a) => ({ kind: a.kind, replyId: a.replyId, toolCall: a.toolCall, worker: a.worker ?? null })),
      events,
      errors,
      progressSeen,
    });
  },
};
document.getElementById("status").textContent = "idle";
