import { BatchGetCommand, QueryCommand, type BatchGetCommandOutput } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "../shared/context";
import { badRequest } from "../shared/errors";
import { toDecimalString } from "../money/model";
import type { VersionItem } from "./balances";
import { Journal } from "./journals";
import { journalKey, ownerFeedPartition } from "./keys";

/**
 * The ledger's outbox, read side. Every committed balance version sits in its owner's feed
 * index (gsi2, by commit time); the stream events of spec 000 §3 are derived from those items
 * and the (immutable) entries of their journals, so only committed changes are ever announced.
 */
export type LedgerEvent =
  | { type: "balanceUpdate"; accountId: string; balance: string; available: string; changeAmount: string; changeType: "CREDIT" | "DEBIT"; operation: string; currency: string }
  | { type: "transactionCreated"; transactionId: string; amount: string; status: "draft"; fromAccountId: string | null; toAccountId: string | null; currency: string; description: string }
  | { type: "transactionStatusUpdate"; transactionId: string; status: "posted" | "draft"; message: string }
  | { type: "lowBalanceAlert"; accountId: string; currentBalance: string; threshold: string };

export interface FeedEvent {
  /** Resume point for Last-Event-ID: the item's position in the feed plus the event's index. */
  id: string;
  at: string;
  event: LedgerEvent;
}

const EVENT_ID = /^(.+)\|(\d+)$/;

/** The journal-level event of an operation is announced once, by the version of its first leg. */
function announcesJournal(item: VersionItem, journal: Journal): boolean {
  return journal.entries[0]?.account_id === item.account_id;
}

export function eventsOf(item: VersionItem, journal: Journal | undefined): LedgerEvent[] {
  if (item.operation === "open" || !item.tx_id || !item.side) return [];
  const money = (minor: number) => toDecimalString(minor, item.currency);
  const events: LedgerEvent[] = [
    {
      type: "balanceUpdate",
      accountId: item.account_id,
      balance: money(item.balance),
      available: money(item.available),
      changeAmount: money(item.amount),
      changeType: item.side === "credit" ? "CREDIT" : "DEBIT",
      operation: item.operation,
      currency: item.currency,
    },
  ];
  if (journal && announcesJournal(item, journal)) {
    if (item.operation === "create") {
      events.push({
        type: "transactionCreated",
        transactionId: journal.id,
        amount: money(journal.total_amount),
        status: "draft",
        fromAccountId: journal.entries.find((entry) => entry.side === "credit")?.account_id ?? null,
        toAccountId: journal.entries.find((entry) => entry.side === "debit")?.account_id ?? null,
        currency: journal.currency,
        description: journal.description,
      });
    } else {
      events.push({
        type: "transactionStatusUpdate",
        transactionId: journal.id,
        status: item.operation === "post" ? "posted" : "draft",
        message: item.operation === "post" ? "Transaction posted" : "Transaction unposted",
      });
    }
  }
  if (item.low_balance && item.low_balance_threshold !== undefined) {
    events.push({ type: "lowBalanceAlert", accountId: item.account_id, currentBalance: money(item.available), threshold: money(item.low_balance_threshold) });
  }
  return events;
}

async function journalsById(ctx: CoreContext, ids: string[]): Promise<Map<string, Journal>> {
  const found = new Map<string, Journal>();
  for (let start = 0; start < ids.length; start += 100) {
    let keys: Record<string, unknown>[] | undefined = ids.slice(start, start + 100).map(journalKey);
    while (keys && keys.length > 0) {
      const reply: BatchGetCommandOutput = await ctx.db.doc.send(new BatchGetCommand({ RequestItems: { [ctx.db.table]: { Keys: keys } } }));
      for (const item of reply.Responses?.[ctx.db.table] ?? []) {
        const journal = Journal.parse(item);
        found.set(journal.id, journal);
      }
      keys = reply.UnprocessedKeys?.[ctx.db.table]?.Keys;
    }
  }
  return found;
}

/**
 * Events of an owner's ledger after a given event id (exclusive), oldest first; `limit` counts
 * balance versions, and all events of one version are always delivered together.
 */
export async function readLedgerFeed(ctx: CoreContext, ownerId: string, options: { after?: string; limit?: number } = {}) {
  let afterPosition: string | undefined;
  let afterIndex = -1;
  if (options.after) {
    const match = EVENT_ID.exec(options.after);
    if (!match) throw badRequest("Invalid event id", "invalid_event_id");
    afterPosition = match[1];
    afterIndex = Number(match[2]);
  }
  const reply = await ctx.db.doc.send(
    new QueryCommand({
      TableName: ctx.db.table,
      IndexName: "gsi2",
      // ">=": a client cut off between two events of one version resumes inside that version.
      KeyConditionExpression: afterPosition ? "gsi2pk = :pk AND gsi2sk >= :after" : "gsi2pk = :pk",
      ExpressionAttributeValues: { ":pk": ownerFeedPartition(ownerId), ...(afterPosition ? { ":after": afterPosition } : {}) },
      Limit: Math.min(Math.max(options.limit ?? 100, 1), 500),
    }),
  );
  const items = (reply.Items ?? []) as VersionItem[];
  const journals = await journalsById(ctx, [...new Set(items.map((item) => item.tx_id).filter((id): id is string => id !== null))]);
  const events: FeedEvent[] = items.flatMap((item) =>
    eventsOf(item, item.tx_id ? journals.get(item.tx_id) : undefined)
      .map((event, index) => ({ id: `${item.gsi2sk}|${index}`, at: item.committed_at, event, index }))
      .filter((entry) => item.gsi2sk !== afterPosition || entry.index > afterIndex)
      .map(({ index: _index, ...entry }) => entry),
  );
  return { events, has_more: reply.LastEvaluatedKey !== undefined };
}
