import { toDecimalString, type Currency } from "../money/model";
import type { SarRule } from "./model";
import { CTR_THRESHOLD_MINOR, SAR_RULES } from "./rules";

/**
 * The report rules as pure functions over facts read from the ledger, payments and KYC
 * (sources.ts reads them): the CTR aggregation and the four suspicious-activity rules. The numbers
 * they compare against are data (rules.ts). Everything here is by UTC day.
 */

/** A posted deposit: cash in. */
export interface DepositFact {
  journalId: string;
  customerId: string;
  currency: Currency;
  amountMinor: number;
  postedAt: string;
}

/** A payment out of a customer's account that was not refused or failed. */
export interface PayoutFact {
  paymentId: string;
  customerId: string;
  currency: Currency;
  amountMinor: number;
  createdAt: string;
}

/** A payment whose payee matched a sanctions list (held for review, released or refused since). */
export interface ScreeningFact extends PayoutFact {
  status: string;
  matchedEntry: string;
}

export type RiskLevelOf = (customerId: string) => "Low" | "Medium" | "High" | null;

export interface CtrAggregate {
  customerId: string;
  day: string;
  currency: Currency;
  totalMinor: number;
  journalIds: string[];
}

export interface SarFinding {
  rule: SarRule;
  customerId: string;
  /** The case's window: a day or month, with the currency ("2026-11-27 USD"). */
  window: string;
  currency: Currency;
  totalMinor: number;
  journalIds: string[];
  paymentIds: string[];
  sentence: string;
}

const HOUR_MS = 3_600_000;
const dayOf = (iso: string) => iso.slice(0, 10);
const monthOf = (iso: string) => iso.slice(0, 7);
const byTime =
  <T>(at: (item: T) => string) =>
  (a: T, b: T) =>
    at(a).localeCompare(at(b));
const sum = (amounts: readonly number[]) => amounts.reduce((total, amount) => total + amount, 0);
const money = (minor: number, currency: Currency) => `${toDecimalString(minor, currency)} ${currency}`;

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const name = key(item);
    const group = groups.get(name);
    if (group) group.push(item);
    else groups.set(name, [item]);
  }
  return groups;
}

/** Cash in per customer, UTC day and currency, where the day's total reaches the threshold. */
export function ctrAggregates(
  deposits: readonly DepositFact[],
  thresholds: Record<Currency, number> = CTR_THRESHOLD_MINOR,
): CtrAggregate[] {
  const rows: CtrAggregate[] = [];
  for (const group of groupBy(deposits, (d) => `${d.customerId}|${dayOf(d.postedAt)}|${d.currency}`).values()) {
    const first = group[0]!;
    const totalMinor = sum(group.map((d) => d.amountMinor));
    if (totalMinor < thresholds[first.currency]) continue;
    rows.push({
      customerId: first.customerId,
      day: dayOf(first.postedAt),
      currency: first.currency,
      totalMinor,
      journalIds: [...group].sort(byTime((d) => d.postedAt)).map((d) => d.journalId),
    });
  }
  return rows.sort(
    (a, b) =>
      a.day.localeCompare(b.day) || a.customerId.localeCompare(b.customerId) || a.currency.localeCompare(b.currency),
  );
}

/** Several deposits each just under the threshold within a short window, per customer and currency. */
export function structuring(
  deposits: readonly DepositFact[],
  thresholds: Record<Currency, number> = CTR_THRESHOLD_MINOR,
): SarFinding[] {
  const rule = SAR_RULES.structuring;
  const findings: SarFinding[] = [];
  const near = deposits.filter((d) => {
    const threshold = thresholds[d.currency];
    return d.amountMinor < threshold && d.amountMinor >= Math.ceil(threshold * rule.nearThresholdShare);
  });
  for (const group of groupBy(near, (d) => `${d.customerId}|${d.currency}`).values()) {
    const ordered = [...group].sort(byTime((d) => d.postedAt));
    let start = 0;
    while (start < ordered.length) {
      const limit = Date.parse(ordered[start]!.postedAt) + rule.windowHours * HOUR_MS;
      let end = start;
      while (end + 1 < ordered.length && Date.parse(ordered[end + 1]!.postedAt) <= limit) end += 1;
      const run = ordered.slice(start, end + 1);
      if (run.length < rule.minDeposits) {
        start += 1;
        continue;
      }
      const first = run[0]!;
      const totalMinor = sum(run.map((d) => d.amountMinor));
      findings.push({
        rule: "structuring",
        customerId: first.customerId,
        window: `${dayOf(first.postedAt)} ${first.currency}`,
        currency: first.currency,
        totalMinor,
        journalIds: run.map((d) => d.journalId),
        paymentIds: [],
        sentence:
          `${run.length} deposits between ${money(Math.min(...run.map((d) => d.amountMinor)), first.currency)} and ` +
          `${money(Math.max(...run.map((d) => d.amountMinor)), first.currency)}, each just under the ` +
          `${money(thresholds[first.currency], first.currency)} reporting threshold, within ${rule.windowHours} hours ` +
          `(${money(totalMinor, first.currency)} in all).`,
      });
      start = end + 1;
    }
  }
  return findings;
}

/** Deposits of which most left again in payments soon after, one finding per customer, day and currency. */
export function rapidMovement(
  deposits: readonly DepositFact[],
  payouts: readonly PayoutFact[],
  thresholds: Record<Currency, number> = CTR_THRESHOLD_MINOR,
): SarFinding[] {
  const rule = SAR_RULES.rapid_movement;
  const payoutsOf = groupBy(payouts, (p) => `${p.customerId}|${p.currency}`);
  const byWindow = new Map<string, { deposit: DepositFact[]; out: PayoutFact[] }>();
  for (const deposit of deposits) {
    if (deposit.amountMinor < thresholds[deposit.currency] * rule.minDepositShare) continue;
    const start = Date.parse(deposit.postedAt);
    const leaving = (payoutsOf.get(`${deposit.customerId}|${deposit.currency}`) ?? []).filter((p) => {
      const at = Date.parse(p.createdAt);
      return at >= start && at <= start + rule.windowHours * HOUR_MS;
    });
    if (sum(leaving.map((p) => p.amountMinor)) < deposit.amountMinor * rule.outShare) continue;
    const key = `${deposit.customerId}|${dayOf(deposit.postedAt)}|${deposit.currency}`;
    const entry = byWindow.get(key) ?? { deposit: [], out: [] };
    entry.deposit.push(deposit);
    for (const payout of leaving) if (!entry.out.includes(payout)) entry.out.push(payout);
    byWindow.set(key, entry);
  }
  return [...byWindow.values()].map(({ deposit, out }) => {
    const first = deposit[0]!;
    const inMinor = sum(deposit.map((d) => d.amountMinor));
    const outMinor = sum(out.map((p) => p.amountMinor));
    return {
      rule: "rapid_movement",
      customerId: first.customerId,
      window: `${dayOf(first.postedAt)} ${first.currency}`,
      currency: first.currency,
      totalMinor: inMinor,
      journalIds: deposit.map((d) => d.journalId),
      paymentIds: out.sort(byTime((p) => p.createdAt)).map((p) => p.paymentId),
      sentence:
        `${money(inMinor, first.currency)} deposited and ${money(outMinor, first.currency)} paid out within ` +
        `${rule.windowHours} hours of the deposit.`,
    } satisfies SarFinding;
  });
}

/** Customers whose latest KYC risk is High with a month's deposits at the threshold or more. */
export function highRiskVolume(
  deposits: readonly DepositFact[],
  riskOf: RiskLevelOf,
  thresholds: Record<Currency, number> = CTR_THRESHOLD_MINOR,
): SarFinding[] {
  const rule = SAR_RULES.high_risk_volume;
  const risky = deposits.filter((d) => riskOf(d.customerId) === "High");
  const findings: SarFinding[] = [];
  for (const group of groupBy(risky, (d) => `${d.customerId}|${monthOf(d.postedAt)}|${d.currency}`).values()) {
    const first = group[0]!;
    const totalMinor = sum(group.map((d) => d.amountMinor));
    if (totalMinor < thresholds[first.currency] * rule.volumeShare) continue;
    findings.push({
      rule: "high_risk_volume",
      customerId: first.customerId,
      window: `${monthOf(first.postedAt)} ${first.currency}`,
      currency: first.currency,
      totalMinor,
      journalIds: [...group].sort(byTime((d) => d.postedAt)).map((d) => d.journalId),
      paymentIds: [],
      sentence: `A customer whose latest KYC risk level is High deposited ${money(totalMinor, first.currency)} in ${group.length} deposits in ${monthOf(first.postedAt)}.`,
    });
  }
  return findings;
}

/** Payments whose payee matched a sanctions list, per customer, day and currency. */
export function screeningHits(hits: readonly ScreeningFact[]): SarFinding[] {
  return [...groupBy(hits, (h) => `${h.customerId}|${dayOf(h.createdAt)}|${h.currency}`).values()].map((group) => {
    const first = group[0]!;
    const totalMinor = sum(group.map((h) => h.amountMinor));
    const entries = [...new Set(group.map((h) => h.matchedEntry))].join(", ");
    return {
      rule: "screening_hit",
      customerId: first.customerId,
      window: `${dayOf(first.createdAt)} ${first.currency}`,
      currency: first.currency,
      totalMinor,
      journalIds: [],
      paymentIds: group.map((h) => h.paymentId),
      sentence: `${group.length} payment${group.length === 1 ? "" : "s"} of ${money(totalMinor, first.currency)} to a payee matching the sanctions entry ${entries} (${[...new Set(group.map((h) => h.status))].join(", ")}).`,
    } satisfies SarFinding;
  });
}

/** Every rule's findings, in rule order, then by window and customer. */
export function sarFindings(facts: {
  deposits: readonly DepositFact[];
  payouts: readonly PayoutFact[];
  screening: readonly ScreeningFact[];
  riskOf: RiskLevelOf;
}): SarFinding[] {
  const order = (findings: SarFinding[]) =>
    findings.sort((a, b) => a.window.localeCompare(b.window) || a.customerId.localeCompare(b.customerId));
  return [
    ...order(structuring(facts.deposits)),
    ...order(rapidMovement(facts.deposits, facts.payouts)),
    ...order(highRiskVolume(facts.deposits, facts.riskOf)),
    ...order(screeningHits(facts.screening)),
  ];
}
