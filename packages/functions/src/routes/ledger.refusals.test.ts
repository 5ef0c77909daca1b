import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAdminFromEnv } from "../../../../infra/local/seed";
import { createTestApp, nextTestAddress } from "@fintech/testing/app";

/** Recorded refusals: a keyed request refused for a business rule keeps that answer under its key. */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
let token: string;
let adminToken: string;

/** The raw reply (text, not parsed JSON), so replays can be compared byte for byte. */
async function raw(path: string, body: unknown, key?: string, as = token) {
  const headers: Record<string, string> = { "Content-Type": "application/json", Authorization: `Bearer ${as}` };
  if (key) headers["Idempotency-Key"] = key;
  const response = await t.app.request(path, { method: "POST", headers, body: JSON.stringify(body) });
  return {
    status: response.status,
    text: await response.text(),
    replayed: response.headers.get("Idempotent-Replayed"),
  };
}

async function openAccount(name: string, extra: Record<string, unknown> = {}) {
  const reply = await t.call("POST", "/api/v1/ledger/accounts", {
    token,
    body: { name, currency: "USD", type: "bank", ...extra },
  });
  expect(reply.status).toBe(201);
  return reply.body.data as { id: string };
}

async function fund(accountId: string, amount: string) {
  const deposit = await t.call("POST", "/api/v1/ledger/transactions/deposit", {
    token,
    body: { account_id: accountId, amount },
  });
  expect(deposit.status).toBe(201);
  expect((await t.call("POST", `/api/v1/ledger/transactions/${deposit.body.data.id}/post`, { token })).status).toBe(
    200,
  );
  return deposit.body.data.id as string;
}

const balanceOf = async (accountId: string) =>
  (await t.call("GET", `/api/v1/ledger/accounts/${accountId}/balance`, { token })).body.data.balance as string;

beforeAll(async () => {
  t = await createTestApp();
  token = (await t.signUp("refusals@example.com")).token;
  await seedAdminFromEnv(t.core, { ADMIN_EMAIL: "root-refusals@example.com", ADMIN_PASSWORD: "admin password 1" });
  adminToken = (
    await t.call("POST", "/api/v1/auth/login", {
      body: { email: "root-refusals@example.com", password: "admin password 1" },
      ip: nextTestAddress(),
    })
  ).body.data.token;
});
afterAll(async () => t.core.dispose());

describe("recorded refusals", () => {
  it("a refused keyed transfer stays refused, byte for byte, after funds arrive", async () => {
    const a = await openAccount("Refused source");
    const b = await openAccount("Refused target");
    const body = { from_account_id: a.id, to_account_id: b.id, amount: "50.00" };
    const first = await raw("/api/v1/ledger/transactions/transfer", body, "refused-1");
    expect(first.status).toBe(422);
    expect(JSON.parse(first.text)).toMatchObject({ code: "insufficient_funds" });
    expect(first.replayed).toBeNull();

    await fund(a.id, "100.00");
    const retry = await raw("/api/v1/ledger/transactions/transfer", body, "refused-1");
    expect(retry).toEqual({ status: 422, text: first.text, replayed: "true" });
    expect(await balanceOf(a.id)).toBe("100.00");

    // The same key with another body is still a reuse, not a new decision.
    const other = await raw("/api/v1/ledger/transactions/transfer", { ...body, amount: "10.00" }, "refused-1");
    expect(other.status).toBe(422);
    expect(JSON.parse(other.text).code).toBe("idempotency_key_reused");

    // The refusal is no transaction: it is in no listing and moved nothing.
    const history = await t.call("GET", `/api/v1/ledger/transactions/history?account_id=${b.id}`, { token });
    expect(history.body.data).toEqual([]);
    expect(await balanceOf(b.id)).toBe("0.00");
    // Without a key nothing is recorded: the same transfer now succeeds.
    expect((await raw("/api/v1/ledger/transactions/transfer", body)).status).toBe(201);
    const integrity = await t.call("GET", "/api/v1/ledger/integrity", { token });
    expect(integrity.body.data.ok).toBe(true);
  });

  it("a 400 is not recorded: the corrected retry with the same key succeeds", async () => {
    const a = await openAccount("Validation source");
    const b = await openAccount("Validation target");
    await fund(a.id, "100.00");
    const bad = await raw(
      "/api/v1/ledger/transactions/transfer",
      { from_account_id: a.id, to_account_id: b.id, amount: "1.234" },
      "fix-me",
    );
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text).code).toBe("invalid_amount");
    const fixed = await raw(
      "/api/v1/ledger/transactions/transfer",
      { from_account_id: a.id, to_account_id: b.id, amount: "1.23" },
      "fix-me",
    );
    expect(fixed.status).toBe(201);
    const again = await raw(
      "/api/v1/ledger/transactions/transfer",
      { from_account_id: a.id, to_account_id: b.id, amount: "1.23" },
      "fix-me",
    );
    expect(again).toEqual({ status: 201, text: fixed.text, replayed: "true" });
  });

  it("concurrent duplicates of a refused request end in one decision", async () => {
    const a = await openAccount("Race source");
    const b = await openAccount("Race target");
    const body = { from_account_id: a.id, to_account_id: b.id, amount: "75.00" };
    const replies = await Promise.all(
      Array.from({ length: 6 }, () => raw("/api/v1/ledger/transactions/transfer", body, "race-refused")),
    );
    const decided = replies.filter((reply) => reply.status !== 409);
    expect(decided.length).toBeGreaterThan(0);
    for (const reply of decided)
      expect({ status: reply.status, text: reply.text }).toEqual({ status: 422, text: decided[0]!.text });
    expect(decided.filter((reply) => reply.replayed === null).length).toBe(1);
    for (const reply of replies.filter((reply) => reply.status === 409))
      expect(JSON.parse(reply.text).code).toBe("idempotency_in_progress");
    await fund(a.id, "100.00");
    expect(await raw("/api/v1/ledger/transactions/transfer", body, "race-refused")).toEqual({
      status: 422,
      text: decided[0]!.text,
      replayed: "true",
    });
  });

  it("records same-account, locked-account and currency refusals; deposits too", async () => {
    const a = await openAccount("Locked source");
    const b = await openAccount("Locked target");
    const euros = await openAccount("Euros", { currency: "EUR" });
    await fund(a.id, "100.00");

    const same = await raw(
      "/api/v1/ledger/transactions/transfer",
      { from_account_id: a.id, to_account_id: a.id, amount: "1.00" },
      "same-1",
    );
    expect(JSON.parse(same.text).code).toBe("same_account");
    expect(
      await raw(
        "/api/v1/ledger/transactions/transfer",
        { from_account_id: a.id, to_account_id: a.id, amount: "1.00" },
        "same-1",
      ),
    ).toEqual({ ...same, replayed: "true" });

    const currency = await raw(
      "/api/v1/ledger/transactions/transfer",
      { from_account_id: a.id, to_account_id: euros.id, amount: "1.00" },
      "fx-1",
    );
    expect(JSON.parse(currency.text).code).toBe("currency_mismatch");
    expect(
      await raw(
        "/api/v1/ledger/transactions/transfer",
        { from_account_id: a.id, to_account_id: euros.id, amount: "1.00" },
        "fx-1",
      ),
    ).toEqual({ ...currency, replayed: "true" });

    const depositRefused = await raw(
      "/api/v1/ledger/transactions/deposit",
      { account_id: a.id, amount: "5.00", currency: "EUR" },
      "dep-fx",
    );
    expect(JSON.parse(depositRefused.text).code).toBe("currency_mismatch");
    expect(
      await raw("/api/v1/ledger/transactions/deposit", { account_id: a.id, amount: "5.00", currency: "EUR" }, "dep-fx"),
    ).toEqual({ ...depositRefused, replayed: "true" });

    expect(
      (
        await t.call("POST", `/api/v1/ledger/accounts/${a.id}/lock`, {
          token: adminToken,
          body: { reason: "Fraud check" },
        })
      ).status,
    ).toBe(200);
    const body = { from_account_id: a.id, to_account_id: b.id, amount: "10.00" };
    const locked = await raw("/api/v1/ledger/transactions/transfer", body, "locked-1");
    expect(locked.status).toBe(423);
    expect(
      (
        await t.call("POST", `/api/v1/ledger/accounts/${a.id}/unlock`, {
          token: adminToken,
          body: { reason: "Cleared" },
        })
      ).status,
    ).toBe(200);
    expect(await raw("/api/v1/ledger/transactions/transfer", body, "locked-1")).toEqual({
      ...locked,
      replayed: "true",
    });
    // A new key is a new decision: the account is unlocked now.
    expect((await raw("/api/v1/ledger/transactions/transfer", body, "locked-2")).status).toBe(201);
  });

  it("post and unpost record their refusals in the key's record", async () => {
    const a = await openAccount("Post source");
    const b = await openAccount("Post target");
    const journal = await fund(a.id, "40.00");
    const again = await raw(`/api/v1/ledger/transactions/${journal}/post`, {}, "post-again");
    expect(again.status).toBe(409);
    expect(JSON.parse(again.text)).toMatchObject({ code: "already_posted", error: "Transaction is already posted" });
    // Unposted now, so a fresh post would work; the key keeps its answer.
    expect((await t.call("POST", `/api/v1/ledger/transactions/${journal}/unpost`, { token })).status).toBe(200);
    expect(await raw(`/api/v1/ledger/transactions/${journal}/post`, {}, "post-again")).toEqual({
      ...again,
      replayed: "true",
    });

    // Spending the deposit makes its unpost a refusal (the available balance would go below zero).
    expect((await t.call("POST", `/api/v1/ledger/transactions/${journal}/post`, { token })).status).toBe(200);
    const spend = await raw("/api/v1/ledger/transactions/transfer", {
      from_account_id: a.id,
      to_account_id: b.id,
      amount: "30.00",
    });
    expect(spend.status).toBe(201);
    const unpost = await raw(`/api/v1/ledger/transactions/${journal}/unpost`, {}, "unpost-1");
    expect(unpost.status).toBe(422);
    expect(JSON.parse(unpost.text).code).toBe("insufficient_funds");
    expect(
      (await t.call("POST", `/api/v1/ledger/transactions/${JSON.parse(spend.text).data.id}/post`, { token })).status,
    ).toBe(200);
    await fund(a.id, "100.00");
    expect(await raw(`/api/v1/ledger/transactions/${journal}/unpost`, {}, "unpost-1")).toEqual({
      ...unpost,
      replayed: "true",
    });
    const integrity = await t.call("GET", "/api/v1/ledger/integrity", { token });
    expect(integrity.body.data.ok).toBe(true);
  });
});
