// Rendering of the demo page: the session's snapshots as chat bubbles, each block as its
// node (text, thinking, hints, media, tool cards with their results, Approve / Deny, the
// ask-the-user form), re-rendering only the blocks whose snapshot object changed.
import { blockKey, parseToolInput } from "agentscope-message";
import { $, el } from "./dom.js";
import { markdown, streams, StreamingMarkdown } from "./markdown.js";
import { state } from "./state.js";
import { decide } from "./decide.js";

const MEDIA_TYPE = /^(image|audio)\/[\w.+-]+$/;
// a base64 `data:` URL of an image or audio type, with optional parameters (`;name=x.png`)
const DATA_URL = /^data:((?:image|audio)\/[\w.+-]+)((?:;[\w.+-]+=[\w.+%-]*)*);base64,([A-Za-z0-9+/=\s]*)$/i;

/** An <img>/<audio> for image or audio data from base64 or a base64 `data:` URL (the CSP
 * allows `img-src data:`: nothing leaves the page); an http(s) URL is a button that loads
 * it only when clicked (no request to another host on its own). */
function media(source, name) {
  let type = source.media_type ?? "";
  // a data: URL says its own type (a source may carry none, a generic or another one)
  const data = source.type !== "base64" && typeof source.url === "string" ? DATA_URL.exec(source.url.trim()) : null;
  if (data) type = data[1].toLowerCase();
  if (!MEDIA_TYPE.test(type)) return el("div", "note", `[${type || "data"} not shown]`);
  let src;
  if (source.type === "base64") {
    if (!/^[A-Za-z0-9+/=\s]*$/.test(source.data)) return el("div", "note", "[invalid base64 data]");
    src = `data:${type};base64,${source.data.replace(/\s+/g, "")}`;
  } else if (data) {
    // rebuilt from its parts: only the type, the parameters and the base64 text go through
    src = `data:${data[1].toLowerCase()}${data[2]};base64,${data[3].replace(/\s+/g, "")}`;
  } else {
    let url;
    try {
      url = new URL(source.url);
    } catch {
      return el("div", "note", "[invalid URL]");
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      return el("div", "note", `[${url.protocol} URL not shown]`);
    } else {
      const load = el("button", "load-media", `Load ${type.split("/")[0]} from ${url.host}`);
      load.type = "button";
      load.addEventListener("click", () => load.replaceWith(mediaNode(type, url.href, name)));
      return load;
    }
  }
  return mediaNode(type, src, name);
}

function mediaNode(type, src, name) {
  const node = document.createElement(type.startsWith("image/") ? "img" : "audio");
  node.src = src;
  if (node.tagName === "AUDIO") node.controls = true;
  else node.alt = name ?? "image from the tool";
  node.className = "media";
  return node;
}

// a finished tool result of at most this many lines is shown open; a longer one collapsed
const RESULT_OPEN_LINES = 16;

/** The page's own decision buttons: the handler is bound here, to this element (model
 * text cannot make a button the page would act on). `extra()`: more fields to POST. */
function action(button, decision, extra) {
  button.type = "button";
  button.classList.add("decision"); // model text has no classes (the allow-list)
  button.dataset.action = decision; // for tests and styles only: never read by a handler
  button.addEventListener("click", (e) => {
    e.preventDefault();
    decide(decision, button, extra?.());
  });
  return button;
}

function badge(state) {
  return el("span", `badge badge-${state}`, state);
}

/** A tool call's arguments: as streamed while they stream, then pretty-printed (the
 * package's `parseToolInput` reads them; text it cannot read is shown as is). */
function toolArgs(block) {
  if (block.finished_at === null) return block.input;
  const parsed = parseToolInput(block);
  return parsed === null ? block.input : JSON.stringify(parsed, null, 2);
}

/** A tool's text output: pretty-printed when it is a JSON object or array, else as is. */
function toolOutput(text) {
  const trimmed = text.trim();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      const parsed = JSON.parse(trimmed);
      if (parsed !== null && typeof parsed === "object") return { text: JSON.stringify(parsed, null, 2), json: true };
    } catch {
      // not (yet) JSON: shown as is
    }
  }
  return { text, json: false };
}

// ---------- ask-the-user tools: a form of the page's own ----------
//
// AgentScope's built-in `AskUser` (h_external_execution) is an external tool: the agent
// parks on REQUIRE_EXTERNAL_EXECUTION until the client sends the tool's result. Its input
// is `{questions: [{question, header, options: [{label, description}], multiSelect}]}`;
// the other common spellings (`ask_user`, `AskUserQuestion`: `{question, options: [...]}`)
// are read the same way. The form is built here with text nodes only and its handlers
// are bound here: model text can neither make one nor reach its handlers.

const ASK_TOOLS = new Set(["AskUser", "AskUserQuestion", "ask_user", "ask_user_question"]);
const ASK_LIMIT = 50; // questions, and options per question (model-controlled sizes)

/** An ask-the-user call's questions, or null when its input is not one. */
function askQuestions(block) {
  if (!ASK_TOOLS.has(block.name)) return null;
  const input = parseToolInput(block);
  if (input === null || typeof input !== "object") return null;
  const list = Array.isArray(input.questions) ? input.questions : typeof input.question === "string" ? [input] : null;
  if (list === null || list.length === 0) return null;
  const questions = [];
  for (const q of list.slice(0, ASK_LIMIT)) {
    if (q === null || typeof q !== "object" || typeof q.question !== "string") return null;
    const options = (Array.isArray(q.options) ? q.options : [])
      .map((o) => (typeof o === "string" ? { label: o, description: "" } : o && typeof o.label === "string" ? { label: o.label, description: typeof o.description === "string" ? o.description : "" } : null))
      .filter((o) => o !== null)
      .slice(0, ASK_LIMIT);
    questions.push({ question: q.question, header: typeof q.header === "string" ? q.header : "", options, multi: q.multiSelect === true || q.multi_select === true });
  }
  return questions;
}

/** The questions, read-only (an answered call, or a replayed log: nothing to send). */
function askSummary(questions, note) {
  const node = el("div", "ask ask-summary");
  for (const q of questions) {
    const item = el("div", "ask-question");
    const title = el("p", "ask-title");
    if (q.header) title.append(el("span", "ask-header", q.header));
    title.append(el("span", "ask-text", q.question));
    item.append(title);
    if (q.options.length > 0) {
      const list = el("ul", "ask-choices");
      for (const o of q.options) {
        const li = el("li", "", o.label);
        if (o.description) li.append(el("span", "ask-desc", ` — ${o.description}`));
        list.append(li);
      }
      item.append(list);
    }
    node.append(item);
  }
  if (note) node.append(el("p", "note", note));
  return node;
}

/** The form: option buttons (one, or several for `multiSelect`) and a text field per
 * question; "Send answer" POSTs `[{question, selected, other}]` (the shape of AskUser's
 * result metadata) to /api/decide with decision "submit". The demo server continues the
 * recording only after the answer it recorded (another one is refused with a message). */
function askForm(questions, callId) {
  const form = el("form", "ask ask-form");
  form.noValidate = true;
  // the answers picked so far live on: the card is drawn again when its message changes
  // (the stored reply put in once the run parks), and a pick must survive that
  let answers = state.picks.get(callId);
  if (answers?.length !== questions.length) {
    answers = questions.map(() => ({ selected: new Set(), other: "" }));
    state.picks.set(callId, answers);
  }
  const send = el("button", "approve", "Send answer");
  action(send, "submit", () => ({ answers: questions.map((q, i) => ({ question: q.question, selected: q.options.filter((o) => answers[i].selected.has(o.label)).map((o) => o.label), other: answers[i].other.trim() || null })) }));
  send.type = "submit";
  const ready = () => answers.every((a) => a.selected.size > 0 || a.other.trim() !== "");
  const refresh = () => {
    send.disabled = !ready();
  };
  questions.forEach((q, i) => {
    const set = el("fieldset", "ask-question");
    const legend = el("legend", "ask-title");
    if (q.header) legend.append(el("span", "ask-header", q.header));
    legend.append(el("span", "ask-text", q.question));
    set.append(legend);
    const buttons = [];
    if (q.options.length > 0) {
      const group = el("div", "ask-options");
      for (const o of q.options) {
        const b = el("button", "ask-option");
        b.type = "button";
        b.setAttribute("aria-pressed", String(answers[i].selected.has(o.label)));
        b.append(el("span", "ask-label", o.label));
        if (o.description) b.append(el("span", "ask-desc", o.description));
        b.addEventListener("click", () => {
          const chosen = answers[i].selected;
          const on = !chosen.has(o.label);
          if (!q.multi) {
            chosen.clear();
            for (const other of buttons) other.setAttribute("aria-pressed", "false");
            if (on) {
              field.value = "";
              answers[i].other = "";
            }
          }
          if (on) chosen.add(o.label);
          else chosen.delete(o.label);
          b.setAttribute("aria-pressed", String(on));
          refresh();
        });
        buttons.push(b);
        group.append(b);
      }
      set.append(group);
    }
    const label = el("label", "ask-other");
    label.append(el("span", "", q.options.length > 0 ? "Other:" : "Answer:"));
    const field = el("input", "ask-field");
    field.type = "text";
    field.maxLength = 2000;
    field.autocomplete = "off";
    field.placeholder = q.options.length > 0 ? "or type another answer" : "type your answer";
    field.value = answers[i].other;
    field.addEventListener("input", () => {
      answers[i].other = field.value;
      if (!q.multi && field.value.trim() !== "") {
        answers[i].selected.clear();
        for (const b of buttons) b.setAttribute("aria-pressed", "false");
      }
      refresh();
    });
    label.append(field);
    set.append(label);
    form.append(set);
  });
  const actions = el("div", "actions");
  actions.append(send, el("span", "note", state.live
    ? "Sends your answer to the agent as the tool's result (submitExternal); the reply continues."
    : "Sends your answer to the demo server (POST /api/decide), which continues the recorded stream; only the answer the recording gave has a continuation."));
  form.append(actions);
  form.addEventListener("submit", (e) => {
    e.preventDefault(); // (the CSP's form-action 'none' would block a real submission anyway)
    if (!send.disabled) send.click();
  });
  refresh();
  return form;
}

/** A playback from the demo server that can still take an answer. */
const canAnswer = () => state.live !== null || (state.scenario !== null && ["streaming", "paused"].includes(document.body.dataset.state));

/** A block's node. `live`: a text block still streaming, rendered by a StreamingMarkdown
 * that later frames update in place (any other is rendered whole, once). */
function renderBlock(block, old, live = false) {
  switch (block.type) {
    case "text": {
      // (the cursor only on a block still streaming: a user turn's text has no end time)
      const node = el("div", `block text${live ? " streaming" : ""}`);
      if (live) {
        const stream = new StreamingMarkdown(node);
        streams.set(node, stream);
        stream.update(block.text);
      } else {
        node.innerHTML = markdown(block.text);
      }
      return node;
    }
    case "thinking": {
      const node = el("details", "block thinking");
      node.open = old ? old.open : !block.finished_at;
      node.append(el("summary", "", block.finished_at ? "Thought" : "Thinking…"), el("div", "thinking-text", block.thinking));
      return node;
    }
    case "hint": {
      const text = typeof block.hint === "string" ? block.hint : block.hint.map((b) => (b.type === "text" ? b.text : "")).join("\n");
      const node = el("details", "block hint");
      node.open = old ? old.open : false;
      node.append(el("summary", "", "system hint"), el("div", "hint-text", text));
      return node;
    }
    case "data": {
      const node = el("div", "block data");
      node.append(media(block.source, block.name));
      return node;
    }
    case "tool_call": {
      // one card: the call, then its result(s) (`place` puts them in `.tool-results`)
      const node = el("div", "block tool-call");
      node.dataset.state = block.state;
      node.dataset.toolCallId = block.id;
      const head = el("div", "tool-head");
      head.append(el("span", "tool-icon", "⚙"), el("span", "tool-name", block.name), badge(block.state));
      node.append(head);
      const questions = block.finished_at !== null || block.state === "submitted" ? askQuestions(block) : null;
      if (questions) {
        node.classList.add("ask-call");
        if (block.state === "submitted" && canAnswer()) node.append(askForm(questions, block.id));
        else node.append(askSummary(questions, block.state === "submitted" ? "Waiting for the user's answer (display only: a replayed log has no server to send one to)." : ""));
        const args = el("details", "tool-args-details");
        args.append(el("summary", "", "arguments"), el("pre", "tool-args", toolArgs(block)));
        node.append(args);
      } else {
        node.append(el("pre", "tool-args", toolArgs(block)));
      }
      if (block.state === "asking") {
        const actions = el("div", "actions");
        const approve = action(el("button", "approve", "Approve"), "approve");
        const deny = action(el("button", "deny", "Deny"), "deny");
        actions.append(el("span", "", "Run this tool?"), approve, deny);
        node.append(actions);
      } else if (block.state === "submitted" && !questions) {
        const actions = el("div", "actions awaiting");
        const submit = action(el("button", "approve", "Send the recorded answer"), "submit");
        actions.append(el("span", "", "Awaiting the client: this tool runs outside the agent."), submit);
        node.append(actions);
      }
      node.append(el("div", "tool-results"));
      return node;
    }
    case "tool_result": {
      // collapsible: open while it streams and when short, closed when long (the user's
      // own toggle is kept across re-renders)
      const node = el("details", "block tool-result");
      node.dataset.state = block.state;
      node.dataset.toolCallId = block.id;
      const summary = el("summary", "tool-head");
      summary.append(el("span", "tool-icon disclosure"), el("span", "tool-name", `${block.name} result`), badge(block.state));
      node.append(summary);
      const items = typeof block.output === "string" ? [{ type: "text", text: block.output }] : block.output;
      let lines = 0;
      for (const item of items) {
        if (item.type === "text") {
          const out = toolOutput(item.text);
          lines += out.text.split("\n").length;
          if (out.text === "" && block.finished_at !== null && items.length === 1) node.append(el("div", "note tool-output-none", "no output"));
          else node.append(el("pre", `tool-output${out.json ? " json" : ""}`, out.text));
        } else {
          lines += 4;
          node.append(media(item.source, item.name));
        }
      }
      if (items.length === 0) node.append(el("div", "note tool-output-none", "no output yet"));
      node.open = old?.dataset.toggled ? old.open : block.finished_at === null || lines <= RESULT_OPEN_LINES;
      if (old?.dataset.toggled) node.dataset.toggled = "1";
      summary.addEventListener("click", () => {
        node.dataset.toggled = "1";
      });
      return node;
    }
    default:
      return el("div", "note", `[${block.type}]`);
  }
}

// ---------- bubbles: rendered from the session's snapshots ----------

function userBubble(user) {
  const node = el("article", "bubble user");
  node.dataset.role = "user";
  const head = el("header");
  head.append(el("span", "avatar", (user.name || "U").slice(0, 1).toUpperCase()), el("span", "name", user.name));
  const body = el("div", "blocks");
  const text = el("div", "block text");
  text.innerHTML = markdown(user.text);
  body.append(text);
  node.append(head, body);
  $("chat").append(node);
}

/** A bubble for a message seen for the first time (after the user turn that asked for it). */
function openBubble(msg) {
  const pendingUser = state.users[state.views.size];
  if (pendingUser) userBubble(pendingUser);
  const user = msg.role === "user"; // (live mode: the chat's messages hold the user turns)
  const node = el("article", `bubble ${user ? "user" : "assistant"}`);
  if (user) {
    node.dataset.role = "user";
    node.dataset.messageId = msg.id;
  } else node.dataset.replyId = msg.id;
  const head = el("header");
  head.append(el("span", "avatar", (msg.name || "A").slice(0, 1).toUpperCase()), el("span", "name", msg.name));
  const blocks = el("div", "blocks");
  const meta = el("footer", "meta");
  node.append(head, blocks, meta);
  $("chat").append(node);
  // rendered: blockKey -> { block, node }; keys: the key at each index of the content
  const view = { msg: null, node, blocks, meta, rendered: new Map(), keys: [] };
  state.views.set(msg.id, view);
  return view;
}

/** Brings a bubble up to date: only blocks whose snapshot object changed are re-rendered;
 * a streaming text block is updated in place, and rendered whole once it ends. */
function renderMessage(view, msg) {
  const ended = msg.finished_at != null || msg.finished_reason != null;
  // a tool result goes in the card of the last call before it with its id (providers may
  // reuse ids); one without such a call gets a card of its own
  const calls = new Map(); // tool call id -> the call's key
  msg.content.forEach((block, i) => {
    const key = blockKey(block, i);
    if (block.type === "tool_call") calls.set(block.id, key);
    const seen = view.rendered.get(key);
    const stream = seen && streams.get(seen.node);
    // unchanged block: same object, nothing to do (unless it streamed and has now ended)
    if (seen?.block === block && !(stream && ended)) return;
    const live = block.type === "text" && !block.finished_at && !ended;
    if (live && stream?.update(block.text)) {
      seen.block = block;
      return;
    }
    const host = block.type === "tool_result" ? calls.get(block.id) ?? null : null;
    place(view, key, i, block, renderBlock(block, seen?.node, live), host);
  });
  const parts = [];
  // (an interrupted reply is stored with zero usage: no figure rather than a wrong one)
  if (msg.usage && (msg.usage.input_tokens > 0 || msg.usage.output_tokens > 0)) {
    parts.push(`${msg.usage.input_tokens} in · ${msg.usage.output_tokens} out tokens`);
  }
  if (msg.finished_reason) parts.push(msg.finished_reason);
  const text = parts.join(" · ");
  if (view.meta.dataset.text !== text || (msg.error && !view.meta.querySelector(".error"))) {
    view.meta.dataset.text = text;
    view.meta.replaceChildren(el("span", "", text));
    if (msg.error) view.meta.append(el("span", "error", `${msg.error.type}: ${msg.error.message}`));
  }
  view.node.dataset.finished = msg.finished_reason ?? "";
  view.msg = msg;
}

/** Puts a block's new node where its old one was, else at the end of the bubble (blocks
 * are only appended), or, for a tool result, at the end of its call's card (`host`). */
function place(view, key, i, block, node, host = null) {
  node.dataset.blockType = block.type;
  node.dataset.index = String(i);
  node.dataset.key = key;
  let old = view.rendered.get(key)?.node;
  const was = view.keys[i];
  if (!old && was !== undefined && was !== key) {
    // another block at this index (not expected: blocks are only appended)
    old = view.rendered.get(was)?.node;
    view.rendered.delete(was);
  }
  view.keys[i] = key;
  if (old && block.type === "tool_call") {
    // a re-rendered call keeps its results
    const results = old.querySelector(":scope > .tool-results");
    if (results) node.querySelector(":scope > .tool-results")?.replaceWith(results);
  }
  if (old) old.replaceWith(node);
  else if (host) {
    const card = view.rendered.get(host)?.node;
    (card?.querySelector(":scope > .tool-results") ?? view.blocks).append(node);
  } else view.blocks.append(node);
  view.rendered.set(key, { block, node });
}

/** The playback ended: a text block still streaming (it never got its end event) is
 * rendered whole, as if it had. */
export function settle() {
  for (const view of state.views.values()) {
    view.msg?.content.forEach((block, i) => {
      const key = blockKey(block, i);
      const seen = view.rendered.get(key);
      if (seen && streams.has(seen.node)) place(view, key, i, block, renderBlock(block, seen.node));
    });
  }
}

export function render(snapshot) {
  for (const msg of snapshot.messages) {
    const view = state.views.get(msg.id) ?? openBubble(msg);
    if (view.msg !== msg) renderMessage(view, msg); // unchanged message: same object
  }
  if (state.live) arrange(snapshot.messages);
}

/** Live mode: the bubbles are exactly the chat's messages, in its order (a user turn another
 * tab sent shows up before its reply once the history is reloaded; a turn taken back goes). */
function arrange(messages) {
  const ids = new Set(messages.map((m) => m.id));
  for (const [id, view] of state.views) {
    if (!ids.has(id)) {
      view.node.remove();
      state.views.delete(id);
    }
  }
  let before = null;
  for (const msg of messages) {
    const node = state.views.get(msg.id).node;
    if (node.previousElementSibling !== before) (before ? before.after(node) : $("chat").prepend(node));
    before = node;
  }
}
