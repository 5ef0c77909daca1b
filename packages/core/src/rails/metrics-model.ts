import { z } from "zod";
import { Currency } from "../money/model";
import { RoutingDecision } from "../payments/model";
import { RAIL_STATUSES } from "./model";

/**
 * The shapes of the rail statistics API (GET /api/v1/rails/metrics, /throughput, /decisions) and
 * their query parameters: zod only, safe to import from the browser (the console reads the same
 * types the server writes).
 */

export const THROUGHPUT_RANGE_NAMES = ["1h", "24h", "7d", "30d"] as const;
export type ThroughputRange = (typeof THROUGHPUT_RANGE_NAMES)[number];
export const DEFAULT_THROUGHPUT_RANGE: ThroughputRange = "24h";
export const DECISIONS_LIMIT = { min: 1, max: 50, default: 10 } as const;

export const RAIL_STATS_MESSAGES = {
  range: `range must be one of ${THROUGHPUT_RANGE_NAMES.join(", ")}`,
  limit: `limit must be a whole number from ${DECISIONS_LIMIT.min} to ${DECISIONS_LIMIT.max}`,
} as const;

/** A query value from a fixed list; missing or empty means the default. */
export const ThroughputQuery = z.strictObject({
  range: z
    .string({ error: RAIL_STATS_MESSAGES.range })
    .optional()
    .describe("1h (1-minute points), 24h (1-hour points), 7d (3-hour points) or 30d (1-day points); default 24h")
    .transform((range, ctx): ThroughputRange => {
      if (!range) return DEFAULT_THROUGHPUT_RANGE;
      if ((THROUGHPUT_RANGE_NAMES as readonly string[]).includes(range)) return range as ThroughputRange;
      ctx.addIssue({ code: "custom", message: RAIL_STATS_MESSAGES.range });
      return z.NEVER;
    }),
});

/** A whole number 1..50; missing or empty means the default. */
export const DecisionsQuery = z.strictObject({
  limit: z
    .string({ error: RAIL_STATS_MESSAGES.limit })
    .optional()
    .describe(
      `How many decisions, ${DECISIONS_LIMIT.min} to ${DECISIONS_LIMIT.max} (default ${DECISIONS_LIMIT.default})`,
    )
    .transform((limit, ctx): number => {
      const value = limit ? (/^\d{1,2}$/.test(limit) ? Number(limit) : Number.NaN) : DECISIONS_LIMIT.default;
      if (!(value >= DECISIONS_LIMIT.min && value <= DECISIONS_LIMIT.max)) {
        ctx.addIssue({ code: "custom", message: RAIL_STATS_MESSAGES.limit });
        return z.NEVER;
      }
      return value;
    }),
});

/** The metrics route takes no parameters: anything given is a 400, not silently ignored. */
export const MetricsQuery = z.strictObject({});

/* ---------- replies ---------- */

export const ThroughputPoint = z.object({
  at: z.string().describe("Start of the point (ISO)"),
  transactions: z.number().int().describe("Finished attempts"),
  succeeded: z.number().int(),
  failed: z.number().int(),
});
export type ThroughputPoint = z.infer<typeof ThroughputPoint>;

export const Throughput = z.object({
  range: z.enum(THROUGHPUT_RANGE_NAMES),
  bucketSeconds: z.number().int().describe("Length of one point"),
  from: z.string().describe("Start of the first point"),
  to: z.string().describe("End of the last point (the last point holds the time of the request)"),
  series: z
    .array(z.object({ railId: z.string(), rail: z.string(), points: z.array(ThroughputPoint) }))
    .describe("One per rail, in console order; every point present (zeros included)"),
});
export type Throughput = z.infer<typeof Throughput>;

const VolumeRow = z.object({
  currency: Currency,
  volume: z.string(),
  volumeMinor: z.number().int(),
  transactions: z.number().int().describe("Succeeded attempts"),
});
const SavingRow = z.object({
  currency: Currency,
  saving: z.string().describe("Decimal string; negative when routing paid more than the default rail"),
  savingMinor: z.number().int(),
  decisions: z.number().int(),
});
export const SavingsDay = SavingRow.extend({ day: z.string().describe("UTC day, YYYY-MM-DD") });
export type SavingsDay = z.infer<typeof SavingsDay>;

const percentOrNull = z.number().nullable().describe("Percent, one decimal; null without attempts");

export const RailMetrics = z.object({
  windowDays: z.number().int(),
  from: z.string(),
  to: z.string(),
  totalVolume: z
    .number()
    .describe(
      "Succeeded USD volume in USD (major units); other currencies in volumeByCurrency (no FX rates to convert yet)",
    ),
  volumeByCurrency: z.array(VolumeRow),
  totalTransactions: z
    .number()
    .int()
    .describe("Finished attempts in the window (a retried payment counts both attempts)"),
  succeededTransactions: z.number().int(),
  failedTransactions: z.number().int(),
  successRate: percentOrNull.describe("Succeeded / finished attempts, percent"),
  firstAttemptSuccessRate: percentOrNull.describe("Of first attempts only, percent (FAAR)"),
  avgProcessingTime: z.number().nullable().describe("Seconds per finished attempt; null without attempts"),
  activeRails: z.number().int(),
  totalRails: z.number().int(),
  disabledRails: z.number().int().describe("Rails not active (maintenance or down)"),
  costSavings: z
    .number()
    .describe(
      "Routing savings against the default rail in the window, USD payments, USD; other currencies in savingsByCurrency",
    ),
  dailySavings: z.number().describe("The same for today (UTC), USD"),
  savingsByCurrency: z.array(SavingRow),
  savingsByDay: z.array(SavingsDay).describe("The last 7 days, newest first, per currency"),
  monthlyThroughput: z.number().int().describe("Finished attempts in the last 30 days"),
  decisions: z.number().int().describe("Routing decisions of first attempts in the window"),
  explorationShare: percentOrNull.describe("Share of those decisions that explored, percent"),
  perRail: z.array(
    z.object({
      railId: z.string(),
      rail: z.string(),
      status: z.enum(RAIL_STATUSES),
      transactions: z.number().int(),
      succeeded: z.number().int(),
      failed: z.number().int(),
      successRate: percentOrNull,
      avgProcessingTime: z.number().nullable(),
      volumeByCurrency: z.array(VolumeRow),
      decisions: z.number().int(),
      savingsByCurrency: z.array(SavingRow),
    }),
  ),
});
export type RailMetrics = z.infer<typeof RailMetrics>;

export const StoredDecision = z.object({
  paymentId: z.string(),
  userId: z.string().describe("The payer"),
  attemptNumber: z.number().int().describe("1: the payment's decision; 2: its retry's"),
  at: z.string(),
  decision: RoutingDecision,
});
export type StoredDecision = z.infer<typeof StoredDecision>;

export const DecisionList = z.object({
  scope: z.enum(["all", "own"]).describe("all: an administrator sees every payer's decisions; own: a user sees theirs"),
  decisions: z.array(StoredDecision).describe("Newest first"),
  savingsByDay: z
    .array(SavingsDay)
    .describe(
      "Per day and currency, newest first: the platform's last 7 days for an administrator, the listed decisions' for a user (first attempts only)",
    ),
});
export type DecisionList = z.infer<typeof DecisionList>;
