// A page of tests/ts/chat-browser.test.ts: `useChat` of agentscope-message/react under
// <StrictMode>, against the live service through the test server's same-origin `/api`
// proxy (the query string names the user, the agent and the session's model). The
// package is imported at the top of the module: the UI must paint before the .wasm
// arrives. The test drives it with `window.app` and reads the DOM.
import { StrictMode, useEffect, useLayoutEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { useChat } from "agentscope-message/react";
import { blockKey } from "agentscope-message/init";

const query = new URLSearchParams(location.search);
const options = {
  baseUrl: `${location.origin}/api`,
  agentId: query.get("agent"),
  session: { chat_model_config: JSON.parse(query.get("model")) },
  ...(query.has("throttle") ? { throttleMs: Number(query.get("throttle")) } : {}),
  // (its tests count each chat's own stream: kept, see service-options.js)
  idleStreamMs: Infinity,
  shareStream: false,
};

let renders = 0;
window.firstCommit = null;

function Block({ block }) {
  const attrs = { "data-block-type": block.type, "data-id": block.id };
  switch (block.type) {
    case "text":
      return <p {...attrs}>{block.text}</p>;
    case "thinking":
      return <p {...attrs}>{block.thinking}</p>;
    case "tool_call":
    case "tool_result":
      return <div {...attrs} data-state={block.state}>{block.name}</div>;
    default:
      return <div {...attrs} />;
  }
}

/** Sets state in an effect per change of `messages`: what an app that syncs derived state does. */
function ChangeCounter({ messages }) {
  const [changes, setChanges] = useState(0);
  useEffect(() => {
    setChanges((n) => n + 1);
  }, [messages]);
  return <p id="changes" data-count={changes} />;
}

function App() {
  // with `badFirst`, no user at first (the open fails), then the test sets the real one
  const [userId, setUserId] = useState(query.has("badFirst") ? "" : query.get("user"));
  // with `twoUrls=<a closed origin>`, a new array on every render: an instance that refuses connections, then the live one
  const baseUrl = query.has("twoUrls") ? [`${query.get("twoUrls")}/api`, options.baseUrl] : options.baseUrl;
  const { messages, status, error, pendingActions, sessionId, send, stop, confirm, submitExternal } = useChat({ ...options, baseUrl, userId });
  renders += 1;
  useLayoutEffect(() => {
    window.firstCommit ??= { at: performance.now(), status };
    window.statuses ??= [];
    const seen = `${userId ? "user" : "none"}:${status}`;
    if (window.statuses.at(-1) !== seen) window.statuses.push(seen);
    window.setUser = setUserId;
  });
  useEffect(() => {
    window.mounts = (window.mounts ?? 0) + 1; // 2 under StrictMode in dev: mount, unmount, mount
  }, []);
  useEffect(() => {
    window.app = { send, stop, confirm, submitExternal };
  }, [send, stop, confirm, submitExternal]);
  return (
    <main id="app" data-status={status} data-session={sessionId ?? ""} data-renders={renders} data-error={error?.code ?? ""}
      data-pending={pendingActions.map((a) => `${a.kind}:${a.toolCall.id}`).join(",")}>
      <p id="status">{status}</p>
      {messages.map((m) => (
        <article key={m.id} data-id={m.id} data-role={m.role}>
          {m.content.map((b, i) => <Block key={blockKey(b, i)} block={b} />)}
        </article>
      ))}
      <ChangeCounter messages={messages} />
      <pre id="messages" hidden>{JSON.stringify(messages)}</pre>
    </main>
  );
}

createRoot(document.getElementById("root")).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
