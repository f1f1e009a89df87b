// A page of tests/ts/frameworks.test.ts: `createChat` of agentscope-message/svelte
// (ChatSvelte.svelte) against the live service through the test server's same-origin
// `/api` proxy. With `?defer`, the component mounts only when the test calls
// `window.mountNow()` (the .wasm must not be requested before).
import { mount } from "svelte";
import ChatSvelte from "./ChatSvelte.svelte";

const mountNow = () => mount(ChatSvelte, { target: document.getElementById("root") });
if (new URLSearchParams(location.search).has("defer")) window.mountNow = mountNow;
else mountNow();
