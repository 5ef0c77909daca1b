import type { Rail } from "./model";

/**
 * THE SPEC'S SAMPLE DATA: the six rails of spec 001 §9 "Rails console", seeded into the table on
 * the first read (store.ts) and from then on edited through the rails API, never by a deploy.
 *
 * From the spec's table: cost per transaction, fixed fee (USD), FX spread (a FRACTION: 0.01 =
 * 1 %), success rate (%), average time (s), volume (USD), SLA target 99.9 for all. Error rate is
 * 100 - success rate. `metricsSource: "sample"` marks volume, success/error rate and average time
 * as these sample figures until the payments slice computes them from real payments. Descriptions,
 * features and icons are ours (the spec does not give them). UPI is a rail type, not seeded.
 */
export type SeedRail = Omit<Rail, "version" | "updated_at" | "updated_by" | "lastChange" | "lastPing">;

const rail = (row: Omit<SeedRail, "slaTarget" | "errorRate" | "errorInjection" | "metricsSource" | "status"> & { status?: SeedRail["status"] }): SeedRail => ({
  status: "active",
  ...row,
  slaTarget: 99.9,
  errorRate: Math.round((100 - row.successRate) * 10) / 10,
  errorInjection: 0,
  metricsSource: "sample",
});

export const SEED_RAILS: readonly SeedRail[] = [
  rail({ id: "ach", name: "ACH", type: "ACH", volume: 2_500_000, successRate: 98.5, avgProcessingTime: 1.2, cost: "0.25", costMinor: 25, fixedFee: "0.05", fixedFeeMinor: 5, fxSpread: 0.01, description: "US Automated Clearing House: low-cost batch bank transfers.", features: ["Low cost", "Batch processing", "US domestic"], icon: "🏦" }),
  rail({ id: "wire", name: "Wire", type: "Wire", volume: 1_500_000, successRate: 99.2, avgProcessingTime: 0.5, cost: "15.00", costMinor: 1500, fixedFee: "1.00", fixedFeeMinor: 100, fxSpread: 0.02, description: "Domestic wire transfer: same-day, final once sent.", features: ["Same day", "Final settlement", "High value"], icon: "⚡" }),
  rail({ id: "card", name: "Card", type: "Card", volume: 5_000_000, successRate: 99.8, avgProcessingTime: 0.1, cost: "2.50", costMinor: 250, fixedFee: "0.10", fixedFeeMinor: 10, fxSpread: 0.005, description: "Card network payments: authorised in seconds.", features: ["Instant authorisation", "Global acceptance", "Chargebacks"], icon: "💳" }),
  rail({ id: "swift", name: "SWIFT", type: "SWIFT", volume: 800_000, successRate: 99, avgProcessingTime: 2, cost: "25.00", costMinor: 2500, fixedFee: "5.00", fixedFeeMinor: 500, fxSpread: 0.03, description: "International transfers through correspondent banks.", features: ["International", "Multi-currency", "Correspondent banking"], icon: "🌐" }),
  rail({ id: "sepa", name: "SEPA", type: "SEPA", volume: 600_000, successRate: 98.8, avgProcessingTime: 1, cost: "0.50", costMinor: 50, fixedFee: "0.02", fixedFeeMinor: 2, fxSpread: 0.008, description: "Single Euro Payments Area credit transfers.", features: ["Euro zone", "Low cost", "Instant option"], icon: "🇪🇺" }),
  rail({ id: "crypto", name: "Crypto", type: "Crypto", volume: 300_000, successRate: 95.5, avgProcessingTime: 0.3, cost: "1.00", costMinor: 100, fixedFee: "0.20", fixedFeeMinor: 20, fxSpread: 0.05, description: "Stablecoin transfers on public networks: irreversible.", features: ["24/7", "Borderless", "Irreversible"], icon: "₿" }),
];

/** Who the seed is recorded as. */
export const SEED_ACTOR = "system (spec 001 §9 sample rails)";
