// The user's answer to a tool call waiting for it (Approve / Deny, an ask form's answers):
// in live mode to live.js's chat, else to the demo server, which continues the recording.
import { waiting, actionKey, state } from "./state.js";
import { status } from "./status.js";

/** Sends the user's decision (and an ask form's `answers`) to the demo server, which
 * continues the recorded stream. The page's own controls are locked meanwhile. */
export async function decide(decision, button, extra = {}) {
  if (state.live) return state.live.decide(decision, button, extra);
  // the page's decision buttons and ask forms (model text makes neither: see render.js `action`)
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
