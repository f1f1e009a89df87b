// The AgentScope 2.0 app API as the chat client uses it: what a transport must do
// (`ChatTransport`) and the one over `fetch` (`AgentScopeTransport`), with its failover
// rules across the instances of one service and its request timeout.
import type { AgentEvent } from "./event.js";
import { MsgError, abortedError, bodyJSON, checkDataUrls, optionsObject, sessionIdSegment } from "./errors.js";
import type { MsgJSON } from "./message.js";
import { number, untilAborted } from "./timing.js";

type EventOf<T extends string> = Extract<AgentEvent, { type: T }>;
/** The `USER_CONFIRM_RESULT` event `confirm` posts. */
export type UserConfirmResultInput = EventOf<"USER_CONFIRM_RESULT">;
/** The `EXTERNAL_EXECUTION_RESULT` event `submitExternal` posts. */
export type ExternalExecutionResultInput = EventOf<"EXTERNAL_EXECUTION_RESULT">;
/** What `POST /chat/` takes as `input`: user message(s), a human-in-the-loop answer, or null. */
export type ChatInput = MsgJSON | readonly MsgJSON[] | UserConfirmResultInput | ExternalExecutionResultInput | null;

/** The service's session status (`GET /sessions/{sid}/status`). */
export type ServiceStatus = "running" | "idle" | "awaiting_permission" | "awaiting_external_result";

/** One page of stored history (`GET /sessions/{sid}/messages`). */
export interface HistoryPage {
  /** Stored messages, oldest first. */
  readonly messages: readonly MsgJSON[];
  /** The replay cursor: the latest event these messages already hold (`after` of the stream), or null. */
  readonly eventCursor: string | null;
  /** Whether a run holds the session now. */
  readonly isRunning: boolean;
  /** Whether older messages exist (load them with `before`: the oldest id of this page). */
  readonly hasMore: boolean;
}

/**
 * How a {@link Chat} talks to a service. {@link AgentScopeTransport} speaks the AgentScope
 * 2.0 app API; a custom one (another auth, a proxy) implements the same six calls (and
 * `failover`, optional). `Chat` never gives it a session id that is not one path segment
 * (empty, `.`, `..`) nor an input with a lone surrogate or a data block's URL that is not
 * http(s). Calls reject with `MsgError`: `busy` (HTTP 409), `http_error` (another
 * status, `status` set; or an answer that is not the JSON it should be),
 * `service_unavailable` (the request did not reach the service, or its connection failed
 * before an answer: then it may have been applied; with `cause` `"timeout"` when it got
 * no answer in time and may still be on its way, so that `Chat` never sends it again).
 */
export interface ChatTransport {
  /** Creates a session; resolves its id (`POST /sessions/`). */
  createSession(options?: { signal?: AbortSignal }): Promise<string>;
  /** A page of stored messages, the latest without `before` (`GET /sessions/{sid}/messages`). */
  history(sessionId: string, options?: { before?: string; signal?: AbortSignal }): Promise<HistoryPage>;
  /** Opens the session's event stream (SSE), replaying after `after` (`GET /sessions/{sid}/stream`). */
  stream(sessionId: string, options: { after: string | null; signal: AbortSignal }): Promise<Response>;
  /** Starts a run with `input`; resolves once scheduled (`POST /chat/`). */
  chat(sessionId: string, input: ChatInput, options?: { signal?: AbortSignal }): Promise<void>;
  /** Asks the run to stop (`POST /sessions/{sid}/interrupt`). */
  interrupt(sessionId: string, options?: { signal?: AbortSignal }): Promise<void>;
  /** The session's status (`GET /sessions/{sid}/status`). */
  status(sessionId: string, options?: { signal?: AbortSignal }): Promise<ServiceStatus>;
  /**
   * Optional. A key naming the event stream of `sessionId` (the same key: the same
   * service, user and session, so the same events). Chats of one origin (a browser's
   * tabs) whose transports give the same key share one stream (`shareStream`); without
   * it each chat holds its own.
   */
  streamKey?(sessionId: string): string;
  /**
   * Optional. The chat calls it when the event stream dropped, stalled or could not be
   * opened, and when a `chat` call failed with `service_unavailable`, before it tries
   * again: a transport over several instances of one service moves to the next.
   */
  failover?(): void;
}

/** Options of {@link AgentScopeTransport}. */
export interface AgentScopeTransportOptions {
  /**
   * The service's base URL, e.g. `http://127.0.0.1:8000` (a path prefix is kept); in a page
   * also a path such as `/api` (read against the page's URL). Or several: the instances of
   * one service on one Redis (agentscope's `RedisStorage` and `RedisMessageBus`). Requests
   * go to one of them; see {@link AgentScopeTransport} for when the next one is tried.
   */
  baseUrl: string | URL | readonly (string | URL)[];
  /** Sent as `X-User-ID` with every request. */
  userId: string;
  /** The agent the sessions belong to. */
  agentId: string;
  /** The `fetch` to use (default: the global one). */
  fetch?: typeof fetch;
  /** More headers for every request (e.g. an `Authorization` a proxy checks). */
  headers?: Record<string, string>;
  /**
   * A request with no whole answer (its headers and its body) for this long is given up,
   * as a failed connection (a hung instance); ms, default 15,000; Infinity: never. Not the event
   * stream: the chat watches it (`stallMs`; a proxy may hold an idle stream's headers
   * until the first heartbeat).
   */
  timeoutMs?: number;
  /**
   * More fields of the `POST /sessions/` body of a new session, e.g. its
   * `chat_model_config` (`{type, credential_id, model, parameters}`: the model is a setting
   * of the session, not of the agent, in agentscope 2.0.11) or `name`.
   */
  session?: Record<string, unknown>;
}

/**
 * The AgentScope 2.0 app API (agentscope 2.0.11 `create_app`) over `fetch`: `POST
 * /sessions/`, `GET /sessions/{sid}/messages`, `GET /sessions/{sid}/stream`, `POST /chat/`,
 * `POST /sessions/{sid}/interrupt`, `GET /sessions/{sid}/status`, each with the
 * `X-User-ID` header and `agent_id`. Refused with `invalid_argument` before any request:
 * a session id that is not one path segment (empty, `.`, `..`), a body holding a lone
 * surrogate (stored, agentscope 2.0.11 answers 500 on its lists for good) or a data
 * block whose URL source is not http(s) (the service reads a `file:` URL from its disk).
 * An answer that is not the JSON it should be (`null`, a message that is not an object)
 * is `http_error`.
 *
 * Several base URLs (instances of one service): every request goes to the current one.
 * A request that could not connect (connection refused, no such host, connect timeout:
 * it was never sent) is sent to the next instance at once, each instance tried once;
 * the reads, the interrupt (which the service treats as idempotent) and `POST /sessions/`
 * (at worst an unused empty session is left) are also tried on the next after any failed
 * connection or an HTTP 502 / 503 / 504. A `POST /chat/` whose connection broke after the
 * request went out is not repeated here (it may have been applied: in a browser, whose
 * "Failed to fetch" never says which, also a refused one): it rejects with
 * `service_unavailable`, and `Chat` asks the service before it sends again.
 * `failover()` moves to the next instance.
 */
export class AgentScopeTransport implements ChatTransport {
  readonly #bases: readonly string[];
  #current = 0;
  readonly #userId: string;
  readonly #agentId: string;
  readonly #fetch: typeof fetch;
  readonly #headers: Record<string, string>;
  readonly #sessionBody: Record<string, unknown>;
  readonly #timeoutMs: number;

  /** Throws `MsgError` (`invalid_argument`) for a missing option or a base URL that is not a URL. */
  constructor(options: AgentScopeTransportOptions) {
    if (typeof options !== "object" || options === null) {
      throw new MsgError("invalid_argument", "AgentScopeTransport takes {baseUrl, userId, agentId}");
    }
    const { baseUrl, userId, agentId } = options;
    for (const [name, value] of [["userId", userId], ["agentId", agentId]] as const) {
      if (typeof value !== "string" || value === "") throw new MsgError("invalid_argument", `AgentScopeTransport: ${name} must be a non-empty string`);
    }
    const list: readonly unknown[] = Array.isArray(baseUrl) ? baseUrl : [baseUrl];
    if (list.length === 0) throw new MsgError("invalid_argument", "AgentScopeTransport: baseUrl must name at least one URL");
    this.#bases = list.map((one) => {
      if (typeof one !== "string" && !(one instanceof URL)) {
        throw new MsgError("invalid_argument", "AgentScopeTransport: baseUrl must be a URL (a string or URL) or an array of them");
      }
      let base: URL;
      try {
        // a path such as "/api" is read against the page's URL (a same-origin proxy)
        base = new URL(String(one), (globalThis as { location?: { href?: string } }).location?.href);
      } catch {
        throw new MsgError("invalid_argument", `AgentScopeTransport: baseUrl ${JSON.stringify(String(one))} is not a URL`);
      }
      if ((base.protocol !== "http:" && base.protocol !== "https:") || base.search !== "" || base.hash !== "") {
        throw new MsgError("invalid_argument", `AgentScopeTransport: baseUrl ${JSON.stringify(base.href)} must be an http(s) URL without a query or fragment`);
      }
      return base.href.replace(/\/+$/, "");
    });
    // a header value with a line break is refused by fetch (and would be an injection)
    const headerText = (value: unknown) => typeof value === "string" && !/[\r\n\0]/.test(value);
    if (!headerText(userId)) throw new MsgError("invalid_argument", "AgentScopeTransport: userId must not hold a line break");
    if (options.headers !== undefined) {
      if (typeof options.headers !== "object" || options.headers === null || Array.isArray(options.headers)) {
        throw new MsgError("invalid_argument", "AgentScopeTransport: headers must be an object of strings");
      }
      for (const [name, value] of Object.entries(options.headers)) {
        if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || !headerText(value)) {
          throw new MsgError("invalid_argument", `AgentScopeTransport: header ${JSON.stringify(name)} is not a valid header`);
        }
      }
    }
    this.#userId = userId;
    this.#agentId = agentId;
    const f = options.fetch ?? globalThis.fetch;
    if (typeof f !== "function") throw new MsgError("invalid_argument", "AgentScopeTransport: no fetch (pass options.fetch)");
    // called as a plain function: a browser's fetch refuses another `this` ("Illegal invocation")
    this.#fetch = (input, init) => f.call(globalThis, input, init);
    this.#headers = { ...options.headers };
    if (options.session !== undefined && (typeof options.session !== "object" || options.session === null || Array.isArray(options.session))) {
      throw new MsgError("invalid_argument", "AgentScopeTransport: session must be an object (fields of POST /sessions/)");
    }
    this.#sessionBody = { ...options.session };
    this.#timeoutMs = number(options.timeoutMs, "timeoutMs", 15_000, 1, true, "AgentScopeTransport:");
  }

  /** The agent the sessions belong to. */
  get agentId(): string {
    return this.#agentId;
  }

  /** The instance the next request goes to (its base URL, without a trailing slash). */
  get baseUrl(): string {
    return this.#bases[this.#current]!;
  }

  /** Every instance's base URL, in the order they are tried. */
  get baseUrls(): readonly string[] {
    return this.#bases;
  }

  /** The next requests go to the next instance (the first after the last); one instance: nothing changes. */
  failover(): void {
    this.#current = (this.#current + 1) % this.#bases.length;
  }

  /**
   * One request to the service at `path` (e.g. `/sessions/`), with the `X-User-ID` header,
   * `query` (absent values left out) and a JSON `body`; resolves the `Response` of a 2xx.
   * `retry` says when it goes to the next instance: `"unsent"` (the default) only when the
   * connection was never made, `"any"` also after a broken connection or a 502/503/504
   * (for requests safe to repeat; with one instance, such a request is tried there once
   * more, a timed-out one aside). Rejects with `MsgError`: `invalid_argument` (nothing
   * sent) for a body with a lone surrogate or a data block's URL that is not http(s),
   * `busy` (409), `http_error` (another status, `status` set; `message` has the
   * service's `detail`), `service_unavailable`.
   */
  request(method: string, path: string, options: { query?: Record<string, string | null | undefined>; body?: unknown; signal?: AbortSignal; retry?: "unsent" | "any" } = {}): Promise<Response> {
    try {
      options = optionsObject(options, `request ${method} ${path}`);
    } catch (e) {
      return Promise.reject(e);
    }
    return this.#request(method, path, options.query ?? {}, options.body, options.signal, options.retry ?? "unsent");
  }

  async #request(method: string, path: string, query: Record<string, string | null | undefined>, body: unknown, signal: AbortSignal | undefined, retry: "unsent" | "any"): Promise<Response> {
    // refused before any request: a lone surrogate (stored, it breaks the session's
    // listing for good) and a data block's URL the service would read on its side
    const bodyText = body === undefined ? undefined : bodyJSON(body, `${method} ${path}: the body`);
    // (what is sent is checked: the JSON text, `toJSON` applied, not the object given)
    if (bodyText !== undefined) checkDataUrls(JSON.parse(bodyText), `${method} ${path}`);
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== null && v !== undefined) params.set(k, v);
    const headers: Record<string, string> = { ...this.#headers, "X-User-ID": this.#userId };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let response: Response;
    for (let attempt = 1; ; attempt++) {
      const at = this.#current;
      const url = `${this.#bases[at]}${path}${params.size > 0 ? `?${params}` : ""}`;
      const more = attempt < this.#bases.length;
      // one instance: a request safe to repeat is tried once more there after a broken
      // connection (e.g. a kept-alive one the server had just closed) or a gateway's 5xx
      const again = retry === "any" && this.#bases.length === 1 && attempt === 1;
      // the next instance after this one failed (unless another request moved on already)
      const next = () => {
        if (this.#current === at) this.failover();
      };
      const timeout = new AbortController();
      // the caller's signal goes on aborting the response's body after the headers came
      const both = signal === undefined ? timeout.signal : anySignal(signal, timeout.signal);
      const timed = this.#timeoutMs !== Infinity && !path.endsWith("/stream");
      const timer = timed ? setTimeout(() => timeout.abort(TIMED_OUT), this.#timeoutMs) : undefined;
      try {
        if (signal?.aborted) throw abortedError(signal);
        // (raced with the signal: a custom fetch that ignores it is given up in time too)
        response = await untilAborted(this.#fetch(url, { method, headers, body: bodyText, signal: both }), both);
        // the time covers the whole answer: a body that stalls is given up as headers are
        if (timed) {
          const bytes = await untilAborted(response.arrayBuffer(), both);
          // (a 204's, 205's or 304's body is null: a Response refuses any other)
          response = new Response(NULL_BODY.has(response.status) ? null : bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
        }
      } catch (e) {
        if (signal?.aborted) throw abortedError(signal);
        const timedOut = timeout.signal.reason === TIMED_OUT;
        const unsent = !timedOut && neverConnected(e);
        if ((more && (unsent || retry === "any")) || (again && !timedOut)) {
          next();
          continue;
        }
        const what = unsent ? "the service could not be reached" : timedOut ? `no answer in ${this.#timeoutMs} ms` : "the connection failed before an answer";
        // (a request given up for time may still be on its way: the cause says so)
        throw new MsgError("service_unavailable", `${method} ${path}: ${what}${timedOut ? "" : ` (${describe(e)})`}`, timedOut ? { cause: "timeout" } : undefined);
      } finally {
        clearTimeout(timer); // (a stream's body is not timed: its stall watch is the chat's)
      }
      if (response.status === 502 || response.status === 503 || response.status === 504) {
        if ((more || again) && retry === "any") {
          void response.body?.cancel().catch(() => {});
          next();
          continue;
        }
        if (retry === "unsent") {
          // a gateway's answer: the request may have reached the service or not
          void response.body?.cancel().catch(() => {});
          throw new MsgError("service_unavailable", `${method} ${path}: HTTP ${response.status} from a gateway (the request may have been applied)`, { status: response.status });
        }
      }
      break;
    }
    if (response.ok) return response;
    let detail = "";
    try {
      const text = await response.text();
      try {
        const parsed = JSON.parse(text) as { detail?: unknown };
        detail = typeof parsed.detail === "string" ? parsed.detail : JSON.stringify(parsed.detail ?? parsed);
      } catch {
        detail = text.slice(0, 300);
      }
    } catch {
      // the body could not be read: the status alone says enough
    }
    const what = `${method} ${path}: HTTP ${response.status}${detail ? `: ${detail}` : ""}`;
    if (response.status === 409) throw new MsgError("busy", what, { status: 409 });
    throw new MsgError("http_error", what, { status: response.status });
  }

  async #json<T>(response: Response, what: string): Promise<T> {
    try {
      return (await response.json()) as T;
    } catch (e) {
      throw new MsgError("http_error", `${what}: the response is not JSON (${(e as Error).message})`, { status: response.status });
    }
  }

  /** The service's instances, the user and the agent, and `sessionId`: chats with the same key share one stream (`shareStream`). */
  streamKey(sessionId: string): string {
    return JSON.stringify([this.#bases, this.#userId, this.#agentId, sessionId]);
  }

  async createSession(options: { signal?: AbortSignal } = {}): Promise<string> {
    options = optionsObject(options, "transport.createSession");
    // tried on the next instance after any failed connection: at worst an unused empty session is left
    const response = await this.#request("POST", "/sessions/", {}, { ...this.#sessionBody, agent_id: this.#agentId }, options.signal, "any");
    const body = await this.#json<{ session_id?: unknown } | null>(response, "POST /sessions/");
    const id = isObject(body) ? body.session_id : undefined;
    if (typeof id !== "string" || id === "" || id === "." || id === "..") {
      throw new MsgError("http_error", "POST /sessions/: no session_id in the response", { status: response.status });
    }
    return id;
  }

  async history(sessionId: string, options: { before?: string; signal?: AbortSignal } = {}): Promise<HistoryPage> {
    options = optionsObject(options, "transport.history");
    const path = `/sessions/${encodeURIComponent(sessionIdSegment(sessionId, "sessionId"))}/messages`;
    const response = await this.#request("GET", path, { agent_id: this.#agentId, before: options.before, limit: "200" }, undefined, options.signal, "any");
    const body = await this.#json<{ messages?: unknown; event_cursor?: unknown; is_running?: unknown; has_more?: unknown } | null>(response, `GET ${path}`);
    if (!isObject(body) || !Array.isArray(body.messages)) throw new MsgError("http_error", `GET ${path}: no messages in the response`, { status: response.status });
    checkMessages(body.messages, `GET ${path}`, response.status);
    return {
      messages: body.messages as MsgJSON[],
      eventCursor: typeof body.event_cursor === "string" ? body.event_cursor : null,
      isRunning: body.is_running === true,
      hasMore: body.has_more === true,
    };
  }

  async stream(sessionId: string, options: { after: string | null; signal: AbortSignal }): Promise<Response> {
    options = optionsObject(options, "transport.stream") ?? {};
    const path = `/sessions/${encodeURIComponent(sessionIdSegment(sessionId, "sessionId"))}/stream`;
    return this.#request("GET", path, { agent_id: this.#agentId, after: options.after }, undefined, options.signal, "any");
  }

  async chat(sessionId: string, input: ChatInput, options: { signal?: AbortSignal } = {}): Promise<void> {
    options = optionsObject(options, "transport.chat");
    sessionIdSegment(sessionId, "sessionId");
    const response = await this.#request("POST", "/chat/", {}, { agent_id: this.#agentId, session_id: sessionId, input }, options.signal, "unsent");
    await response.text(); // (a small JSON body; read, not cancelled: a cancel shows as a failed request)
  }

  async interrupt(sessionId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    options = optionsObject(options, "transport.interrupt");
    const path = `/sessions/${encodeURIComponent(sessionIdSegment(sessionId, "sessionId"))}/interrupt`;
    const response = await this.#request("POST", path, { agent_id: this.#agentId }, undefined, options.signal, "any");
    await response.text();
  }

  async status(sessionId: string, options: { signal?: AbortSignal } = {}): Promise<ServiceStatus> {
    options = optionsObject(options, "transport.status");
    const path = `/sessions/${encodeURIComponent(sessionIdSegment(sessionId, "sessionId"))}/status`;
    const response = await this.#request("GET", path, { agent_id: this.#agentId }, undefined, options.signal, "any");
    const body = await this.#json<{ status?: unknown } | null>(response, `GET ${path}`);
    const status = isObject(body) ? body.status : undefined;
    if (typeof status !== "string") throw new MsgError("http_error", `GET ${path}: no status in the response`, { status: response.status });
    return status as ServiceStatus;
  }
}

/**
 * Checks the messages of a history page as the chat reads them: each an object with a
 * string `id` and `role` and a `content` list of blocks, each block an object with a
 * string `type` (a tool call or result also a string `id`). Throws `http_error` (with
 * `status`, the answer's) for the first that is not, before anything of the page is used.
 */
export function checkMessages(messages: unknown, what: string, status?: number): asserts messages is MsgJSON[] {
  if (!Array.isArray(messages)) throw new MsgError("http_error", `${what}: no messages in the response`, { status });
  messages.forEach((m: unknown, i) => {
    if (!isObject(m) || typeof m.id !== "string" || typeof m.role !== "string" || !Array.isArray(m.content)) {
      throw new MsgError("http_error", `${what}: messages[${i}] is not a message`, { status });
    }
    (m.content as unknown[]).forEach((b, j) => {
      const block = b as Record<string, unknown>;
      if (!isObject(b) || typeof block.type !== "string" || ((block.type === "tool_call" || block.type === "tool_result") && typeof block.id !== "string")) {
        throw new MsgError("http_error", `${what}: messages[${i}].content[${j}] is not a content block`, { status });
      }
    });
  });
}

/** Whether `value` is a JSON object (not null, not an array). */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A signal that aborts when either does: `AbortSignal.any` (node 20.3, every current browser), else linked by hand. */
function anySignal(a: AbortSignal, b: AbortSignal): AbortSignal {
  const any = (AbortSignal as { any?: (signals: AbortSignal[]) => AbortSignal }).any;
  if (typeof any === "function") return any.call(AbortSignal, [a, b]);
  const both = new AbortController();
  for (const s of [a, b]) {
    if (s.aborted) both.abort(s.reason);
    else s.addEventListener("abort", () => both.abort(s.reason), { once: true });
  }
  return both.signal;
}

/** The statuses whose response has no body (fetch's null body statuses). */
const NULL_BODY: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/** The abort reason of a request past `timeoutMs`. */
const TIMED_OUT = Symbol("timed out");

/** The system error codes of a connection that was never made (the request was not sent). */
const NOT_CONNECTED = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL", "UND_ERR_CONNECT_TIMEOUT"]);

/**
 * Whether a rejected `fetch` never connected: the code of its cause (node's fetch: `cause.code`),
 * or the words "connection refused" (Deno, Bun). A browser's "Failed to fetch" says neither.
 */
function neverConnected(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; typeof e === "object" && e !== null && depth < 4; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === "string" && NOT_CONNECTED.has(code)) return true;
    if (typeof message === "string" && /connection refused|ECONNREFUSED/i.test(message)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** A failed fetch's message and its cause's. */
function describe(error: unknown): string {
  const e = error as { message?: unknown; cause?: { message?: unknown; code?: unknown } } | null;
  const head = String(e?.message ?? error);
  const cause = e?.cause;
  const more = cause === undefined || cause === null ? "" : String(cause.code ?? cause.message ?? "");
  return more !== "" && !head.includes(more) ? `${head}: ${more}` : head;
}
