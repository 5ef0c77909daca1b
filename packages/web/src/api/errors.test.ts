import { describe, expect, it } from "vitest";
import { retryAfterSeconds } from "./errors";

describe("retryAfterSeconds", () => {
  it("reads delta-seconds", () => {
    expect(retryAfterSeconds("5")).toBe(5);
    expect(retryAfterSeconds(" 120 ")).toBe(120);
  });

  it("reads an HTTP date against the given moment", () => {
    const now = Date.parse("2030-01-01T00:00:00Z");
    expect(retryAfterSeconds("Tue, 01 Jan 2030 00:00:30 GMT", now)).toBe(30);
    expect(retryAfterSeconds("Mon, 31 Dec 2029 23:59:00 GMT", now)).toBe(0);
  });

  it("is null when absent or unreadable", () => {
    expect(retryAfterSeconds(null)).toBeNull();
    expect(retryAfterSeconds("")).toBeNull();
    expect(retryAfterSeconds("soon")).toBeNull();
  });
});
