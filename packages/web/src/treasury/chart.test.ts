import { describe, expect, it } from "vitest";
import { linePoints, pointsAttribute } from "./chart";

describe("rate history chart geometry", () => {
  it("spans the box from the lowest to the highest rate, oldest on the left", () => {
    const points = linePoints(["1.0", "1.2", "1.1"], 104, 54, 2);
    expect(pointsAttribute(points)).toBe("2.0,52.0 52.0,2.0 102.0,27.0");
  });

  it("draws one rate or a flat series across the middle", () => {
    expect(linePoints(["1.5"], 100, 50)).toEqual([{ x: 50, y: 25 }]);
    expect(linePoints(["2", "2"], 100, 50).map((point) => point.y)).toEqual([25, 25]);
    expect(linePoints([], 100, 50)).toEqual([]);
  });
});
