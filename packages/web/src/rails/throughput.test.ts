import { describe, expect, it } from "vitest";
import { bucketTimes, describeThroughput, railTotals, throughputChart, type Throughput } from "./throughput";

const at = (minute: number) => new Date(Date.UTC(2026, 10, 26, 4, minute)).toISOString();
const points = (values: readonly [number, number][]) =>
  values.map(([succeeded, failed], index) => ({ at: at(index), transactions: succeeded + failed, succeeded, failed }));

const sample: Throughput = {
  range: "1h",
  bucketSeconds: 60,
  from: at(0),
  to: at(4),
  series: [
    {
      railId: "ach",
      rail: "ACH",
      points: points([
        [0, 0],
        [2, 1],
        [0, 0],
        [1, 0],
      ]),
    },
    {
      railId: "sepa",
      rail: "SEPA",
      points: points([
        [0, 0],
        [1, 0],
        [0, 0],
        [0, 0],
      ]),
    },
    {
      railId: "wire",
      rail: "Wire",
      points: points([
        [0, 0],
        [0, 0],
        [0, 0],
        [0, 0],
      ]),
    },
  ],
};

describe("the throughput monitor", () => {
  it("totals per rail over the range, and one sentence for the chart's name", () => {
    expect(railTotals(sample)).toEqual([
      { railId: "ach", rail: "ACH", transactions: 4, succeeded: 3, failed: 1 },
      { railId: "sepa", rail: "SEPA", transactions: 1, succeeded: 1, failed: 0 },
      { railId: "wire", rail: "Wire", transactions: 0, succeeded: 0, failed: 0 },
    ]);
    expect(describeThroughput(sample, "1 hour")).toBe(
      "Payment attempts per rail over the last 1 hour: 5 in all (ACH 4, SEPA 1).",
    );
    expect(describeThroughput({ series: [{ railId: "ach", rail: "ACH", points: points([[0, 0]]) }] }, "7 days")).toBe(
      "No payment attempts in the last 7 days.",
    );
  });

  it("stacks each bucket's attempts by rail on a round axis, inside the plot", () => {
    expect(bucketTimes(sample.series)).toEqual([at(0), at(1), at(2), at(3)]);
    const chart = throughputChart(sample, { width: 400, height: 200 });
    // Bucket 1: ACH 3 then SEPA 1 on top; bucket 3: ACH 1. Empty buckets draw nothing.
    expect(chart.segments.map((segment) => [segment.railId, segment.at, segment.value])).toEqual([
      ["ach", at(1), 3],
      ["sepa", at(1), 1],
      ["ach", at(3), 1],
    ]);
    const [achBottom, sepaTop] = chart.segments;
    expect(sepaTop!.y + sepaTop!.height).toBeCloseTo(achBottom!.y);
    expect(chart.yTicks[0]!.label).toBe("0");
    const topTick = Number(chart.yTicks.at(-1)!.label);
    expect(topTick).toBeGreaterThanOrEqual(4);
    for (const segment of chart.segments) {
      expect(segment.y).toBeGreaterThanOrEqual(chart.plot.top - 0.001);
      expect(segment.y + segment.height).toBeLessThanOrEqual(chart.plot.bottom + 0.001);
      expect(segment.x).toBeGreaterThanOrEqual(chart.plot.left);
      expect(segment.x + segment.width).toBeLessThanOrEqual(chart.plot.right);
    }
    // At least one time label under the columns.
    expect(chart.xLabels.length).toBeGreaterThanOrEqual(1);
  });

  it("with no attempt at all there is nothing to stack", () => {
    const empty = throughputChart({ ...sample, series: [sample.series[2]!] }, { width: 400, height: 200 });
    expect(empty.segments).toEqual([]);
  });
});
