// The browser suites' app under test: the package as users get it (`npm pack`, installed
// into a scratch consumer under target/, where vite and the frameworks resolve from the
// repository's node_modules by walking up), pages built by Vite 8 (and, with `dev`, its
// dev server under /dev/), one loopback server that serves them and forwards `/api/*` to
// the service (same origin: the service has no CORS), and headless Chromium.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import { extname, join, normalize } from "node:path";
import type { Browser, Page } from "playwright-core";
import { build, createServer as createViteServer, type InlineConfig, type ViteDevServer } from "vite";
import { installPackedPackage, launchChromium, listenLoopback, root } from "./helpers.ts";
import type { Service } from "./service.ts";

export interface ViteAppOptions {
  /** The scratch folder's prefix under target/ (and the consumer package's name). */
  name: string;
  /** The folder copied into the app, from the repository's root (default tests/chat-app). */
  from?: string;
  /** Single files copied in too: [from the repository's root, name in the app]. */
  files?: [string, string][];
  /** The pages of the production build (default index.html). */
  pages?: string[];
  /** What the build and the dev server add to Vite's inline config (plugins, oxc): called for each. */
  config?: () => InlineConfig;
  /** Also serve the app from Vite's dev server under /dev/ (its HMR socket on the same server). */
  dev?: boolean;
  /** Where `/api/*` goes (`/api` stripped): the service's base URL, asked per request. */
  api?: () => string;
  /** A route of the suite's own, tried first: true when it answered. */
  route?: (url: URL, req: IncomingMessage, res: ServerResponse) => boolean;
  /** Called before a built file is sent (it may wait), with its path and content type. */
  onStatic?: (pathname: string, type: string) => void | Promise<void>;
  /** Sees each `/api` request as it comes, as `METHOD /path` (the service's path, no query). */
  onRequest?: (line: string) => void;
  /** Sees a forwarded response (before a byte of it is relayed), with the service's path (no query). */
  onResponse?: (path: string, up: IncomingMessage) => void;
}

export interface ViteApp {
  /** The scratch folder (removed by `close`), the app's folder in it (the package installed, the pages copied in) and its build's. */
  scratch: string;
  app: string;
  dist: string;
  /** The server's base URL (`/` the build, `/dev/` the dev server, `/api/` the service). */
  base: string;
  browser: Browser;
  /** `/api` requests as `METHOD /path` (the service's path, no query), in order. */
  requests: string[];
  /** The `/api` paths of the event streams open now. */
  openStreams(): string[];
  /** Ends every event-stream connection open now (as a network drop would). */
  dropStreams(): void;
  /** A new page at `path` (appended to `base`), its problems collected (see {@link watchPage}). */
  open(path: string, options?: { warnings?: boolean }): Promise<{ page: Page; problems: string[] }>;
  /** Closes the browser, the servers and removes the scratch folder. */
  close(): Promise<void>;
}

const types: Record<string, string> = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".wasm": "application/wasm", ".css": "text/css" };

/**
 * Collects what `page` reports as problems: page errors and console errors (and, unless
 * `warnings` is false, console warnings). Returns the array it fills.
 */
export function watchPage(page: Page, warnings = true): string[] {
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e}`));
  page.on("console", (m) => {
    if (m.type() === "error" || (warnings && m.type() === "warning")) problems.push(`console.${m.type()}: ${m.text()}`);
  });
  return problems;
}

/** The query string the chat-app pages read: the service's user, agent and new sessions' model. */
export function serviceQuery(service: Service): string {
  return new URLSearchParams({ user: service.userId, agent: service.agentId, model: JSON.stringify(service.info.chat_model_config) }).toString();
}

/** Runs a Vite build and puts back the NODE_ENV it sets to production (the dev server must serve the dev builds). */
async function buildRestoringEnv(config: InlineConfig): Promise<void> {
  const nodeEnv = process.env.NODE_ENV;
  try {
    await build(config);
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

/** Installs, builds and serves the app of `options`, and launches Chromium. */
export async function startViteApp(options: ViteAppOptions): Promise<ViteApp> {
  mkdirSync(join(root, "target"), { recursive: true });
  const scratch = mkdtempSync(join(root, "target", `${options.name}-`));
  const app = join(scratch, "app");
  const dist = join(scratch, "dist");
  const requests: string[] = [];
  const streams = new Map<ServerResponse, string>();
  const config = options.config ?? (() => ({}));
  let vite: ViteDevServer | undefined;
  let closeServer: (() => Promise<void>) | undefined;
  let browser: Browser | undefined;
  const close = async (): Promise<void> => {
    await browser?.close();
    await closeServer?.();
    await vite?.close();
    rmSync(scratch, { recursive: true, force: true });
  };

  const forward = (req: IncomingMessage, res: ServerResponse): void => {
    const path = req.url!.slice("/api".length) || "/";
    const bare = path.split("?")[0]!;
    requests.push(`${req.method} ${bare}`);
    options.onRequest?.(requests.at(-1)!);
    if (/\/stream$/.test(bare)) {
      streams.set(res, bare);
      res.on("close", () => streams.delete(res));
    }
    const upstream = new URL(options.api!());
    const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path, headers: { ...req.headers, host: upstream.host } }, (up) => {
      options.onResponse?.(bare, up);
      res.writeHead(up.statusCode ?? 502, up.headers);
      res.flushHeaders(); // an event stream sends no byte until its first event (or a 30 s heartbeat)
      up.on("error", () => res.socket?.destroy());
      up.pipe(res);
    });
    out.on("error", () => res.socket?.destroy());
    res.on("close", () => out.destroy());
    req.pipe(out);
  };

  const serveBuilt = async (pathname: string, res: ServerResponse): Promise<void> => {
    const path = normalize(join(dist, decodeURIComponent(pathname === "/" ? "/index.html" : pathname)));
    if (!path.startsWith(dist) || !existsSync(path)) return void res.writeHead(404).end();
    const type = types[extname(path)] ?? "application/octet-stream";
    await options.onStatic?.(pathname, type);
    res.writeHead(200, { "content-type": type, "cache-control": "no-store" }).end(readFileSync(path));
  };

  try {
    mkdirSync(app);
    installPackedPackage(app, `${options.name}-consumer`);
    cpSync(join(root, options.from ?? "tests/chat-app"), app, { recursive: true });
    for (const [from, to] of options.files ?? []) cpSync(join(root, from), join(app, to));
    await buildRestoringEnv({
      root: app,
      configFile: false,
      logLevel: "error",
      ...config(),
      build: { outDir: dist, emptyOutDir: true, rolldownOptions: { input: (options.pages ?? ["index.html"]).map((f) => join(app, f)) } },
    });
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      if (options.route?.(url, req, res)) return;
      if (options.api !== undefined && url.pathname.startsWith("/api/")) return forward(req, res);
      if (vite !== undefined && url.pathname.startsWith("/dev/")) return vite.middlewares(req, res, () => res.writeHead(404).end());
      serveBuilt(url.pathname, res).catch(() => res.destroy());
    });
    if (options.dev) {
      vite = await createViteServer({
        root: app,
        mode: "development",
        base: "/dev/",
        configFile: false,
        logLevel: "error",
        clearScreen: false,
        appType: "mpa",
        ...config(),
        cacheDir: join(app, "node_modules/.vite-dev"),
        server: { middlewareMode: true, ws: { server } },
      });
    }
    const listening = await listenLoopback(server);
    closeServer = listening.close;
    browser = await launchChromium();
    const launched = browser;
    return {
      scratch,
      app,
      dist,
      base: listening.base,
      browser: launched,
      requests,
      openStreams: () => [...streams.values()],
      dropStreams: () => {
        for (const res of streams.keys()) res.socket?.destroy();
        streams.clear();
      },
      open: async (path, { warnings = true } = {}) => {
        const page = await launched.newPage();
        const problems = watchPage(page, warnings);
        await page.goto(`${listening.base}${path}`);
        return { page, problems };
      },
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}
