// A raw client of the AgentScope 2.0.11 app API over any `fetch` (the real service's, through
// node's global fetch, or `SimService.fetch`): JSON calls, an SSE observer and the scripted
// scenarios of scripts/agentscope-service.md, played the same way on both so that
// tests/ts/sim-service.test.ts can compare what each stored and streamed.
import type { Json } from "../ts/helpers.ts";

/** Where a scenario runs: a base URL, the `fetch` that reaches it, and the service's ids. */
export interface Endpoint {
  /** The base URL requests go to (an instance). */
  base: string;
  fetch: typeof fetch;
  agentId: string;
  userId: string;
  /** What `POST /sessions/` needs as `chat_model_config` (the scripted model). */
  chatModelConfig: Json;
  /** Waits `ms` (real time for the live service; the simulation's own clock otherwise). */
  sleep: (ms: number) => Promise<void>;
}

/** One HTTP answer: its status and its JSON body (null when empty). */
export interface Answer {
  status: number;
  json: Json;
}

/** One request with `X-User-ID` and a JSON body; resolves the status and the parsed body. */
export async function call(ep: Endpoint, method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await ep.fetch(`${ep.base}${path}`, {
    method,
    headers: { "X-User-ID": ep.userId, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text === "" ? null : JSON.parse(text) };
}

/** `call` that fails on a non-2xx answer; resolves the JSON body. */
export async function ok(ep: Endpoint, method: string, path: string, body?: unknown): Promise<Json> {
  const answer = await call(ep, method, path, body);
  if (answer.status < 200 || answer.status > 299) throw new Error(`${method} ${path}: HTTP ${answer.status} ${JSON.stringify(answer.json)}`);
  return answer.json;
}

/** A new session of the scripted model; resolves its id. */
export async function createSession(ep: Endpoint): Promise<string> {
  return (await ok(ep, "POST", "/sessions/", { agent_id: ep.agentId, chat_model_config: ep.chatModelConfig })).session_id;
}

/** Every stored message of a session (all pages of `GET /sessions/{sid}/messages`, oldest first). */
export async function storedAll(ep: Endpoint, sessionId: string): Promise<Json[]> {
  const all: Json[] = [];
  let before: string | undefined;
  for (;;) {
    const query = `agent_id=${ep.agentId}&limit=200${before === undefined ? "" : `&before=${before}`}`;
    const page = await ok(ep, "GET", `/sessions/${sessionId}/messages?${query}`);
    all.unshift(...page.messages);
    if (!page.has_more || page.messages.length === 0) return all;
    before = page.messages[0].id;
  }
}

/** `POST /chat/` of a user message (a text or blocks); resolves the answer (a 409 included). */
export function send(ep: Endpoint, sessionId: string, content: string | Json[]): Promise<Answer> {
  const blocks = typeof content === "string" ? [{ type: "text", text: content }] : content;
  return call(ep, "POST", "/chat/", { agent_id: ep.agentId, session_id: sessionId, input: { name: "user", role: "user", content: blocks } });
}

/** `POST /chat/` of any input (a HITL result, null, a list). */
export function post(ep: Endpoint, sessionId: string, input: unknown): Promise<Answer> {
  return call(ep, "POST", "/chat/", { agent_id: ep.agentId, session_id: sessionId, input });
}

/** A raw observer of a session's stream: every event in arrival order. */
export interface Watch {
  events: Json[];
  /** Resolves once the response's headers came (rejects on a non-2xx). */
  ready: Promise<void>;
  /** Waits until `done(events)` (polled every 10 ms of `ep.sleep`), failing after `ms`. */
  until: (done: (events: Json[]) => boolean, what: string, ms?: number) => Promise<void>;
  /** Whether the body ended (EOF) or failed. */
  ended: () => boolean;
  close: () => void;
}

/** Opens `GET /sessions/{sid}/stream` through `ep.fetch` and parses its `data:` frames. */
export function watch(ep: Endpoint, sessionId: string, after?: string): Watch {
  const events: Json[] = [];
  const abort = new AbortController();
  let done = false;
  let failure: unknown;
  const query = `agent_id=${ep.agentId}${after === undefined ? "" : `&after=${after}`}`;
  const ready = (async () => {
    const response = await ep.fetch(`${ep.base}/sessions/${sessionId}/stream?${query}`, { headers: { "X-User-ID": ep.userId }, signal: abort.signal });
    if (!response.ok || response.body === null) throw new Error(`stream of ${sessionId}: HTTP ${response.status}`);
    const reader = response.body.getReader();
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = "";
      try {
        for (;;) {
          const { value, done: end } = await reader.read();
          if (end) break;
          buffer += decoder.decode(value, { stream: true });
          for (let i = buffer.indexOf("\n\n"); i >= 0; i = buffer.indexOf("\n\n")) {
            const frame = buffer.slice(0, i);
            buffer = buffer.slice(i + 2);
            const data = frame.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).replace(/^ /, ""));
            if (data.length > 0) events.push(JSON.parse(data.join("\n")));
          }
        }
      } catch (e) {
        if (!abort.signal.aborted) failure = e;
      } finally {
        done = true;
      }
    })();
  })();
  ready.catch((e) => void (failure = e));
  const until = async (ok: (events: Json[]) => boolean, what: string, ms = 30_000) => {
    for (let waited = 0; !ok(events); waited += 10) {
      if (failure !== undefined) throw failure;
      if (waited > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}; got ${events.map((e) => e.type).join(" ")}`);
      await ep.sleep(10);
    }
  };
  return { events, ready, until, ended: () => done, close: () => abort.abort() };
}

/** A matcher of a CUSTOM event by name. */
export const custom = (name: string) => (e: Json) => e.type === "CUSTOM" && e.name === name;
/** How many events match. */
export const count = (events: Json[], ok: (e: Json) => boolean) => events.filter(ok).length;
