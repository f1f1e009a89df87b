// A consumer app of agentscope-message/react, built by Vite in tests/ts/react.test.ts
// (plain createElement: no JSX plugin). It streams /events.sse (the page's query string
// picks the recording) and renders every block with data attributes the test reads;
// with `reset` in the query it switches to a null URL once the stream is done.
import { createElement as h, useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { useEventStream } from "agentscope-message/react";
import { blockKey, pendingActions } from "agentscope-message";

let renders = 0;
let streamingRenders = 0;

function Block({ block }) {
  const attrs = { "data-block-type": block.type, "data-id": block.id };
  switch (block.type) {
    case "text":
      return h("p", { ...attrs, "data-text-length": block.text.length }, block.text);
    case "thinking":
      return h("p", { ...attrs, "data-text-length": block.thinking.length }, block.thinking);
    case "tool_call":
    case "tool_result":
      return h("div", { ...attrs, "data-name": block.name, "data-state": block.state }, block.name);
    default:
      return h("div", attrs);
  }
}

function App() {
  const [url, setUrl] = useState(`/events.sse${location.search}`);
  const { snapshot, session, error, done } = useEventStream(url);
  useEffect(() => {
    if (done && url !== null && location.search.includes("reset")) setUrl(null);
  }, [done, url]);
  renders += 1;
  if (!done && snapshot.messages.length > 0) streamingRenders += 1;
  const pending = pendingActions(snapshot);
  return h(
    "main",
    {
      id: "app",
      "data-url": url ?? "",
      "data-session": session === null ? "none" : "some",
      "data-done": String(done),
      "data-error": error === null ? "" : String(error),
      "data-renders": renders,
      "data-streaming-renders": streamingRenders,
      "data-pending": pending.length,
      "data-pending-ids": pending.map((p) => `${p.kind}:${p.toolCall.id}`).join(","),
    },
    snapshot.messages.map((msg) =>
      h("article", { key: msg.id, "data-reply-id": msg.id }, msg.content.map((block, i) => h(Block, { key: blockKey(block, i), block }))),
    ),
  );
}

createRoot(document.getElementById("root")).render(h(App));
