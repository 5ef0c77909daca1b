import { QueryCommand, ScanCommand } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "../shared/context";
import { badRequest } from "../shared/errors";
import { fromDecimalString, toDecimalString, type Currency } from "../money/model";
import { Account, getAccounts, listAccounts } from "./accounts";
import { balanceAsOf, currentBalance } from "./balances";
import { Journal } from "./journals";
import { loadJournal } from "./journal-reads";
import { REDACTED_ACCOUNT } from "./journal-view";
import { queryPage } from "../shared/pagination";
import { BALANCE_PREFIX, chainPartition, journalsByOwner } from "./keys";
import { cursorBinding } from "./history";
import { applyEntry, ZERO_TOTALS, type Totals } from "./model";

/** Every journal of an owner, oldest first. */
async function ownerJournals(ctx: CoreContext, ownerId: string): Promise<Journal[]> {
  const journals: Journal[] = [];
  let cursor: string | undefined;
  const partition = journalsByOwner(ownerId).gsi1pk;
  do {
    const page = await queryPage(
      ctx.db,
      {
        IndexName: "gsi1",
        KeyConditionExpression: "gsi1pk = :pk",
        ExpressionAttributeValues: { ":pk": partition },
        ConsistentRead: false,
      },
      ["pk", "sk", "gsi1pk", "gsi1sk"],
      { name: "gsi1pk", value: partition },
      cursorBinding(ctx, { route: "reports/owner-journals", owner: ownerId }),
      { limit: 200, offset: 0, cursor },
      (item) => Journal.parse(item),
    );
    journals.push(...page.items);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return journals.reverse();
}

/**
 * Journals another user owns that moved money into the owner's accounts: payments between users
 * (type "payment", the only journals with legs of two users). Found by the "create" versions they
 * left on the owner's chains, so a payee's balances replay exactly like the payer's.
 */
async function receivedJournals(ctx: CoreContext, accounts: Account[], ownerId: string): Promise<Journal[]> {
  const ids = new Set<string>();
  for (const account of accounts.filter((one) => one.kind === "customer")) {
    let start: Record<string, unknown> | undefined;
    do {
      const reply = await ctx.db.doc.send(
        new QueryCommand({
          TableName: ctx.db.table,
          KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
          FilterExpression: "operation = :create AND tx_type = :payment",
          ExpressionAttributeValues: {
            ":pk": chainPartition(account.id),
            ":prefix": BALANCE_PREFIX,
            ":create": "create",
            ":payment": "payment",
          },
          ExclusiveStartKey: start,
          ConsistentRead: true,
        }),
      );
      for (const item of reply.Items ?? []) if (typeof item.tx_id === "string") ids.add(item.tx_id);
      start = reply.LastEvaluatedKey;
    } while (start);
  }
  const journals = await Promise.all([...ids].map((id) => loadJournal(ctx, id)));
  return journals.filter((journal): journal is Journal => journal !== null && journal.owner_id !== ownerId);
}

/** The owner's journals and those of others that paid into the owner's accounts, oldest first. */
async function journalsTouching(ctx: CoreContext, ownerId: string, accounts: Account[]): Promise<Journal[]> {
  const [own, received] = await Promise.all([ownerJournals(ctx, ownerId), receivedJournals(ctx, accounts, ownerId)]);
  return [...own, ...received].sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
}

/** Every journal and account in the table: the whole-ledger view, for administrators. */
async function scanAll(ctx: CoreContext): Promise<{ journals: Journal[]; accounts: Account[] }> {
  const journals: Journal[] = [];
  const accounts: Account[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const reply = await ctx.db.doc.send(
      new ScanCommand({
        TableName: ctx.db.table,
        FilterExpression: "entity IN (:journal, :account)",
        ExpressionAttributeValues: { ":journal": "journal", ":account": "account" },
        ExclusiveStartKey: start,
        ConsistentRead: true,
      }),
    );
    for (const item of reply.Items ?? []) {
      if (item.entity === "journal") journals.push(Journal.parse(item));
      else accounts.push(Account.parse(item));
    }
    start = reply.LastEvaluatedKey;
  } while (start);
  return { journals, accounts };
}

/** The status a journal had at a moment, from its recorded history; null if it did not exist yet. */
export function statusAt(journal: Journal, at: string): Journal["status"] | null {
  let status: Journal["status"] | null = null;
  for (const record of journal.history) if (record.at <= at) status = record.status;
  return status;
}

/** Totals per account implied by the journals alone: the replay that balances must equal. */
export function replayTotals(journals: Journal[], at: string | null): Map<string, Totals> {
  const totals = new Map<string, Totals>();
  for (const journal of journals) {
    const status = at === null ? journal.status : statusAt(journal, at);
    // A voided journal (a released hold) leaves no totals behind.
    if (status === null || status === "voided") continue;
    for (const entry of journal.entries) {
      let current = totals.get(entry.account_id) ?? { ...ZERO_TOTALS };
      current = applyEntry(current, entry.side, entry.amount, "create");
      if (status === "posted") current = applyEntry(current, entry.side, entry.amount, "post");
      totals.set(entry.account_id, current);
    }
  }
  return totals;
}

export const sameTotals = (a: Totals, b: Totals) =>
  a.posted_debits === b.posted_debits &&
  a.posted_credits === b.posted_credits &&
  a.pending_debits === b.pending_debits &&
  a.pending_credits === b.pending_credits;

export interface TrialBalanceRow {
  account_id: string;
  account_name: string;
  account_type: string;
  kind: "customer" | "system" | "counterparty";
  currency: Currency;
  debit_balance: string;
  credit_balance: string;
  total_debits: string;
  total_credits: string;
  /** The account's recorded balance equals the replay of its journals. */
  is_balanced: boolean;
  as_of: string;
}

function row(
  account: Pick<Account, "id" | "name" | "type" | "currency">,
  kind: TrialBalanceRow["kind"],
  totals: Totals,
  replayed: Totals,
  asOf: string,
): TrialBalanceRow {
  const net = totals.posted_debits - totals.posted_credits;
  const money = (minor: number) => toDecimalString(minor, account.currency);
  return {
    account_id: account.id,
    account_name: account.name,
    account_type: account.type,
    kind,
    currency: account.currency,
    debit_balance: money(Math.max(net, 0)),
    credit_balance: money(Math.max(-net, 0)),
    total_debits: money(totals.posted_debits),
    total_credits: money(totals.posted_credits),
    is_balanced: sameTotals(
      { ...totals, pending_debits: 0, pending_credits: 0 },
      { ...replayed, pending_debits: 0, pending_credits: 0 },
    ),
    as_of: asOf,
  };
}

function currencyTotals(rows: TrialBalanceRow[]) {
  const sums = new Map<Currency, { debit: number; credit: number }>();
  for (const line of rows) {
    const sum = sums.get(line.currency) ?? { debit: 0, credit: 0 };
    const toMinor = (text: string) => fromDecimalString(text, line.currency);
    sum.debit += toMinor(line.debit_balance);
    sum.credit += toMinor(line.credit_balance);
    sums.set(line.currency, sum);
  }
  return [...sums].map(([currency, sum]) => ({
    currency,
    total_debit_balance: toDecimalString(sum.debit, currency),
    total_credit_balance: toDecimalString(sum.credit, currency),
    is_balanced: sum.debit === sum.credit,
  }));
}

function resolveAsOf(ctx: CoreContext, asOf: string | undefined): string {
  const now = ctx.clock();
  if (asOf === undefined) return now.toISOString();
  const moment = Date.parse(asOf);
  if (Number.isNaN(moment)) throw badRequest("as_of must be an ISO 8601 date-time", "invalid_as_of");
  return new Date(Math.min(moment, now.getTime())).toISOString();
}

/**
 * A customer's trial balance: their accounts, plus one counterparty line per system account for
 * the share of it their own journals moved, so that debits equal credits per currency.
 */
export async function trialBalance(ctx: CoreContext, ownerId: string, asOfInput?: string) {
  const asOf = resolveAsOf(ctx, asOfInput);
  const accounts = await listAccounts(ctx, ownerId);
  const journals = await journalsTouching(ctx, ownerId, accounts);
  const replayed = replayTotals(journals, asOf);
  const rows: TrialBalanceRow[] = [];
  for (const account of accounts) {
    const balance = await balanceAsOf(ctx, account, asOf);
    if (!balance) continue;
    rows.push(row(account, "customer", balance, replayed.get(account.id) ?? { ...ZERO_TOTALS }, asOf));
  }
  const own = new Set(accounts.map((account) => account.id));
  const counterpartyIds = [...replayed.keys()].filter((id) => !own.has(id));
  const counterparties = await getAccounts(ctx, counterpartyIds);
  // Other customers' accounts (the other side of a payment) are one redacted line per currency.
  const others = new Map<Currency, { account: Pick<Account, "id" | "name" | "type" | "currency">; totals: Totals }>();
  for (const id of counterpartyIds) {
    const account = counterparties.get(id);
    if (!account) continue;
    const totals = replayed.get(id)!;
    if (account.kind === "system") {
      rows.push(row(account, "counterparty", totals, totals, asOf));
      continue;
    }
    const line = others.get(account.currency) ?? {
      account: {
        id: REDACTED_ACCOUNT.account_id,
        name: REDACTED_ACCOUNT.account_name,
        type: "bank",
        currency: account.currency,
      },
      totals: { ...ZERO_TOTALS },
    };
    line.totals = {
      posted_debits: line.totals.posted_debits + totals.posted_debits,
      posted_credits: line.totals.posted_credits + totals.posted_credits,
      pending_debits: line.totals.pending_debits + totals.pending_debits,
      pending_credits: line.totals.pending_credits + totals.pending_credits,
    };
    others.set(account.currency, line);
  }
  for (const { account, totals } of others.values()) rows.push(row(account, "counterparty", totals, totals, asOf));
  return {
    as_of: asOf,
    accounts: rows,
    totals: currencyTotals(rows),
    is_balanced: currencyTotals(rows).every((total) => total.is_balanced) && rows.every((line) => line.is_balanced),
  };
}

export interface Drift {
  account_id: string;
  account_name: string;
  recorded: Totals;
  expected: Totals;
}

/** A journal whose debit legs do not add up to its credit legs. */
export function isUnbalanced(journal: Journal): boolean {
  let net = 0;
  for (const entry of journal.entries) net += entry.side === "debit" ? entry.amount : -entry.amount;
  return net !== 0;
}

/**
 * Recomputes every balance in scope from the journals and compares it with the recorded
 * version chains, in one call. Scope "owner": one customer's accounts, read through the owner's
 * own partitions (the user's GET /ledger/integrity). "ledger": every account, system accounts
 * included (sum of their shards), by a scan of the whole table: the reference the paged job
 * (integrity-steps.ts) is tested against, never run inside a request.
 */
export async function integrityCheck(ctx: CoreContext, scope: { ownerId: string } | "ledger") {
  const { journals, accounts } =
    scope === "ledger"
      ? await scanAll(ctx)
      : await listAccounts(ctx, scope.ownerId).then(async (accounts) => ({
          journals: await journalsTouching(ctx, scope.ownerId, accounts),
          accounts,
        }));
  const expected = replayTotals(journals, null);
  const drift: Drift[] = [];
  for (const account of accounts) {
    const balance = await currentBalance(ctx, account);
    const recorded: Totals = {
      posted_debits: balance.posted_debits,
      posted_credits: balance.posted_credits,
      pending_debits: balance.pending_debits,
      pending_credits: balance.pending_credits,
    };
    const want = expected.get(account.id) ?? { ...ZERO_TOTALS };
    if (!sameTotals(recorded, want))
      drift.push({ account_id: account.id, account_name: account.name, recorded, expected: want });
  }
  const unbalanced = journals.filter(isUnbalanced).map((journal) => journal.id);
  return {
    checked_at: ctx.clock().toISOString(),
    scope: scope === "ledger" ? "ledger" : "owner",
    accounts_checked: accounts.length,
    journals_checked: journals.length,
    drift,
    unbalanced_journals: unbalanced,
    ok: drift.length === 0 && unbalanced.length === 0,
  };
}
