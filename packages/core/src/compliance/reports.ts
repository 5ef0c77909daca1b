import { chainsOf, getAccounts, type Account } from "../ledger/accounts";
import { versionAsOf } from "../ledger/balances";
import { figures, ZERO_TOTALS } from "../ledger/model";
import { CURRENCIES, toDecimalString, type Currency } from "../money/model";
import type { CoreContext } from "../shared/context";
import { casesFor } from "./cases";
import { ctrAggregates, sarFindings } from "./detect";
import { caseIdOf } from "./keys";
import {
  DEFAULT_TAX_RATE,
  parseTaxRate,
  SAR_RULE_LABELS,
  TAX_RATE_SCALE,
  type CtrReport,
  type PeriodQuery,
  type SarReport,
  type TaxReport,
} from "./model";
import { CTR_THRESHOLD_MINOR } from "./rules";
import {
  mapLimited,
  periodEndIso,
  periodStartIso,
  readCustomers,
  readDeposits,
  readPayouts,
  readRiskLevels,
  readScreeningHits,
} from "./sources";

/**
 * The three reports over a period of UTC days (docs/money-operations.md#compliance-reports): CTR
 * rows, SAR candidates with their cases, and the tax due on fee and FX revenue.
 */

const CURRENCY_LIST = Object.keys(CURRENCIES) as Currency[];
const header = (ctx: CoreContext, period: PeriodQuery) => ({
  from: period.from,
  to: period.to,
  generated_at: ctx.clock().toISOString(),
});

export async function ctrReport(ctx: CoreContext, period: PeriodQuery): Promise<CtrReport> {
  const rows = ctrAggregates(await readDeposits(ctx, period.from, period.to));
  const customers = await readCustomers(ctx, [...new Set(rows.map((row) => row.customerId))]);
  return {
    ...header(ctx, period),
    threshold: Object.fromEntries(
      CURRENCY_LIST.map((currency) => [currency, toDecimalString(CTR_THRESHOLD_MINOR[currency], currency)]),
    ),
    rows: rows.map((row) => ({
      customer: customers.get(row.customerId)!,
      day: row.day,
      currency: row.currency,
      total: toDecimalString(row.totalMinor, row.currency),
      total_minor: row.totalMinor,
      count: row.journalIds.length,
      journal_ids: row.journalIds,
    })),
  };
}

export async function sarReport(ctx: CoreContext, period: PeriodQuery): Promise<SarReport> {
  const [deposits, screening] = await Promise.all([
    readDeposits(ctx, period.from, period.to),
    readScreeningHits(ctx, period.from, period.to),
  ]);
  const depositors = [...new Set(deposits.map((deposit) => deposit.customerId))];
  const [payouts, riskOf] = await Promise.all([
    readPayouts(ctx, depositors, period.from, period.to),
    readRiskLevels(ctx, depositors),
  ]);
  const findings = sarFindings({ deposits, payouts, screening, riskOf });
  const [customers, cases] = await Promise.all([
    readCustomers(ctx, [...new Set(findings.map((finding) => finding.customerId))]),
    casesFor(ctx, findings),
  ]);
  return {
    ...header(ctx, period),
    candidates: findings.map((finding) => ({
      rule: finding.rule,
      rule_label: SAR_RULE_LABELS[finding.rule],
      customer: customers.get(finding.customerId)!,
      window: finding.window,
      sentence: finding.sentence,
      currency: finding.currency,
      total: toDecimalString(finding.totalMinor, finding.currency),
      total_minor: finding.totalMinor,
      journal_ids: finding.journalIds,
      payment_ids: finding.paymentIds,
      case: cases.get(caseIdOf(finding.rule, finding.customerId, finding.window))!,
    })),
  };
}

/** FX revenue's account, when the FX work has created it; a currency without one has none. */
export const fxRevenueAccountId = (currency: Currency) => `sys-fxrevenue-${currency.toLowerCase()}`;
export const feeRevenueAccountId = (currency: Currency) => `sys-fees-${currency.toLowerCase()}`;

/**
 * Posted revenue in the period per account, from each chain's versions at the period's two ends
 * (two single-item Queries per chain, all chains of all accounts through one bounded pool).
 * Revenue accounts receive on the debit side, as every system account that receives money does
 * (docs/payments-and-rails.md#payments: customer accounts are debit-normal mirrors), so revenue is
 * the growth of posted debits less posted credits.
 */
async function revenueByAccount(
  ctx: CoreContext,
  accounts: readonly Account[],
  beforeIso: string,
  endIso: string,
): Promise<Map<string, number>> {
  const chains = accounts.flatMap((account) => chainsOf(account).map((chain) => ({ account, chain })));
  const moved = await mapLimited(chains, 16, async ({ account, chain }) => {
    const [opening, closing] = await Promise.all([versionAsOf(ctx, chain, beforeIso), versionAsOf(ctx, chain, endIso)]);
    const growth = figures(closing ?? ZERO_TOTALS, "debit").balance - figures(opening ?? ZERO_TOTALS, "debit").balance;
    return { accountId: account.id, growth };
  });
  const revenue = new Map<string, number>();
  for (const { accountId, growth } of moved) revenue.set(accountId, (revenue.get(accountId) ?? 0) + growth);
  return revenue;
}

/** `amount` × rate (millionths), rounded half away from zero to the minor unit, exactly. */
export function taxOf(amountMinor: number, rateMillionths: number): number {
  const product = BigInt(amountMinor) * BigInt(rateMillionths);
  const scale = BigInt(TAX_RATE_SCALE);
  const half = scale / 2n;
  const rounded = product >= 0n ? (product + half) / scale : -((-product + half) / scale);
  return Number(rounded);
}

export async function taxReport(
  ctx: CoreContext,
  period: PeriodQuery,
  rate: string | number | undefined,
): Promise<TaxReport> {
  const rateMillionths = parseTaxRate(rate ?? DEFAULT_TAX_RATE)!;
  const beforeIso = new Date(Date.parse(periodStartIso(period.from)) - 1).toISOString();
  const endIso = periodEndIso(period.to);
  const accounts = await getAccounts(
    ctx,
    CURRENCY_LIST.flatMap((currency) => [feeRevenueAccountId(currency), fxRevenueAccountId(currency)]),
  );
  const revenue = await revenueByAccount(ctx, [...accounts.values()], beforeIso, endIso);
  const rows = CURRENCY_LIST.map((currency) => {
    const fee = revenue.get(feeRevenueAccountId(currency)) ?? 0;
    const fx = revenue.get(fxRevenueAccountId(currency)) ?? 0;
    const taxable = fee + fx;
    const due = taxOf(taxable, rateMillionths);
    const text = (minor: number) => toDecimalString(minor, currency);
    return {
      currency,
      fee_revenue: text(fee),
      fee_revenue_minor: fee,
      fx_revenue: text(fx),
      fx_revenue_minor: fx,
      taxable: text(taxable),
      taxable_minor: taxable,
      tax_due: text(due),
      tax_due_minor: due,
    };
  });
  const rateText = (rateMillionths / TAX_RATE_SCALE).toFixed(6).replace(/0+$/, "").replace(/\.$/, "");
  return { ...header(ctx, period), rate: rateText, rows };
}
