import { describe, expect, it } from "vitest";
import { barHeights, CHART_BARS, seededRandom } from "./chart";

describe("seededRandom", () => {
  it("is deterministic per seed and stays in [0, 1)", () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const values = Array.from({ length: 1000 }, () => a());
    expect(values).toEqual(Array.from({ length: 1000 }, () => b()));
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    expect(seededRandom(43)()).not.toBe(seededRandom(42)());
  });
});

describe("barHeights", () => {
  it("gives 24 stable whole percentages within bounds", () => {
    const bars = barHeights(2024);
    expect(bars).toHaveLength(CHART_BARS);
    expect(CHART_BARS).toBe(24);
    expect(bars).toEqual(barHeights(2024));
    expect(bars.every((h) => Number.isInteger(h) && h >= 20 && h <= 100)).toBe(true);
    // Not a flat line.
    expect(new Set(bars).size).toBeGreaterThan(10);
  });
});
