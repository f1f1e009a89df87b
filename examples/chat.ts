// A chat with an AgentScope 2.0 service in plain TypeScript: node ≥ 20, an ES module
// project. (In a page: the same with the service behind the page's own origin, since it
// sends no CORS headers.) The argument is the JSON line scripts/agentscope-service prints.
import { AgentScopeTransport, Chat } from "agentscope-message/chat";

const service = JSON.parse(process.argv[2] ?? "{}");
const chat = await Chat.open(
  new AgentScopeTransport({
    baseUrl: service.urls[0],
    userId: service.user_id,
    agentId: service.agent_id,
    session: { chat_model_config: service.chat_model_config }, // the session's model
  }),
);

await chat.send("confirm"); // the scripted model asks to run a Bash command
let snapshot = await chat.settled(); // status "awaiting_input"
for (const action of snapshot.pendingActions) {
  console.log(`approving ${action.toolCall.name} ${action.toolCall.input}`);
  await chat.confirm(action.toolCall.id, true);
}
snapshot = await chat.settled(); // status "ready": the reply has ended
const reply = snapshot.messages.at(-1);
for (const block of reply?.content ?? []) {
  if (block.type === "text") console.log(block.text);
}
chat.close();
