import { describe, expect, it } from "vitest";
import { createApi } from "./api";
import { createHttpClient } from "./client";
import { databaseStats, healthFailure } from "./health";
import { toHealthView } from "./healthView";
import { ApiError } from "./errors";
import { fakeFetch, fakeTokens, json } from "./testing";

const report = {
  status: "error",
  message: "Database unavailable",
  time: "2026-01-01T00:00:00.000Z",
  timestamp: 1767225600000,
  database: { connected: false, error: "timeout", max_open_connections: 50, open_connections: 3, in_use: 1, idle: 2 },
};

const healthApi = (reply: Parameters<typeof fakeFetch>[0]) =>
  createApi(
    createHttpClient({
      baseUrl: "https://api.test",
      fetch: fakeFetch(reply).fetch,
      credentials: fakeTokens(null).source,
    }),
  ).health;

describe("getHealth", () => {
  it("returns the report of a 503, which is an answer and not a failure", async () => {
    await expect(healthApi(() => json(503, report)).getHealth()).resolves.toEqual(report);
  });

  it("fills missing figures with zeros", async () => {
    const health = await healthApi(() => json(200, { status: "ok", database: { connected: true } })).getHealth();
    expect(health.database).toEqual({
      connected: true,
      error: null,
      max_open_connections: 0,
      open_connections: 0,
      in_use: 0,
      idle: 0,
    });
  });
});

describe("toHealthView", () => {
  it("is loading before the first reply", () => {
    expect(toHealthView({ status: "pending", data: undefined, error: null })).toEqual({
      loading: true,
      health: null,
      error: null,
    });
  });

  it("shows the failure state with the error's message", () => {
    const view = toHealthView({
      status: "error",
      data: report,
      error: new ApiError("HTTP error! status: 502", "http-status", 502),
    });
    expect(view.health).toMatchObject({
      status: "error",
      message: "Unable to connect to backend",
      database: { connected: false },
    });
    expect(view.error).toBe("HTTP error! status: 502");
  });

  it("falls back to 'Failed to fetch health status'", () => {
    expect(toHealthView({ status: "error", data: undefined, error: "boom" }).error).toBe(
      "Failed to fetch health status",
    );
  });
});

describe("databaseStats", () => {
  it("derives utilization as a rounded percentage of in use over max", () => {
    expect(databaseStats(report.database)).toEqual({
      maxConnections: 50,
      openConnections: 3,
      inUse: 1,
      idle: 2,
      utilization: 2,
    });
    expect(databaseStats({ ...report.database, in_use: 1, max_open_connections: 3 }).utilization).toBe(33);
    expect(databaseStats(healthFailure().database).utilization).toBe(0);
  });
});
