import { BatchGetCommand, QueryCommand, type BatchGetCommandOutput } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "../shared/context";
import { toDecimalString } from "../money/model";
import { FeedReader, feedSettings, type FeedSource, type OutboxItem } from "../events/feed";
import { getAccounts, type Account } from "./accounts";
import { balancesAt } from "./balances";
import { ProcessCache } from "./cache";
import type { VersionItem } from "./versions";
import { unfoldVersion, type FoldedVersionItem } from "./folded-versions";
import { Journal } from "./journals";
import { journalReply, visibleEntry } from "./journal-view";
import { balanceVersionKey, chainPartition, journalKey, ownerFeedPartitions, SYSTEM_OWNER } from "./keys";
import { holderDirection, type LedgerEventName, type LedgerStreamEvent } from "./model";

/**
 * The ledger's outbox, read side. Every committed balance version sits in its owner's feed index
 * (gsi2, by commit time); the stream events of docs/product/ledger-workspace.md#live-updates are
 * derived from those items and the (immutable) entries of their journals, so only committed changes
 * are ever announced. Each balance chain is a stream whose versions are its gap-free sequence (see
 * events/feed.ts).
 */
/** An event as the server builds it (its schema, shared with the browser, is in model.ts). */
export type LedgerEvent = LedgerStreamEvent;
export type { LedgerEventName };

/** An event and what the stream's filters look at: the accounts it concerns, its transaction status. */
export interface LedgerFeedEvent {
  event: LedgerEvent;
  accounts: string[];
  transactionStatus: "draft" | "posted" | "voided" | null;
}

const JOURNAL_EVENTS = new Set<LedgerEventName>(["transactionCreated", "transactionStatusUpdate"]);
export const isTransactionEvent = (event: LedgerEvent) => JOURNAL_EVENTS.has(event.type);

/** The journal-level event of an operation is announced once, by the version of its first leg. */
function announcesJournal(item: VersionItem, journal: Journal): boolean {
  return journal.entries[0]?.account_id === item.account_id;
}

export function eventsOf(item: VersionItem, journal: Journal | undefined, accountName: string): LedgerFeedEvent[] {
  const money = (minor: number) => toDecimalString(minor, item.currency);
  const about = (event: LedgerEvent): LedgerFeedEvent => ({
    event,
    accounts: [item.account_id],
    transactionStatus: null,
  });
  switch (item.operation) {
    case "open":
    case "settings":
      return [];
    case "lock":
    case "unlock":
      return [
        about({
          type: item.operation === "lock" ? "accountLocked" : "accountUnlocked",
          accountId: item.account_id,
          accountName,
          reason: item.reason ?? "",
        }),
      ];
    case "reconcile": {
      const figures = item.reconciliation;
      if (!figures) return [];
      return [
        about({
          type: "reconciliationResult",
          accountId: item.account_id,
          accountName,
          reconciled: figures.reconciled,
          variance: money(figures.variance),
          expectedBalance: money(figures.expected),
          ledgerBalance: money(figures.ledger),
          currency: item.currency,
        }),
      ];
    }
  }
  const operation = item.operation;
  if (!item.tx_id || !item.side) return [];
  // Another customer's journal on this owner's account (a payment to them): the payee hears of it
  // when the money arrives, never while it is held (a payment held for review is the payer's).
  // The platform's own accounts (funding, fees, clearing) carry every customer's journals and
  // are no payee: their feed announces each change as the journal's owner's does.
  const fromAnotherCustomer =
    journal !== undefined && item.owner_id !== SYSTEM_OWNER && journal.owner_id !== item.owner_id;
  if (fromAnotherCustomer && operation !== "post") return [];
  const events: LedgerFeedEvent[] = [
    about({
      type: "balanceUpdate",
      accountId: item.account_id,
      accountName,
      balance: money(item.balance),
      available: money(item.available),
      changeAmount: money(item.amount),
      changeType: holderDirection(item.side, item.normal_side, operation),
      operation,
      currency: item.currency,
      transactionId: item.tx_id,
      ...(fromAnotherCustomer ? { counterparty: journalReply(journal, { ownerId: item.owner_id }).counterparty } : {}),
    }),
  ];
  if (fromAnotherCustomer) {
    const payer = journalReply(journal, { ownerId: item.owner_id }).counterparty;
    events.push({
      event: {
        type: "transactionStatusUpdate",
        transactionId: journal.id,
        status: "posted",
        message: `Received ${money(item.amount)} ${item.currency} from ${payer}`,
        counterparty: payer,
      },
      accounts: [item.account_id],
      transactionStatus: "posted",
    });
  } else if (journal && announcesJournal(item, journal)) {
    const visible = journal.entries.map((entry) =>
      visibleEntry(journal, entry, { ownerId: item.owner_id, accountIds: new Set([item.account_id]) }),
    );
    const accounts = visible.map((entry) => entry.account_id);
    if (operation === "create") {
      events.push({
        event: {
          type: "transactionCreated",
          transactionId: journal.id,
          amount: money(journal.total_amount),
          status: "draft",
          // Seen by the owner of the announcing version: another customer's account is redacted.
          fromAccountId: visible.find((entry) => entry.side === "credit")?.account_id ?? null,
          toAccountId: visible.find((entry) => entry.side === "debit")?.account_id ?? null,
          currency: journal.currency,
          description: journal.description,
        },
        accounts,
        transactionStatus: "draft",
      });
    } else {
      const status = operation === "post" ? "posted" : operation === "void" ? "voided" : "draft";
      const message =
        operation === "post"
          ? "Transaction posted"
          : operation === "void"
            ? "Transaction voided"
            : "Transaction unposted";
      events.push({
        event: { type: "transactionStatusUpdate", transactionId: journal.id, status, message },
        accounts,
        transactionStatus: status,
      });
    }
  }
  if (item.low_balance && item.low_balance_threshold !== undefined && item.low_balance_threshold !== null) {
    events.push(
      about({
        type: "lowBalanceAlert",
        accountId: item.account_id,
        accountName,
        currentBalance: money(item.available),
        threshold: money(item.low_balance_threshold),
        currency: item.currency,
      }),
    );
  }
  return events;
}

async function journalsById(ctx: CoreContext, ids: string[]): Promise<Map<string, Journal>> {
  const found = new Map<string, Journal>();
  for (let start = 0; start < ids.length; start += 100) {
    let keys: Record<string, unknown>[] | undefined = ids.slice(start, start + 100).map(journalKey);
    while (keys && keys.length > 0) {
      const reply: BatchGetCommandOutput = await ctx.db.doc.send(
        new BatchGetCommand({ RequestItems: { [ctx.db.table]: { Keys: keys } } }),
      );
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
 * What an item announces never changes (balance versions and the journal fields events use are
 * immutable), so each process decodes an item once for all its readers of that feed.
 */
const decodedEvents = new ProcessCache<Promise<LedgerFeedEvent[]>>(60_000, 20_000);

async function decodeVersions(ctx: CoreContext, versions: VersionItem[]): Promise<Map<string, LedgerFeedEvent[]>> {
  // A batch's folded version stands for several legs: each announces as a version of its own would.
  const journalIds = [
    ...new Set(
      versions
        .flatMap(unfoldVersion)
        .map((item) => item.tx_id)
        .filter((id): id is string => id !== null),
    ),
  ];
  const [journals, accounts] = await Promise.all([
    journalsById(ctx, journalIds),
    getAccounts(ctx, [...new Set(versions.map((item) => item.account_id))]),
  ]);
  const accountWide = await accountWideFigures(ctx, versions, accounts);
  const eventsOfVersion = (item: VersionItem) =>
    unfoldVersion(item).flatMap((view) =>
      eventsOf(
        { ...view, ...accountWide.get(item.pk + item.sk) },
        view.tx_id ? journals.get(view.tx_id) : undefined,
        accounts.get(item.account_id)?.name ?? item.account_id,
      ),
    );
  return new Map(versions.map((item) => [item.pk + item.sk, eventsOfVersion(item)]));
}

/**
 * A version of a customer account with credit shards holds one chain's figures, not the account's:
 * its events carry the account's balance as of the version's commit instant instead (one query per
 * chain). The feed serves an item only once its settle window has passed, so every version committed
 * up to that instant is normally there and every reader computes the same figures; a write slower
 * than the settle window, which the feed's lookback exists for, would be missing from them
 * (docs/feeds.md). Each process decodes an item once. Several legs folded into one version all
 * carry the figures after the whole version.
 */
async function accountWideFigures(
  ctx: CoreContext,
  versions: VersionItem[],
  accounts: Map<string, Account>,
): Promise<Map<string, { balance: number; available: number }>> {
  const sharded = new Map<string, VersionItem[]>();
  for (const item of versions) {
    const movesMoney = item.tx_id !== null || (item as FoldedVersionItem).changes !== undefined;
    const onePartOfMany = item.chain !== item.account_id || (item.credit_shards ?? 0) > 0;
    if (item.owner_id === SYSTEM_OWNER || !movesMoney || !onePartOfMany) continue;
    sharded.set(item.account_id, [...(sharded.get(item.account_id) ?? []), item]);
  }
  const figures = new Map<string, { balance: number; available: number }>();
  // One account at a time: each is a windowed query per chain (33), all at once.
  for (const [accountId, items] of sharded) {
    const account = accounts.get(accountId);
    if (!account) continue;
    const balances = await balancesAt(
      ctx,
      account,
      items.map((item) => item.committed_at),
    );
    for (const item of items) {
      const balance = balances.get(item.committed_at);
      if (balance) figures.set(item.pk + item.sk, { balance: balance.balance, available: balance.available });
    }
  }
  return figures;
}

/** The feed of one owner's accounts (an admin may read any owner's, including "system"). */
export function ledgerFeedSource(ctx: CoreContext, ownerId: string): FeedSource<LedgerFeedEvent> {
  return {
    feed: "ledger",
    partitions: ownerFeedPartitions(ownerId),
    streamOf: (item) => {
      const version = item as unknown as VersionItem;
      return { stream: version.chain, seq: version.version };
    },
    range: async (chain, from, to) => {
      const reply = await ctx.db.doc.send(
        new QueryCommand({
          TableName: ctx.db.table,
          KeyConditionExpression: "pk = :pk AND sk BETWEEN :from AND :to",
          ExpressionAttributeValues: {
            ":pk": chainPartition(chain),
            ":from": balanceVersionKey(chain, from).sk,
            ":to": balanceVersionKey(chain, to).sk,
          },
          ConsistentRead: true,
        }),
      );
      return (reply.Items ?? []) as OutboxItem[];
    },
    decode: async (items) => {
      const versions = items as unknown as VersionItem[];
      const keyOf = (item: VersionItem) => item.pk + item.sk;
      const decoding = new Map(versions.map((item) => [keyOf(item), decodedEvents.get(ctx, keyOf(item))]));
      const missing = versions.filter((item) => !decoding.get(keyOf(item)));
      if (missing.length > 0) {
        // Readers of one feed in this process wake together: the first decodes, the others await it.
        const batch = decodeVersions(ctx, missing);
        for (const item of missing) {
          const events = batch.then((decoded) => decoded.get(keyOf(item)) ?? []);
          decoding.set(keyOf(item), events);
          decodedEvents.set(ctx, keyOf(item), events);
        }
        batch.catch(() => {
          for (const item of missing) decodedEvents.delete(ctx, keyOf(item));
        });
      }
      return Promise.all(versions.map((item) => decoding.get(keyOf(item))!));
    },
  };
}

export const ledgerFeedReader = (ctx: CoreContext, ownerId: string) =>
  new FeedReader(ctx, ledgerFeedSource(ctx, ownerId), feedSettings(ctx));

/** One SSE message's data for a decoded event: the event's fields and its commit time (`at`). */
export function presentLedgerEvent(entry: LedgerFeedEvent, at: string) {
  return { ...entry.event, at };
}
