import { GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import type { CoreContext } from "../shared/context";
import { announceCommits } from "../events/feed";
import { queryPage, type Page } from "../shared/pagination";
import type { CursorBinding } from "../shared/cursor";
import type { TransactItems } from "../ledger/write-path";
import { ScreeningDecision } from "../screening/model";
import { opsHintPartition, paymentOpsPut } from "../ops/outbox";
import {
  dueMarkerKey,
  DUE_SHARDS,
  duePartition,
  paymentDecisionIndex,
  paymentFeedPartition,
  paymentHistoryFeedIndex,
  paymentHistoryKey,
  paymentKey,
  paymentPartition,
  paymentsByUser,
  paymentsByUserPartition,
} from "./keys";
import {
  isWaitingForDecision,
  matchesPaymentFilters,
  Payment,
  PaymentHistoryEntry,
  PaymentReview,
  type PaymentEvent,
  type PaymentListQuery,
  type PaymentStatus,
} from "./model";

/**
 * Payments in the table (docs/payments-and-rails.md#payments):
 * - PAY#<id> / PAY: the payment (API fields plus what only the server knows: its version, the
 *   idempotency record, the payee's account id, the next due time);
 * - PAY#<id> / EV#<seq>: its history, the outbox of the payment feed (gsi2 FEED#payment#<payer>),
 *   written in the same transaction as every change of the payment;
 * - PAYDUE#<shard> / <dueAt>#<id>: the due marker of an active payment (keys.ts), with its
 *   step's lease, failures and sweep record (markers.ts);
 * - PAYREVIEW / <parkedAt>#<id>: a parked payment in the admins' review list (review.ts);
 * - the payment item itself is indexed (gsi2 PAYDECIDE) while it waits for an administrator's
 *   decision (held_for_review, awaiting_approval: decisions.ts).
 */

const ENTITY = "payment";
const HISTORY_ENTITY = "payment_history";
const DUE_ENTITY = "payment_due";

/** The stored payment: the public fields and the server's own. */
export const StoredPayment = Payment.extend({
  version: z.number().int().min(1),
  /** The last history seq written (entries are 1..seq). */
  seq: z.number().int().min(1),
  /** The account that receives the amount: the payee's (never shown to the payer) or the clearing account. */
  payeeAccountId: z.string(),
  idempotencyKey: z.string().nullable(),
  requestHash: z.string(),
  /** The reply to the creating request, replayed byte for byte to a retry with the same key. */
  createdReply: z.string(),
  /** When the next step is due (the due marker's time); null once final. */
  nextDueAt: z.string().nullable(),
  /** When it was parked for review (its review item's key, review.ts); null when it never was. */
  parkedAt: z.string().nullable().default(null),
  /** The payee's screening at creation (screening/): shown to administrators, never to the payer. */
  screening: ScreeningDecision.nullable().default(null),
  /** Why it waited for a person and what was decided; null when it never waited. */
  review: PaymentReview.nullable().default(null),
});
export type StoredPayment = z.infer<typeof StoredPayment>;

/** The payment as the API shows it: the stored item without the server's own fields. */
export function publicPayment(stored: StoredPayment): Payment {
  const {
    version: _version,
    seq: _seq,
    payeeAccountId: _payee,
    idempotencyKey: _key,
    requestHash: _hash,
    createdReply: _reply,
    nextDueAt: _due,
    parkedAt: _parked,
    screening: _screening,
    review: _review,
    ...rest
  } = stored;
  return Payment.parse(rest);
}

export function paymentItem(payment: StoredPayment): Record<string, unknown> {
  const waiting = isWaitingForDecision(payment.status)
    ? paymentDecisionIndex(payment.createdAt, payment.paymentId)
    : {};
  return {
    ...paymentKey(payment.paymentId),
    ...paymentsByUser(payment.userId, payment.createdAt, payment.paymentId),
    ...waiting,
    entity: ENTITY,
    ...payment,
  };
}

export function parseStoredPayment(item: Record<string, unknown>): StoredPayment {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g1s, gsi2pk: _g2, gsi2sk: _g2s, entity: _entity, ...rest } = item;
  return StoredPayment.parse(rest);
}

/** One history item of the payment (its outbox record). */
export function historyItem(
  payment: StoredPayment,
  seq: number,
  at: string,
  event: PaymentEvent | null,
  note?: string,
): Record<string, unknown> {
  const entry: PaymentHistoryEntry = { seq, at, status: payment.status, event, ...(note ? { note } : {}) };
  return {
    ...paymentHistoryKey(payment.paymentId, seq),
    ...paymentHistoryFeedIndex(payment.userId, at, payment.paymentId, seq),
    entity: HISTORY_ENTITY,
    payment_id: payment.paymentId,
    user_id: payment.userId,
    committed_at: at,
    entry,
  };
}

/**
 * The conditional Puts of new history items (a seq is written once), and the change's entry in
 * the administrators' ops feed (docs/money-operations.md#ops-console).
 */
export function historyPuts(
  ctx: CoreContext,
  payment: StoredPayment,
  firstSeq: number,
  at: string,
  entries: { event: PaymentEvent | null; note?: string }[],
): TransactItems {
  const events = entries.flatMap((entry) => (entry.event ? [entry.event.type] : []));
  return [
    ...entries.map((entry, index) => ({
      Put: {
        TableName: ctx.db.table,
        Item: historyItem(payment, firstSeq + index, at, entry.event, entry.note),
        ConditionExpression: "attribute_not_exists(pk)",
      },
    })),
    paymentOpsPut(ctx.db.table, payment, at, events),
  ];
}

/** The Put of a payment's due marker. */
export const duePut = (ctx: CoreContext, paymentId: string, dueAt: string): TransactItems[number] => ({
  Put: {
    TableName: ctx.db.table,
    Item: { ...dueMarkerKey(paymentId, dueAt), entity: DUE_ENTITY, payment_id: paymentId, due_at: dueAt },
  },
});
/**
 * The Delete of a payment's due marker. With `leaseOwner` (a driver's run, markers.ts) it is
 * conditional on that run still holding the step's lease, so a run whose lease ran out and was
 * taken over cannot commit; without it (a direct advancePayment) an absent marker is fine.
 */
export const dueDelete = (
  ctx: CoreContext,
  paymentId: string,
  dueAt: string,
  leaseOwner: string | null = null,
): TransactItems[number] => ({
  Delete: {
    TableName: ctx.db.table,
    Key: dueMarkerKey(paymentId, dueAt),
    ...(leaseOwner === null
      ? {}
      : { ConditionExpression: "lease_owner = :owner", ExpressionAttributeValues: { ":owner": leaseOwner } }),
  },
});

/** The payment with this id, strongly consistent; null when there is none. */
export async function getPayment(ctx: CoreContext, paymentId: string): Promise<StoredPayment | null> {
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: paymentKey(paymentId), ConsistentRead: true }),
  );
  return reply.Item ? parseStoredPayment(reply.Item) : null;
}

/** History items of a payment with from <= seq <= to, oldest first, strongly consistent (the feed's range read). */
export async function historyRange(
  ctx: CoreContext,
  paymentId: string,
  from: number,
  to: number,
): Promise<Record<string, unknown>[]> {
  const reply = await ctx.db.doc.send(
    new QueryCommand({
      TableName: ctx.db.table,
      KeyConditionExpression: "pk = :pk AND sk BETWEEN :from AND :to",
      ExpressionAttributeValues: {
        ":pk": paymentPartition(paymentId),
        ":from": paymentHistoryKey(paymentId, from).sk,
        ":to": paymentHistoryKey(paymentId, to).sk,
      },
      ConsistentRead: true,
    }),
  );
  return reply.Items ?? [];
}

/** A payment's whole history, oldest first (at most a handful of entries per payment). */
export async function paymentHistory(ctx: CoreContext, paymentId: string): Promise<PaymentHistoryEntry[]> {
  const items = await historyRange(ctx, paymentId, 1, 10 ** 12 - 1);
  return items.map((item) => PaymentHistoryEntry.parse(item.entry));
}

/** Wakes this process's readers of the payer's payment feed at once (other processes poll). */
export function announcePaymentCommit(ctx: CoreContext, userId: string, committedAt: string): void {
  announceCommits(ctx, [
    { gsi2pk: paymentFeedPartition(userId), committed_at: committedAt },
    { gsi2pk: opsHintPartition("payment"), committed_at: committedAt },
  ]);
}

/**
 * The caller's payments, newest first, through the list's filters: the date range is the key
 * condition (the index's sort key starts with the creation time), the rest is matched in code by
 * the same function the screen uses. Cursors are signed and bound to the whole filter.
 */
export async function listPayments(ctx: CoreContext, userId: string, query: PaymentListQuery): Promise<Page<Payment>> {
  const partition = paymentsByUserPartition(userId);
  const { limit, cursor, ...filters } = query;
  const binding: CursorBinding = {
    secret: ctx.config.CURSOR_KEYS,
    scope: { route: "payments/list", owner: userId, ...filters },
  };
  const range =
    filters.from || filters.to ? { ":from": filters.from ?? "0000", ":to": `${filters.to ?? "9999"}#\uffff` } : null;
  return queryPage(
    ctx.db,
    {
      IndexName: "gsi1",
      KeyConditionExpression: range ? "gsi1pk = :pk AND gsi1sk BETWEEN :from AND :to" : "gsi1pk = :pk",
      ExpressionAttributeValues: { ":pk": partition, ...range },
    },
    ["pk", "sk", "gsi1pk", "gsi1sk"],
    { name: "gsi1pk", value: partition },
    binding,
    { limit, offset: 0, cursor },
    (item) => {
      if (item.entity !== ENTITY) return null;
      const payment = publicPayment(parseStoredPayment(item));
      return matchesPaymentFilters(payment, filters) ? payment : null;
    },
  );
}

/**
 * Ids of active payments whose next step is due at or before `now`, oldest due first per shard:
 * one Query per due shard, so a restarted worker finds every payment it left in flight.
 */
export async function dueMarkers(ctx: CoreContext, now: Date, limit: number): Promise<string[]> {
  const until = `${now.toISOString()}#\uffff`;
  const perShard = await Promise.all(
    Array.from({ length: DUE_SHARDS }, async (_, shard) => {
      const reply = await ctx.db.doc.send(
        new QueryCommand({
          TableName: ctx.db.table,
          KeyConditionExpression: "pk = :pk AND sk <= :until",
          ExpressionAttributeValues: { ":pk": duePartition(shard), ":until": until },
          Limit: limit,
          ConsistentRead: true,
        }),
      );
      return (reply.Items ?? []).map((item) => ({ id: String(item.payment_id), dueAt: String(item.due_at) }));
    }),
  );
  const ids = [
    ...new Set(
      perShard
        .flat()
        .sort((a, b) => (a.dueAt < b.dueAt ? -1 : a.dueAt > b.dueAt ? 1 : 0))
        .map((due) => due.id),
    ),
  ];
  return ids.slice(0, limit);
}

export type { PaymentStatus };
