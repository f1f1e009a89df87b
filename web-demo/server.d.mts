// Types of web-demo/server.mjs for the TS tests.
import type { Server } from "node:http";
export function startDemoServer(options?: {
  port?: number;
  host?: string;
  speed?: number;
  maxSessions?: number;
  sessionTtlMs?: number;
}): Promise<{
  server: Server;
  url: string;
  /** How many sessions the server keeps. */
  sessions: () => number;
  close: () => Promise<void>;
}>;
