// Live mode's session list (the left column; a drawer on a narrow screen): the agent's
// sessions from `SessionsClient.list()`, newest first, the open one marked. Each entry opens
// its chat when clicked, renames inline (✎: a text field, Enter or leaving it saves, Escape
// cancels) and deletes after a confirm step (🗑, then "Delete"). The controller (live.js)
// does the opening, renaming and deleting; this module only shows the list and asks.
import { el, $ } from "./dom.js";

/** Newest first (`updated_at`, the service's local time without a zone: compared as text). */
export const newestFirst = (views) => [...views].sort((a, b) => String(b.session.updated_at).localeCompare(String(a.session.updated_at)));

/** When a session last changed: the time today, else the date. */
function when(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const today = new Date().toDateString() === date.toDateString();
  return today ? date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : date.toLocaleDateString([], { month: "short", day: "numeric" });
}

/**
 * The list. `actions`: `{open(id), rename(id, name), remove(id), current()}`, each returning
 * a promise (a failure is reported by the controller). Returns `{show(views), views}`.
 */
export function sessionList(actions) {
  const list = $("session-list");
  let views = [];
  let editing = null; // the id being renamed (the list is not rebuilt meanwhile)
  let confirming = null; // the id whose delete asks for a confirmation

  function show(next) {
    views = newestFirst(next);
    if (editing === null) paint();
  }

  function paint() {
    const current = actions.current();
    list.replaceChildren();
    if (views.length === 0) list.append(el("li", "session-empty", "No sessions yet."));
    for (const view of views) list.append(entry(view, view.session.id === current));
  }

  function entry(view, isCurrent) {
    const { id, config, origin } = view.session;
    const item = el("li", "session");
    item.dataset.sessionId = id;
    item.setAttribute("aria-current", String(isCurrent));
    const row = el("div", "session-row");
    const open = el("button", "session-open");
    open.type = "button";
    open.title = config.name;
    const meta = el("span", "session-meta");
    meta.append(el("span", "", when(view.session.updated_at)));
    if (view.status !== "idle") meta.append(el("span", "running", view.status.replace(/_/g, " ")));
    if (origin?.type && origin.type !== "user") meta.append(el("span", "", origin.type));
    if (view.team) meta.append(el("span", "", "team"));
    open.append(el("span", "session-name", config.name), meta);
    open.addEventListener("click", () => void actions.open(id));
    const tools = el("span", "session-actions");
    const rename = el("button", "rename", "✎");
    rename.type = "button";
    rename.title = rename.ariaLabel = `Rename ${config.name}`;
    rename.addEventListener("click", () => startRename(item, view));
    const remove = el("button", "delete", "🗑");
    remove.type = "button";
    remove.title = remove.ariaLabel = `Delete ${config.name}`;
    remove.addEventListener("click", () => {
      confirming = confirming === id ? null : id;
      paint();
      list.querySelector(`[data-session-id="${id}"] .session-confirm .cancel`)?.focus();
    });
    tools.append(rename, remove);
    row.append(open, tools);
    item.append(row);
    if (confirming === id) item.append(confirmRow(id));
    return item;
  }

  function confirmRow(id) {
    const box = el("div", "session-confirm");
    const yes = el("button", "delete", "Delete");
    const no = el("button", "cancel", "Cancel");
    yes.type = no.type = "button";
    yes.addEventListener("click", async () => {
      yes.disabled = no.disabled = true;
      confirming = null;
      await actions.remove(id);
    });
    no.addEventListener("click", () => {
      confirming = null;
      paint();
    });
    box.append(el("span", "", "Delete this session and its messages?"), yes, no);
    return box;
  }

  function startRename(item, view) {
    editing = view.session.id;
    const field = el("input", "rename-field");
    field.value = view.session.config.name;
    field.maxLength = 200;
    field.ariaLabel = "Session name";
    let done = false;
    const finish = async (save) => {
      if (done) return;
      done = true;
      const name = field.value.trim();
      if (save && name !== "" && name !== view.session.config.name) {
        field.disabled = true;
        await actions.rename(view.session.id, name);
      }
      editing = null;
      paint();
    };
    field.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        void finish(true);
      } else if (e.key === "Escape") void finish(false);
    });
    field.addEventListener("blur", () => void finish(true));
    item.querySelector(".session-row").replaceChildren(field);
    field.focus();
    field.select();
  }

  return { show, paint, get views() { return views; } };
}
