import { describe, expect, it } from "vitest";
import type { Payment } from "@fintech/core/payments/model";
import { createHttpClient } from "./client";
import { paymentEndpoints, PAYMENTS_MAX_PAGES } from "./payments";
import { fakeFetch, fakeTokens, json } from "./testing";

function setup(reply: Parameters<typeof fakeFetch>[0]) {
  const { fetch, calls } = fakeFetch(reply);
  const api = paymentEndpoints(
    createHttpClient({ baseUrl: "https://api.test", fetch, credentials: fakeTokens("t0k").source }),
  );
  return { api, calls };
}

const decision = {
  strategy: "expected_value",
  chosenRailId: "sepa",
  chosenRail: "SEPA",
  defaultRailId: "ach",
  defaultRail: "ACH",
  currency: "USD",
  amountMinor: 100,
  savingMinor: 0,
  saving: "0.00",
  reason: "SEPA has the best expected value",
  decidedAt: "2026-11-26T04:00:00.000Z",
  candidates: [],
};
const payment = (paymentId: string): Payment => ({
  paymentId,
  userId: "u1",
  status: "pending",
  amount: "1.00",
  amountMinor: 100,
  currency: "USD",
  fee: "0.02",
  feeMinor: 2,
  feeBreakdown: { fixedFee: "0.02", fxSpread: "0.00", networkFee: "0.00" },
  selectedRail: "SEPA",
  railId: "sepa",
  fromAccountId: "a1",
  payee: { kind: "account", accountId: "a2" },
  description: "",
  attempts: [],
  routing: { ...decision, excluded: [] } as Payment["routing"],
  journalId: "j1",
  estimatedFee: "0.02",
  estimatedTime: "1 s",
  fxRate: 1,
  initiatedAt: "2026-11-26T04:00:00.000Z",
  createdAt: "2026-11-26T04:00:00.000Z",
  updatedAt: "2026-11-26T04:00:00.000Z",
  completedAt: null,
  failureReason: null,
});

describe("payments client", () => {
  it("walks the cursor pages of GET /v1/payments (100 a page) until the last", async () => {
    const { api, calls } = setup((call) =>
      json(
        200,
        call.url.includes("cursor=c1")
          ? { data: [payment("p2")], pagination: { next_cursor: null } }
          : { data: [payment("p1")], pagination: { next_cursor: "c1" } },
      ),
    );
    const all = await api.all();
    expect(all.complete).toBe(true);
    expect(all.payments.map((item) => item.paymentId)).toEqual(["p1", "p2"]);
    expect(calls.map((call) => call.url)).toEqual([
      "https://api.test/v1/payments?limit=100",
      "https://api.test/v1/payments?limit=100&cursor=c1",
    ]);
  });

  it("stops after PAYMENTS_MAX_PAGES and says the list is not complete", async () => {
    const { api, calls } = setup(() => json(200, { data: [payment("p")], pagination: { next_cursor: "more" } }));
    expect((await api.all()).complete).toBe(false);
    expect(calls).toHaveLength(PAYMENTS_MAX_PAGES);
  });

  it("creates with the Idempotency-Key it is given; a reply that is not a payment is an error, not a blank", async () => {
    const { api, calls } = setup((call) =>
      json(
        201,
        call.body && (call.body as { amount: string }).amount === "2.00"
          ? { message: "Payment initiated", payment: { paymentId: "x" } }
          : { message: "Payment initiated", payment: payment("p9") },
      ),
    );
    const created = await api.create(
      { userId: "u1", fromAccountId: "a1", toAccountId: "a2", amount: "1.00", currency: "USD" },
      "key-1",
    );
    expect(created.paymentId).toBe("p9");
    expect(calls[0]).toMatchObject({
      method: "POST",
      url: "https://api.test/v1/payments",
      body: { fromAccountId: "a1", toAccountId: "a2" },
    });
    expect(calls[0]!.headers.get("Idempotency-Key")).toBe("key-1");
    await expect(
      api.create({ userId: "u1", fromAccountId: "a1", toAccountId: "a2", amount: "2.00", currency: "USD" }, "key-2"),
    ).rejects.toMatchObject({ kind: "invalid-response" });
  });

  it("health is any OK reply; a refusal or no reply is false", async () => {
    expect(await setup(() => json(200, { status: "SERVING" })).api.healthy()).toBe(true);
    expect(await setup(() => json(503, { message: "down" })).api.healthy()).toBe(false);
    expect(
      await setup(() => {
        throw new TypeError("Failed to fetch");
      }).api.healthy(),
    ).toBe(false);
  });
});
