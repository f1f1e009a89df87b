// Types of web-demo/server.mjs for the TS tests.
import type { Server } from "node:http";
export function startDemoServer(options?: { port?: number; host?: string; speed?: number }): Promise<{
  server: Server;
  url: string;
  close: () => Promise<void>;
}>;
