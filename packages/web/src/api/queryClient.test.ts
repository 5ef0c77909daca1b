import { describe, expect, it } from "vitest";
import { ApiError } from "./errors";
import { shouldRetry } from "./queryClient";

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
});
