import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { createServer, type RequestListener, type Server } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { localSiteSecurityHeaders } from "../security-headers";
import { isApiPath } from "../resources/routes";
import { devMailRoutes, type DevMailSource } from "./dev-mail";
import { LOOPBACK } from "./ports";

interface FetchApp {
  fetch(request: Request, env?: unknown): Response | Promise<Response>;
}

/**
 * One port for everything, as CloudFront does in the cloud: API paths (infra/resources/routes) go to
 * the Hono app, everything else is the built SPA with index.html as the fallback for deep links.
 */
export function createLocalHost(
  api: FetchApp,
  staticDir: string | null,
  options: { documentStoreOrigins?: readonly string[]; mail?: DevMailSource } = {},
) {
  const host = new Hono();
  host.all("*", async (c, next) => (isApiPath(c.req.path) ? api.fetch(c.req.raw, c.env) : next()));
  // The local mail sink in the browser (/dev/mail): a local host only, never the cloud's API.
  if (options.mail) host.route("/", devMailRoutes(options.mail));
  if (staticDir) {
    const root = path.relative(process.cwd(), staticDir) || ".";
    const securityHeaders = localSiteSecurityHeaders(options.documentStoreOrigins);
    host.use("*", async (c, next) => {
      await next();
      for (const [name, value] of Object.entries(securityHeaders)) c.res.headers.set(name, value);
    });
    host.use("*", serveStatic({ root }));
    const indexFile = path.join(staticDir, "index.html");
    host.get("*", async (c) =>
      existsSync(indexFile)
        ? c.html(await readFile(indexFile, "utf8"))
        : c.text("The web app has not been built: run npm run build:web", 503),
    );
  }
  return host;
}

/**
 * A reply may go out before the request body has arrived: a 413 from the body limit, a 404 on a
 * route that never reads its body. Node would then announce `Connection: keep-alive` while the
 * rest of the upload is still in the socket, and the adapter gives up draining it and destroys
 * the socket, so the client's next request on that connection fails. Such replies say
 * `Connection: close` instead, and the socket is closed cleanly after the reply: the client
 * knows to open a new one. A body that has fully arrived (read or not) keeps the connection.
 */
export function closeWhenBodyUnread(listener: RequestListener): RequestListener {
  return (request, response) => {
    const writeHead = response.writeHead;
    response.writeHead = function (this: typeof response, ...args: Parameters<typeof writeHead>) {
      if (!request.complete) response.shouldKeepAlive = false;
      return writeHead.apply(this, args);
    } as typeof writeHead;
    return listener(request, response);
  };
}

export function listen(app: FetchApp, port: number, host = LOOPBACK): Promise<Server> {
  return listenWith(getRequestListener(app.fetch), port, host);
}

/** Serves a Node request listener (with closeWhenBodyUnread around it) on the port. */
export function listenWith(listener: RequestListener, port: number, host = LOOPBACK): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(closeWhenBodyUnread(listener));
    server.once("error", reject);
    server.listen(port, host, () => resolve(server));
  });
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
