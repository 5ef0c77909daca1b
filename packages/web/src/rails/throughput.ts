import { labelIndexes, niceTicks } from "../ledger/chart";
import type { Throughput } from "../api/rails";
import type { ThroughputRange } from "./format";

/**
 * The throughput monitor's chart, pure so it is tested without a DOM: one column per time bucket
 * of GET /api/v1/rails/throughput, stacked by rail (each rail's attempts in that bucket), with a
 * value axis at round steps and time labels that never overlap. The same figures are in the table
 * beside it (per rail: attempts, succeeded, failed), which is what assistive technology reads.
 */

export type { Throughput };
type ThroughputSeries = Throughput["series"][number];

export interface RailTotals {
  railId: string;
  rail: string;
  transactions: number;
  succeeded: number;
  failed: number;
}

/** Per rail over the whole range, in the series' order. */
export function railTotals(throughput: Pick<Throughput, "series">): RailTotals[] {
  return throughput.series.map(({ railId, rail, points }) => ({
    railId,
    rail,
    transactions: points.reduce((sum, point) => sum + point.transactions, 0),
    succeeded: points.reduce((sum, point) => sum + point.succeeded, 0),
    failed: points.reduce((sum, point) => sum + point.failed, 0),
  }));
}

/** One sentence for the chart's accessible name: the range and the totals, or that nothing ran. */
export function describeThroughput(throughput: Pick<Throughput, "series">, rangeLabel: string): string {
  const totals = railTotals(throughput).filter((total) => total.transactions > 0);
  if (totals.length === 0) return `No payment attempts in the last ${rangeLabel}.`;
  const all = totals.reduce((sum, total) => sum + total.transactions, 0);
  const parts = totals.map((total) => `${total.rail} ${total.transactions}`);
  return `Payment attempts per rail over the last ${rangeLabel}: ${all} in all (${parts.join(", ")}).`;
}

/** The buckets' start times, in order, across every series (the server sends the same buckets per rail). */
export function bucketTimes(series: readonly ThroughputSeries[]): string[] {
  const times = new Set<string>();
  for (const { points } of series) for (const point of points) times.add(point.at);
  return [...times].sort((a, b) => Date.parse(a) - Date.parse(b));
}

/** A bucket's time label: clock time within a day's ranges, the date for week and month. */
export function bucketLabel(at: string, range: ThroughputRange): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return at;
  if (range === "1h" || range === "24h")
    return date.toLocaleTimeString("en-US", { hour: "numeric", minute: "2-digit" });
  if (range === "7d") return date.toLocaleString("en-US", { weekday: "short", hour: "numeric" });
  return date.toLocaleDateString("en-US", { month: "short", day: "numeric" });
}

export const THROUGHPUT_PADDING = { top: 12, right: 12, bottom: 26, left: 40 } as const;

export interface ThroughputSegment {
  railId: string;
  /** Index of the rail in the series: its colour. */
  colour: number;
  x: number;
  y: number;
  width: number;
  height: number;
  value: number;
  at: string;
}

export interface ThroughputChart {
  segments: ThroughputSegment[];
  yTicks: { y: number; label: string }[];
  xLabels: { x: number; label: string }[];
  plot: { left: number; right: number; top: number; bottom: number };
}

export function throughputChart(throughput: Throughput, size: { width: number; height: number }): ThroughputChart {
  const times = bucketTimes(throughput.series);
  const valueAt = throughput.series.map(({ points }) => new Map(points.map((point) => [point.at, point.transactions])));
  const stackTotals = times.map((at) => valueAt.reduce((sum, values) => sum + (values.get(at) ?? 0), 0));
  const ticks = niceTicks(0, Math.max(0, ...stackTotals), 4).filter((tick) => tick >= 0);
  const top = ticks[ticks.length - 1] ?? 1;
  const plot = {
    left: THROUGHPUT_PADDING.left,
    right: size.width - THROUGHPUT_PADDING.right,
    top: THROUGHPUT_PADDING.top,
    bottom: size.height - THROUGHPUT_PADDING.bottom,
  };
  const y = (value: number) => plot.bottom - (value / (top || 1)) * (plot.bottom - plot.top);
  const band = times.length > 0 ? (plot.right - plot.left) / times.length : plot.right - plot.left;
  const width = Math.max(1, band * 0.7);

  const segments: ThroughputSegment[] = [];
  times.forEach((at, index) => {
    let base = 0;
    const x = plot.left + band * index + (band - width) / 2;
    valueAt.forEach((values, colour) => {
      const value = values.get(at) ?? 0;
      if (value <= 0) return;
      segments.push({
        railId: throughput.series[colour]!.railId,
        colour,
        x,
        y: y(base + value),
        width,
        height: y(base) - y(base + value),
        value,
        at,
      });
      base += value;
    });
  });

  return {
    segments,
    yTicks: ticks.map((value) => ({ y: y(value), label: String(value) })),
    // labelIndexes spaces labels for 6 characters; ours run to 9 ("12:45 PM"), so its band is scaled down to match.
    xLabels: labelIndexes(times.length, band * (6 / 9)).map((index) => ({
      x: plot.left + band * (index + 0.5),
      label: bucketLabel(times[index]!, throughput.range),
    })),
    plot,
  };
}
