import { toDecimalString, type Currency } from "../money/model";
import type { CoreContext } from "../shared/context";
import type { RailStatLevel } from "./keys";
import type {
  DecisionList,
  RailMetrics,
  SavingsDay,
  StoredDecision,
  Throughput,
  ThroughputPoint,
  ThroughputRange,
} from "./metrics-model";
import type { Rail } from "./model";
import {
  addCounters,
  bucketOf,
  bucketStart,
  emptyCounters,
  LEVEL_SECONDS,
  readStatBuckets,
  recentDecisions,
  totalsByRail,
  userDecisions,
  type PerCurrency,
  type RailCounters,
  type StatBucket,
} from "./stats";
import { listRails } from "./store";

// The reply shapes live in the browser-safe metrics-model.ts; re-exported for importers of this module.
export type {
  DecisionList,
  RailMetrics,
  SavingsDay,
  StoredDecision,
  Throughput,
  ThroughputPoint,
  ThroughputRange,
} from "./metrics-model";

/**
 * The read side of the rail statistics (metrics, throughput, recent decisions, live rail figures;
 * docs/payments-and-rails.md#statistics-and-hot-keys), all from the counters of stats.ts. Every
 * read is bounded by (buckets × rails × shards) items, whatever the traffic: see THROUGHPUT_RANGES
 * and METRICS_WINDOW_DAYS.
 */

/** Days of the metrics and of the rails' live figures (day buckets: at most 30 × rails × 8 items). */
export const METRICS_WINDOW_DAYS = 30;
/** Days of per-day savings listed with the decisions. */
export const SAVINGS_DAYS = 7;

/**
 * Point size and the counter level read per range: at most 60 points, and the coarsest level
 * that still fills a point (7d reads hour buckets, three per point: 168 × rails × shards items).
 */
export const THROUGHPUT_RANGES: Record<
  ThroughputRange,
  { level: RailStatLevel; bucketSeconds: number; points: number }
> = {
  "1h": { level: "M", bucketSeconds: 60, points: 60 },
  "24h": { level: "H", bucketSeconds: 3_600, points: 24 },
  "7d": { level: "H", bucketSeconds: 3 * 3_600, points: 56 },
  "30d": { level: "D", bucketSeconds: 86_400, points: 30 },
};

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
const percentOf = (part: number, whole: number) => (whole > 0 ? round((part / whole) * 100, 1) : null);
const averageSeconds = (counters: RailCounters) =>
  counters.attempts > 0 ? round(counters.durationMs / counters.attempts / 1000, 3) : null;
/** USD minor units as USD major units (a number, as Rail.volume is). */
const usdMajor = (perCurrency: PerCurrency) => (perCurrency.USD ?? 0) / 100;

/** Per-currency amounts as rows with decimal strings, currencies in alphabetical order. */
function currencyRows(
  amounts: PerCurrency,
  counts: PerCurrency,
): { currency: Currency; amount: string; amountMinor: number; count: number }[] {
  const currencies = [...new Set([...Object.keys(amounts), ...Object.keys(counts)])].sort() as Currency[];
  return currencies.map((currency) => ({
    currency,
    amount: toDecimalString(amounts[currency] ?? 0, currency),
    amountMinor: amounts[currency] ?? 0,
    count: counts[currency] ?? 0,
  }));
}

/* ---------- throughput ---------- */

/** A real series per rail: finished attempts per point, the last point holding `now`. */
export async function railThroughput(ctx: CoreContext, range: ThroughputRange, now: Date): Promise<Throughput> {
  const { level, bucketSeconds, points } = THROUGHPUT_RANGES[range];
  const size = bucketSeconds * 1000;
  const firstStart = Math.floor(now.getTime() / size) * size - (points - 1) * size;
  const [rails, rows] = await Promise.all([
    listRails(ctx),
    readStatBuckets(ctx, level, bucketOf(level, new Date(firstStart)), bucketOf(level, now)),
  ]);
  const series = rails.map((rail) => ({
    railId: rail.id,
    rail: rail.name,
    points: Array.from(
      { length: points },
      (_, index): ThroughputPoint => ({
        at: new Date(firstStart + index * size).toISOString(),
        transactions: 0,
        succeeded: 0,
        failed: 0,
      }),
    ),
  }));
  const byRail = new Map(series.map((entry) => [entry.railId, entry]));
  for (const row of rows) {
    const index = Math.floor((bucketStart(level, row.bucket).getTime() - firstStart) / size);
    const point = byRail.get(row.railId)?.points[index];
    if (!point) continue;
    point.transactions += row.counters.attempts;
    point.succeeded += row.counters.succeeded;
    point.failed += row.counters.failed;
  }
  return {
    range,
    bucketSeconds,
    from: new Date(firstStart).toISOString(),
    to: new Date(firstStart + points * size).toISOString(),
    series,
  };
}

/* ---------- metrics ---------- */

const dayRows = (ctx: CoreContext, now: Date, days: number) =>
  readStatBuckets(
    ctx,
    "D",
    bucketOf("D", new Date(now.getTime() - (days - 1) * LEVEL_SECONDS.D * 1000)),
    bucketOf("D", now),
  );

/** Savings per day and currency from day counters (first decisions only), newest day first. */
function savingsByDay(rows: readonly StatBucket[]): SavingsDay[] {
  const days = new Map<string, RailCounters>();
  for (const row of rows) days.set(row.bucket, addCounters(days.get(row.bucket) ?? emptyCounters(), row.counters));
  return [...days]
    .sort(([a], [b]) => (a < b ? 1 : -1))
    .flatMap(([day, counters]) =>
      currencyRows(counters.savingMinor, counters.decisionsByCurrency).map((row) => ({
        day,
        currency: row.currency,
        saving: row.amount,
        savingMinor: row.amountMinor,
        decisions: row.count,
      })),
    );
}

/**
 * Live figures of one rail: from real attempts when there are any in the window, else null (keep
 * the sample figures).
 */
function liveFigures(
  counters: RailCounters | undefined,
): Pick<Rail, "successRate" | "errorRate" | "avgProcessingTime" | "volume"> | null {
  if (!counters || counters.attempts === 0) return null;
  const successRate = round((counters.succeeded / counters.attempts) * 100, 1);
  return {
    successRate,
    errorRate: round(100 - successRate, 1),
    avgProcessingTime: averageSeconds(counters) ?? 0,
    volume: usdMajor(counters.volumeMinor),
  };
}

/**
 * The rails with their traffic figures from real attempts over the last METRICS_WINDOW_DAYS days
 * (metricsSource "payments"); a rail without any attempt in the window keeps its sample figures
 * (docs/product/payment-rails.md#sample-rails; metricsSource "sample"). Volume is of succeeded USD
 * payments in USD (no FX rates yet: other currencies are in the metrics' volumeByCurrency).
 */
export async function railsWithLiveFigures(ctx: CoreContext, rails: readonly Rail[], now: Date): Promise<Rail[]> {
  const totals = totalsByRail(await dayRows(ctx, now, METRICS_WINDOW_DAYS));
  return rails.map((rail) => {
    const live = liveFigures(totals.get(rail.id));
    return live ? { ...rail, ...live, metricsSource: "payments" as const } : rail;
  });
}

export async function railMetrics(ctx: CoreContext, now: Date): Promise<RailMetrics> {
  const [rails, rows] = await Promise.all([listRails(ctx), dayRows(ctx, now, METRICS_WINDOW_DAYS)]);
  const totals = totalsByRail(rows);
  const all = emptyCounters();
  for (const counters of totals.values()) addCounters(all, counters);
  const today = bucketOf("D", now);
  const todays = emptyCounters();
  for (const row of rows) if (row.bucket === today) addCounters(todays, row.counters);
  const active = rails.filter((rail) => rail.status === "active").length;
  return {
    windowDays: METRICS_WINDOW_DAYS,
    from: bucketStart(
      "D",
      bucketOf("D", new Date(now.getTime() - (METRICS_WINDOW_DAYS - 1) * LEVEL_SECONDS.D * 1000)),
    ).toISOString(),
    to: now.toISOString(),
    totalVolume: usdMajor(all.volumeMinor),
    volumeByCurrency: currencyRows(all.volumeMinor, all.succeededByCurrency).map((row) => ({
      currency: row.currency,
      volume: row.amount,
      volumeMinor: row.amountMinor,
      transactions: row.count,
    })),
    totalTransactions: all.attempts,
    succeededTransactions: all.succeeded,
    failedTransactions: all.failed,
    successRate: percentOf(all.succeeded, all.attempts),
    firstAttemptSuccessRate: percentOf(all.firstSucceeded, all.firstAttempts),
    avgProcessingTime: averageSeconds(all),
    activeRails: active,
    totalRails: rails.length,
    disabledRails: rails.length - active,
    // Decisions record no negative saving; older counters may hold some, so the tiles never read below 0.
    costSavings: Math.max(0, usdMajor(all.savingMinor)),
    dailySavings: Math.max(0, usdMajor(todays.savingMinor)),
    savingsByCurrency: currencyRows(all.savingMinor, all.decisionsByCurrency).map((row) => ({
      currency: row.currency,
      saving: row.amount,
      savingMinor: row.amountMinor,
      decisions: row.count,
    })),
    savingsByDay: savingsByDay(
      rows.filter((row) => row.bucket > bucketOf("D", new Date(now.getTime() - SAVINGS_DAYS * LEVEL_SECONDS.D * 1000))),
    ),
    monthlyThroughput: all.attempts,
    decisions: all.decisions,
    explorationShare: percentOf(all.explored, all.decisions),
    perRail: rails.map((rail) => {
      const counters = totals.get(rail.id) ?? emptyCounters();
      return {
        railId: rail.id,
        rail: rail.name,
        status: rail.status,
        transactions: counters.attempts,
        succeeded: counters.succeeded,
        failed: counters.failed,
        successRate: percentOf(counters.succeeded, counters.attempts),
        avgProcessingTime: averageSeconds(counters),
        volumeByCurrency: currencyRows(counters.volumeMinor, counters.succeededByCurrency).map((row) => ({
          currency: row.currency,
          volume: row.amount,
          volumeMinor: row.amountMinor,
          transactions: row.count,
        })),
        decisions: counters.decisions,
        savingsByCurrency: currencyRows(counters.savingMinor, counters.decisionsByCurrency).map((row) => ({
          currency: row.currency,
          saving: row.amount,
          savingMinor: row.amountMinor,
          decisions: row.count,
        })),
      };
    }),
  };
}

/* ---------- decisions ---------- */

/** Savings per day of the listed decisions (a user's own; first decisions only, as the counters). */
function savingsOfListed(decisions: readonly StoredDecision[]): SavingsDay[] {
  const byKey = new Map<string, SavingsDay>();
  for (const entry of decisions) {
    if (entry.attemptNumber !== 1) continue;
    const day = entry.at.slice(0, 10);
    const { currency, savingMinor } = entry.decision;
    const key = `${day}#${currency}`;
    const row = byKey.get(key) ?? { day, currency, saving: "", savingMinor: 0, decisions: 0 };
    row.savingMinor += savingMinor;
    row.decisions += 1;
    row.saving = toDecimalString(row.savingMinor, currency);
    byKey.set(key, row);
  }
  return [...byKey.values()].sort((a, b) =>
    a.day < b.day ? 1 : a.day > b.day ? -1 : a.currency < b.currency ? -1 : 1,
  );
}

/**
 * The newest routing decisions: an admin sees everyone's, with the platform's savings per day
 * (day counters, last SAVINGS_DAYS days); a user sees only their own (their index partition),
 * with the savings per day of the decisions listed.
 */
export async function listDecisions(
  ctx: CoreContext,
  viewer: { userId: string; admin: boolean },
  limit: number,
  now: Date,
): Promise<DecisionList> {
  if (!viewer.admin) {
    const decisions = await userDecisions(ctx, viewer.userId, limit);
    return { scope: "own", decisions, savingsByDay: savingsOfListed(decisions) };
  }
  const [decisions, rows] = await Promise.all([recentDecisions(ctx, now, limit), dayRows(ctx, now, SAVINGS_DAYS)]);
  return { scope: "all", decisions, savingsByDay: savingsByDay(rows) };
}
