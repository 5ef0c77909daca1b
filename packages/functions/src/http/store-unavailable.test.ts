import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueToken, newSessionId } from "@fintech/core/auth/token";
import { loadConfig } from "@fintech/core/shared/config";
import { createContext, type CoreContext } from "@fintech/core/shared/context";
import { createDatabase, type StoreTimeouts } from "@fintech/core/shared/dynamo";
import { isStoreUnavailable } from "@fintech/core/shared/errors";
import { createObjectStorage, headBucket } from "@fintech/core/shared/storage";
import { createApp } from "../app";
import { freePort, LOOPBACK } from "../../../../infra/local/ports";
import { TEST_KEYS } from "@fintech/testing/context";

/** Short, so a stalled store is given up on quickly; the retry budget is still exercised. */
const SHORT: StoreTimeouts = { connectionTimeoutMs: 300, requestTimeoutMs: 400, maxAttempts: 2 };

/** Accepts TCP connections and never answers: a database that hangs. */
async function stalledEndpoint() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://${LOOPBACK}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function contextAgainst(endpoint: string): CoreContext {
  const config = loadConfig({
    STAGE: "test",
    TABLE_NAME: "unreachable",
    DYNAMODB_ENDPOINT: endpoint,
    S3_ENDPOINT: endpoint,
    ...TEST_KEYS,
    LOG_LEVEL: "silent",
  });
  return createContext(config, { db: createDatabase(config, SHORT), storage: createObjectStorage(config, SHORT) });
}

let stalled: Awaited<ReturnType<typeof stalledEndpoint>>;
let closedPort: string;

beforeAll(async () => {
  stalled = await stalledEndpoint();
  // A port that was free a moment ago and that nothing listens on: connections are refused.
  closedPort = `http://${LOOPBACK}:${await freePort()}`;
});
afterAll(async () => stalled.close());

describe.each([
  ["stalled", () => stalled.url],
  ["unreachable", () => closedPort],
])("with the store %s", (_case, endpoint) => {
  let core: CoreContext;
  let app: ReturnType<typeof createApp>;
  let token: string;

  beforeAll(async () => {
    core = contextAgainst(endpoint());
    app = createApp(core);
    ({ token } = await issueToken(
      { id: "5f0c7a43-3a43-4a43-9a43-3a433a433a43", role: "user" },
      core.config.SESSION_KEYS,
      3600,
      core.clock(),
      { sid: newSessionId(0) },
    ));
  });
  afterAll(() => {
    core.db.raw.destroy();
    core.storage.destroy();
  });

  it("answers a valid token with 503 and Retry-After, not a 401 that would sign the client out", async () => {
    const reply = await app.request("/api/v1/users/profile", { headers: { Authorization: `Bearer ${token}` } });
    expect(reply.status).toBe(503);
    expect(await reply.json()).toEqual({ message: expect.any(String), code: "service_unavailable" });
    expect(Number(reply.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(reply.headers.get("www-authenticate")).toBeNull();
    expect(reply.headers.get("cache-control")).toBe("no-store");
  });

  it("still answers a bad token with 401 without asking the store", async () => {
    const reply = await app.request("/api/v1/users/profile", { headers: { Authorization: "Bearer not-a-token" } });
    expect(reply.status).toBe(401);
    expect(reply.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
  });

  it("answers a login attempt with 503", async () => {
    const reply = await app.request("/api/v1/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "someone@example.com", password: "whatever" }),
    });
    expect(reply.status).toBe(503);
    expect(((await reply.json()) as { code: string }).code).toBe("service_unavailable");
    expect(reply.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("reports itself unhealthy with 503", async () => {
    const reply = await app.request("/health");
    expect(reply.status).toBe(503);
  });

  it("gives up on object storage too, with an error the API answers as 503", async () => {
    const failure = await headBucket(core.storage).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).not.toBeNull();
    expect(isStoreUnavailable(failure)).toBe(true);
  });
});
