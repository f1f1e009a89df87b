// A page of tests/ts/frameworks.test.ts: `useChat` of agentscope-message/vue (ChatVue.vue)
// against the live service through the test server's same-origin `/api` proxy. With
// `?defer`, the component mounts only when the test calls `window.mountNow()` (the .wasm
// must not be requested before).
import { createApp } from "vue";
import ChatVue from "./ChatVue.vue";

const mountNow = () => createApp(ChatVue).mount("#root");
if (new URLSearchParams(location.search).has("defer")) window.mountNow = mountNow;
else mountNow();
