// The documentation's TypeScript example ("TypeScript 支持" in the AgentScope message and
// event page), unchanged except for the import path. `stream` is a recorded AgentScope
// stream (examples/recordings/c_react_3_tools_2_iters), read as the page reads SSE.
import { Msg, AssistantMsg, EventType } from "../../pkg/dist/entry-message.js";
import type { AgentEvent } from "../../pkg/dist/event.js";
import { recordingEvents, root } from "./helpers.ts";

async function* events(): AsyncGenerator<AgentEvent> {
  for (const data of recordingEvents(`${root}examples/recordings/c_react_3_tools_2_iters`, "events.sse")) {
    yield JSON.parse(data) as AgentEvent;
  }
}
const stream = events();

// ---- the documentation's example, verbatim ----
let msg: Msg | null = null;
for await (const event of stream) {
    if (event.type === EventType.REPLY_START) {
        msg = new AssistantMsg({
			name: event.name,
			content: [],
			id: event.reply_id
		});
    } else {
        msg?.appendEvent(event);
    }
}
// ---- end of the example ----

export const rebuilt: Msg | null = msg;
