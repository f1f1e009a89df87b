// The chat shell's two loops (chat.ts): the reload of the stored page and the event
// stream, each performing requests and timers for the state machine (chat-core.ts), which
// decides what a failure means (retry after how long, or give up) and takes in what came.
import { MsgError } from "./errors.js";
import { now, sleep } from "./timing.js";
import type { ChatCore } from "./chat-core.js";
import { checkMessages, type ChatTransport, type HistoryPage } from "./transport.js";

/**
 * A page of the session's stored messages from `transport` (any: a custom one too),
 * checked before the chat takes anything of it: a page that is not what the chat reads
 * (a block that is not an object with a string `type`, …) is `http_error`.
 */
export async function readPage(transport: ChatTransport, sessionId: string, options?: { before?: string; signal?: AbortSignal }): Promise<HistoryPage> {
  const page = await transport.history(sessionId, options);
  if (typeof page !== "object" || page === null) throw new MsgError("http_error", "the history page is not an object");
  checkMessages(page.messages, `GET /sessions/${sessionId}/messages`);
  return page;
}

/** What the loops need of their chat. */
export interface LoopHost {
  readonly core: ChatCore;
  /** The chat's lifetime (aborted when it closes). */
  readonly signal: AbortSignal;
  /** Runs a transition of the core, then performs the effects it asked for. */
  do<T>(transition: () => T): T;
}

/** What {@link Reloader} needs: the latest stored page of the session. */
export interface ReloadHost extends LoopHost {
  history(): Promise<HistoryPage>;
}

/** What {@link runStream} needs. */
export interface StreamHost extends LoopHost {
  /** Opens the session's event stream from `after` (the transport's `stream`). */
  connect(after: string | null, signal: AbortSignal): Promise<Response>;
  /** The connection now open (aborted when the session is found gone). */
  connection(controller: AbortController): void;
  /** Reloads the stored page (before every connect but the first). */
  reload(): Promise<void>;
  /** The connection opened (its bytes replay from `after`): told to the tabs that share it. */
  opened?(): void;
  /** A chunk of the stream, once the core took it in: relayed to the tabs that share it. */
  relay?(chunk: Uint8Array): void;
}

/** The reloads of the stored page, one at a time (see {@link Reloader.refresh}). */
export class Reloader {
  readonly #host: ReloadHost;
  #refreshing: Promise<void> | undefined;
  /** Resolved once the reload on its way failed past the retry attempts (it goes on). */
  #tired: Promise<void> = Promise.resolve();
  /** a reload asked for while one was on its way: it follows that one (waiting for idle if any asker wanted it) */
  #refreshAgain: { untilIdle: boolean; done: Promise<void> } | undefined;

  constructor(host: ReloadHost) {
    this.#host = host;
  }

  /**
   * Reloads the latest stored page (after a run ended, or on a reconnect); one at a time:
   * one asked for while another is on its way follows it (that one's page may have been
   * read before what asks, e.g. a reply that ended meanwhile). A failed reload (an HTTP
   * 5xx, a timeout, a broken connection) is tried again with the reconnect backoff
   * (`retry`): it is what repairs a reply joined mid-way and puts in the stored replies.
   * Past the attempts it goes on at the longest delay until it succeeds (or the chat
   * closes), with `error` saying so; what waits for it is let go then.
   */
  refresh(untilIdle: boolean): Promise<void> {
    if (this.#refreshing !== undefined) {
      if (this.#refreshAgain !== undefined) {
        this.#refreshAgain.untilIdle ||= untilIdle;
        return Promise.race([this.#refreshAgain.done, this.#tired]);
      }
      const again = { untilIdle, done: Promise.resolve() };
      again.done = this.#refreshing.then(() => {
        this.#refreshAgain = undefined;
        return this.#host.core.closed || this.#host.core.fatal ? undefined : this.refresh(again.untilIdle);
      });
      this.#refreshAgain = again;
      return Promise.race([again.done, this.#tired]);
    }
    let tire = () => {};
    this.#tired = new Promise<void>((resolve) => (tire = resolve));
    this.#refreshing = (async () => {
      try {
        let wait = 100;
        let failures = 0;
        for (let i = 0; ; i++) {
          let page: HistoryPage;
          // (the replies met before the page was asked for: a later one is not in it yet)
          const before = new Set(this.#host.core.tailReplies);
          try {
            page = await this.#host.history();
          } catch (e) {
            if (this.#host.core.closed) return;
            failures += 1;
            const next = this.#host.do(() => this.#host.core.reloadFailed(e, failures));
            if (next === null) return;
            if (next.tired) tire(); // (what waits for it goes on: the stream reconnects meanwhile)
            await sleep(next.retryMs, this.#host.signal);
            if (this.#host.core.closed || this.#host.core.fatal) return;
            continue;
          }
          this.#host.do(() => this.#host.core.reloaded());
          if (!untilIdle || !page.isRunning || i >= 40) {
            this.#host.do(() => this.#host.core.merge(page, before));
            return;
          }
          await sleep(wait, this.#host.signal);
          wait = Math.min(wait * 1.5, 1000);
          if (this.#host.core.closed) return;
        }
      } finally {
        this.#refreshing = undefined;
        tire();
      }
    })();
    return Promise.race([this.#refreshing, this.#tired]);
  }
}

/**
 * Keeps the session's event stream open: connects (after the first time, or from the
 * start with `reloadFirst` (`reconnect()`), once the stored page is reloaded) from the latest page's cursor, feeds its bytes to the core, drops a
 * connection with no byte for `stallMs`, and reconnects after the backoff the core
 * decides, until it says the stream is lost (or the chat closes).
 */
export async function runStream(host: StreamHost, reloadFirst = false, until?: AbortSignal): Promise<void> {
  let first = !reloadFirst;
  // `until` (the session came to rest: idleStreamMs) ends the loop as the chat's close does
  const over = () => host.core.closed || until?.aborted === true;
  // (the shell aborts `until` when the chat closes too)
  const waits = until ?? host.signal;
  while (!over() && !host.core.fatal) {
    const controller = new AbortController();
    host.connection(controller);
    const stop = () => controller.abort(new MsgError("closed", "the chat was closed"));
    waits.addEventListener("abort", stop, { once: true });
    const opened = now();
    host.core.streamConnecting();
    try {
      if (!first) await host.reload();
      first = false;
      if (over()) return; // (at rest or closed during the reload)
      // no byte (not even the headers) for stallMs: the connection is dropped and replaced
      const stallMs = host.core.options.stallMs;
      let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
      let stall: ReturnType<typeof setTimeout> | undefined;
      const arm = () => {
        clearTimeout(stall);
        if (stallMs === Infinity) return;
        stall = setTimeout(() => {
          controller.abort(new MsgError("service_unavailable", `the event stream stalled: no byte for ${stallMs} ms`));
          void reader?.cancel().catch(() => {});
        }, stallMs);
      };
      arm();
      try {
        const response = await host.connect(host.core.cursor, controller.signal);
        if (response.body === null) throw new MsgError("service_unavailable", "the event stream has no body");
        host.do(() => host.core.streamOpened());
        host.opened?.();
        reader = response.body.getReader();
        arm();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          arm();
          host.do(() => host.core.feed(value));
          host.relay?.(value);
        }
      } finally {
        clearTimeout(stall);
        reader?.releaseLock();
      }
      throw new MsgError("service_unavailable", "the event stream ended");
    } catch (e) {
      if (over()) return;
      const error = controller.signal.aborted && controller.signal.reason instanceof MsgError ? controller.signal.reason : e;
      const next = host.do(() => host.core.streamFailed(error, now() - opened));
      if (next === null) return;
      await sleep(next.retryMs * (0.8 + Math.random() * 0.4), waits);
    } finally {
      waits.removeEventListener("abort", stop);
    }
  }
}

