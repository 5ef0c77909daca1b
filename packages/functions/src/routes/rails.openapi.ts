import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { toDecimalString } from "@fintech/core/money/model";
import { METRICS_WINDOW_DAYS, THROUGHPUT_RANGES } from "@fintech/core/rails/metrics";
import {
  DecisionList,
  DecisionsQuery,
  MetricsQuery,
  RailMetrics,
  Throughput,
  ThroughputQuery,
} from "@fintech/core/rails/metrics-model";
import { QuoteInput } from "@fintech/core/rails/quote-input";
import { quoteRails, quoteSavings } from "@fintech/core/rails/quotes";
import { QUOTE_CURRENCIES, Rail, RailChange, RAIL_ID_PATTERN } from "@fintech/core/rails/model";
import { RailEditInput } from "@fintech/core/rails/edit-form";
import { REFERENCE_RATES_AS_OF } from "@fintech/core/rails/reference-rates";
import {
  ELIMINATION_MIN_ATTEMPTS,
  ELIMINATION_THRESHOLD,
  EXPLORATION_SHARE,
  PRIOR_WEIGHT,
  PROBE_SHARE,
  ROUTING_WINDOW_MINUTES,
} from "@fintech/core/rails/ranking";
import { SEED_RAILS } from "@fintech/core/rails/seed-rails";
import { authenticated, errors, jsonBody, jsonReply, pathParameter, queryParameters, TAGS } from "../http/openapi";

/**
 * The OpenAPI declarations of the rails routes (rails.ts): what the document says of each route
 * (path, parameters, replies, examples). The handlers are there, registered in the order the
 * document lists them.
 */

const tags = [TAGS.accounts] as [typeof TAGS.accounts];
const ADMIN_ONLY = "Administrators only (a user is answered 403 `admin_required`).";

/* ---------- replies ---------- */

const RailsReply = z.object({ data: z.array(Rail) });
const RailDetailReply = z.object({
  data: Rail.extend({ history: z.array(RailChange).describe("The last 20 admin changes, newest first") }),
});
const RailMessageReply = z.object({ message: z.string(), data: Rail });
const RailCostResultSchema = z.object({
  railId: z.string(),
  name: z.string(),
  totalCost: z.string().describe("Decimal string in the quote's currency"),
  totalCostMinor: z.number().int(),
  breakdown: z.object({ fixedFee: z.string(), fxSpread: z.string(), networkFee: z.string() }),
  breakdownMinor: z.object({ fixedFee: z.number().int(), fxSpread: z.number().int(), networkFee: z.number().int() }),
  fixedFeeOriginal: z
    .object({ amount: z.string(), currency: z.enum(QUOTE_CURRENCIES), rate: z.string().nullable() })
    .describe(
      "The fixed fee in the rail's own currency and the reference rate it was converted at (null: not converted)",
    ),
  isOptimal: z
    .boolean()
    .describe("The Best Option: the cheapest ELIGIBLE active rail (ties: faster, then higher success rate, then id)"),
  eligible: z.boolean(),
  ineligibleReason: z.string().nullable().describe("Why the rail cannot carry this payment; null when it can"),
  settlementSeconds: z.number().int(),
  estimatedTime: z.number().describe("The rail's average processing time, seconds"),
  costPercent: z.number().describe("Total cost as a percentage of the amount, 3 decimals"),
  costBand: z.enum(["green", "yellow", "red"]).describe("green under 1 %, yellow under 2 %, red otherwise"),
});
const QuoteReply = z.object({
  data: z.object({
    amount: z.string(),
    amountMinor: z.number().int(),
    currency: z.enum(QUOTE_CURRENCIES),
    payoutCurrency: z.enum(QUOTE_CURRENCIES),
    country: z.string(),
    results: z
      .array(RailCostResultSchema)
      .describe("One per ACTIVE rail, in console order; empty when the amount is 0"),
    optimalRailId: z.string().nullable(),
    savings: z
      .object({
        baselineRailId: z.string(),
        baselineName: z.string(),
        optimalRailId: z.string(),
        saving: z.string(),
        savingMinor: z.number().int().min(0),
      })
      .nullable()
      .describe(
        "The Best Option against the baseline (the first eligible rail in console order): never negative; null when no rail is eligible",
      ),
    ratesAsOf: z.string().describe("The date of the reference rates fees were converted at"),
  }),
});

const ThroughputReply = z.object({ data: Throughput });
const MetricsReply = z.object({ data: RailMetrics });
const DecisionsReply = z.object({ data: DecisionList });

/* ---------- examples ---------- */

const exampleRail = {
  ...SEED_RAILS[0]!,
  lastPing: null,
  version: 1,
  updated_at: "2026-01-15T09:30:00.000Z",
  updated_by: "system (sample rails)",
  lastChange: null,
};
const exampleChange = {
  version: 2,
  action: "update" as const,
  at: "2026-01-15T10:00:00.000Z",
  by: "admin@example.com",
  before: { fxSpread: 0.01 },
  after: { fxSpread: 0.008 },
};
/** The quote's reply: results, the Best Option and the savings against the baseline. */
export function quoteReply(rails: Parameters<typeof quoteRails>[0], input: QuoteInput) {
  const results = quoteRails(rails, input.amountMinor, input.currency, {
    payoutCurrency: input.payoutCurrency,
    country: input.country,
  });
  const savings = quoteSavings(results);
  return {
    amount: toDecimalString(input.amountMinor, input.currency),
    amountMinor: input.amountMinor,
    currency: input.currency,
    payoutCurrency: input.payoutCurrency,
    country: input.country,
    results,
    optimalRailId: results.find((result) => result.isOptimal)?.railId ?? null,
    savings: savings ? { ...savings, saving: toDecimalString(savings.savingMinor, input.currency) } : null,
    ratesAsOf: REFERENCE_RATES_AS_OF,
  };
}
const exampleQuote = quoteReply(
  SEED_RAILS.map((rail) => ({ ...rail })),
  { amountMinor: 100_000, currency: "EUR", payoutCurrency: "EUR", country: "DE" },
);

const exampleThroughput = {
  range: "1h" as const,
  bucketSeconds: 60,
  from: "2026-01-15T09:01:00.000Z",
  to: "2026-01-15T10:01:00.000Z",
  series: [
    {
      railId: "card",
      rail: "Card",
      points: [{ at: "2026-01-15T10:00:00.000Z", transactions: 12, succeeded: 11, failed: 1 }],
    },
  ],
};
const exampleMetrics = {
  windowDays: METRICS_WINDOW_DAYS,
  from: "2025-12-17T00:00:00.000Z",
  to: "2026-01-15T10:00:00.000Z",
  totalVolume: 12_500.5,
  volumeByCurrency: [{ currency: "USD" as const, volume: "12500.50", volumeMinor: 1_250_050, transactions: 40 }],
  totalTransactions: 42,
  succeededTransactions: 40,
  failedTransactions: 2,
  successRate: 95.2,
  firstAttemptSuccessRate: 95,
  avgProcessingTime: 0.42,
  activeRails: 6,
  totalRails: 6,
  disabledRails: 0,
  costSavings: 1.2,
  dailySavings: 0.3,
  savingsByCurrency: [{ currency: "USD" as const, saving: "1.20", savingMinor: 120, decisions: 40 }],
  savingsByDay: [{ day: "2026-01-15", currency: "USD" as const, saving: "0.30", savingMinor: 30, decisions: 6 }],
  monthlyThroughput: 42,
  decisions: 40,
  explorationShare: 10,
  perRail: [
    {
      railId: "card",
      rail: "Card",
      status: "active" as const,
      transactions: 30,
      succeeded: 29,
      failed: 1,
      successRate: 96.7,
      avgProcessingTime: 0.11,
      volumeByCurrency: [],
      decisions: 30,
      savingsByCurrency: [],
    },
  ],
};
const exampleDecision = {
  strategy: "expected_value" as const,
  chosenRailId: "card",
  chosenRail: "Card",
  defaultRailId: "ach",
  defaultRail: "ACH",
  currency: "USD" as const,
  amountMinor: 100_000,
  savingMinor: 0,
  saving: "0.00",
  reason: "Card has the highest expected value: 99.8 % success estimate × (amount − cost 1.10 USD).",
  decidedAt: "2026-01-15T10:00:00.000Z",
  candidates: [
    {
      railId: "ach",
      rail: "ACH",
      status: "active",
      costMinor: 105,
      cost: "1.05",
      successRate: 0.985,
      attemptsInWindow: 0,
      avgProcessingTime: 1.2,
      slaTarget: 99.9,
      score: 98384.58,
      eliminated: false,
      note: "Lower expected value than Card",
    },
    {
      railId: "card",
      rail: "Card",
      status: "active",
      costMinor: 110,
      cost: "1.10",
      successRate: 0.998,
      attemptsInWindow: 0,
      avgProcessingTime: 0.1,
      slaTarget: 99.9,
      score: 99689.22,
      eliminated: false,
      note: "Chosen (expected value)",
    },
    {
      railId: "sepa",
      rail: "SEPA",
      status: "active",
      costMinor: 102,
      cost: "1.02",
      successRate: 0.988,
      attemptsInWindow: 0,
      avgProcessingTime: 1,
      slaTarget: 99.9,
      score: 98689.22,
      eliminated: false,
      note: "Not eligible: SEPA carries EUR only",
    },
  ],
  destinationCountry: "US",
  excluded: [{ railId: "sepa", rail: "SEPA", reason: "SEPA carries EUR only" }],
};

const idParameter = pathParameter(
  "id",
  `The rail id (${RAIL_ID_PATTERN.source}), e.g. ach, wire, card, swift, sepa, crypto`,
  "ach",
);
const railErrors = { 400: ["invalid_rail_id"], 401: true, 404: ["rail_not_found"], 503: true } as const;

const ROUTING_SUMMARY = `Routing ranks active rails by expected value: success estimate over the last ${ROUTING_WINDOW_MINUTES} minutes of real attempts (a Beta prior of weight ${PRIOR_WEIGHT} from the rail's configured success rate) × (amount − cost), minus a small time penalty; forceRail and preferredRail (by name) come first; rails below ${ELIMINATION_THRESHOLD * 100} % with at least ${ELIMINATION_MIN_ATTEMPTS} attempts are out of rotation; ${EXPLORATION_SHARE * 100} % of payments explore another rail and ${PROBE_SHARE * 100} % probe an eliminated one (decided from the payment id).`;

export const metricsRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "get",
  path: "/metrics",
  operationId: "railMetrics",
  summary: "Rail metrics from real payments",
  description: `Rail metrics (docs/product/payment-rails.md#data) computed from real payment attempts over the last ${METRICS_WINDOW_DAYS} days (UTC days): volume (USD figure plus every currency), transactions, success rates (per attempt and first attempts), average time, rails active/disabled, routing savings against the default rail (in total, today, per day and per currency), and the same per rail. Takes no query parameters (any is a 400). Any signed-in user.`,
  "x-complexity": "medium",
  parameters: queryParameters(MetricsQuery),
  responses: {
    200: jsonReply("The metrics", "RailMetricsReply", MetricsReply, { data: exampleMetrics }),
    ...errors({ 400: ["validation_error"], 401: true, 503: true }),
  },
});

export const throughputRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "get",
  path: "/throughput",
  operationId: "railThroughput",
  summary: "Finished payment attempts per rail over time",
  description: `A real series per rail (console order) with every point present: ${Object.entries(THROUGHPUT_RANGES)
    .map(
      ([range, spec]) =>
        `${range}: ${spec.points} points of ${spec.bucketSeconds >= 3_600 ? `${spec.bucketSeconds / 3_600} h` : `${spec.bucketSeconds / 60} min`}`,
    )
    .join(
      "; ",
    )}. The last point holds the time of the request. A range outside 1h, 24h, 7d, 30d is a 400. Any signed-in user.`,
  "x-complexity": "medium",
  parameters: queryParameters(ThroughputQuery),
  responses: {
    200: jsonReply("The series", "RailThroughputReply", ThroughputReply, { data: exampleThroughput }),
    ...errors({ 400: ["validation_error"], 401: true, 503: true }),
  },
});

export const decisionsRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "get",
  path: "/decisions",
  operationId: "railRoutingDecisions",
  summary: "Recent smart-routing decisions",
  description: `The newest routing decisions, each with its candidates (cost, success estimate, score, why eliminated or not chosen), the reason for the rail and the saving against the default rail (the first active rail in console order), plus savings per day. An administrator sees every payer's decisions; a user only those of their own payments. ${ROUTING_SUMMARY}`,
  "x-complexity": "medium",
  parameters: queryParameters(DecisionsQuery),
  responses: {
    200: jsonReply("The decisions", "RailDecisionsReply", DecisionsReply, {
      data: {
        scope: "own",
        decisions: [
          {
            paymentId: "pay_01HZX3",
            userId: "usr_01HZX1",
            attemptNumber: 1,
            at: "2026-01-15T10:00:00.000Z",
            decision: exampleDecision,
          },
        ],
        savingsByDay: [{ day: "2026-01-15", currency: "USD", saving: "0.00", savingMinor: 0, decisions: 1 }],
      },
    }),
    ...errors({ 400: ["validation_error"], 401: true, 503: true }),
  },
});

export const listRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "get",
  path: "/",
  operationId: "listRails",
  summary: "The payment rails",
  description: `Every rail with the fields of docs/product/payment-rails.md#data (fixed fee and cost in USD as decimal strings and cents; FX spread and error injection as fractions; success/error rate and SLA in percent; average time in seconds), its version and who changed it last. The six sample rails of docs/product/payment-rails.md#sample-rails and UPI are seeded on first use. Volume, success and error rate and average time are computed from real payment attempts of the last ${METRICS_WINDOW_DAYS} days when the rail has any (\`metricsSource: payments\`; volume = succeeded USD payments, in USD); a rail without any keeps its sample figures (\`metricsSource: sample\`).`,
  "x-complexity": "low",
  responses: {
    200: jsonReply("The rails", "RailsReply", RailsReply, { data: [exampleRail] }),
    ...errors({ 401: true, 503: true }),
  },
});

export const getRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "get",
  path: "/{id}",
  operationId: "getRail",
  summary: "One payment rail with its change history",
  description: "The rail and its last 20 admin changes (who, when, the fields before and after).",
  "x-complexity": "low",
  parameters: [idParameter],
  responses: {
    200: jsonReply("The rail", "RailDetailReply", RailDetailReply, {
      data: { ...exampleRail, history: [exampleChange] },
    }),
    ...errors(railErrors),
  },
});

export const updateRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "put",
  path: "/{id}",
  operationId: "updateRail",
  summary: "Edit a rail",
  description: `The rail edit form of docs/product/payment-rails.md#validation: name (unique), type (${["ACH", "Wire", "Card", "Crypto", "SWIFT", "SEPA", "UPI"].join(", ")}), status (active, maintenance, down), fixed fee in the rail's fee currency (step 0.01), and optionally what the rail carries: \`feeCurrency\`, \`currencies\`, \`countries\` (ISO codes and the regions SEPA, WORLDWIDE), \`minAmount\` / \`maxAmount\` (in the fee currency; null: no maximum) and \`settlementSeconds\` (each left as it is when absent); FX spread in PERCENT (step 0.001; stored as a fraction, ÷100), SLA target 0-100 % (step 0.1), optional error injection rate 0-100 % (step 0.1; stored as a fraction; for testing and demo only). With \`version\`, a rail changed since that version is not overwritten (409 \`rail_changed\`). A bad field is a 400 naming it and nothing changes. ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  parameters: [idParameter],
  request: {
    body: jsonBody("RailEditInput", RailEditInput, {
      name: "SEPA",
      type: "SEPA",
      status: "active",
      fixedFee: "0.02",
      fxSpreadPercent: 0.8,
      slaTarget: 99.9,
      errorInjectionPercent: 0,
      version: 1,
    }),
  },
  responses: {
    200: jsonReply("The rail as saved", "RailUpdateReply", RailMessageReply, {
      message: "Rail SEPA saved",
      data: { ...exampleRail, version: 2, lastChange: exampleChange },
    }),
    ...errors({
      400: ["validation_error", "invalid_json", "invalid_rail_id"],
      401: true,
      403: ["admin_required"],
      404: ["rail_not_found"],
      409: ["rail_changed", "rail_name_taken"],
      503: true,
    }),
  },
});

export const startRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "post",
  path: "/{id}/start",
  operationId: "startRail",
  summary: "Start a rail (status active)",
  description: `Sets the rail's status to active (from maintenance or down), recording who and when; an active rail is left as it is. Only active rails are quoted (and, later, routed to). ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  parameters: [idParameter],
  responses: {
    200: jsonReply("The rail", "RailStartReply", RailMessageReply, { message: "Rail ACH started", data: exampleRail }),
    ...errors({ ...railErrors, 403: ["admin_required"], 409: ["rail_changed"] }),
  },
});

export const stopRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "post",
  path: "/{id}/stop",
  operationId: "stopRail",
  summary: "Stop a rail (status down)",
  description: `Sets the rail's status to down, recording who and when; a stopped rail is no longer quoted. A rail already down is left as it is. ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  parameters: [idParameter],
  responses: {
    200: jsonReply("The rail", "RailStopReply", RailMessageReply, {
      message: "Rail ACH stopped",
      data: { ...exampleRail, status: "down" },
    }),
    ...errors({ ...railErrors, 403: ["admin_required"], 409: ["rail_changed"] }),
  },
});

export const quoteRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "post",
  path: "/quote",
  operationId: "quoteRails",
  summary: "Cost of an amount over every active rail",
  description:
    "The cost simulator of docs/product/payment-rails.md#cost-simulator, run on the server with the same function the console uses: per ACTIVE rail, total = fixed fee (stated in the rail's fee currency, converted at the reference rate, which `fixedFeeOriginal.rate` states) + FX spread × amount (only when `payoutCurrency` differs from `currency`) + 0.1 % network fee, each part rounded half-up to the currency's minor unit (JPY: whole yen). Each rail says whether it can carry the payment (currency, destination `country`, amount limits) and why not; exactly one ELIGIBLE rail is the Best Option (`isOptimal`), and `savings` compares it with the first eligible rail (never negative). `amount` is a decimal string or number, 0 or more (0: no results); anything else is a 400. Writes nothing.",
  "x-complexity": "low",
  request: { body: jsonBody("RailQuoteInput", QuoteInput, { amount: "1000", currency: "EUR" }) },
  responses: {
    200: jsonReply("The cost per active rail", "RailQuoteReply", QuoteReply, { data: exampleQuote }),
    ...errors({ 400: ["validation_error", "invalid_json"], 401: true, 503: true }),
  },
});
