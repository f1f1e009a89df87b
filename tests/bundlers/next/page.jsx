// A client component with the zero-config import: Next.js also renders it on the server
// at build time, where the package loads its .wasm in node; in the browser it fetches it.
// The page rebuilds the recording served at /events.sse into <body data-result>.
"use client";
import { useEffect } from "react";
import { Session } from "agentscope-message";
import { rebuild } from "../rebuild.js";

export default function Page() {
  useEffect(() => {
    fetch("/events.sse")
      .then((response) => response.arrayBuffer())
      .then((buffer) => {
        const result = rebuild(new Session(), new Uint8Array(buffer));
        document.body.dataset.result = JSON.stringify({ entry: "agentscope-message", ...result });
      });
  }, []);
  return <p>rebuilding…</p>;
}
