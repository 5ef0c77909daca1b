import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, nextTestAddress } from "@fintech/testing/app";
import { dataItems } from "@fintech/testing/context";
import { seedAdminFromEnv } from "../../../../infra/local/seed";

/**
 * FX and treasury through the whole app: who may do what, rates set by hand and imported from
 * the ECB file (with history), quotes locked for 30 s on a controlled clock, and a quoted
 * transfer booking both journals and the spread leg; a reused, foreign, expired or mismatched
 * quote is a 422 that changes nothing.
 */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
let adminToken: string;
let user: { token: string; id: string };
let stranger: { token: string; id: string };
let now = Date.parse("2026-11-27T10:00:00.000Z");

const FX = "/api/v1/fx";
const LEDGER = "/api/v1/ledger";
const ecbSample = readFileSync(new URL("../../../core/src/fx/fixtures/eurofxref.csv", import.meta.url), "utf8");

beforeAll(async () => {
  t = await createTestApp({}, { clock: () => new Date(now) });
  await seedAdminFromEnv(t.core, { ADMIN_EMAIL: "fx-admin@example.com", ADMIN_PASSWORD: "admin password 1" });
  const login = await t.call("POST", "/api/v1/auth/login", {
    body: { email: "fx-admin@example.com", password: "admin password 1" },
    ip: nextTestAddress(),
  });
  adminToken = login.body.data.token;
  const signed = await t.signUp("fx-user@example.com");
  user = { token: signed.token, id: signed.user.id };
  const other = await t.signUp("fx-stranger@example.com");
  stranger = { token: other.token, id: other.user.id };
});
afterAll(async () => {
  await t.core.dispose();
});

const stable = (item: Record<string, unknown>) =>
  JSON.stringify(Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b))));
const itemsNow = async () => (await dataItems(t.core)).map(stable).sort();
async function csvImport(text: string, token = adminToken, type = "text/csv") {
  const response = await t.app.request(
    `${FX}/rates/import`,
    { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": type }, body: text },
    { incoming: { socket: { remoteAddress: nextTestAddress() } } },
  );
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe("who may use the FX and treasury API", () => {
  const everyRoute: [string, string, unknown?][] = [
    ["GET", `${FX}/rates`],
    ["GET", `${FX}/rates/EURUSD/history`],
    ["PUT", `${FX}/rates/EURUSD`, { rate: "1.2" }],
    ["POST", `${FX}/rates/import`, "Date, USD\n2026-01-01, 1.1\n"],
    ["POST", `${FX}/quotes`, { fromCurrency: "USD", toCurrency: "EUR", amount: "10" }],
    ["GET", "/api/v1/treasury/positions"],
    ["GET", "/api/v1/treasury/revenue"],
  ];
  it.each(everyRoute)("%s %s: 401 without a token or with a forged one", async (method, path, body) => {
    expect((await t.call(method, path, { body })).status).toBe(401);
    const forged = await t.call(method, path, { body, token: "eyJhbGciOiJub25lIn0.e30." });
    expect(forged.status).toBe(401);
  });

  it.each([
    ["PUT", `${FX}/rates/EURUSD`, { rate: "1.2" }],
    ["POST", `${FX}/rates/import`, "Date, USD\n2026-01-01, 1.1\n"],
    ["GET", "/api/v1/treasury/positions"],
    ["GET", "/api/v1/treasury/revenue"],
  ] as [string, string, unknown][])("%s %s: 403 for a user, nothing changes", async (method, path, body) => {
    const before = await itemsNow();
    const reply = await t.call(method, path, { body, token: user.token });
    expect([reply.status, reply.body.code]).toEqual([403, "admin_required"]);
    expect(await itemsNow()).toEqual(before);
  });

  it.each(["EURXXX", "USDEUR", "eur", "x".repeat(3000), "EUR%00USD"])(
    "junk pair %j: 400 invalid_pair",
    async (pair) => {
      const history = await t.call("GET", `${FX}/rates/${encodeURIComponent(pair)}/history`, { token: user.token });
      expect([history.status, history.body.code]).toEqual([400, "invalid_pair"]);
      const set = await t.call("PUT", `${FX}/rates/${encodeURIComponent(pair)}`, {
        token: adminToken,
        body: { rate: "1" },
      });
      expect([set.status, set.body.code]).toEqual([400, "invalid_pair"]);
    },
  );

  it.each(["0", "367", "abc", "1.5", "-3"])("days=%s: 400 invalid_days", async (days) => {
    const reply = await t.call("GET", `${FX}/rates/EURUSD/history?days=${days}`, { token: user.token });
    expect([reply.status, reply.body.code]).toEqual([400, "invalid_days"]);
    const revenue = await t.call("GET", `/api/v1/treasury/revenue?days=${days}`, { token: adminToken });
    expect([revenue.status, revenue.body.code]).toEqual([400, "invalid_days"]);
  });
});

describe("rates", () => {
  it("lists every pair from the seed rates on a fresh install, with bid and ask", async () => {
    const reply = await t.call("GET", `${FX}/rates`, { token: user.token });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toHaveLength(10);
    const eurusd = reply.body.data.find((rate: { pair: string }) => rate.pair === "EURUSD");
    expect(eurusd).toMatchObject({ mid: "1.08695652", spread: "0.0050", source: "seed" });
  });

  it("refuses bad rates and spreads with a 400 that changes nothing", async () => {
    const before = await itemsNow();
    for (const body of [
      { rate: "-1" },
      { rate: "1e3" },
      { rate: 1.2 },
      { spread: "0.5" },
      {},
      { rate: "1.1", extra: true },
      "not json",
    ]) {
      const reply = await t.call("PUT", `${FX}/rates/EURUSD`, { token: adminToken, body });
      expect(reply.status, JSON.stringify(body)).toBe(400);
    }
    expect(await itemsNow()).toEqual(before);
  });

  it("an admin sets a rate and a spread; both are current and kept in the history", async () => {
    const first = await t.call("PUT", `${FX}/rates/EURUSD`, { token: adminToken, body: { rate: "1.2" } });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ pair: "EURUSD", mid: "1.2000", spread: "0.0050", source: "manual" });
    now += 60_000;
    const second = await t.call("PUT", `${FX}/rates/EURUSD`, {
      token: adminToken,
      body: { rate: "1.25", spread: "0.005" },
    });
    expect(second.body.data).toMatchObject({ mid: "1.2500", spread: "0.0050", bid: "1.24375", ask: "1.25625" });
    const history = await t.call("GET", `${FX}/rates/EURUSD/history?days=7`, { token: user.token });
    expect(history.status).toBe(200);
    expect(history.body.data.map((rate: { mid: string }) => rate.mid)).toEqual(["1.2000", "1.2500"]);
    expect(history.body.data[1].recorded_by).toBeTruthy();
  });

  it("imports the ECB daily file: cross rates through EUR, unknown currencies ignored, history dated", async () => {
    const reply = await csvImport(ecbSample);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ as_of: "2026-11-26" });
    expect(reply.body.pairs).toHaveLength(10);
    expect(reply.body.ignored).toEqual(expect.arrayContaining(["BGN", "ZAR"]));
    const rates = await t.call("GET", `${FX}/rates`, { token: user.token });
    const byPair = Object.fromEntries(
      rates.body.data.map((rate: { pair: string; mid: string; source: string }) => [rate.pair, rate]),
    );
    expect(byPair.GBPUSD).toMatchObject({ mid: "1.31661158", source: "ecb" });
    // EURUSD was set by hand today, after the file's day: the newer rate stays current.
    expect(byPair.EURUSD).toMatchObject({ mid: "1.2500", source: "manual" });
    const history = await t.call("GET", `${FX}/rates/GBPUSD/history?days=366`, { token: user.token });
    expect(history.body.data).toEqual([expect.objectContaining({ as_of: "2026-11-26", mid: "1.31661158" })]);
  });

  it("refuses a bad file with the line, a non-CSV body and an oversized file; nothing changes", async () => {
    const before = await itemsNow();
    const bad = await csvImport("Date, USD, GBP\n14 November 2025, 1.16, abc\n");
    expect([bad.status, bad.body.code]).toEqual([400, "invalid_rates_file"]);
    expect(bad.body.message).toContain("Line 2");
    const xml = await csvImport(`<rates>${ecbSample}</rates>`, adminToken, "application/xml");
    expect([xml.status, xml.body.code]).toEqual([415, "unsupported_media_type"]);
    const json = await csvImport(JSON.stringify({ csv: 12 }), adminToken, "application/json");
    expect([json.status, json.body.code]).toEqual([400, "validation_error"]);
    const huge = await csvImport(`Date, USD\n${"2026-01-01, 1.1\n".repeat(6000)}`);
    expect([huge.status, huge.body.code]).toEqual([413, "payload_too_large"]);
    expect(await itemsNow()).toEqual(before);
  });
});

interface Accounts {
  usd: string;
  eur: string;
  usd2: string;
}

async function openAccounts(token: string, tag: string): Promise<Accounts> {
  const open = async (name: string, currency: string) => {
    const reply = await t.call("POST", `${LEDGER}/accounts`, { token, body: { name: `${name} ${tag}`, currency } });
    expect(reply.status).toBe(201);
    return reply.body.data.id as string;
  };
  const accounts = {
    usd: await open("Dollars", "USD"),
    eur: await open("Euros", "EUR"),
    usd2: await open("Spare", "USD"),
  };
  const funded = await t.call("POST", `${LEDGER}/transactions/test-balance`, {
    token,
    body: { account_id: accounts.usd, amount: "1000.00" },
  });
  expect(funded.status).toBe(201);
  const posted = await t.call("POST", `${LEDGER}/transactions/${funded.body.data.id}/post`, { token });
  expect(posted.status).toBe(200);
  return accounts;
}

const quoteFor = (token: string, body: unknown, key?: string) =>
  t.call("POST", `${FX}/quotes`, { token, body, ...(key ? { headers: { "Idempotency-Key": key } } : {}) });
const balanceOf = async (token: string, id: string) =>
  (await t.call("GET", `${LEDGER}/accounts/${id}/balance`, { token })).body.data as {
    balance: string;
    available: string;
    pending_in: string;
  };
const fxTransfer = (token: string, body: Record<string, unknown>, key?: string) =>
  t.call("POST", `${LEDGER}/transactions/transfer`, {
    token,
    body,
    ...(key ? { headers: { "Idempotency-Key": key } } : {}),
  });

describe("quotes and quoted transfers", () => {
  let accounts: Accounts;
  beforeAll(async () => {
    accounts = await openAccounts(user.token, "fx");
  });

  it("quotes with the spread as its own amount, locked for 30 s, replayed under its key", async () => {
    const reply = await quoteFor(user.token, { fromCurrency: "USD", toCurrency: "EUR", amount: "100.00" }, "q-1");
    expect(reply.status).toBe(201);
    // EURUSD 1.25, spread 0.005: 100.00 USD, spread 0.50, (100.00 − 0.50) × 0.8 = 79.60 EUR.
    expect(reply.body.data).toMatchObject({
      fromCurrency: "USD",
      toCurrency: "EUR",
      midRate: "0.8000",
      spread: "0.0050",
      sellAmount: "100.00",
      spreadAmount: "0.50",
      buyAmount: "79.60",
      customerRate: "0.7960",
      expiresAt: new Date(now + 30_000).toISOString(),
      used: false,
    });
    const again = await quoteFor(user.token, { fromCurrency: "USD", toCurrency: "EUR", amount: "100.00" }, "q-1");
    expect(again.body.data.id).toBe(reply.body.data.id);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    const other = await quoteFor(user.token, { fromCurrency: "USD", toCurrency: "EUR", amount: "101.00" }, "q-1");
    expect([other.status, other.body.code]).toEqual([422, "idempotency_key_reused"]);
  });

  it.each([
    [{ fromCurrency: "USD", toCurrency: "USD", amount: "1" }, 400],
    [{ fromCurrency: "USD", toCurrency: "XXX", amount: "1" }, 400],
    [{ fromCurrency: "USD", toCurrency: "EUR", amount: "0" }, 400],
    [{ fromCurrency: "USD", toCurrency: "EUR", amount: "1.001" }, 400],
    [{ fromCurrency: "USD", toCurrency: "EUR", amount: "99999999999" }, 400],
    [{ fromCurrency: "USD", toCurrency: "EUR", amount: { $gt: 1 } }, 400],
    [{ fromCurrency: "USD", toCurrency: "EUR", amount: "0.01" }, 422],
  ])("refuses a bad quote request %j", async (body, status) => {
    const before = await itemsNow();
    expect((await quoteFor(user.token, body)).status).toBe(status);
    expect(await itemsNow()).toEqual(before);
  });

  it("books both journals and the spread leg in one go, each balanced in its currency", async () => {
    const quote = (await quoteFor(user.token, { fromCurrency: "USD", toCurrency: "EUR", amount: "100.00" })).body.data;
    const reply = await fxTransfer(
      user.token,
      { from_account_id: accounts.usd, to_account_id: accounts.eur, amount: "100.00", quote_id: quote.id },
      "fx-1",
    );
    expect(reply.status).toBe(201);
    const [sell, buy] = reply.body.fx.journals;
    expect(reply.body.data.id).toBe(sell.id);
    expect(sell).toMatchObject({ type: "fx", currency: "USD", status: "draft", fee: "0.50" });
    expect(
      sell.entries.map((entry: { account_id: string; side: string; amount_minor: number }) => [
        entry.account_id,
        entry.side,
        entry.amount_minor,
      ]),
    ).toEqual([
      [accounts.usd, "credit", 10_000],
      ["sys-fx-usd", "debit", 9_950],
      ["sys-fxrevenue-usd", "debit", 50],
    ]);
    expect(buy).toMatchObject({ type: "fx", currency: "EUR", status: "draft" });
    expect(
      buy.entries.map((entry: { account_id: string; side: string; amount_minor: number }) => [
        entry.account_id,
        entry.side,
        entry.amount_minor,
      ]),
    ).toEqual([
      ["sys-fx-eur", "credit", 7_960],
      [accounts.eur, "debit", 7_960],
    ]);
    expect((await balanceOf(user.token, accounts.usd)).available).toBe("900.00");
    expect((await balanceOf(user.token, accounts.eur)).pending_in).toBe("79.60");
    for (const journal of [sell, buy])
      expect((await t.call("POST", `${LEDGER}/transactions/${journal.id}/post`, { token: user.token })).status).toBe(
        200,
      );
    expect(await balanceOf(user.token, accounts.usd)).toMatchObject({ balance: "900.00", available: "900.00" });
    expect(await balanceOf(user.token, accounts.eur)).toMatchObject({ balance: "79.60", available: "79.60" });
    const history = await t.call("GET", `${LEDGER}/transactions/history?type=fx`, { token: user.token });
    expect(history.body.data.map((journal: { id: string }) => journal.id).sort()).toEqual([sell.id, buy.id].sort());
    const trial = await t.call("GET", `${LEDGER}/trial-balance`, { token: user.token });
    expect(trial.body.is_balanced ?? trial.body.data?.is_balanced).toBe(true);

    // The same request again replays the first reply; the quote with a new key is used.
    const replay = await fxTransfer(
      user.token,
      { from_account_id: accounts.usd, to_account_id: accounts.eur, amount: "100.00", quote_id: quote.id },
      "fx-1",
    );
    expect(replay.status).toBe(201);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(replay.body).toEqual(reply.body);
    const before = await itemsNow();
    const reused = await fxTransfer(
      user.token,
      { from_account_id: accounts.usd, to_account_id: accounts.eur, amount: "100.00", quote_id: quote.id },
      "fx-2",
    );
    expect([reused.status, reused.body.code]).toEqual([422, "quote_used"]);
    // A keyed refusal is recorded under its key (and only that).
    expect((await itemsNow()).filter((item) => !before.includes(item))).toHaveLength(1);
    expect(await balanceOf(user.token, accounts.usd)).toMatchObject({ available: "900.00" });
  });

  it("treasury shows the positions and the revenue of the posted conversion", { timeout: 30_000 }, async () => {
    const positions = await t.call("GET", "/api/v1/treasury/positions", { token: adminToken });
    expect(positions.status).toBe(200);
    const byCurrency = Object.fromEntries(
      positions.body.data.map((row: { currency: string }) => [row.currency, row] as const),
    );
    expect(byCurrency.USD).toMatchObject({ position: "99.50", revenue: "0.50" });
    expect(byCurrency.EUR).toMatchObject({ position: "-79.60", revenue: "0.00" });
    const revenue = await t.call("GET", "/api/v1/treasury/revenue?days=2", { token: adminToken });
    expect(revenue.status).toBe(200);
    expect(revenue.body.data).toContainEqual({
      date: "2026-11-27",
      currency: "USD",
      revenue: "0.50",
      revenue_minor: 50,
      conversions: 1,
    });
  });

  it("an expired, foreign or mismatched quote is a 422 and nothing changes", async () => {
    const body = (quoteId: string, amount = "10.00", to = accounts.eur) => ({
      from_account_id: accounts.usd,
      to_account_id: to,
      amount,
      quote_id: quoteId,
    });
    const mine = (await quoteFor(user.token, { fromCurrency: "USD", toCurrency: "EUR", amount: "10.00" })).body.data;
    const theirs = (await quoteFor(stranger.token, { fromCurrency: "USD", toCurrency: "EUR", amount: "10.00" })).body
      .data;
    const before = await itemsNow();
    const cases: [Record<string, unknown>, number, string][] = [
      [body(theirs.id), 422, "quote_not_found"],
      [body("00000000-0000-4000-8000-000000000000"), 422, "quote_not_found"],
      [body(mine.id, "11.00"), 422, "quote_mismatch"],
      [body(mine.id, "10.00", accounts.usd2), 422, "quote_mismatch"],
      [body("x".repeat(65)), 400, "validation_error"],
      [body("../../etc"), 400, "validation_error"],
      [{ ...body(mine.id), quote_id: 12 }, 400, "validation_error"],
    ];
    for (const [request, status, code] of cases) {
      const reply = await fxTransfer(user.token, request);
      expect([reply.status, reply.body.code], JSON.stringify(request)).toEqual([status, code]);
    }
    const stolen = await t.call("GET", `${FX}/quotes/${mine.id}`, { token: stranger.token });
    expect([stolen.status, stolen.body.code]).toEqual([422, "quote_not_found"]);
    now += 30_000;
    const expired = await fxTransfer(user.token, body(mine.id));
    expect([expired.status, expired.body.code, expired.body.message]).toEqual([
      422,
      "quote_expired",
      "Quote expired, get a new one",
    ]);
    expect(await itemsNow()).toEqual(before);
  });

  it("keeps the currency refusal for a transfer without a quote, and the overdraft rule with one", async () => {
    const plain = await fxTransfer(user.token, {
      from_account_id: accounts.usd,
      to_account_id: accounts.eur,
      amount: "10.00",
    });
    expect([plain.status, plain.body.code]).toEqual([400, "currency_mismatch"]);
    const big = (await quoteFor(user.token, { fromCurrency: "USD", toCurrency: "EUR", amount: "5000.00" })).body.data;
    const overdraft = await fxTransfer(user.token, {
      from_account_id: accounts.usd,
      to_account_id: accounts.eur,
      amount: "5000.00",
      quote_id: big.id,
    });
    expect([overdraft.status, overdraft.body.code]).toEqual([422, "insufficient_funds"]);
    const quote = await t.call("GET", `${FX}/quotes/${big.id}`, { token: user.token });
    expect(quote.body.data.used).toBe(false);
  });
});
