import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "@fintech/testing/app";

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.core.dispose());

describe("GET /health", () => {
  it("reports ok with real database figures", async () => {
    const reply = await t.call("GET", "/health");
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      status: "ok",
      database: { connected: true, error: null, max_open_connections: 50 },
    });
    expect(typeof reply.body.message).toBe("string");
    expect(Date.parse(reply.body.time)).not.toBeNaN();
    expect(typeof reply.body.timestamp).toBe("number");
    const db = reply.body.database;
    expect(db.open_connections).toBe(db.in_use + db.idle);
    // The DescribeTable call just made leaves at least one kept-alive socket.
    expect(db.open_connections).toBeGreaterThanOrEqual(1);
  });

  it("reports error with 503 when the table is missing", async () => {
    const broken = await createTestApp();
    await broken.core.dispose();
    const reply = await broken.call("GET", "/health");
    expect(reply.status).toBe(503);
    expect(reply.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(reply.body.status).toBe("error");
    expect(reply.body.database.connected).toBe(false);
    expect(reply.body.database.error).toBeTruthy();
  });

  it("reports degraded when only object storage is down", async () => {
    const noBucket = await createTestApp({ KYC_BUCKET: "bucket-that-does-not-exist" });
    try {
      const reply = await noBucket.call("GET", "/health");
      expect(reply.status).toBe(200);
      expect(reply.body.status).toBe("degraded");
      expect(reply.body.storage.connected).toBe(false);
    } finally {
      await noBucket.core.dispose();
    }
  });

  it("GET /api/health needs a bearer token", async () => {
    expect((await t.call("GET", "/api/health")).status).toBe(401);
    const session = await t.call("POST", "/api/v1/auth/register", {
      body: { email: "health@example.com", password: "long enough pw", first_name: "H", last_name: "C" },
    });
    const reply = await t.call("GET", "/api/health", { token: session.body.data.token });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ status: "ok", user_id: session.body.data.user.id });
  });
});

describe("cross-cutting behaviour", () => {
  it("answers unknown routes with JSON 404", async () => {
    const reply = await t.call("GET", "/api/v1/nothing-here");
    expect(reply.status).toBe(404);
    expect(reply.body.code).toBe("not_found");
  });

  it("sets a request id, echoing a well-formed incoming one", async () => {
    const fresh = await t.call("GET", "/health");
    expect(fresh.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await t.call("GET", "/health", { headers: { "X-Request-Id": "trace-12345678" } });
    expect(echoed.headers.get("x-request-id")).toBe("trace-12345678");
    const refused = await t.call("GET", "/health", { headers: { "X-Request-Id": "bad id with spaces" } });
    expect(refused.headers.get("x-request-id")).not.toBe("bad id with spaces");
  });

  it("sends security headers", async () => {
    const reply = await t.call("GET", "/health");
    expect(reply.headers.get("x-content-type-options")).toBe("nosniff");
    expect(reply.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(reply.headers.get("strict-transport-security")).toContain("max-age=");
  });

  it("allows CORS only for configured origins", async () => {
    const allowed = await t.call("OPTIONS", "/api/v1/auth/login", {
      headers: { Origin: "http://allowed.example", "Access-Control-Request-Method": "POST" },
    });
    expect(allowed.headers.get("access-control-allow-origin")).toBe("http://allowed.example");
    const denied = await t.call("OPTIONS", "/api/v1/auth/login", {
      headers: { Origin: "http://evil.example", "Access-Control-Request-Method": "POST" },
    });
    expect(denied.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("lets a browser on an allowed origin resume a stream and see a replay", async () => {
    const preflight = await t.call("OPTIONS", "/api/v1/ledger/transfer", {
      headers: {
        Origin: "http://allowed.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "idempotency-key,last-event-id",
      },
    });
    const allowed = (preflight.headers.get("access-control-allow-headers") ?? "")
      .toLowerCase()
      .split(",")
      .map((name) => name.trim());
    expect(allowed).toEqual(expect.arrayContaining(["idempotency-key", "last-event-id", "authorization"]));
    const reply = await t.call("GET", "/health", { headers: { Origin: "http://allowed.example" } });
    const exposed = (reply.headers.get("access-control-expose-headers") ?? "").toLowerCase();
    expect(exposed).toContain("idempotent-replayed");
    expect(exposed).toContain("retry-after");
  });

  it("refuses oversized bodies with 413 JSON", async () => {
    const reply = await t.call("POST", "/api/v1/auth/login", {
      body: JSON.stringify({ email: "a@b.co", password: "x".repeat(1_100_000) }),
    });
    expect(reply.status).toBe(413);
    expect(reply.body.code).toBe("payload_too_large");
  });
});
