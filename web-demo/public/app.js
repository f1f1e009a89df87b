// The demo page: AgentScope events arrive as bytes, from the SSE endpoint (fetch) or a
// dropped log file, and go into one `Session` of the wasm package: the same Rust code a
// backend runs frames them (SSE / JSON Lines / JSON array), decodes them, routes them by
// reply_id and folds them into messages. The page only renders the session's snapshots:
// at most once per animation frame, and only the blocks whose snapshot object changed
// (snapshots share unchanged messages and blocks); a streaming text block's markdown is
// rendered in place, its work growing with what arrived. It never parses an event itself.
// The chat sticks to the bottom while it streams (unless the user scrolled up), a tool
// result is shown in its call's card, and an ask-the-user tool is a form of the page's own.
//
// This is the entry module; the others: playback.js (the Session of a playback, fed and
// rendered per frame), render.js (bubbles and blocks), markdown.js (marked + DOMPurify,
// streaming text), controls.js (the header's controls, drag and drop), scroll.js (sticking
// to the bottom), status.js (the status bar), decide.js (answers to waiting tool calls),
// state.js (the shared state), dom.js (helpers); live.js is live mode.
import { $, el } from "./dom.js";
import { state } from "./state.js";
import { markdown, PLAIN_CHUNK, PLAIN_TAIL, renderedChars, StreamingMarkdown } from "./markdown.js";
import { render } from "./render.js";
import { report, status } from "./status.js";
import { begin, finish, flush } from "./playback.js";
import { loadScenarios, wireControls } from "./controls.js";

wireControls();

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
