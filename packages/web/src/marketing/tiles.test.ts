import { describe, expect, it } from "vitest";
import { rowDirection, rowsOf, tileProgress, tilesActive, TILE_ACTIVATION_PX } from "./tiles";

describe("tilesActive", () => {
  it("activates strictly past 40 px", () => {
    expect(TILE_ACTIVATION_PX).toBe(40);
    expect(tilesActive(0)).toBe(false);
    expect(tilesActive(40)).toBe(false);
    expect(tilesActive(40.5)).toBe(true);
    expect(tilesActive(41)).toBe(true);
    expect(tilesActive(Number.NaN)).toBe(false);
  });
});

describe("rowsOf", () => {
  it("puts fourteen tiles in rows of 5, 5 and 4", () => {
    const rows = rowsOf(Array.from({ length: 14 }, (_, i) => i));
    expect(rows.map((row) => row.length)).toEqual([5, 5, 4]);
    expect(rows.flat()).toEqual(Array.from({ length: 14 }, (_, i) => i));
  });
  it("handles empty input and rejects a zero row size", () => {
    expect(rowsOf([])).toEqual([]);
    expect(() => rowsOf([1], 0)).toThrow(RangeError);
  });
});

describe("tileProgress", () => {
  it("is clamped to 0..1", () => {
    expect(tileProgress(-10)).toBe(0);
    expect(tileProgress(Number.NaN)).toBe(0);
    expect(tileProgress(300, 600)).toBe(0.5);
    expect(tileProgress(6000, 600)).toBe(1);
    expect(tileProgress(100, 0)).toBe(0);
  });
});

describe("rowDirection", () => {
  it("alternates", () => {
    expect([0, 1, 2].map(rowDirection)).toEqual([1, -1, 1]);
  });
});
