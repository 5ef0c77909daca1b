import { describe, expect, it } from "vitest";
import { rateLimitSubject } from "./rate-limit";

describe("rateLimitSubject", () => {
  it("is short and key-safe whatever the input", () => {
    for (const input of ["", "a@example.com", "x".repeat(100_000), "\u0000#RATE#\n", "€".repeat(5000)]) {
      const subject = rateLimitSubject(input, "203.0.113.7");
      expect(subject).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
  });

  it("keeps the parts apart: (ab, c) is not (a, bc)", () => {
    expect(rateLimitSubject("ab", "c")).not.toBe(rateLimitSubject("a", "bc"));
    expect(rateLimitSubject("a@example.com")).toBe(rateLimitSubject("a@example.com"));
  });
});
