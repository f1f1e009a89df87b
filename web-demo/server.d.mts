// Types of web-demo/server.mjs for the TS tests.
import type { Server } from "node:http";

/** A running AgentScope 2.0 service the live page talks to (through the demo server's `/api`). */
export interface LiveService {
  /** The service's base URL, e.g. `http://127.0.0.1:8000`. */
  url: string;
  agentId: string;
  /** Sent by the page as `X-User-ID`. */
  userId: string;
  /** The `chat_model_config` of the sessions the page creates (`POST /sessions/`). */
  chatModelConfig?: Record<string, unknown> | null;
}

/** The largest request body the live proxy forwards (16 MiB); a larger one is a 413. */
export const MAX_LIVE_BODY: number;

export function startDemoServer(options?: {
  port?: number;
  host?: string;
  speed?: number;
  maxSessions?: number;
  sessionTtlMs?: number;
  /** Live mode: the page is a chat with this service (recordings are not served). */
  live?: LiveService | null;
}): Promise<{
  server: Server;
  url: string;
  /** Whether the page is in live mode. */
  live: boolean;
  /** How many sessions the server keeps. */
  sessions: () => number;
  close: () => Promise<void>;
}>;

/** Starts `scripts/agentscope-service`: `ready` resolves with its {@link LiveService}. */
export function startAgentScopeService(options?: {
  /** More environment of the service, e.g. `AGENTSCOPE_SERVICE_DELAY_MS`. */
  env?: Record<string, string>;
  /** Keep its stderr (see `log`) instead of passing it through. */
  quiet?: boolean;
  /** Its arguments, e.g. `["--redis"]` (Redis and two instances on it). */
  args?: string[];
}): {
  pid: number | undefined;
  /** With `info`, the whole JSON line the service printed. */
  ready: Promise<LiveService & { info: { urls: string[]; pids: number[]; redis?: { host: string; port: number; pid: number } } & Record<string, unknown> }>;
  /** SIGTERM; resolves with its exit code (or signal) once it exited. */
  stop: () => Promise<number | string | null>;
  exited: Promise<number | string | null>;
  /** Its last stderr output (with `quiet`). */
  log: () => string;
};
