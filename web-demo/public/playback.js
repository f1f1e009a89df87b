// Playback of the demo page: one `Session` per playback, fed the bytes of the SSE endpoint
// (reconnecting with Last-Event-ID) or of a dropped log file, its snapshots rendered at
// most once per animation frame, and the paused / streaming / done state of the page.
import { MsgError, Session } from "agentscope-message";
import { $ } from "./dom.js";
import { params, state, waiting } from "./state.js";
import { render, settle } from "./render.js";
import { report, skipped, status } from "./status.js";
import { setStick } from "./scroll.js";

export function flush() {
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

// ---------- one session per playback ----------

/** Starts a playback: a new session whose changes are rendered once per frame. */
export function begin(session) {
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
  state.picks.clear();
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

export function finish(text) {
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
export async function play(id, speed) {
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

/**
 * Replays a recorded log (SSE, JSON Lines or a JSON array, any line ends): its bytes go
 * into a new session in slices, one per animation frame, so the page shows the messages
 * being rebuilt; then the stream ends (a last frame without its blank line is applied).
 */
export async function replayFile(file) {
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
