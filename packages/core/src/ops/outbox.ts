import type { TransactWriteCommandInput } from "@aws-sdk/lib-dynamodb";
import { OPS_FEED_PREFIX, opsFeedIndex, opsFeedPartition, paymentOpsKey, type OpsFeedKind } from "./keys";

/**
 * The ops feed's write side (docs/money-operations.md#ops-console): what each writer adds to the
 * transaction it already sends, so that nothing reaches the feed that did not commit.
 *
 * - A journal and a KYC submission are one item each that every change rewrites whole: their ops
 *   entry is index attributes on that item (no extra item). The stream is the journal or the
 *   submission, its sequence the item's version less one (a new one is 0, so the reader looks for
 *   no predecessor of it). The item is the current state, so a reader that was away may see only
 *   the latest of several quick changes: the console shows states, not a ledger of them.
 * - A payment's history items already sit in the payer's feed index, so each change of a payment
 *   writes one small item of its own beside them; its sequence is the payment's version less one,
 *   gap-free since every change of a payment moves its version by one.
 */

type TransactItems = NonNullable<TransactWriteCommandInput["TransactItems"]>;

/** The ops feed attributes of a journal item (what journal-items.ts spreads on it when gsi2 is free). */
export function journalOpsIndex(journal: {
  id: string;
  version: number;
  history: readonly { at: string }[];
  created_at: string;
}): { gsi2pk: string; gsi2sk: string; committed_at: string } {
  const committedAt = journal.history[journal.history.length - 1]?.at ?? journal.created_at;
  return { ...opsFeedIndex("journal", journal.id, committedAt, journal.version - 1), committed_at: committedAt };
}

/** The ops feed attributes of a KYC submission item. */
export function kycOpsIndex(submission: { id: string; version: number; updated_at: string }) {
  return {
    ...opsFeedIndex("kyc", submission.id, submission.updated_at, submission.version - 1),
    committed_at: submission.updated_at,
  };
}

/** What a payment's ops item copies of the payment after the change. */
export interface PaymentOpsFields {
  paymentId: string;
  userId: string;
  version: number;
  status: string;
  amountMinor: number;
  currency: string;
  selectedRail: string;
  railId: string;
}

export const PAYMENT_OPS_ENTITY = "ops_payment";

/** The Put of a payment change's ops item (conditional: a version is written once). */
export function paymentOpsPut(
  table: string,
  payment: PaymentOpsFields,
  at: string,
  events: readonly string[],
): TransactItems[number] {
  const seq = payment.version - 1;
  return {
    Put: {
      TableName: table,
      Item: {
        ...paymentOpsKey(payment.paymentId, seq),
        ...opsFeedIndex("payment", payment.paymentId, at, seq),
        entity: PAYMENT_OPS_ENTITY,
        committed_at: at,
        payment_id: payment.paymentId,
        user_id: payment.userId,
        seq,
        status: payment.status,
        amount_minor: payment.amountMinor,
        currency: payment.currency,
        rail: payment.selectedRail,
        rail_id: payment.railId,
        events: [...events],
      },
      ConditionExpression: "attribute_not_exists(pk)",
    },
  };
}

/**
 * The partition a writer hints its commits of `kind` to (events/feed.ts announceCommits): a hint
 * says only when to look, and a reader of the ops feed listens on every partition, so one will do.
 */
export const opsHintPartition = (kind: OpsFeedKind) => opsFeedPartition(kind, 0);

/** The items of a transaction that are in the ops feed, for the writer's commit hints. */
export function opsCommitsOf(items: TransactItems): { gsi2pk: string; committed_at: string }[] {
  return items.flatMap((item) => {
    const put = item.Put?.Item;
    return put && typeof put.gsi2pk === "string" && put.gsi2pk.startsWith(OPS_FEED_PREFIX)
      ? [{ gsi2pk: put.gsi2pk, committed_at: String(put.committed_at) }]
      : [];
  });
}
