import { describe, expect, it } from "vitest";
import { account, entry, transaction } from "./fixtures";
import {
  dateRangeError,
  filtersFromSearch,
  filtersToSearch,
  hasFilters,
  kindLabel,
  legOwnerLabel,
  legsOf,
  listedAt,
  operationLabel,
  rowMovement,
  actorName,
} from "./transactions";

const everyday = account({ id: "acc-1", name: "Everyday" });
const savings = account({ id: "acc-2", name: "Savings" });
const accounts = [everyday, savings];

const deposit = transaction({
  entries: [
    entry("sys-funding-usd", "External funding", "credit", "500.00"),
    entry("acc-1", "Everyday", "debit", "500.00"),
  ],
});
const transfer = transaction({
  id: "tx-2",
  type: "transfer",
  amount: "120.50",
  total_amount: "120.50",
  total_amount_minor: 12050,
  from_account_id: "acc-1",
  to_account_id: "acc-2",
  counterparty: "Everyday → Savings",
  entries: [entry("acc-1", "Everyday", "credit", "120.50"), entry("acc-2", "Savings", "debit", "120.50")],
});

describe("rowMovement", () => {
  it("shows a deposit as money in to the user's account, from the system account", () => {
    expect(rowMovement(deposit, accounts)).toEqual({
      minor: 50000,
      signed: true,
      accounts: "Everyday",
      counterparty: "External funding",
      feeMinor: 0,
    });
  });

  it("shows a transfer between own accounts unsigned, from → to", () => {
    expect(rowMovement(transfer, accounts)).toEqual({
      minor: 12050,
      signed: false,
      accounts: "Everyday → Savings",
      counterparty: "Everyday → Savings",
      feeMinor: 0,
    });
  });

  // The $1 test payment between own accounts: $1.00 from → to with its $0.02 fee, not "-$0.02 against Fee revenue".
  const ownPayment = transaction({
    id: "tx-3",
    type: "payment",
    total_amount_minor: 102,
    from_account_id: "acc-1",
    to_account_id: "acc-2",
    counterparty: "Savings",
    fee: "0.02",
    fee_minor: 2,
    entries: [
      entry("acc-1", "Everyday", "credit", "1.02"),
      entry("acc-2", "Savings", "debit", "1.00"),
      entry("sys-fees-usd", "Fee revenue", "debit", "0.02"),
    ],
  });
  const paidOut = transaction({
    id: "tx-4",
    type: "payment",
    total_amount_minor: 4259,
    from_account_id: "acc-1",
    to_account_id: "redacted",
    counterparty: "bob@example.com",
    fee: "0.09",
    fee_minor: 9,
    entries: [
      entry("acc-1", "Everyday", "credit", "42.59"),
      entry("redacted", "bob@example.com", "debit", "42.50", { account_number: null, owned: false, party: "customer" }),
      entry("sys-fees-usd", "Fee revenue", "debit", "0.09"),
    ],
  });
  const received = transaction({
    id: "tx-5",
    type: "payment",
    status: "posted",
    total_amount_minor: 4250,
    incoming: true,
    counterparty: "Alice Payer",
    posted_at: "2026-03-02T08:00:00.000Z",
    entries: [
      entry("redacted", "Alice Payer", "credit", "42.50", { account_number: null, owned: false, party: "customer" }),
      entry("acc-1", "Everyday", "debit", "42.50"),
    ],
  });

  it("shows a payment between own accounts as the amount moved, with its fee beside it", () => {
    expect(rowMovement(ownPayment, accounts)).toEqual({
      minor: 100,
      signed: false,
      accounts: "Everyday → Savings",
      counterparty: "Everyday → Savings",
      feeMinor: 2,
    });
    expect(rowMovement(ownPayment, accounts, "acc-1")).toMatchObject({
      minor: -102,
      counterparty: "Savings",
      feeMinor: 2,
    });
    expect(rowMovement(ownPayment, accounts, "acc-2")).toMatchObject({
      minor: 100,
      counterparty: "Everyday",
      feeMinor: 0,
    });
  });

  it("shows a payment to someone else as money out to whom it paid, fee included", () => {
    expect(rowMovement(paidOut, accounts)).toEqual({
      minor: -4259,
      signed: true,
      accounts: "Everyday",
      counterparty: "bob@example.com",
      feeMinor: 9,
    });
  });

  it("shows money received as money in, from the payer, listed when it arrived", () => {
    expect(rowMovement(received, accounts)).toEqual({
      minor: 4250,
      signed: true,
      accounts: "Everyday",
      counterparty: "Alice Payer",
      feeMinor: 0,
    });
    expect(kindLabel(received)).toBe("Payment received");
    expect(kindLabel(paidOut)).toBe("Payment");
    expect(listedAt(received)).toBe("2026-03-02T08:00:00.000Z");
    expect(listedAt(paidOut)).toBe(paidOut.created_at);
  });

  it("signs a transfer by the account it is seen from, with the other account as counterparty", () => {
    expect(rowMovement(transfer, accounts, "acc-1")).toMatchObject({
      minor: -12050,
      signed: true,
      accounts: "Everyday",
      counterparty: "Savings",
    });
    expect(rowMovement(transfer, accounts, "acc-2")).toMatchObject({
      minor: 12050,
      signed: true,
      accounts: "Savings",
      counterparty: "Everyday",
    });
  });

  it("signs by the account's normal side: a credit grows a liability", () => {
    const loan = account({ id: "acc-3", name: "Loan", type: "liability", normal_side: "credit" });
    const borrowed = transaction({
      entries: [entry("acc-3", "Loan", "credit", "10.00"), entry("acc-1", "Everyday", "debit", "10.00")],
      total_amount_minor: 1000,
    });
    expect(rowMovement(borrowed, [...accounts, loan], "acc-3").minor).toBe(1000);
  });
});

describe("legsOf", () => {
  it("lists the legs with totals that balance", () => {
    const { legs, debitTotal, creditTotal, balanced } = legsOf(transfer);
    expect(legs.map((leg) => [leg.name, leg.debitMinor, leg.creditMinor])).toEqual([
      ["Everyday", 0, 12050],
      ["Savings", 12050, 0],
    ]);
    expect([debitTotal, creditTotal, balanced]).toEqual([12050, 12050, true]);
    expect(legsOf(deposit).legs[0]!.number).toBeNull();
  });

  it("says whose account a leg without a number is: the system's or another customer's", () => {
    expect(legOwnerLabel({ number: "ACC-1", party: "own" })).toBe("ACC-1");
    expect(legOwnerLabel({ number: null, party: "system" })).toBe("System account");
    expect(legOwnerLabel({ number: null, party: "customer" })).toBe("Another customer");
  });
});

describe("filters in the URL", () => {
  it("reads valid filters and ignores values the server would refuse", () => {
    const search = new URLSearchParams(
      "tab=transactions&status=posted&type=wire&account_id=acc-1&from=2026-03-01&to=March&q=%20rent%20",
    );
    expect(filtersFromSearch(search)).toEqual({ status: "posted", account_id: "acc-1", from: "2026-03-01", q: "rent" });
    expect(filtersFromSearch(new URLSearchParams("type=payment"))).toEqual({ type: "payment" });
  });

  it("writes filters back, keeping other parameters and dropping cleared ones", () => {
    const written = filtersToSearch({ type: "transfer", q: "" }, new URLSearchParams("tab=transactions&status=draft"));
    expect(written.toString()).toBe("tab=transactions&type=transfer");
    expect(hasFilters({})).toBe(false);
    expect(hasFilters({ q: "rent" })).toBe(true);
  });

  it("refuses a range that ends before it starts", () => {
    expect(dateRangeError({ from: "2026-03-02", to: "2026-03-01" })).toBe(
      "The start date must be on or before the end date",
    );
    expect(dateRangeError({ from: "2026-03-01", to: "2026-03-01" })).toBeNull();
  });
});

describe("history wording", () => {
  it("names operations and people", () => {
    expect(operationLabel("unpost")).toBe("Unposted");
    expect(actorName({ operation: "post", status: "posted", at: "", by: null })).toBe("Unknown user");
    expect(actorName({ operation: "post", status: "posted", at: "", by: { id: "u", name: " Ada " } })).toBe("Ada");
    // A payment's hold is settled by the payment worker, also on a record that names no one.
    expect(actorName({ operation: "post", status: "posted", at: "", by: null }, "payment")).toBe("the payment service");
  });
});
