// A chat with an AgentScope 2.0 service (`agentscope.app.create_app`), served under
// /api by the page's own origin (the service sends no CORS headers).
import { useState } from "react";
import { useChat } from "agentscope-message/react";
// the API without loading the .wasm on import (useChat loads it when the chat opens)
import { blockKey, type ContentBlock } from "agentscope-message/init";

function Block({ block }: { block: ContentBlock }) {
  switch (block.type) {
    case "text":
      return <p>{block.text}</p>;
    case "thinking":
      return <p className="thinking">{block.thinking}</p>;
    case "tool_call":
      return <pre>{`${block.name}(${block.input}) · ${block.state}`}</pre>;
    case "tool_result": {
      const output = typeof block.output === "string" ? block.output
        : block.output.map((item) => (item.type === "text" ? item.text : `[${item.source.media_type}]`)).join("");
      return <pre>{`→ ${output} · ${block.state}`}</pre>;
    }
    default:
      return null; // hint and data blocks
  }
}

export interface ChatProps {
  userId: string;
  agentId: string;
  /** The session's model, e.g. {type, credential_id, model, parameters}. */
  chatModelConfig: Record<string, unknown>;
}

export default function App({ userId, agentId, chatModelConfig }: ChatProps) {
  const { messages, status, error, pendingActions, send, stop, confirm } = useChat({
    baseUrl: `${location.origin}/api`,
    userId,
    agentId,
    session: { chat_model_config: chatModelConfig },
  });
  const [text, setText] = useState("");
  const busy = status === "submitted" || status === "streaming" || status === "stopping";
  return (
    <main>
      {messages.map((m) => (
        <article key={m.id} className={m.role}>
          {m.content.map((block, i) => <Block key={blockKey(block, i)} block={block} />)}
        </article>
      ))}
      {pendingActions.filter((a) => a.kind === "confirm").map(({ toolCall }) => (
        <p key={toolCall.id}>
          Run {toolCall.name} {toolCall.input}?{" "}
          <button onClick={() => confirm(toolCall.id, true).catch(console.error)}>Approve</button>
          <button onClick={() => confirm(toolCall.id, false).catch(console.error)}>Deny</button>
        </p>
      ))}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          send(text).catch(console.error);
          setText("");
        }}
      >
        <input value={text} onChange={(e) => setText(e.target.value)} placeholder="Say something" />
        <button disabled={busy || status === "awaiting_input" || text === ""}>Send</button>
        <button type="button" onClick={() => stop().catch(console.error)} disabled={!busy}>Stop</button>
      </form>
      <p className="status">{status}{error && ` — ${error.message}`}</p>
    </main>
  );
}
