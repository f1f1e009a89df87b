// The demo page's controls: the scenario and speed pickers and Play, the log file input,
// drag and drop of a log (in live mode, of an image to attach), the chat's scroll, and the scenario list (with the URL's
// ?scenario, ?speed and ?autoplay).
import { $, el } from "./dom.js";
import { params, state } from "./state.js";
import { play, replayFile } from "./playback.js";
import { watchScroll } from "./scroll.js";

/** Binds the page's controls (once, at start). */
export function wireControls() {
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
    // live mode: a dropped image is an attachment of the next turn (live.js)
    if (state.live) return void state.live.drop([...(e.dataTransfer?.files ?? [])]);
    const file = e.dataTransfer?.files?.[0];
    if (file) replayFile(file);
  });

  watchScroll();
}

export async function loadScenarios() {
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
  const asked = params.get("scenario");
  $("scenario").value = state.scenarios.some((s) => s.id === asked) ? asked : "c_react_3_tools_2_iters";
  pickSpeed(params.get("speed"));
  $("description").textContent = state.scenarios.find((s) => s.id === $("scenario").value)?.description ?? "";
  document.body.dataset.ready = "1";
  if (params.get("autoplay") === "1") play($("scenario").value, Number($("speed").value));
}

/** ?speed=X: a factor the picker lacks (2, 10) gets an option of its own; anything but a number ≥ 0 leaves 1×. */
function pickSpeed(asked) {
  const speed = asked === null || asked.trim() === "" ? NaN : Number(asked);
  if (!(speed >= 0) || !Number.isFinite(speed)) return;
  const picker = $("speed");
  const have = [...picker.options].find((o) => Number(o.value) === speed);
  if (have) return void (picker.value = have.value);
  const option = el("option", "", `${speed}×`);
  option.value = String(speed);
  picker.append(option);
  picker.value = option.value;
}
