// The demo page's shared state: the one `state` object every module reads and updates (the
// scenarios, the playback's Session and its last snapshot, the bubble views, the errors,
// the scroll position), the page's URL parameters, and which tool calls still wait for
// the user.
import { blockKey, pendingActions } from "agentscope-message";

export const params = new URLSearchParams(location.search);

export const state = {
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
  picks: new Map(), // tool call id -> an ask form's answers so far (kept when its card is drawn again)
  frame: 0,
  reconnects: 0,
  message: "",
  connection: "", // live mode: the chat's connection, as the status bar shows it
  messageIsError: false,
  errors: [], // the first ERRORS_SHOWN refused events or failures of this playback, in order
  errorCount: 0, // all of them
  stick: true, // keep the chat scrolled to the bottom (until the user scrolls up)
  scrollTop: 0, // the scroller's last scrollTop (a user scrolling up lowers it)
};

export const actionKey = (a) => `${a.replyId}/${blockKey(a.toolCall, a.index)}`;

/** The tool calls still waiting for the user (asking / submitted, not yet answered). */
export function waiting(snapshot) {
  return pendingActions(snapshot).filter((a) => !state.answered.has(actionKey(a)));
}
