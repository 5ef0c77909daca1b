import { describe, expect, it } from "vitest";
import type { MetricsReport } from "@fintech/core/metrics/model";
import {
  BANNER_TITLES,
  bannerFor,
  errorRateTone,
  formatMs,
  formatPercent,
  formatRate,
  formatWindow,
  performanceView,
  sparkline,
} from "./view";

const report = (overrides: Partial<MetricsReport> = {}): MetricsReport => ({
  window_seconds: 60,
  requests: 120,
  requests_per_second: 2,
  p50_ms: 3.21,
  p99_ms: 48.7,
  mean_ms: 5,
  max_ms: 60,
  error_rate: 0.025,
  client_error_rate: 0.1,
  server_errors: 3,
  client_errors: 12,
  step_seconds: 5,
  series: [
    { t: 0, requests: 10, server_errors: 0, client_errors: 0 },
    { t: 5, requests: 0, server_errors: 0, client_errors: 0 },
  ],
  routes: [],
  instances: 2,
  merged: true,
  instance: { id: "a", ring_seconds: 120, seconds_in_memory: 10, unflushed_windows: 1 },
  as_of: "2026-01-01T10:00:00.000Z",
  ...overrides,
});

describe("bannerFor (docs/product/status.md#overall-banner)", () => {
  it("maps ok, degraded and anything else", () => {
    expect(bannerFor("ok")).toEqual({ tone: "ok", title: "All Systems Operational" });
    expect(bannerFor("degraded")).toEqual({ tone: "degraded", title: "Partial System Outage" });
    for (const other of ["error", "down", "", null, undefined, "OK"]) {
      expect(bannerFor(other)).toEqual({ tone: "down", title: "Major System Outage" });
    }
  });

  it("says it is checking before the first answer", () => {
    expect(bannerFor(undefined, true)).toEqual({ tone: "pending", title: BANNER_TITLES.pending });
  });
});

describe("formatting", () => {
  it("never shows NaN", () => {
    for (const format of [formatMs, formatRate, formatPercent]) {
      expect(format(null)).toBe("—");
      expect(format(Number.NaN)).toBe("—");
    }
  });

  it("formats latency, rates, shares and windows", () => {
    expect(formatMs(3.21)).toBe("3.2 ms");
    expect(formatMs(48.7)).toBe("49 ms");
    expect(formatMs(12_345)).toBe("12.3 s");
    expect(formatRate(0.4567)).toBe("0.46");
    expect(formatRate(123.45)).toBe("123.5");
    expect(formatPercent(0.025)).toBe("2.50%");
    expect(formatPercent(0)).toBe("0.00%");
    expect(formatWindow(60)).toBe("minute");
    expect(formatWindow(300)).toBe("5 minutes");
    expect(formatWindow(3600)).toBe("hour");
  });

  it("colours the error rate by severity, never for no traffic", () => {
    expect(errorRateTone(0, 0)).toBe("ok");
    expect(errorRateTone(1, 0)).toBe("ok");
    expect(errorRateTone(0.005, 100)).toBe("ok");
    expect(errorRateTone(0.02, 100)).toBe("degraded");
    expect(errorRateTone(0.5, 100)).toBe("down");
  });
});

describe("performanceView", () => {
  it("turns the series into requests per second of each step", () => {
    const view = performanceView(report());
    expect(view.series).toEqual([2, 0]);
    expect(view).toMatchObject({
      requests: 120,
      requestsPerSecond: "2.00",
      p50: "3.2 ms",
      p99: "49 ms",
      errorRate: "2.50%",
      clientErrorRate: "10.00%",
      errorTone: "degraded",
      instances: 2,
    });
  });

  it("shows dashes when no request has been timed", () => {
    const view = performanceView(report({ requests: 0, p50_ms: null, p99_ms: null, error_rate: 0 }));
    expect([view.p50, view.p99, view.errorTone]).toEqual(["—", "—", "ok"]);
  });
});

describe("sparkline", () => {
  it("spans the box, zero on the baseline and the peak at the top", () => {
    const geometry = sparkline([0, 5, 10], 100, 50, 0);
    expect(geometry.line).toBe("M0 50 L50 25 L100 0");
    expect(geometry.area).toBe("M0 50 L50 25 L100 0 L100 50 L0 50 Z");
    expect(geometry.max).toBe(10);
    expect(geometry.last).toEqual({ x: 100, y: 0 });
  });

  it("draws idle traffic flat on the baseline and survives bad values", () => {
    expect(sparkline([0, 0, 0], 100, 50, 0).line).toBe("M0 50 L50 50 L100 50");
    expect(sparkline([Number.NaN, -3, 1], 100, 50, 0).line).toBe("M0 50 L50 50 L100 0");
    expect(sparkline([], 100, 50)).toEqual({ line: "", area: "", max: 0, last: null });
    expect(sparkline([4], 100, 50, 0).line).toBe("M50 0");
  });
});
