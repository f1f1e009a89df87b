// The faults of the chat's simulation (issue 36, item 3): a `fetch` wrapped around the
// simulated service's that, drawing from a seeded random source, fails requests (5xx in
// bursts longer than a retry budget, 409, a connection lost before or after the service
// applied a POST), stalls response headers or bodies, and damages event streams (frames
// dropped, duplicated, swapped with the next, held back, cut mid-frame, or delivered many
// to a chunk). Every delay is a `setTimeout` (the explorer's virtual clock), so a seed
// replays the same faults. What was injected is logged for the schedule's trace.

import type { Random } from "./random.ts";
import { requestOf } from "./service.ts";

/** How often each fault happens (each a probability per request or per frame, 0 = never). */
export interface FaultRates {
  /** A request answered 500/502/503 (then a burst: the next 0–19 requests of its route too). */
  serverError: number;
  /** A request answered 409 with the service's detail (a POST only). */
  busy: number;
  /** A POST whose connection fails before it reaches the service (nothing applied). */
  lostBefore: number;
  /** A POST whose connection fails after the service applied it (the answer is lost). */
  lostAfter: number;
  /** Response headers held back 1–8 s. */
  stallHeaders: number;
  /** A response body (not a stream's) held back 1–8 s after its first bytes. */
  stallBody: number;
  /** Per frame of an event stream: the frame is dropped. */
  drop: number;
  /** Per frame: the frame is sent twice. */
  duplicate: number;
  /** Per frame: the frame is swapped with the next one. */
  reorder: number;
  /** Per frame: the stream is held back 0.5–6 s before it. */
  stallFrame: number;
  /** Per frame: the stream is cut in the middle of it (the body errors). */
  cut: number;
  /** Per frame: the frames queued are sent in one chunk (else one frame a chunk). */
  batch: number;
}

/** No faults at all. */
export const NO_FAULTS: FaultRates = {
  serverError: 0,
  busy: 0,
  lostBefore: 0,
  lostAfter: 0,
  stallHeaders: 0,
  stallBody: 0,
  drop: 0,
  duplicate: 0,
  reorder: 0,
  stallFrame: 0,
  cut: 0,
  batch: 0,
};

/** A fault a schedule asks for (see {@link Faults.plan}). */
export type Planned =
  | { kind: "error" }
  | { kind: "lostBefore" }
  | { kind: "lostAfter" }
  | { kind: "hold"; ms: number }
  /** answered 200 `{"status": "started"}` for the service, which never gets it (an instance that died right after answering) */
  | { kind: "swallow" }
  /** the service's answer with its first message's first block made `null` (an empty page: a message of one `null` block added) */
  | { kind: "malformed" };

/** Waits `ms` on the (virtual) clock; rejects with the signal's reason once it aborts. */
function sleep(ms: number, signal: AbortSignal | null | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", abort, { once: true });
  });
}

/** The route of a request, for bursts: its method and path with ids replaced. */
export function routeOf(method: string, url: URL): string {
  return `${method} ${url.pathname.replace(/[0-9a-f]{32}/g, ":id")}`;
}

const FRAME_END = "\n\n";

/**
 * The faults of one schedule, around the simulated service's `fetch`. `enabled` false lets
 * every request through unharmed (the explorer's "the service is reachable again").
 */
export class Faults {
  #enabled = true;
  /** Waits on a hung instance, released when the faults stop (the instance answers again). */
  readonly #hangWaits = new Set<() => void>();

  /** Whether faults happen; set false, a hung instance answers again at once. */
  get enabled(): boolean {
    return this.#enabled;
  }

  set enabled(on: boolean) {
    this.#enabled = on;
    if (!on) for (const release of [...this.#hangWaits]) release();
  }

  /** Waits `ms` on a hung instance: until then, the faults stopping, or `signal` aborting (rejects with its reason). */
  #hangWait(ms: number, signal: AbortSignal | null): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const done = () => {
        clearTimeout(timer);
        this.#hangWaits.delete(done);
        signal?.removeEventListener("abort", abort);
        resolve();
      };
      const abort = () => {
        done();
        reject(signal!.reason);
      };
      const timer = setTimeout(done, ms);
      this.#hangWaits.add(done);
      signal?.addEventListener("abort", abort, { once: true });
    });
  }
  /** What was injected, in order (`t` is the virtual clock's `Date.now()`). */
  readonly log: string[] = [];
  /** The event streams open now: each cut by {@link Faults.cutStreams}. */
  readonly #open = new Set<() => void>();
  readonly #random: Random;
  readonly #rates: FaultRates;
  /** Route → requests of it still to fail in the current 5xx burst. */
  readonly #bursts = new Map<string, number>();

  constructor(random: Random, rates: FaultRates) {
    this.#random = random;
    this.#rates = rates;
  }

  /** Faults asked for by the schedule, by route: each taken by the next request of it. */
  readonly #planned = new Map<string, Planned[]>();

  /**
   * The next request of `route` (e.g. `POST /sessions/:id/…`, as {@link routeOf} names it;
   * `POST /chat/`) gets `fault`: held on its way for `ms`, lost before or after the
   * service, or answered 5xx (`count` requests in a row).
   */
  plan(route: string, fault: Planned, count = 1): void {
    const list = this.#planned.get(route) ?? [];
    for (let i = 0; i < count; i++) list.push(fault);
    this.#planned.set(route, list);
  }

  /** Event types whose next frame (on any stream) is dropped, in order asked. */
  readonly #dropNext: string[] = [];

  /** The next frame of an event of `type` on an event stream is dropped. */
  dropNext(type: string): void {
    this.#dropNext.push(type);
  }

  /** Instances hung, by origin: until when (monotonic ms). */
  readonly #hung = new Map<string, number>();

  /**
   * The instance at `origin` hangs for `ms` (a long GC pause, a blocked event loop): its
   * requests wait (reaching it after the hang, unless the client gave up first) and its
   * open event streams go silent (their frames come after the hang).
   */
  hang(origin: string, ms: number): void {
    this.#hung.set(origin, performance.now() + ms);
  }

  /** How long the instance at `origin` stays hung, ms (0: it answers; always 0 with the faults off). */
  #hangLeft(origin: string): number {
    const until = this.enabled ? this.#hung.get(origin) : undefined;
    return until === undefined ? 0 : Math.max(0, until - performance.now());
  }

  /** Cuts every event stream open now (a network blip). */
  cutStreams(): void {
    for (const cut of [...this.#open]) cut();
  }

  #chance(rate: number): boolean {
    return rate > 0 && this.#random() < rate;
  }

  #note(what: string): void {
    this.log.push(`${Date.now()} ${what}`);
  }

  /** `inner` with this schedule's faults. */
  wrap(inner: typeof fetch): typeof fetch {
    return (async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const request = requestOf(input, init);
      const url = new URL(request.url);
      const method = request.method;
      const route = routeOf(method, url);
      const stream = url.pathname.endsWith("/stream");
      const signal = init?.signal ?? null;
      if (!this.enabled) return inner(input, init);
      const hung = this.#hangLeft(url.origin);
      if (hung > 0) {
        this.#note(`${route} sent to a hung instance: held ${Math.round(hung)} ms`);
        await this.#hangWait(hung, signal);
      }
      const planned = this.#planned.get(route)?.shift();
      if (planned !== undefined) return this.#planned1(route, planned, request, init, inner, signal);
      const rates = this.#rates;
      const burst = this.#bursts.get(route) ?? 0;
      if (burst > 0 || this.#chance(rates.serverError)) {
        const left = burst > 0 ? burst - 1 : Math.floor(this.#random() * 20);
        if (left > 0) this.#bursts.set(route, left);
        else this.#bursts.delete(route);
        const status = [500, 502, 503][Math.floor(this.#random() * 3)]!;
        this.#note(`${route} → ${status} (burst: ${left} more)`);
        return new Response(JSON.stringify({ detail: "injected server error" }), { status, headers: { "content-type": "application/json" } });
      }
      if (method === "POST" && this.#chance(rates.busy)) {
        this.#note(`${route} → 409`);
        return new Response(JSON.stringify({ detail: "Session already has an active chat run in this process." }), { status: 409, headers: { "content-type": "application/json" } });
      }
      if (method !== "GET" && this.#chance(rates.lostBefore)) {
        this.#note(`${route} lost before the service`);
        await sleep(1 + this.#random() * 50, signal);
        throw new TypeError("fetch failed", { cause: new Error("injected: connection reset before the request was sent") });
      }
      const lostAfter = method !== "GET" && this.#chance(rates.lostAfter);
      if (this.#chance(rates.stallHeaders)) {
        const ms = 1000 + this.#random() * 7000;
        if (this.#random() < 0.5) {
          // held on its way (a proxy, a slow instance): it reaches the service later even
          // when the client gave up on it meanwhile
          this.#note(`${route} held ${Math.round(ms)} ms on its way to the service`);
          const { signal: _, ...rest } = init ?? {};
          const late = sleep(ms, null).then(() => inner(request.url, { ...rest, method, body: init?.body ?? null, signal: signal?.aborted ? null : signal }));
          late.catch(() => {}); // (it may fail after the client gave up: a killed instance; nobody waits then)
          return await new Promise<Response>((resolve, reject) => {
            if (signal?.aborted) return reject(signal.reason);
            const abort = () => {
              // the client gave up; the request still arrives, its answer is thrown away
              late.then((r) => void r.body?.cancel().catch(() => {}), () => {});
              reject(signal!.reason);
            };
            signal?.addEventListener("abort", abort, { once: true });
            late.then(
              (r) => {
                signal?.removeEventListener("abort", abort);
                resolve(r);
              },
              (e) => {
                signal?.removeEventListener("abort", abort);
                reject(e);
              },
            );
          }).then((r) => (lostAfter ? Promise.reject(new TypeError("fetch failed")) : r));
        }
        this.#note(`${route} answer held ${Math.round(ms)} ms`);
        const response = await inner(input, init);
        try {
          await sleep(ms, signal);
        } catch (e) {
          void response.body?.cancel().catch(() => {});
          throw e;
        }
        return this.#finish(route, response, stream, signal, lostAfter, url.origin);
      }
      const response = await inner(input, init);
      return this.#finish(route, response, stream, signal, lostAfter, url.origin);
    }) as typeof fetch;
  }

  /** A planned fault (see {@link Faults.plan}). */
  async #planned1(route: string, fault: Planned, request: { url: string }, init: RequestInit | undefined, inner: typeof fetch, signal: AbortSignal | null): Promise<Response> {
    switch (fault.kind) {
      case "error":
        this.#note(`${route} → 503 (planned)`);
        return new Response(JSON.stringify({ detail: "injected server error" }), { status: 503, headers: { "content-type": "application/json" } });
      case "lostBefore":
        this.#note(`${route} lost before the service (planned)`);
        throw new TypeError("fetch failed", { cause: new Error("injected: connection reset before the request was sent") });
      case "lostAfter": {
        this.#note(`${route} lost after the service applied it (planned)`);
        const response = await inner(request.url, { ...init, signal: null });
        void response.body?.cancel().catch(() => {});
        throw new TypeError("fetch failed", { cause: new Error("injected: connection reset before the answer") });
      }
      case "swallow":
        this.#note(`${route} answered 200 and never applied (planned)`);
        return new Response(JSON.stringify({ status: "started" }), { status: 200, headers: { "content-type": "application/json" } });
      case "malformed": {
        this.#note(`${route} answered with a null content block (planned)`);
        const response = await inner(request.url, init);
        const body = await response.json();
        if (Array.isArray(body?.messages)) {
          if (body.messages.length === 0) body.messages.push({ id: "malformed", role: "user", name: "user", content: [null] });
          else body.messages[0] = { ...body.messages[0], content: [null, ...(body.messages[0].content ?? []).slice(1)] };
        }
        return new Response(JSON.stringify(body), { status: response.status, headers: { "content-type": "application/json" } });
      }
      case "hold": {
        this.#note(`${route} held ${fault.ms} ms on its way to the service (planned)`);
        const { signal: _, ...rest } = init ?? {};
        const late = sleep(fault.ms, null).then(() => inner(request.url, { ...rest, body: init?.body ?? null, signal: signal?.aborted ? null : signal }));
        late.catch(() => {}); // (it may fail after the client gave up: a killed instance; nobody waits then)
        return await new Promise<Response>((resolve, reject) => {
          if (signal?.aborted) return reject(signal.reason);
          signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
          late.then(resolve, reject);
        });
      }
    }
  }

  /** A response the service gave, lost on its way back or damaged. */
  #finish(route: string, response: Response, stream: boolean, signal: AbortSignal | null, lostAfter: boolean, origin: string): Response {
    const rates = this.#rates;
    {
      if (lostAfter) {
        this.#note(`${route} lost after the service applied it`);
        void response.body?.cancel().catch(() => {});
        throw new TypeError("fetch failed", { cause: new Error("injected: connection reset before the answer") });
      }
      if (response.body === null) return response;
      if (stream && response.ok) return this.#damageStream(route, response, signal, origin);
      if (this.#chance(rates.stallBody)) return this.#stallBody(route, response, signal);
      return response;
    }
  }

  /** A body whose first bytes come at once and the rest after a stall. */
  #stallBody(route: string, response: Response, signal: AbortSignal | null): Response {
    const ms = 1000 + this.#random() * 7000;
    this.#note(`${route} body held ${Math.round(ms)} ms`);
    const reader = response.body!.getReader();
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        try {
          const parts: Uint8Array[] = [];
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            parts.push(value);
          }
          const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
          let at = 0;
          for (const p of parts) {
            all.set(p, at);
            at += p.length;
          }
          const head = Math.min(all.length, 10);
          controller.enqueue(all.subarray(0, head));
          await sleep(ms, signal);
          if (head < all.length) controller.enqueue(all.subarray(head));
          controller.close();
        } catch (e) {
          controller.error(e);
        }
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  }

  /** An event stream with frames dropped, doubled, swapped, held back, batched or cut. */
  #damageStream(route: string, response: Response, signal: AbortSignal | null, origin: string): Response {
    const rates = this.#rates;
    const chance = (rate: number) => this.#chance(rate);
    const random = this.#random;
    const note = (what: string) => this.#note(`${route} ${what}`);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const encoder = new TextEncoder();
    let cancelled = false;
    const streams = this.#open;
    const dropNext = this.#dropNext;
    const hangLeft = () => this.#hangLeft(origin);
    const hangWait = (ms: number) => this.#hangWait(ms, signal);
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        let open = true;
        const cut = () => {
          streams.delete(cut);
          if (!open) return;
          open = false;
          note("stream cut (a blip)");
          controller.error(new TypeError("terminated", { cause: new Error("injected: the network blipped") }));
          void reader.cancel().catch(() => {});
        };
        streams.add(cut);
        let buffer = "";
        let held: string | undefined; // a frame swapped with the next
        let queue: string[] = [];
        let timer: ReturnType<typeof setTimeout> | undefined;
        const flush = () => {
          clearTimeout(timer);
          timer = undefined;
          if (queue.length === 0 || !open) return;
          controller.enqueue(encoder.encode(queue.join("")));
          queue = [];
        };
        // batching: the frames queued go out together a little later, in one chunk
        const later = () => {
          if (timer === undefined) timer = setTimeout(flush, random() * 100);
        };
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            buffer += decoder.decode(value, { stream: true });
            for (let end = buffer.indexOf(FRAME_END); end >= 0; end = buffer.indexOf(FRAME_END)) {
              const frame = buffer.slice(0, end + FRAME_END.length);
              buffer = buffer.slice(end + FRAME_END.length);
              const out: string[] = [];
              if (held !== undefined) {
                out.push(frame, held);
                held = undefined;
              } else if (chance(rates.reorder)) {
                note("frame swapped with the next");
                held = frame;
                continue;
              } else if (dropNext.length > 0 && dropNext.some((t) => frame.includes(`"type": "${t}"`) || frame.includes(`"type":"${t}"`))) {
                const t = dropNext.find((t) => frame.includes(`"type": "${t}"`) || frame.includes(`"type":"${t}"`))!;
                dropNext.splice(dropNext.indexOf(t), 1);
                note(`frame dropped (planned): ${t}`);
                continue;
              } else if (chance(rates.drop)) {
                note(`frame dropped: ${frame.slice(0, 80).trim()}`);
                continue;
              } else if (chance(rates.duplicate)) {
                note("frame sent twice");
                out.push(frame, frame);
              } else {
                out.push(frame);
              }
              if (chance(rates.stallFrame)) {
                flush();
                const ms = 500 + random() * 5500;
                note(`stream held ${Math.round(ms)} ms`);
                await sleep(ms, signal);
              }
              if (chance(rates.cut)) {
                const last = out[out.length - 1]!;
                queue.push(...out.slice(0, -1), last.slice(0, Math.max(1, Math.floor(last.length / 2))));
                flush();
                open = false;
                note("stream cut mid-frame");
                controller.error(new TypeError("terminated", { cause: new Error("injected: the stream was cut") }));
                void reader.cancel().catch(() => {});
                return;
              }
              const hung = hangLeft();
              if (hung > 0) {
                flush();
                note(`stream silent ${Math.round(hung)} ms (its instance hung)`);
                await hangWait(hung);
              }
              queue.push(...out);
            }
            if (chance(rates.batch)) later();
            else flush();
          }
          if (held !== undefined) queue.push(held);
          flush();
          if (open) controller.close();
          open = false;
          streams.delete(cut);
        } catch (e) {
          flush();
          const was = open;
          open = false;
          streams.delete(cut);
          if (!cancelled && was) controller.error(e);
        }
      },
      cancel(reason) {
        cancelled = true;
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  }
}
