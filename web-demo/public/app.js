// The demo page: AgentScope events arrive over SSE (or from a dropped log file) and are
// folded into messages by `Msg.appendEvent` from the wasm package, the same Rust code a
// backend runs. Rendering happens at most once per animation frame and only for the
// blocks whose snapshot object changed (snapshots share unchanged blocks).
import { AssistantMsg, EventType, MsgError } from "agentscope-message";
import { marked } from "marked";
import DOMPurify from "dompurify";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

const state = {
  scenarios: [],
  scenario: null,
  session: null,
  source: null,
  replies: new Map(), // reply_id -> reply view
  users: [],
  dirty: new Set(),
  frame: 0,
  events: 0,
  reconnects: 0,
};

// ---------- safe rendering ----------

/** Markdown → sanitised HTML (model text never reaches the DOM unsanitised). */
function markdown(text) {
  return DOMPurify.sanitize(marked.parse(text, { async: false, gfm: true, breaks: true }));
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const MEDIA_TYPE = /^(image|audio)\/[\w.+-]+$/;

/** An <img>/<audio> for image or audio data from base64 or an http(s) URL; else a note. */
function media(source, name) {
  const type = source.media_type ?? "";
  if (!MEDIA_TYPE.test(type)) return el("div", "note", `[${type || "data"} not shown]`);
  let src;
  if (source.type === "base64") {
    if (!/^[A-Za-z0-9+/=\s]*$/.test(source.data)) return el("div", "note", "[invalid base64 data]");
    src = `data:${type};base64,${source.data}`;
  } else {
    let url;
    try {
      url = new URL(source.url);
    } catch {
      return el("div", "note", "[invalid URL]");
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") return el("div", "note", `[${url.protocol} URL not shown]`);
    src = url.href;
  }
  const node = document.createElement(type.startsWith("image/") ? "img" : "audio");
  node.src = src;
  if (node.tagName === "AUDIO") node.controls = true;
  else node.alt = name ?? "image from the tool";
  node.className = "media";
  return node;
}

function badge(state) {
  return el("span", `badge badge-${state}`, state);
}

function prettyArgs(input, finished) {
  if (!finished) return input;
  try {
    return JSON.stringify(JSON.parse(input), null, 2);
  } catch {
    return input;
  }
}

function renderBlock(block, old) {
  switch (block.type) {
    case "text": {
      const node = el("div", `block text${block.finished_at ? "" : " streaming"}`);
      node.innerHTML = markdown(block.text);
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
      const node = el("div", "block tool-call");
      node.dataset.state = block.state;
      node.dataset.toolCallId = block.id;
      const head = el("div", "tool-head");
      head.append(el("span", "tool-icon", "⚙"), el("span", "tool-name", block.name), badge(block.state));
      node.append(head, el("pre", "tool-args", prettyArgs(block.input, block.finished_at !== null)));
      if (block.state === "asking") {
        const actions = el("div", "actions");
        const approve = el("button", "approve", "Approve");
        approve.dataset.action = "approve";
        const deny = el("button", "deny", "Deny");
        deny.dataset.action = "deny";
        actions.append(el("span", "", "Run this tool?"), approve, deny);
        node.append(actions);
      } else if (block.state === "submitted") {
        const actions = el("div", "actions awaiting");
        const submit = el("button", "approve", "Send the recorded answer");
        submit.dataset.action = "submit";
        actions.append(el("span", "", "Awaiting the client: this tool runs outside the agent."), submit);
        node.append(actions);
      }
      return node;
    }
    case "tool_result": {
      const node = el("div", "block tool-result");
      node.dataset.state = block.state;
      const head = el("div", "tool-head");
      head.append(el("span", "tool-icon", "↳"), el("span", "tool-name", `${block.name} result`), badge(block.state));
      node.append(head);
      const items = typeof block.output === "string" ? [{ type: "text", text: block.output }] : block.output;
      for (const item of items) {
        node.append(item.type === "text" ? el("pre", "tool-output", item.text) : media(item.source, item.name));
      }
      return node;
    }
    default:
      return el("div", "note", `[${block.type}]`);
  }
}

// ---------- bubbles ----------

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

function openReply(start) {
  const pendingUser = state.users[state.replies.size];
  if (pendingUser) userBubble(pendingUser);
  const node = el("article", "bubble assistant");
  node.dataset.replyId = start.reply_id;
  const head = el("header");
  head.append(el("span", "avatar", (start.name || "A").slice(0, 1).toUpperCase()), el("span", "name", start.name));
  const blocks = el("div", "blocks");
  const meta = el("footer", "meta");
  node.append(head, blocks, meta);
  $("chat").append(node);
  const reply = {
    msg: new AssistantMsg({ name: start.name, content: [], id: start.reply_id }),
    node,
    blocks,
    meta,
    rendered: [], // [{ block, node }]
  };
  state.replies.set(start.reply_id, reply);
  return reply;
}

function render(reply) {
  const snapshot = reply.msg.toJSON();
  snapshot.content.forEach((block, i) => {
    const seen = reply.rendered[i];
    if (seen?.block === block) return; // unchanged block: same object, nothing to do
    const node = renderBlock(block, seen?.node);
    node.dataset.blockType = block.type;
    node.dataset.index = String(i);
    if (seen) seen.node.replaceWith(node);
    else reply.blocks.append(node);
    reply.rendered[i] = { block, node };
  });
  const parts = [];
  if (snapshot.usage) parts.push(`${snapshot.usage.input_tokens} in · ${snapshot.usage.output_tokens} out tokens`);
  if (snapshot.finished_reason) parts.push(snapshot.finished_reason);
  const text = parts.join(" · ");
  if (reply.meta.dataset.text !== text || (snapshot.error && !reply.meta.querySelector(".error"))) {
    reply.meta.dataset.text = text;
    reply.meta.replaceChildren(el("span", "", text));
    if (snapshot.error) reply.meta.append(el("span", "error", `${snapshot.error.type}: ${snapshot.error.message}`));
  }
  reply.node.dataset.finished = snapshot.finished_reason ?? "";
}

function flush() {
  state.frame = 0;
  for (const reply of state.dirty) render(reply);
  state.dirty.clear();
  document.body.dataset.events = String(state.events);
}

function schedule() {
  if (!state.frame) state.frame = requestAnimationFrame(flush);
}

function status(text, error = false) {
  $("status").textContent = text;
  $("status").classList.toggle("error", error);
}

/** One event, as the JSON text received (an SSE frame's data or a log line). */
function onEvent(text) {
  let event;
  try {
    event = JSON.parse(text);
  } catch {
    status(`skipped a frame that is not JSON: ${text.slice(0, 60)}`, true);
    return;
  }
  state.events += 1;
  if (event.type === EventType.REPLY_START && !state.replies.has(event.reply_id)) openReply(event);
  const reply = state.replies.get(event.reply_id);
  if (!reply) return;
  try {
    reply.msg.appendEvent(text);
  } catch (e) {
    status(e instanceof MsgError ? `event ${state.events} rejected (${e.code}): ${e.message}` : String(e), true);
  }
  state.dirty.add(reply);
  schedule();
}

function reset() {
  state.source?.close();
  state.source = null;
  for (const reply of state.replies.values()) reply.msg.free();
  state.replies.clear();
  state.dirty.clear();
  state.events = 0;
  state.reconnects = 0;
  $("chat").replaceChildren();
  document.body.dataset.state = "idle";
}

function finish(text) {
  flush();
  document.body.dataset.state = "done";
  status(text);
}

// ---------- sources: the SSE endpoint, or a dropped log file ----------

function play(id, speed) {
  reset();
  const scenario = state.scenarios.find((s) => s.id === id);
  if (!scenario) return status(`unknown scenario ${id}`, true);
  state.scenario = scenario;
  state.users = scenario.users.filter(Boolean);
  state.session = crypto.randomUUID();
  $("description").textContent = scenario.description;
  document.body.dataset.state = "streaming";
  status("streaming…");
  const query = new URLSearchParams({ session: state.session, speed: String(speed) });
  if (params.get("dropAfter")) query.set("dropAfter", params.get("dropAfter"));
  const source = new EventSource(`/api/stream/${encodeURIComponent(id)}?${query}`);
  state.source = source;
  source.onmessage = (e) => onEvent(e.data);
  source.onopen = () => {
    if (document.body.dataset.state !== "paused") status("streaming…");
  };
  source.addEventListener("paused", () => {
    flush();
    document.body.dataset.state = "paused";
    status("The agent is waiting for you: answer the highlighted tool call.");
  });
  source.addEventListener("end", () => {
    source.close();
    finish(`done: ${state.events} events${state.reconnects ? `, ${state.reconnects} reconnect(s)` : ""}`);
  });
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED) return;
    state.reconnects += 1;
    document.body.dataset.reconnects = String(state.reconnects);
    status("connection lost; reconnecting where it stopped (Last-Event-ID)…");
  };
}

async function decide(decision, button) {
  for (const b of document.querySelectorAll("button[data-action]")) b.disabled = true;
  const res = await fetch("/api/decide", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ session: state.session, scenario: state.scenario?.id, decision }),
  });
  if (res.ok) {
    document.body.dataset.state = "streaming";
    status(`${decision === "approve" ? "approved" : decision === "deny" ? "denied" : "submitted"}; the agent continues…`);
  } else {
    const { error } = await res.json().catch(() => ({ error: res.statusText }));
    status(error, true);
    for (const b of document.querySelectorAll("button[data-action]")) b.disabled = false;
    button?.focus();
  }
}

/** Splits a log into event texts: JSON Lines, a JSON array, or SSE `data:` frames. */
function splitLog(text) {
  const body = text.replace(/^\uFEFF/, "").trim();
  if (body.startsWith("[")) return JSON.parse(body).map((e) => JSON.stringify(e));
  if (body.startsWith("{")) return body.split(/\r?\n/).filter((l) => l.trim() !== "");
  return body
    .split(/\r?\n\r?\n/)
    .map((frame) => frame.split(/\r?\n/).filter((l) => l.startsWith("data:")).map((l) => l.slice(5).replace(/^ /, "")).join("\n"))
    .filter((d) => d.trim() !== "");
}

async function replayFile(file) {
  reset();
  state.scenario = null;
  state.users = [];
  $("description").textContent = `Replaying ${file.name}`;
  let events;
  try {
    events = splitLog(await file.text());
  } catch (e) {
    return status(`cannot read ${file.name}: ${e.message}`, true);
  }
  document.body.dataset.state = "streaming";
  // paced in slices so the page shows the message being rebuilt
  for (let i = 0; i < events.length; i += 8) {
    for (const text of events.slice(i, i + 8)) onEvent(text);
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  finish(`replayed ${file.name}: ${events.length} events`);
}

// ---------- wiring ----------

$("controls").addEventListener("submit", (e) => {
  e.preventDefault();
  play($("scenario").value, Number($("speed").value));
});
$("scenario").addEventListener("change", () => {
  const s = state.scenarios.find((x) => x.id === $("scenario").value);
  $("description").textContent = s?.description ?? "";
});
$("chat").addEventListener("click", (e) => {
  const button = e.target.closest("button[data-action]");
  if (button) decide(button.dataset.action, button);
});
$("file").addEventListener("change", () => {
  const file = $("file").files?.[0];
  if (file) replayFile(file);
});
document.addEventListener("dragover", (e) => {
  e.preventDefault();
  document.body.classList.add("dragging");
});
document.addEventListener("dragleave", () => document.body.classList.remove("dragging"));
document.addEventListener("drop", (e) => {
  e.preventDefault();
  document.body.classList.remove("dragging");
  const file = e.dataTransfer?.files?.[0];
  if (file) replayFile(file);
});

// for tests and curious developers: the visible text of a markdown string
window.__demo = {
  markdownToText(md) {
    const node = document.createElement("template"); // inert: loads nothing
    node.innerHTML = markdown(md);
    return node.content.textContent;
  },
  state,
};

state.scenarios = await (await fetch("/api/scenarios")).json();
const labels = {
  c_react_3_tools_2_iters: "ReAct: 3 tools, 2 iterations",
  f_tool_image: "Tool returning an image",
  g1_confirm_approve: "Human in the loop: approve",
  g2_confirm_deny: "Human in the loop: deny",
  h_external_execution: "External execution (AskUser)",
};
for (const s of [...state.scenarios].sort((a, b) => (labels[b.id] ? 1 : 0) - (labels[a.id] ? 1 : 0))) {
  const option = el("option", "", labels[s.id] ?? s.id.replace(/_/g, " "));
  option.value = s.id;
  $("scenario").append(option);
}
$("scenario").value = params.get("scenario") ?? "c_react_3_tools_2_iters";
if (params.get("speed")) $("speed").value = params.get("speed");
$("description").textContent = state.scenarios.find((s) => s.id === $("scenario").value)?.description ?? "";
document.body.dataset.ready = "1";
if (params.get("autoplay") === "1") play($("scenario").value, Number(params.get("speed") ?? $("speed").value));
