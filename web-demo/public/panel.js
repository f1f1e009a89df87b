// Live mode's app state: the tasks and permission panel (the right column; a drawer on a
// narrow screen) and the cards of team workers waiting for a confirmation (above the
// composer). Both are painted from the chat's snapshot: `state` (`tasks_context`,
// `permission_context`, replaced by each `CUSTOM state_updated`), `session` (its team) and
// `pendingActions` (a worker's call has `worker` set).
import { PERMISSION_MODES } from "agentscope-message/chat";
import { parseToolInput } from "agentscope-message";
import { el, $ } from "./dom.js";

const MODE_TEXT = {
  default: "default: a tool call that changes something asks first",
  accept_edits: "accept edits: file edits in the working directories run without asking",
  explore: "explore: read-only, changes are denied",
  bypass: "bypass: no checks but explicit deny / ask rules",
  dont_ask: "don't ask: every ask becomes a deny (unattended)",
};

/** `actions`: `{setMode(mode), confirm(toolCallId, approved)}` (promises; failures reported by the controller). */
export function appPanel(actions) {
  const select = $("permission-mode");
  for (const mode of PERMISSION_MODES) {
    const option = el("option", "", mode);
    option.value = mode;
    select.append(option);
  }
  let changing = false;
  let shownState;
  let shownTeam;
  let shownWorkers = "";
  select.addEventListener("change", async () => {
    changing = true;
    select.disabled = true;
    note("setting the mode…");
    const ok = await actions.setMode(select.value);
    changing = false;
    select.disabled = false;
    if (ok) note(MODE_TEXT[select.value] ?? "");
    shownState = undefined; // shows the snapshot's mode again (a refused change goes back)
    paint(actions.snapshot());
  });

  function note(text, error = false) {
    $("permission-note").textContent = text;
    $("permission-note").classList.toggle("error", error);
  }

  function paint(snapshot) {
    if (snapshot.state !== shownState && !changing) {
      shownState = snapshot.state;
      paintState(snapshot.state);
    }
    const team = snapshot.session?.team ?? null;
    if (team !== shownTeam) {
      shownTeam = team;
      paintTeam(team);
    }
    paintWorkers(snapshot.pendingActions.filter((a) => a.worker !== undefined));
  }

  function paintState(state) {
    const mode = state?.permission_context?.mode ?? null;
    select.disabled = state === null;
    if (mode !== null) {
      select.value = mode;
      if (!$("permission-note").classList.contains("error")) note(MODE_TEXT[mode] ?? mode);
    }
    document.body.dataset.permissionMode = mode ?? "";
    const tasks = state?.tasks_context?.tasks ?? [];
    $("task-count").textContent = tasks.length > 0 ? String(tasks.length) : "";
    $("toggle-panel").textContent = tasks.length > 0 ? `Tasks (${tasks.length})` : "Tasks";
    const list = $("tasks");
    list.replaceChildren();
    if (tasks.length === 0) list.append(el("li", "note", "No tasks. (Try: task)"));
    for (const task of tasks) {
      const item = el("li", "task");
      item.dataset.taskId = task.id;
      item.dataset.state = task.state;
      const head = el("div", "task-head");
      head.append(el("span", "task-subject", task.subject), el("span", `badge badge-${task.state}`, task.state.replace(/_/g, " ")));
      item.append(head);
      if (task.description) item.append(el("span", "task-desc", task.description));
      list.append(item);
    }
  }

  function paintTeam(team) {
    $("team-section").hidden = team === null;
    if (team === null) return;
    const name = (x) => (typeof x === "string" ? x : x?.data?.name ?? x?.name ?? x?.id ?? "?");
    const box = $("team");
    box.replaceChildren(el("p", "note", `${name(team.team)}, led by ${name(team.leader_agent)}`));
    const members = el("ul", "team-members");
    for (const m of Array.isArray(team.members) ? team.members : []) members.append(el("li", "", name(m.agent)));
    box.append(members);
  }

  /** One card per worker's call waiting: "worker <name> wants to run <tool>", its input, Approve / Deny. */
  function paintWorkers(waiting) {
    const key = waiting.map((a) => a.toolCall.id).join(" ");
    if (key === shownWorkers) return;
    shownWorkers = key;
    const box = $("worker-cards");
    box.hidden = waiting.length === 0;
    box.replaceChildren();
    for (const action of waiting) {
      const card = el("div", "worker-card");
      card.dataset.toolCallId = action.toolCall.id;
      card.dataset.worker = action.worker.agentName;
      const title = el("p", "worker-title");
      title.append("worker ", el("strong", "", action.worker.agentName || action.worker.agentId), ` wants to run ${action.toolCall.name}`);
      const input = parseToolInput(action.toolCall);
      const shown = input && typeof input === "object" && typeof input.command === "string" ? input.command : action.toolCall.input;
      const buttons = el("div", "actions");
      const approve = el("button", "approve", "Approve");
      const deny = el("button", "deny", "Deny");
      for (const [button, approved] of [[approve, true], [deny, false]]) {
        button.type = "button";
        button.dataset.action = approved ? "approve" : "deny";
        button.addEventListener("click", async () => {
          approve.disabled = deny.disabled = true;
          if (!(await actions.confirm(action.toolCall.id, approved))) approve.disabled = deny.disabled = false;
        });
      }
      buttons.append(el("span", "note", "The team's worker asks before it runs this."), approve, deny);
      card.append(title, el("pre", "", shown), buttons);
      box.append(card);
    }
  }

  return { paint, note };
}
