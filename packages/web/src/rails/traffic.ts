import type { RoutingDecision } from "@fintech/core/payments/model";
import type { RailMetrics } from "../api/rails";
import { formatMoney } from "../lib/money";
import { percentText } from "./format";

/**
 * The console's reading of real traffic (GET /rails/metrics and /rails/decisions): money per
 * currency in words, what a routing decision saved and why, and each rail's error and time bars.
 * Nothing here is a fixed figure: without traffic the helpers say so (null or an empty list).
 */

/** Amounts in several currencies as one line, largest first: "$12.50 · €3.00"; null when there is none. */
export function moneyLine(rows: readonly { currency: string; minor: number }[]): string | null {
  const shown = rows.filter((row) => row.minor !== 0).sort((a, b) => Math.abs(b.minor) - Math.abs(a.minor));
  return shown.length === 0 ? null : shown.map((row) => formatMoney(row.minor, row.currency)).join(" · ");
}

export const STRATEGY_LABELS: Record<RoutingDecision["strategy"], string> = {
  expected_value: "Best expected value",
  preferred: "Preferred rail",
  forced: "Forced rail",
  exploration: "Exploration",
};

/** What the choice saved against the default rail, in words (a negative saving is what it cost more). */
export function savingText(
  decision: Pick<RoutingDecision, "savingMinor" | "currency" | "chosenRail" | "defaultRail">,
): string {
  if (decision.chosenRail === decision.defaultRail)
    return `${decision.chosenRail} is the default rail: nothing to save`;
  const amount = formatMoney(Math.abs(decision.savingMinor), decision.currency);
  if (decision.savingMinor > 0) return `Saved ${amount} against ${decision.defaultRail} (default)`;
  if (decision.savingMinor < 0) return `Cost ${amount} more than ${decision.defaultRail} (default)`;
  return `Same cost as ${decision.defaultRail} (default)`;
}

export type RailPerformance = RailMetrics["perRail"][number];

/** A rail's bars from real attempts: error rate = 100 − success rate; null when it had no attempt in the window. */
export function performanceBars(
  rail: Pick<RailPerformance, "transactions" | "successRate" | "avgProcessingTime">,
): { errorRate: number; avgSeconds: number; successRate: number } | null {
  if (rail.transactions === 0 || rail.successRate === null || rail.avgProcessingTime === null) return null;
  return {
    successRate: rail.successRate,
    errorRate: Number((100 - rail.successRate).toFixed(1)),
    avgSeconds: rail.avgProcessingTime,
  };
}

/** The savings of the metrics' last day (UTC), per currency, as one line; null when nothing was saved that day. */
export function todaysSavings(metrics: Pick<RailMetrics, "savingsByDay" | "to">): string | null {
  const today = metrics.to.slice(0, 10);
  return moneyLine(
    metrics.savingsByDay
      .filter((row) => row.day === today)
      .map((row) => ({ currency: row.currency, minor: row.savingMinor })),
  );
}

/** A candidate's success estimate (0..1) as the console shows percentages: 0.985 -> "98.5%". */
export const estimateText = (fraction: number): string => `${percentText(fraction * 100, 1)}%`;
