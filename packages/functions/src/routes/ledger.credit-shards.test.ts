import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RegisterInput } from "@fintech/core/auth/model";
import { ensureAdmin } from "@fintech/core/auth/service";
import { CREDIT_SHARDS } from "@fintech/core/ledger/credit-shards";
import { createTestApp, fundedAccountPair, nextTestAddress, type TestApp } from "@fintech/testing/app";
import { countItems } from "@fintech/testing/ledger/steps";
import { AccountDetailReply, CreditShardsReply } from "../http/reply-schemas";

/**
 * POST /api/v1/ledger/accounts/{id}/credit-shards (docs/ledger.md#turning-it-on): administrators
 * only, idempotent, a clear 4xx for every bad input, and money keeps moving right afterwards.
 */

let t: TestApp;
let owner: { token: string; user: { id: string } };
let stranger: { token: string; user: { id: string } };
let admin: string;
let secondAdmin: string;

async function signInAdmin(email: string): Promise<string> {
  await ensureAdmin(
    t.core,
    RegisterInput.parse({ email, password: "admin password 1", first_name: "Avery", last_name: "Admin" }),
  );
  const login = await t.call("POST", "/api/v1/auth/login", {
    body: { email, password: "admin password 1" },
    ip: nextTestAddress(),
  });
  expect(login.status).toBe(200);
  return login.body.data.token as string;
}

const convert = (accountId: string, token?: string, body?: unknown, headers?: Record<string, string>) =>
  t.call("POST", `/api/v1/ledger/accounts/${accountId}/credit-shards`, { token, body, headers });

async function moveAndPost(token: string, from: string, to: string, amount: string) {
  const moved = await t.call("POST", "/api/v1/ledger/transactions/transfer", {
    token,
    body: { from_account_id: from, to_account_id: to, amount, currency: "USD" },
  });
  expect(moved.status, JSON.stringify(moved.body)).toBe(201);
  const posted = await t.call("POST", `/api/v1/ledger/transactions/${moved.body.data.id}/post`, { token });
  expect(posted.status, JSON.stringify(posted.body)).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signUp("merchant@example.com");
  stranger = await t.signUp("stranger-shards@example.com");
  admin = await signInAdmin("shards-admin@example.com");
  secondAdmin = await signInAdmin("shards-admin-2@example.com");
});
afterAll(async () => t.core.dispose());

describe("converting an account to credit shards", () => {
  it("an admin converts; the owner and strangers may not; a repeat changes nothing", async () => {
    const { from, to } = await fundedAccountPair(t, owner.token);

    expect((await convert(to)).status).toBe(401);
    for (const token of [owner.token, stranger.token]) {
      const refused = await convert(to, token, { reason: "mine" });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe("admin_required");
    }
    // An API key acts for its owner as a user, even an administrator's key with the write scope.
    const key = await t.call("POST", "/api/v1/api-keys", {
      token: admin,
      body: { name: "shards key", scopes: ["ledger:write"] },
    });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    const byKey = await convert(to, key.body.data.key as string, {});
    expect({ status: byKey.status, code: byKey.body.code }).toEqual({ status: 403, code: "admin_required" });
    const before = await t.call("GET", `/api/v1/ledger/accounts/${to}/balance`, { token: owner.token });
    expect(before.body.data.credit_shards).toBe(0);

    const converted = await convert(to, admin, { reason: "Marketplace payouts land here" });
    expect(converted.status).toBe(200);
    expect(CreditShardsReply.safeParse(converted.body).success).toBe(true);
    expect(converted.body).toEqual({
      message: `Incoming credits now spread over ${CREDIT_SHARDS} balance shards`,
      data: { account_id: to, credit_shards: CREDIT_SHARDS, converted: true, at: expect.any(String) },
    });

    const repeated = await convert(to, secondAdmin, undefined, { "Idempotency-Key": "shards-repeat-1" });
    expect(repeated.status).toBe(200);
    expect(repeated.body).toEqual({
      message: `Already spread over ${CREDIT_SHARDS} balance shards`,
      data: { account_id: to, credit_shards: CREDIT_SHARDS, converted: false, at: null },
    });
    const replayed = await convert(to, secondAdmin, undefined, { "Idempotency-Key": "shards-repeat-1" });
    expect(replayed.body).toEqual(repeated.body);

    // The owner sees the count in the account's details and list; money keeps moving.
    const detail = await t.call("GET", `/api/v1/accounts/${to}`, { token: owner.token });
    expect(detail.body.data.credit_shards).toBe(CREDIT_SHARDS);
    expect(AccountDetailReply.safeParse(detail.body).success).toBe(true);
    const list = await t.call("GET", "/api/v1/ledger/accounts", { token: owner.token });
    const listed = (list.body.data as { id: string; credit_shards: number }[]).find((account) => account.id === to);
    expect(listed?.credit_shards).toBe(CREDIT_SHARDS);

    await moveAndPost(owner.token, from, to, "120.00");
    await moveAndPost(owner.token, from, to, "30.25");
    let balance = await t.call("GET", `/api/v1/ledger/accounts/${to}/balance`, { token: owner.token });
    expect(balance.body.data).toMatchObject({ balance: "150.25", available: "150.25", credit_shards: CREDIT_SHARDS });

    // Money out of the converted account counts what its shards received, and no more.
    await moveAndPost(owner.token, to, from, "50.25");
    const overdrawn = await t.call("POST", "/api/v1/ledger/transactions/transfer", {
      token: owner.token,
      body: { from_account_id: to, to_account_id: from, amount: "100.01", currency: "USD" },
    });
    expect(overdrawn.status).toBe(422);
    expect(overdrawn.body.code).toBe("insufficient_funds");
    balance = await t.call("GET", `/api/v1/ledger/accounts/${to}/balance`, { token: owner.token });
    expect(balance.body.data).toMatchObject({ balance: "100.00", available: "100.00" });
    const source = await t.call("GET", `/api/v1/ledger/accounts/${from}/balance`, { token: owner.token });
    expect(source.body.data).toMatchObject({ balance: "400.00", available: "400.00" });
  });

  it("unknown, foreign and malformed ids are 404; system accounts 400; nothing is written", async () => {
    const { from } = await fundedAccountPair(t, stranger.token);
    const deposit = await t.call("GET", `/api/v1/ledger/accounts/${from}/transactions`, { token: stranger.token });
    const journalId = deposit.body.data[0].id as string;
    const items = await countItems(t.core);
    for (const id of [
      "00000000-0000-4000-8000-000000000000",
      journalId,
      stranger.user.id,
      "x".repeat(3000),
      encodeURIComponent("é".repeat(1100)),
      encodeURIComponent("a b"),
      encodeURIComponent("SYS#1"),
    ]) {
      const reply = await convert(id, admin, {});
      expect(reply.status, id.slice(0, 40)).toBe(404);
      expect(reply.body).toMatchObject({ code: "account_not_found", message: "Account not found" });
    }
    const system = await convert("sys-funding-usd", admin, { reason: "no" });
    expect(system.status).toBe(400);
    expect(system.body.code).toBe("system_account");
    expect(await countItems(t.core)).toBe(items);
  });

  it("a bad body or Idempotency-Key is a 400 that changes nothing", async () => {
    const { to } = await fundedAccountPair(t, stranger.token);
    const cases: [unknown, string][] = [
      [{ reason: "r".repeat(201) }, "validation_error"],
      [{ reason: 42 }, "validation_error"],
      [{ reason: ["a"] }, "validation_error"],
      ["[]", "validation_error"],
      ['"text"', "validation_error"],
      ["{not json", "invalid_json"],
    ];
    for (const [body, code] of cases) {
      const reply = await convert(to, admin, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.code, JSON.stringify(body)).toBe(code);
    }
    const badKey = await convert(to, admin, {}, { "Idempotency-Key": "k".repeat(300) });
    expect(badKey.status).toBe(400);
    expect(badKey.body.code).toBe("invalid_idempotency_key");
    const balance = await t.call("GET", `/api/v1/ledger/accounts/${to}/balance`, { token: stranger.token });
    expect(balance.body.data.credit_shards).toBe(0);

    // The longest reason allowed is accepted (surrounding spaces are trimmed).
    const accepted = await convert(to, admin, { reason: ` ${"r".repeat(200)} ` });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.converted).toBe(true);
  });
});
