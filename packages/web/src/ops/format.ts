import { BREAK_CLASS_LABELS, type BreakClass } from "@fintech/core/reconciliation/model";
import type { OpsAnalytics, OpsRailStat } from "@fintech/core/ops/model";

/** How the console words its figures; pure, so tests pin them. */

/** "14:05:09 UTC" for a time today, with the day before it otherwise. */
export function whenText(iso: string, now: Date): string {
  const time = `${iso.slice(11, 19)} UTC`;
  return iso.slice(0, 10) === now.toISOString().slice(0, 10) ? time : `${iso.slice(0, 10)} ${time}`;
}

/** "97.5%", or "No attempts" when nothing finished. */
export const successRateText = (rate: OpsRailStat["successRate"]): string =>
  rate === null ? "No attempts" : `${Math.round(rate * 1000) / 10}%`;

/** "1,520.00 USD · 12.00 EUR", or "None". */
export const volumeText = (volume: OpsRailStat["volume"]): string =>
  volume.length === 0 ? "None" : volume.map((entry) => `${entry.amount} ${entry.currency}`).join(" · ");

export const statusText = (status: string): string => {
  const words = status.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export const breakClassText = (breakClass: BreakClass): string => BREAK_CLASS_LABELS[breakClass];

/** What the sparkline says to a screen reader. */
export function minutesSummary(perMinute: OpsAnalytics["journalsPerMinute"]): string {
  const total = perMinute.counts.reduce((sum, count) => sum + count, 0);
  const peak = Math.max(0, ...perMinute.counts);
  const latest = perMinute.counts[perMinute.counts.length - 1] ?? 0;
  return `${total}${perMinute.capped ? " or more" : ""} journals in the last hour; busiest minute ${peak}, this minute ${latest}`;
}

/** The sparkline's points in a width × height box, oldest minute on the left. */
export function sparklinePoints(counts: readonly number[], width: number, height: number): string {
  if (counts.length === 0) return "";
  const peak = Math.max(1, ...counts);
  const step = counts.length > 1 ? width / (counts.length - 1) : 0;
  return counts
    .map((count, index) => `${(index * step).toFixed(1)},${(height - (count / peak) * (height - 2) - 1).toFixed(1)}`)
    .join(" ");
}

/** Totals over every rail: attempts and the overall success rate. */
export function railTotals(rails: readonly OpsRailStat[]): { attempts: number; successRate: number | null } {
  const succeeded = rails.reduce((sum, rail) => sum + rail.succeeded, 0);
  const failed = rails.reduce((sum, rail) => sum + rail.failed, 0);
  return {
    attempts: rails.reduce((sum, rail) => sum + rail.attempts, 0),
    successRate: succeeded + failed === 0 ? null : succeeded / (succeeded + failed),
  };
}
