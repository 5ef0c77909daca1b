import type { Currency } from "../money/model";
import type { FourEyesKind } from "./model";

/**
 * The four-eyes thresholds in force until an administrator edits them (PUT
 * /api/v1/approvals/thresholds): amounts strictly above these need a second person. 10,000 in the
 * dollar-like currencies (the US cash-reporting line that compliance teams take as their default
 * review mark); the yen and rupee figures are of the same order.
 */
export const DEFAULT_FOUR_EYES_THRESHOLDS: Record<FourEyesKind, Record<Currency, string>> = {
  deposit: { USD: "10000.00", EUR: "10000.00", GBP: "10000.00", JPY: "1500000", INR: "800000.00" },
  payment: { USD: "10000.00", EUR: "10000.00", GBP: "10000.00", JPY: "1500000", INR: "800000.00" },
};
