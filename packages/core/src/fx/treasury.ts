import type { CoreContext } from "../shared/context";
import { queryAll } from "../shared/dynamo";
import { toDecimalString, type Currency } from "../money/model";
import { chainsOf, getAccounts, systemAccountId, type Account } from "../ledger/accounts";
import { currentBalance } from "../ledger/balances";
import { balanceByTimePartition } from "../ledger/keys";
import type { VersionItem } from "../ledger/versions";
import { FX_CURRENCIES, type PositionReply, type RevenueDay } from "./model";

/**
 * Treasury reads (admin): the FX position per currency and the FX revenue per day, both from the
 * system accounts' balance chains, as the ledger's own analytics read them.
 */

async function fxAccounts(ctx: CoreContext, code: "fx" | "fxrevenue"): Promise<Map<Currency, Account>> {
  const ids = FX_CURRENCIES.map((currency) => systemAccountId(code, currency));
  const found = await getAccounts(ctx, ids);
  return new Map(
    FX_CURRENCIES.flatMap((currency) => {
      const account = found.get(systemAccountId(code, currency));
      return account ? [[currency, account] as const] : [];
    }),
  );
}

/** How many chain reads run at once (a system account has many shards). */
const READ_CONCURRENCY = 16;

async function inBatches<T, R>(items: T[], size: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += size)
    results.push(...(await Promise.all(items.slice(start, start + size).map(run))));
  return results;
}

/**
 * Per currency: the FX position account's posted balance (an asset: what conversions left the
 * platform holding, negative where it paid out more than it took in) and the FX revenue earned.
 * Revenue legs take the debit side (as a payment's fee legs do), so revenue is the debits posted.
 */
export async function fxPositions(ctx: CoreContext): Promise<PositionReply[]> {
  const [positions, revenues] = await Promise.all([fxAccounts(ctx, "fx"), fxAccounts(ctx, "fxrevenue")]);
  // One account at a time: each balance already reads every shard of its account at once.
  return inBatches([...FX_CURRENCIES], 1, async (currency) => {
    const position = positions.get(currency);
    const revenue = revenues.get(currency);
    const held = position ? await currentBalance(ctx, position) : null;
    const earned = revenue ? await currentBalance(ctx, revenue) : null;
    const earnedMinor = earned ? earned.posted_debits - earned.posted_credits : 0;
    const pending = held ? held.pending_debits - held.pending_credits : 0;
    return {
      currency,
      position: toDecimalString(held?.balance ?? 0, currency),
      position_minor: held?.balance ?? 0,
      pending: toDecimalString(pending, currency),
      revenue: toDecimalString(earnedMinor, currency),
      revenue_minor: earnedMinor,
    };
  });
}

/**
 * FX revenue per UTC day and currency over the last `days` days, oldest first: the spread legs
 * posted that day less those unposted, from the FX revenue account's versions (every shard).
 */
export async function fxRevenueByDay(ctx: CoreContext, days: number): Promise<RevenueDay[]> {
  const now = ctx.clock();
  const dates = Array.from({ length: days }, (_, index) =>
    new Date(now.getTime() - (days - 1 - index) * 86_400_000).toISOString().slice(0, 10),
  );
  const since = `${dates[0]}T00:00:00.000Z`;
  const revenues = await fxAccounts(ctx, "fxrevenue");
  const chains = [...revenues.values()].flatMap((account) =>
    chainsOf(account).map((chain) => ({ chain, currency: account.currency })),
  );
  const perChain = await inBatches(chains, READ_CONCURRENCY, async ({ chain, currency }) => {
    const items = await queryAll(ctx.db, {
      IndexName: "gsi1",
      KeyConditionExpression: "gsi1pk = :pk AND gsi1sk >= :since",
      ExpressionAttributeValues: { ":pk": balanceByTimePartition(chain), ":since": since },
    });
    return items.map((item) => ({ version: item as unknown as VersionItem, currency }));
  });
  const totals = new Map<string, { revenue: number; conversions: number }>();
  for (const { version, currency } of perChain.flat()) {
    if (version.tx_type !== "fx" || version.side !== "debit") continue;
    const sign = version.operation === "post" ? 1 : version.operation === "unpost" ? -1 : 0;
    if (sign === 0) continue;
    const key = `${version.committed_at.slice(0, 10)}#${currency}`;
    const day = totals.get(key) ?? { revenue: 0, conversions: 0 };
    day.revenue += sign * version.amount;
    day.conversions += sign;
    totals.set(key, day);
  }
  return dates.flatMap((date) =>
    FX_CURRENCIES.map((currency) => {
      const day = totals.get(`${date}#${currency}`) ?? { revenue: 0, conversions: 0 };
      return {
        date,
        currency,
        revenue: toDecimalString(day.revenue, currency),
        revenue_minor: day.revenue,
        conversions: day.conversions,
      };
    }),
  );
}
