import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "@fintech/functions/app";
import { closeServer, createLocalHost, listen } from "./server";
import { createTestContext } from "@fintech/testing/context";

type TestContext = Awaited<ReturnType<typeof createTestContext>>;
let core: TestContext;
let server: Server;
let port: number;

beforeAll(async () => {
  core = await createTestContext();
  server = await listen(createLocalHost(createApp(core), null), 0);
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  await closeServer(server);
  await core.dispose();
});

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Which connection carried it, to tell reuse from a fresh socket. */
  socketId: number;
}

let nextSocketId = 0;
const socketIds = new WeakMap<object, number>();

/** One request through the given agent; the body is sent as it is, however large. */
function send(agent: http.Agent, method: string, path: string, body?: Buffer): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        agent,
        headers: body ? { "Content-Type": "application/json", "Content-Length": body.length } : {},
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const socket = request.socket!;
          if (!socketIds.has(socket)) socketIds.set(socket, ++nextSocketId);
          resolve({
            status: response.statusCode!,
            headers: response.headers,
            body: Buffer.concat(chunks).toString(),
            socketId: socketIds.get(socket)!,
          });
        });
      },
    );
    // A server that closes mid-upload surfaces as EPIPE/ECONNRESET on the upload; the reply may still come.
    request.on("error", reject);
    request.end(body);
  });
}

const largeBody = (bytes: number) => Buffer.from(JSON.stringify({ padding: "x".repeat(bytes) }));

describe("the local one-port server and bodies it does not read", () => {
  it.each([
    ["a 404 on a route that ignores its body", "POST", "/api/v1/no-such-route", 404, 512 * 1024],
    ["a 413 for a body over the limit", "POST", "/api/v1/auth/login", 413, 2 * 1024 * 1024],
  ])("%s leaves the connection usable, or says Connection: close", async (_case, method, path, status, size) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await send(agent, method, path, largeBody(size));
      expect(first.status).toBe(status);
      const second = await send(agent, "GET", "/health");
      expect(second.status).toBe(200);
      // Either the socket was kept and reused, or the first reply told the client it would close.
      if (first.headers.connection !== "close") expect(second.socketId).toBe(first.socketId);
    } finally {
      agent.destroy();
    }
  });

  it("keeps the connection alive after a reply whose body was read", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await send(
        agent,
        "POST",
        "/api/v1/auth/login",
        Buffer.from(JSON.stringify({ email: "a@example.com", password: "x" })),
      );
      expect(first.status).toBe(401);
      expect(first.headers.connection).toBe("keep-alive");
      const second = await send(agent, "GET", "/health");
      expect(second.status).toBe(200);
      expect(second.socketId).toBe(first.socketId);
    } finally {
      agent.destroy();
    }
  });
});

describe("the SPA's security headers on the local server", () => {
  it("serves the built site under the same CSP as CloudFront, minus the HTTPS upgrade", async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), "fintech-site-"));
    try {
      writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>site</title>");
      const host = createLocalHost(createApp(core), dist);
      for (const page of ["/", "/ledger/deep/link"]) {
        const reply = await host.request(page);
        expect(reply.status).toBe(200);
        const csp = reply.headers.get("content-security-policy") ?? "";
        expect(csp).toContain("script-src 'self'");
        expect(csp).toContain("frame-ancestors 'none'");
        expect(csp).not.toContain("upgrade-insecure-requests");
        expect(reply.headers.get("x-content-type-options")).toBe("nosniff");
        expect(reply.headers.get("x-frame-options")).toBe("DENY");
      }
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
