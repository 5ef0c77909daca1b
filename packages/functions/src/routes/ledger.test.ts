import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "@fintech/testing/app";

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
let token: string;
let otherToken: string;

async function openAccount(name: string, extra: Record<string, unknown> = {}, as = token) {
  const reply = await t.call("POST", "/api/v1/ledger/accounts", {
    token: as,
    body: { name, currency: "USD", type: "bank", ...extra },
  });
  expect(reply.status).toBe(201);
  return reply.body.data as { id: string; account_number: string; balance: string };
}

beforeAll(async () => {
  t = await createTestApp();
  token = (await t.signUp("ledger@example.com", { first_name: "Led", last_name: "Ger" })).token;
  otherToken = (await t.signUp("other@example.com")).token;
});
afterAll(async () => t.core.dispose());

describe("ledger accounts", () => {
  it("creates accounts with generated unique numbers and zero balances", async () => {
    const checking = await openAccount("Checking");
    const savings = await openAccount("Savings");
    expect(checking.account_number).toMatch(/^ACC\d{10}$/);
    expect(checking.account_number).not.toBe(savings.account_number);
    expect(checking).toMatchObject({
      balance: "0.00",
      available: "0.00",
      status: "ACTIVE",
      type: "bank",
      normal_side: "debit",
    });
    const list = await t.call("GET", "/api/v1/accounts/", { token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((account: { name: string }) => account.name).sort()).toEqual(["Checking", "Savings"]);
    const available = await t.call("GET", "/api/v1/ledger/accounts/available", { token });
    expect(available.body.accounts).toHaveLength(2);
  });

  it("validates account input", async () => {
    const noName = await t.call("POST", "/api/v1/accounts", { token, body: { currency: "USD" } });
    expect(noName.status).toBe(400);
    expect(noName.body.message).toBe("Account name is required");
    const badCurrency = await t.call("POST", "/api/v1/accounts", { token, body: { name: "X", currency: "XYZ" } });
    expect(badCurrency.body.message).toBe("Currency must be one of USD, EUR, GBP, JPY, INR");
    const badType = await t.call("POST", "/api/v1/accounts", { token, body: { name: "X", type: "piggy" } });
    expect(badType.body.message).toContain("Account type must be one of");
  });

  it("hides other users' accounts as 404", async () => {
    const mine = await openAccount("Private");
    const reply = await t.call("GET", `/api/v1/accounts/${mine.id}`, { token: otherToken });
    expect(reply.status).toBe(404);
    expect(reply.body.message).toBe("Account not found");
  });
});

describe("deposit, transfer, post, unpost", () => {
  it("runs the whole lifecycle with pending and available figures", async () => {
    const a = await openAccount("A");
    const b = await openAccount("B");
    const deposit = await t.call("POST", "/api/v1/ledger/transactions/deposit", {
      token,
      body: { account_id: a.id, amount: 500, currency: "USD", description: "Salary" },
      headers: { "Idempotency-Key": "dep-1" },
    });
    expect(deposit.status).toBe(201);
    expect(deposit.body.data).toMatchObject({ type: "deposit", status: "draft", amount: "500.00", currency: "USD" });

    let balance = await t.call("GET", `/api/v1/ledger/accounts/${a.id}/balance`, { token });
    expect(balance.body.data).toMatchObject({ balance: "0.00", available: "0.00", pending_in: "500.00" });

    const refused = await t.call("POST", "/api/v1/ledger/transactions/transfer", {
      token,
      body: { from_account_id: a.id, to_account_id: b.id, amount: 100, currency: "USD" },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe("insufficient_funds");

    const posted = await t.call("POST", `/api/v1/ledger/transactions/${deposit.body.data.id}/post`, { token });
    expect(posted.status).toBe(200);
    expect(posted.body.data.status).toBe("posted");
    balance = await t.call("GET", `/api/v1/ledger/accounts/${a.id}/balance`, { token });
    expect(balance.body.data).toMatchObject({ balance: "500.00", available: "500.00" });

    const moved = await t.call("POST", "/api/v1/ledger/transactions/transfer", {
      token,
      body: { from_account_id: a.id, to_account_id: b.id, amount: "120.50", currency: "USD" },
    });
    expect(moved.status).toBe(201);
    balance = await t.call("GET", `/api/v1/ledger/accounts/${a.id}/balance`, { token });
    expect(balance.body.data).toMatchObject({ balance: "500.00", available: "379.50", pending_out: "120.50" });

    const again = await t.call("POST", `/api/v1/ledger/transactions/${deposit.body.data.id}/post`, { token });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      message: "Transaction is already posted",
      error: "Transaction is already posted",
    });

    // Unposting the deposit would leave A with 0 posted and 120.50 reserved: refused.
    const unpost = await t.call("POST", `/api/v1/ledger/transactions/${deposit.body.data.id}/unpost`, { token });
    expect(unpost.status).toBe(422);
    expect(unpost.body.error).toContain("Insufficient available balance");

    const history = await t.call("GET", "/api/v1/ledger/transactions/history?limit=50&offset=0", { token });
    expect(history.body.data.map((journal: { type: string }) => journal.type)).toEqual(["transfer", "deposit"]);
    const trial = await t.call("GET", "/api/v1/ledger/trial-balance", { token });
    expect(trial.status).toBe(200);
    expect(trial.body.data.is_balanced).toBe(true);
    const integrity = await t.call("GET", "/api/v1/ledger/integrity", { token });
    expect(integrity.body.data.ok).toBe(true);
  });
});

describe("account creation idempotency", () => {
  it("replays a keyed create instead of opening a second account", async () => {
    const body = { name: "Once", currency: "USD", initial_balance: "25" };
    const first = await t.call("POST", "/api/v1/accounts/", {
      token,
      body,
      headers: { "Idempotency-Key": "open-once" },
    });
    const again = await t.call("POST", "/api/v1/ledger/accounts", {
      token,
      body,
      headers: { "Idempotency-Key": "open-once" },
    });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.data.id).toBe(first.body.data.id);
    const list = await t.call("GET", "/api/v1/accounts", { token });
    expect(list.body.data.filter((account: { name: string }) => account.name === "Once")).toHaveLength(1);
  });
});
