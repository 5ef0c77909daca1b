import { describe, expect, it } from "vitest";
import type { AnalyticsSeries } from "../api/types";
import {
  AXIS_CHAR_WIDTH,
  chartModel,
  describeSeries,
  LABEL_GAP,
  labelIndexes,
  linePath,
  mostActiveCurrency,
  niceStep,
  niceTicks,
  summarizeSeries,
} from "./chart";
import { day } from "./fixtures";

const series: AnalyticsSeries = {
  currency: "USD",
  opening_balance: "0.00",
  opening_balance_minor: 0,
  series: [
    day("2026-03-12", { inflow_pending_minor: 50000, pending_in_minor: 50000, transactions: 1 }),
    day("2026-03-13", { balance_minor: 50000, available_minor: 50000, inflow_posted_minor: 50000 }),
    day("2026-03-14", {
      balance_minor: 37950,
      available_minor: 37950,
      outflow_posted_minor: 12050,
      outflow_pending_minor: 12050,
      transactions: 1,
    }),
  ],
};

describe("nice scales", () => {
  it("steps by 1, 2, 2.5 or 5 times a power of ten", () => {
    expect(niceStep(100, 4)).toBe(25);
    expect(niceStep(1000, 4)).toBe(250);
    expect(niceStep(9, 3)).toBe(5);
    expect(niceStep(0, 4)).toBe(1);
  });

  it("covers the data and includes zero", () => {
    expect(niceTicks(0, 50000, 4)).toEqual([0, 20000, 40000, 60000]);
    expect(niceTicks(-12050, 50000, 3)).toEqual([-25000, 0, 25000, 50000]);
    expect(niceTicks(0, 0)).toEqual([0, 25, 50, 75, 100]);
  });
});

describe("chartModel", () => {
  const model = chartModel(series.series, "USD", { width: 400, height: 300 });

  it("draws one balance point per day, left to right, higher balances higher up", () => {
    expect(model.points.map((point) => point.date)).toEqual(["2026-03-12", "2026-03-13", "2026-03-14"]);
    const [first, second, third] = model.points;
    expect(first!.x).toBeLessThan(second!.x);
    expect(second!.y).toBeLessThan(first!.y);
    expect(third!.y).toBeGreaterThan(second!.y);
    expect(model.balancePath.startsWith("M")).toBe(true);
    expect(model.balancePath.split("L")).toHaveLength(3);
  });

  it("puts inflows above the zero line and outflows below it", () => {
    const inflow = model.bars.find((bar) => bar.kind === "inflow_posted")!;
    const outflow = model.bars.find((bar) => bar.kind === "outflow_posted")!;
    expect(inflow.y + inflow.height).toBeCloseTo(model.flowZero);
    expect(outflow.y).toBeCloseTo(model.flowZero);
    expect(model.bars).toHaveLength(4);
    expect(model.balancePanel.bottom).toBeLessThan(model.flowPanel.top);
  });

  it("labels the axes with short en-US amounts and short dates", () => {
    expect(model.balanceTicks.map((tick) => tick.label)).toEqual(["$0", "$200", "$400", "$600"]);
    expect(model.flowTicks.map((tick) => tick.label)).toContain("−$250");
    expect(model.xLabels.map((label) => label.label)).toEqual(["Mar 12", "Mar 13", "Mar 14"]);
  });

  const days = (count: number) =>
    Array.from({ length: count }, (_, index) => day(new Date(Date.UTC(2026, 0, 1 + index)).toISOString().slice(0, 10)));
  /** Two labels overlap when their centres are closer than half of each one's width plus the gap. */
  const apart = (labels: { x: number; label: string }[]) =>
    labels.every(
      (label, index) =>
        index === 0 ||
        label.x - labels[index - 1]!.x >=
          ((label.label.length + labels[index - 1]!.label.length) / 2) * AXIS_CHAR_WIDTH + LABEL_GAP,
    );

  it("never lets date labels overlap, at any period and width, and always labels the last day", () => {
    for (const count of [1, 2, 7, 30, 31, 90, 365]) {
      for (const width of [280, 358, 390, 760, 1200]) {
        const model = chartModel(days(count), "USD", { width, height: 280 });
        expect(apart(model.xLabels), `${count} days at ${width} px`).toBe(true);
        expect(model.xLabels.at(-1)!.x).toBe(model.points.at(-1)!.x);
      }
    }
    expect(chartModel(days(90), "USD", { width: 360, height: 280 }).xLabels.at(-1)!.label).toBe("Mar 31");
  });

  it("drops the label before the last one when the two would touch (a distance in pixels, not days)", () => {
    // 10 px per day: labels every 6 days from day 0, and day 28 (2 days before the last) gives way.
    expect(labelIndexes(31, 10)).toEqual([0, 6, 12, 18, 24, 30]);
    expect(labelIndexes(30, 10)).toEqual([0, 6, 12, 18, 29]);
  });

  it("widens the left margin so large value labels stay inside the chart", () => {
    const rich = days(3).map((entry, index) => ({
      ...entry,
      balance_minor: 123_456_789_00 * (index + 1),
      available_minor: 123_456_789_00,
    }));
    const wide = chartModel(rich, "USD", { width: 400, height: 300 });
    const longest = Math.max(...wide.balanceTicks.map((tick) => tick.label.length));
    expect(wide.plot.left - 8).toBeGreaterThanOrEqual(longest * AXIS_CHAR_WIDTH);
  });
});

describe("mostActiveCurrency", () => {
  it("opens on the currency with the most new entries, then the most accounts", () => {
    const quiet = {
      ...series,
      currency: "USD" as const,
      account_count: 3,
      series: [day("2026-03-12", { transactions: 1 })],
    };
    const busy = {
      ...series,
      currency: "EUR" as const,
      account_count: 1,
      series: [day("2026-03-12", { transactions: 4 })],
    };
    const tied = {
      ...series,
      currency: "GBP" as const,
      account_count: 2,
      series: [day("2026-03-12", { transactions: 4 })],
    };
    expect(mostActiveCurrency([quiet, busy])?.currency).toBe("EUR");
    expect(mostActiveCurrency([quiet, busy, tied])?.currency).toBe("GBP");
    expect(mostActiveCurrency([])).toBeUndefined();
  });
});

describe("summaries", () => {
  it("adds the period up", () => {
    expect(summarizeSeries(series)).toEqual({
      opening: 0,
      closing: 37950,
      inflowPosted: 50000,
      outflowPosted: 12050,
      inflowPending: 50000,
      outflowPending: 12050,
      transactions: 2,
      high: 50000,
      low: 0,
    });
  });

  it("describe the chart in words for its accessible name", () => {
    expect(describeSeries(series, "USD balance")).toBe(
      "USD balance, Mar 12, 2026 to Mar 14, 2026: balance $0.00 at the start, $379.50 at the end (high $500.00, low $0.00). " +
        "Posted inflows $500.00, posted outflows $120.50; 2 new entries.",
    );
  });

  it("builds SVG paths", () => {
    expect(
      linePath([
        { x: 1, y: 2 },
        { x: 3.25, y: 4 },
      ]),
    ).toBe("M1.0 2.0 L3.3 4.0");
  });
});
