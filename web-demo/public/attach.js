// Live mode's attachments: images picked (📎), pasted into the text box or dropped on the
// page become `data` blocks (`dataBlock` of `agentscope-message/chat`: base64, at most
// 10 MiB: a larger file is refused with `limit_exceeded`, shown in the status bar), shown
// as thumbnails (✕ removes one) until the turn is sent with them.
import { dataBlock } from "agentscope-message/chat";
import { el, $ } from "./dom.js";

/** `report(text)`: shows why a file was not attached. */
export function attachments(report) {
  let blocks = [];

  async function add(files) {
    for (const file of files) {
      if (!file.type.startsWith("image/")) {
        report(`${file.name || "the file"} not attached: only images can be attached here`);
        continue;
      }
      try {
        blocks.push(await dataBlock(file));
      } catch (e) {
        report(`${file.name || "the image"} not attached — ${e.code ?? "error"}: ${e.message}`);
      }
    }
    paint();
  }

  function paint() {
    const tray = $("attachments");
    tray.hidden = blocks.length === 0;
    tray.replaceChildren();
    blocks.forEach((block, i) => {
      const item = el("div", "attachment");
      const img = el("img");
      // a data: URL (the CSP's img-src allows data:, not blob:)
      img.src = `data:${block.source.media_type};base64,${block.source.data}`;
      img.alt = block.name ?? "attached image";
      const remove = el("button", "remove", "✕");
      remove.type = "button";
      remove.title = remove.ariaLabel = `Remove ${block.name ?? "the image"}`;
      remove.addEventListener("click", () => {
        blocks.splice(i, 1);
        paint();
      });
      item.append(img, remove);
      tray.append(item);
    });
  }

  const prompt = $("prompt");
  $("attach").addEventListener("change", () => {
    const files = [...$("attach").files];
    $("attach").value = "";
    void add(files);
  });
  prompt.addEventListener("paste", (e) => {
    const files = [...(e.clipboardData?.files ?? [])];
    if (files.length === 0) return;
    e.preventDefault();
    void add(files);
  });

  return {
    add,
    /** The blocks to send, and the tray emptied (`restore` puts them back when the send fails). */
    take() {
      const taken = blocks;
      blocks = [];
      paint();
      return taken;
    },
    restore(taken) {
      blocks = [...taken, ...blocks];
      paint();
    },
    get count() {
      return blocks.length;
    },
  };
}
