// A client component with the explicit entry: nothing loads on import (nor on the
// server); `await init()` fetches the .wasm in the browser.
"use client";
import { useEffect } from "react";
import { init, MsgError, Session } from "agentscope-message/init";
import { codeBeforeInit, rebuild } from "../../rebuild.js";

export default function Page() {
  useEffect(() => {
    const beforeInit = codeBeforeInit(Session, MsgError);
    (async () => {
      await init();
      const bytes = new Uint8Array(await (await fetch("/events.sse")).arrayBuffer());
      document.body.dataset.result = JSON.stringify({ entry: "agentscope-message/init", beforeInit, ...rebuild(new Session(), bytes) });
    })();
  }, []);
  return <p>rebuilding…</p>;
}
