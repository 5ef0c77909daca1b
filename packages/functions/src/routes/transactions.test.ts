import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "@fintech/testing/app";

/** The API of the web's Transactions tab (docs/api.md#api-overview): list, filters, detail, CSV. */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
let token: string;
let otherToken: string;
let userId: string;

/** The ledger's clock, moved to chosen days (in the future: system chains opened at the real time). */
let now = new Date();
const at = (iso: string) => {
  now = new Date(iso);
};

interface Entry {
  account_id: string;
  account_name: string;
  account_number: string | null;
  owned: boolean;
  side: string;
  debit: string;
  credit: string;
}
interface Row {
  id: string;
  type: string;
  status: string;
  amount: string;
  description: string;
  counterparty: string;
  idempotency_key: string | null;
  entries: Entry[];
  history: { operation: string; status: string; at: string; by: { id: string; name: string } | null }[];
  created_at: string;
}

async function write(path: string, body: Record<string, unknown>, key?: string) {
  const reply = await t.call("POST", `/api/v1/ledger/transactions/${path}`, {
    token,
    body,
    headers: key ? { "Idempotency-Key": key } : {},
  });
  expect(reply.status).toBe(201);
  return reply.body.data as Row;
}

async function list(query: string, as = token) {
  return t.call("GET", `/api/v1/ledger/transactions/history${query}`, { token: as });
}

const ids = (rows: Row[]) => rows.map((row) => row.id);
let accounts: { a: { id: string; account_number: string }; b: { id: string; account_number: string } };
let made: { dep1: Row; dep2: Row; move: Row; gift: Row; formula: Row };

beforeAll(async () => {
  // Tokens are judged by the context's clock, which this test moves ahead: long-lived tokens.
  t = await createTestApp({ TOKEN_TTL_SECONDS: String(20 * 365 * 24 * 60 * 60) });
  const me = await t.signUp("tess@example.com", { first_name: "Tess", last_name: "Ledger" });
  token = me.token;
  userId = me.user.id;
  otherToken = (await t.signUp("mallory@example.com", { first_name: "Mal", last_name: "Lory" })).token;
  t.core.clock = () => now;

  at("2031-05-01T09:00:00.000Z");
  const open = async (name: string) =>
    (await t.call("POST", "/api/v1/ledger/accounts", { token, body: { name, currency: "USD" } })).body.data;
  accounts = { a: await open("Everyday"), b: await open("Rainy Day") };
  // Later than the accounts' own opening versions, so the deposit is stamped exactly now.
  at("2031-05-01T09:05:00.000Z");
  const dep1 = await write(
    "deposit",
    { account_id: accounts.a.id, amount: "100.00", description: "Salary May" },
    "salary-may",
  );
  at("2031-05-02T10:00:00.000Z");
  const posted = await t.call("POST", `/api/v1/ledger/transactions/${dep1.id}/post`, { token });
  expect(posted.status).toBe(200);
  const dep2 = await write("deposit", { account_id: accounts.b.id, amount: "7.25", description: "Cash from Grandma" });
  at("2031-05-03T23:59:59.999Z");
  const move = await write("transfer", {
    from_account_id: accounts.a.id,
    to_account_id: accounts.b.id,
    amount: "40",
    description: "To savings",
  });
  at("2031-05-04T00:00:00.000Z");
  const gift = await write("test-balance", { account_id: accounts.a.id, amount: "5" });
  at("2031-05-05T12:00:00.000Z");
  const formula = await write("deposit", {
    account_id: accounts.b.id,
    amount: "1",
    description: '=HYPERLINK("http://evil.example","click")',
  });
  made = { dep1, dep2, move, gift, formula };
});
afterAll(async () => t.core.dispose());

describe("GET /transactions/history rows", () => {
  it("carry accounts, counterparty, idempotency key and who did what", async () => {
    const reply = await list("");
    expect(reply.status).toBe(200);
    const rows = reply.body.data as Row[];
    expect(ids(rows)).toEqual([made.formula.id, made.gift.id, made.move.id, made.dep2.id, made.dep1.id]);
    const dep1 = rows.find((row) => row.id === made.dep1.id)!;
    expect(dep1).toMatchObject({
      status: "posted",
      counterparty: "External funding (USD)",
      idempotency_key: "salary-may",
    });
    expect(dep1.entries).toEqual([
      expect.objectContaining({
        account_id: accounts.a.id,
        account_name: "Everyday",
        account_number: accounts.a.account_number,
        owned: true,
        side: "debit",
        debit: "100.00",
        credit: "0",
      }),
      expect.objectContaining({
        account_id: "sys-funding-usd",
        account_name: "External funding (USD)",
        account_number: null,
        owned: false,
        side: "credit",
        credit: "100.00",
      }),
    ]);
    const tess = { id: userId, name: "Tess Ledger" };
    expect(dep1.history).toEqual([
      { operation: "create", status: "draft", at: "2031-05-01T09:05:00.000Z", by: tess },
      { operation: "post", status: "posted", at: "2031-05-02T10:00:00.000Z", by: tess },
    ]);
    expect(rows.find((row) => row.id === made.move.id)).toMatchObject({
      counterparty: "Everyday → Rainy Day",
      idempotency_key: null,
    });
    expect(rows.find((row) => row.id === made.gift.id)).toMatchObject({ counterparty: "Sandbox faucet (USD)" });
  });
});

describe("filters", () => {
  it("by status, type, account, date range and description, alone and together", async () => {
    const cases: [string, Row[]][] = [
      ["?status=posted", [made.dep1]],
      ["?status=draft", [made.formula, made.gift, made.move, made.dep2]],
      ["?type=transfer", [made.move]],
      ["?type=test_balance", [made.gift]],
      [`?account_id=${accounts.b.id}`, [made.formula, made.move, made.dep2]],
      [`?account_id=${accounts.b.id}&type=deposit`, [made.formula, made.dep2]],
      // Plain dates are whole UTC days, inclusive at both ends.
      ["?from=2031-05-02&to=2031-05-03", [made.move, made.dep2]],
      ["?from=2031-05-04", [made.formula, made.gift]],
      ["?to=2031-05-01", [made.dep1]],
      ["?from=2031-05-03T23:59:59.999Z&to=2031-05-04T00:00:00Z", [made.gift, made.move]],
      ["?from=2031-05-04T02:00:00%2B02:00&to=2031-05-04T00:00:00.000Z", [made.gift]],
      ["?q=GRANDMA", [made.dep2]],
      // The search covers counterparties too: "sa" is in "Sandbox faucet", the test balance's.
      ["?q=sa", [made.gift, made.move, made.dep1]],
      ["?q=sa&status=draft&from=2031-05-03", [made.gift, made.move]],
      ["?q=nothing-like-this", []],
      ["?status=&type=&q=", [made.formula, made.gift, made.move, made.dep2, made.dep1]],
    ];
    for (const [query, want] of cases) {
      const reply = await list(query);
      expect(reply.status, query).toBe(200);
      expect(ids(reply.body.data), query).toEqual(ids(want));
    }
  });

  it("refuses bad values with a clear 400 (or 404 for an account that is not the caller's)", async () => {
    const cases: [string, number, string][] = [
      ["?status=void", 400, "status must be one of draft, posted"],
      ["?type=gift", 400, "type must be one of"],
      ["?from=yesterday", 400, "from must be an ISO date (YYYY-MM-DD) or date-time"],
      ["?to=2031-02-30", 400, "to must be an ISO date (YYYY-MM-DD) or date-time"],
      ["?from=2031-05-04&to=2031-05-03", 400, "from must not be after to"],
      [`?q=${"x".repeat(101)}`, 400, "q must be at most 100 characters"],
      ["?q=%20%20", 400, "q must not be blank"],
      ["?account_id=sys-funding-usd", 404, "Account not found"],
      [`?account_id=${"z".repeat(5000)}`, 404, "Account not found"],
    ];
    for (const [query, status, message] of cases) {
      const reply = await list(query);
      expect(reply.status, query).toBe(status);
      expect(reply.body.message, query).toContain(message);
    }
    const foreign = await list(`?account_id=${accounts.a.id}`, otherToken);
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe("Account not found");
  });
});

describe("paging", () => {
  it("pages past the first 50 with cursors bound to the filters", async () => {
    at("2031-06-01T08:00:00.000Z");
    for (let index = 0; index < 56; index++)
      await write("deposit", {
        account_id: accounts.a.id,
        amount: "1",
        description: `bulk ${index % 2 === 0 ? "even" : "odd"} ${index}`,
      });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const reply: Awaited<ReturnType<typeof list>> = await list(
        `?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      expect(reply.status).toBe(200);
      seen.push(...ids(reply.body.data));
      cursor = reply.body.pagination.next_cursor;
      expect(reply.body.pagination.has_more).toBe(cursor !== null);
      pages++;
    } while (cursor);
    expect(pages).toBe(2);
    expect(seen).toHaveLength(61);
    expect(new Set(seen).size).toBe(61);

    // Filtered pages: every match once, in order, none of the others.
    const filtered: Row[] = [];
    cursor = null;
    do {
      const reply: Awaited<ReturnType<typeof list>> = await list(
        `?q=even&from=2031-06-01&limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      filtered.push(...(reply.body.data as Row[]));
      cursor = reply.body.pagination.next_cursor;
    } while (cursor);
    expect(filtered).toHaveLength(28);
    expect(filtered.every((row) => row.description.includes("even"))).toBe(true);
    expect(filtered.map((row) => row.created_at)).toEqual([...filtered.map((row) => row.created_at)].sort().reverse());
    // Offsets still work.
    const offset = await list("?limit=5&offset=58");
    expect(ids(offset.body.data)).toEqual(seen.slice(58));
  });
});

describe("GET /transactions/{id}", () => {
  it("answers one of the caller's journals in full; another user's is a 404", async () => {
    const reply = await t.call("GET", `/api/v1/ledger/transactions/${made.move.id}`, { token });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({
      id: made.move.id,
      type: "transfer",
      amount: "40.00",
      counterparty: "Everyday → Rainy Day",
    });
    expect(
      reply.body.data.entries.map((entry: Entry) => [entry.account_name, entry.debit, entry.credit, entry.owned]),
    ).toEqual([
      ["Everyday", "0", "40.00", true],
      ["Rainy Day", "40.00", "0", true],
    ]);
    const stranger = await t.call("GET", `/api/v1/ledger/transactions/${made.move.id}`, { token: otherToken });
    expect(stranger.status).toBe(404);
    expect(stranger.body.message).toBe("Transaction not found");
    const missing = await t.call("GET", "/api/v1/ledger/transactions/00000000-0000-4000-8000-000000000000", { token });
    expect(missing.status).toBe(404);
  });
});

describe("GET /transactions/export", () => {
  it("downloads the filtered list as CSV, formula-safe, with the agreed columns", async () => {
    at("2031-07-09T18:00:00.000Z");
    const reply = await t.app.request(`/api/v1/ledger/transactions/export?to=2031-05-31`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(reply.headers.get("content-disposition")).toBe('attachment; filename="transactions-2031-07-09.csv"');
    const lines = (await reply.text()).trimEnd().split("\n");
    expect(lines[0]).toBe(
      "id,created_at,posted_at,type,status,description,currency,amount,debit_account,credit_account,idempotency_key,counterparty,fee",
    );
    expect(lines).toHaveLength(6);
    expect(lines[1]).toBe(
      `${made.formula.id},2031-05-05T12:00:00.000Z,,deposit,draft,"'=HYPERLINK(""http://evil.example"",""click"")",USD,1.00,Rainy Day (${accounts.b.account_number}),External funding (USD),,External funding (USD),`,
    );
    expect(lines[5]).toBe(
      `${made.dep1.id},2031-05-01T09:05:00.000Z,2031-05-02T10:00:00.000Z,deposit,posted,Salary May,USD,100.00,Everyday (${accounts.a.account_number}),External funding (USD),salary-may,External funding (USD),`,
    );
    expect(lines[3]).toContain(`,Rainy Day (${accounts.b.account_number}),Everyday (${accounts.a.account_number}),`);

    const filtered = await t.app.request(`/api/v1/ledger/transactions/export?type=transfer`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect((await filtered.text()).trimEnd().split("\n")).toHaveLength(2);
    const bad = await t.call("GET", "/api/v1/ledger/transactions/export?status=void", { token });
    expect(bad.status).toBe(400);
    const stranger = await t.app.request(`/api/v1/ledger/transactions/export`, {
      headers: { Authorization: `Bearer ${otherToken}` },
    });
    expect((await stranger.text()).trimEnd().split("\n")).toHaveLength(1);
  });
});
