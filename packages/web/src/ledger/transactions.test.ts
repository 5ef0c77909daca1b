import { describe, expect, it } from "vitest";
import { account, entry, transaction } from "./fixtures";
import { dateRangeError, filtersFromSearch, filtersToSearch, hasFilters, legsOf, operationLabel, rowMovement, actorName } from "./transactions";

const everyday = account({ id: "acc-1", name: "Everyday" });
const savings = account({ id: "acc-2", name: "Savings" });
const accounts = [everyday, savings];

const deposit = transaction({
  entries: [entry("sys-funding-usd", "External funding", "credit", "500.00"), entry("acc-1", "Everyday", "debit", "500.00")],
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
    expect(rowMovement(deposit, accounts)).toEqual({ minor: 50000, signed: true, accounts: "Everyday", counterparty: "External funding" });
  });

  it("shows a transfer between own accounts unsigned, from → to", () => {
    expect(rowMovement(transfer, accounts)).toEqual({ minor: 12050, signed: false, accounts: "Everyday → Savings", counterparty: "Everyday → Savings" });
  });

  it("signs a transfer by the account it is seen from, with the other account as counterparty", () => {
    expect(rowMovement(transfer, accounts, "acc-1")).toMatchObject({ minor: -12050, signed: true, accounts: "Everyday", counterparty: "Savings" });
    expect(rowMovement(transfer, accounts, "acc-2")).toMatchObject({ minor: 12050, signed: true, accounts: "Savings", counterparty: "Everyday" });
  });

  it("signs by the account's normal side: a credit grows a liability", () => {
    const loan = account({ id: "acc-3", name: "Loan", type: "liability", normal_side: "credit" });
    const borrowed = transaction({ entries: [entry("acc-3", "Loan", "credit", "10.00"), entry("acc-1", "Everyday", "debit", "10.00")], total_amount_minor: 1000 });
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
});

describe("filters in the URL", () => {
  it("reads valid filters and ignores values the server would refuse", () => {
    const search = new URLSearchParams("tab=transactions&status=posted&type=wire&account_id=acc-1&from=2026-03-01&to=March&q=%20rent%20");
    expect(filtersFromSearch(search)).toEqual({ status: "posted", account_id: "acc-1", from: "2026-03-01", q: "rent" });
  });

  it("writes filters back, keeping other parameters and dropping cleared ones", () => {
    const written = filtersToSearch({ type: "transfer", q: "" }, new URLSearchParams("tab=transactions&status=draft"));
    expect(written.toString()).toBe("tab=transactions&type=transfer");
    expect(hasFilters({})).toBe(false);
    expect(hasFilters({ q: "rent" })).toBe(true);
  });

  it("refuses a range that ends before it starts", () => {
    expect(dateRangeError({ from: "2026-03-02", to: "2026-03-01" })).toBe("The start date must be on or before the end date");
    expect(dateRangeError({ from: "2026-03-01", to: "2026-03-01" })).toBeNull();
  });
});

describe("history wording", () => {
  it("names operations and people", () => {
    expect(operationLabel("unpost")).toBe("Unposted");
    expect(actorName({ operation: "post", status: "posted", at: "", by: null })).toBe("Unknown user");
  });
});
