// A page of tests/ts/frameworks.test.ts: `createChat` of agentscope-message/svelte
// (ChatSvelte.svelte), or with `?sessions` `createSessions` beside a chat whose session
// the test switches (SessionsSvelte.svelte), against the live service through the test
// server's same-origin `/api` proxy. With `?defer`, the component mounts only when the
// test calls `window.mountNow()` (the .wasm must not be requested before).
import { mount } from "svelte";
import ChatSvelte from "./ChatSvelte.svelte";
import SessionsSvelte from "./SessionsSvelte.svelte";

const query = new URLSearchParams(location.search);
const mountNow = () => mount(query.has("sessions") ? SessionsSvelte : ChatSvelte, { target: document.getElementById("root") });
if (query.has("defer")) window.mountNow = mountNow;
else mountNow();
