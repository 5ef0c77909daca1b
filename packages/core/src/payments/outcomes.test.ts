import { describe, expect, it } from "vitest";
import { ATTEMPT_ERRORS, attemptOutcome, unitDraw } from "./worker";

/**
 * The attempt outcome is a pure function of (payment id, attempt number) and the rail's success
 * rate and error injection: the same on every run (a re-run after a crash decides the same), and
 * over many payments its success share is successRate × (1 − errorInjection).
 */

const ids = Array.from({ length: 20_000 }, (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`);
const share = (rail: { successRate: number; errorInjection: number }, attempt = 1) =>
  ids.filter((id) => attemptOutcome(rail, id, attempt).succeeded).length / ids.length;

describe("attemptOutcome", () => {
  it("is deterministic in (payment, attempt) and differs between attempts", () => {
    const rail = { successRate: 50, errorInjection: 0 };
    for (const id of ids.slice(0, 100)) expect(attemptOutcome(rail, id, 1)).toEqual(attemptOutcome(rail, id, 1));
    const differing = ids
      .slice(0, 1000)
      .filter((id) => attemptOutcome(rail, id, 1).succeeded !== attemptOutcome(rail, id, 2).succeeded).length;
    expect(differing).toBeGreaterThan(400);
    for (const id of ids.slice(0, 100)) {
      const draw = unitDraw("outcome", id, 1);
      expect(draw).toBeGreaterThanOrEqual(0);
      expect(draw).toBeLessThan(1);
    }
  });

  it("succeeds with probability successRate/100 × (1 − errorInjection)", () => {
    expect(share({ successRate: 100, errorInjection: 0 })).toBe(1);
    expect(share({ successRate: 100, errorInjection: 1 })).toBe(0);
    expect(share({ successRate: 0, errorInjection: 0 })).toBe(0);
    expect(share({ successRate: 98.5, errorInjection: 0 })).toBeCloseTo(0.985, 2);
    expect(share({ successRate: 90, errorInjection: 0.5 })).toBeCloseTo(0.45, 1);
  });

  it("an injected failure is a retriable rail_timeout; organic failures spread over the codes, some final", () => {
    const injected = ids.slice(0, 200).map((id) => attemptOutcome({ successRate: 100, errorInjection: 1 }, id, 1));
    expect(new Set(injected.map((outcome) => (outcome.succeeded ? "ok" : outcome.code)))).toEqual(
      new Set(["rail_timeout"]),
    );
    const organic = ids.map((id) => attemptOutcome({ successRate: 0, errorInjection: 0 }, id, 1));
    const codes = new Map<string, number>();
    for (const outcome of organic) if (!outcome.succeeded) codes.set(outcome.code, (codes.get(outcome.code) ?? 0) + 1);
    expect([...codes.keys()].sort()).toEqual([
      "account_closed",
      "insufficient_funds_at_bank",
      "rail_timeout",
      "rail_unavailable",
    ]);
    expect((codes.get("rail_timeout") ?? 0) / ids.length).toBeCloseTo(0.5, 1);
    const final = [...codes]
      .filter(([code]) => !ATTEMPT_ERRORS[code as keyof typeof ATTEMPT_ERRORS].retriable)
      .reduce((sum, [, count]) => sum + count, 0);
    expect(final / ids.length).toBeCloseTo(0.25, 1);
  });
});
