import type { LedgerTransaction } from "../api/types";
import { statusChangeErrorMessage } from "./actionErrors";
import { transactionAction } from "./format";
import { LEDGER_UI_MESSAGES } from "./messages";

export interface BulkToast {
  type: "success" | "error" | "info";
  message: string;
}

export interface BulkOutcome {
  approved: string[];
  failed: { id: string; message: string }[];
}

/** The drafts a person may approve (a payment's hold is settled by its payment, never by hand). */
export const draftsOf = (transactions: readonly LedgerTransaction[]) =>
  transactions.filter((transaction) => transactionAction(transaction) === "approve");

/** Posts every draft in parallel; one failure never stops the others. */
export async function approveAll(
  drafts: readonly Pick<LedgerTransaction, "id">[],
  post: (id: string) => Promise<unknown>,
): Promise<BulkOutcome> {
  const results = await Promise.allSettled(drafts.map((draft) => post(draft.id)));
  const outcome: BulkOutcome = { approved: [], failed: [] };
  results.forEach((result, index) => {
    const id = drafts[index]!.id;
    if (result.status === "fulfilled") outcome.approved.push(id);
    else outcome.failed.push({ id, message: statusChangeErrorMessage(result.reason, "post") });
  });
  return outcome;
}

/**
 * The toasts of a bulk approval (docs/product/ledger-workspace.md#messages):
 * - nothing to do: 'No draft transactions to approve';
 * - every post failed: 'Bulk approve failed' and '{n} transactions failed to approve';
 * - some failed: '{n} transactions failed to approve' and 'Bulk approve completed: {x} approved, {y} failed';
 * - all approved: 'Bulk approve completed: {x} approved, 0 failed'.
 */
export function bulkToasts(draftCount: number, outcome: BulkOutcome | null): BulkToast[] {
  if (draftCount === 0) return [{ type: "error", message: LEDGER_UI_MESSAGES.noDrafts }];
  if (!outcome) return [{ type: "error", message: LEDGER_UI_MESSAGES.bulkFailed }];
  const approved = outcome.approved.length;
  const failed = outcome.failed.length;
  const summary = LEDGER_UI_MESSAGES.bulkCompleted(approved, failed);
  if (failed === 0) return [{ type: "success", message: summary }];
  if (approved === 0) {
    return [
      { type: "error", message: LEDGER_UI_MESSAGES.bulkFailed },
      { type: "error", message: LEDGER_UI_MESSAGES.someFailed(failed) },
    ];
  }
  return [
    { type: "error", message: LEDGER_UI_MESSAGES.someFailed(failed) },
    { type: "info", message: summary },
  ];
}
