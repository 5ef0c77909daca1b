import { createHash } from "node:crypto";

/** Key formats of the payments domain (docs/payments-and-rails.md#payments); nothing else builds these keys. */

const SEQ_DIGITS = 12;
export const padSeq = (seq: number) => String(seq).padStart(SEQ_DIGITS, "0");

export const paymentPartition = (paymentId: string) => `PAY#${paymentId}`;
/** The payment's current state (one item, versioned). */
export const paymentKey = (paymentId: string) => ({ pk: paymentPartition(paymentId), sk: "PAY" });

/** The payer's payments, newest first (GET /v1/payments). One partition per user. */
export const paymentsByUserPartition = (userId: string) => `USER#${userId}#PAYS`;
export const paymentsByUser = (userId: string, createdAt: string, paymentId: string) => ({
  gsi1pk: paymentsByUserPartition(userId),
  gsi1sk: `${createdAt}#${paymentId}`,
});

/** A payment's history: its outbox (the payment feed) and its audit trail. */
export const PAYMENT_HISTORY_PREFIX = "EV#";
export const paymentHistoryKey = (paymentId: string, seq: number) => ({
  pk: paymentPartition(paymentId),
  sk: `${PAYMENT_HISTORY_PREFIX}${padSeq(seq)}`,
});
export const paymentFeedPartition = (userId: string) => `FEED#payment#${userId}`;
export const paymentHistoryFeedIndex = (userId: string, committedAt: string, paymentId: string, seq: number) => ({
  gsi2pk: paymentFeedPartition(userId),
  gsi2sk: `${committedAt}#${paymentId}#${padSeq(seq)}`,
});

/**
 * Due markers: one item per active payment naming when its next step is due, spread over
 * DUE_SHARDS partitions by a hash of the payment id, so finding due work is a Query per shard
 * (no scan) and no single partition takes every payment's writes. Replaced or deleted in the
 * same transaction as the payment change that moves the due time.
 */
export const DUE_SHARDS = 8;
export const dueShardOf = (paymentId: string): number =>
  createHash("sha256").update(paymentId).digest()[0]! % DUE_SHARDS;
/** Every due marker's partition starts with this (the sweeper's IAM grant is limited to it). */
export const DUE_PARTITION_PREFIX = "PAYDUE#";
export const duePartition = (shard: number) => `${DUE_PARTITION_PREFIX}${shard}`;
export const dueMarkerKey = (paymentId: string, dueAt: string) => ({
  pk: duePartition(dueShardOf(paymentId)),
  sk: `${dueAt}#${paymentId}`,
});

/**
 * The review list of parked payments, newest first: one partition, since a parked payment is an
 * exception an admin looks at (an alarm's worth), not traffic.
 */
export const PAYMENT_REVIEW_PARTITION = "PAYREVIEW";
export const paymentReviewKey = (parkedAt: string, paymentId: string) => ({
  pk: PAYMENT_REVIEW_PARTITION,
  sk: `${parkedAt}#${paymentId}`,
});

/**
 * Payments waiting for an administrator's decision (held for review, awaiting approval), newest
 * first: a sparse index (gsi2) on the payment item, present only while it waits, so the write
 * that decides it also takes it off the list. One partition: these are exceptions, not traffic.
 */
export const PAYMENT_DECISIONS_PARTITION = "PAYDECIDE";
export const paymentDecisionIndex = (createdAt: string, paymentId: string) => ({
  gsi2pk: PAYMENT_DECISIONS_PARTITION,
  gsi2sk: `${createdAt}#${paymentId}`,
});

/**
 * A user's saved recipients: one partition per user, one item per recipient, and a counter item
 * that bounds how many there are (its condition and the recipient's Put share a transaction).
 */
export const recipientsPartition = (userId: string) => `USER#${userId}#RCPTS`;
export const RECIPIENT_PREFIX = "RCPT#";
export const recipientKey = (userId: string, recipientId: string) => ({
  pk: recipientsPartition(userId),
  sk: `${RECIPIENT_PREFIX}${recipientId}`,
});
export const recipientCounterKey = (userId: string) => ({ pk: recipientsPartition(userId), sk: "COUNT" });
