// The Vue and Svelte bindings in node, outside a component, where no service is needed:
// options the transport refuses at once (an empty userId) give a view with status `error`
// and the transport's `invalid_argument`, from the binding's first view on; the actions
// reject with it and nothing is requested. (Found by a hostile test: the refusal reached
// the binding's onChange before the binding held its handle, a ReferenceError.) React and
// Angular run the same core (ts/binding.ts) and are tested in Chromium.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ChatView } from "../../pkg/dist/binding.js";
import { MsgError } from "../../pkg/dist/chat.js";
import { createChat } from "../../pkg/dist/svelte.js";
import { useChat } from "../../pkg/dist/vue.js";

const refused = { baseUrl: "http://127.0.0.1:9", userId: "", agentId: "agent" };
const fetched: string[] = [];
const fetch = async (url: RequestInfo | URL): Promise<Response> => {
  fetched.push(String(url));
  throw new Error("no request expected");
};

test("vue useChat: an empty userId is status error with invalid_argument; send rejects with it; no request", async () => {
  const chat = useChat({ ...refused, fetch });
  assert.equal(chat.status.value, "error");
  assert.ok(chat.error.value instanceof MsgError);
  assert.equal(chat.error.value.code, "invalid_argument");
  assert.match(chat.error.value.message, /userId/);
  assert.equal(chat.chat.value, null);
  await assert.rejects(chat.send("hello"), (e: MsgError) => e.code === "invalid_argument");
  assert.deepEqual(fetched, []);
});

test("svelte createChat: the same, from the store's first value", async () => {
  const chat = createChat({ ...refused, fetch });
  const views: ChatView[] = [];
  const stop = chat.subscribe((v) => views.push(v));
  stop();
  assert.deepEqual(views.map((v) => [v.status, v.error?.code]), [["error", "invalid_argument"]]);
  await assert.rejects(chat.send("hello"), (e: MsgError) => e.code === "invalid_argument");
  chat.close();
  assert.deepEqual(fetched, []);
});
