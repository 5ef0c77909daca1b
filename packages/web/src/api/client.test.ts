import { describe, expect, it } from "vitest";
import { createApi } from "./api";
import { createHttpClient, type FetchFunction } from "./client";
import { buildCurl, shellQuote } from "./curl";
import { API_MESSAGES, ApiError } from "./errors";
import { withPagination, withQuery } from "./query";
import { fakeFetch, fakeTokens, json } from "./testing";

function setup(reply: Parameters<typeof fakeFetch>[0], token: string | null = "tok-1", baseUrl = "https://api.test") {
  const fake = fakeFetch(reply);
  const tokens = fakeTokens(token);
  const http = createHttpClient({ baseUrl, fetch: fake.fetch, credentials: tokens.source });
  return { http, api: createApi(http), calls: fake.calls, tokens: tokens.state };
}

const pathOf = (url: string) => url.replace(/^https:\/\/api\.test/, "");

const rejection = async (promise: Promise<unknown>): Promise<ApiError> => {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
};

describe("authenticated calls", () => {
  it("send the bearer token and JSON", async () => {
    const { api, calls } = setup(() => json(200, { data: { id: "u1" } }));
    await api.profile.getProfile();
    expect(calls[0]?.url).toBe("https://api.test/api/v1/users/profile");
    expect(calls[0]?.headers.get("Authorization")).toBe("Bearer tok-1");
    expect(calls[0]?.headers.get("Accept")).toBe("application/json");
  });

  it("fail without any request when no token is stored", async () => {
    const { api, calls } = setup(() => json(200, {}), null);
    const error = await rejection(api.ledger.listAccounts());
    expect(error.message).toBe("Authentication required. Please login first.");
    expect(error.kind).toBe("no-token");
    expect(calls).toHaveLength(0);
  });

  it("clear the stored credentials on a 401", async () => {
    const { api, tokens } = setup(() => json(401, { message: "Invalid or expired token", code: "invalid_token" }));
    const error = await rejection(api.profile.getProfile());
    expect(error.message).toBe("Authentication required. Please login again.");
    expect(error.status).toBe(401);
    expect(tokens.cleared).toBe(1);
    expect(tokens.token).toBeNull();
  });

  it("use the body's message for other failures", async () => {
    const { api, tokens } = setup(() => json(409, { message: "Insufficient funds", code: "insufficient_funds" }));
    const error = await rejection(
      api.ledger.transfer({ from_account_id: "a", to_account_id: "b", amount: "10.00", currency: "USD" }),
    );
    expect(error.message).toBe("Insufficient funds");
    expect(error.code).toBe("insufficient_funds");
    expect(error.status).toBe(409);
    expect(tokens.cleared).toBe(0);
  });

  it("fall back to the error field, then to the status", async () => {
    const withError = setup(() => json(422, { error: "Transaction already posted" }));
    expect((await rejection(withError.api.ledger.postTransaction("t1"))).message).toBe("Transaction already posted");
    const bare = setup(() => new Response("upstream timeout", { status: 504 }));
    expect((await rejection(bare.api.ledger.listAccounts())).message).toBe("HTTP error! status: 504");
  });

  it("reject an OK reply that is not JSON", async () => {
    const { api } = setup(() => new Response("<html>", { status: 200 }));
    expect((await rejection(api.ledger.listAccounts())).message).toBe(API_MESSAGES.invalidResponse);
  });

  it("map a network failure to a network error, keeping the session", async () => {
    const failing: FetchFunction = () => Promise.reject(new TypeError("Failed to fetch"));
    const tokens = fakeTokens("t");
    const http = createHttpClient({ baseUrl: "https://api.test", fetch: failing, credentials: tokens.source });
    const error = await rejection(createApi(http).ledger.listAccounts());
    expect(error.kind).toBe("network");
    expect(error.status).toBeNull();
    expect(tokens.state.cleared).toBe(0);
    expect(tokens.state.token).toBe("t");
  });

  it("keep the session on a 503 and pass on the server's message and Retry-After", async () => {
    const { api, tokens } = setup(
      () =>
        new Response(
          JSON.stringify({
            message: "The service is temporarily unavailable. Please try again shortly.",
            code: "service_unavailable",
          }),
          {
            status: 503,
            headers: { "Content-Type": "application/json", "Retry-After": "5" },
          },
        ),
    );
    const error = await rejection(api.profile.getProfile());
    expect(error.status).toBe(503);
    expect(error.code).toBe("service_unavailable");
    expect(error.kind).toBe("server-message");
    expect(error.message).toBe("The service is temporarily unavailable. Please try again shortly.");
    expect(error.retryAfterSeconds).toBe(5);
    expect(tokens.cleared).toBe(0);
    expect(tokens.token).toBe("tok-1");
  });

  it("keep the session on any other 5xx", async () => {
    const { api, tokens } = setup(() => new Response("Bad gateway", { status: 502 }));
    expect((await rejection(api.ledger.listAccounts())).message).toBe("HTTP error! status: 502");
    expect(tokens.cleared).toBe(0);
  });
});

describe("public calls", () => {
  it("send no Authorization header even when a token is stored", async () => {
    const { api, calls } = setup(() => json(200, { data: { token: "t", user: { id: "u", email: "a@b.co" } } }));
    await api.auth.login({ email: "a@b.co", password: "secret-pass" });
    await api.health.getHealth().catch(() => undefined);
    expect(calls.map((call) => call.headers.has("Authorization"))).toEqual([false, false]);
  });

  it("keep the session when refused 401 (a wrong password is not a sign-out)", async () => {
    const { api, tokens } = setup(() =>
      json(401, { message: "Invalid email or password", code: "invalid_credentials" }),
    );
    const error = await rejection(api.auth.login({ email: "a@b.co", password: "wrong-pass" }));
    expect(error).toMatchObject({ message: "Invalid email or password", kind: "server-message", status: 401 });
    expect(tokens.cleared).toBe(0);
  });

  it("show 'HTTP error! status: {code}' for health, ignoring the body's message", async () => {
    const { api } = setup(() => json(502, { message: "bad gateway" }));
    expect((await rejection(api.health.getHealth())).message).toBe("HTTP error! status: 502");
  });
});

describe("writes", () => {
  it("send the caller's Idempotency-Key", async () => {
    const { api, calls } = setup(() => json(201, { data: { id: "t1" } }));
    await api.ledger.deposit({ account_id: "a1", amount: "500.00", currency: "USD" }, { idempotencyKey: "key-123" });
    expect(calls[0]?.method).toBe("POST");
    expect(calls[0]?.headers.get("Idempotency-Key")).toBe("key-123");
    expect(calls[0]?.headers.get("Content-Type")).toBe("application/json");
    expect(calls[0]?.body).toEqual({ account_id: "a1", amount: "500.00", currency: "USD" });
  });

  it("make a fresh key per call when none is given", async () => {
    const { api, calls } = setup(() => json(200, {}));
    await api.ledger.postTransaction("t1");
    await api.ledger.postTransaction("t1");
    const [first, second] = calls.map((call) => call.headers.get("Idempotency-Key"));
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).not.toBe(first);
  });

  it("every write endpoint carries a key", async () => {
    const { api, calls } = setup(() => json(200, {}));
    const options = { idempotencyKey: "k" };
    await api.accounts.createAccount({ name: "Main", account_number: "123", currency: "USD" }, options);
    await api.profile.updateProfile({ first_name: "Ada" }, options);
    await api.ledger.createAccount({ name: "Cash", account_number: "1", currency: "EUR" }, options);
    await api.ledger.transfer({ from_account_id: "a", to_account_id: "b", amount: "1", currency: "USD" }, options);
    await api.ledger.deposit({ account_id: "a", amount: "1", currency: "USD" }, options);
    await api.ledger.createTestBalance({ account_id: "a" }, options);
    await api.ledger.postTransaction("t", options);
    await api.ledger.unpostTransaction("t", options);
    expect(calls.map((call) => [call.method, call.headers.get("Idempotency-Key")])).toEqual(
      Array.from({ length: 8 }, (_, index) => [index === 1 ? "PUT" : "POST", "k"]),
    );
  });
});

describe("endpoint paths", () => {
  it("match docs/product/backend-client.md#authenticated-calls", async () => {
    const { api, calls } = setup(() => json(200, []), "t");
    await api.accounts.listAccounts();
    await api.accounts.getAccount("acc/1");
    await api.ledger.listAccounts();
    await api.ledger.listAvailableAccounts();
    await api.ledger.getBalance("a1");
    await api.ledger.listAccountTransactions("a1", { limit: 10, offset: 20 });
    await api.ledger.transactionHistory({ limit: 50, offset: 0 });
    await api.ledger.unpostTransaction("t9");
    await api.health.getServiceHealth().catch(() => undefined);
    expect(calls.map((call) => `${call.method} ${pathOf(call.url)}`)).toEqual([
      "GET /api/v1/accounts/",
      "GET /api/v1/accounts/acc%2F1",
      "GET /api/v1/ledger/accounts",
      "GET /api/v1/ledger/accounts/available",
      "GET /api/v1/ledger/accounts/a1/balance",
      "GET /api/v1/ledger/accounts/a1/transactions?limit=10&offset=20",
      "GET /api/v1/ledger/transactions/history?limit=50",
      "POST /api/v1/ledger/transactions/t9/unpost",
      "GET /api/health",
    ]);
  });

  it("unwrap list replies given as an array, {accounts} or {data}", async () => {
    const accounts = [{ id: "a1" }];
    for (const body of [accounts, { accounts }, { data: accounts }, { data: { accounts } }]) {
      const { api } = setup(() => json(200, body));
      expect(await api.ledger.listAvailableAccounts()).toEqual(accounts);
    }
    const { api } = setup(() => json(200, { data: [{ id: "t1" }] }));
    expect(await api.ledger.transactionHistory()).toEqual({ data: [{ id: "t1" }], pagination: null });
    const pagination = { limit: 50, offset: 0, next_cursor: null, has_more: false };
    const paged = setup(() => json(200, { data: [{ id: "t2" }], pagination }));
    expect(await paged.api.ledger.transactionHistory({ limit: 50 })).toEqual({ data: [{ id: "t2" }], pagination });
    const bare = setup(() => json(200, [{ id: "t3" }]));
    expect((await bare.api.ledger.transactionHistory()).data).toEqual([{ id: "t3" }]);
  });

  it("ask for a balance at a moment and for analytics", async () => {
    const { api, calls } = setup(() => json(200, { data: {} }), "t");
    await api.ledger.getBalance("a1", "2026-03-01T10:00:00.000Z");
    await api.ledger.analytics(30);
    expect(calls.map((call) => pathOf(call.url))).toEqual([
      "/api/v1/ledger/accounts/a1/balance?as_of=2026-03-01T10%3A00%3A00.000Z",
      "/api/v1/ledger/analytics?days=30",
    ]);
  });
});

describe("pagination", () => {
  it("sends limit and offset only when truthy", () => {
    expect(withPagination("/h", { limit: 50, offset: 0 })).toBe("/h?limit=50");
    expect(withPagination("/h", {})).toBe("/h");
    expect(withPagination("/h", { limit: 0, offset: 0 })).toBe("/h");
    expect(withPagination("/h", { limit: 5, offset: 10 })).toBe("/h?limit=5&offset=10");
    expect(withQuery("/h?x=1", { limit: 2 })).toBe("/h?x=1&limit=2");
  });
});

describe("buildCurl", () => {
  it("builds a GET without body or token", () => {
    expect(buildCurl("get", "/health", undefined, undefined, "http://localhost:3000")).toBe(
      "curl -X GET 'http://localhost:3000/health' \\\n  -H 'Content-Type: application/json'",
    );
  });

  it("adds the bearer token and a quoted JSON body", () => {
    const command = buildCurl(
      "POST",
      "/api/v1/ledger/transactions/deposit",
      { description: "Bob's pay" },
      "abc",
      "https://x.io",
    );
    expect(command).toBe(
      [
        "curl -X POST 'https://x.io/api/v1/ledger/transactions/deposit'",
        "-H 'Content-Type: application/json'",
        "-H 'Authorization: Bearer abc'",
        `-d '{"description":"Bob'\\''s pay"}'`,
      ].join(" \\\n  "),
    );
  });

  it("quotes for a POSIX shell", () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});
