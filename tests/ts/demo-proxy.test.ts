// The live demo's proxy (web-demo/server.mjs, `startDemoServer({live})`) in front of the live
// agentscope 2.0.11 service, with a recording proxy between them (tests/ts/service.ts
// startProxy: it sees every request that reaches the service). Bug 7 of issue 29: only the
// allowlisted requests of the demo app reach the service, always as the service's user and the
// demo's agent, and a body over 16 MiB is a 413. And `node web-demo/server.mjs --live`, the
// command that starts the service and the demo together. No browser, no mocks.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { request } from "node:http";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { MAX_LIVE_BODY, startDemoServer } from "../../web-demo/server.mjs";
import { type Json, root } from "./helpers.ts";
import { api, newSession, startProxy, startService, type Proxy, type Service } from "./service.ts";

let service: Service;
let recorder: Proxy;
let demo: { url: string; close: () => Promise<void> };

before(async () => {
  service = await startService();
  recorder = await startProxy(service.url);
  demo = await startDemoServer({ port: 0, live: { url: recorder.url, agentId: service.agentId, userId: service.userId, chatModelConfig: service.info.chat_model_config } });
});

after(async () => {
  await demo?.close();
  await recorder?.close();
  assert.equal(await service?.stop(), 0, service?.log());
});

/** A request to the demo server's `/api…` as a browser would send it (any headers, any body). */
function send(method: string, path: string, { headers = {}, body }: { headers?: Record<string, string>; body?: Buffer | string } = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const out = request(`${demo.url}api${path}`, { method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode!, text }));
    });
    // a refused upload may be cut short: the answer already came
    out.on("error", (e) => reject(e));
    out.end(body);
  });
}

/** What reached the service during `run` (`METHOD /path`, per the recording proxy). */
async function reached(run: () => Promise<unknown>): Promise<string[]> {
  const from = recorder.requests.length;
  await run();
  await new Promise((r) => setTimeout(r, 100));
  return recorder.requests.slice(from);
}

const json = { "Content-Type": "application/json" };

test("the demo app's requests are forwarded: list, create, rename, permission mode, messages, status, chat, interrupt, delete", async () => {
  const seen = await reached(async () => {
    const created = await send("POST", "/sessions/", { headers: json, body: JSON.stringify({ chat_model_config: service.info.chat_model_config }) });
    assert.equal(created.status, 201, created.text);
    const { session_id: sid } = JSON.parse(created.text);
    assert.equal((await send("PATCH", `/sessions/${sid}`, { headers: json, body: JSON.stringify({ name: "Renamed" }) })).status, 200);
    assert.equal((await send("PATCH", `/sessions/${sid}`, { headers: json, body: JSON.stringify({ permission_mode: "accept_edits" }) })).status, 200);
    const list = JSON.parse((await send("GET", "/sessions/")).text);
    const mine = list.sessions.find((v: Json) => v.session.id === sid);
    assert.equal(mine.session.config.name, "Renamed");
    assert.equal(mine.session.state.permission_context.mode, "accept_edits");
    assert.equal((await send("POST", "/chat/", { headers: json, body: JSON.stringify({ session_id: sid, input: { name: "user", role: "user", content: [{ type: "text", text: "hi" }] } }) })).status, 200);
    assert.equal((await send("GET", `/sessions/${sid}/messages`)).status, 200);
    assert.equal((await send("GET", `/sessions/${sid}/status`)).status, 200);
    assert.equal((await send("POST", `/sessions/${sid}/interrupt`)).status, 202);
    assert.equal((await send("DELETE", `/sessions/${sid}`)).status, 204);
  });
  assert.deepEqual(seen.map((r) => r.replace(/[0-9a-f]{32}/, "S")), ["POST /sessions/", "PATCH /sessions/S", "PATCH /sessions/S", "GET /sessions/", "POST /chat/", "GET /sessions/S/messages", "GET /sessions/S/status", "POST /sessions/S/interrupt", "DELETE /sessions/S"]);
});

test("requests outside the allowlist get a 403 / 404 and never reach the service", async () => {
  const sid = await newSession(service);
  const refused: [string, string, number, string?][] = [
    ["PUT", `/sessions/${sid}`, 403],
    ["POST", `/sessions/${sid}`, 403],
    ["GET", `/sessions/${sid}`, 403],
    ["DELETE", "/sessions/", 403],
    ["POST", `/sessions/${sid}/stream`, 403],
    ["GET", `/sessions/${sid}/other`, 403],
    ["GET", "/chat/", 403],
    ["PATCH", `/sessions/${sid}`, 403, JSON.stringify({ chat_model_config: null })],
    ["GET", "/credential/", 404],
    ["GET", "/agent/", 404],
    ["POST", "/agent/", 404],
  ];
  const seen = await reached(async () => {
    for (const [method, path, status, body] of refused) {
      const answer = await send(method, path, body === undefined ? {} : { headers: json, body });
      assert.equal(answer.status, status, `${method} ${path}: ${answer.text}`);
    }
  });
  assert.deepEqual(seen, []);
});

test("the browser's X-User-ID is replaced by the service's user, and agent_id by the demo's agent", async () => {
  const spoofed = { ...json, "X-User-ID": "mallory" };
  const created = await send("POST", "/sessions/", { headers: spoofed, body: JSON.stringify({ agent_id: "someone-elses-agent", chat_model_config: service.info.chat_model_config }) });
  assert.equal(created.status, 201, created.text);
  const { session_id: sid } = JSON.parse(created.text);
  // the session is the service user's, of the demo's agent
  const list = await api(service, "GET", `/sessions/?agent_id=${service.agentId}`);
  assert.ok(list.sessions.some((v: Json) => v.session.id === sid && v.session.user_id === service.userId));
  // another agent's sessions are out of reach: the query's agent_id is the demo's
  const other = await api(service, "POST", "/agent/", { name: "Other", system_prompt: "Another agent." });
  const theirs = (await api(service, "POST", "/sessions/", { agent_id: other.agent_id, chat_model_config: service.info.chat_model_config })).session_id;
  const listed = JSON.parse((await send("GET", `/sessions/?agent_id=${other.agent_id}`, { headers: spoofed })).text);
  assert.ok(listed.sessions.every((v: Json) => v.session.agent_id === service.agentId));
  assert.equal(listed.sessions.some((v: Json) => v.session.id === theirs), false);
  assert.ok(listed.sessions.some((v: Json) => v.session.id === sid));
  // a spoofed user of the browser alone (no header to the service from it) still works as the service's user
  assert.equal((await send("GET", `/sessions/${sid}/status`, { headers: { "X-User-ID": "" } })).status, 200);
});

test("a body over 16 MiB is a 413 (with or without Content-Length) and never reaches the service; 16 MiB is forwarded", async () => {
  assert.equal(MAX_LIVE_BODY, 16 * 1024 * 1024);
  const sid = await newSession(service);
  const big = Buffer.alloc(17 * 1024 * 1024, 0x20);
  const seen = await reached(async () => {
    const withLength = await send("POST", "/chat/", { headers: { ...json, "Content-Length": String(big.length) }, body: big });
    assert.equal(withLength.status, 413);
    const chunked = await send("POST", "/chat/", { headers: { ...json, "Transfer-Encoding": "chunked" }, body: big });
    assert.equal(chunked.status, 413);
  });
  assert.deepEqual(seen, []);
  // just under the cap: a base64 attachment of ~15 MiB goes through to the service
  const data = Buffer.alloc(11 * 1024 * 1024, 7).toString("base64");
  const body = JSON.stringify({ session_id: sid, input: { name: "user", role: "user", content: [{ type: "text", text: "seeimage" }, { type: "data", source: { type: "base64", media_type: "image/png", data } }] } });
  assert.ok(body.length < MAX_LIVE_BODY);
  const forwarded = await reached(async () => assert.equal((await send("POST", "/chat/", { headers: json, body })).status, 200));
  assert.deepEqual(forwarded, ["POST /chat/"]);
});

// (the command a user runs: in the node lane of the test command, no browser needed)
test("live: `node web-demo/server.mjs --live` starts the service and SIGTERM stops both", async () => {
  const child = spawn(process.execPath, [join(root, "web-demo/server.mjs"), "--live", "--port", "0"], { cwd: root, stdio: ["ignore", "pipe", "ignore"] });
  let stdout = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const urls = await new Promise<{ page: string; service: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL in 120 s: ${stdout}`)), 120_000);
    child.stdout!.on("data", (d: Buffer) => {
      stdout += d.toString();
      const page = /open (http:\/\/\S+)/.exec(stdout)?.[1];
      const service = /service at (http:\/\/\S+)/.exec(stdout)?.[1];
      if (page && service) {
        clearTimeout(timer);
        resolve({ page, service });
      }
    });
  });
  const html = await (await fetch(urls.page)).text();
  assert.match(html, /<meta name="agentscope-live"/);
  const config = JSON.parse(/<meta name="agentscope-live" content="([^"]*)"/.exec(html)![1]!.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n))));
  const created = await fetch(`${urls.page}api/sessions/`, { method: "POST", headers: { "X-User-ID": config.userId, "Content-Type": "application/json" }, body: JSON.stringify({ agent_id: config.agentId, chat_model_config: config.chatModelConfig }) });
  assert.equal(created.status, 201, "the page's /api reaches the service");
  child.kill("SIGTERM");
  assert.equal(await exited, 0);
  await assert.rejects(fetch(`${urls.service}/sessions/x/status?agent_id=x`, { headers: { "X-User-ID": "x" } }), "the service is gone too");
  await assert.rejects(fetch(urls.page), "the demo server is gone");
});
