import { describe, expect, it } from "vitest";
import { createApi } from "./api";
import { createHttpClient, filenameOf } from "./client";
import { ApiError } from "./errors";
import { fakeFetch, fakeTokens, json } from "./testing";

function setup(reply: Parameters<typeof fakeFetch>[0]) {
  const fake = fakeFetch(reply);
  const tokens = fakeTokens("token-1");
  const config = { baseUrl: "https://api.test", fetch: fake.fetch, credentials: tokens.source };
  return { api: createApi(createHttpClient(config)), calls: fake.calls, tokens: tokens.state };
}

const page = { data: [], pagination: { limit: 50, offset: null, next_cursor: null, has_more: false } };

describe("transaction history with filters", () => {
  it("sends the filters and the cursor, and no offset beside a cursor", async () => {
    const { api, calls } = setup(() => json(200, page));
    await api.ledger.transactionHistory(
      { limit: 50, offset: 0, cursor: "c-1" },
      { status: "draft", type: "test_balance", account_id: "a 1", from: "2026-03-01", to: "2026-03-31", q: " rent " },
    );
    const url = new URL(calls[0]!.url, "http://x");
    expect(url.pathname).toBe("/api/v1/ledger/transactions/history");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      limit: "50",
      cursor: "c-1",
      status: "draft",
      type: "test_balance",
      account_id: "a 1",
      from: "2026-03-01",
      to: "2026-03-31",
      q: "rent",
    });
  });

  it("reads one transaction by id", async () => {
    const { api, calls } = setup(() => json(200, { data: { id: "tx/1" } }));
    expect(await api.ledger.getTransaction("tx/1")).toEqual({ id: "tx/1" });
    expect(calls[0]!.url).toBe("https://api.test/api/v1/ledger/transactions/tx%2F1");
  });
});

describe("CSV export", () => {
  it("downloads the file with the bearer token and the server's file name", async () => {
    const csv = "id,created_at\ntx-1,2026-03-14T12:00:00Z\n";
    const { api, calls } = setup(
      () =>
        new Response(csv, {
          status: 200,
          headers: {
            "Content-Type": "text/csv; charset=utf-8",
            "Content-Disposition": 'attachment; filename="transactions-2026-03-14.csv"',
          },
        }),
    );
    const file = await api.ledger.exportTransactions({ status: "posted" });
    expect(file.filename).toBe("transactions-2026-03-14.csv");
    expect(await file.blob.text()).toBe(csv);
    expect(calls[0]!.url).toBe("https://api.test/api/v1/ledger/transactions/export?status=posted");
    expect(calls[0]!.headers.get("Authorization")).toBe("Bearer token-1");
  });

  it("shows the server's message when the export is refused, and signs out on 401", async () => {
    const refused = setup(() => json(422, { message: "Too many rows: narrow the filters", code: "export_too_large" }));
    const error = await refused.api.ledger.exportTransactions().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe("Too many rows: narrow the filters");
    expect((error as ApiError).status).toBe(422);

    const expired = setup(() => json(401, { message: "Invalid token" }));
    await expect(expired.api.ledger.exportTransactions()).rejects.toThrow(
      "Authentication required. Please login again.",
    );
    expect(expired.tokens.cleared).toBe(1);
  });

  it("reads plain and RFC 5987 file names", () => {
    expect(filenameOf('attachment; filename="a.csv"')).toBe("a.csv");
    expect(filenameOf("attachment; filename*=UTF-8''t%20x.csv")).toBe("t x.csv");
    expect(filenameOf(null)).toBeNull();
    expect(filenameOf("attachment; filename*=UTF-8''%E0%A4%A.csv")).toBeNull();
  });
});

describe("ledger commands and the stream ticket", () => {
  it("sends reconcileAccount in the command envelope and returns the result", async () => {
    const result = {
      accountId: "a1",
      accountName: "Main",
      reconciled: false,
      variance: "10.00",
      expectedBalance: "110.00",
      ledgerBalance: "100.00",
      currency: "USD",
      at: "2026-03-14T12:00:00Z",
    };
    const { api, calls } = setup(() => json(200, { command: "reconcileAccount", result }));
    expect(await api.ledger.reconcileAccount({ accountId: "a1", expectedBalance: "110.00", currency: "USD" })).toEqual(
      result,
    );
    expect(calls[0]!.url).toBe("https://api.test/api/grpc/ledger/command");
    expect(calls[0]!.method).toBe("POST");
    expect(calls[0]!.headers.get("Authorization")).toBe("Bearer token-1");
    expect(calls[0]!.body).toEqual({
      command: { reconcileAccount: { accountId: "a1", expectedBalance: "110.00", currency: "USD" } },
    });
  });

  it("keeps a refused command's reason beside its message", async () => {
    const { api } = setup(() =>
      json(404, { message: "Ledger command failed", reason: "Account not found", code: "not_found" }),
    );
    const error = await api.ledger
      .reconcileAccount({ accountId: "nope", expectedBalance: "1", currency: "USD" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      message: "Ledger command failed",
      reason: "Account not found",
      code: "not_found",
      status: 404,
    });
  });

  it("asks for a stream ticket with the bearer token", async () => {
    const { api, calls } = setup(() =>
      json(201, { ticket: "t-1", expires_at: "2026-03-14T12:01:00Z", expires_in: 60 }),
    );
    expect((await api.ledger.streamTicket()).ticket).toBe("t-1");
    expect(calls[0]!).toMatchObject({ url: "https://api.test/api/v1/auth/stream-ticket", method: "POST" });
    expect(calls[0]!.headers.get("Authorization")).toBe("Bearer token-1");
  });

  it("sets and clears the low-balance threshold with PATCH", async () => {
    const { api, calls } = setup(() => json(200, { data: { id: "a1", low_balance_threshold: null } }));
    await api.ledger.updateAccount("a1", { low_balance_threshold: "" });
    expect(calls[0]!).toMatchObject({
      url: "https://api.test/api/v1/ledger/accounts/a1",
      method: "PATCH",
      body: { low_balance_threshold: "" },
    });
  });
});
