import { describe, expect, it } from "vitest";
import { ApiError } from "./errors";
import { retryDelay, shouldRetry } from "./queryClient";

describe("shouldRetry", () => {
  it("retries network faults and 5xx, at most twice", () => {
    expect(shouldRetry(0, new ApiError("x", "network"))).toBe(true);
    expect(shouldRetry(1, new ApiError("x", "http-status", 503))).toBe(true);
    expect(shouldRetry(2, new ApiError("x", "http-status", 503))).toBe(false);
  });

  it("never retries what would fail again", () => {
    expect(shouldRetry(0, new ApiError("x", "server-message", 404))).toBe(false);
    expect(shouldRetry(0, new ApiError("x", "no-token"))).toBe(false);
    expect(shouldRetry(0, new ApiError("x", "session-expired", 401))).toBe(false);
    expect(shouldRetry(0, new ApiError("x", "invalid-response", 200))).toBe(false);
  });

  it("retries a 429 only when the server said when to come back, and not too far away", () => {
    expect(shouldRetry(0, new ApiError("x", "server-message", 429, "rate_limited", 5))).toBe(true);
    expect(shouldRetry(0, new ApiError("x", "server-message", 429, "rate_limited", null))).toBe(false);
    expect(shouldRetry(0, new ApiError("x", "server-message", 429, "rate_limited", 600))).toBe(false);
  });
});

describe("retryDelay", () => {
  it("waits as long as Retry-After asks, capped at 30 s", () => {
    expect(retryDelay(0, new ApiError("x", "server-message", 503, "service_unavailable", 5))).toBe(5000);
    expect(retryDelay(0, new ApiError("x", "server-message", 503, "service_unavailable", 120))).toBe(30_000);
  });

  it("doubles from one second otherwise", () => {
    expect([0, 1, 2].map((count) => retryDelay(count, new ApiError("x", "network")))).toEqual([1000, 2000, 4000]);
    expect(retryDelay(10, new Error("x"))).toBe(30_000);
  });
});
