import { bootstrapApplication } from "@angular/platform-browser";
import { ChatComponent } from "./chat.component";

bootstrapApplication(ChatComponent).catch((e) => console.error(e));
