import { toDecimalString, type Currency } from "../money/model";
import type { Rail } from "./model";

/**
 * THE SEEDED RAILS: the six rails of docs/product/payment-rails.md#sample-rails and UPI, seeded
 * into the table on the first read (store.ts) and from then on edited through the rails API, never
 * by a deploy. A rail added here later is added to a deployment that was seeded before (store.ts),
 * and a stored rail that lacks a field added later takes it from here (upgradeStoredRail).
 *
 * From the table of docs/product/payment-rails.md#sample-rails: cost per transaction (USD), fixed
 * fee, FX spread (a FRACTION: 0.01 = 1 %), success rate (%), average time (s), volume (USD), SLA
 * target 99.9 for all. Error rate is 100 - success rate. `metricsSource: "sample"` marks volume,
 * success/error rate and average time as these sample figures until real payments replace them.
 * Descriptions, features and icons are ours, as is what each rail carries (the schemes' published
 * rules, rounded):
 * - ACH: USD within the US, up to 1,000,000 per payment (Nacha's same-day limit), next business day;
 * - Wire: USD within the US (Fedwire), from 1.00, no maximum, within 4 hours;
 * - Card: push-to-card payouts in USD, EUR, GBP and JPY worldwide, up to 10,000 USD, within 30 minutes;
 * - SWIFT: every currency worldwide, from 1.00 USD, no maximum, within 2 business days;
 * - SEPA: EUR within the SEPA countries (regions.ts), fee in EUR, next business day;
 * - Crypto: USD and EUR stablecoins worldwide, up to 100,000 USD, within 10 minutes;
 * - UPI: INR within India, fee in INR, up to 1,00,000 INR (NPCI's per-payment limit), in seconds.
 */
export type SeedRail = Omit<Rail, "version" | "updated_at" | "updated_by" | "lastChange" | "lastPing">;

type SeedRow = Omit<
  SeedRail,
  "slaTarget" | "errorRate" | "errorInjection" | "metricsSource" | "status" | "fixedFee" | "minAmount" | "maxAmount"
> & { status?: SeedRail["status"] };

const rail = (row: SeedRow): SeedRail => ({
  status: "active",
  ...row,
  fixedFee: toDecimalString(row.fixedFeeMinor, row.feeCurrency),
  minAmount: toDecimalString(row.minAmountMinor, row.feeCurrency),
  maxAmount: row.maxAmountMinor === null ? null : toDecimalString(row.maxAmountMinor, row.feeCurrency),
  slaTarget: 99.9,
  errorRate: Math.round((100 - row.successRate) * 10) / 10,
  errorInjection: 0,
  metricsSource: "sample",
});

const ALL: Currency[] = ["USD", "EUR", "GBP", "JPY", "INR"];
const DAY = 86_400;

export const SEED_RAILS: readonly SeedRail[] = [
  rail({
    id: "ach",
    name: "ACH",
    type: "ACH",
    volume: 2_500_000,
    successRate: 98.5,
    avgProcessingTime: 1.2,
    cost: "0.25",
    costMinor: 25,
    fixedFeeMinor: 5,
    fxSpread: 0.01,
    description: "US Automated Clearing House: low-cost batch bank transfers.",
    features: ["Low cost", "Batch processing", "US domestic"],
    icon: "🏦",
    currencies: ["USD"],
    countries: ["US"],
    feeCurrency: "USD",
    minAmountMinor: 1,
    maxAmountMinor: 100_000_000,
    settlementSeconds: DAY,
  }),
  rail({
    id: "wire",
    name: "Wire",
    type: "Wire",
    volume: 1_500_000,
    successRate: 99.2,
    avgProcessingTime: 0.5,
    cost: "15.00",
    costMinor: 1500,
    fixedFeeMinor: 100,
    fxSpread: 0.02,
    description: "Domestic wire transfer: same-day, final once sent.",
    features: ["Same day", "Final settlement", "High value"],
    icon: "⚡",
    currencies: ["USD"],
    countries: ["US"],
    feeCurrency: "USD",
    minAmountMinor: 100,
    maxAmountMinor: null,
    settlementSeconds: 4 * 3_600,
  }),
  rail({
    id: "card",
    name: "Card",
    type: "Card",
    volume: 5_000_000,
    successRate: 99.8,
    avgProcessingTime: 0.1,
    cost: "2.50",
    costMinor: 250,
    fixedFeeMinor: 10,
    fxSpread: 0.005,
    description: "Card network payments: authorised in seconds.",
    features: ["Instant authorisation", "Global acceptance", "Chargebacks"],
    icon: "💳",
    currencies: ["USD", "EUR", "GBP", "JPY"],
    countries: ["WORLDWIDE"],
    feeCurrency: "USD",
    minAmountMinor: 1,
    maxAmountMinor: 1_000_000,
    settlementSeconds: 1_800,
  }),
  rail({
    id: "swift",
    name: "SWIFT",
    type: "SWIFT",
    volume: 800_000,
    successRate: 99,
    avgProcessingTime: 2,
    cost: "25.00",
    costMinor: 2500,
    fixedFeeMinor: 500,
    fxSpread: 0.03,
    description: "International transfers through correspondent banks.",
    features: ["International", "Multi-currency", "Correspondent banking"],
    icon: "🌐",
    currencies: ALL,
    countries: ["WORLDWIDE"],
    feeCurrency: "USD",
    minAmountMinor: 100,
    maxAmountMinor: null,
    settlementSeconds: 2 * DAY,
  }),
  rail({
    id: "sepa",
    name: "SEPA",
    type: "SEPA",
    volume: 600_000,
    successRate: 98.8,
    avgProcessingTime: 1,
    cost: "0.50",
    costMinor: 50,
    fixedFeeMinor: 2,
    fxSpread: 0.008,
    description: "Single Euro Payments Area credit transfers.",
    features: ["Euro zone", "Low cost", "Instant option"],
    icon: "🇪🇺",
    currencies: ["EUR"],
    countries: ["SEPA"],
    feeCurrency: "EUR",
    minAmountMinor: 1,
    maxAmountMinor: null,
    settlementSeconds: DAY,
  }),
  rail({
    id: "crypto",
    name: "Crypto",
    type: "Crypto",
    volume: 300_000,
    successRate: 95.5,
    avgProcessingTime: 0.3,
    cost: "1.00",
    costMinor: 100,
    fixedFeeMinor: 20,
    fxSpread: 0.05,
    description: "Stablecoin transfers on public networks: irreversible.",
    features: ["24/7", "Borderless", "Irreversible"],
    icon: "₿",
    currencies: ["USD", "EUR"],
    countries: ["WORLDWIDE"],
    feeCurrency: "USD",
    minAmountMinor: 1,
    maxAmountMinor: 10_000_000,
    settlementSeconds: 600,
  }),
  rail({
    id: "upi",
    name: "UPI",
    type: "UPI",
    volume: 400_000,
    successRate: 98.2,
    avgProcessingTime: 0.4,
    cost: "0.01",
    costMinor: 1,
    fixedFeeMinor: 0,
    fxSpread: 0.01,
    description: "India's Unified Payments Interface: real-time bank transfers in rupees.",
    features: ["Real time", "24/7", "India domestic"],
    icon: "🇮🇳",
    currencies: ["INR"],
    countries: ["IN"],
    feeCurrency: "INR",
    minAmountMinor: 100,
    maxAmountMinor: 10_000_000,
    settlementSeconds: 30,
  }),
];

/** Who the seed is recorded as. */
export const SEED_ACTOR = "system (sample rails)";

/**
 * A rail's carriage fields for a stored rail that predates them: its seeded row's, else the widest
 * that its type allows.
 */
const CARRIAGE_FIELDS = [
  "currencies",
  "countries",
  "feeCurrency",
  "minAmount",
  "minAmountMinor",
  "maxAmount",
  "maxAmountMinor",
  "settlementSeconds",
] as const;
const FALLBACK_CARRIAGE = {
  currencies: ALL,
  countries: ["WORLDWIDE"],
  feeCurrency: "USD",
  minAmount: "0.01",
  minAmountMinor: 1,
  maxAmount: null,
  maxAmountMinor: null,
  settlementSeconds: 2 * DAY,
} as const;

/**
 * A stored rail item as the current schema reads it: fields added since it was written are taken
 * from its seeded row (by id; a rail not seeded takes FALLBACK_CARRIAGE), so an older deployment
 * keeps working until an administrator edits the rail. Stored values always win.
 */
export function upgradeStoredRail(item: Record<string, unknown>): Record<string, unknown> {
  if (CARRIAGE_FIELDS.every((field) => field in item)) return item;
  const seeded = SEED_RAILS.find((row) => row.id === item.id);
  const defaults: Record<string, unknown> = {};
  for (const field of CARRIAGE_FIELDS) defaults[field] = seeded ? seeded[field] : FALLBACK_CARRIAGE[field];
  return { ...defaults, ...item };
}
