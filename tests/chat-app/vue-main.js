// A page of tests/ts/frameworks.test.ts: `useChat` of agentscope-message/vue (ChatVue.vue),
// or with `?sessions` `useSessions` beside a chat whose session the test switches
// (SessionsVue.vue), against the live service through the test server's same-origin
// `/api` proxy. With `?defer`, the component mounts only when the test calls
// `window.mountNow()` (the .wasm must not be requested before).
import { createApp } from "vue";
import ChatVue from "./ChatVue.vue";
import SessionsVue from "./SessionsVue.vue";

const query = new URLSearchParams(location.search);
const mountNow = () => createApp(query.has("sessions") ? SessionsVue : ChatVue).mount("#root");
if (query.has("defer")) window.mountNow = mountNow;
else mountNow();
