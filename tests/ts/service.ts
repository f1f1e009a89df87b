// The live AgentScope 2.0.11 service of the chat tests: `scripts/agentscope-service`
// (the real `create_app`, SQLite, in-memory bus, a scripted model), started once per
// test file, and a loopback proxy in front of it that can cut or stall a connection.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { readFileSync } from "node:fs";
import { connect, type AddressInfo, type Socket } from "node:net";
import type { AgentScopeTransport, ChatTransport } from "../../pkg/dist/chat.js";
import { startAgentScopeService } from "../../web-demo/server.mjs";
import type { Json } from "./helpers.ts";

export interface Service {
  /** The service's base URL (the first instance's). */
  url: string;
  /** Every instance's base URL (one, or two with `--redis`). */
  urls: string[];
  /** Every instance's pid, in the order of `urls`. */
  pids: number[];
  /** With `--redis`: the Redis the instances share. */
  redis?: { host: string; port: number; pid: number };
  agentId: string;
  userId: string;
  /** The whole JSON line it printed (`chat_model_config` for new sessions, …). */
  info: Json;
  /** Stops the service (SIGTERM) and resolves with its exit code (or signal). */
  stop: () => Promise<number | string | null>;
  /** What it printed on stderr (for failures). */
  log: () => string;
}

/**
 * Starts `scripts/agentscope-service` (through the demo server's own launcher) with
 * `args` (e.g. `["--redis"]`: Redis and two instances on it) and resolves once it
 * printed its JSON line.
 */
export async function startService(env: Record<string, string> = {}, args: string[] = []): Promise<Service> {
  const started = startAgentScopeService({ env, quiet: true, args });
  const live = await started.ready;
  // the suites run a second time against the service folding with the Python wheel
  // (scripts/test: AGENTSCOPE_SERVICE_FAST_FOLD=1): make sure it really does
  const fastFold = (env.AGENTSCOPE_SERVICE_FAST_FOLD ?? process.env.AGENTSCOPE_SERVICE_FAST_FOLD) === "1";
  if (live.info.fast_fold !== fastFold) {
    await started.stop();
    throw new Error(`the service's fast_fold is ${live.info.fast_fold}, expected ${fastFold}`);
  }
  return {
    url: live.url,
    urls: live.info.urls,
    pids: live.info.pids,
    redis: live.info.redis,
    agentId: live.agentId,
    userId: live.userId,
    info: live.info,
    log: started.log,
    stop: started.stop,
  };
}

/** GET/POST JSON against the service, as the tests' own observer (not through `Chat`). */
export async function api(service: Service, method: string, path: string, body?: unknown, base = service.url): Promise<Json> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { "X-User-ID": service.userId, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${text}`);
  return text === "" ? null : JSON.parse(text);
}

/** The stored messages of a session (`GET /sessions/{sid}/messages`). */
export async function stored(service: Service, sessionId: string, base = service.url): Promise<Json[]> {
  const page = await api(service, "GET", `/sessions/${sessionId}/messages?agent_id=${service.agentId}&limit=200`, undefined, base);
  return page.messages;
}

/**
 * A proxy in front of the service. `cutAfter(n)`: the next event-stream response is cut
 * (its socket destroyed) after n bytes; `stallAfter(n)`: the next one stops forwarding
 * after n bytes but keeps the connection open. Counts requests by method and path.
 */
export interface Proxy {
  url: string;
  /** `METHOD /path` of every request, in order. */
  requests: string[];
  /** `METHOD /path STATUS` of every response, in order. */
  statuses: string[];
  cutAfter: (bytes: number) => void;
  stallAfter: (bytes: number) => void;
  /** Ends every event-stream connection open now (as a network drop would). */
  dropStreams: () => Promise<void>;
  /** While on, event-stream requests get a 503 (the service out of reach for streams). */
  refuseStreams: (on: boolean) => void;
  /** While on, event-stream requests get 200, a junk line and an end. */
  junkStreams: (on: boolean) => void;
  /** Delays every `POST /chat/` by this many ms (0: none). */
  delayPosts: (ms: number) => void;
  /** Sends `text` first on the next event-stream response. */
  injectNext: (text: string) => void;
  /**
   * The next `POST /chat/`'s connection breaks: `"before"` the request reaches the service
   * (not forwarded), or `"after"` the service answered (the answer is not relayed).
   */
  breakNextPost: (when: "before" | "after") => void;
  /** The next `count` requests whose `METHOD /path` matches get `status` (not forwarded). */
  failNext: (match: RegExp, status: number, count?: number) => void;
  /** The next `POST /chat/` reaches the service after `ms`, also when its client gave up meanwhile. */
  holdNextPost: (ms: number) => void;
  /**
   * The next `POST /chat/` is answered at once as the service answers an accepted run
   * (`{"status": "started", "session_id": …}`) and reaches the service only after `ms`
   * (never for Infinity): the client has its answer while the service has not started the
   * run (as when a run takes the session's lock late). The service's own answer, once
   * forwarded, is in `statuses` (`POST /chat/ 200 forwarded late`).
   */
  startLate: (ms: number) => void;
  /**
   * The next `POST /chat/`'s connection breaks once the request is read, and the request
   * reaches the service `ms` later (a request that went out just before its connection
   * broke, arriving late); `statuses` has `POST /chat/ 200 forwarded late`.
   */
  breakNextPostArrivingLate: (ms: number) => void;
  /**
   * The next answer of `GET /sessions/{sid}/messages` that says `is_running: false` is
   * relayed `ms` after the service gave it (a page read at rest, arriving late); `statuses`
   * has `GET /sessions/{sid}/messages held`, then `… relayed late`.
   */
  holdNextRestPage: (ms: number) => void;
  /** On the next event-stream response, the frame holding `text` comes after the frame behind it. */
  swapNext: (text: string) => void;
  /** While on, event-stream headers are not sent before the first byte (as Node's own proxies do). */
  holdStreamHeaders: (on: boolean) => void;
  close: () => Promise<void>;
}

export async function startProxy(target: string): Promise<Proxy> {
  const upstream = new URL(target);
  const requests: string[] = [];
  const statuses: string[] = [];
  let cut: number | undefined;
  let stall: number | undefined;
  const sockets = new Set<Socket>();
  const streams = new Set<ServerResponse>();
  let refuse = false;
  let junk = false;
  let postDelay = 0;
  let inject: string | undefined;
  let breakPost: "before" | "after" | undefined;
  let failing: { match: RegExp; status: number; count: number } | undefined;
  let holdPost = 0;
  let late: number | undefined;
  let lateBroken = false;
  let holdPage: number | undefined;
  let swap: string | undefined;
  let holdHeaders = false;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const line = `${req.method} ${req.url!.split("?")[0]}`;
    requests.push(line);
    if (failing !== undefined && failing.count > 0 && failing.match.test(line)) {
      failing.count -= 1;
      statuses.push(`${line} ${failing.status}`);
      res.writeHead(failing.status, { "content-type": "application/json" }).end('{"detail": "injected by the test proxy"}');
      return;
    }
    const isPost = req.method === "POST" && req.url!.startsWith("/chat/");
    const myBreak = isPost ? breakPost : undefined;
    if (isPost) breakPost = undefined;
    if (myBreak === "before") {
      req.socket.destroy();
      return;
    }
    const isStream = /\/stream(\?|$)/.test(req.url!);
    if (isStream) {
      streams.add(res);
      res.on("close", () => streams.delete(res));
    }
    if (isStream && refuse) {
      res.writeHead(503, { "content-type": "text/html" }).end("<html>down</html>");
      return;
    }
    if (isStream && junk) {
      res.writeHead(200, { "content-type": "text/event-stream" }).end("<html>not SSE</html>\n\n");
      return;
    }
    const myInject = isStream ? inject : undefined;
    if (isStream) inject = undefined;
    const myCut = isStream ? cut : undefined;
    const myStall = isStream ? stall : undefined;
    const mySwap = isStream ? swap : undefined;
    if (isStream) {
      cut = undefined;
      stall = undefined;
      swap = undefined;
    }
    const myHold = isPost ? holdPost : 0;
    if (isPost) holdPost = 0;
    const myLate = isPost ? late : undefined;
    const myLateBroken = isPost && lateBroken;
    if (isPost) {
      late = undefined;
      lateBroken = false;
    }
    if (myLate !== undefined) {
      const body: Buffer[] = [];
      req.on("data", (d: Buffer) => body.push(d));
      req.on("end", () => {
        const text = Buffer.concat(body);
        const sessionId = (JSON.parse(text.toString("utf8")) as { session_id?: string }).session_id;
        if (myLateBroken) {
          statuses.push(`${line} connection broken`);
          req.socket.destroy();
        } else {
          statuses.push(`${line} 200 answered early`);
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ status: "started", session_id: sessionId }));
        }
        if (myLate === Infinity) return;
        setTimeout(() => {
          const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
            statuses.push(`${line} ${up.statusCode} forwarded late`);
            up.resume();
          });
          out.on("error", () => statuses.push(`${line} failed forwarded late`));
          out.end(text);
        }, myLate);
      });
      return;
    }
    const out = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        statuses.push(`${req.method} ${req.url!.split("?")[0]} ${up.statusCode}`);
        if (myBreak === "after") {
          up.resume();
          res.socket?.destroy();
          return;
        }
        if (holdPage !== undefined && req.method === "GET" && /^\/sessions\/[^/]+\/messages$/.test(req.url!.split("?")[0]!)) {
          const body: Buffer[] = [];
          up.on("data", (d: Buffer) => body.push(d));
          up.on("end", () => {
            const text = Buffer.concat(body);
            const wait = holdPage !== undefined && /"is_running":\s*false/.test(text.toString("utf8")) ? holdPage : 0;
            if (wait > 0) {
              holdPage = undefined;
              statuses.push(`${req.method} ${req.url!.split("?")[0]} held`);
            }
            setTimeout(() => {
              if (wait > 0) statuses.push(`${req.method} ${req.url!.split("?")[0]} relayed late`);
              res.writeHead(up.statusCode ?? 502, up.headers).end(text);
            }, wait);
          });
          up.on("error", () => res.socket?.destroy());
          return;
        }
        res.writeHead(up.statusCode ?? 502, up.headers);
        if (!(isStream && holdHeaders)) res.flushHeaders();
        if (myInject !== undefined) res.write(myInject);
        let sent = 0;
        // (swapping: whole frames are forwarded, the one holding the text after its successor)
        let frames = "";
        let held: string | undefined;
        if (mySwap !== undefined) {
          up.setEncoding("utf8");
          up.on("data", (text: string) => {
            frames += text;
            for (let end = frames.indexOf("\n\n"); end >= 0; end = frames.indexOf("\n\n")) {
              const frame = frames.slice(0, end + 2);
              frames = frames.slice(end + 2);
              if (held === undefined && frame.includes(mySwap)) {
                held = frame;
                continue;
              }
              res.write(frame);
              if (held !== undefined) {
                res.write(held);
                held = "";
              }
            }
          });
          up.on("end", () => res.end(frames));
          up.on("error", () => res.socket?.destroy());
          return;
        }
        up.on("data", (chunk: Buffer) => {
          if (myStall !== undefined && sent >= myStall) return;
          let piece = chunk;
          const limit = myCut ?? myStall;
          if (limit !== undefined && sent + piece.length > limit) piece = piece.subarray(0, limit - sent);
          sent += piece.length;
          if (piece.length > 0) res.write(piece);
          if (myCut !== undefined && sent >= myCut) {
            up.destroy();
            res.socket?.destroy();
          }
        });
        up.on("end", () => res.end());
        up.on("error", () => res.socket?.destroy());
      },
    );
    out.on("error", () => res.socket?.destroy());
    if (myHold > 0) {
      const body: Buffer[] = [];
      req.on("data", (d: Buffer) => body.push(d));
      req.on("end", () => setTimeout(() => out.end(Buffer.concat(body)), myHold));
      return; // forwarded whatever the client does meanwhile
    }
    if (req.method === "POST" && req.url!.startsWith("/chat/") && postDelay > 0) {
      const body: Buffer[] = [];
      req.on("data", (d: Buffer) => body.push(d));
      req.on("end", () => setTimeout(() => out.end(Buffer.concat(body)), postDelay));
    } else {
      req.pipe(out);
    }
    res.on("close", () => out.destroy());
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  // An idle client connection stays open for the test: node's default closes it after 5 s
  // idle, and the client may reuse it at that very moment (seen on a loaded machine: a
  // POST /sessions/ sent on a socket the proxy was closing, ECONNRESET)
  server.keepAliveTimeout = 600_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    statuses,
    cutAfter: (n) => void (cut = n),
    stallAfter: (n) => void (stall = n),
    refuseStreams: (on) => void (refuse = on),
    junkStreams: (on) => void (junk = on),
    delayPosts: (ms) => void (postDelay = ms),
    injectNext: (text) => void (inject = text),
    breakNextPost: (when) => void (breakPost = when),
    failNext: (match, status, count = 1) => void (failing = { match, status, count }),
    holdNextPost: (ms) => void (holdPost = ms),
    breakNextPostArrivingLate: (ms) => {
      late = ms;
      lateBroken = true;
    },
    startLate: (ms) => void (late = ms),
    holdNextRestPage: (ms) => void (holdPage = ms),
    swapNext: (text) => void (swap = text),
    holdStreamHeaders: (on) => void (holdHeaders = on),
    dropStreams: async () => {
      for (const res of streams) res.socket?.destroy();
      streams.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Waits until `ok()` is true (polled every 20 ms), or fails after `ms` with `what`. */
export async function until(ok: () => boolean, what: string, ms = 30_000): Promise<void> {
  const t0 = Date.now();
  while (!ok()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** One Redis command over RESP (for a test that stands in for time: e.g. a lock's lease ending); resolves the reply line. */
export function redisCommand(port: number, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let reply = "";
    socket.on("connect", () => {
      socket.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join("")}`);
    });
    socket.on("data", (d) => {
      reply += d.toString();
      if (reply.includes("\r\n")) {
        socket.end();
        resolve(reply.split("\r\n")[0]!);
      }
    });
    socket.on("error", reject);
  });
}

/** The peak resident set of a process (VmHWM of /proc/PID/status), KiB; undefined once it is gone. */
export function peakRssKiB(pid: number): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A transport that sends the event stream and the reads through `reads` and the inputs
 * (`POST /chat/`, the interrupt, `POST /sessions/`) through `posts`, which a test may swap
 * mid-way: "the stream on A, the chat on B".
 */
export class Routed implements ChatTransport {
  constructor(
    public reads: AgentScopeTransport,
    public posts: AgentScopeTransport,
  ) {}
  createSession: ChatTransport["createSession"] = (o) => this.posts.createSession(o);
  history: ChatTransport["history"] = (sid, o) => this.reads.history(sid, o);
  stream: ChatTransport["stream"] = (sid, o) => this.reads.stream(sid, o);
  chat: ChatTransport["chat"] = (sid, input, o) => this.posts.chat(sid, input, o);
  interrupt: ChatTransport["interrupt"] = (sid, o) => this.posts.interrupt(sid, o);
  status: ChatTransport["status"] = (sid, o) => this.reads.status(sid, o);
  failover(): void {
    this.reads.failover();
  }
}

/**
 * A raw observer of a session's event stream (`GET /sessions/{sid}/stream`, plain `fetch`
 * and SSE framing of its own, not through `Chat`): every event's JSON in arrival order
 * (heartbeat comments skipped). `agentId`: the session's agent (a team member's session has
 * its own); `after`: the replay cursor.
 */
export interface EventWatch {
  /** The events so far, in stream order. */
  events: Json[];
  /** Resolves the first event (from index `from` on) that `ok` accepts; fails after `ms`. */
  waitFor: (ok: (event: Json) => boolean, what: string, ms?: number, from?: number) => Promise<Json>;
  /** Ends the stream. */
  close: () => void;
  /** Resolves once the response's headers arrived (the subscription is live). */
  ready: Promise<void>;
}

export function watchEvents(service: Pick<Service, "url" | "agentId" | "userId">, sessionId: string, { agentId = service.agentId, after, base = service.url }: { agentId?: string; after?: string; base?: string } = {}): EventWatch {
  const events: Json[] = [];
  const abort = new AbortController();
  const query = new URLSearchParams({ agent_id: agentId, ...(after === undefined ? {} : { after }) });
  let failure: unknown;
  const ready = (async () => {
    const response = await fetch(`${base}/sessions/${sessionId}/stream?${query}`, { headers: { "X-User-ID": service.userId }, signal: abort.signal });
    if (!response.ok || !response.body) throw new Error(`stream of ${sessionId}: HTTP ${response.status}`);
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = "";
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true }).replace(/\r\n?/g, "\n");
          for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = frame.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).replace(/^ /, ""));
            if (data.length > 0) events.push(JSON.parse(data.join("\n")));
          }
        }
      } catch (e) {
        if (!abort.signal.aborted) failure = e;
      }
    })();
  })();
  ready.catch((e) => void (failure = e));
  const waitFor = async (ok: (event: Json) => boolean, what: string, ms = 30_000, from = 0): Promise<Json> => {
    let found: Json | undefined;
    await until(() => {
      if (failure !== undefined) throw failure;
      found = events.slice(from).find(ok);
      return found !== undefined;
    }, what, ms);
    return found;
  };
  return { events, waitFor, close: () => abort.abort(), ready };
}

/** Reads a session's events (replay, then live) until `done(events)`, then closes the stream and resolves them. */
export async function readEvents(service: Pick<Service, "url" | "agentId" | "userId">, sessionId: string, done: (events: Json[]) => boolean, options: { agentId?: string; after?: string; base?: string; ms?: number } = {}): Promise<Json[]> {
  const watch = watchEvents(service, sessionId, options);
  try {
    await watch.ready;
    await until(() => done(watch.events), `the events of ${sessionId}`, options.ms ?? 30_000);
    return [...watch.events];
  } finally {
    watch.close();
  }
}

/** A new session of the service's agent with the scripted model (`POST /sessions/`); resolves its id. */
export async function newSession(service: Service, body: Record<string, unknown> = {}): Promise<string> {
  const created = await api(service, "POST", "/sessions/", { agent_id: service.agentId, chat_model_config: service.info.chat_model_config, ...body });
  return created.session_id;
}

/** `POST /chat/` of a user message (`content`: a text or blocks) to a session; resolves the service's answer. */
export function sendUser(service: Service, sessionId: string, content: string | Json[], agentId = service.agentId): Promise<Json> {
  const blocks = typeof content === "string" ? [{ type: "text", text: content }] : content;
  return api(service, "POST", "/chat/", { agent_id: agentId, session_id: sessionId, input: { name: "user", role: "user", content: blocks } });
}
