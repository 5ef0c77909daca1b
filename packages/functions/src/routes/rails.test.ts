import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { quoteRails, type QuoteRail } from "@fintech/core/rails/quotes";
import { createTestApp, nextTestAddress } from "@fintech/testing/app";
import { dataItems } from "@fintech/testing/context";
import { seedAdminFromEnv } from "../../../../infra/local/seed";

/**
 * The rails API through the whole app: who may do what (401, 403 for users on edits and
 * start/stop), validation 400s that change nothing, start/stop really changing the status and
 * the quote dropping stopped rails, bad and unknown ids, and the quote's figures.
 */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
let adminToken: string;
let userToken: string;

const RAILS = "/api/v1/rails";

beforeAll(async () => {
  t = await createTestApp();
  await seedAdminFromEnv(t.core, { ADMIN_EMAIL: "rails-admin@example.com", ADMIN_PASSWORD: "admin password 1" });
  const login = await t.call("POST", "/api/v1/auth/login", {
    body: { email: "rails-admin@example.com", password: "admin password 1" },
    ip: nextTestAddress(),
  });
  adminToken = login.body.data.token;
  userToken = (await t.signUp("rails-user@example.com")).token;
});
afterAll(async () => {
  await t.core.dispose();
});

const tableItems = () => dataItems(t.core);
const railItems = async () => (await tableItems()).filter((item) => String(item.pk).startsWith("RAIL"));

const sepaEdit = {
  name: "SEPA",
  type: "SEPA",
  status: "active",
  fixedFee: "0.02",
  fxSpreadPercent: 0.8,
  slaTarget: 99.9,
};
const quote = (body: unknown, token = userToken) => t.call("POST", `${RAILS}/quote`, { token, body });

describe("who may use the rails API", () => {
  const everyRoute: [string, string, unknown?][] = [
    ["GET", RAILS],
    ["GET", `${RAILS}/ach`],
    ["PUT", `${RAILS}/sepa`, sepaEdit],
    ["POST", `${RAILS}/ach/start`],
    ["POST", `${RAILS}/ach/stop`],
    ["POST", `${RAILS}/quote`, { amount: "1000", currency: "USD" }],
  ];
  it.each(everyRoute)("%s %s: 401 without a token", async (method, path, body) => {
    const reply = await t.call(method, path, { body });
    expect([reply.status, reply.body.code]).toEqual([401, "unauthorized"]);
  });

  const adminRoutes: [string, string, unknown?][] = [
    ["PUT", `${RAILS}/sepa`, { ...sepaEdit, fxSpreadPercent: 5 }],
    ["POST", `${RAILS}/ach/start`],
    ["POST", `${RAILS}/ach/stop`],
    ["PUT", `${RAILS}/nope`, sepaEdit],
    ["POST", `${RAILS}/BAD!/stop`],
  ];
  it.each(adminRoutes)("%s %s: 403 for a user, and nothing changes", async (method, path, body) => {
    await t.call("GET", RAILS, { token: userToken }); // seeded
    const before = await railItems();
    const refused = await t.call(method, path, { token: userToken, body });
    expect([refused.status, refused.body.code]).toEqual([403, "admin_required"]);
    expect(await railItems()).toEqual(before);
  });

  it("a user reads the rails", async () => {
    const list = await t.call("GET", RAILS, { token: userToken });
    expect(list.status).toBe(200);
    expect(list.body.data.map((rail: { name: string }) => rail.name)).toEqual([
      "ACH",
      "Wire",
      "Card",
      "SWIFT",
      "SEPA",
      "Crypto",
      "UPI",
    ]);
    const one = await t.call("GET", `${RAILS}/card`, { token: userToken });
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({
      id: "card",
      name: "Card",
      type: "Card",
      fxSpread: 0.005,
      fixedFee: "0.10",
      fixedFeeMinor: 10,
      slaTarget: 99.9,
      metricsSource: "sample",
      history: [],
    });
  });
});

describe("edits", () => {
  it("an admin's edit stores FX spread and error injection as fractions, and is shown as the last change", async () => {
    const before = (await t.call("GET", `${RAILS}/sepa`, { token: adminToken })).body.data;
    const reply = await t.call("PUT", `${RAILS}/sepa`, {
      token: adminToken,
      body: {
        ...sepaEdit,
        name: "SEPA Instant",
        fxSpreadPercent: "0.125",
        errorInjectionPercent: 10,
        slaTarget: "99.5",
        version: before.version,
      },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.message).toBe("Rail SEPA Instant saved");
    expect(reply.body.data).toMatchObject({
      name: "SEPA Instant",
      fxSpread: 0.00125,
      errorInjection: 0.1,
      slaTarget: 99.5,
      version: before.version + 1,
      updated_by: "rails-admin@example.com",
    });
    const read = await t.call("GET", `${RAILS}/sepa`, { token: userToken });
    expect(read.body.data).toMatchObject({
      fxSpread: 0.00125,
      lastChange: {
        action: "update",
        by: "rails-admin@example.com",
        before: { name: "SEPA", fxSpread: 0.008 },
        after: { name: "SEPA Instant", fxSpread: 0.00125 },
      },
    });
    expect(read.body.data.history).toHaveLength(1);
    // Put it back (the quote figures below use the sample SEPA of docs/product/payment-rails.md#sample-rails).
    const restored = await t.call("PUT", `${RAILS}/sepa`, {
      token: adminToken,
      body: { ...sepaEdit, version: before.version + 1 },
    });
    expect(restored.body.data).toMatchObject({ name: "SEPA", fxSpread: 0.008, errorInjection: 0 });
  });

  it("refuses every bad edit with a clear 400 and changes nothing", async () => {
    const before = await railItems();
    const cases: [unknown, RegExp][] = [
      [{ ...sepaEdit, name: "" }, /^Name is required$/],
      [{ ...sepaEdit, type: "Cheque" }, /^Type must be one of ACH, Wire, Card, Crypto, SWIFT, SEPA, UPI$/],
      [{ ...sepaEdit, status: "paused" }, /^Status must be one of active, maintenance, down$/],
      [{ ...sepaEdit, fixedFee: "0.001" }, /^Fixed fee takes steps of 0.01 \(USD\)$/],
      [{ ...sepaEdit, fixedFee: -1 }, /^Fixed fee must be/],
      [{ ...sepaEdit, fxSpreadPercent: 0.0001 }, /^FX spread takes steps of 0.001 %$/],
      [{ ...sepaEdit, fxSpreadPercent: 101 }, /^FX spread must be a percentage from 0 to 100$/],
      [{ ...sepaEdit, slaTarget: 100.5 }, /^SLA target must be a percentage from 0 to 100$/],
      [{ ...sepaEdit, slaTarget: 99.95 }, /^SLA target takes steps of 0.1 %$/],
      [{ ...sepaEdit, errorInjectionPercent: 150 }, /^Error injection rate must be a percentage from 0 to 100$/],
      [{ ...sepaEdit, cost: "1" }, /^Unknown field: cost$/],
      [{ name: "SEPA" }, /Type must be one of/],
      [[], /must be a JSON object/],
    ];
    for (const [body, message] of cases) {
      const reply = await t.call("PUT", `${RAILS}/sepa`, { token: adminToken, body });
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.message, JSON.stringify(body)).toMatch(message);
    }
    expect((await t.call("PUT", `${RAILS}/sepa`, { token: adminToken, body: "{not json" })).body.code).toBe(
      "invalid_json",
    );
    expect(await railItems()).toEqual(before);
  });

  it("a stale version or a taken name is a 409 and changes nothing", async () => {
    const before = await railItems();
    const stale = await t.call("PUT", `${RAILS}/sepa`, {
      token: adminToken,
      body: { ...sepaEdit, fixedFee: "9", version: 1 },
    });
    expect([stale.status, stale.body.code]).toEqual([409, "rail_changed"]);
    const taken = await t.call("PUT", `${RAILS}/sepa`, { token: adminToken, body: { ...sepaEdit, name: "wire" } });
    expect([taken.status, taken.body.code]).toEqual([409, "rail_name_taken"]);
    expect(await railItems()).toEqual(before);
  });

  it("bad ids are 400s and unknown ids 404s, for every route", async () => {
    for (const [method, suffix, body] of [
      ["GET", ""],
      ["PUT", "", sepaEdit],
      ["POST", "/start"],
      ["POST", "/stop"],
    ] as [string, string, unknown?][]) {
      const unknown = await t.call(method, `${RAILS}/cheque${suffix}`, { token: adminToken, body });
      expect([unknown.status, unknown.body.code], `${method} ${suffix}`).toEqual([404, "rail_not_found"]);
      for (const bad of ["ACH", "a%23b", "x".repeat(41), "%F0%9F%92%B3"]) {
        const reply = await t.call(method, `${RAILS}/${bad}${suffix}`, { token: adminToken, body });
        expect([reply.status, reply.body.code], `${method} ${bad}${suffix}`).toEqual([400, "invalid_rail_id"]);
      }
    }
  });
});

describe("start, stop and the quote", () => {
  it("quotes every active rail with the shared formula: EUR 1000 paid out in USD (hand-computed), Card the Best Option", async () => {
    const reply = await quote({ amount: "1000", currency: "EUR", payoutCurrency: "USD", country: "US" });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({
      amount: "1000.00",
      amountMinor: 100_000,
      currency: "EUR",
      payoutCurrency: "USD",
      country: "US",
      optimalRailId: "card",
      savings: { baselineRailId: "ach", optimalRailId: "card", saving: "4.96", savingMinor: 496 },
    });
    // fixed (USD fees at 0.92) + spread × 1000 + 1.00: 0.05+10+1, 0.92+20+1, 0.09+5+1, 4.60+30+1,
    // 0.02+8+1, 0.18+50+1, UPI 0+10+1
    expect(
      reply.body.data.results.map((result: { railId: string; totalCost: string; eligible: boolean }) => [
        result.railId,
        result.totalCost,
        result.eligible,
      ]),
    ).toEqual([
      ["ach", "11.05", true],
      ["wire", "21.92", true],
      ["card", "6.09", true],
      ["swift", "35.60", true],
      ["sepa", "9.02", false],
      ["crypto", "51.18", true],
      ["upi", "11.00", false],
    ]);
    expect(reply.body.data.results.find((result: { railId: string }) => result.railId === "card")).toEqual({
      railId: "card",
      name: "Card",
      totalCost: "6.09",
      totalCostMinor: 609,
      breakdown: { fixedFee: "0.09", fxSpread: "5.00", networkFee: "1.00" },
      breakdownMinor: { fixedFee: 9, fxSpread: 500, networkFee: 100 },
      fixedFeeOriginal: { amount: "0.10", currency: "USD", rate: "1 USD = 0.9200 EUR" },
      isOptimal: true,
      eligible: true,
      ineligibleReason: null,
      estimatedTime: 0.1,
      settlementSeconds: 1800,
      costPercent: 0.609,
      costBand: "green",
    });
    // The same amount paid out in euros converts nothing: no FX part on any rail; SEPA is the Best Option.
    const same = await quote({ amount: "1000", currency: "EUR" });
    expect(
      same.body.data.results.every(
        (result: { breakdown: { fxSpread: string } }) => result.breakdown.fxSpread === "0.00",
      ),
    ).toBe(true);
    expect(same.body.data).toMatchObject({ country: "DE", optimalRailId: "sepa" });
    // JPY as a number, whole yen, paid out in yen: Card USD 0.10 = 15 yen + 1 = 16.
    const yen = await quote({ amount: 1000, currency: "JPY" });
    expect(yen.body.data.results.find((result: { railId: string }) => result.railId === "card")).toMatchObject({
      totalCost: "16",
      isOptimal: true,
    });
  });

  it("the browser's formula over GET /rails gives exactly the quote API's results", async () => {
    const rails = (await t.call("GET", RAILS, { token: userToken })).body.data as QuoteRail[];
    for (const [amount, currency, amountMinor] of [
      ["1000", "USD", 100_000],
      ["0.01", "EUR", 1],
      ["1234.56", "GBP", 123_456],
      ["98765", "JPY", 98_765],
    ] as const) {
      const reply = await quote({ amount, currency });
      expect(reply.body.data.results, `${amount} ${currency}`).toEqual(quoteRails(rails, amountMinor, currency));
      expect(reply.body.data.savings?.savingMinor ?? 0).toBeGreaterThanOrEqual(0);
    }
  });

  it("stop really changes the status and the quote drops the rail; start brings it back", async () => {
    expect((await quote({ amount: "1000", currency: "EUR" })).body.data.optimalRailId).toBe("sepa"); // 1.02
    const stopped = await t.call("POST", `${RAILS}/sepa/stop`, { token: adminToken });
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({
      message: "Rail SEPA stopped",
      data: { status: "down", updated_by: "rails-admin@example.com", lastChange: { action: "stop" } },
    });
    expect((await t.call("GET", `${RAILS}/sepa`, { token: userToken })).body.data.status).toBe("down");
    const without = await quote({ amount: "1000", currency: "EUR" });
    expect(without.body.data.results.map((result: { railId: string }) => result.railId)).toEqual([
      "ach",
      "wire",
      "card",
      "swift",
      "crypto",
      "upi",
    ]);
    expect(without.body.data.optimalRailId).toBe("card"); // 1.09 is now the cheapest eligible
    const started = await t.call("POST", `${RAILS}/sepa/start`, { token: adminToken });
    expect(started.body.data.status).toBe("active");
    expect((await quote({ amount: "1000", currency: "EUR" })).body.data.optimalRailId).toBe("sepa");
  });

  it("a rail set to maintenance by an edit is not quoted either", async () => {
    const current = (await t.call("GET", `${RAILS}/crypto`, { token: adminToken })).body.data;
    await t.call("PUT", `${RAILS}/crypto`, {
      token: adminToken,
      body: {
        name: "Crypto",
        type: "Crypto",
        status: "maintenance",
        fixedFee: current.fixedFee,
        fxSpreadPercent: 5,
        slaTarget: 99.9,
      },
    });
    expect(
      (await quote({ amount: "10", currency: "GBP" })).body.data.results.map(
        (result: { railId: string }) => result.railId,
      ),
    ).not.toContain("crypto");
    expect((await t.call("POST", `${RAILS}/crypto/start`, { token: adminToken })).body.data.status).toBe("active");
  });

  it("amount 0 gives no results; invalid amounts and currencies are 400s that write nothing", async () => {
    const zero = await quote({ amount: "0", currency: "GBP" });
    expect(zero.status).toBe(200);
    expect(zero.body.data).toMatchObject({ results: [], optimalRailId: null });
    const before = await tableItems();
    const cases: [unknown, string][] = [
      [{ amount: "-1", currency: "USD" }, "Amount must be 0 or more"],
      [{ amount: "abc", currency: "USD" }, "Amount must be a number"],
      [{ amount: "1.001", currency: "USD" }, "USD amounts can have at most 2 decimal places"],
      [{ amount: "1.5", currency: "JPY" }, "JPY amounts cannot have decimals"],
      [{ amount: "1e3", currency: "EUR" }, "Amount must be a number"],
      [{ amount: "10000000000", currency: "EUR" }, "Amount is too large"],
      [{ amount: null, currency: "EUR" }, "Amount is required"],
      [{ amount: "1", currency: "CHF" }, "Currency must be one of USD, EUR, GBP, JPY, INR"],
      [
        { amount: "1", currency: "USD", country: "Germany" },
        "country must be an ISO 3166-1 alpha-2 country code (e.g. DE)",
      ],
      [
        { amount: "1", currency: "USD", payoutCurrency: "BTC" },
        "payoutCurrency must be one of USD, EUR, GBP, JPY, INR",
      ],
      [{ amount: "1", currency: "USD", rail: "ach" }, "Unknown field: rail"],
      ["[1]", "Request body must be a JSON object"],
    ];
    for (const [body, message] of cases) {
      const reply = await quote(body);
      expect([reply.status, reply.body.message], JSON.stringify(body)).toEqual([400, message]);
    }
    expect(await tableItems()).toEqual(before);
  });
});
