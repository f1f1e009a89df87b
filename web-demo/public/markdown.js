// Markdown of the demo page (all its use of marked and DOMPurify): model text rendered to
// sanitised HTML (`markdown`), and a streaming text block's rendering updated in place as
// its text grows (`StreamingMarkdown`), with the counter of the characters parsed.
import { marked } from "marked";
import DOMPurify from "dompurify";
import { el } from "./dom.js";

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
export let renderedChars = 0;

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
export function markdown(text) {
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
export const PLAIN_TAIL = 64 * 1024;
export const PLAIN_CHUNK = 4096;
export const streams = new WeakMap(); // block node -> its StreamingMarkdown

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
export class StreamingMarkdown {
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
