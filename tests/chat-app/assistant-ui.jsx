// A page of tests/ts/assistant-ui.test.ts: assistant-ui's own primitives (thread,
// messages, composer, a tool UI answering approvals with `respondToApproval`) over
// `useChatRuntime` of agentscope-message/assistant-ui, against the live service through
// the test server's same-origin `/api` proxy (the query string names the user, the agent
// and the model). The test types into the composer and clicks; it reads the DOM, and the
// `Chat` itself as `window.chat` (its snapshot is compared with the stored messages).
// With `threads=1` in the query: the runtime of `useSessionThreads` (the agent's sessions
// as threads) with assistant-ui's ThreadList primitives (New, the items' triggers,
// titles, delete, and rename through the item's `rename`, its new title read from
// `#rename-title`). The composer's Attach button takes files through the default
// attachment adapter.
import { StrictMode, useLayoutEffect } from "react";
import { createRoot } from "react-dom/client";
import {
  AssistantRuntimeProvider,
  AttachmentPrimitive,
  ComposerPrimitive,
  MessagePrimitive,
  ThreadListItemPrimitive,
  ThreadListPrimitive,
  ThreadPrimitive,
  useAui,
  useAuiState,
} from "@assistant-ui/react";
import { useChat } from "agentscope-message/react";
import { useChatRuntime, useSessionThreads } from "agentscope-message/assistant-ui";
import { query, serviceOptions as options } from "./service-options.js";

function ToolUI({ toolName, argsText, result, status, approval, respondToApproval }) {
  return (
    <div className="tool" data-tool={toolName} data-status={status.type} data-approval={approval === undefined ? "" : String(approval.approved)}>
      <code>{toolName}({argsText})</code>
      {approval !== undefined && approval.approved === undefined ? (
        <span className="approval">
          <button className="approve" onClick={() => respondToApproval({ approved: true })}>Approve</button>
          <button className="deny" onClick={() => respondToApproval({ approved: false })}>Deny</button>
        </span>
      ) : null}
      {result !== undefined ? <pre className="result">{typeof result === "string" ? result : JSON.stringify(result)}</pre> : null}
    </div>
  );
}

const parts = {
  Text: ({ text }) => <p className="text">{text}</p>,
  Reasoning: ({ text }) => <p className="reasoning">{text}</p>,
  tools: { Fallback: ToolUI },
};

const UserMessage = () => (
  <MessagePrimitive.Root className="message user">
    <MessagePrimitive.Parts components={parts} />
  </MessagePrimitive.Root>
);
const AssistantMessage = () => (
  <MessagePrimitive.Root className="message assistant">
    <MessagePrimitive.Parts components={parts} />
  </MessagePrimitive.Root>
);

function Thread() {
  return (
        <ThreadPrimitive.Root>
          <ThreadPrimitive.Viewport>
            <ThreadPrimitive.Messages components={{ UserMessage, AssistantMessage }} />
          </ThreadPrimitive.Viewport>
          <ComposerPrimitive.Root>
            <ComposerPrimitive.Attachments>
              {() => (
                <AttachmentPrimitive.Root className="attachment">
                  <AttachmentPrimitive.Name />
                </AttachmentPrimitive.Root>
              )}
            </ComposerPrimitive.Attachments>
            <ComposerPrimitive.AddAttachment id="attach">Attach</ComposerPrimitive.AddAttachment>
            <ComposerPrimitive.Input id="input" placeholder="Message" />
            <ComposerPrimitive.Send id="send">Send</ComposerPrimitive.Send>
            <ComposerPrimitive.Cancel id="cancel">Stop</ComposerPrimitive.Cancel>
          </ComposerPrimitive.Root>
        </ThreadPrimitive.Root>
  );
}

function App() {
  const chat = useChat(options);
  const runtime = useChatRuntime(chat);
  useLayoutEffect(() => {
    window.chat = chat.chat;
    const main = document.getElementById("app");
    main.dataset.status = chat.status;
    main.dataset.session = chat.sessionId ?? "";
  });
  return (
    <AssistantRuntimeProvider runtime={runtime}>
      <main id="app">
        <Thread />
      </main>
    </AssistantRuntimeProvider>
  );
}

function RenameButton() {
  const aui = useAui();
  return <button className="rename" onClick={() => aui.threadListItem.rename(document.getElementById("rename-title").value)}>Rename</button>;
}

function ItemId() {
  const id = useAuiState((s) => s.threadListItem.id);
  return <code className="id">{id}</code>;
}

const ThreadListItem = () => (
  <ThreadListItemPrimitive.Root className="thread">
    <ItemId />
    <ThreadListItemPrimitive.Trigger className="trigger">
      <ThreadListItemPrimitive.Title />
    </ThreadListItemPrimitive.Trigger>
    <RenameButton />
    <ThreadListItemPrimitive.Delete className="delete">Delete</ThreadListItemPrimitive.Delete>
  </ThreadListItemPrimitive.Root>
);

function ThreadsApp() {
  const { chat, sessions, threadList, sendNew } = useSessionThreads({ ...options, sessionId: query.get("session") });
  const runtime = useChatRuntime(chat, { threadList, sendNew });
  useLayoutEffect(() => {
    window.chat = chat.chat;
    const main = document.getElementById("app");
    main.dataset.status = chat.status;
    main.dataset.session = chat.sessionId ?? "";
    main.dataset.listed = sessions.loading ? "" : String(sessions.sessions.length);
  });
  return (
    <AssistantRuntimeProvider runtime={runtime}>
      <main id="app">
        <ThreadListPrimitive.Root id="threads">
          <ThreadListPrimitive.New id="new">New</ThreadListPrimitive.New>
          <input id="rename-title" />
          <ThreadListPrimitive.Items components={{ ThreadListItem }} />
        </ThreadListPrimitive.Root>
        <Thread />
      </main>
    </AssistantRuntimeProvider>
  );
}

createRoot(document.getElementById("root")).render(
  <StrictMode>
    {query.get("threads") === "1" ? <ThreadsApp /> : <App />}
  </StrictMode>,
);
