// The chat's run watchdog (watchdog.ts) wired to its chat: what it asks the service (the
// status, the stored page) and what its verdicts do to the state machine (chat-core.ts).
// Part of the chat's shell (chat.ts). docs/chat.md, "Status".
import type { ChatCore } from "./chat-core.js";
import { readPage, type Reloader } from "./chat-io.js";
import type { ChatStatus } from "./chat-types.js";
import type { ChatTransport } from "./transport.js";
import { RunWatchdog } from "./watchdog.js";

/** What the watchdog needs of its chat. */
export interface WatchedChat {
  readonly core: ChatCore;
  readonly transport: ChatTransport;
  readonly sessionId: string;
  /** the chat's lifetime (aborted at its close) */
  readonly signal: AbortSignal;
  readonly reloader: Reloader;
  /** runs a transition of the core, then performs its effects */
  do<T>(transition: () => T): T;
  /** the chat's status now */
  status(): ChatStatus;
  report(error: unknown): void;
  /** at rest with no stream of its own (steered): the status says when something runs */
  resting(): boolean;
  /** `request`, whose 404 ends the chat (its session was deleted elsewhere) */
  gone<T>(request: Promise<T>): Promise<T>;
}

/** The watchdog of `chat`'s runs (`statusPollMs`, `lostRunMs`). */
export function watchRuns(chat: WatchedChat, options: { statusPollMs: number; lostRunMs: number }): RunWatchdog {
  const { core } = chat;
  const page = () => readPage(chat.transport, chat.sessionId, { signal: chat.signal });
  /** the stored page's cursor the last look at rest saw */
  let restCursor: string | null | undefined;
  return new RunWatchdog(
    {
      closed: () => core.closed,
      watched: () => core.watched(chat.status()),
      mayLose: () => core.mayLose(),
      stopWaits: () => core.stopWaits(),
      status: () => chat.gone(chat.transport.status(chat.sessionId, { signal: chat.signal })),
      lost: (quietMs) => chat.do(() => core.markLost(quietMs)),
      // whether the input posted last may still wait for its run (see `ChatCore.awaited`)
      awaited: async () => {
        const submit = core.submit;
        return submit !== null && core.awaited(submit, await page());
      },
      // the service runs nothing while a reply was in flight (or an input was posted): a run
      // over without a `REPLY_END` (a stale confirmation, a stray `REPLY_START`, a run whose
      // instance died) is settled, the stored history reloaded
      over: async () => {
        chat.do(() => core.runOver());
        await chat.reloader.refresh(false);
        if (core.closed) return; // closed during the reload: its session is freed
        chat.do(() => core.runOverReloaded());
      },
      report: (e) => chat.report(e),
      resting: () => chat.resting(),
      running: () => {
        if (!core.closed) chat.do(() => core.runSeen());
      },
      moved: async () => {
        // the stored page moved on since the chat's (a new cursor, not seen at rest before):
        // the stream replays from the chat's cursor what ran meanwhile
        const now = await chat.gone(page());
        const moved = now.isRunning || (now.eventCursor !== core.cursor && now.eventCursor !== restCursor);
        restCursor = now.eventCursor;
        return moved;
      },
    },
    options,
  );
}
