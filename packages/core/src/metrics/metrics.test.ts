import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FLUSH_WINDOW_SECONDS, metricsWindowKey, metricsWindowRange, windowStartOf } from "./keys";
import {
  HISTOGRAM_BUCKETS,
  MetricsQuery,
  OVERFLOW_BUCKET,
  addSample,
  bucketIndex,
  bucketLowerMs,
  bucketUpperMs,
  emptyAggregate,
  mergeInto,
  quantile,
  seriesStepSeconds,
} from "./model";
import { RequestMetrics, type WindowAggregate } from "./recorder";
import { buildReport } from "./report";

/** A clock the test moves by hand. */
function manualClock(startSecond = 1_767_225_600) {
  let ms = startSecond * 1000;
  return {
    now: () => new Date(ms),
    second: () => Math.floor(ms / 1000),
    advance(seconds: number) {
      ms += seconds * 1000;
    },
  };
}

const sample = (status = 200, durationMs = 5, route = "/health", method = "GET") => ({
  method,
  route,
  status,
  durationMs,
});

function reportOf(metrics: RequestMetrics, windowSeconds: number, shared: WindowAggregate[] = []) {
  const now = metrics.nowSecond();
  return buildReport({
    now,
    windowSeconds,
    self: {
      id: metrics.instanceId,
      seconds: metrics.seconds(now - windowSeconds + 1, now),
      coverageStart: metrics.coverageStart(now),
      ringSeconds: metrics.ringSeconds,
      secondsInMemory: metrics.secondsInMemory(),
      unflushedWindows: metrics.unflushedWindows(now),
    },
    shared,
    merged: true,
    asOf: new Date(now * 1000),
  });
}

describe("latency histogram", () => {
  it("puts every latency in the bucket whose bounds hold it", () => {
    fc.assert(
      fc.property(fc.double({ min: 0.0001, max: 100_000, noNaN: true }), (ms) => {
        const index = bucketIndex(ms);
        expect(index).toBeGreaterThanOrEqual(0);
        expect(index).toBeLessThan(HISTOGRAM_BUCKETS);
        expect(ms).toBeLessThanOrEqual(bucketUpperMs(index) * (1 + 1e-9));
        if (index > 0) expect(ms).toBeGreaterThan(bucketLowerMs(index) * (1 - 1e-9));
      }),
    );
    expect(bucketIndex(0)).toBe(0);
    expect(bucketIndex(1)).toBe(12);
    expect(bucketIndex(1_000_000)).toBe(OVERFLOW_BUCKET);
  });

  it("gives quantiles within one bucket of the exact ones, p50 ≤ p99 ≤ max", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.2, max: 20_000, noNaN: true }), { minLength: 1, maxLength: 300 }),
        (latencies) => {
          const aggregate = emptyAggregate();
          for (const ms of latencies) addSample(aggregate, 200, ms);
          const sorted = [...latencies].sort((a, b) => a - b);
          const exact = (q: number) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
          const p50 = quantile(aggregate.histogram, 0.5, aggregate.max_ms)!;
          const p99 = quantile(aggregate.histogram, 0.99, aggregate.max_ms)!;
          expect(p50).toBeLessThanOrEqual(p99);
          expect(p99).toBeLessThanOrEqual(aggregate.max_ms);
          for (const [q, value] of [
            [0.5, p50],
            [0.99, p99],
          ] as const) {
            const truth = exact(q);
            // Same or neighbouring bucket: within one bucket width (2^(1/4)) either way.
            expect(value).toBeGreaterThanOrEqual(truth / 2 ** 0.25 - 1e-9);
            expect(value).toBeLessThanOrEqual(truth * 2 ** 0.25 + 1e-9);
          }
        },
      ),
    );
  });

  it("merges across parts like one histogram of everything (order does not matter)", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.array(
            fc.record({
              ms: fc.double({ min: 0.1, max: 5000, noNaN: true }),
              status: fc.constantFrom(200, 201, 404, 500, 503),
            }),
            { maxLength: 40 },
          ),
          { maxLength: 6 },
        ),
        (parts) => {
          const whole = emptyAggregate();
          const merged = emptyAggregate();
          for (const part of parts) {
            const aggregate = emptyAggregate();
            for (const { ms, status } of part) {
              addSample(aggregate, status, ms);
              addSample(whole, status, ms);
            }
            mergeInto(merged, aggregate);
          }
          expect(merged.histogram).toEqual(whole.histogram);
          expect([merged.requests, merged.server_errors, merged.client_errors, merged.max_ms]).toEqual([
            whole.requests,
            whole.server_errors,
            whole.client_errors,
            whole.max_ms,
          ]);
        },
      ),
    );
  });

  it("has no quantile for no requests", () => {
    expect(quantile({}, 0.5)).toBeNull();
  });
});

describe("window query", () => {
  it("accepts 10..3600 whole seconds, defaults to 60", () => {
    expect(MetricsQuery.parse({}).window).toBe(60);
    expect(MetricsQuery.parse({ window: "10" }).window).toBe(10);
    expect(MetricsQuery.parse({ window: "3600" }).window).toBe(3600);
    for (const bad of ["9", "3601", "abc", "12.5", "-60", "1e3"])
      expect(MetricsQuery.safeParse({ window: bad }).success).toBe(false);
  });

  it("keeps the series to about 60 points", () => {
    for (const window of [10, 60, 61, 120, 300, 900, 3600]) {
      expect(Math.ceil(window / seriesStepSeconds(window))).toBeLessThanOrEqual(61);
    }
    expect(seriesStepSeconds(60)).toBe(1);
  });

  it("keys windows by hour partition and instance, one key module", () => {
    expect(windowStartOf(1_767_225_609)).toBe(1_767_225_600);
    expect(metricsWindowKey(1_767_225_610, "abc")).toEqual({ pk: "METRICS#01767225600", sk: "W#01767225610#abc" });
    const range = metricsWindowRange(1_767_225_600, 1_767_225_610);
    expect("W#01767225610#abc" >= range.from && "W#01767225610#abc" <= range.to).toBe(true);
    expect("W#01767225620#abc" <= range.to).toBe(false);
  });
});

describe("RequestMetrics ring", () => {
  it("keeps at most ringSeconds buckets whatever the traffic", () => {
    const clock = manualClock();
    const metrics = new RequestMetrics({ clock: clock.now, ringSeconds: 120 });
    for (let second = 0; second < 1000; second += 1) {
      for (let i = 0; i < 5; i += 1) metrics.record(sample(200, 3, `/route-${i}/:id`));
      clock.advance(1);
    }
    expect(metrics.secondsInMemory()).toBe(120);
    // Route tallies are bounded per second too, whatever paths a client invents.
    for (let i = 0; i < 500; i += 1) metrics.record(sample(404, 1, `/r${i}`));
    const now = metrics.nowSecond();
    const [bucket] = metrics.seconds(now, now);
    expect(bucket!.routes.size).toBeLessThanOrEqual(65);
    expect(bucket!.requests).toBe(500);
  });

  it("reports counts, rates and percentiles of what it recorded", () => {
    const clock = manualClock();
    const metrics = new RequestMetrics({ clock: clock.now });
    for (let i = 0; i < 20; i += 1) {
      metrics.record(sample(200, 4));
      if (i % 5 === 0) metrics.record(sample(404, 1, "(unmatched)"));
      if (i % 10 === 0) metrics.record(sample(500, 40, "/boom"));
      clock.advance(1);
    }
    const report = reportOf(metrics, 60);
    expect(report.requests).toBe(26);
    expect(report.server_errors).toBe(2);
    expect(report.client_errors).toBe(4);
    expect(report.error_rate).toBeCloseTo(2 / 26, 4);
    expect(report.client_error_rate).toBeCloseTo(4 / 26, 4);
    expect(report.requests_per_second).toBeCloseTo(26 / 60, 2);
    expect(report.p50_ms!).toBeGreaterThan(3);
    expect(report.p50_ms!).toBeLessThanOrEqual(4);
    expect(report.p99_ms!).toBeLessThanOrEqual(40);
    expect(report.p99_ms!).toBeGreaterThan(30);
    expect(report.series).toHaveLength(59);
    expect(report.series.reduce((sum, point) => sum + point.requests, 0)).toBe(26);
    expect(report.routes[0]).toEqual({ route: "GET /health", requests: 20, server_errors: 0, client_errors: 0 });
    // A 10-second window sees only its seconds: 11..19 (the current second, 20, is still empty).
    expect(reportOf(metrics, 10).requests).toBe(10);
  });

  it("flushes each finished window once, on the next request or its timer", async () => {
    const clock = manualClock(1_767_225_600);
    const written: WindowAggregate[][] = [];
    const metrics = new RequestMetrics({ clock: clock.now, sink: async (windows) => void written.push(windows) });
    try {
      for (let i = 0; i < 10; i += 1) {
        metrics.record(sample());
        clock.advance(1);
      }
      expect(written).toHaveLength(0);
      metrics.record(sample()); // first request of the next window flushes the finished one
      await metrics.flush();
      expect(written).toHaveLength(1);
      expect(written[0]![0]).toMatchObject({
        window_start: 1_767_225_600,
        requests: 10,
        window_seconds: FLUSH_WINDOW_SECONDS,
      });
      expect(written[0]![0]!.per_second).toHaveLength(10);
      for (let i = 0; i < 9; i += 1) metrics.record(sample());
      await metrics.flush();
      expect(written).toHaveLength(1); // nothing finished: nothing written
      clock.advance(30);
      await metrics.flush();
      expect(written).toHaveLength(2);
      expect(written[1]![0]).toMatchObject({ window_start: 1_767_225_610, requests: 10 });
      await metrics.flush();
      expect(written).toHaveLength(2);
    } finally {
      metrics.stop();
    }
  });

  it("a failing sink never throws into record, logs, and retries no sooner than the next window", async () => {
    const clock = manualClock(1_767_225_600);
    let attempts = 0;
    const errors: string[] = [];
    const logger = {
      debug() {},
      info() {},
      warn() {},
      error: (message: string) => void errors.push(message),
      child: () => logger,
    };
    const metrics = new RequestMetrics({
      clock: clock.now,
      logger,
      sink: async () => {
        attempts += 1;
        throw new Error("table unavailable");
      },
    });
    try {
      metrics.record(sample());
      clock.advance(10);
      for (let i = 0; i < 50; i += 1) expect(() => metrics.record(sample())).not.toThrow();
      await metrics.flush();
      expect(attempts).toBe(1);
      expect(errors).toEqual(["metrics flush failed"]);
      clock.advance(10);
      metrics.record(sample());
      await metrics.flush();
      expect(attempts).toBe(2);
    } finally {
      metrics.stop();
    }
  });

  it("merges another instance's flushed windows without counting its own twice", async () => {
    const clock = manualClock(1_767_225_600);
    const table: WindowAggregate[] = [];
    const sink = async (windows: WindowAggregate[]) => void table.push(...windows);
    const a = new RequestMetrics({ clock: clock.now, sink, instanceId: "a" });
    const b = new RequestMetrics({ clock: clock.now, sink, instanceId: "b" });
    try {
      for (let i = 0; i < 12; i += 1) {
        a.record(sample(200, 2));
        a.record(sample(503, 9));
        b.record(sample(200, 2));
        clock.advance(1);
      }
      await a.flush({ includeCurrent: true });
      await b.flush({ includeCurrent: true });
      const fromA = reportOf(a, 60, table);
      const fromB = reportOf(b, 60, table);
      for (const report of [fromA, fromB]) {
        expect(report.requests).toBe(36);
        expect(report.server_errors).toBe(12);
        expect(report.instances).toBe(2);
      }
      expect(fromA.p99_ms).toBe(fromB.p99_ms);
    } finally {
      a.stop();
      b.stop();
    }
  });
});
