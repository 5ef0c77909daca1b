/** Key formats of the rails domain; nothing else builds these keys. */

const SEQ_DIGITS = 12;
const padSeq = (seq: number) => String(seq).padStart(SEQ_DIGITS, "0");

/** One rail: its current state. `railId` must match RAIL_ID_PATTERN (model.ts) before it gets here. */
export const railKey = (railId: string) => ({ pk: `RAIL#${railId}`, sk: "META" });

/** A rail's change history: one item per admin change, by the version it produced. */
export const RAIL_CHANGE_PREFIX = "CHG#";
export const railChangeKey = (railId: string, version: number) => ({
  pk: `RAIL#${railId}`,
  sk: `${RAIL_CHANGE_PREFIX}${padSeq(version)}`,
});
export const railPartition = (railId: string) => `RAIL#${railId}`;

/**
 * The list partition: one registry item naming every rail id in console order. Written with the
 * seed in one transaction, read strongly consistently, so a list is never missing a seeded rail
 * (a GSI would be eventually consistent right after the seed).
 */
export const RAILS_PARTITION = "RAILS";
export const railRegistryKey = () => ({ pk: RAILS_PARTITION, sk: "REGISTRY" });

/* ---------- rail statistics and routing decisions (stats.ts, routing.ts) ---------- */

/**
 * Attempt counters are spread over RAIL_STAT_SHARDS partitions, chosen by a hash of (payment,
 * attempt), so no partition key takes all payment traffic
 * (docs/payments-and-rails.md#statistics-and-hot-keys) and concurrent transactions finishing
 * attempts on the same rail rarely touch the same counter item (two transactions on one item at
 * once conflict). Inside a shard, the sort key is `<level>#<bucket>#<railId>`, so one Query per
 * shard reads every rail over a time range.
 */
export const RAIL_STAT_SHARDS = 8;
/** Counter levels: per minute (routing window, 1h series), per hour (24h, 7d), per day (30d, metrics, savings). */
export const RAIL_STAT_LEVELS = ["M", "H", "D"] as const;
export type RailStatLevel = (typeof RAIL_STAT_LEVELS)[number];
export const railStatPartition = (shard: number) => `RAILSTAT#S${shard}`;
export const railStatKey = (shard: number, level: RailStatLevel, bucket: string, railId: string) => ({
  pk: railStatPartition(shard),
  sk: `${level}#${bucket}#${railId}`,
});
/**
 * Sort-key bounds of every rail's counters of one level from bucket `from` to bucket `to`,
 * inclusive ("~" sorts after any rail id).
 */
export const railStatRange = (level: RailStatLevel, from: string, to: string) => ({
  from: `${level}#${from}#`,
  to: `${level}#${to}#~`,
});

/**
 * Routing decisions: one item per decision in a day partition spread over DECISION_SHARDS (by a
 * hash of the payment), newest last in the sort key; the same item carries the payer's index keys
 * (gsi1) so a user lists only their own decisions without a second item.
 */
export const DECISION_SHARDS = 4;
export const decisionPartition = (day: string, shard: number) => `ROUTEDEC#${day}#S${shard}`;
const decisionSortKey = (at: string, paymentId: string, attemptNumber: number) =>
  `${at}#${paymentId}#${String(attemptNumber).padStart(3, "0")}`;
export const decisionKey = (day: string, shard: number, at: string, paymentId: string, attemptNumber: number) => ({
  pk: decisionPartition(day, shard),
  sk: decisionSortKey(at, paymentId, attemptNumber),
});
export const userDecisionPartition = (userId: string) => `ROUTEDEC#U#${userId}`;
export const userDecisionIndexKey = (userId: string, at: string, paymentId: string, attemptNumber: number) => ({
  gsi1pk: userDecisionPartition(userId),
  gsi1sk: decisionSortKey(at, paymentId, attemptNumber),
});
