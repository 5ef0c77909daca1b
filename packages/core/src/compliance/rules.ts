import type { Currency } from "../money/model";

/**
 * THE COMPLIANCE RULES AS DATA (docs/money-operations.md#compliance-reports): the cash-report
 * threshold per currency and the parameters of each suspicious-activity rule. Changing a figure
 * here changes what the reports find; the detectors (detect.ts) hold no numbers of their own.
 *
 * The threshold is 10,000 in the dollar-like currencies (the US currency transaction report's
 * line); the yen and rupee take the USD equivalent at the platform's reference rates, rounded as
 * the four-eyes thresholds are (approvals/default-thresholds.ts), so one customer's cash is
 * measured against the same line whatever currency it arrives in.
 */
export const CTR_THRESHOLD_MINOR: Record<Currency, number> = {
  USD: 1_000_000,
  EUR: 1_000_000,
  GBP: 1_000_000,
  JPY: 1_500_000,
  INR: 80_000_000,
};

export const SAR_RULES = {
  structuring: {
    /** A deposit "just under" the threshold: at least this share of it and below it. */
    nearThresholdShare: 0.8,
    /** At least this many such deposits... */
    minDeposits: 3,
    /** ...within this many hours of the first. */
    windowHours: 48,
  },
  rapid_movement: {
    /** Payments out of at least this share of a deposit... */
    outShare: 0.8,
    /** ...within this many hours after it was posted. */
    windowHours: 24,
    /** Deposits smaller than this share of the threshold are not looked at (pocket money moves fast). */
    minDepositShare: 0.1,
  },
  high_risk_volume: {
    /** A customer whose latest KYC assessment is High and whose deposits in a month reach this share of the threshold. */
    volumeShare: 1,
  },
  screening_hit: {},
} as const;
