import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { isApiPath } from "../spec/routes";
import { LOOPBACK } from "./ports";

interface FetchApp {
  fetch(request: Request, env?: unknown): Response | Promise<Response>;
}

/**
 * One port for everything, as CloudFront does in the cloud: API paths (infra/spec/routes) go to
 * the Hono app, everything else is the built SPA with index.html as the fallback for deep links.
 */
export function createLocalHost(api: FetchApp, staticDir: string | null) {
  const host = new Hono();
  host.all("*", async (c, next) => (isApiPath(c.req.path) ? api.fetch(c.req.raw, c.env) : next()));
  if (staticDir) {
    const root = path.relative(process.cwd(), staticDir) || ".";
    host.use("*", serveStatic({ root }));
    const indexFile = path.join(staticDir, "index.html");
    host.get("*", async (c) =>
      existsSync(indexFile) ? c.html(await readFile(indexFile, "utf8")) : c.text("The web app has not been built: run npm run build:web", 503),
    );
  }
  return host;
}

export function listen(app: FetchApp, port: number, host = LOOPBACK): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname: host }, () => resolve(server as Server));
    (server as Server).once("error", reject);
  });
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
