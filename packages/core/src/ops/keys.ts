import { createHash } from "node:crypto";
import { paymentPartition } from "../payments/keys";

/**
 * Key formats of the ops feed (docs/money-operations.md#ops-console); nothing else builds these keys.
 *
 * The ops feed is the admin-scope outbox of every journal, payment and KYC submission. Its items
 * sit in gsi2 partitions of their own kind (so the console's "last N journals" is a read of the
 * journal partitions only), and the busy kinds are spread over shards by a hash of the stream's
 * id: every transfer lands here, and one index partition takes about 1,000 writes/s in the cloud.
 * The reader (events/feed.ts) merges every partition by position.
 */

export const OPS_FEED_KINDS = ["journal", "payment", "kyc"] as const;
export type OpsFeedKind = (typeof OPS_FEED_KINDS)[number];

export const OPS_FEED_SHARDS: Record<OpsFeedKind, number> = { journal: 8, payment: 4, kyc: 1 };

/** Every ops feed partition starts with this. */
export const OPS_FEED_PREFIX = "FEED#ops#";

const shardOf = (kind: OpsFeedKind, id: string) =>
  createHash("sha256").update(id).digest().readUInt16BE(0) % OPS_FEED_SHARDS[kind];

export const opsFeedPartition = (kind: OpsFeedKind, shard: number) => `${OPS_FEED_PREFIX}${kind}#S${shard}`;

/** Every partition of one kind, or of the whole feed. */
export const opsFeedPartitions = (kinds: readonly OpsFeedKind[] = OPS_FEED_KINDS): string[] =>
  kinds.flatMap((kind) => Array.from({ length: OPS_FEED_SHARDS[kind] }, (_, shard) => opsFeedPartition(kind, shard)));

/** The stream an item of `kind` about `id` belongs to (a payment's journal shares the payment's id). */
export const opsStream = (kind: OpsFeedKind, id: string) => `${kind[0]}:${id}`;

const SEQ_DIGITS = 12;
const padSeq = (seq: number) => String(seq).padStart(SEQ_DIGITS, "0");

/**
 * The index attributes of an ops feed item: its kind's shard, ordered by commit instant, then by
 * stream and sequence (so two changes in one millisecond keep distinct, ordered positions).
 */
export const opsFeedIndex = (kind: OpsFeedKind, id: string, committedAt: string, seq: number) => ({
  gsi2pk: opsFeedPartition(kind, shardOf(kind, id)),
  gsi2sk: `${committedAt}#${opsStream(kind, id)}#${padSeq(seq)}`,
});

/** A payment's ops item for one of its changes: beside its history, in the payment's partition. */
const OPS_PAYMENT_SK_PREFIX = "OPS#";
export const paymentOpsKey = (paymentId: string, seq: number) => ({
  pk: paymentPartition(paymentId),
  sk: `${OPS_PAYMENT_SK_PREFIX}${padSeq(seq)}`,
});
