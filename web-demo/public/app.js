// The demo page: AgentScope events arrive as bytes, from the SSE endpoint (fetch) or a
// dropped log file, and go into one `Session` of the wasm package: the same Rust code a
// backend runs frames them (SSE / JSON Lines / JSON array), decodes them, routes them by
// reply_id and folds them into messages. The page only renders the session's snapshots:
// at most once per animation frame, and only the blocks whose snapshot object changed
// (snapshots share unchanged messages and blocks); a streaming text block's markdown is
// rendered in place, its work growing with what arrived. It never parses an event itself.
// The chat sticks to the bottom while it streams (unless the user scrolled up), a tool
// result is shown in its call's card, and an ask-the-user tool is a form of the page's own.
import { MsgError, Session, blockKey, parseToolInput, pendingActions } from "agentscope-message";
import { marked } from "marked";
import DOMPurify from "dompurify";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

const state = {
  live: null, // live mode: the controller of web-demo/public/live.js (a Chat with the service)
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
  errors: [], // the first ERRORS_SHOWN refused events or failures of this playback, in order
  errorCount: 0, // all of them
  stick: true, // keep the chat scrolled to the bottom (until the user scrolls up)
  scrollTop: 0, // the scroller's last scrollTop (a user scrolling up lowers it)
};

// a failed log lists its first errors, then "and N more"
const ERRORS_SHOWN = 10;

// ---------- safe rendering ----------

// Model text is markdown; raw HTML in it is shown as text, as chat UIs do (below). The
// parser's HTML is then sanitised with an allow-list: formatting and links only. No ids,
// classes, data attributes, forms, buttons, images, media, SVG or MathML: nothing the
// page's own code looks up, nothing that fetches from another host without a click.
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
// Raw HTML in model text (marked's `html` tokens, a block or inline) is shown as the text it
// is, line breaks kept (`breaks: true`), never parsed as HTML. Why not sanitise it: an
// allow-list decides which elements stay, but the browser's parser decides where they end,
// and some never end in the text that follows: `<math><mtext><table><mglyph><style><!--`
// opens a comment (a MathML <style> is no raw-text element) that swallows the rest of the
// block, and so do `<plaintext>`, `<xmp>`, `<textarea>` or `<!--`, in which DOMPurify can
// only drop what was swallowed. A model writing HTML in a chat is nearly always showing
// it. So the HTML the sanitiser gets is only marked's own, balanced markup.
const rawHtml = (text) => escapeHtml(text).replace(/\n/g, "<br>");
marked.use({
  renderer: {
    html: ({ text, block }) => (block ? `<p>${rawHtml(text.replace(/\n+$/, ""))}</p>\n` : rawHtml(text)),
    // a markdown image becomes a link to it: the browser fetches nothing until it is clicked
    image: ({ href, text }) => `<a href="${escapeHtml(href)}">[image: ${escapeHtml(text || href)}]</a>`,
  },
});

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// Characters of markdown lexed and parsed: by `markdown`, and by the renders of streaming
// blocks' tails. Tests count work with it, not time.
let renderedChars = 0;

/** The options of every markdown parse: `marked.parse`'s own (the defaults, with the image
 * renderer above, then these), for the lexer and the parser of streaming blocks too. */
const markdownOptions = () => ({ ...marked.defaults, async: false, gfm: true, breaks: true });
// streaming blocks run marked's lexer and parser themselves: nothing may come between them
if (marked.defaults.hooks || marked.defaults.walkTokens || marked.defaults.extensions) {
  throw new Error("marked hooks, walkTokens and extensions are not applied to streaming blocks");
}

/** The parser's HTML → what may reach the DOM. */
function sanitize(html) {
  return DOMPurify.sanitize(html, PURIFY);
}

/** Markdown → sanitised HTML (model text never reaches the DOM unsanitised). Text the
 * markdown parser cannot take (it throws on some pathological nesting) is shown as is. */
function markdown(text) {
  renderedChars += text.length;
  try {
    return sanitize(marked.parse(text, { async: false, gfm: true, breaks: true }));
  } catch {
    return escapeHtml(text);
  }
}

// ---------- streaming text: the work per frame grows with the delta, not the block ----------
//
// A text block that streams is not re-rendered whole on every frame. Its text is a frozen
// prefix (whole top-level markdown blocks rendered for good: their nodes stay) and a tail.
// A render of the tail lexes it once, freezes the blocks that no later text can change
// (`cutTail`), and renders them and the rest from those tokens: `marked.parse` is the same
// lexer and parser with the same options (`markdownOptions`), and every piece of HTML goes
// through the same sanitiser with the same allow-list and hook (`sanitize`), then is parsed
// on its own into the block, as a whole block's HTML is. Renders are paid for from a
// budget: STREAM_BUDGET characters of parsing per character received, plus STREAM_SLACK
// per block (small blocks render on every frame). Text received while the tail waits for
// its next render is shown as plain text (text nodes: never parsed as HTML). A tail that
// cannot be cut (one huge paragraph or code fence) is thus re-rendered only once it has
// doubled: amortised linear. When the block ends (its end event, the end of its message,
// or the end of the playback) it is rendered whole once more with `markdown`: what stays
// on the page is exactly the one-shot render of the text.
//
// When a render finds more than PLAIN_TAIL characters of the tail that cannot be cut (one
// huge paragraph, list or code fence; by 2 × PLAIN_TAIL, as renders come at sizes that
// double), that part is shown as plain text until it can be cut: its markdown source as
// is, line breaks kept. Why: the browser lays a paragraph out whole (one inline formatting
// context) whenever its text changes, so text appended to a 10 MB paragraph cost O(size) on
// every frame (replaying one took 117 s; the same text in 1 KB paragraphs 23 s). The plain
// text is in chunks of about PLAIN_CHUNK characters, each its own block box: new text
// changes only the last chunk, and that is all the browser lays out again. And it is not
// lexed again until a blank line after the frozen text makes a cut possible. The final
// render is the whole markdown still: paid once.

const STREAM_BUDGET = 2;
const STREAM_SLACK = 4096;
const PLAIN_TAIL = 64 * 1024;
const PLAIN_CHUNK = 4096;
const streams = new WeakMap(); // block node -> its StreamingMarkdown

/** Blocks that no later line can continue after the blank line that follows them (not
 * lists or indented code: an indented line or another item continues those). */
const CLOSED_BY_BLANK_LINE = new Set(["paragraph", "heading", "hr", "table", "blockquote", "def"]);

const closedByBlankLine = (token) =>
  CLOSED_BY_BLANK_LINE.has(token.type) || (token.type === "code" && token.codeBlockStyle !== "indented");

/** Does the text before `at` end with a blank line? */
function blankLineBefore(text, at) {
  let newlines = 0;
  for (let i = at - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      if (++newlines === 2) return true;
    } else if (c !== 32 && c !== 9) return false;
  }
  return false;
}

/**
 * Where the tail of a streaming block can be cut, given its tokens: the number of leading
 * top-level tokens that render the same whatever text comes after them, and the length of
 * their text. A cut is at the start of a block, after a blank line that closes the block
 * before it: that one is closed by the blank line itself (a paragraph, a heading, a table,
 * a closed fence…), or the line after the blank line is complete and the lexer did not
 * give it to that block (a list, indented code). Raw HTML is text (see `rawHtml`): it
 * leaves no element open to hold what follows. A fence is one token, so a fence is never
 * cut inside, blank lines or not.
 */
function cutTail(tokens, tail) {
  let at = 0;
  let cut = 0;
  let count = 0;
  let before = null; // the last block before `at`
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.type !== "space") {
      if (before && blankLineBefore(tail, at) && (closedByBlankLine(before) || token.raw.includes("\n"))) {
        cut = at;
        count = i;
      }
      before = token;
    }
    at += token.raw.length;
  }
  // the offsets above are sums of the tokens' raw text: they must be the tail's own
  if (count === 0 || tokens.slice(0, count).map((t) => t.raw).join("") !== tail.slice(0, cut)) return { count: 0, cut: 0 };
  return { count, cut };
}

/** Lexer tokens → sanitised HTML: the parser and sanitiser half of `markdown`. */
function renderTokens(tokens) {
  return sanitize(marked.parser(tokens, markdownOptions()));
}

/** A streaming text block's rendering, updated in place as its text grows. */
class StreamingMarkdown {
  constructor(node) {
    this.node = node;
    this.text = ""; // the text shown
    this.frozen = 0; // text[0, frozen) is rendered for good, in node.childNodes[0, frozenNodes)
    this.frozenNodes = 0;
    this.links = Object.create(null); // the link reference definitions in the frozen text
    this.credit = STREAM_SLACK; // the characters of parsing the block may still use
    this.pending = null; // the text received since the last render, as plain text
    this.blankEnd = 0; // the end of the last blank line in the text
    this.lineBlank = false; // the current line has only spaces and tabs so far
    this.cr = -1; // the last CR (the lexer turns CRs into LFs: its offsets would not be ours)
    this.plain = null; // the text after the frozen text as plain text, in chunks (PLAIN_TAIL)
    this.chunk = null; // the plain text's last chunk, while it takes more
    this.chunkChars = 0;
  }

  /** Shows `text`; false when it does not continue the text shown (render it anew). */
  update(text) {
    const old = this.text;
    const check = Math.max(0, old.length - 64); // a cheap check: the end of the old text
    if (text.length < old.length || !text.startsWith(old.slice(check), check)) return false;
    if (text.length === old.length) return true;
    const added = text.slice(old.length);
    this.text = text;
    this.scan(added, old.length);
    this.credit += STREAM_BUDGET * added.length;
    if (this.plain) {
      this.show(added);
      // Plain text ends only at a cut, and a cut needs a blank line after the frozen text:
      // until one comes nothing is lexed. Then a render may overdraw the credit, once: the
      // next waits until it is paid back, so renders of a tail that still cannot be cut (a
      // fence or list with blank lines) are at sizes growing by half: linear in all.
      if (this.blankEnd > this.frozen && this.credit >= 0) this.render();
    } else if (this.credit >= text.length - this.frozen) this.render();
    else this.show(added);
    return true;
  }

  scan(added, offset) {
    for (let i = 0; i < added.length; i++) {
      const c = added.charCodeAt(i);
      if (c === 10) {
        if (this.lineBlank) this.blankEnd = offset + i + 1;
        this.lineBlank = true;
      } else if (c === 13) {
        this.cr = offset + i;
      } else if (c !== 32 && c !== 9) {
        this.lineBlank = false;
      }
    }
  }

  /** Renders the tail (and freezes what it can of it). */
  render() {
    const tail = this.text.slice(this.frozen);
    this.credit -= tail.length;
    renderedChars += tail.length;
    let frozenHtml = "";
    let rest = null; // the tokens after the cut (null: the parser cannot take the text)
    let cut = 0;
    let frozenTokens = [];
    try {
      const lexer = new marked.Lexer(markdownOptions());
      // the definitions in the frozen text hold for the tail too (the first one of a label wins)
      Object.assign(lexer.tokens.links, this.links);
      const tokens = lexer.lex(tail);
      // a cut needs a blank line, and offsets the lexer keeps (it turns CRs into LFs)
      const at = this.blankEnd > this.frozen && this.cr < this.frozen ? cutTail(tokens, tail) : { count: 0, cut: 0 };
      frozenTokens = tokens.slice(0, at.count);
      if (at.count > 0) frozenHtml = renderTokens(frozenTokens);
      rest = tokens.slice(at.count);
      cut = at.cut;
    } catch {
      // text the parser cannot take (`markdown` shows it as is too): plain text for now
      rest = null;
      cut = 0;
    }
    // plain text that still cannot be cut only grew: it is on the page already (`update`)
    if (this.plain && cut === 0) return;
    const node = this.node;
    this.pending?.remove(); // (it may be in a frozen paragraph)
    this.pending = null;
    this.plain = null;
    this.chunk = null;
    while (node.childNodes.length > this.frozenNodes) node.lastChild.remove();
    if (cut > 0) {
      node.insertAdjacentHTML("beforeend", frozenHtml);
      marked.walkTokens(frozenTokens, (t) => {
        if (t.type === "def" && !(t.tag in this.links)) this.links[t.tag] = { href: t.href, title: t.title };
      });
      this.frozen += cut;
      this.frozenNodes = node.childNodes.length;
    }
    if (tail.length - cut > PLAIN_TAIL) {
      this.plain = el("div", "plain");
      node.append(this.plain);
      this.show(tail.slice(cut));
    } else if (rest === null) this.show(tail.slice(cut));
    else node.insertAdjacentHTML("beforeend", renderTokens(rest));
  }

  /** Shows text received since the last render as is: in the plain text, or where the
   * rendered text ends (in its last paragraph or code block, or after it). */
  show(added) {
    if (this.plain) return this.appendPlain(added);
    if (!this.pending) {
      this.pending = el("span", "pending");
      const last = this.node.lastElementChild;
      const code = last?.tagName === "PRE" ? last.lastElementChild : null;
      (last?.tagName === "P" ? last : code?.tagName === "CODE" ? code : this.node).append(this.pending);
    }
    this.pending.append(added); // a text node
  }

  /** Appends to the plain text. A chunk ends at a line end once it has PLAIN_CHUNK
   * characters, or, in a line that long, at a space past 2 × PLAIN_CHUNK, or at 3 ×
   * PLAIN_CHUNK whatever comes (one more not to split a surrogate pair): a chunk is a block
   * box, so an end that is no line end shows as one. */
  appendPlain(text) {
    let from = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      const n = this.chunkChars + i - from + 1; // the chunk's length up to text[i]
      if ((c === 10 && n >= PLAIN_CHUNK) || (c === 32 && n >= 2 * PLAIN_CHUNK) || (n >= 3 * PLAIN_CHUNK && (c < 0xd800 || c > 0xdbff))) {
        this.appendChunk(text.slice(from, i + 1));
        this.chunk = null; // (the next text starts a new one)
        this.chunkChars = 0;
        from = i + 1;
      }
    }
    if (from < text.length) this.appendChunk(text.slice(from));
  }

  appendChunk(text) {
    if (!this.chunk) {
      this.chunk = this.plain.appendChild(el("div"));
      this.chunkChars = 0; // (a new plain text starts with no chunk)
    }
    this.chunk.append(text); // a text node
    this.chunkChars += text.length;
  }
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

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
function askForm(questions) {
  const form = el("form", "ask ask-form");
  form.noValidate = true;
  const answers = questions.map(() => ({ selected: new Set(), other: "" }));
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
        b.setAttribute("aria-pressed", "false");
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
        if (block.state === "submitted" && canAnswer()) node.append(askForm(questions));
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
function settle() {
  for (const view of state.views.values()) {
    view.msg?.content.forEach((block, i) => {
      const key = blockKey(block, i);
      const seen = view.rendered.get(key);
      if (seen && streams.has(seen.node)) place(view, key, i, block, renderBlock(block, seen.node));
    });
  }
}

function render(snapshot) {
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

// ---------- the chat sticks to the bottom while it grows, unless the user scrolled up ----------
//
// The chat is its own scroll container (#scroller), between the header and the status bar:
// nothing is painted over it. While `state.stick` holds, every change of its size (new
// text, a card that grew, an image that loaded, the status bar growing) scrolls it to the
// bottom (a ResizeObserver: once per rendered frame, after layout). A scroll up by the user
// (scrollTop going down, away from the bottom) unsticks it and shows "Jump to latest";
// scrolling back to the bottom, or the button, sticks it again.

const NEAR_BOTTOM = 48; // px from the bottom that still count as "at the bottom"

function stickToBottom() {
  const scroller = $("scroller");
  scroller.scrollTop = scroller.scrollHeight;
  state.scrollTop = scroller.scrollTop;
}

function setStick(stick) {
  state.stick = stick;
  $("jump").hidden = stick;
  document.body.dataset.stick = stick ? "1" : "0";
}

function watchScroll() {
  const scroller = $("scroller");
  setStick(true);
  scroller.addEventListener(
    "scroll",
    () => {
      const top = scroller.scrollTop;
      const up = top < state.scrollTop - 1; // content growing never lowers scrollTop
      state.scrollTop = top;
      if (scroller.scrollHeight - top - scroller.clientHeight <= NEAR_BOTTOM) {
        if (!state.stick) setStick(true);
      } else if (up && state.stick) setStick(false);
    },
    { passive: true },
  );
  const follow = new ResizeObserver(() => {
    if (state.stick) stickToBottom();
  });
  follow.observe(scroller);
  follow.observe($("chat"));
  $("jump").addEventListener("click", () => {
    setStick(true);
    stickToBottom();
  });
}

// ---------- the status line: one message, and every error of the playback ----------

function status(text, error = false) {
  state.message = text;
  state.messageIsError = error;
  paintStatus();
}

/** Adds an error to the list (every one is counted; the first ERRORS_SHOWN are kept). */
function report(error) {
  state.errorCount += 1;
  if (state.errors.length < ERRORS_SHOWN) {
    const text = error?.message ?? String(error);
    if (!(error instanceof MsgError)) state.errors.push(text);
    else {
      // a refused event's message already says "at event <n>: …"
      const where = error.index !== undefined && !text.includes(`event ${error.index}`) ? `at event ${error.index}: ` : "";
      const sse = error.sseId !== undefined ? ` (SSE id ${error.sseId})` : "";
      state.errors.push(`[${error.code}] ${where}${text}${sse}`);
    }
  }
  paintStatus();
}

/** The status bar: the message, then the list of errors ("and N more" past the cap). */
function paintStatus() {
  const footer = $("status");
  footer.replaceChildren(el("span", "status-text", state.message));
  if (state.errors.length > 0) {
    const list = el("ol", "errors");
    for (const text of state.errors) list.append(el("li", "", text));
    footer.append(list);
    const more = state.errorCount - state.errors.length;
    if (more > 0) footer.append(el("p", "more", `and ${more} more`));
  }
  // (the status bar is part of the layout: when it grows the chat shrinks, and a chat
  // stuck to the bottom stays there: see watchScroll)
  footer.classList.toggle("error", state.messageIsError || state.errors.length > 0);
}

/** What the session skipped, by code: "2 skipped (named_sse_event ×2)". */
function skipped(session) {
  const counts = new Map();
  // (unclosed_blocks is a note on an applied REPLY_END, nothing skipped)
  for (const d of session.diagnostics) if (d.code !== "unclosed_blocks") counts.set(d.code, (counts.get(d.code) ?? 0) + 1);
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
  state.errorCount = 0;
  state.reconnects = 0;
  state.scenario = null;
  state.users = [];
  $("chat").replaceChildren();
  setStick(true);
  state.scrollTop = 0;
  delete document.body.dataset.reconnects;
  document.body.dataset.events = "0";
  document.body.dataset.state = "idle";
}

function finish(text) {
  flush();
  settle();
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

/** Sends the user's decision (and an ask form's `answers`) to the demo server, which
 * continues the recorded stream. The page's own controls are locked meanwhile. */
async function decide(decision, button, extra = {}) {
  if (state.live) return state.live.decide(decision, button, extra);
  // the page's decision buttons and ask forms (model text makes neither: see `action`)
  const controls = [...document.querySelectorAll("button.decision, form.ask-form button, form.ask-form input")];
  const enabled = controls.filter((c) => !c.disabled);
  for (const c of enabled) c.disabled = true;
  const asked = state.session ? waiting(state.session.getSnapshot()) : [];
  let res;
  try {
    res = await fetch("/api/decide", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ session: state.serverSession, scenario: state.scenario?.id, decision, ...extra }),
    });
  } catch (e) {
    res = { ok: false, statusText: e.message, json: () => Promise.reject(e) };
  }
  if (res.ok) {
    for (const a of asked) state.answered.add(actionKey(a));
    if (document.body.dataset.state === "paused") document.body.dataset.state = "streaming";
    const done = extra.answers ? "answer sent" : decision === "approve" ? "approved" : decision === "deny" ? "denied" : "submitted";
    status(`${done}; the agent continues…`);
  } else {
    const { error } = await res.json().catch(() => ({ error: res.statusText }));
    status(error, true);
    for (const c of enabled) c.disabled = false;
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
  const errors = state.errorCount ? `, ${state.errorCount} error(s)` : "";
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

watchScroll();

// for tests and curious developers: a markdown string as the page renders it
window.__demo = {
  markdownHtml: (md) => markdown(md),
  markdownToText(md) {
    const node = document.createElement("template"); // inert: loads nothing
    node.innerHTML = markdown(md);
    return node.content.textContent;
  },
  state,
  /** A streaming block's tail past `plainTail` characters that cannot be cut is shown as
   * plain text, in chunks of about `plainChunk` (at most 3 × plainChunk + 1). */
  plainTail: PLAIN_TAIL,
  plainChunk: PLAIN_CHUNK,
  /** Characters the markdown parser has read so far (renders, and cutting streaming blocks). */
  get renderedChars() {
    return renderedChars;
  },
  // to drive a playback from a test, one frame at a time: begin(session), then flush()
  // after each change (as the animation frame would), then finish(text)
  begin,
  flush,
  finish,
  /** `deltas` streamed into a detached text block, one update each as on the page (with
   * `everyDelta`, its tail is rendered on each, whatever the budget), then its tail
   * rendered (not the whole text again): what a streaming block shows once its tail has
   * caught up, and how much of it is frozen. */
  streamHtml(deltas, everyDelta = false) {
    const node = document.createElement("div");
    const stream = new StreamingMarkdown(node);
    if (everyDelta) stream.credit = Infinity;
    let text = "";
    for (const delta of deltas) stream.update((text += delta));
    stream.render();
    return { html: node.innerHTML, frozen: stream.frozen };
  },
};

// live mode (the server put the service's agent and user in a <meta>): a chat, see live.js
const liveMeta = document.querySelector('meta[name="agentscope-live"]');
if (liveMeta) {
  const { startLive } = await import("./live.js");
  await startLive(JSON.parse(liveMeta.content), { state, render, status, report, el, $ });
} else {
  await loadScenarios();
}

async function loadScenarios() {
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
}
