// The chat of tests/ts/angular-cli.test.ts: an `injectChat` component like the docs' (docs/chat.md,
// Angular), compiled ahead of time by the Angular CLI (`ng build`, `ng serve`). The service's
// user, agent and model come from the query string; `/api` is the same-origin proxy to it.
import { Component, computed } from "@angular/core";
import { injectChat } from "agentscope-message/angular";

const query = new URLSearchParams(location.search);

@Component({
  selector: "app-root",
  template: `
    <main id="app" [attr.data-status]="chat.status()" [attr.data-session]="chat.sessionId() ?? ''"
      [attr.data-error]="chat.error()?.code ?? ''" [attr.data-message]="chat.error()?.message ?? ''">
      @for (m of chat.messages(); track m.id) {
        <article [attr.data-role]="m.role">
          @for (b of m.content; track $index) {
            @if (b.type === "text") { <p>{{ b.text }}</p> }
          }
        </article>
      }
      <button id="send" (click)="chat.send(text())" [disabled]="chat.status() !== 'ready'">Send</button>
      <pre id="messages" hidden>{{ json() }}</pre>
    </main>`,
})
export class ChatComponent {
  chat = injectChat({
    baseUrl: `${location.origin}/api`,
    userId: query.get("user") ?? "",
    agentId: query.get("agent") ?? "",
    session: { chat_model_config: JSON.parse(query.get("model") ?? "{}") },
  });
  text = () => query.get("text") ?? "hello";
  json = computed(() => JSON.stringify(this.chat.messages()));
}
