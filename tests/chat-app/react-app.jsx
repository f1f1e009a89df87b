// A page of tests/ts/chat-browser.test.ts (issue 29): `useChat` of agentscope-message/react
// under <StrictMode> with what it returns of the whole app: `sessionId: null` (nothing
// open), `connection` apart from `status` (`stopping` included), the session's `state`,
// `hasMore` / `loadOlder`. Against the live service through the test server's same-origin
// `/api` proxy (the query string names the user, the agent and the model; `session=none`
// starts with `sessionId: null`). The test drives it with `window.app` / `window.setSession`
// and reads the DOM (and the `Chat` itself, `window.chat`); each distinct rendered
// `status/connection` lands in `window.rendered`.
import { StrictMode, useEffect, useLayoutEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { useChat } from "agentscope-message/react";
import { query, serviceOptions as options } from "./service-options.js";

window.rendered = [];

function App() {
  const [sessionId, setSessionId] = useState(query.get("session") === "none" ? null : (query.get("session") ?? undefined));
  const chat = useChat({ ...options, sessionId });
  const { messages, status, connection, error, state, session, hasMore, send, stop, loadOlder, post } = chat;
  useLayoutEffect(() => {
    const seen = `${status}/${connection}`;
    if (window.rendered.at(-1) !== seen) window.rendered.push(seen);
    window.setSession = setSessionId;
    window.chat = chat.chat; // the Chat itself, once open
  });
  useEffect(() => {
    window.mounts = (window.mounts ?? 0) + 1; // 2 under StrictMode in dev: mount, unmount, mount
  }, []);
  useEffect(() => {
    const settle = (p) => p.then((value) => ({ value: value ?? null }), (e) => ({ error: e.code ?? String(e), message: e.message }));
    window.app = {
      send: (input) => settle(send(input)),
      post: (input) => settle(post(input)),
      stop: () => settle(stop()),
      loadOlder: () => settle(loadOlder()),
      /** send, then stop at once (the same task): both settled. */
      sendThenStop: (input) => Promise.all([settle(send(input)), settle(stop())]),
    };
  }, [send, stop, loadOlder, post]);
  return (
    <main id="app" data-status={status} data-connection={connection} data-session={chat.sessionId ?? ""} data-error={error?.code ?? ""}
      data-has-more={String(hasMore)} data-title={session?.session.config.name ?? ""}>
      <p id="status">{status}</p>
      <ul id="tasks">
        {(state?.tasks_context.tasks ?? []).map((t) => (
          <li key={t.id} data-state={t.state}>{t.subject}</li>
        ))}
      </ul>
      <p id="mode">{state?.permission_context.mode ?? ""}</p>
      {messages.map((m) => (
        <article key={m.id} data-id={m.id} data-role={m.role} />
      ))}
      <pre id="state" hidden>{JSON.stringify(state)}</pre>
      <pre id="messages" hidden>{JSON.stringify(messages)}</pre>
    </main>
  );
}

createRoot(document.getElementById("root")).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
