import { createHash } from "node:crypto";

/** Key formats of the four-eyes domain; nothing else builds these keys. */

/** The administrators' edits of the thresholds (one item, versioned); absent while the defaults hold. */
export const thresholdsKey = () => ({ pk: "FOUREYES", sk: "THRESHOLDS" });

/** An administrator's decision on a deposit draft: its own partition per journal, one item per decision. */
export const depositDecisionKey = (journalId: string, at: string) => ({
  pk: `FOUREYES#TX#${journalId}`,
  sk: `DECISION#${at}`,
});

/**
 * Deposit drafts, by currency and amount, for the administrators' approval queue: a sparse index
 * on the journal item itself (gsi2), present while the journal is a deposit draft and dropped by
 * the write that posts or voids it (the ledger rewrites the journal item without it). The sort
 * key starts with the amount, so the queue is one range read per partition ("above the
 * threshold"), whatever the threshold is at the time. Spread over DEPOSIT_DRAFT_SHARDS partitions
 * per currency, as the system feed is: every deposit writes here, and one index partition takes
 * about 1,000 writes/s.
 */
export const DEPOSIT_DRAFT_SHARDS = 4;
const AMOUNT_DIGITS = 16;
export const padAmount = (minor: number) => String(minor).padStart(AMOUNT_DIGITS, "0");
export const depositDraftPartition = (currency: string, shard: number) => `DEPOSITDRAFT#${currency}#S${shard}`;
const shardOf = (journalId: string) => createHash("sha256").update(journalId).digest()[0]! % DEPOSIT_DRAFT_SHARDS;

/** What the index needs of a journal. */
export interface IndexedJournal {
  id: string;
  type: string;
  status: string;
  currency: string;
  total_amount: number;
  created_at: string;
}

/** The index attributes of a journal: set on a deposit draft, none otherwise. */
export function depositDraftIndex(journal: IndexedJournal): { gsi2pk?: string; gsi2sk?: string } {
  if (journal.type !== "deposit" || journal.status !== "draft") return {};
  return {
    gsi2pk: depositDraftPartition(journal.currency, shardOf(journal.id)),
    gsi2sk: `${padAmount(journal.total_amount)}#${journal.created_at}#${journal.id}`,
  };
}

/** The lowest sort key strictly above `thresholdMinor` in a deposit-draft partition. */
export const aboveAmount = (thresholdMinor: number) => padAmount(thresholdMinor + 1);
