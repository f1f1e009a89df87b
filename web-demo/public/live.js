// Live mode of the demo page: a chat with a running AgentScope 2.0 service through
// `agentscope-message/chat` (the demo server forwards `/api/…` to the service: it has no
// CORS). One `Chat` per page: its snapshots are rendered by render.js's bubble renderer
// (at most once per animation frame); the composer sends text, Stop interrupts the reply in
// flight, a tool call waiting for a confirmation gets Approve / Deny (`chat.confirm`) and
// an AskUser call the page's form (`chat.submitExternal`). The session id is in the URL
// (`?session=…`): a reload resumes it (stored history, then the stream, replayed), and a
// second tab with the same URL joins it (both see the reply stream).
import { AgentScopeTransport, Chat } from "agentscope-message/chat";

const STATUS_TEXT = {
  connecting: "connecting to the session's event stream…",
  ready: "ready",
  submitted: "sent; waiting for the reply to start…",
  streaming: "streaming…",
  awaiting_input: "the agent is waiting for you: answer the highlighted tool call",
  error: "error",
  closed: "closed",
};

/**
 * Starts live mode. `config`: what the server put in `<meta name="agentscope-live">`
 * (`{baseUrl, agentId, userId, chatModelConfig}`); `ui`: the page's renderer and status
 * bar (app.js passes them). Sets `ui.state.live` to the controller (decide.js routes the
 * tool cards' decisions to its `decide`) before anything renders.
 */
export async function startLive(config, ui) {
  const { state, render, status, $ } = ui;
  const controller = { chat: null, errors: [], decide };
  state.live = controller;
  document.body.dataset.mode = "live";
  document.body.dataset.state = "connecting";
  $("controls").hidden = true;
  $("live-bar").hidden = false;
  $("composer").hidden = false;
  $("description").textContent = "A live chat with an AgentScope 2.0 service. Keep this URL to come back to the session; open it in a second tab to watch the same chat. The offline service's scripted model answers: tool, parallel, think, confirm, ask, image, long N, slow, fail; anything else is echoed.";

  const transport = new AgentScopeTransport({
    baseUrl: new URL(config.baseUrl, location.href),
    userId: config.userId,
    agentId: config.agentId,
    session: config.chatModelConfig ? { chat_model_config: config.chatModelConfig } : {},
  });
  const url = new URL(location.href);
  const sessionId = url.searchParams.get("session") || undefined;
  status(sessionId ? "loading the session…" : "creating a session…");
  let chat;
  try {
    chat = await Chat.open(transport, {
      sessionId,
      // errors nobody awaits (a dropped stream that reconnects, a refused event): the
      // snapshot's `error` shows what matters; these are kept for a curious developer
      onError: (e) => {
        controller.errors.push(`${e?.code ?? "error"}: ${e?.message ?? e}`);
        console.warn("live chat:", e);
      },
    });
  } catch (e) {
    document.body.dataset.state = "error";
    status(`cannot open ${sessionId ? `session ${sessionId}` : "a session"}: ${e.message}`, true);
    $("live-session").textContent = sessionId ?? "none";
    return controller;
  }
  controller.chat = chat;
  if (!sessionId) {
    url.searchParams.set("session", chat.sessionId);
    history.replaceState(null, "", url);
  }
  $("live-session").textContent = chat.sessionId;
  addEventListener("pagehide", () => chat.close());

  // ---------- rendering: the chat's snapshot, once per frame ----------

  let frame = 0;
  let shown = null;
  let sending = false; // a send() in flight
  const flush = () => {
    frame = 0;
    const snapshot = chat.getSnapshot();
    if (snapshot === shown) return;
    shown = snapshot;
    render(snapshot);
    markPartial(snapshot.partial);
    paint(snapshot);
  };
  chat.subscribe(() => {
    if (!frame) frame = requestAnimationFrame(flush);
  });
  flush();

  /** A reply joined mid-way shows what arrived, with a note, until the stored one replaces it. */
  function markPartial(partial) {
    for (const [id, view] of state.views) {
      const is = partial.includes(id);
      if (is === (view.node.dataset.partial === "1")) continue;
      if (is) {
        view.node.dataset.partial = "1";
        view.node.querySelector(":scope > header").append(ui.el("span", "partial-note", "partial: joined mid-reply, the start is missing until it ends"));
      } else {
        delete view.node.dataset.partial;
        view.node.querySelector(":scope > header > .partial-note")?.remove();
      }
    }
  }

  function paint(snapshot) {
    const { status: now, error } = snapshot;
    document.body.dataset.state = now;
    const busy = now === "streaming" || now === "submitted" || now === "awaiting_input";
    $("stop").hidden = !busy;
    $("stop").disabled = false;
    $("send").disabled = !(now === "ready" || now === "error") || sending;
    const text = STATUS_TEXT[now] ?? now;
    status(error ? `${text} — ${error.code}: ${error.message}` : text, now === "error" || error !== null);
  }

  // ---------- acting: send, stop, the tool cards' decisions ----------

  const prompt = $("prompt");
  $("composer").addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = prompt.value.trim();
    if (text === "" || sending) return;
    sending = true;
    $("send").disabled = true;
    prompt.value = "";
    try {
      await chat.send(text);
    } catch (err) {
      if (prompt.value === "") prompt.value = text; // not sent: give the text back
      status(`not sent — ${err.code ?? "error"}: ${err.message}`, true);
    } finally {
      sending = false;
      shown = null;
      flush();
    }
  });
  prompt.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      $("composer").requestSubmit();
    }
  });
  $("stop").addEventListener("click", async () => {
    $("stop").disabled = true;
    try {
      await chat.stop();
    } catch (err) {
      $("stop").disabled = false;
      status(`stop failed — ${err.code ?? "error"}: ${err.message}`, true);
    }
  });

  /** A tool card's decision (render.js `action`): approve / deny a confirmation, or the ask form's answers. */
  async function decide(decision, button, extra = {}) {
    const card = button.closest("[data-tool-call-id]");
    const toolCallId = card?.dataset.toolCallId;
    const controls = [...card.querySelectorAll("button, input")].filter((c) => !c.disabled);
    for (const c of controls) c.disabled = true;
    try {
      if (decision === "approve" || decision === "deny") {
        await chat.confirm(toolCallId, decision === "approve");
      } else {
        // AskUser's result: the chosen labels as its output, the answers as its metadata
        const answers = (extra.answers ?? []).map((a) => ({ question: a.question, selected: a.selected, ...(a.other ? { other: a.other } : {}) }));
        const output = answers.map((a) => [...a.selected, ...(a.other ? [a.other] : [])].join(", ")).join("\n");
        await chat.submitExternal({ toolCallId, output, metadata: { answers } });
      }
    } catch (err) {
      for (const c of controls) c.disabled = false;
      status(`${decision} failed — ${err.code ?? "error"}: ${err.message}`, true);
    }
  }

  // ---------- for tests and curious developers (read-only) ----------

  const plain = (value) => JSON.parse(JSON.stringify(value));
  Object.assign(window.__demo, {
    /** The messages the bubbles show, in page order (each bubble's last rendered message). */
    messages: () => plain([...document.querySelectorAll("#chat > article.bubble")].map((node) => state.views.get(node.dataset.replyId ?? node.dataset.messageId)?.msg ?? null)),
    /** The chat's snapshot, as plain JSON (the error as {code, message}). */
    chat() {
      const s = chat.getSnapshot();
      return plain({ sessionId: chat.sessionId, status: s.status, error: s.error && { code: s.error.code, message: s.error.message }, pendingActions: s.pendingActions, partial: s.partial, messages: s.messages });
    },
  });
  document.body.dataset.ready = "1";
  return controller;
}
