import { queryAll } from "../shared/dynamo";
import type { CoreContext } from "../shared/context";
import { badRequest } from "../shared/errors";
import { toDecimalString, type Currency } from "../money/model";
import { chainsOf, listAccounts, type Account } from "./accounts";
import { versionAsOf } from "./balances";
import type { VersionItem } from "./versions";
import type { VersionChange } from "./folded-versions";
import { balanceByTimePartition } from "./keys";
import { figures, ZERO_TOTALS, type Side, type Totals } from "./model";

/**
 * Balance analytics: per account and per currency, a daily series (UTC days) of end-of-day
 * figures and of the day's flows, built from the balance version chains. Each version already
 * holds the totals after its change, so an end-of-day figure is the last version of that day,
 * and the flows come from the change each version records (operation, side, amount).
 *
 * Flows, in normal-side terms (an entry on the account's normal side is an inflow):
 * - inflow_posted / outflow_posted: amounts posted that day less amounts unposted that day, so
 *   that for every day  balance(d) - balance(d - 1) = inflow_posted(d) - outflow_posted(d);
 * - inflow_pending / outflow_pending: amounts of the entries created that day (money initiated
 *   that day; it stays pending until approved);
 * - transactions: how many entries were created that day.
 */

export const ANALYTICS_DEFAULT_DAYS = 30;
export const ANALYTICS_MAX_DAYS = 365;
export const ANALYTICS_DAYS_MESSAGE = `days must be a whole number from 1 to ${ANALYTICS_MAX_DAYS}`;

/** `?days=` of the analytics route: absent means 30; anything but 1..365 is a clear 400. */
export function parseAnalyticsDays(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return ANALYTICS_DEFAULT_DAYS;
  const text = value.trim();
  if (!/^\d{1,4}$/.test(text)) throw badRequest(ANALYTICS_DAYS_MESSAGE, "invalid_days");
  const days = Number(text);
  if (days < 1 || days > ANALYTICS_MAX_DAYS) throw badRequest(ANALYTICS_DAYS_MESSAGE, "invalid_days");
  return days;
}

/** What the builder needs of a version item (a batch's folded version lists its legs in `changes`). */
export type SeriesVersion = Totals &
  Pick<VersionItem, "committed_at" | "side" | "amount" | "operation"> & {
    changes?: Pick<VersionChange, "side" | "amount">[];
  };

export interface Flows {
  inflow_posted: number;
  outflow_posted: number;
  inflow_pending: number;
  outflow_pending: number;
  transactions: number;
}

const ZERO_FLOWS: Flows = {
  inflow_posted: 0,
  outflow_posted: 0,
  inflow_pending: 0,
  outflow_pending: 0,
  transactions: 0,
};

/** One day: the totals at its end and the flows during it, all in minor units. */
export interface DayTotals extends Totals, Flows {
  date: string;
}

/** The figures a client shows for a day (normal-side balance, available, pending in and out). */
export interface DayFigures extends Flows {
  date: string;
  balance: number;
  available: number;
  pending_in: number;
  pending_out: number;
}

const DAY_MS = 86_400_000;
const dayOf = (iso: string) => iso.slice(0, 10);

/** The `days` UTC dates ending with today's, oldest first ("2026-03-01", ...). */
export function dayWindow(now: Date, days: number): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, index) =>
    new Date(today - (days - 1 - index) * DAY_MS).toISOString().slice(0, 10),
  );
}

const totalsOf = (item: Totals): Totals => ({
  posted_debits: item.posted_debits,
  posted_credits: item.posted_credits,
  pending_debits: item.pending_debits,
  pending_credits: item.pending_credits,
});

function addFlow(flows: Flows, version: SeriesVersion, normal: Side): void {
  // Account opening and marker versions (lock, reconcile, settings) move no money.
  if (version.operation !== "create" && version.operation !== "post" && version.operation !== "unpost") return;
  for (const change of version.changes ?? [version]) {
    if (change.side === null || change.amount <= 0) continue;
    const inflow = change.side === normal;
    if (version.operation === "create") {
      if (inflow) flows.inflow_pending += change.amount;
      else flows.outflow_pending += change.amount;
      flows.transactions += 1;
    } else {
      const signed = version.operation === "post" ? change.amount : -change.amount;
      if (inflow) flows.inflow_posted += signed;
      else flows.outflow_posted += signed;
    }
  }
}

/**
 * Daily totals of one balance chain over `dates` (consecutive UTC days, oldest first).
 * `baseline` is the version in force when the first day began (null: the chain did not exist);
 * `versions` are the versions committed since, in any order. A version committed after the
 * last day (a clock a few milliseconds ahead) counts on the last day.
 */
export function chainSeries(
  baseline: SeriesVersion | null,
  versions: readonly SeriesVersion[],
  dates: readonly string[],
  normal: Side,
): DayTotals[] {
  const first = dates[0];
  const ordered = versions
    .filter((version) => first === undefined || dayOf(version.committed_at) >= first)
    .sort((a, b) => (a.committed_at < b.committed_at ? -1 : a.committed_at > b.committed_at ? 1 : 0));
  let totals = baseline ? totalsOf(baseline) : { ...ZERO_TOTALS };
  let next = 0;
  return dates.map((date, index) => {
    const last = index === dates.length - 1;
    const flows = { ...ZERO_FLOWS };
    while (next < ordered.length && (last || dayOf(ordered[next]!.committed_at) <= date)) {
      const version = ordered[next]!;
      totals = totalsOf(version);
      addFlow(flows, version, normal);
      next += 1;
    }
    return { date, ...totals, ...flows };
  });
}

/** Element-wise sum of series over the same dates (the shards of a chain, or several accounts). */
export function sumSeries<T extends Totals & Flows & { date: string }>(
  series: readonly T[][],
  dates: readonly string[],
): DayTotals[] {
  return dates.map((date, index) => {
    const sum: DayTotals = { date, ...ZERO_TOTALS, ...ZERO_FLOWS };
    for (const one of series) {
      const day = one[index];
      if (!day) continue;
      sum.posted_debits += day.posted_debits;
      sum.posted_credits += day.posted_credits;
      sum.pending_debits += day.pending_debits;
      sum.pending_credits += day.pending_credits;
      sum.inflow_posted += day.inflow_posted;
      sum.outflow_posted += day.outflow_posted;
      sum.inflow_pending += day.inflow_pending;
      sum.outflow_pending += day.outflow_pending;
      sum.transactions += day.transactions;
    }
    return sum;
  });
}

/** Normal-side figures of a day, as the balance endpoint computes them. */
export function dayFigures(day: DayTotals, normal: Side): DayFigures {
  const { balance, available, pending_in, pending_out } = figures(day, normal);
  return {
    date: day.date,
    balance,
    available,
    pending_in,
    pending_out,
    inflow_posted: day.inflow_posted,
    outflow_posted: day.outflow_posted,
    inflow_pending: day.inflow_pending,
    outflow_pending: day.outflow_pending,
    transactions: day.transactions,
  };
}

const MONEY_FIELDS = [
  "balance",
  "available",
  "pending_in",
  "pending_out",
  "inflow_posted",
  "outflow_posted",
  "inflow_pending",
  "outflow_pending",
] as const;
type MoneyField = (typeof MONEY_FIELDS)[number];

export type DayReply = { date: string; transactions: number } & { [K in MoneyField]: string } & {
  [K in `${MoneyField}_minor`]: number;
};

/** Decimal strings at the edge, minor units beside them, as every ledger reply. */
export function dayReply(day: DayFigures, currency: Currency): DayReply {
  const reply: Record<string, string | number> = { date: day.date, transactions: day.transactions };
  for (const field of MONEY_FIELDS) {
    reply[field] = toDecimalString(day[field], currency);
    reply[`${field}_minor`] = day[field];
  }
  return reply as DayReply;
}

/** Several accounts of one currency: their figures added up day by day. */
export function sumFigures(series: readonly DayFigures[][], dates: readonly string[]): DayFigures[] {
  return dates.map((date, index) => {
    const sum: DayFigures = { date, balance: 0, available: 0, pending_in: 0, pending_out: 0, ...ZERO_FLOWS };
    for (const one of series) {
      const day = one[index];
      if (!day) continue;
      for (const field of MONEY_FIELDS) sum[field] += day[field];
      sum.transactions += day.transactions;
    }
    return sum;
  });
}

// ---------------------------------------------------------------------------------------------
// Store read

/** Versions of a chain committed at or after `fromIso`, by the chain's by-time index. */
async function versionsSince(ctx: CoreContext, chain: string, fromIso: string): Promise<VersionItem[]> {
  const items = await queryAll(ctx.db, {
    IndexName: "gsi1",
    KeyConditionExpression: "gsi1pk = :pk AND gsi1sk >= :from",
    ExpressionAttributeValues: { ":pk": balanceByTimePartition(chain), ":from": fromIso },
  });
  return items as unknown as VersionItem[];
}

async function accountDays(
  ctx: CoreContext,
  account: Account,
  dates: readonly string[],
): Promise<{ opening: Totals; days: DayTotals[] }> {
  const fromIso = `${dates[0]}T00:00:00.000Z`;
  const beforeIso = new Date(Date.parse(fromIso) - 1).toISOString();
  const perChain = await Promise.all(
    chainsOf(account).map(async (chain) => {
      const [baseline, versions] = await Promise.all([
        versionAsOf(ctx, chain, beforeIso),
        versionsSince(ctx, chain, fromIso),
      ]);
      return { baseline, days: chainSeries(baseline, versions, dates, account.normal_side) };
    }),
  );
  const opening = perChain.reduce<Totals>(
    (sum, { baseline }) =>
      baseline
        ? {
            posted_debits: sum.posted_debits + baseline.posted_debits,
            posted_credits: sum.posted_credits + baseline.posted_credits,
            pending_debits: sum.pending_debits + baseline.pending_debits,
            pending_credits: sum.pending_credits + baseline.pending_credits,
          }
        : sum,
    { ...ZERO_TOTALS },
  );
  return {
    opening,
    days: sumSeries(
      perChain.map((chain) => chain.days),
      dates,
    ),
  };
}

const openingReply = (balance: number, currency: Currency) => ({
  opening_balance: toDecimalString(balance, currency),
  opening_balance_minor: balance,
});

/**
 * The caller's analytics over the last `days` UTC days (today included): one series per account
 * and one per currency (the accounts of that currency added up, normal-side figures).
 */
export async function ledgerAnalytics(ctx: CoreContext, ownerId: string, days: number) {
  const dates = dayWindow(ctx.clock(), days);
  const accounts = (await listAccounts(ctx, ownerId)).sort(
    (a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id),
  );
  const perAccount = await Promise.all(
    accounts.map(async (account) => {
      const { opening, days: totals } = await accountDays(ctx, account, dates);
      return {
        account,
        opening: figures(opening, account.normal_side).balance,
        series: totals.map((day) => dayFigures(day, account.normal_side)),
      };
    }),
  );
  const currencies = [...new Set(accounts.map((account) => account.currency))].sort();
  return {
    days,
    from: dates[0]!,
    to: dates[dates.length - 1]!,
    timezone: "UTC",
    generated_at: ctx.clock().toISOString(),
    accounts: perAccount.map(({ account, opening, series }) => ({
      account_id: account.id,
      name: account.name,
      account_number: account.account_number,
      type: account.type,
      currency: account.currency,
      normal_side: account.normal_side,
      status: account.status,
      created_at: account.created_at,
      ...openingReply(opening, account.currency),
      series: series.map((day) => dayReply(day, account.currency)),
    })),
    currencies: currencies.map((currency) => {
      const members = perAccount.filter(({ account }) => account.currency === currency);
      return {
        currency,
        account_count: members.length,
        ...openingReply(
          members.reduce((sum, member) => sum + member.opening, 0),
          currency,
        ),
        series: sumFigures(
          members.map((member) => member.series),
          dates,
        ).map((day) => dayReply(day, currency)),
      };
    }),
  };
}
export type LedgerAnalytics = Awaited<ReturnType<typeof ledgerAnalytics>>;
