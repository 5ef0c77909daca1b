import { GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import type { CoreContext } from "../shared/context";
import { FeedReader, feedSettings, type FeedSource, type OutboxItem } from "../events/feed";
import { Currency, toDecimalString } from "../money/model";
import { Journal } from "../ledger/journals";
import { journalKey } from "../ledger/keys";
import { KycSubmission } from "../kyc/model";
import { submissionKey } from "../kyc/keys";
import { PaymentStatus } from "../payments/model";
import { OPS_FEED_PREFIX, opsFeedPartitions, paymentOpsKey, type OpsFeedKind } from "./keys";
import { PAYMENT_OPS_ENTITY } from "./outbox";
import type { OpsJournalRow, OpsKycRow, OpsPaymentRow } from "./model";

/**
 * The ops feed, read side (docs/money-operations.md#ops-console): the administrators' feed of every
 * journal, payment and KYC submission, on the common feed reader (events/feed.ts), so it resumes
 * by Last-Event-ID without loss or repetition as the users' feeds do. Its items are the journal
 * and submission items themselves and each payment change's ops item (outbox.ts); each decodes
 * to one row of the console's tables, built from the item alone.
 */

export type OpsFeedRow = OpsJournalRow | OpsPaymentRow | OpsKycRow;

/** The feed's one scope: cursors of it are bound to it, and only administrators may read it. */
export const OPS_FEED_SCOPE = "ops:all";

const KIND_BY_LETTER: Record<string, OpsFeedKind> = { j: "journal", p: "payment", k: "kyc" };

function streamOf(item: OutboxItem): { stream: string; seq: number } {
  if (item.entity === PAYMENT_OPS_ENTITY) return { stream: `p:${String(item.payment_id)}`, seq: Number(item.seq) };
  const version = Number(item.version) - 1;
  if (item.entity === "journal") return { stream: `j:${String(item.id)}`, seq: version };
  return { stream: `k:${String(item.id)}`, seq: version };
}

const JOURNAL_CHANGE = { create: "created", post: "posted", void: "voided", unpost: "unposted" } as const;

export function journalRow(item: Record<string, unknown>): OpsJournalRow {
  const journal = Journal.parse(item);
  const last = journal.history[journal.history.length - 1];
  return {
    table: "journal",
    id: journal.id,
    change: JOURNAL_CHANGE[last?.operation ?? "create"],
    type: journal.type,
    status: journal.status,
    amount: toDecimalString(journal.total_amount, journal.currency),
    currency: journal.currency,
    ownerId: journal.owner_id,
    description: journal.description,
    at: last?.at ?? journal.created_at,
  };
}

const PaymentOpsItem = z.object({
  payment_id: z.string(),
  user_id: z.string(),
  committed_at: z.string(),
  status: PaymentStatus,
  amount_minor: z.number().int(),
  currency: Currency,
  rail: z.string(),
  rail_id: z.string(),
  events: z.array(z.string()),
});

export function paymentRow(item: Record<string, unknown>): OpsPaymentRow {
  const ops = PaymentOpsItem.parse(item);
  const change = ops.events.includes("paymentCompleted")
    ? "completed"
    : ops.events.includes("paymentError") || ops.status === "failed"
      ? "failed"
      : ops.events.includes("paymentInitiated")
        ? "initiated"
        : "status";
  return {
    table: "payment",
    id: ops.payment_id,
    change,
    railId: ops.rail_id,
    rail: ops.rail,
    status: ops.status,
    amount: toDecimalString(ops.amount_minor, ops.currency),
    currency: ops.currency,
    userId: ops.user_id,
    at: ops.committed_at,
  };
}

export function kycRow(item: Record<string, unknown>): OpsKycRow {
  const submission = KycSubmission.parse(item);
  const decided = submission.status === "verified" || submission.status === "rejected";
  return {
    table: "kyc",
    id: submission.id,
    change: submission.version === 1 ? "submitted" : decided ? "decided" : "updated",
    status: submission.status,
    riskLevel: submission.risk?.level ?? null,
    riskScore: submission.risk_score,
    country: submission.country,
    userId: submission.user_id,
    at: submission.updated_at,
  };
}

/** The row an ops feed item stands for. */
export function opsRowOf(item: Record<string, unknown>): OpsFeedRow {
  if (item.entity === PAYMENT_OPS_ENTITY) return paymentRow(item);
  if (item.entity === "journal") return journalRow(item);
  return kycRow(item);
}

const inOpsFeed = (item: Record<string, unknown> | undefined): item is OutboxItem =>
  item !== undefined && typeof item.gsi2pk === "string" && item.gsi2pk.startsWith(OPS_FEED_PREFIX);

/** The current item of a journal or submission, if it is in the ops feed at a sequence in [from, to]. */
async function currentItemIn(ctx: CoreContext, key: Record<string, string>, from: number, to: number) {
  const reply = await ctx.db.doc.send(new GetCommand({ TableName: ctx.db.table, Key: key, ConsistentRead: true }));
  const item = reply.Item;
  if (!inOpsFeed(item)) return [];
  const seq = Number(item.version) - 1;
  return seq >= from && seq <= to ? [item] : [];
}

export function opsFeedSource(ctx: CoreContext, kinds?: readonly OpsFeedKind[]): FeedSource<OpsFeedRow> {
  return {
    feed: "ops",
    partitions: opsFeedPartitions(kinds),
    streamOf,
    range: async (stream, from, to) => {
      const kind = KIND_BY_LETTER[stream.slice(0, 1)];
      const id = stream.slice(2);
      if (kind === "journal") return currentItemIn(ctx, journalKey(id), from, to);
      if (kind === "kyc") return currentItemIn(ctx, submissionKey(id), from, to);
      const reply = await ctx.db.doc.send(
        new QueryCommand({
          TableName: ctx.db.table,
          KeyConditionExpression: "pk = :pk AND sk BETWEEN :from AND :to",
          ExpressionAttributeValues: {
            ":pk": paymentOpsKey(id, from).pk,
            ":from": paymentOpsKey(id, from).sk,
            ":to": paymentOpsKey(id, to).sk,
          },
          ConsistentRead: true,
        }),
      );
      return (reply.Items ?? []) as OutboxItem[];
    },
    // Every item carries its whole row: decoding reads nothing more.
    decode: async (items) => items.map((item) => [opsRowOf(item)]),
  };
}

/** The ops feed (optionally of some kinds only); its readers must be administrators. */
export const opsFeedReader = (ctx: CoreContext, kinds?: readonly OpsFeedKind[]) =>
  new FeedReader(ctx, opsFeedSource(ctx, kinds), feedSettings(ctx));
