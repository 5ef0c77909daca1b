import { describe, expect, it } from "vitest";
import type { SettlementExpectation } from "./expectations";
import { parseSettlementRecord } from "./file-format";
import { SettlementMatcher, type MatcherOptions } from "./matcher";
import { SETTLEMENT_COLUMNS, SETTLEMENT_GRACE_SECONDS } from "./model";

/**
 * The matcher's paths the golden file (reconciliation.test.ts) does not plant: refunds and
 * chargebacks, a line settled outside the rail's window, another rail's line, an unreadable line,
 * a non-zero amount tolerance, and fee lines; each against a hand-computed outcome, suspense and
 * tally.
 */

const COMPLETED = "2031-05-14T10:00:00.000Z";
const expectation = (reference: string, amountMinor: number, feeMinor = 15): SettlementExpectation => ({
  railId: "ach",
  reference,
  paymentId: `payment-${reference}`,
  attempt: 1,
  amountMinor,
  currency: "USD",
  feeMinor,
  completedAt: COMPLETED,
});
const EXPECTED = [expectation("PAY-a-1", 10_000), expectation("PAY-b-1", 5_000), expectation("PAY-c-1", 2_000)];

const matcherWith = (options: Partial<MatcherOptions> = {}) =>
  new SettlementMatcher(new Map(EXPECTED.map((entry) => [entry.reference, entry])), {
    railId: "ach",
    railName: "ACH",
    settlementSeconds: 3_600,
    toleranceMinor: 0,
    ...options,
  });

/** One file line from its fields, through the same parser the reconciliation uses. */
function line(fields: Partial<Record<(typeof SETTLEMENT_COLUMNS)[number], string>>) {
  const row = {
    rail: "ACH",
    reference: "PAY-a-1",
    amount: "100.00",
    currency: "USD",
    fee: "0.15",
    type: "payment",
    settled_at: "2031-05-14T12:00:00.000Z",
    ...fields,
  };
  return parseSettlementRecord(SETTLEMENT_COLUMNS.map((column) => row[column]));
}

describe("the settlement matcher", () => {
  it("matches a refund and a chargeback of a paid reference, and puts the money back into clearing", () => {
    const matcher = matcherWith();
    expect(matcher.accept(1, line({}))).toMatchObject({ class: "matched", ledgerAmountMinor: 10_000 });
    expect(matcher.accept(2, line({ type: "refund", amount: "40.00" }))).toMatchObject({
      class: "matched",
      fileAmountMinor: -4_000,
      ledgerAmountMinor: -4_000,
      suspenseMinor: 0,
    });
    expect(matcher.accept(3, line({ type: "chargeback", reference: "PAY-b-1", amount: "50.00" }))).toMatchObject({
      class: "matched",
      ledgerAmountMinor: -5_000,
    });
    // A second refund of the same reference, and a return larger than the payment, explain nothing.
    expect(matcher.accept(4, line({ type: "refund", amount: "1.00" }))).toMatchObject({
      class: "duplicate_line",
      suspenseMinor: -100,
    });
    expect(matcher.accept(5, line({ type: "refund", reference: "PAY-c-1", amount: "20.01" }))).toMatchObject({
      class: "amount_mismatch",
      ledgerAmountMinor: -2_000,
      suspenseMinor: -2_001,
    });
    const usd = matcher.tallies.get("USD")!;
    expect(usd).toMatchObject({
      fileMinor: 10_000 - 4_000 - 5_000 - 100 - 2_001,
      matchedFileMinor: 10_000 - 4_000 - 5_000,
      matchedLedgerMinor: 10_000 - 4_000 - 5_000,
      suspenseMinor: -100 - 2_001,
    });
    // Only payment lines settle an expectation: b and c were returned, never paid.
    expect([...matcher.missing()].map((outcome) => outcome.reference)).toEqual(["PAY-b-1", "PAY-c-1"]);
  });

  it("sends lines it cannot explain to unknown_to_ledger with the reason, their whole amount to suspense", () => {
    const matcher = matcherWith();
    const lateBy = (3_600 + SETTLEMENT_GRACE_SECONDS) * 1000 + 1;
    const late = new Date(Date.parse(COMPLETED) + lateBy).toISOString();
    expect(matcher.accept(1, line({ settled_at: late }))).toMatchObject({
      class: "unknown_to_ledger",
      reason: "settled_at outside the rail's settlement window",
      suspenseMinor: 10_000,
    });
    expect(matcher.accept(2, line({ settled_at: "2031-05-14T09:59:59.999Z", reference: "PAY-b-1" }))).toMatchObject({
      class: "unknown_to_ledger",
      reason: "settled_at outside the rail's settlement window",
    });
    expect(matcher.accept(3, line({ rail: "WIRE", reference: "PAY-c-1", amount: "20.00" }))).toMatchObject({
      class: "unknown_to_ledger",
      reason: "another rail's line",
      suspenseMinor: 2_000,
    });
    expect(matcher.accept(4, line({ reference: "PAY-zzz-1", amount: "7.00" }))).toMatchObject({
      class: "unknown_to_ledger",
      reason: null,
      suspenseMinor: 700,
    });
    expect(matcher.accept(5, line({ amount: "1.5.0" }))).toMatchObject({
      class: "unknown_to_ledger",
      reference: "PAY-a-1",
      reason: "unreadable line: invalid amount",
      suspenseMinor: 0,
    });
    // The rail's id matches as well as its name, in any case.
    expect(matcher.accept(6, line({ rail: " ach " }))).toMatchObject({ class: "matched" });
    expect(matcher.counts.get("unknown_to_ledger")).toBe(5);
    expect(matcher.tallies.get("USD")!.suspenseMinor).toBe(10_000 + 10_000 + 2_000 + 700);
  });

  it("matches within a non-zero amount tolerance and settles the ledger's amount; beyond it, a mismatch", () => {
    const matcher = matcherWith({ toleranceMinor: 2 });
    expect(matcher.accept(1, line({ amount: "100.02" }))).toMatchObject({
      class: "matched",
      fileAmountMinor: 10_002,
      ledgerAmountMinor: 10_000,
    });
    expect(matcher.accept(2, line({ reference: "PAY-b-1", amount: "50.03" }))).toMatchObject({
      class: "amount_mismatch",
      suspenseMinor: 5_003,
    });
    expect(matcher.tallies.get("USD")).toMatchObject({ matchedFileMinor: 10_002, matchedLedgerMinor: 10_000 });
  });

  it("totals fee lines and the fee column outside the variance; a different fee is a fee_mismatch", () => {
    const matcher = matcherWith();
    expect(matcher.accept(1, line({ type: "fee", reference: "FEES-20310514", amount: "1.00", fee: "" }))).toMatchObject(
      { class: "matched", fileAmountMinor: 100 },
    );
    expect(matcher.accept(2, line({ fee: "0.20" }))).toMatchObject({ class: "fee_mismatch", suspenseMinor: 5 });
    expect(matcher.tallies.get("USD")).toMatchObject({ fileMinor: 10_000, fileFeesMinor: 100 + 20 });
    expect(matcher.variance().file).toBe(0);
  });
});
