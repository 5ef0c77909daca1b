import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "@fintech/testing/app";

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
let token: string;
let otherToken: string;

/**
 * The ledger's clock, moved by the test so that changes land on chosen UTC days. The days are
 * in the future: the system accounts' chains were opened at the real time, and a commit is
 * never stamped earlier than the heads it builds on.
 */
let now = new Date();
const at = (iso: string) => {
  now = new Date(iso);
};

async function openAccount(name: string, currency = "USD") {
  const reply = await t.call("POST", "/api/v1/ledger/accounts", { token, body: { name, currency, type: "bank" } });
  expect(reply.status).toBe(201);
  return reply.body.data as { id: string };
}

async function write(path: string, body: Record<string, unknown>) {
  const reply = await t.call("POST", `/api/v1/ledger/transactions/${path}`, { token, body });
  expect(reply.status).toBe(201);
  return reply.body.data as { id: string };
}

async function setStatus(id: string, operation: "post" | "unpost") {
  const reply = await t.call("POST", `/api/v1/ledger/transactions/${id}/${operation}`, { token });
  expect(reply.status).toBe(200);
}

interface Day {
  date: string;
  balance: string;
  balance_minor: number;
  available: string;
  pending_in: string;
  pending_out: string;
  inflow_posted: string;
  inflow_posted_minor: number;
  outflow_posted: string;
  outflow_posted_minor: number;
  inflow_pending: string;
  outflow_pending: string;
  transactions: number;
}
interface Series {
  currency: string;
  opening_balance: string;
  opening_balance_minor: number;
  series: Day[];
}
interface AccountSeries extends Series {
  account_id: string;
  name: string;
}

async function analytics(query = "", as = token) {
  return t.call("GET", `/api/v1/ledger/analytics${query}`, { token: as });
}

let ids: { a: string; b: string; e: string };

beforeAll(async () => {
  // Tokens are judged by the context's clock too, which this test moves years ahead: sign up at
  // the real time with tokens that outlive the test's calendar.
  t = await createTestApp({ TOKEN_TTL_SECONDS: String(20 * 365 * 24 * 60 * 60) });
  token = (await t.signUp("analytics@example.com", { first_name: "Ana", last_name: "Lytics" })).token;
  otherToken = (await t.signUp("bystander@example.com")).token;
  t.core.clock = () => now;

  // 10 March: two USD accounts and a EUR one; a deposit into A, approved the same day.
  at("2030-03-10T09:00:00.000Z");
  const a = await openAccount("A");
  at("2030-03-10T09:01:00.000Z");
  const b = await openAccount("B");
  at("2030-03-10T09:02:00.000Z");
  const e = await openAccount("E", "EUR");
  ids = { a: a.id, b: b.id, e: e.id };
  at("2030-03-10T10:00:00.000Z");
  const deposit = await write("deposit", { account_id: a.id, amount: "500.00", currency: "USD" });
  at("2030-03-10T23:59:59.999Z");
  await setStatus(deposit.id, "post");
  // 11 March: a transfer A -> B (pending) and a test balance into E (pending).
  at("2030-03-11T00:00:00.000Z");
  const transfer = await write("transfer", {
    from_account_id: a.id,
    to_account_id: b.id,
    amount: "120.50",
    currency: "USD",
  });
  await write("test-balance", { account_id: e.id, amount: 1000, currency: "EUR" });
  // 12 March the transfer is approved, 13 March it is unposted again.
  at("2030-03-12T15:00:00.000Z");
  await setStatus(transfer.id, "post");
  at("2030-03-13T08:00:00.000Z");
  await setStatus(transfer.id, "unpost");
  at("2030-03-14T12:00:00.000Z");
});
afterAll(async () => t.core.dispose());

const pick = (day: Day) => ({
  date: day.date,
  balance: day.balance,
  available: day.available,
  pending_in: day.pending_in,
  pending_out: day.pending_out,
  inflow_posted: day.inflow_posted,
  outflow_posted: day.outflow_posted,
  inflow_pending: day.inflow_pending,
  outflow_pending: day.outflow_pending,
  transactions: day.transactions,
});

const quiet = (date: string, balance: string, extra: Partial<ReturnType<typeof pick>> = {}) => ({
  date,
  balance,
  available: balance,
  pending_in: "0.00",
  pending_out: "0.00",
  inflow_posted: "0.00",
  outflow_posted: "0.00",
  inflow_pending: "0.00",
  outflow_pending: "0.00",
  transactions: 0,
  ...extra,
});

describe("GET /api/v1/ledger/analytics", () => {
  it("builds daily end-of-day balances and flows per account from the version chains", async () => {
    const reply = await analytics("?days=7");
    expect(reply.status).toBe(200);
    const data = reply.body.data as {
      days: number;
      from: string;
      to: string;
      timezone: string;
      accounts: AccountSeries[];
      currencies: Series[];
    };
    expect(data).toMatchObject({ days: 7, from: "2030-03-08", to: "2030-03-14", timezone: "UTC" });
    expect(data.accounts.map((account) => account.name)).toEqual(["A", "B", "E"]);
    const [a, b, e] = data.accounts as [AccountSeries, AccountSeries, AccountSeries];
    expect(a.account_id).toBe(ids.a);
    expect(a.opening_balance).toBe("0.00");

    expect(a.series.map(pick)).toEqual([
      quiet("2030-03-08", "0.00"),
      quiet("2030-03-09", "0.00"),
      // Deposited and approved the same day (the approval at 23:59:59.999 still counts).
      quiet("2030-03-10", "500.00", { inflow_pending: "500.00", inflow_posted: "500.00", transactions: 1 }),
      quiet("2030-03-11", "500.00", {
        available: "379.50",
        pending_out: "120.50",
        outflow_pending: "120.50",
        transactions: 1,
      }),
      quiet("2030-03-12", "379.50", { outflow_posted: "120.50" }),
      // Unposting is a negative posted outflow: the money is pending again.
      quiet("2030-03-13", "500.00", { available: "379.50", pending_out: "120.50", outflow_posted: "-120.50" }),
      quiet("2030-03-14", "500.00", { available: "379.50", pending_out: "120.50" }),
    ]);
    expect(b.series.map(pick).slice(3)).toEqual([
      quiet("2030-03-11", "0.00", { pending_in: "120.50", inflow_pending: "120.50", transactions: 1 }),
      quiet("2030-03-12", "120.50", { inflow_posted: "120.50" }),
      quiet("2030-03-13", "0.00", { pending_in: "120.50", inflow_posted: "-120.50" }),
      quiet("2030-03-14", "0.00", { pending_in: "120.50" }),
    ]);
    expect(e.currency).toBe("EUR");
    expect(e.series[3]).toMatchObject({
      pending_in: "1000.00",
      pending_in_minor: 100000,
      inflow_pending: "1000.00",
      balance: "0.00",
    });

    // Per currency: the accounts added up; EUR stays apart.
    expect(data.currencies.map((currency) => currency.currency)).toEqual(["EUR", "USD"]);
    const usd = data.currencies.find((currency) => currency.currency === "USD")!;
    expect(usd).toMatchObject({ account_count: 2, opening_balance: "0.00" });
    expect(usd.series.map((day) => day.balance)).toEqual([
      "0.00",
      "0.00",
      "500.00",
      "500.00",
      "500.00",
      "500.00",
      "500.00",
    ]);
    expect(usd.series[4]).toMatchObject({ inflow_posted: "120.50", outflow_posted: "120.50", transactions: 0 });
    expect(usd.series[3]).toMatchObject({ transactions: 2, pending_in: "120.50", pending_out: "120.50" });
  });

  it("keeps every day's balance change equal to its posted flows", async () => {
    const reply = await analytics("?days=30");
    const data = reply.body.data as { accounts: AccountSeries[]; currencies: Series[] };
    for (const series of [...data.accounts, ...data.currencies]) {
      expect(series.series).toHaveLength(30);
      let previous = series.opening_balance_minor;
      for (const day of series.series) {
        expect(day.balance_minor - previous).toBe(day.inflow_posted_minor - day.outflow_posted_minor);
        previous = day.balance_minor;
      }
    }
  });

  it("starts a short window from the balance in force before it", async () => {
    const reply = await analytics("?days=2");
    const a = (reply.body.data.accounts as AccountSeries[])[0]!;
    expect(a.opening_balance).toBe("379.50");
    expect(a.series.map((day) => [day.date, day.balance])).toEqual([
      ["2030-03-13", "500.00"],
      ["2030-03-14", "500.00"],
    ]);
  });

  it("defaults to 30 days and accepts 1 and 365", async () => {
    expect((await analytics()).body.data.days).toBe(30);
    const one = await analytics("?days=1");
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ from: "2030-03-14", to: "2030-03-14" });
    const year = await analytics("?days=365");
    expect(year.status).toBe(200);
    expect(year.body.data.from).toBe("2029-03-15");
    expect((year.body.data.accounts as AccountSeries[])[0]!.series).toHaveLength(365);
  });

  it.each(["0", "366", "-1", "abc", "7.5", "1e2", "99999"])("refuses days=%s with a clear 400", async (days) => {
    const reply = await analytics(`?days=${days}`);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ message: "days must be a whole number from 1 to 365", code: "invalid_days" });
  });

  it("shows each user only their own accounts and needs a token", async () => {
    const other = await analytics("?days=7", otherToken);
    expect(other.status).toBe(200);
    expect(other.body.data).toMatchObject({ accounts: [], currencies: [] });
    const anonymous = await t.call("GET", "/api/v1/ledger/analytics");
    expect(anonymous.status).toBe(401);
  });
});
