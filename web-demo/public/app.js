// The demo page: AgentScope events arrive as bytes, from the SSE endpoint (fetch) or a
// dropped log file, and go into one `Session` of the wasm package: the same Rust code a
// backend runs frames them (SSE / JSON Lines / JSON array), decodes them, routes them by
// reply_id and folds them into messages. The page only renders the session's snapshots:
// at most once per animation frame, and only the blocks whose snapshot object changed
// (snapshots share unchanged messages and blocks). It never parses an event itself.
import { MsgError, Session, blockKey, parseToolInput, pendingActions } from "agentscope-message";
import { marked } from "marked";
import DOMPurify from "dompurify";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

const state = {
  scenarios: [],
  scenario: null,
  serverSession: null, // the demo server's id for this playback (decisions, drop hook)
  session: null, // the Session receiving the bytes
  unsubscribe: null,
  controller: null, // aborts the current fetch / file replay
  snapshot: null, // the last snapshot rendered
  views: new Map(), // message id -> bubble view
  users: [],
  answered: new Set(), // pending tool calls the user already answered
  frame: 0,
  reconnects: 0,
  message: "",
  messageIsError: false,
  errors: [], // every refused event or failure of this playback, in order
};

// ---------- safe rendering ----------

// Model text is sanitised with an allow-list: formatting and links only. No ids, classes,
// data attributes, forms, buttons, images, media, SVG or MathML: nothing the page's own
// code looks up, nothing that fetches from another host without a click.
const ALLOWED_TAGS = ["p", "br", "hr", "strong", "em", "del", "code", "pre", "blockquote", "ul", "ol", "li", "a",
  "h1", "h2", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "th", "td"];
const PURIFY = { ALLOWED_TAGS, ALLOWED_ATTR: ["href", "title", "start", "align"], ALLOW_DATA_ATTR: false,
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#)/i };
DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A") {
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer nofollow");
  }
});
// a markdown image becomes a link to it: the browser fetches nothing until it is clicked
marked.use({ renderer: { image: ({ href, text }) => `<a href="${escapeHtml(href)}">[image: ${escapeHtml(text || href)}]</a>` } });

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Markdown → sanitised HTML (model text never reaches the DOM unsanitised). Text the
 * markdown parser cannot take (it throws on some pathological nesting) is shown as is. */
function markdown(text) {
  try {
    return DOMPurify.sanitize(marked.parse(text, { async: false, gfm: true, breaks: true }), PURIFY);
  } catch {
    return escapeHtml(text);
  }
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const MEDIA_TYPE = /^(image|audio)\/[\w.+-]+$/;

/** An <img>/<audio> for image or audio data from base64 or a `data:` URL; an http(s) URL
 * is a button that loads it only when clicked (no request to another host on its own). */
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
    if (url.protocol === "data:" && /^data:(image|audio)\/[\w.+-]+;base64,[A-Za-z0-9+/=]*$/.test(url.href)) {
      src = url.href;
    } else if (url.protocol !== "https:" && url.protocol !== "http:") {
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

/** The page's own decision buttons: the handler is bound here, to this element (model
 * text cannot make a button the page would act on). */
function action(button, decision) {
  button.type = "button";
  button.classList.add("decision"); // model text has no classes (the allow-list)
  button.dataset.action = decision; // for tests and styles only: never read by a handler
  button.addEventListener("click", () => decide(decision, button));
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
      node.append(head, el("pre", "tool-args", toolArgs(block)));
      if (block.state === "asking") {
        const actions = el("div", "actions");
        const approve = action(el("button", "approve", "Approve"), "approve");
        const deny = action(el("button", "deny", "Deny"), "deny");
        actions.append(el("span", "", "Run this tool?"), approve, deny);
        node.append(actions);
      } else if (block.state === "submitted") {
        const actions = el("div", "actions awaiting");
        const submit = action(el("button", "approve", "Send the recorded answer"), "submit");
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
  const node = el("article", "bubble assistant");
  node.dataset.replyId = msg.id;
  const head = el("header");
  head.append(el("span", "avatar", (msg.name || "A").slice(0, 1).toUpperCase()), el("span", "name", msg.name));
  const blocks = el("div", "blocks");
  const meta = el("footer", "meta");
  node.append(head, blocks, meta);
  $("chat").append(node);
  const view = { msg: null, node, blocks, meta, rendered: new Map() }; // blockKey -> { block, node }
  state.views.set(msg.id, view);
  return view;
}

/** Brings a bubble up to date: only blocks whose snapshot object changed are re-rendered. */
function renderMessage(view, msg) {
  msg.content.forEach((block, i) => {
    const key = blockKey(block, i);
    const seen = view.rendered.get(key);
    if (seen?.block === block) return; // unchanged block: same object, nothing to do
    const node = renderBlock(block, seen?.node);
    node.dataset.blockType = block.type;
    node.dataset.index = String(i);
    node.dataset.key = key;
    const old = seen?.node ?? view.blocks.children[i]; // blocks are only appended
    if (old) old.replaceWith(node);
    else view.blocks.append(node);
    view.rendered.set(key, { block, node });
  });
  const parts = [];
  if (msg.usage) parts.push(`${msg.usage.input_tokens} in · ${msg.usage.output_tokens} out tokens`);
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

function render(snapshot) {
  for (const msg of snapshot.messages) {
    const view = state.views.get(msg.id) ?? openBubble(msg);
    if (view.msg !== msg) renderMessage(view, msg); // unchanged message: same object
  }
}

const actionKey = (a) => `${a.replyId}/${blockKey(a.toolCall, a.index)}`;

/** The tool calls still waiting for the user (asking / submitted, not yet answered). */
function waiting(snapshot) {
  return pendingActions(snapshot).filter((a) => !state.answered.has(actionKey(a)));
}

function flush() {
  if (state.frame) cancelAnimationFrame(state.frame);
  state.frame = 0;
  const session = state.session;
  if (!session) return;
  document.body.dataset.events = String(session.events);
  const snapshot = session.getSnapshot();
  if (snapshot === state.snapshot) return;
  state.snapshot = snapshot;
  render(snapshot);
  // paused: a tool call asks the user (confirm) or waits for the client (external)
  const live = document.body.dataset.state;
  if (state.scenario && (live === "streaming" || live === "paused")) {
    const paused = waiting(snapshot).length > 0;
    if (paused && live !== "paused") {
      document.body.dataset.state = "paused";
      status("The agent is waiting for you: answer the highlighted tool call.");
    } else if (!paused && live === "paused") {
      document.body.dataset.state = "streaming";
      status("streaming…");
    }
  }
}

function schedule() {
  if (!state.frame) state.frame = requestAnimationFrame(flush);
}

// ---------- the status line: one message, and every error of the playback ----------

function status(text, error = false) {
  state.message = text;
  state.messageIsError = error;
  paintStatus();
}

function report(error) {
  const text = error?.message ?? String(error);
  if (!(error instanceof MsgError)) state.errors.push(text);
  else {
    // a refused event's message already says "at event <n>: …"
    const where = error.index !== undefined && !text.includes(`event ${error.index}`) ? `at event ${error.index}: ` : "";
    const sse = error.sseId !== undefined ? ` (SSE id ${error.sseId})` : "";
    state.errors.push(`[${error.code}] ${where}${text}${sse}`);
  }
  paintStatus();
}

function paintStatus() {
  const footer = $("status");
  footer.replaceChildren(el("span", "", state.message));
  if (state.errors.length > 0) {
    const list = el("ol", "errors");
    for (const text of state.errors) list.append(el("li", "", text));
    footer.append(list);
  }
  footer.classList.toggle("error", state.messageIsError || state.errors.length > 0);
}

/** What the session skipped, by code: "2 skipped (named_sse_event ×2)". */
function skipped(session) {
  const counts = new Map();
  for (const d of session.diagnostics) counts.set(d.code, (counts.get(d.code) ?? 0) + 1);
  if (counts.size === 0) return "";
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  return `, ${total} skipped (${[...counts].map(([code, n]) => `${code} ×${n}`).join(", ")})`;
}

// ---------- one session per playback ----------

/** Starts a playback: a new session whose changes are rendered once per frame. */
function begin(session) {
  reset();
  state.session = session;
  state.unsubscribe = session.subscribe(schedule);
  state.controller = new AbortController();
  return state.controller.signal;
}

function reset() {
  state.controller?.abort();
  state.controller = null;
  state.unsubscribe?.();
  state.unsubscribe = null;
  // an aborted read stops before its next feed, so the session can go now
  state.session?.free();
  state.session = null;
  state.snapshot = null;
  if (state.frame) cancelAnimationFrame(state.frame);
  state.frame = 0;
  state.views.clear();
  state.answered.clear();
  state.errors = [];
  state.reconnects = 0;
  state.scenario = null;
  state.users = [];
  $("chat").replaceChildren();
  delete document.body.dataset.reconnects;
  document.body.dataset.events = "0";
  document.body.dataset.state = "idle";
}

function finish(text) {
  flush();
  document.body.dataset.state = "done";
  status(text);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));

// ---------- sources: the SSE endpoint, or a dropped log file ----------

/**
 * Plays a scenario: the response body's bytes go into the session as they arrive. A
 * dropped connection is resumed into the same session with `Last-Event-ID` (after
 * `restartStream()` drops the frame the old connection left unfinished); the session
 * deduplicates by event id, so events sent again are skipped. The end of the body is
 * the end of the stream.
 */
async function play(id, speed) {
  const signal = begin(new Session({ dedup: true }));
  const session = state.session;
  const scenario = state.scenarios.find((s) => s.id === id);
  if (!scenario) return status(`unknown scenario ${id}`, true);
  state.scenario = scenario;
  state.users = scenario.users.filter(Boolean);
  state.serverSession = crypto.randomUUID();
  $("description").textContent = scenario.description;
  document.body.dataset.state = "streaming";
  status("streaming…");
  const query = new URLSearchParams({ session: state.serverSession, speed: String(speed) });
  for (const hook of ["dropAfter", "overlap"]) if (params.get(hook)) query.set(hook, params.get(hook));
  const url = `/api/stream/${encodeURIComponent(id)}?${query}`;
  let failures = 0;
  for (;;) {
    const seen = session.events;
    try {
      const headers = { accept: "text/event-stream" };
      if (session.lastEventId !== null) headers["last-event-id"] = session.lastEventId;
      const response = await fetch(url, { headers, cache: "no-store", signal });
      await session.read(response, { signal, onError: report });
      break;
    } catch (e) {
      if (signal.aborted) return;
      if (e instanceof MsgError) {
        // an HTTP error or a stream that cannot be framed: reconnecting will not help
        report(e);
        return finish(`stopped after ${session.events} events`);
      }
      failures = session.events > seen ? 1 : failures + 1;
      if (failures > 5) {
        report(e);
        return finish(`gave up after ${state.reconnects} reconnect(s)`);
      }
      state.reconnects += 1;
      document.body.dataset.reconnects = String(state.reconnects);
      status("connection lost; reconnecting where it stopped (Last-Event-ID)…");
      await sleep(200 * failures);
      if (signal.aborted) return;
      // the new connection starts a new stream: drop the old one's unfinished frame
      session.restartStream();
    }
  }
  const reconnects = state.reconnects ? `, ${state.reconnects} reconnect(s)` : "";
  finish(`done: ${session.events} events${reconnects}${skipped(session)}`);
}

async function decide(decision, button) {
  for (const b of document.querySelectorAll("button.decision")) b.disabled = true;
  const asked = state.session ? waiting(state.session.getSnapshot()) : [];
  const res = await fetch("/api/decide", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ session: state.serverSession, scenario: state.scenario?.id, decision }),
  });
  if (res.ok) {
    for (const a of asked) state.answered.add(actionKey(a));
    if (document.body.dataset.state === "paused") document.body.dataset.state = "streaming";
    status(`${decision === "approve" ? "approved" : decision === "deny" ? "denied" : "submitted"}; the agent continues…`);
  } else {
    const { error } = await res.json().catch(() => ({ error: res.statusText }));
    status(error, true);
    for (const b of document.querySelectorAll("button.decision")) b.disabled = false;
    button?.focus();
  }
}

/**
 * Replays a recorded log (SSE, JSON Lines or a JSON array, any line ends): its bytes go
 * into a new session in slices, one per animation frame, so the page shows the messages
 * being rebuilt; then the stream ends (a last frame without its blank line is applied).
 */
async function replayFile(file) {
  const signal = begin(new Session());
  const session = state.session;
  $("description").textContent = `Replaying ${file.name}`;
  let bytes;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch (e) {
    return status(`cannot read ${file.name}: ${e.message}`, true);
  }
  if (signal.aborted) return;
  document.body.dataset.state = "streaming";
  status(`replaying ${file.name}…`);
  const slice = Math.max(1024, Math.ceil(bytes.length / 120)); // at most ~2 s
  async function* slices() {
    for (let at = 0; at < bytes.length; at += slice) {
      yield bytes.subarray(at, at + slice);
      await nextFrame();
    }
  }
  try {
    await session.read(slices(), { signal, onError: report });
  } catch (e) {
    if (signal.aborted) return;
    report(e); // e.g. an unclosed JSON array
  }
  const errors = state.errors.length ? `, ${state.errors.length} error(s)` : "";
  finish(`replayed ${file.name}: ${session.events} events${skipped(session)}${errors}`);
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

// for tests and curious developers: a markdown string as the page renders it
window.__demo = {
  markdownHtml: (md) => markdown(md),
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
