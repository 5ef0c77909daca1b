import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FLUSH_WINDOW_SECONDS } from "@fintech/core/metrics/keys";
import type { RequestMetrics } from "@fintech/core/metrics/recorder";
import { HOUR_WRITE_INTERVAL_SECONDS } from "@fintech/core/metrics/route-latency";
import { RESPONSE_TIMES_MESSAGES, ResponseTimesReport } from "@fintech/core/metrics/response-times";
import { createRequestMetrics } from "@fintech/core/metrics/service";
import type { CoreContext } from "@fintech/core/shared/context";
import { createTestApp } from "@fintech/testing/app";
import { createTestContext } from "@fintech/testing/context";
import { createApp } from "../app";
import type { AppEnv } from "../http/app-context";
import { errorReply, requestContext } from "../http/middleware";
import { DEVELOPERS_PREFIX, RESPONSE_TIMES_CACHE_SECONDS, developerRoutes } from "./developers";
import { publicHealthRoutes } from "./health";
import { recordRequestMetrics } from "./status";

type Core = Awaited<ReturnType<typeof createTestContext>>;
let core: Core;
let clock: ReturnType<typeof manualClock>;

/**
 * Stands still until the test moves it; starts half a second into a flush window, at least ten
 * minutes before an hour ends (never in the past: tokens signed now must not look issued in the
 * future). Latency is rolled up per hour, so a start just before an hour's end would put the
 * test's requests in two hours and change what "the last hour" holds.
 */
function manualClock() {
  const windowMs = FLUSH_WINDOW_SECONDS * 1000;
  const hourMs = 3_600_000;
  let ms = Math.floor(Date.now() / windowMs) * windowMs + 500;
  if (ms % hourMs > hourMs - 10 * 60 * 1000) ms = Math.ceil(ms / hourMs) * hourMs + 500;
  return {
    now: () => new Date(ms),
    advance(seconds: number) {
      ms += seconds * 1000;
    },
  };
}

beforeAll(async () => {
  core = await createTestContext();
  clock = manualClock();
});
afterAll(async () => core.dispose());

/**
 * One "instance": the request middleware the real app uses, the public health route as traffic,
 * and the developer routes where app.ts mounts them.
 */
function instance(metrics: RequestMetrics, context: CoreContext) {
  const app = new Hono<AppEnv>({ strict: false });
  app.use(requestContext(context));
  app.use(recordRequestMetrics(metrics));
  app.route("/", publicHealthRoutes);
  app.route(DEVELOPERS_PREFIX, developerRoutes(metrics));
  app.onError(errorReply);
  return {
    metrics,
    get: (path: string) => app.request(path),
    async times(query = "") {
      const reply = await app.request(`${DEVELOPERS_PREFIX}/response-times${query}`);
      expect(reply.status).toBe(200);
      return ResponseTimesReport.parse(await reply.json());
    },
  };
}

const newInstance = () => {
  const context = { ...core, clock: clock.now };
  return instance(createRequestMetrics(context), context);
};

describe("GET /api/v1/developers/response-times", () => {
  it("is public and gives each route its measured median and p95, in OpenAPI form", async () => {
    const a = newInstance();
    try {
      for (let i = 0; i < 5; i += 1) expect((await a.get("/health")).status).toBe(200);
      const times = await a.times();
      const health = times.routes.find((route) => route.path === "/health");
      expect(health).toMatchObject({ method: "GET", requests: 5 });
      expect(health!.typical_ms).toBeGreaterThan(0);
      expect(health!.p95_ms).toBeGreaterThanOrEqual(health!.typical_ms);
      expect(times.window_hours).toBe(24);
      // The explorer's own calls are measured too, once served.
      clock.advance(RESPONSE_TIMES_CACHE_SECONDS + 1);
      const again = await a.times("?hours=1");
      expect(again.routes.some((route) => route.path === "/api/v1/developers/response-times")).toBe(true);
    } finally {
      a.metrics.stop();
    }
  });

  it("merges what other instances wrote to the table", async () => {
    const a = newInstance();
    const b = newInstance();
    try {
      for (let i = 0; i < 7; i += 1) await a.get("/health");
      // A filling hour is written a minute after its first request (then at most once a minute).
      clock.advance(HOUR_WRITE_INTERVAL_SECONDS);
      await a.metrics.flush();
      const times = await b.times();
      expect(times.merged).toBe(true);
      expect(times.instances).toBeGreaterThanOrEqual(1);
      // b served no /health itself: everything it reports came from the table, a's 7 at least.
      expect(times.routes.find((route) => route.path === "/health")!.requests).toBeGreaterThanOrEqual(7);
    } finally {
      a.metrics.stop();
      b.metrics.stop();
    }
  });

  it("serves a cached reply for a while, then a fresh one", async () => {
    const a = newInstance();
    try {
      await a.get("/health");
      const first = await a.times();
      await a.get("/health");
      const cached = await a.times();
      expect(cached).toEqual(first);
      clock.advance(RESPONSE_TIMES_CACHE_SECONDS);
      const fresh = await a.times();
      expect(fresh.as_of).not.toBe(first.as_of);
      expect(fresh.routes.find((route) => route.path === "/health")!.requests).toBeGreaterThan(
        first.routes.find((route) => route.path === "/health")!.requests,
      );
    } finally {
      a.metrics.stop();
    }
  });

  it("reads the table at most once per cache period, whatever windows are asked for", async () => {
    let reads = 0;
    const counted = new Proxy(core.db.doc, {
      get(target, property, receiver) {
        if (property !== "send") return Reflect.get(target, property, receiver);
        return (command: { input?: { ExpressionAttributeValues?: Record<string, unknown> } }) => {
          if (String(command.input?.ExpressionAttributeValues?.[":pk"] ?? "").startsWith("ROUTE_LATENCY#")) reads += 1;
          return target.send(command as never);
        };
      },
    });
    const context = { ...core, clock: clock.now, db: { ...core.db, doc: counted } };
    const a = instance(createRequestMetrics(context), context);
    try {
      for (const query of ["", "?hours=1", "?hours=5", "?hours=24", "?hours=1"]) await a.times(query);
      // A day spans at most two day partitions: one Query each.
      expect(reads).toBeGreaterThanOrEqual(1);
      expect(reads).toBeLessThanOrEqual(2);
      const first = reads;
      clock.advance(RESPONSE_TIMES_CACHE_SECONDS);
      await a.times("?hours=3");
      expect(reads).toBeGreaterThan(first);
    } finally {
      a.metrics.stop();
    }
  });

  it("refuses a bad window with a 400 {message, code}", async () => {
    const a = newInstance();
    try {
      for (const query of ["?hours=0", "?hours=25", "?hours=abc", "?hours=1.5"]) {
        const reply = await a.get(`${DEVELOPERS_PREFIX}/response-times${query}`);
        expect(reply.status, query).toBe(400);
        expect(await reply.json()).toEqual({ message: RESPONSE_TIMES_MESSAGES.hours, code: "validation_error" });
      }
    } finally {
      a.metrics.stop();
    }
  });
});

describe("through the whole app", () => {
  it("is mounted at /api/v1/developers, public, and measures the app's own routes under their OpenAPI paths", async () => {
    const t = await createTestApp();
    const metrics = createRequestMetrics({ ...t.core, clock: clock.now });
    const app = createApp({ ...t.core, clock: clock.now }, { metrics });
    try {
      const { token } = await t.signUp("times@example.com");
      for (let i = 0; i < 3; i += 1) {
        const reply = await app.request("/api/v1/api-keys", { headers: { Authorization: `Bearer ${token}` } });
        expect(reply.status).toBe(200);
      }
      const created = await app.request("/api/v1/api-keys", {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ name: "timed" }),
      });
      expect(created.status).toBe(201);
      const { data } = (await created.json()) as { data: { id: string } };
      expect(
        (
          await app.request(`/api/v1/api-keys/${data.id}`, {
            method: "DELETE",
            headers: { Authorization: `Bearer ${token}` },
          })
        ).status,
      ).toBe(200);
      const reply = await app.request(`${DEVELOPERS_PREFIX}/response-times?hours=2`);
      expect(reply.status).toBe(200);
      const times = ResponseTimesReport.parse(await reply.json());
      expect(times.window_hours).toBe(2);
      expect(times.routes.find((route) => route.method === "GET" && route.path === "/api/v1/api-keys")).toMatchObject({
        requests: 3,
      });
      // A route with a parameter is named by its template, never by the id it was called with.
      expect(times.routes.find((route) => route.method === "DELETE")).toMatchObject({
        path: "/api/v1/api-keys/{id}",
        requests: 1,
      });
    } finally {
      metrics.stop();
      await t.core.dispose();
    }
  });
});

describe("POST /api/v1/developers/cors-check", () => {
  it("answers what the app's own preflight answers, for an allowed origin and another", async () => {
    const t = await createTestApp({ CORS_ORIGINS: "http://allowed.example" });
    try {
      const check = { origin: "http://allowed.example", method: "POST", headers: ["Content-Type", "Authorization"] };
      const reply = await t.call("POST", `${DEVELOPERS_PREFIX}/cors-check`, { body: check });
      expect(reply.status).toBe(200);
      // The same request, sent to the app directly as a browser would send its preflight.
      const direct = await t.call("OPTIONS", "/api/v1/payments", {
        headers: {
          Origin: "http://allowed.example",
          "Access-Control-Request-Method": "POST",
          "Access-Control-Request-Headers": "Content-Type,Authorization",
        },
      });
      expect(reply.body).toEqual({
        origin: "http://allowed.example",
        method: "POST",
        request_headers: ["Content-Type", "Authorization"],
        status: direct.status,
        allow_origin: direct.headers.get("access-control-allow-origin"),
        allow_methods: direct.headers.get("access-control-allow-methods"),
        allow_headers: direct.headers.get("access-control-allow-headers"),
        max_age_seconds: Number(direct.headers.get("access-control-max-age")),
      });
      expect(reply.body.allow_origin).toBe("http://allowed.example");
      expect(reply.body.allow_methods).toContain("POST");
      expect(reply.body.allow_headers).toContain("Authorization");

      const other = await t.call("POST", `${DEVELOPERS_PREFIX}/cors-check`, {
        body: { origin: "https://evil.example" },
      });
      expect(other.status).toBe(200);
      expect(other.body).toMatchObject({ origin: "https://evil.example", method: "POST", allow_origin: null });
    } finally {
      await t.core.dispose();
    }
  });

  it("refuses malformed, oversized and wrongly typed fields with a 400 validation_error", async () => {
    const t = await createTestApp();
    try {
      const bad: unknown[] = [
        {},
        { origin: "not a url" },
        { origin: "https://app.example.com/path" },
        { origin: "ftp://app.example.com" },
        { origin: `https://${"a".repeat(2_100)}.example` },
        { origin: 42 },
        { origin: "https://app.example.com", method: "TRACE" },
        { origin: "https://app.example.com", headers: "Content-Type" },
        { origin: "https://app.example.com", headers: ["bad header\r\nx: y"] },
        { origin: "https://app.example.com", headers: Array.from({ length: 17 }, (_, i) => `X-H${i}`) },
        { origin: "https://app.example.com", headers: ["X".repeat(65)] },
        [],
        null,
      ];
      for (const body of bad) {
        const reply = await t.call("POST", `${DEVELOPERS_PREFIX}/cors-check`, { body: JSON.stringify(body) });
        expect(reply.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(reply.body.code).toBe("validation_error");
      }
      const broken = await t.call("POST", `${DEVELOPERS_PREFIX}/cors-check`, { body: "{not json" });
      expect(broken.status).toBe(400);
      expect(broken.body.code).toBe("invalid_json");
    } finally {
      await t.core.dispose();
    }
  });
});
