// The demo page's chat scroll: it sticks to the bottom while it grows, unless the user
// scrolled up ("Jump to latest" sticks it again).
//
// The chat is its own scroll container (#scroller), between the header and the status bar:
// nothing is painted over it. While `state.stick` holds, every change of its size (new
// text, a card that grew, an image that loaded, the status bar growing) scrolls it to the
// bottom (a ResizeObserver: once per rendered frame, after layout). A scroll up by the user
// (scrollTop going down, away from the bottom) unsticks it and shows "Jump to latest";
// scrolling back to the bottom, or the button, sticks it again.
import { $ } from "./dom.js";
import { state } from "./state.js";

const NEAR_BOTTOM = 48; // px from the bottom that still count as "at the bottom"

function stickToBottom() {
  const scroller = $("scroller");
  scroller.scrollTop = scroller.scrollHeight;
  state.scrollTop = scroller.scrollTop;
}

export function setStick(stick) {
  state.stick = stick;
  $("jump").hidden = stick;
  document.body.dataset.stick = stick ? "1" : "0";
}

export function watchScroll() {
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
