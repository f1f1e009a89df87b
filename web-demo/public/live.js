// Live mode of the demo page: a small AgentScope app on `agentscope-message/chat`, talking
// to a running AgentScope 2.0 service through the demo server (it forwards an allowlist of
// `/api/…` routes: the service has no CORS).
//
// - the session list (sessions.js; `SessionsClient`): New, open, rename, delete; refreshed
//   when the open chat's stream says the session changed (`CUSTOM session_updated`, its
//   auto-named title after the first reply; `team_updated`) and after each reply;
// - one `Chat` at a time, of the selected session (the previous one is closed): its
//   snapshots rendered by render.js's bubbles (at most once per animation frame); the
//   composer sends text and attached images (attach.js: pick, paste or drop; `dataBlock`),
//   Stop interrupts, a tool call waiting gets Approve / Deny, an AskUser call the page's form;
// - the tasks and permission panel and the team workers' confirmation cards (panel.js);
// - a status line with the reply's `status` and, apart from it, the stream's `connection`.
//
// The session id is in the URL (`?session=…`): a reload resumes it (stored history, then the
// stream, replayed), a second tab with the same URL joins it. Without one, the page opens the
// most recent session, or creates one when there is none; `?new` creates a new one.
import { AgentScopeTransport, Chat, SessionsClient } from "agentscope-message/chat";
import { sessionList, newestFirst } from "./sessions.js";
import { appPanel } from "./panel.js";
import { attachments } from "./attach.js";

const STATUS_TEXT = {
  ready: "ready",
  submitted: "sent; waiting for the reply to start…",
  streaming: "streaming…",
  stopping: "stopping…",
  awaiting_input: "the agent is waiting for you: answer the highlighted tool call",
  error: "error",
  closed: "closed",
};
const CONNECTION_TEXT = { connecting: "connecting…", open: "connected", reconnecting: "reconnecting…", idle: "idle (at rest: no connection held)", lost: "connection lost", closed: "closed" };

/** A `MsgError` (or anything thrown) as one line. */
const why = (e) => `${e?.code ?? "error"}: ${e?.message ?? e}`;

/**
 * Starts live mode. `config`: what the server put in `<meta name="agentscope-live">`
 * (`{baseUrl, agentId, userId, chatModelConfig}`); `ui`: the page's renderer and status
 * bar (app.js passes them). Sets `ui.state.live` to the controller (decide.js routes the
 * tool cards' decisions to its `decide`, controls.js a dropped file to its `drop`) before
 * anything renders.
 */
export async function startLive(config, ui) {
  const { state, render, status, $ } = ui;
  const controller = { chat: null, errors: [], decide, drop: (files) => attached.add(files) };
  state.live = controller;
  document.body.dataset.mode = "live";
  document.body.dataset.state = "connecting";
  $("controls").hidden = true;
  $("live-bar").hidden = false;
  $("composer").hidden = false;
  $("sessions").hidden = false;
  $("panel").hidden = false;
  $("stop").hidden = false;
  $("drop-hint").textContent = "Drop an image to attach it to your message";
  $("prompt").placeholder = "Message the agent (try: tool, confirm, task, team, audio)";
  $("description").textContent = "A live chat with an AgentScope 2.0 service. Keep this URL to come back to the session; open it in a second tab to watch the same chat. The offline service's scripted model answers: tool, parallel, think, confirm, ask, image, task, team, audio, seeimage (with an image attached), long N, slow, fail; anything else is echoed.";

  const session = config.chatModelConfig ? { chat_model_config: config.chatModelConfig } : {};
  const transport = new AgentScopeTransport({ baseUrl: new URL(config.baseUrl, location.href), userId: config.userId, agentId: config.agentId, session });
  const sessions = new SessionsClient(transport, { session });

  let chat = null;
  let unsubscribe = () => {};
  let opening = 0; // the latest openChat call (an older one that resolves late is dropped)
  let sending = false; // a send() in flight
  let frame = 0;
  let shown = null;

  const list = sessionList({
    current: () => chat?.sessionId ?? null,
    open: async (id) => {
      drawer("sessions", false);
      if (id !== chat?.sessionId) await openChat(id);
    },
    rename: async (id, name) => {
      try {
        if (id === chat?.sessionId) await chat.rename(name); // the chat's `session` reloads too
        else await sessions.rename(id, name);
      } catch (e) {
        status(`rename failed — ${why(e)}`, true);
      }
      await refresh();
    },
    remove: async (id) => {
      const open = id === chat?.sessionId;
      if (open) closeChat(); // its stream would end with a 404
      try {
        await sessions.remove(id);
      } catch (e) {
        status(`delete failed — ${why(e)}`, true);
      }
      const views = await refresh();
      if (open) await openChat(mostRecent(views) ?? (await create()));
    },
  });
  const panel = appPanel({
    snapshot: () => chat?.getSnapshot() ?? { state: null, session: null, pendingActions: [] },
    setMode: async (mode) => {
      try {
        await chat.setPermissionMode(mode);
        void refresh();
        return true;
      } catch (e) {
        const text = e?.code === "busy" ? "busy: the mode cannot change while a run holds the session" : why(e);
        panel.note(text, true);
        status(`permission mode not changed — ${text}`, true);
        return false;
      }
    },
    confirm: async (toolCallId, approved) => {
      try {
        await chat.confirm(toolCallId, approved);
        return true;
      } catch (e) {
        status(`${approved ? "approve" : "deny"} failed — ${why(e)}`, true);
        return false;
      }
    },
  });
  const attached = attachments((text) => status(text, true));

  // ---------- the sessions ----------

  /** The most recent session a user made (a team's worker sessions are not opened by themselves). */
  const mostRecent = (views) => newestFirst(views).find((v) => (v.session.origin?.type ?? "user") === "user")?.session.id ?? null;

  let listing = null;
  /** Lists the sessions again and shows them; resolves the list (the last one on a failure). */
  async function refresh() {
    const mine = (listing = sessions.list());
    try {
      const views = await mine;
      if (mine === listing) list.show(views);
      return views;
    } catch (e) {
      status(`cannot list the sessions — ${why(e)}`, true);
      return list.views;
    }
  }
  let refreshTimer = 0;
  const refreshSoon = () => {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(() => void refresh(), 50);
  };

  async function create() {
    const id = await sessions.create();
    void refresh();
    return id;
  }

  function closeChat() {
    opening += 1;
    unsubscribe();
    unsubscribe = () => {};
    chat?.close();
    chat = null;
    controller.chat = null;
    // the bubbles are the open chat's: start over
    cancelAnimationFrame(frame);
    frame = 0;
    shown = null;
    state.views.clear();
    state.answered.clear();
    state.picks.clear();
    $("chat").replaceChildren();
  }

  /** Opens the session's chat (closing the one open), puts its id in the URL. */
  async function openChat(id) {
    closeChat();
    const mine = opening;
    list.paint();
    document.body.dataset.state = "connecting";
    $("live-session").textContent = id;
    $("live-title").textContent = list.views.find((v) => v.session.id === id)?.session.config.name ?? "";
    status("loading the session…");
    let next;
    try {
      next = await Chat.open(transport, {
        sessionId: id,
        // errors nobody awaits (a dropped stream that reconnects, a refused event): the
        // snapshot's `error` shows what matters; these are kept for a curious developer
        onError: (e) => {
          controller.errors.push(why(e));
          console.warn("live chat:", e);
        },
        // the session list follows what the stream says changed (the auto-named title, a team)
        onEvent: (event) => {
          if (event.type === "CUSTOM" && (event.name === "session_updated" || event.name === "team_updated")) refreshSoon();
        },
        onFinish: refreshSoon,
      });
    } catch (e) {
      if (mine !== opening) return;
      document.body.dataset.state = "error";
      status(`cannot open session ${id}: ${why(e)}`, true);
      return;
    }
    if (mine !== opening) return void next.close();
    chat = next;
    controller.chat = chat;
    const url = new URL(location.href);
    url.searchParams.delete("new");
    url.searchParams.set("session", id);
    history.replaceState(null, "", url);
    list.paint();
    unsubscribe = chat.subscribe(() => {
      if (!frame) frame = requestAnimationFrame(flush);
    });
    flush();
  }

  // ---------- rendering: the chat's snapshot, once per frame ----------

  function flush() {
    frame = 0;
    if (chat === null) return;
    const snapshot = chat.getSnapshot();
    if (snapshot === shown) return;
    shown = snapshot;
    render(snapshot);
    markPartial(snapshot.partial);
    paint(snapshot);
    panel.paint(snapshot);
  }

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
    const { status: now, connection, error } = snapshot;
    document.body.dataset.state = now;
    document.body.dataset.connection = connection;
    state.connection = `stream ${CONNECTION_TEXT[connection] ?? connection}`;
    $("stop").disabled = !(now === "submitted" || now === "streaming" || now === "stopping");
    $("send").disabled = !(now === "ready" || now === "error") || sending;
    const name = snapshot.session?.session.config.name;
    if (name) $("live-title").textContent = name;
    const text = STATUS_TEXT[now] ?? now;
    status(error ? `${text} — ${error.code}: ${error.message}` : text, now === "error" || error !== null);
  }

  // ---------- acting: send, stop, the tool cards' decisions ----------

  const prompt = $("prompt");
  $("composer").addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = prompt.value.trim();
    if ((text === "" && attached.count === 0) || sending || chat === null) return;
    const target = chat;
    sending = true;
    $("send").disabled = true;
    prompt.value = "";
    const blocks = attached.take();
    try {
      // text alone, or the turn's blocks: its text, then the images (`dataBlock`s)
      await target.send(blocks.length === 0 ? text : [...(text === "" ? [] : [{ type: "text", text }]), ...blocks]);
    } catch (err) {
      // not sent: give the text and the images back
      if (prompt.value === "") prompt.value = text;
      attached.restore(blocks);
      status(`not sent — ${why(err)}`, true);
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
      await chat?.stop();
    } catch (err) {
      $("stop").disabled = false;
      status(`stop failed — ${why(err)}`, true);
    }
  });
  $("new-session").addEventListener("click", async () => {
    drawer("sessions", false);
    try {
      await openChat(await create());
    } catch (e) {
      status(`cannot create a session — ${why(e)}`, true);
    }
  });

  /** The narrow screen's drawers (the session list, the panel): open or closed. */
  function drawer(name, open) {
    document.body.classList.toggle(`${name}-open`, open);
    $(`toggle-${name}`).setAttribute("aria-expanded", String(open));
  }
  for (const name of ["sessions", "panel"]) {
    $(`toggle-${name}`).addEventListener("click", () => {
      const open = !document.body.classList.contains(`${name}-open`);
      drawer(name === "sessions" ? "panel" : "sessions", false);
      drawer(name, open);
    });
  }

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
      status(`${decision} failed — ${why(err)}`, true);
    }
  }

  // ---------- for tests and curious developers (read-only) ----------

  const plain = (value) => JSON.parse(JSON.stringify(value));
  Object.assign(window.__demo, {
    /** The messages the bubbles show, in page order (each bubble's last rendered message). */
    messages: () => plain([...document.querySelectorAll("#chat > article.bubble")].map((node) => state.views.get(node.dataset.replyId ?? node.dataset.messageId)?.msg ?? null)),
    /** The open chat's snapshot, as plain JSON (the error as {code, message}). */
    chat() {
      if (chat === null) return null;
      const s = chat.getSnapshot();
      return plain({ sessionId: chat.sessionId, status: s.status, connection: s.connection, error: s.error && { code: s.error.code, message: s.error.message }, pendingActions: s.pendingActions, partial: s.partial, messages: s.messages, state: s.state, session: s.session });
    },
    /** The session list as shown (newest first). */
    sessions: () => plain(list.views),
  });

  // ---------- the first session: the URL's, else the most recent, else a new one ----------

  const url = new URL(location.href);
  let first = url.searchParams.get("session");
  try {
    const views = await refresh();
    if (url.searchParams.has("new") || (!first && mostRecent(views) === null)) first = await create();
    else if (!first) first = mostRecent(views);
  } catch (e) {
    document.body.dataset.state = "error";
    status(`cannot create a session — ${why(e)}`, true);
    return controller;
  }
  await openChat(first);
  addEventListener("pagehide", () => chat?.close());
  document.body.dataset.ready = "1";
  return controller;
}
