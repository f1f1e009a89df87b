// The status bar of the demo page: one message, and the errors of the playback (the first
// ERRORS_SHOWN of them, then "and N more"), and the summary of what a session skipped.
import { MsgError } from "agentscope-message";
import { el, $ } from "./dom.js";
import { state } from "./state.js";

// a failed log lists its first errors, then "and N more"
const ERRORS_SHOWN = 10;

export function status(text, error = false) {
  state.message = text;
  state.messageIsError = error;
  paintStatus();
}

/** Adds an error to the list (every one is counted; the first ERRORS_SHOWN are kept). */
export function report(error) {
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
export function paintStatus() {
  const footer = $("status");
  footer.replaceChildren(el("span", "status-text", state.message));
  // live mode: the event stream's connection, apart from the reply's status (live.js)
  if (state.connection) {
    const link = el("span", "status-connection");
    link.append(el("span", "live-dot"), el("span", "", state.connection));
    footer.prepend(link);
  }
  if (state.errors.length > 0) {
    const list = el("ol", "errors");
    for (const text of state.errors) list.append(el("li", "", text));
    footer.append(list);
    const more = state.errorCount - state.errors.length;
    if (more > 0) footer.append(el("p", "more", `and ${more} more`));
  }
  // (the status bar is part of the layout: when it grows the chat shrinks, and a chat
  // stuck to the bottom stays there: see scroll.js)
  footer.classList.toggle("error", state.messageIsError || state.errors.length > 0);
}

/** What the session skipped, by code: "2 skipped (named_sse_event ×2)". */
export function skipped(session) {
  const counts = new Map();
  // (unclosed_blocks is a note on an applied REPLY_END, nothing skipped)
  for (const d of session.diagnostics) if (d.code !== "unclosed_blocks") counts.set(d.code, (counts.get(d.code) ?? 0) + 1);
  if (counts.size === 0) return "";
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  return `, ${total} skipped (${[...counts].map(([code, n]) => `${code} ×${n}`).join(", ")})`;
}
