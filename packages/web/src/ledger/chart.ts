import type { Currency } from "@fintech/core/money/model";
import type { AnalyticsDay, AnalyticsSeries } from "../api/types";
import { formatDay } from "./format";
import { formatMoney, formatMoneyCompact } from "../lib/money";

/**
 * Geometry of the analytics chart, pure so it can be tested without a DOM: a balance panel
 * (end-of-day balance and available as lines) over a flow panel (posted inflows up, posted
 * outflows down, new pending amounts as lighter bars beside them). Values are minor units.
 */

export interface ChartSize {
  width: number;
  height: number;
}

export const CHART_PADDING = { top: 16, right: 16, bottom: 28, left: 72 } as const;
/** Share of the plot height given to the balance panel; the flow panel takes the rest. */
const BALANCE_SHARE = 0.62;
const PANEL_GAP = 34;

/** Round steps of 1, 2, 2.5 or 5 times a power of ten. */
export function niceStep(range: number, count: number): number {
  if (!(range > 0) || count < 1) return 1;
  const raw = range / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 2.5 ? 2.5 : fraction <= 5 ? 5 : 10;
  return Math.max(1, nice * power);
}

/** Ticks covering [min, max] at a round step (at least two ticks; zero included when in range). */
export function niceTicks(min: number, max: number, count = 4): number[] {
  let low = Math.min(min, max);
  let high = Math.max(min, max);
  if (low === high) {
    if (low === 0) high = 100;
    else if (low > 0) low = 0;
    else high = 0;
  }
  const step = niceStep(high - low, count);
  const start = Math.floor(low / step) * step;
  const end = Math.ceil(high / step) * step;
  const ticks: number[] = [];
  for (let value = start; value <= end + step / 2; value += step) ticks.push(Math.round(value) || 0);
  return ticks;
}

export interface Point {
  x: number;
  y: number;
}

export const linePath = (points: readonly Point[]): string =>
  points.map((point, index) => `${index === 0 ? "M" : "L"}${point.x.toFixed(1)} ${point.y.toFixed(1)}`).join(" ");

export interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
  kind: "inflow_posted" | "outflow_posted" | "inflow_pending" | "outflow_pending";
  date: string;
  value: number;
}

export interface Tick {
  y: number;
  label: string;
}

export interface ChartModel {
  balancePath: string;
  availablePath: string;
  points: (Point & { date: string; balance: number })[];
  bars: Bar[];
  balanceTicks: Tick[];
  flowTicks: Tick[];
  /** y of the flow panel's zero line. */
  flowZero: number;
  xLabels: { x: number; label: string }[];
  balancePanel: { top: number; bottom: number };
  flowPanel: { top: number; bottom: number };
  plot: { left: number; right: number };
}

const scale = (domain: [number, number], range: [number, number]) => (value: number) => {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  return d1 === d0 ? (r0 + r1) / 2 : r0 + ((value - d0) / (d1 - d0)) * (r1 - r0);
};

/** Axis text is 11 px; an en-US digit or letter is at most about 7 px wide at that size. */
export const AXIS_CHAR_WIDTH = 7;
/** Clear space kept between two neighbouring date labels. */
export const LABEL_GAP = 12;
/** Room a date label ("Mar 14") takes, centred on its day, plus the gap to the next. */
const DATE_LABEL_SPACING = 6 * AXIS_CHAR_WIDTH + LABEL_GAP;

/**
 * Which days get a date label: evenly spaced, always the first and the last, and never two
 * closer than DATE_LABEL_SPACING pixels (measured in pixels, not in days, so a narrow phone
 * chart drops labels instead of overlapping them).
 */
export function labelIndexes(count: number, band: number): number[] {
  if (count <= 1) return count === 1 ? [0] : [];
  const every = Math.max(1, Math.ceil(DATE_LABEL_SPACING / Math.max(band, 1e-6)));
  const indexes: number[] = [];
  for (let index = 0; index < count; index += every) indexes.push(index);
  const last = count - 1;
  if (indexes[indexes.length - 1] !== last) {
    // The last day is always labelled; a label too close before it gives way.
    if ((last - indexes[indexes.length - 1]!) * band < DATE_LABEL_SPACING) indexes.pop();
    indexes.push(last);
  }
  // A single-day-wide chart cannot hold both ends: keep the last.
  if (indexes.length === 2 && (indexes[1]! - indexes[0]!) * band < DATE_LABEL_SPACING) indexes.shift();
  return indexes;
}

/** The left margin that fits the widest value label, right-aligned 8 px before the plot. */
const leftPadding = (labels: readonly string[]): number =>
  Math.max(CHART_PADDING.left, Math.ceil(Math.max(0, ...labels.map((label) => label.length)) * AXIS_CHAR_WIDTH + 16));

export function chartModel(days: readonly AnalyticsDay[], currency: Currency, size: ChartSize): ChartModel {
  const balances = days.flatMap((day) => [day.balance_minor, day.available_minor]);
  const balanceTicksRaw = niceTicks(Math.min(0, ...balances), Math.max(0, ...balances), 4);
  // Inflows rise above zero and outflows fall below it; an unposting (a negative flow) flips side.
  const maxUp = Math.max(
    0,
    ...days.map((day) => Math.max(day.inflow_posted_minor, day.inflow_pending_minor, -day.outflow_posted_minor)),
  );
  const maxDown = Math.max(
    0,
    ...days.map((day) => Math.max(day.outflow_posted_minor, day.outflow_pending_minor, -day.inflow_posted_minor)),
  );
  const flowTicksRaw = niceTicks(-maxDown, maxUp, 3);
  const tickLabel = (value: number) => formatMoneyCompact(value, currency);
  const left = leftPadding([...balanceTicksRaw, ...flowTicksRaw].map(tickLabel));
  const right = size.width - CHART_PADDING.right;
  const plotHeight = size.height - CHART_PADDING.top - CHART_PADDING.bottom - PANEL_GAP;
  const balancePanel = { top: CHART_PADDING.top, bottom: CHART_PADDING.top + plotHeight * BALANCE_SHARE };
  const flowPanel = { top: balancePanel.bottom + PANEL_GAP, bottom: size.height - CHART_PADDING.bottom };

  const count = days.length;
  const band = count > 0 ? (right - left) / count : right - left;
  const centre = (index: number) => left + band * (index + 0.5);

  const balanceDomain: [number, number] = [balanceTicksRaw[0]!, balanceTicksRaw[balanceTicksRaw.length - 1]!];
  const yBalance = scale(balanceDomain, [balancePanel.bottom, balancePanel.top]);

  const flowDomain: [number, number] = [flowTicksRaw[0]!, flowTicksRaw[flowTicksRaw.length - 1]!];
  const yFlow = scale(flowDomain, [flowPanel.bottom, flowPanel.top]);
  const flowZero = yFlow(0);

  const points = days.map((day, index) => ({
    x: centre(index),
    y: yBalance(day.balance_minor),
    date: day.date,
    balance: day.balance_minor,
  }));
  const available = days.map((day, index) => ({ x: centre(index), y: yBalance(day.available_minor) }));

  // Four thin bars per day: posted in, pending in, posted out, pending out.
  const barWidth = Math.max(1, Math.min(10, (band * 0.8) / 4));
  const bars: Bar[] = [];
  days.forEach((day, index) => {
    const start = centre(index) - barWidth * 2;
    const kinds: { kind: Bar["kind"]; value: number; direction: 1 | -1 }[] = [
      { kind: "inflow_posted", value: day.inflow_posted_minor, direction: 1 },
      { kind: "inflow_pending", value: day.inflow_pending_minor, direction: 1 },
      { kind: "outflow_posted", value: day.outflow_posted_minor, direction: -1 },
      { kind: "outflow_pending", value: day.outflow_pending_minor, direction: -1 },
    ];
    kinds.forEach(({ kind, value, direction }, slot) => {
      if (value === 0) return;
      const end = yFlow(value * direction);
      bars.push({
        x: start + slot * barWidth,
        y: Math.min(end, flowZero),
        width: barWidth * 0.9,
        height: Math.abs(end - flowZero),
        kind,
        date: day.date,
        value,
      });
    });
  });

  return {
    balancePath: linePath(points),
    availablePath: linePath(available),
    points,
    bars,
    balanceTicks: balanceTicksRaw.map((value) => ({ y: yBalance(value), label: tickLabel(value) })),
    flowTicks: flowTicksRaw.map((value) => ({ y: yFlow(value), label: tickLabel(value) })),
    flowZero,
    xLabels: labelIndexes(count, band).map((index) => ({ x: centre(index), label: formatDay(days[index]!.date) })),
    balancePanel,
    flowPanel,
    plot: { left, right },
  };
}

export interface SeriesSummary {
  opening: number;
  closing: number;
  inflowPosted: number;
  outflowPosted: number;
  inflowPending: number;
  outflowPending: number;
  transactions: number;
  high: number;
  low: number;
}

export function summarizeSeries(series: AnalyticsSeries): SeriesSummary {
  const days = series.series;
  const sum = (pick: (day: AnalyticsDay) => number) => days.reduce((total, day) => total + pick(day), 0);
  const balances = days.map((day) => day.balance_minor);
  return {
    opening: series.opening_balance_minor,
    closing: days.length ? days[days.length - 1]!.balance_minor : series.opening_balance_minor,
    inflowPosted: sum((day) => day.inflow_posted_minor),
    outflowPosted: sum((day) => day.outflow_posted_minor),
    inflowPending: sum((day) => day.inflow_pending_minor),
    outflowPending: sum((day) => day.outflow_pending_minor),
    transactions: sum((day) => day.transactions),
    high: balances.length ? Math.max(...balances) : 0,
    low: balances.length ? Math.min(...balances) : 0,
  };
}

/**
 * The currency the analytics open on: the one with the most activity over the period (new
 * entries), then the most accounts; amounts in different currencies are not compared.
 */
export function mostActiveCurrency<T extends AnalyticsSeries & { account_count?: number }>(
  currencies: readonly T[],
): T | undefined {
  const activity = (item: T) => item.series.reduce((sum, day) => sum + day.transactions, 0);
  return [...currencies].sort(
    (a, b) => activity(b) - activity(a) || (b.account_count ?? 0) - (a.account_count ?? 0),
  )[0];
}

/** The chart's text alternative (its aria-label). */
export function describeSeries(series: AnalyticsSeries, label: string): string {
  const days = series.series;
  if (days.length === 0) return `${label}: no data`;
  const summary = summarizeSeries(series);
  const money = (minor: number) => formatMoney(minor, series.currency);
  return (
    `${label}, ${formatDay(days[0]!.date, true)} to ${formatDay(days[days.length - 1]!.date, true)}: ` +
    `balance ${money(summary.opening)} at the start, ${money(summary.closing)} at the end ` +
    `(high ${money(summary.high)}, low ${money(summary.low)}). ` +
    `Posted inflows ${money(summary.inflowPosted)}, posted outflows ${money(summary.outflowPosted)}; ` +
    `${summary.transactions} new ${summary.transactions === 1 ? "entry" : "entries"}.`
  );
}
