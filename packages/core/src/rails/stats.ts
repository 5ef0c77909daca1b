import { QueryCommand, type TransactWriteCommandInput } from "@aws-sdk/lib-dynamodb";
import { CURRENCIES, type Currency } from "../money/model";
import { RoutingDecision } from "../payments/model";
import type { CoreContext } from "../shared/context";
import { queryAll } from "../shared/dynamo";
import {
  decisionKey,
  decisionPartition,
  DECISION_SHARDS,
  RAIL_STAT_SHARDS,
  railStatKey,
  railStatPartition,
  railStatRange,
  userDecisionIndexKey,
  userDecisionPartition,
  type RailStatLevel,
} from "./keys";
import type { StoredDecision } from "./metrics-model";
import { isRailId } from "./model";
import { hash32, ROUTING_WINDOW_MINUTES, type RailWindowStats } from "./ranking";

/**
 * Rail statistics from real payment attempts, and the stored routing decisions.
 *
 * Writes (both ride on the payments helper's transactions, so they happen exactly when the payment
 * change does, and never otherwise):
 * - attemptOutcomeItems: one ADD counter update per level (minute, hour, day) of the rail's
 *   bucket the attempt finished in, in shard hash(payment, attempt) mod RAIL_STAT_SHARDS.
 * - decisionItems: the decision (day partition, shard by payment; the payer's gsi1 keys on the same
 *   item) and, for a payment's first decision, ADD of its saving on the chosen rail's day counter.
 *
 * Why counters and shards: a read must not sum every attempt (unbounded), and a single counter per
 * rail would be a hot key that every payment writes
 * (docs/payments-and-rails.md#statistics-and-hot-keys), and, inside transactions, a conflict
 * between any two payments finishing at once. With S shards, the write load of a rail is spread
 * over S items per bucket and S partitions overall; a read of T buckets costs at most T × rails × S
 * items, in S parallel Queries (one per shard partition).
 *
 * Counters expire (TTL): minute buckets after 3 days, hour buckets after 40, day buckets after 400.
 */

type TransactItems = NonNullable<TransactWriteCommandInput["TransactItems"]>;

const STAT_ENTITY = "rail_stat";
const DECISION_ENTITY = "routing_decision";
const DAY_SECONDS = 86_400;
const KEEP_SECONDS: Record<RailStatLevel, number> = { M: 3 * DAY_SECONDS, H: 40 * DAY_SECONDS, D: 400 * DAY_SECONDS };
const DECISION_KEEP_SECONDS = 90 * DAY_SECONDS;
export const LEVEL_SECONDS: Record<RailStatLevel, number> = { M: 60, H: 3_600, D: DAY_SECONDS };

/* ---------- buckets ---------- */

/** The bucket label of a time: "2026-11-26T03:47" (minute), "2026-11-26T03" (hour), "2026-11-26" (day), UTC. */
export function bucketOf(level: RailStatLevel, at: Date): string {
  const iso = at.toISOString();
  return level === "M" ? iso.slice(0, 16) : level === "H" ? iso.slice(0, 13) : iso.slice(0, 10);
}

/** The start of a bucket. */
export function bucketStart(level: RailStatLevel, bucket: string): Date {
  return new Date(
    level === "M" ? `${bucket}:00.000Z` : level === "H" ? `${bucket}:00:00.000Z` : `${bucket}T00:00:00.000Z`,
  );
}

const expiresAt = (level: RailStatLevel, at: Date) => Math.floor(at.getTime() / 1000) + KEEP_SECONDS[level];
const statShard = (seed: string) => hash32(`stat:${seed}`) % RAIL_STAT_SHARDS;
const decisionShard = (paymentId: string) => hash32(`decision:${paymentId}`) % DECISION_SHARDS;

/* ---------- writes ---------- */

/**
 * One counter update: SET of the bucket's identity (and its expiry), ADD of each counter. Every
 * attribute name goes through a placeholder (several are DynamoDB reserved words).
 */
function counterUpdate(
  table: string,
  key: Record<string, string>,
  identity: { railId: string; level: RailStatLevel; bucket: string; expiresAt: number },
  adds: Record<string, number>,
) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const set = Object.entries({
    entity: STAT_ENTITY,
    rail_id: identity.railId,
    stat_level: identity.level,
    stat_bucket: identity.bucket,
    expires_at: identity.expiresAt,
  }).map(([name, value], index) => {
    names[`#s${index}`] = name;
    values[`:s${index}`] = value;
    return `#s${index} = :s${index}`;
  });
  const add = Object.entries(adds).map(([name, value], index) => {
    names[`#a${index}`] = name;
    values[`:a${index}`] = value;
    return `#a${index} :a${index}`;
  });
  return {
    Update: {
      TableName: table,
      Key: key,
      UpdateExpression: `SET ${set.join(", ")} ADD ${add.join(", ")}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

export interface AttemptOutcome {
  railId: string;
  paymentId: string;
  attemptNumber: number;
  outcome: "succeeded" | "failed";
  startedAt: string;
  finishedAt: string;
  amountMinor: number;
  currency: Currency;
  /** The table the transaction writes to (ctx.db.table). */
  table: string;
}

function checkOutcome(input: AttemptOutcome): { started: Date; finished: Date } {
  const started = new Date(input.startedAt);
  const finished = new Date(input.finishedAt);
  if (!isRailId(input.railId))
    throw new RangeError(`attemptOutcomeItems: bad rail id ${JSON.stringify(input.railId.slice(0, 50))}`);
  if (Number.isNaN(started.getTime()) || Number.isNaN(finished.getTime()))
    throw new RangeError("attemptOutcomeItems: startedAt and finishedAt must be ISO times");
  if (!Number.isSafeInteger(input.amountMinor) || input.amountMinor < 0)
    throw new RangeError("attemptOutcomeItems: amountMinor must be a non-negative safe integer");
  if (!(input.currency in CURRENCIES)) throw new RangeError("attemptOutcomeItems: unknown currency");
  return { started, finished };
}

/**
 * The counter updates of one finished attempt: minute, hour and day bucket of its finish time, in
 * one shard. ADD is not idempotent: the caller appends these to the one transaction that moves the
 * attempt to its outcome (conditional on it still being in flight), so they apply exactly once.
 */
export function attemptOutcomeItems(input: AttemptOutcome): TransactItems {
  const { started, finished } = checkOutcome(input);
  const shard = statShard(`${input.paymentId}#${input.attemptNumber}`);
  const succeeded = input.outcome === "succeeded";
  const first = input.attemptNumber === 1;
  const durationMs = Math.max(0, finished.getTime() - started.getTime());
  const adds: Record<string, number> = { attempts: 1, [input.outcome]: 1, duration_ms: durationMs };
  if (first) adds.first_attempts = 1;
  if (first && succeeded) adds.first_succeeded = 1;
  if (succeeded) {
    adds[`volume_${input.currency}`] = input.amountMinor;
    adds[`succeeded_${input.currency}`] = 1;
  }
  return (["M", "H", "D"] as const).map((level) => {
    const bucket = bucketOf(level, finished);
    return counterUpdate(
      input.table,
      railStatKey(shard, level, bucket, input.railId),
      { railId: input.railId, level, bucket, expiresAt: expiresAt(level, finished) },
      adds,
    );
  });
}

export interface DecisionContext {
  paymentId: string;
  userId: string;
  /** The transaction's time (ISO): the decision's place in the lists and its day. */
  at: string;
  /** 1 for the payment's first decision, 2 for the retry's. Only first decisions add to the savings. */
  attemptNumber?: number;
  /** The table the transaction writes to (ctx.db.table). */
  table: string;
}

/**
 * The decision item (listed by day for admins and, through gsi1, by payer for the payer) and, for a
 * first decision, its saving added to the chosen rail's day counter. A retry's decision is stored
 * too but adds no saving: the payment's saving was counted when it was created.
 */
export function decisionItems(decision: RoutingDecision, context: DecisionContext): TransactItems {
  const at = new Date(context.at);
  if (Number.isNaN(at.getTime())) throw new RangeError("decisionItems: at must be an ISO time");
  const attemptNumber = context.attemptNumber ?? 1;
  const day = bucketOf("D", at);
  const items: TransactItems = [
    {
      Put: {
        TableName: context.table,
        Item: {
          ...decisionKey(day, decisionShard(context.paymentId), context.at, context.paymentId, attemptNumber),
          ...userDecisionIndexKey(context.userId, context.at, context.paymentId, attemptNumber),
          entity: DECISION_ENTITY,
          payment_id: context.paymentId,
          user_id: context.userId,
          attempt_number: attemptNumber,
          at: context.at,
          decision,
          expires_at: Math.floor(at.getTime() / 1000) + DECISION_KEEP_SECONDS,
        },
      },
    },
  ];
  if (attemptNumber === 1) {
    const adds: Record<string, number> = {
      decisions: 1,
      [`saving_${decision.currency}`]: decision.savingMinor,
      [`decisions_${decision.currency}`]: 1,
    };
    if (decision.strategy === "exploration") adds.explored = 1;
    items.push(
      counterUpdate(
        context.table,
        railStatKey(statShard(`${context.paymentId}#decision`), "D", day, decision.chosenRailId),
        { railId: decision.chosenRailId, level: "D", bucket: day, expiresAt: expiresAt("D", at) },
        adds,
      ),
    );
  }
  return items;
}

/* ---------- reads ---------- */

export type PerCurrency = Partial<Record<Currency, number>>;

/** The counters of one rail in one bucket (or summed over buckets). */
export interface RailCounters {
  attempts: number;
  succeeded: number;
  failed: number;
  durationMs: number;
  firstAttempts: number;
  firstSucceeded: number;
  /** Volume of succeeded attempts by currency, minor units. */
  volumeMinor: PerCurrency;
  succeededByCurrency: PerCurrency;
  /** Routing decisions that chose this rail (first decisions only) and their savings by currency. */
  decisions: number;
  explored: number;
  savingMinor: PerCurrency;
  decisionsByCurrency: PerCurrency;
}

export interface StatBucket {
  railId: string;
  bucket: string;
  counters: RailCounters;
}

/** Stored attribute of each scalar counter, and prefix of each per-currency one (`volume_USD`). */
const SCALAR_ATTRIBUTES = {
  attempts: "attempts",
  succeeded: "succeeded",
  failed: "failed",
  durationMs: "duration_ms",
  firstAttempts: "first_attempts",
  firstSucceeded: "first_succeeded",
  decisions: "decisions",
  explored: "explored",
} as const;
const CURRENCY_PREFIXES = {
  volumeMinor: "volume",
  succeededByCurrency: "succeeded",
  savingMinor: "saving",
  decisionsByCurrency: "decisions",
} as const;
const SCALARS = Object.keys(SCALAR_ATTRIBUTES) as (keyof typeof SCALAR_ATTRIBUTES)[];
const PER_CURRENCY = Object.keys(CURRENCY_PREFIXES) as (keyof typeof CURRENCY_PREFIXES)[];
const CURRENCY_LIST = Object.keys(CURRENCIES) as Currency[];

export const emptyCounters = (): RailCounters => ({
  attempts: 0,
  succeeded: 0,
  failed: 0,
  durationMs: 0,
  firstAttempts: 0,
  firstSucceeded: 0,
  volumeMinor: {},
  succeededByCurrency: {},
  decisions: 0,
  explored: 0,
  savingMinor: {},
  decisionsByCurrency: {},
});

const numberOf = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : 0);

function countersOf(item: Record<string, unknown>): RailCounters {
  const counters = emptyCounters();
  for (const field of SCALARS) counters[field] = numberOf(item[SCALAR_ATTRIBUTES[field]]);
  for (const field of PER_CURRENCY) {
    for (const currency of CURRENCY_LIST) {
      const value = item[`${CURRENCY_PREFIXES[field]}_${currency}`];
      if (typeof value === "number") counters[field][currency] = value;
    }
  }
  return counters;
}

/** Adds `from` into `into` (mutates `into`). */
export function addCounters(into: RailCounters, from: RailCounters): RailCounters {
  for (const field of SCALARS) into[field] += from[field];
  for (const field of PER_CURRENCY) {
    for (const [currency, value] of Object.entries(from[field]) as [Currency, number][])
      into[field][currency] = (into[field][currency] ?? 0) + value;
  }
  return into;
}

/**
 * Every rail's counters of one level from bucket `from` to `to` (inclusive), one row per (rail,
 * bucket) with the shards summed: RAIL_STAT_SHARDS Queries in parallel, eventually consistent
 * (statistics may lag a write by a moment; half the read cost).
 */
export async function readStatBuckets(
  ctx: CoreContext,
  level: RailStatLevel,
  from: string,
  to: string,
): Promise<StatBucket[]> {
  const range = railStatRange(level, from, to);
  const shards = await Promise.all(
    Array.from({ length: RAIL_STAT_SHARDS }, (_, shard) =>
      queryAll(ctx.db, {
        KeyConditionExpression: "pk = :pk AND sk BETWEEN :from AND :to",
        ExpressionAttributeValues: { ":pk": railStatPartition(shard), ":from": range.from, ":to": range.to },
      }),
    ),
  );
  const merged = new Map<string, StatBucket>();
  for (const item of shards.flat()) {
    const railId = typeof item.rail_id === "string" ? item.rail_id : "";
    const bucket = typeof item.stat_bucket === "string" ? item.stat_bucket : "";
    const key = `${bucket}#${railId}`;
    const entry = merged.get(key) ?? { railId, bucket, counters: emptyCounters() };
    addCounters(entry.counters, countersOf(item));
    merged.set(key, entry);
  }
  return [...merged.values()].sort((a, b) =>
    a.bucket < b.bucket ? -1 : a.bucket > b.bucket ? 1 : a.railId < b.railId ? -1 : 1,
  );
}

/** Sums bucket rows per rail. */
export function totalsByRail(rows: readonly StatBucket[]): Map<string, RailCounters> {
  const totals = new Map<string, RailCounters>();
  for (const row of rows) totals.set(row.railId, addCounters(totals.get(row.railId) ?? emptyCounters(), row.counters));
  return totals;
}

/**
 * The routing window: finished attempts per rail over the last ROUTING_WINDOW_MINUTES minute
 * buckets (the current one included).
 */
export async function readRoutingWindow(ctx: CoreContext, now: Date): Promise<Map<string, RailWindowStats>> {
  const from = new Date(now.getTime() - (ROUTING_WINDOW_MINUTES - 1) * 60_000);
  const totals = totalsByRail(await readStatBuckets(ctx, "M", bucketOf("M", from), bucketOf("M", now)));
  return new Map(
    [...totals].map(([railId, counters]) => [
      railId,
      { attempts: counters.attempts, succeeded: counters.succeeded, durationMs: counters.durationMs },
    ]),
  );
}

/* ---------- decisions ---------- */

function storedDecision(item: Record<string, unknown>): StoredDecision {
  return {
    paymentId: String(item.payment_id),
    userId: String(item.user_id),
    attemptNumber: numberOf(item.attempt_number),
    at: String(item.at),
    decision: RoutingDecision.parse(item.decision),
  };
}

/** Days a platform-wide listing looks back for decisions (each day costs DECISION_SHARDS small Queries). */
export const DECISION_LOOKBACK_DAYS = 7;

/**
 * The newest decisions of everyone: today's shards, then earlier days until `limit` are found (at
 * most DECISION_LOOKBACK_DAYS days).
 */
export async function recentDecisions(ctx: CoreContext, now: Date, limit: number): Promise<StoredDecision[]> {
  const found: Record<string, unknown>[] = [];
  for (let back = 0; back < DECISION_LOOKBACK_DAYS && found.length < limit; back += 1) {
    const day = bucketOf("D", new Date(now.getTime() - back * DAY_SECONDS * 1000));
    const shards = await Promise.all(
      Array.from({ length: DECISION_SHARDS }, async (_, shard) => {
        const reply = await ctx.db.doc.send(
          new QueryCommand({
            TableName: ctx.db.table,
            KeyConditionExpression: "pk = :pk",
            ExpressionAttributeValues: { ":pk": decisionPartition(day, shard) },
            ScanIndexForward: false,
            Limit: limit,
          }),
        );
        return reply.Items ?? [];
      }),
    );
    const dayItems = shards.flat().sort((a, b) => (String(a.sk) < String(b.sk) ? 1 : -1));
    found.push(...dayItems.slice(0, limit - found.length));
  }
  return found.map(storedDecision);
}

/** The newest decisions of one payer (gsi1: only their own items are in that partition). */
export async function userDecisions(ctx: CoreContext, userId: string, limit: number): Promise<StoredDecision[]> {
  const reply = await ctx.db.doc.send(
    new QueryCommand({
      TableName: ctx.db.table,
      IndexName: "gsi1",
      KeyConditionExpression: "gsi1pk = :pk",
      ExpressionAttributeValues: { ":pk": userDecisionPartition(userId) },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (reply.Items ?? []).map(storedDecision);
}
