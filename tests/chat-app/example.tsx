// A page of tests/ts/chat-browser.test.ts: the README's example (examples/react-chat/App.tsx,
// copied next to this file by the test) as an app renders it; the query string names the
// user, the agent and the session's model.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import App from "./App.tsx";

const query = new URLSearchParams(location.search);
createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App userId={query.get("user")!} agentId={query.get("agent")!} chatModelConfig={JSON.parse(query.get("model")!)} />
  </StrictMode>,
);
