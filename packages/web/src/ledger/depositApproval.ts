import { needsSecondApprover, type ThresholdsView } from "@fintech/core/approvals/model";

/**
 * Four eyes on deposits, as the workspace shows it: a deposit draft above its currency's
 * threshold (GET /api/v1/approvals/thresholds) is approved by another administrator, so its row
 * says so instead of offering Approve (the server would refuse: 403 second_approver_required).
 */

export const WAITING_FOR_SECOND_APPROVER = "Waiting for approval by another admin";

/** The deposit threshold of a currency in minor units, or null when the thresholds do not name it (yet). */
export function depositThreshold(thresholds: ThresholdsView | undefined, currency: string): number | null {
  return (
    thresholds?.thresholds.find((row) => row.kind === "deposit" && row.currency === currency)?.amount_minor ?? null
  );
}

/** Whether a transaction is a deposit draft that waits for another administrator. */
export function awaitsSecondApprover(
  transaction: { type: string; status: string | null | undefined; total_amount_minor: number; currency: string },
  thresholds: ThresholdsView | undefined,
): boolean {
  if (transaction.type.toLowerCase() !== "deposit" || transaction.status?.toLowerCase() !== "draft") return false;
  const threshold = depositThreshold(thresholds, transaction.currency);
  return threshold !== null && needsSecondApprover(threshold, transaction.total_amount_minor);
}
