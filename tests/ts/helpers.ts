// Fixture loading and comparison shared by the TS suites (mirrors tests/common/mod.rs).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { splitEvents } from "../../pkg/dist/index.js";

export const root = fileURLToPath(new URL("../..", import.meta.url));

// deno-lint-ignore no-explicit-any
export type Json = any;

export function conformanceCases(): [string, Json][] {
  const dir = join(root, "tests/fixtures/conformance");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => [f.slice(0, -5), JSON.parse(readFileSync(join(dir, f), "utf8"))]);
}

export function recordings(): string[] {
  const dir = join(root, "examples/recordings");
  return readdirSync(dir)
    .map((d) => join(dir, d))
    .filter((d) => statSync(d).isDirectory())
    .sort();
}

/** The error code this port reports for a fixture's `expected_error`. */
export function ourCode(expected: string): string {
  return expected === "reducer_exception" ? "base64_after_url" : expected;
}

/** Messages as compared with the stored ones: deep copies with what the reducer makes up itself nulled. */
export function comparable(messages: readonly Json[]): Json[] {
  return messages.map((m) => {
    const copy = thaw(m);
    nullRecordingVolatiles(copy);
    return copy;
  });
}

/** Sets every JSON pointer in `paths` that exists in `value` to null. */
export function nullPaths(value: Json, paths: string[]): void {
  for (const p of paths) {
    const parts = p.split("/").slice(1).map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
    let node = value;
    for (const part of parts.slice(0, -1)) node = node?.[part];
    const last = parts[parts.length - 1]!;
    if (node !== null && typeof node === "object" && last in node) node[last] = null;
  }
}

/** What the reducer makes up itself in a recording (see examples/recordings/README.md). */
export function nullRecordingVolatiles(msg: Json): void {
  msg.created_at = null;
  for (const block of msg.content) {
    block.created_at = null;
    if (block.type === "hint") block.finished_at = null;
    if (Array.isArray(block.output)) {
      for (const item of block.output) {
        item.created_at = null;
        if (item.type === "text") item.id = null;
      }
    }
  }
}

/** A recording's final_msg.json as wire JSON text, with its volatiles nulled (what the
 * consumer apps of tests/bundlers/rebuild.js print). */
export function recordingFinalText(dir: string): string {
  const want = JSON.parse(readFileSync(join(dir, "final_msg.json"), "utf8"));
  nullRecordingVolatiles(want);
  return JSON.stringify(want);
}

/** A deep copy that can be edited (snapshots are frozen). */
export function thaw(value: unknown): Json {
  return JSON.parse(JSON.stringify(value));
}

/** The events of a recording, as JSON texts, framed by the package's own framer. */
export function recordingEvents(dir: string, file: "events.jsonl" | "events.sse"): string[] {
  return splitEvents(readFileSync(join(dir, file)));
}

/**
 * Packs pkg/ with `npm pack` into `scratch` and installs the tarball there, as a user
 * gets the package: a fresh ESM project named `name` that depends on it.
 */
export function installPackedPackage(scratch: string, name: string): void {
  execFileSync("npm", ["pack", "--pack-destination", scratch, "--silent"], { cwd: join(root, "pkg") });
  const tarball = readdirSync(scratch).find((f) => f.endsWith(".tgz"));
  if (tarball === undefined) throw new Error("npm pack made no tarball");
  writeFileSync(
    join(scratch, "package.json"),
    JSON.stringify({ name, private: true, type: "module", dependencies: { "agentscope-message": `file:./${tarball}` } }),
  );
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--silent"], { cwd: scratch });
}

/** Debian's Chromium, headless, with the flags this machine's closed network needs. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}

/** A port nobody listens on now, on 127.0.0.1 (Vite 7 reads `port: 0` as its default 5173). */
export async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * Listens on a free loopback port; resolves its base URL and a `close` that ends every
 * connection still open (SSE streams, keep-alive), then the server.
 */
export async function listenLoopback(server: import("node:http").Server): Promise<{ base: string; close: () => Promise<void> }> {
  const sockets = new Set<import("node:net").Socket>();
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as import("node:net").AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A session record as agentscope 2.0.11 answers it (`GET /sessions/{id}`, each entry's
 * `session` in `GET /sessions/`), for fake services: `name`, `naming.auto` and the
 * permission `mode` as given, every other field fixed.
 */
export function sessionRecord(id: string, name: string, o: { auto?: boolean; mode?: string } = {}): Json {
  const t = "2026-01-01T00:00:00.000001";
  return {
    id,
    created_at: t,
    updated_at: t,
    user_id: "u",
    agent_id: "a",
    origin: { type: "user" },
    team_id: null,
    config: { workspace_id: "w", name, naming: { auto: o.auto ?? false }, cwd: null, chat_model_config: null, fallback_chat_model_config: null, tts_model_config: null, realtime_model_config: null, knowledge_config: null },
    state: { tasks_context: { tasks: [] }, permission_context: { mode: o.mode ?? "default", working_directories: {}, allow_rules: {}, deny_rules: {}, ask_rules: {} } },
  };
}
