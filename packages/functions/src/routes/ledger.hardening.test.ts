import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "@fintech/testing/app";
import { countItems } from "@fintech/testing/ledger/steps";

/** Bad input on the ledger routes: a clear 4xx that writes nothing, never a 500. */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
let token: string;
let otherToken: string;

async function openAccount(name: string, extra: Record<string, unknown> = {}, as = token) {
  const reply = await t.call("POST", "/api/v1/ledger/accounts", {
    token: as,
    body: { name, currency: "USD", ...extra },
  });
  expect(reply.status).toBe(201);
  return reply.body.data as { id: string; account_number: string };
}

async function accountNames(as = token) {
  const reply = await t.call("GET", "/api/v1/accounts", { token: as });
  return (reply.body.data as { name: string }[]).map((account) => account.name).sort();
}

beforeAll(async () => {
  t = await createTestApp();
  token = (await t.signUp("hardening@example.com")).token;
  otherToken = (await t.signUp("stranger@example.com")).token;
});
afterAll(async () => t.core.dispose());

describe("path ids", () => {
  it("an id over DynamoDB's key limit, or of the wrong alphabet, is a 404 on every path", async () => {
    for (const id of ["x".repeat(3000), "é".repeat(1100), "a b", "..%2F..", "SYS#1"]) {
      const path = encodeURIComponent(id);
      const account = { message: "Account not found", code: "account_not_found" };
      const transaction = { message: "Transaction not found", code: "transaction_not_found" };
      for (const [method, url, expected] of [
        ["GET", `/api/v1/accounts/${path}`, account],
        ["GET", `/api/v1/ledger/accounts/${path}/balance`, account],
        ["GET", `/api/v1/ledger/accounts/${path}/transactions`, account],
        ["GET", `/api/v1/ledger/transactions/${path}`, transaction],
        ["POST", `/api/v1/ledger/transactions/${path}/post`, transaction],
        ["POST", `/api/v1/ledger/transactions/${path}/unpost`, transaction],
      ] as const) {
        const reply = await t.call(method, url, { token });
        expect(reply.status, `${method} ${url.slice(0, 60)}`).toBe(404);
        expect(reply.body).toMatchObject(expected);
      }
    }
    const body = await t.call("POST", "/api/v1/ledger/transactions/deposit", {
      token,
      body: { account_id: "x".repeat(64), amount: 1 },
    });
    expect(body.status).toBe(404);
  });
});

describe("cursors", () => {
  it("refuses hand-made, tampered, foreign and cross-query cursors with 400 invalid_cursor", async () => {
    const a = await openAccount("Cursor A");
    const b = await openAccount("Cursor B");
    for (let index = 0; index < 3; index++) {
      await t.call("POST", "/api/v1/ledger/transactions/deposit", {
        token,
        body: { account_id: a.id, amount: 1, description: `dep ${index}` },
      });
      await t.call("POST", "/api/v1/ledger/transactions/deposit", {
        token,
        body: { account_id: b.id, amount: 1, description: `dep ${index}` },
      });
    }
    const first = await t.call("GET", "/api/v1/ledger/transactions/history?limit=2", { token });
    const cursor = first.body.pagination.next_cursor as string;
    expect(cursor).toBeTruthy();
    const next = await t.call(
      "GET",
      `/api/v1/ledger/transactions/history?limit=2&cursor=${encodeURIComponent(cursor)}`,
      { token },
    );
    expect(next.status).toBe(200);
    expect(next.body.data).toHaveLength(2);

    // Unsigned cursors (a bare key, base64url), pointing into another partition or outside the
    // range; then payloads and signatures that do not belong together.
    const unsigned = (key: Record<string, string>) => Buffer.from(JSON.stringify(key)).toString("base64url");
    const crafted = [
      unsigned({ pk: "TX#1", sk: "TX", gsi1pk: "OWNER#someone-else#TXS", gsi1sk: "2020-01-01T00:00:00.000Z#1" }),
      unsigned({ pk: "TX#1", sk: "TX", gsi1pk: "x".repeat(1500), gsi1sk: "y".repeat(1500) }),
      `${cursor.split(".")[0]}.${"A".repeat(43)}`,
      `${unsigned({ pk: "TX#1", sk: "TX", gsi1pk: "OWNER#x#TXS", gsi1sk: "z" })}.${cursor.split(".")[1]}`,
      "not a cursor",
    ];
    const accountPage = await t.call("GET", `/api/v1/ledger/accounts/${a.id}/transactions?limit=1`, { token });
    const accountCursor = accountPage.body.pagination.next_cursor as string;
    const uses: [string, string, string][] = [
      ...crafted.map((bad): [string, string, string] => [token, "/api/v1/ledger/transactions/history?limit=2", bad]),
      // Another user presenting my cursor.
      [otherToken, "/api/v1/ledger/transactions/history?limit=2", cursor],
      // Another filter set.
      [token, "/api/v1/ledger/transactions/history?limit=2&status=draft", cursor],
      [token, "/api/v1/ledger/transactions/history?limit=2&q=dep", cursor],
      // Another route, and another account on the same route.
      [token, `/api/v1/ledger/accounts/${a.id}/transactions?limit=2`, cursor],
      [token, "/api/v1/ledger/transactions/history?limit=2", accountCursor],
      [token, `/api/v1/ledger/accounts/${b.id}/transactions?limit=1`, accountCursor],
    ];
    for (const [as, path, bad] of uses) {
      const reply = await t.call("GET", `${path}&cursor=${encodeURIComponent(bad)}`, { token: as });
      expect(reply.status, `${path} ${bad.slice(0, 40)}`).toBe(400);
      expect(reply.body).toMatchObject({ code: "invalid_cursor", message: "Invalid cursor" });
    }
  });
});

describe("opening balances", () => {
  it("a key whose derived opening-deposit key was already used is refused before anything is written", async () => {
    const target = await openAccount("Deposit target");
    const used = await t.call("POST", "/api/v1/ledger/transactions/deposit", {
      token,
      body: { account_id: target.id, amount: 5 },
      headers: { "Idempotency-Key": "acct-7:opening" },
    });
    expect(used.status).toBe(201);
    const names = await accountNames();
    const items = await countItems(t.core);
    const refused = await t.call("POST", "/api/v1/ledger/accounts", {
      token,
      body: { name: "Never opened", currency: "USD", initial_balance: "10" },
      headers: { "Idempotency-Key": "acct-7" },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe("idempotency_key_reused");
    expect(await countItems(t.core)).toBe(items);
    expect(await accountNames()).toEqual(names);
  });

  it("only decimal notation is money: hex, binary and underflow are refused, not read as zero", async () => {
    const names = await accountNames();
    for (const initial of ["0x0", "0b0", "1e-400", "0x10", "1e3", " 12 ", "Infinity", "NaN", "12."]) {
      const reply = await t.call("POST", "/api/v1/ledger/accounts", {
        token,
        body: { name: "Odd", initial_balance: initial },
      });
      expect(reply.status, initial).toBe(400);
      expect(reply.body.message, initial).toBe("Initial balance: Amount must be a number");
    }
    const threshold = await t.call("POST", "/api/v1/ledger/accounts", {
      token,
      body: { name: "Odd", low_balance_threshold: "0x0" },
    });
    expect(threshold.status).toBe(400);
    expect(await accountNames()).toEqual(names);

    const zero = await t.call("POST", "/api/v1/ledger/accounts", {
      token,
      body: { name: "Zero start", initial_balance: "0.00" },
    });
    expect(zero.status).toBe(201);
    expect(zero.body.opening_transaction).toBeNull();
    const half = await t.call("POST", "/api/v1/ledger/accounts", {
      token,
      body: { name: "Half start", initial_balance: ".5" },
    });
    expect(half.status).toBe(201);
    expect(half.body.opening_transaction).toMatchObject({ amount: "0.50", status: "draft" });
    const letters = await t.call("POST", "/api/v1/ledger/transactions/deposit", {
      token,
      body: { account_id: half.body.data.id, amount: "ten" },
    });
    expect(letters.body).toMatchObject({ message: "Amount must be a number", code: "invalid_amount" });
  });
});

describe("account numbers", () => {
  it("are unique per owner: another user may use the same number, the same owner may not", async () => {
    const mine = await openAccount("Numbered", { account_number: "DE-1234-5678" });
    expect(mine.account_number).toBe("DE-1234-5678");
    const theirs = await openAccount("Also numbered", { account_number: "de-1234-5678" }, otherToken);
    expect(theirs.account_number).toBe("DE-1234-5678");
    const again = await t.call("POST", "/api/v1/ledger/accounts", {
      token,
      body: { name: "Twin", account_number: "DE-1234-5678" },
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      message: "An account with this account number already exists",
      code: "account_number_taken",
    });
  });
});
