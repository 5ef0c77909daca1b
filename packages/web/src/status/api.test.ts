import { describe, expect, it } from "vitest";
import { createHttpClient } from "../api/client";
import { ApiError } from "../api/errors";
import { statusEndpoints } from "../api/status";
import { fakeFetch, fakeTokens, json } from "../api/testing";

const metricsBody = {
  window_seconds: 60,
  requests: 3,
  requests_per_second: 0.05,
  p50_ms: 1.5,
  p99_ms: 4,
  mean_ms: 2,
  max_ms: 4,
  error_rate: 0,
  client_error_rate: 0.3333,
  server_errors: 0,
  client_errors: 1,
  step_seconds: 1,
  series: [{ t: 1, requests: 3, server_errors: 0, client_errors: 1 }],
  routes: [{ route: "GET /health", requests: 2, server_errors: 0, client_errors: 0 }],
  instances: 1,
  merged: true,
  instance: { id: "abc", ring_seconds: 120, seconds_in_memory: 1, unflushed_windows: 1 },
  as_of: "2026-01-01T00:00:00.000Z",
};

const servicesBody = {
  overall: "ok",
  checked_at: "2026-01-01T00:00:00.000Z",
  services: ["api", "database", "storage", "auth"].map((id) => ({
    id,
    name: id,
    status: "operational",
    latency_ms: 3,
    detail: "fine",
    checked_at: "2026-01-01T00:00:00.000Z",
  })),
};

function client(reply: Parameters<typeof fakeFetch>[0], token: string | null = "t0k3n") {
  const fetch = fakeFetch(reply);
  const tokens = fakeTokens(token);
  return {
    status: statusEndpoints(
      createHttpClient({ baseUrl: "https://api.example", fetch: fetch.fetch, credentials: tokens.source }),
    ),
    calls: fetch.calls,
    tokens,
  };
}

describe("status endpoints", () => {
  it("asks for the window with the bearer token and returns the parsed report", async () => {
    const { status, calls } = client(() => json(200, metricsBody));
    await expect(status.getMetrics(300)).resolves.toEqual(metricsBody);
    expect(calls[0]!.url).toBe("https://api.example/api/v1/status/metrics?window=300");
    expect(calls[0]!.headers.get("authorization")).toBe("Bearer t0k3n");
  });

  it("reads the four service checks", async () => {
    const { status, calls } = client(() => json(200, servicesBody));
    const report = await status.getServices();
    expect(report.services.map((service) => service.id)).toEqual(["api", "database", "storage", "auth"]);
    expect(calls[0]!.url).toBe("https://api.example/api/v1/status/services");
  });

  it("refuses a reply that breaks the contract", async () => {
    const { status } = client(() => json(200, { ...metricsBody, requests: "many" }));
    await expect(status.getMetrics()).rejects.toMatchObject({
      kind: "invalid-response",
      message: "Invalid response format",
    });
  });

  it("sends nothing without a token, and a 401 clears the session", async () => {
    const none = client(() => json(200, metricsBody), null);
    await expect(none.status.getMetrics()).rejects.toBeInstanceOf(ApiError);
    expect(none.calls).toHaveLength(0);
    const expired = client(() => json(401, { message: "Invalid or expired token" }));
    await expect(expired.status.getServices()).rejects.toMatchObject({ kind: "session-expired" });
    expect(expired.tokens.state.cleared).toBe(1);
  });

  it("passes the server's validation message on", async () => {
    const { status } = client(() =>
      json(400, { message: "window must be a whole number of seconds from 10 to 3600", code: "validation_error" }),
    );
    await expect(status.getMetrics(5)).rejects.toMatchObject({
      message: "window must be a whole number of seconds from 10 to 3600",
      status: 400,
    });
  });
});
