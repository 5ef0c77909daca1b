import { describe, expect, it } from "vitest";
import { account, transaction } from "./fixtures";
import { totalsByCurrency } from "./money";
import { balanceShares, overviewStats } from "./overview";

const accounts = [
  account({
    id: "a",
    name: "A",
    balance: "500.00",
    available: "379.50",
    pending_out: "120.50",
    balance_minor: 50000,
    available_minor: 37950,
  }),
  account({ id: "b", name: "B", balance: "0.00", pending_in: "120.50", created_at: "2026-03-02T00:00:00.000Z" }),
  account({ id: "c", name: "C", balance: "10.10", available: "10.10", balance_minor: 1010, available_minor: 1010 }),
  account({
    id: "y",
    name: "Yen",
    currency: "JPY",
    balance: "1200",
    available: "1200",
    balance_minor: 1200,
    available_minor: 1200,
  }),
];

describe("overview figures", () => {
  it("total per currency from the accounts' exact decimal strings", () => {
    expect(totalsByCurrency(accounts)).toEqual([
      { currency: "USD", accounts: 3, balance: 51010, available: 38960, pendingIn: 12050, pendingOut: 12050 },
      { currency: "JPY", accounts: 1, balance: 1200, available: 1200, pendingIn: 0, pendingOut: 0 },
    ]);
  });

  it("counts accounts and transactions, the 3 latest activities and the 3 largest accounts", () => {
    const history = {
      data: [
        transaction({ id: "t1", created_at: "2026-03-01T00:00:00.000Z" }),
        transaction({ id: "t2", status: "posted", created_at: "2026-03-03T00:00:00.000Z" }),
        transaction({ id: "t3", created_at: "2026-03-02T00:00:00.000Z" }),
        transaction({ id: "t4", created_at: "2026-03-04T00:00:00.000Z" }),
      ],
      pagination: { limit: 50, offset: 0, next_cursor: "x", has_more: true },
    };
    const stats = overviewStats(accounts, history);
    expect(stats).toMatchObject({
      accountCount: 4,
      activeAccounts: 4,
      transactionCount: 4,
      moreTransactions: true,
      drafts: 3,
      posted: 1,
    });
    expect(stats.recent.map((item) => item.id)).toEqual(["t4", "t2", "t3"]);
    expect(stats.summary.map((item) => item.id)).toEqual(["a", "y", "c"]);
  });

  it("works before the history has loaded", () => {
    expect(overviewStats([], undefined)).toMatchObject({
      accountCount: 0,
      transactionCount: 0,
      recent: [],
      summary: [],
      currencies: [],
    });
  });

  it("shares a currency's balance between its accounts", () => {
    const shares = balanceShares(accounts, "USD");
    expect(shares.map((share) => [share.account.id, Math.round(share.percent)])).toEqual([
      ["a", 98],
      ["c", 2],
      ["b", 0],
    ]);
  });
});
