import { afterEach, describe, expect, it, vi } from "vitest";
import { FLUSH_WINDOW_SECONDS, hourStartOf, routeLatencyHourKey, routeLatencyHourRange } from "./keys";
import { HISTOGRAM_BUCKETS } from "./model";
import { RequestMetrics } from "./recorder";
import { ResponseTimesQuery, buildResponseTimes, openApiPath, parseRouteName, type HourRollup } from "./response-times";
import {
  HOUR_WRITE_INTERVAL_SECONDS,
  HOURS_IN_MEMORY,
  MAX_ROUTES_PER_HOUR,
  OTHER_ROUTE_LATENCY,
  RouteLatencyHours,
} from "./route-latency";

const HOUR = 3600;
/** 2026-01-01T00:00:00Z, a whole hour. */
const T0 = 1_767_225_600;

function manualClock(startSecond = T0) {
  let ms = startSecond * 1000;
  return {
    now: () => new Date(ms),
    advance(seconds: number) {
      ms += seconds * 1000;
    },
  };
}

const sample = (route: string, durationMs: number, status = 200, method = "GET") => ({
  method,
  route,
  status,
  durationMs,
});

function report(metrics: RequestMetrics, hours: number, shared: HourRollup[] = []) {
  const now = metrics.nowSecond();
  return buildResponseTimes({
    now,
    hours,
    self: { id: metrics.instanceId, hours: metrics.routeLatencyHours() },
    shared,
    merged: true,
    asOf: new Date(now * 1000),
  });
}

describe("route names", () => {
  it("turns Hono patterns into OpenAPI paths and leaves out what is not one route", () => {
    expect(openApiPath("/api/v1/ledger/accounts/:id/balance")).toBe("/api/v1/ledger/accounts/{id}/balance");
    expect(openApiPath("/api/v1/x/:id{[0-9]+}/y/:other?")).toBe("/api/v1/x/{id}/y/{other}");
    expect(openApiPath("/api/v1/accounts/")).toBe("/api/v1/accounts");
    expect(openApiPath("/")).toBe("/");
    for (const name of ["(unmatched)", "(other)", "*", "/api/v1/*"]) expect(openApiPath(name)).toBeNull();
    expect(parseRouteName("GET /health")).toEqual({ method: "GET", path: "/health" });
    expect(parseRouteName("OPTIONS /api/v1/accounts")).toBeNull();
    expect(parseRouteName("GET (unmatched)")).toBeNull();
  });

  it("keys hours by day partition and instance", () => {
    expect(hourStartOf(T0 + 3599)).toBe(T0);
    expect(routeLatencyHourKey(T0 + HOUR, "abc")).toEqual({ pk: "ROUTE_LATENCY#01767225600", sk: "H#01767229200#abc" });
    const range = routeLatencyHourRange(T0, T0 + HOUR);
    expect("H#01767229200#abc" >= range.from && "H#01767229200#abc" <= range.to).toBe(true);
    expect("H#01767232800#abc" <= range.to).toBe(false);
  });

  it("accepts 1..24 whole hours, defaults to 24", () => {
    expect(ResponseTimesQuery.parse({}).hours).toBe(24);
    expect(ResponseTimesQuery.parse({ hours: "1" }).hours).toBe(1);
    for (const bad of ["0", "25", "1.5", "x", "-1"])
      expect(ResponseTimesQuery.safeParse({ hours: bad }).success).toBe(false);
  });
});

describe("per-route latency hours", () => {
  it("stay bounded: two hours, MAX_ROUTES_PER_HOUR names, one count per bucket", () => {
    const hours = new RouteLatencyHours("i");
    for (let h = 0; h < 5; h += 1) {
      for (let i = 0; i < 1000; i += 1) hours.add(T0 + h * HOUR + i, `GET /r${i}`, (i % 997) + 0.5);
    }
    const held = hours.snapshot();
    expect(held).toHaveLength(HOURS_IN_MEMORY);
    expect(held.map((hour) => hour.hour_start)).toEqual([T0 + 3 * HOUR, T0 + 4 * HOUR]);
    for (const hour of held) {
      expect(Object.keys(hour.routes).length).toBeLessThanOrEqual(MAX_ROUTES_PER_HOUR + 1);
      expect(hour.routes[OTHER_ROUTE_LATENCY]!.requests).toBe(1000 - MAX_ROUTES_PER_HOUR);
      for (const latency of Object.values(hour.routes))
        expect(Object.keys(latency.histogram).length).toBeLessThanOrEqual(HISTOGRAM_BUCKETS);
      // Worst case of a stored item, far below DynamoDB's 400 KB.
      expect(JSON.stringify(hour).length).toBeLessThan(100_000);
    }
  });

  it("are due when changed: a filling hour once a minute at most, a finished one once more", () => {
    const hours = new RouteLatencyHours("i");
    hours.add(T0, "GET /a", 3);
    expect(hours.due(T0 + HOUR_WRITE_INTERVAL_SECONDS - 1)).toHaveLength(0);
    expect(hours.nextDue()).toBe(T0 + HOUR_WRITE_INTERVAL_SECONDS);
    const first = hours.due(T0 + HOUR_WRITE_INTERVAL_SECONDS);
    expect(first).toHaveLength(1);
    hours.add(T0 + 1, "GET /a", 4); // lands while the write is running
    hours.markSaved(first, T0 + 61);
    expect(hours.due(T0 + 61 + HOUR_WRITE_INTERVAL_SECONDS - 1)).toHaveLength(0);
    const second = hours.due(T0 + 61 + HOUR_WRITE_INTERVAL_SECONDS);
    expect(second[0]!.rollup.routes["GET /a"]!.requests).toBe(2);
    hours.markSaved(second, T0 + 121);
    expect(hours.nextDue()).toBeNull();
    expect(hours.due(T0 + 3000)).toHaveLength(0); // nothing changed
    hours.add(T0 + 3580, "GET /a", 5);
    hours.markSaved(hours.due(T0 + 3580), T0 + 3580);
    hours.add(T0 + 3599, "GET /a", 6);
    expect(hours.due(T0 + 3599)).toHaveLength(0);
    expect(hours.due(T0 + HOUR)).toHaveLength(1); // the hour ended: its last requests are written now
  });
});

describe("typical response times", () => {
  it("gives each served route its median and p95 in OpenAPI form; errors and unmatched paths do not count", () => {
    const clock = manualClock(T0 + 100);
    const metrics = new RequestMetrics({ clock: clock.now });
    for (let i = 1; i <= 100; i += 1) metrics.record(sample("/api/v1/ledger/accounts/:id/balance", i));
    for (let i = 0; i < 10; i += 1) metrics.record(sample("/api/v1/ledger/accounts/:id/balance", 900, 401));
    metrics.record(sample("(unmatched)", 1, 404));
    metrics.record(sample("/health", 2));
    const times = report(metrics, 24);
    expect(times.routes.map((route) => `${route.method} ${route.path}`)).toEqual([
      "GET /api/v1/ledger/accounts/{id}/balance",
      "GET /health",
    ]);
    const balance = times.routes[0]!;
    expect(balance.requests).toBe(100);
    // Within one bucket (2^(1/4)) of the exact 50th and 95th.
    expect(balance.typical_ms).toBeGreaterThanOrEqual(50 / 2 ** 0.25);
    expect(balance.typical_ms).toBeLessThanOrEqual(50 * 2 ** 0.25);
    expect(balance.p95_ms).toBeGreaterThanOrEqual(95 / 2 ** 0.25);
    expect(balance.p95_ms).toBeLessThanOrEqual(100);
    expect(times.routes[1]).toMatchObject({ requests: 1, typical_ms: 2, p95_ms: 2 });
    expect(times.window_hours).toBe(24);
    expect(times.since).toBe(new Date((T0 - 23 * HOUR) * 1000).toISOString());
  });

  it("merges other instances' hours and prefers its own hours from memory to their stored copies", () => {
    const clock = manualClock(T0 + 10);
    const metrics = new RequestMetrics({ clock: clock.now, instanceId: "self" });
    for (let i = 0; i < 4; i += 1) metrics.record(sample("/health", 10));
    const staleOwn: HourRollup = {
      instance_id: "self",
      hour_start: T0,
      routes: { "GET /health": { requests: 1, max_ms: 10, histogram: { "66": 1 } } },
    };
    const olderOwn: HourRollup = {
      instance_id: "self",
      hour_start: T0 - HOUR,
      routes: { "GET /health": { requests: 2, max_ms: 10, histogram: { "66": 2 } } },
    };
    const other: HourRollup = {
      instance_id: "other",
      hour_start: T0 - 5 * HOUR,
      routes: { "GET /health": { requests: 6, max_ms: 10, histogram: { "66": 6 } } },
    };
    const outside: HourRollup = {
      instance_id: "other",
      hour_start: T0 - 30 * HOUR,
      routes: { "GET /health": { requests: 50, max_ms: 10, histogram: { "66": 50 } } },
    };
    const times = report(metrics, 24, [staleOwn, olderOwn, other, outside, other]);
    expect(times.routes).toEqual([{ method: "GET", path: "/health", requests: 4 + 2 + 6, typical_ms: 10, p95_ms: 10 }]);
    expect(times.instances).toBe(2);
    expect(report(metrics, 1, [staleOwn, olderOwn, other]).routes[0]!.requests).toBe(4);
  });

  it("hands the sink changed hours when due, with the windows or alone", async () => {
    const clock = manualClock(T0);
    const written: { windows: number; hours: HourRollup[] }[] = [];
    const metrics = new RequestMetrics({
      clock: clock.now,
      sink: async (windows, hours) => void written.push({ windows: windows.length, hours }),
    });
    try {
      metrics.record(sample("/health", 3));
      clock.advance(10);
      metrics.record(sample("/health", 5));
      await metrics.flush();
      expect(written).toEqual([{ windows: 1, hours: [] }]); // the hour is not due yet
      clock.advance(HOUR_WRITE_INTERVAL_SECONDS);
      await metrics.flush();
      expect(written).toHaveLength(2);
      expect(written[1]!.hours[0]!.routes["GET /health"]!.requests).toBe(2);
      await metrics.flush();
      expect(written).toHaveLength(2); // nothing new
      metrics.record(sample("/health", 4));
      clock.advance(HOUR_WRITE_INTERVAL_SECONDS);
      await metrics.flush();
      expect(written[2]!.hours[0]!.routes["GET /health"]!.requests).toBe(3);
    } finally {
      metrics.stop();
    }
  });
});

describe("a quiet instance", () => {
  afterEach(() => vi.useRealTimers());

  it("still writes its latency hour once due, on a timer, without any further request", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const clock = manualClock(T0);
    const written: HourRollup[][] = [];
    const metrics = new RequestMetrics({ clock: clock.now, sink: async (_windows, hours) => void written.push(hours) });
    try {
      metrics.record(sample("/health", 3));
      // The window's own timer writes the window; the hour is not due yet.
      clock.advance(FLUSH_WINDOW_SECONDS + 1);
      await vi.advanceTimersByTimeAsync((FLUSH_WINDOW_SECONDS + 1) * 1000);
      expect(written).toEqual([[]]);
      clock.advance(HOUR_WRITE_INTERVAL_SECONDS - FLUSH_WINDOW_SECONDS);
      await vi.advanceTimersByTimeAsync((HOUR_WRITE_INTERVAL_SECONDS - FLUSH_WINDOW_SECONDS) * 1000);
      expect(written).toHaveLength(2);
      expect(written[1]![0]!.routes["GET /health"]!.requests).toBe(1);
    } finally {
      metrics.stop();
    }
  });
});
