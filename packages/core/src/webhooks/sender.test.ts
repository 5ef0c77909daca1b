import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { loadConfig } from "../shared/config";
import { RESPONSE_EXCERPT_BYTES } from "./model";
import { sendWebhook } from "./sender";
import { newSigningSecret, signedHeaders, WEBHOOK_USER_AGENT } from "./signing";
import type { HostResolver } from "./ssrf";

/**
 * Delivery attempts against a real receiver on this machine (WEBHOOK_LOCAL_TARGETS on, as on the
 * embedded stack), answering each way a receiver can; and the check at delivery with the flag
 * off, where a name that now resolves to 127.0.0.1 is refused before any connection.
 */

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
const received: Received[] = [];
const openSockets = new Set<import("node:net").Socket>();
let server: http.Server;
let port: number;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ path: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks).toString() });
      switch (request.url) {
        case "/ok":
          return response.writeHead(200, { "content-type": "text/plain" }).end("thanks");
        case "/fail":
          return response.writeHead(500).end("boom");
        case "/gone":
          return response.writeHead(410).end("no longer here");
        case "/redirect":
          return response.writeHead(302, { location: "/ok" }).end();
        case "/slow-headers":
          return; // never answers
        case "/slow-body":
          response.writeHead(200);
          return response.write("partial"); // and never ends
        case "/huge":
          response.writeHead(200, { "content-type": "text/plain" });
          return response.end("é".repeat(512 * 1024));
        default:
          return response.writeHead(404).end();
      }
    });
  });
  server.on("connection", (socket) => {
    openSockets.add(socket);
    socket.on("close", () => openSockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const socket of openSockets) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
});

/** Names resolve only as the test says: receiver.test is this machine. */
const resolve: HostResolver = async (hostname) => {
  if (hostname === "receiver.test" || hostname === "rebound.example.com") return [{ address: "127.0.0.1", family: 4 }];
  throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
};
const local = { config: loadConfig({ WEBHOOK_LOCAL_TARGETS: "true" }), resolveHost: resolve };
const cloud = { config: loadConfig({}), resolveHost: resolve };

const body = JSON.stringify({ id: "evt_1", type: "webhook.test", created_at: "2026-11-29T10:00:00.000Z", data: {} });
const send = (
  path: string,
  options: Parameters<typeof sendWebhook>[2] = {},
  ctx = local,
  secret = newSigningSecret(),
) =>
  sendWebhook(
    ctx,
    { url: `http://receiver.test:${port}${path}`, headers: signedHeaders([secret], "evt_1", new Date(), body), body },
    options,
  );

describe("sendWebhook", () => {
  it("delivers a signed request to exactly the checked address, with the name kept as Host", async () => {
    const secret = newSigningSecret();
    const result = await send("/ok", {}, local, secret);
    expect(result).toMatchObject({ status_code: 200, error: null, response_excerpt: "thanks" });
    expect(result.latency_ms).toBeGreaterThanOrEqual(0);
    const request = received.at(-1)!;
    expect(request.headers.host).toBe(`receiver.test:${port}`);
    expect(request.headers["user-agent"]).toBe(WEBHOOK_USER_AGENT);
    expect(request.body).toBe(body);
    expect(new Webhook(secret).verify(request.body, request.headers as Record<string, string>)).toEqual(
      JSON.parse(body),
    );
  });

  it("reports a 500 and a 410 with their bodies", async () => {
    expect(await send("/fail")).toMatchObject({ status_code: 500, error: null, response_excerpt: "boom" });
    expect(await send("/gone")).toMatchObject({ status_code: 410, response_excerpt: "no longer here" });
  });

  it("follows no redirect: a 3xx is the attempt's answer", async () => {
    const before = received.length;
    const result = await send("/redirect");
    expect(result).toMatchObject({ status_code: 302, error: "redirects are not followed" });
    expect(received.slice(before).map((request) => request.path)).toEqual(["/redirect"]);
  });

  it("times out a receiver that never answers, or never finishes its body", async () => {
    expect(await send("/slow-headers", { timeoutMs: 300 })).toMatchObject({
      status_code: null,
      error: "timed out after 0.3 s",
    });
    const slowBody = await send("/slow-body", { timeoutMs: 300 });
    expect(slowBody).toMatchObject({ status_code: null, error: "timed out after 0.3 s" });
    expect(slowBody.latency_ms).toBeGreaterThanOrEqual(250);
  });

  it("reads at most RESPONSE_EXCERPT_BYTES of a huge answer", async () => {
    const result = await send("/huge");
    expect(result.status_code).toBe(200);
    expect(Buffer.byteLength(result.response_excerpt)).toBeLessThanOrEqual(RESPONSE_EXCERPT_BYTES + 2);
    expect(result.response_excerpt.length).toBeGreaterThan(500);
  });

  it("reports a refused connection in words", async () => {
    const closed = http.createServer();
    await new Promise<void>((done) => closed.listen(0, "127.0.0.1", done));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((done) => closed.close(done));
    const result = await sendWebhook(local, { url: `http://127.0.0.1:${closedPort}/`, headers: {}, body });
    expect(result).toMatchObject({ status_code: null, error: "connection refused", response_excerpt: "" });
  });

  it("refuses at delivery a name that now resolves to 127.0.0.1, before connecting (flag off)", async () => {
    const before = received.length;
    const result = await sendWebhook(cloud, { url: "https://rebound.example.com/hook", headers: {}, body });
    expect(result).toMatchObject({
      status_code: null,
      error: "refused: the name now resolves to a loopback address",
      response_excerpt: "",
    });
    expect(received.length).toBe(before);
  });

  it("refuses at delivery what registration refuses, and a name that no longer resolves", async () => {
    expect(await sendWebhook(cloud, { url: "http://receiver.test/", headers: {}, body })).toMatchObject({
      error: "refused: not https",
    });
    expect(await sendWebhook(local, { url: "http://10.0.0.1/", headers: {}, body })).toMatchObject({
      error: "refused: the URL points at a private address",
    });
    expect(await sendWebhook(cloud, { url: "https://gone.example.com/", headers: {}, body })).toMatchObject({
      error: "refused: the name does not resolve",
    });
  });
});
