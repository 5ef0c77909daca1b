import type { Currency } from "../money/model";
import type { SettlementExpectation } from "./expectations";
import { signedAmount, type ParsedLine } from "./file-format";
import { SETTLEMENT_GRACE_SECONDS, variancePercent, type LineClass, type SettlementLineType } from "./model";

/**
 * Matching a file's lines to a rail-day's expectations (docs/money-operations.md#reconciliation),
 * one line at a time: the matcher keeps the expectations and the references already seen (both
 * bounded by the day's attempts), never the lines. Pure: no I/O, the same for the service and the
 * tests' hand-computed tables.
 *
 * - payment: matched to the expectation with its reference; amount within the tolerance, the same
 *   currency and settled_at within [completed, completed + the rail's settlement time + grace].
 *   A reference not expected (or settled outside that window) is unknown_to_ledger; a second
 *   payment line of a reference is duplicate_line; an amount off by more than the tolerance (or
 *   another currency) is amount_mismatch; a matching amount with another fee is fee_mismatch, and
 *   its amount still settles.
 * - refund / chargeback: money the rail returned for an expected reference (at most its amount):
 *   matched, it puts the returned amount back into Clearing (the day's position opens by it until
 *   the payer is repaid); otherwise the same classes as a payment.
 * - fee: a charge of the rail naming no attempt: matched and totalled, outside the variance. Agreed
 *   fees are the platform's cost of the rail, paid from its operating account, which this ledger
 *   does not keep; only a fee that differs from the agreed one is money nothing explains.
 *
 * `suspenseMinor` is the money the bank moved that the ledger cannot explain (signed: out is +):
 * the whole signed amount of an unmatched line, the fee difference of a fee_mismatch, nothing for
 * an attempt missing from the file (nothing moved; it stays open in Clearing).
 */

export interface LineOutcome {
  /** 1 = the first data line; null for an expectation missing from the file. */
  line: number | null;
  reference: string;
  class: LineClass;
  type: SettlementLineType | null;
  currency: Currency | null;
  /** Signed: a payment +, a refund or chargeback -. */
  fileAmountMinor: number | null;
  ledgerAmountMinor: number | null;
  fileFeeMinor: number | null;
  ledgerFeeMinor: number | null;
  paymentId: string | null;
  suspenseMinor: number;
  reason: string | null;
}

export interface CurrencyTally {
  /** Signed sum of the payment, refund and chargeback lines. */
  fileMinor: number;
  /** Signed file amounts of the lines that settle (matched and fee_mismatch payments, matched returns). */
  matchedFileMinor: number;
  /** The ledger amounts of those lines: what leaves (or returns to) Clearing. */
  matchedLedgerMinor: number;
  /** The fee column and fee lines, as the file states them. */
  fileFeesMinor: number;
  suspenseMinor: number;
}

export interface MatcherOptions {
  railId: string;
  railName: string;
  settlementSeconds: number;
  /** Largest |file - ledger| still matched, in minor units. */
  toleranceMinor: number;
}

const emptyTally = (): CurrencyTally => ({
  fileMinor: 0,
  matchedFileMinor: 0,
  matchedLedgerMinor: 0,
  fileFeesMinor: 0,
  suspenseMinor: 0,
});

export class SettlementMatcher {
  private readonly paid = new Set<string>();
  private readonly returned = new Set<string>();
  readonly tallies = new Map<Currency, CurrencyTally>();
  readonly counts = new Map<LineClass, number>();
  lines = 0;

  constructor(
    private readonly expectations: ReadonlyMap<string, SettlementExpectation>,
    private readonly options: MatcherOptions,
  ) {}

  private tally(currency: Currency): CurrencyTally {
    let found = this.tallies.get(currency);
    if (!found) {
      found = emptyTally();
      this.tallies.set(currency, found);
    }
    return found;
  }

  private count(outcome: LineOutcome): LineOutcome {
    this.counts.set(outcome.class, (this.counts.get(outcome.class) ?? 0) + 1);
    if (outcome.currency) this.tally(outcome.currency).suspenseMinor += outcome.suspenseMinor;
    return outcome;
  }

  private withinWindow(expectation: SettlementExpectation, settledAt: string): boolean {
    const completed = Date.parse(expectation.completedAt);
    const settled = Date.parse(settledAt);
    return (
      settled >= completed && settled <= completed + (this.options.settlementSeconds + SETTLEMENT_GRACE_SECONDS) * 1000
    );
  }

  private sameRail(rail: string): boolean {
    const name = rail.trim().toLowerCase();
    return name === this.options.railId || name === this.options.railName.toLowerCase();
  }

  /** Classifies data line `lineNumber` (1-based). */
  accept(lineNumber: number, parsed: ParsedLine): LineOutcome {
    this.lines++;
    if (!parsed.ok)
      return this.count({
        ...blank(lineNumber, parsed.reference),
        class: "unknown_to_ledger",
        reason: `unreadable line: ${parsed.reason}`,
      });
    const line = parsed.line;
    const signed = signedAmount(line);
    const tally = this.tally(line.currency);
    tally.fileFeesMinor += line.type === "fee" ? line.amountMinor : line.feeMinor;
    const base: LineOutcome = {
      ...blank(lineNumber, line.reference),
      type: line.type,
      currency: line.currency,
      fileAmountMinor: line.type === "fee" ? line.amountMinor : signed,
      fileFeeMinor: line.feeMinor,
    };
    if (!this.sameRail(line.rail))
      return this.count({ ...base, class: "unknown_to_ledger", suspenseMinor: signed, reason: "another rail's line" });
    if (line.type === "fee") {
      return this.count({ ...base, class: "matched" });
    }
    tally.fileMinor += signed;
    const expectation = this.expectations.get(line.reference);
    if (!expectation || !this.withinWindow(expectation, line.settledAt))
      return this.count({
        ...base,
        class: "unknown_to_ledger",
        suspenseMinor: signed,
        reason: expectation ? "settled_at outside the rail's settlement window" : null,
      });
    const known: LineOutcome = {
      ...base,
      ledgerFeeMinor: expectation.feeMinor,
      paymentId: expectation.paymentId,
    };
    const seen = line.type === "payment" ? this.paid : this.returned;
    if (seen.has(line.reference))
      return this.count({ ...known, class: "duplicate_line", suspenseMinor: signed, reason: null });
    seen.add(line.reference);
    if (line.type === "payment") {
      const ledger = expectation.amountMinor;
      if (line.currency !== expectation.currency || Math.abs(line.amountMinor - ledger) > this.options.toleranceMinor)
        return this.count({ ...known, class: "amount_mismatch", ledgerAmountMinor: ledger, suspenseMinor: signed });
      tally.matchedFileMinor += signed;
      tally.matchedLedgerMinor += ledger;
      const feeGap = line.feeMinor - expectation.feeMinor;
      return this.count({
        ...known,
        ledgerAmountMinor: ledger,
        class: feeGap === 0 ? "matched" : "fee_mismatch",
        suspenseMinor: feeGap,
      });
    }
    if (line.currency !== expectation.currency || line.amountMinor > expectation.amountMinor)
      return this.count({
        ...known,
        class: "amount_mismatch",
        ledgerAmountMinor: -expectation.amountMinor,
        suspenseMinor: signed,
      });
    tally.matchedFileMinor += signed;
    tally.matchedLedgerMinor += signed;
    return this.count({ ...known, class: "matched", ledgerAmountMinor: signed });
  }

  /** The expectations no payment line referred to: missing_from_file (their money stays in Clearing). */
  *missing(): Generator<LineOutcome> {
    for (const expectation of this.expectations.values()) {
      if (this.paid.has(expectation.reference)) continue;
      yield this.count({
        ...blank(null, expectation.reference),
        class: "missing_from_file",
        currency: expectation.currency,
        ledgerAmountMinor: expectation.amountMinor,
        ledgerFeeMinor: expectation.feeMinor,
        paymentId: expectation.paymentId,
      });
    }
  }

  /** Variance per currency and the file's (the largest), in percent. */
  variance(): { perCurrency: Map<Currency, number>; file: number } {
    const perCurrency = new Map<Currency, number>();
    let file = 0;
    for (const [currency, tally] of this.tallies) {
      const variance = variancePercent(tally.fileMinor, tally.matchedLedgerMinor);
      perCurrency.set(currency, variance);
      file = Math.max(file, variance);
    }
    return { perCurrency, file };
  }
}

function blank(line: number | null, reference: string): LineOutcome {
  return {
    line,
    reference,
    class: "matched",
    type: null,
    currency: null,
    fileAmountMinor: null,
    ledgerAmountMinor: null,
    fileFeeMinor: null,
    ledgerFeeMinor: null,
    paymentId: null,
    suspenseMinor: 0,
    reason: null,
  };
}
