import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { emptyBuckets, usedInWindow, withMovement, type UsageBuckets } from "./buckets";

const at = (iso: string) => new Date(iso);
const HOUR = 60 * 60 * 1000;

describe("rolling totals from buckets", () => {
  it("counts a movement for the whole window and at most one bucket longer", () => {
    let buckets = withMovement(emptyBuckets(), 500, at("2026-03-02T09:40:00.000Z"));
    expect(usedInWindow(buckets, "day", at("2026-03-02T09:40:00.000Z"))).toBe(500);
    // 24 h later the 09:00 bucket still overlaps the window (09:40 the day before to now)...
    expect(usedInWindow(buckets, "day", at("2026-03-03T09:40:00.000Z"))).toBe(500);
    // ...and at 10:00 it has left it.
    expect(usedInWindow(buckets, "day", at("2026-03-03T10:00:00.000Z"))).toBe(0);
    // The 30-day window counts by day: the 2nd of March leaves it when the 3rd does, 30 days on.
    expect(usedInWindow(buckets, "month", at("2026-04-01T23:59:59.999Z"))).toBe(500);
    expect(usedInWindow(buckets, "month", at("2026-04-02T00:00:00.000Z"))).toBe(0);
    buckets = withMovement(buckets, 250, at("2026-03-02T23:10:00.000Z"));
    expect(buckets).toEqual({ hours: { "2026-03-02T09": 500, "2026-03-02T23": 250 }, days: { "2026-03-02": 750 } });
  });

  it("drops buckets no window counts any more when it writes", () => {
    const old = withMovement(emptyBuckets(), 100, at("2026-01-01T00:00:00.000Z"));
    const next = withMovement(old, 7, at("2026-03-02T09:00:00.000Z"));
    expect(next).toEqual({ hours: { "2026-03-02T09": 7 }, days: { "2026-03-02": 7 } });
  });

  it("never undercounts: every movement inside the exact window is counted (property)", () => {
    const start = Date.parse("2026-03-01T00:00:00.000Z");
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            offset: fc.integer({ min: 0, max: 40 * 24 * HOUR }),
            amount: fc.integer({ min: 1, max: 10_000 }),
          }),
          { maxLength: 30 },
        ),
        fc.integer({ min: 0, max: 40 * 24 * HOUR }),
        (moves, probe) => {
          const sorted = [...moves].sort((a, b) => a.offset - b.offset);
          const now = start + probe;
          let buckets: UsageBuckets = emptyBuckets();
          for (const move of sorted.filter((candidate) => candidate.offset <= probe))
            buckets = withMovement(buckets, move.amount, new Date(start + move.offset));
          const exact = (hours: number) =>
            sorted
              .filter((move) => move.offset <= probe && start + move.offset > now - hours * HOUR)
              .reduce((sum, move) => sum + move.amount, 0);
          const within = (hours: number, slack: number) =>
            sorted
              .filter((move) => move.offset <= probe && start + move.offset > now - hours * HOUR - slack)
              .reduce((sum, move) => sum + move.amount, 0);
          expect(usedInWindow(buckets, "day", new Date(now))).toBeGreaterThanOrEqual(exact(24));
          expect(usedInWindow(buckets, "day", new Date(now))).toBeLessThanOrEqual(within(24, HOUR));
          expect(usedInWindow(buckets, "month", new Date(now))).toBeGreaterThanOrEqual(exact(720));
          expect(usedInWindow(buckets, "month", new Date(now))).toBeLessThanOrEqual(within(720, 24 * HOUR));
        },
      ),
    );
  });
});
