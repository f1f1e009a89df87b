// A page of tests/ts/frameworks.test.ts: `injectChat` of agentscope-message/angular, or with
// `?sessions` `injectSessions` beside a chat whose session the test switches, against the
// live service through the test server's same-origin `/api` proxy. Angular compiles the
// components in the page (JIT, `@angular/compiler`), zoneless; the decorators are called as
// functions, so no build plugin is needed. With `?defer`, the app boots only when the test
// calls `window.mountNow()` (the .wasm must not be requested before).
import "@angular/compiler";
import * as core from "@angular/core";
import { Component, Input, computed, createEnvironmentInjector, effect, input, signal } from "@angular/core";
import { bootstrapApplication } from "@angular/platform-browser";
import { injectChat, injectSessions } from "agentscope-message/angular";
import { query, serviceOptions, settle } from "./service-options.js";

// The messages of a chat-app page: each message's text blocks, and the whole JSON the test
// reads (#messages). (A plain input: signal inputs are found by Angular's compiler plugin.)
const Messages = Component({
  selector: "app-messages",
  inputs: ["messages"],
  template: `
    @for (m of messages; track m.id) {
      <article [attr.data-role]="m.role">
        @for (b of texts(m); track $index) { <p>{{ b.text }}</p> }
      </article>
    }
    <pre id="messages" hidden>{{ json(messages) }}</pre>`,
})(
  class {
    messages = [];
    json = (messages) => JSON.stringify(messages);
    texts = (m) => m.content.filter((b) => b.type === "text");
  },
);

const ChatPage = Component({
  selector: "app-root",
  imports: [Messages],
  template: `
    <main id="app" [attr.data-status]="chat.status()" [attr.data-session]="chat.sessionId() ?? ''" [attr.data-error]="chat.error()?.code ?? ''"
      [attr.data-pending]="pending()">
      <app-messages [messages]="chat.messages()" />
    </main>`,
})(
  class {
    // the query string names the user, the agent, the session's model and (to resume) the session
    chat = injectChat({ ...serviceOptions, sessionId: query.get("session") ?? undefined });
    pending = computed(() => this.chat.pendingActions().map((a) => a.toolCall.id).join(","));
    constructor() {
      const { send, stop, confirm, chat } = this.chat;
      window.app = { send, stop, confirm, rawSessionId: () => chat()?.sessionId ?? null };
    }
  },
);

// A session list (`injectSessions`) beside a chat (`injectChat`) whose session is a signal
// the test switches (`sessionsPage.open(id)`; null: nothing open).
const SessionsPage = Component({
  selector: "app-root",
  imports: [Messages],
  template: `
    <main id="app" [attr.data-status]="chat.status()" [attr.data-connection]="chat.connection()" [attr.data-session]="chat.sessionId() ?? ''"
      [attr.data-error]="chat.error()?.code ?? ''" [attr.data-loading]="String(list.loading())" [attr.data-list-error]="list.error()?.code ?? ''">
      <ul>
        @for (v of list.sessions(); track v.session.id) { <li [attr.data-id]="v.session.id">{{ v.session.config.name }}</li> }
      </ul>
      <app-messages [messages]="chat.messages()" />
      <pre id="sessions" hidden>{{ sessionsJson() }}</pre>
    </main>`,
})(
  class {
    String = String;
    selected = signal(query.has("new") ? undefined : query.get("session"));
    chat = injectChat({ ...serviceOptions, sessionId: this.selected });
    list = injectSessions(serviceOptions);
    sessionsJson = computed(() => JSON.stringify(this.list.sessions()));
    constructor() {
      // every raw chat opened, in order, and every view of it: the test reads the chats'
      // connections and which messages each session showed
      const chats = [];
      const views = [];
      effect(() => {
        const c = this.chat.chat();
        if (c !== null && !chats.includes(c)) chats.push(c);
        views.push({ sessionId: this.chat.sessionId(), status: this.chat.status(), ids: this.chat.messages().map((m) => m.id) });
      });
      const { create, rename, remove, refresh } = this.list;
      window.sessionsPage = {
        open: (id) => this.selected.set(id),
        send: (text) => settle(this.chat.send(text)),
        chats: () => chats.map((c) => ({ sessionId: c.sessionId, connection: c.getSnapshot().connection })),
        views: () => views,
        create: (o) => settle(create(o)),
        rename: (id, name) => settle(rename(id, name)),
        remove: (id) => settle(remove(id)),
        refresh: () => settle(refresh()),
      };
    }
  },
);

// `?child=ID`: the docs' component (docs/chat.md, Angular), its session a required signal
// input its parent binds: the chat opens once the input is set (no session made first)
const ChatChild = Component({
  selector: "app-chat",
  template: `
    <main id="app" [attr.data-status]="chat.status()" [attr.data-session]="chat.sessionId() ?? ''" [attr.data-error]="chat.error()?.code ?? ''">
      <app-messages [messages]="chat.messages()" />
    </main>`,
  imports: [Messages],
})(
  class {
    sessionId = input.required();
    chat = injectChat({ ...serviceOptions, ...(query.has("baduser") ? { userId: "" } : {}), sessionId: this.sessionId });
  },
);
// (what Angular's compiler plugin says of a signal input; JIT in the page needs it said)
Input({ isSignal: true, alias: "sessionId", required: true })(ChatChild.prototype, "sessionId");
const ChildPage = Component({
  selector: "app-root",
  imports: [ChatChild],
  template: `<app-chat [sessionId]="id" />`,
})(
  class {
    id = query.get("child");
  },
);

const root = query.has("sessions") ? SessionsPage : query.has("child") ? ChildPage : ChatPage;
// (Angular 19 names it provideExperimentalZonelessChangeDetection)
const zoneless = core.provideZonelessChangeDetection ?? core.provideExperimentalZonelessChangeDetection;
const mountNow = () => bootstrapApplication(root, { providers: [zoneless()] });
if (query.has("defer")) window.mountNow = mountNow;
else {
  const booted = mountNow();
  // injectChat outside an injection context, and with an injector of its own: open until
  // that injector is destroyed
  window.injectorChecks = async () => {
    let outside = "";
    try {
      injectChat(serviceOptions);
    } catch (e) {
      outside = e.message;
    }
    // a destroyed injector: Angular's NG0205, and nothing opened
    const gone = createEnvironmentInjector([], (await booted).injector);
    gone.destroy();
    let destroyed = "";
    try {
      injectChat({ ...serviceOptions, injector: gone });
    } catch (e) {
      destroyed = e.message;
    }
    const injector = createEnvironmentInjector([], (await booted).injector);
    const chat = injectChat({ ...serviceOptions, injector });
    // (a new chat: its first send makes its session and opens it)
    await chat.send("hello");
    while (chat.status() !== "ready" || chat.connection() !== "open") await new Promise((r) => setTimeout(r, 20));
    const before = chat.chat().getSnapshot().connection;
    injector.destroy();
    return { outside, destroyed, sessionId: chat.sessionId(), before, after: chat.chat().getSnapshot().connection };
  };
}
