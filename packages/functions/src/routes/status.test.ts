import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FLUSH_WINDOW_SECONDS } from "@fintech/core/metrics/keys";
import { METRICS_MESSAGES } from "@fintech/core/metrics/model";
import { createRequestMetrics } from "@fintech/core/metrics/service";
import type { CoreContext } from "@fintech/core/shared/context";
import type { Logger } from "@fintech/core/shared/logger";
import { createTestApp } from "@fintech/testing/app";
import { createApp } from "../app";

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
type Reply = Awaited<ReturnType<TestApp["call"]>>;
type Call = TestApp["call"];
let t: TestApp;
/** The shared app, on a clock the tests move: its figures never depend on the machine's speed. */
let call: Call;
let clock: ReturnType<typeof manualClock>;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  clock = manualClock();
  call = caller(createApp({ ...t.core, clock: clock.now }));
  token = await register(call, "status@example.com");
});
afterAll(async () => t.core.dispose());

async function register(call: Call, email: string): Promise<string> {
  const reply = await call("POST", "/api/v1/auth/register", {
    body: { email, password: "long enough pw", first_name: "Stat", last_name: "Us" },
  });
  expect(reply.status).toBe(201);
  return reply.body.data.token as string;
}

/** The same JSON helper as createTestApp's, over any app (a second "Lambda instance"). */
function caller(app: ReturnType<typeof createApp>): Call {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers["Content-Type"] = "application/json";
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    const response = await app.request(path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: (text ? JSON.parse(text) : null) as Record<string, any>,
    };
  };
}

/**
 * A clock that stands still until the test moves it, shared by the instances of one test (as
 * wall time is), so the figures do not depend on how fast the machine runs the test. It starts
 * half a second into a flush window, so moving it 11 s always ends exactly one window.
 */
function manualClock() {
  const windowMs = FLUSH_WINDOW_SECONDS * 1000;
  let ms = Math.floor(Date.now() / windowMs) * windowMs + 500;
  return {
    now: () => new Date(ms),
    advance(seconds: number) {
      ms += seconds * 1000;
    },
  };
}

function capturingLogger(lines: string[]): Logger {
  const logger: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (message) => void lines.push(message),
    error: (message) => void lines.push(message),
    child: () => logger,
  };
  return logger;
}

/**
 * Faults only DescribeTable: reads and writes of the same table keep working (as when
 * DescribeTable is throttled or denied).
 */
function describeTableFails(core: CoreContext): CoreContext {
  const raw = new Proxy(core.db.raw, {
    get(target, property, receiver) {
      if (property !== "send") return Reflect.get(target, property, receiver);
      return async (command: { constructor: { name: string } }) => {
        if (command.constructor.name === "DescribeTableCommand") {
          throw Object.assign(new Error("Simulated DescribeTable outage"), { name: "ServiceUnavailable" });
        }
        return (target.send as (command: unknown) => Promise<unknown>)(command);
      };
    },
  }) as DynamoDBClient;
  return { ...core, db: { ...core.db, raw } };
}

const metrics = (call: Call, window: number | string = 3600, bearer = token) =>
  call("GET", `/api/v1/status/metrics?window=${window}`, { token: bearer });

async function send(
  call: Call,
  times: number,
  method: string,
  path: string,
  expected: number,
  options: Parameters<Call>[2] = {},
) {
  for (let i = 0; i < times; i += 1) {
    const reply: Reply = await call(method, path, options);
    expect(reply.status).toBe(expected);
  }
}

describe("GET /api/v1/status/metrics", () => {
  it("needs a bearer token", async () => {
    expect((await call("GET", "/api/v1/status/metrics")).status).toBe(401);
    expect((await call("GET", "/api/v1/status/services")).status).toBe(401);
  });

  it("validates the window: whole seconds from 10 to 3600, default 60", async () => {
    for (const bad of ["5", "9", "3601", "abc", "60.5", "-60"]) {
      const reply = await metrics(call, bad);
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({ message: METRICS_MESSAGES.window, code: "validation_error" });
    }
    const fallback = await call("GET", "/api/v1/status/metrics", { token });
    expect(fallback.status).toBe(200);
    expect(fallback.body.window_seconds).toBe(60);
    expect((await metrics(call, 10)).body.window_seconds).toBe(10);
    expect((await metrics(call, 3600)).body.window_seconds).toBe(3600);
  });

  it("counts the requests sent, by route pattern, with 4xx apart from 5xx; its own polls are left out", async () => {
    const before = (await metrics(call)).body;
    await send(call, 12, "GET", "/health", 200);
    await send(call, 4, "GET", "/api/v1/nothing-here", 404);
    await send(call, 3, "GET", "/api/v1/ledger/accounts/acct-that-does-not-exist/balance", 404, { token });
    await send(call, 2, "POST", "/api/v1/auth/login", 400, { body: {} });
    await send(call, 1, "GET", "/api/v1/status/secret-thing", 401);
    // Polling the endpoint itself (as the status page does every 2 s) never shows in the figures.
    for (let i = 0; i < 5; i += 1) expect((await metrics(call, 60)).status).toBe(200);
    const after = (await metrics(call)).body;

    expect(after.requests - before.requests).toBe(22);
    expect(after.client_errors - before.client_errors).toBe(10);
    expect(after.server_errors).toBe(0);
    expect(after.error_rate).toBe(0);
    expect(after.client_error_rate).toBeCloseTo(after.client_errors / after.requests, 3);
    expect(after.requests_per_second).toBeCloseTo(after.requests / 3600, 2);
    expect(after.p50_ms).toBeGreaterThanOrEqual(0);
    expect(after.p50_ms).toBeLessThanOrEqual(after.p99_ms);
    expect(after.p99_ms).toBeLessThanOrEqual(after.max_ms);
    expect(after.instances).toBe(1);
    expect(after.merged).toBe(true);
    expect(Date.parse(after.as_of)).not.toBeNaN();

    const routes = new Map<string, { requests: number; client_errors: number }>(
      after.routes.map((r: { route: string }) => [r.route, r]),
    );
    expect(routes.get("GET /health")?.requests).toBeGreaterThanOrEqual(12);
    expect(routes.get("GET (unmatched)")).toMatchObject({ requests: 4, client_errors: 4 });
    expect(routes.get("GET /api/v1/ledger/accounts/:id/balance")).toMatchObject({ requests: 3, client_errors: 3 });
    expect(routes.get("POST /api/v1/auth/login")).toMatchObject({ requests: 2, client_errors: 2 });
    // Answered by middleware alone (the guard of the status routes): named by its pattern.
    expect(routes.get("GET /api/v1/status/*")).toMatchObject({ requests: 1, client_errors: 1 });
    expect(
      after.routes.some(
        (r: { route: string }) =>
          r.route.includes("acct-that-does-not-exist") ||
          r.route.includes("nothing-here") ||
          r.route.includes("secret-thing"),
      ),
    ).toBe(false);
    expect(after.routes.some((r: { route: string }) => r.route.includes("/status/metrics"))).toBe(false);
  });

  it("has a per-second series of the window's complete seconds that adds up to their requests", async () => {
    clock.advance(1);
    await send(call, 3, "GET", "/health", 200);
    const now = Math.floor(clock.now().getTime() / 1000);
    // The 3 requests' second is complete once the clock moves on; the current second is not in the series.
    clock.advance(1);
    const reply = (await metrics(call, 60)).body;
    const times = reply.series.map((point: { t: number }) => point.t);
    expect(times.at(-1)).toBe(now);
    expect(times).toEqual(Array.from({ length: times.length }, (_, index) => times[0] + index * reply.step_seconds));
    expect(times[0]).toBeGreaterThan(now - 60);
    const inSeries = reply.series.reduce((sum: number, point: { requests: number }) => sum + point.requests, 0);
    expect(inSeries).toBe(reply.requests);
    expect(reply.series.at(-1).requests).toBe(3);
    // An hour is shown in coarser steps: fewer points than seconds, still covering only the window.
    const longer = (await metrics(call, 3600)).body;
    expect(longer.step_seconds).toBeGreaterThan(1);
    expect(longer.series.length * longer.step_seconds).toBeLessThanOrEqual(3600);
  });
});

describe("two instances sharing one table (two Lambda containers)", () => {
  it("each sees the other's flushed windows merged with its own live ones, 5xx included", async () => {
    const fresh = await createTestApp();
    const clock = manualClock();
    try {
      const coreA = { ...fresh.core, clock: clock.now };
      const coreB = describeTableFails({ ...fresh.core, clock: clock.now });
      const metricsA = createRequestMetrics(coreA);
      const metricsB = createRequestMetrics(coreB);
      const a = caller(createApp(coreA, { metrics: metricsA }));
      const b = caller(createApp(coreB, { metrics: metricsB }));
      const bearer = await register(a, "two-instances@example.com");

      await send(a, 10, "GET", "/health", 200);
      await send(a, 3, "GET", "/api/v1/missing", 404);
      await send(b, 6, "GET", "/health", 503);
      await send(b, 2, "GET", "/api/v1/missing", 404);

      // B's database check is down (its DescribeTable fails): overall error, as its /health says.
      const services = await b("GET", "/api/v1/status/services", { token: bearer });
      expect(services.status).toBe(200);
      expect(services.body.overall).toBe("error");
      expect(services.body.services.find((s: { id: string }) => s.id === "database")).toMatchObject({ status: "down" });
      expect(services.body.services.find((s: { id: string }) => s.id === "auth")).toMatchObject({
        status: "operational",
      });

      // A window is flushed once it has ended, by the instance's next request. Each instance's
      // current window stays its own until then, so end two windows to see all but the last.
      for (let round = 0; round < 2; round += 1) {
        clock.advance(11);
        await send(a, 1, "GET", "/api/v1/missing", 404);
        await send(b, 1, "GET", "/api/v1/missing", 404);
      }

      // The flushes those requests started, finished (a flush never waits on the request).
      await Promise.all([metricsA.flush(), metricsB.flush()]);

      // A: register + 10 + 3 + 2 = 16 (own, live) + B's first two windows 6 + 2 + 1 + 1 = 10.
      // B: 6 + 2 + services + 2 = 11 (own, live) + A's first two windows 1 + 10 + 3 + 1 = 15.
      const expected = { requests: 26, server_errors: 6, client_errors: 8, instances: 2 };
      for (const who of [a, b]) {
        const body = (await metrics(who, 600, bearer)).body;
        expect({
          requests: body.requests,
          server_errors: body.server_errors,
          client_errors: body.client_errors,
          instances: body.instances,
        }).toEqual(expected);
      }
      const fromA = (await metrics(a, 600, bearer)).body;
      const fromB = (await metrics(b, 600, bearer)).body;
      expect(fromA.error_rate).toBeCloseTo(6 / 26, 4);
      expect(fromB.error_rate).toBe(fromA.error_rate);
      expect(fromA.p50_ms).toBeLessThanOrEqual(fromA.p99_ms);
      expect(fromA.p99_ms).toBe(fromB.p99_ms);
      expect(fromA.instance.id).not.toBe(fromB.instance.id);

      // The API check reads the merged figures: 23 % 5xx over the last minute is "degraded" (25 % is "down").
      const api = (await a("GET", "/api/v1/status/services", { token: bearer })).body.services.find(
        (s: { id: string }) => s.id === "api",
      );
      expect(api.status).toBe("degraded");
      expect(api.detail).toBe("Answering · 23.1% 5xx of 26 requests in the last 60 s · 2 instances");
    } finally {
      await fresh.core.dispose();
    }
  });

  it("keeps a bounded ring in memory while the hour's figures stay complete through the table", async () => {
    const fresh = await createTestApp();
    const clock = manualClock();
    try {
      const core = { ...fresh.core, clock: clock.now };
      const ring = createRequestMetrics(core);
      const a = caller(createApp(core, { metrics: ring }));
      const bearer = await register(a, "ring@example.com");
      // 300 simulated seconds of traffic, one request a second, flushed window by window as time passes.
      for (let i = 0; i < 300; i += 1) {
        expect((await a("GET", "/health")).status).toBe(200);
        clock.advance(1);
        // Each request may start a flush; let it finish, as real seconds would, before the next.
        await ring.flush();
      }
      const report = (await metrics(a, 3600, bearer)).body;
      expect(report.requests).toBe(301);
      // Far more seconds of traffic than the ring holds: the older ones come from the table.
      expect(report.instance.seconds_in_memory).toBeLessThanOrEqual(report.instance.ring_seconds);
      expect(report.instance.ring_seconds).toBeLessThan(300);
      // Nothing older than the ring is held in memory; at most the last couple of windows are unflushed.
      expect(report.instance.unflushed_windows).toBeLessThanOrEqual(2);
      // The last 120 s: the requests of seconds 181..299 (the current second, 300, has none).
      const last2Minutes = (await metrics(a, 120, bearer)).body;
      expect(last2Minutes.requests).toBe(119);
    } finally {
      await fresh.core.dispose();
    }
  });

  it("never lets a failing metrics write fail or slow a request; logs it once per window", async () => {
    const fresh = await createTestApp();
    const clock = manualClock();
    const lines: string[] = [];
    try {
      // Every metrics write fails (or, below, never answers); everything else uses the real table.
      let metricsWrite: () => Promise<never> = () => Promise.reject(new Error("Simulated write outage"));
      const { doc } = fresh.core.db;
      const failingDoc = new Proxy(doc, {
        get(target, property, receiver) {
          if (property !== "send") return Reflect.get(target, property, receiver);
          return (command: { constructor: { name: string }; input: { Item?: { entity?: unknown } } }) =>
            command.constructor.name === "PutCommand" && command.input.Item?.entity === "metrics"
              ? metricsWrite()
              : (target.send as (command: unknown) => Promise<unknown>)(command);
        },
      });
      const core = {
        ...fresh.core,
        clock: clock.now,
        logger: capturingLogger(lines),
        db: { ...fresh.core.db, doc: failingDoc },
      };
      const recorder = createRequestMetrics(core);
      const app = caller(createApp(core, { metrics: recorder }));
      const failures = () => lines.filter((line) => line === "metrics flush failed").length;

      await send(app, 3, "GET", "/api/v1/missing", 404);
      clock.advance(11);
      await send(app, 20, "GET", "/api/v1/missing", 404);
      await recorder.flush();
      expect(failures()).toBe(1);
      // Within the same window: no new attempt, so no new line, however many requests come.
      await send(app, 20, "GET", "/api/v1/missing", 404);
      await recorder.flush();
      expect(failures()).toBe(1);
      // The next window retries, and logs again.
      clock.advance(11);
      await send(app, 1, "GET", "/api/v1/missing", 404);
      await recorder.flush();
      expect(failures()).toBe(2);

      // A write that never answers holds no request up: each one completes while it hangs.
      metricsWrite = () => new Promise<never>(() => undefined);
      clock.advance(11);
      await send(app, 20, "GET", "/api/v1/missing", 404);
      recorder.stop();
    } finally {
      await fresh.core.dispose();
    }
  });
});

describe("GET /api/v1/status/services", () => {
  it("reports four real checks, all operational, overall ok", async () => {
    const reply = await call("GET", "/api/v1/status/services", { token });
    expect(reply.status).toBe(200);
    expect(reply.body.overall).toBe("ok");
    expect(reply.body.services.map((s: { id: string }) => s.id)).toEqual(["api", "database", "storage", "auth"]);
    for (const service of reply.body.services) {
      expect(service).toMatchObject({ status: "operational", name: expect.any(String), detail: expect.any(String) });
      expect(service.latency_ms).toBeGreaterThanOrEqual(0);
      expect(Date.parse(service.checked_at)).not.toBeNaN();
    }
    const byId = Object.fromEntries(reply.body.services.map((s: { id: string }) => [s.id, s]));
    expect(byId.database.detail).toContain("ACTIVE");
    expect(byId.storage.detail).toContain("test-kyc-documents");
    expect(byId.auth.detail).toBe("Token signed and verified · user record read");
    expect(byId.api.detail).toMatch(/^Answering · 0\.0% 5xx of \d+ requests in the last 60 s · 1 instance$/);
  });

  it("is degraded with object storage down when the KYC bucket is missing", async () => {
    const noBucket = await createTestApp({ KYC_BUCKET: "bucket-that-does-not-exist" });
    try {
      const bearer = await register(noBucket.call, "nobucket@example.com");
      const reply = await noBucket.call("GET", "/api/v1/status/services", { token: bearer });
      expect(reply.status).toBe(200);
      expect(reply.body.overall).toBe("degraded");
      const byId = Object.fromEntries(reply.body.services.map((s: { id: string; status: string }) => [s.id, s]));
      expect(byId.storage.status).toBe("down");
      expect(byId.storage.detail).toContain("bucket-that-does-not-exist");
      expect([byId.api.status, byId.database.status, byId.auth.status]).toEqual([
        "operational",
        "operational",
        "operational",
      ]);
      // The banner reads /health: the same verdict.
      expect((await noBucket.call("GET", "/health")).body.status).toBe("degraded");
    } finally {
      await noBucket.core.dispose();
    }
  });
});
