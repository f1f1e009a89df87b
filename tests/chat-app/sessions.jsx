// A page of tests/ts/sessions-browser.test.ts: `useSessions` of agentscope-message/react
// under <StrictMode>, against the live service through the test server's same-origin
// `/api` proxy (the query string names the user, the agent and the new sessions' model),
// and `dataBlock` of agentscope-message/chat on a browser `File`. The test drives it with
// `window.sessionsApi` / `window.attach` and reads the DOM.
import { StrictMode, useEffect } from "react";
import { createRoot } from "react-dom/client";
import { useSessions } from "agentscope-message/react";
import { dataBlock } from "agentscope-message/chat";
import { serviceOptions as options, settle } from "./service-options.js";

window.attach = async (length, type, name) => {
  const bytes = Uint8Array.from({ length }, (_, i) => (i * 7919 + 13) % 256);
  return settle(dataBlock(new File([bytes], name, { type })));
};

function App() {
  // a new options object on every render (as a page writes it): compared by value
  const { sessions, loading, error, create, rename, remove, setPermissionMode, refresh } = useSessions({ ...options, session: { ...options.session } });
  useEffect(() => {
    window.mounts = (window.mounts ?? 0) + 1; // 2 under StrictMode in dev: mount, unmount, mount
  }, []);
  useEffect(() => {
    window.sessionsApi = {
      create: (o) => settle(create(o)),
      rename: (id, name) => settle(rename(id, name)),
      remove: (id) => settle(remove(id)),
      setPermissionMode: (id, mode) => settle(setPermissionMode(id, mode)),
      refresh: () => settle(refresh()),
    };
  }, [create, rename, remove, setPermissionMode, refresh]);
  return (
    <main id="app" data-loading={String(loading)} data-error={error?.code ?? ""}>
      <ul>
        {sessions.map((v) => (
          <li key={v.session.id} data-id={v.session.id} data-status={v.status} data-mode={v.session.state.permission_context.mode}>
            {v.session.config.name}
          </li>
        ))}
      </ul>
      <pre id="sessions" hidden>{JSON.stringify(sessions)}</pre>
    </main>
  );
}

createRoot(document.getElementById("root")).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
