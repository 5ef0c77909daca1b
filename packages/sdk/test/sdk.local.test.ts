import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../infra/local/ports";
import { FintechError, createFintechClient } from "../src";
import { fundedAccounts, interceptFetch, newDeveloper, startLocalApi, type LocalApi } from "./local-stack";

/** The SDK against the real app over HTTP (DynamoDB Local behind it). */
let api: LocalApi;

beforeAll(async () => {
  api = await startLocalApi();
});
afterAll(async () => api.stop());

async function failureOf(promise: Promise<unknown>): Promise<FintechError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(FintechError);
  return error as FintechError;
}

/** The journals of one Idempotency-Key in the caller's history. */
async function journalsWithKey(client: ReturnType<LocalApi["client"]>, key: string) {
  const { data } = await client.api.GET("/api/v1/ledger/transactions/history", { params: { query: { limit: 100 } } });
  return data.data.filter((journal) => journal.idempotency_key === key);
}

describe("@fintech/sdk against the local stack", () => {
  it("registers, creates an API key and makes a transfer with it", async () => {
    const developer = await newDeveloper(api);
    expect(developer.apiKey).toMatch(/^fpk_/);
    const { from, to } = await fundedAccounts(developer.keyed);
    const { data, response } = await developer.keyed.api.POST("/api/v1/ledger/transactions/transfer", {
      body: {
        from_account_id: from.id,
        to_account_id: to.id,
        amount: "25.00",
        currency: "USD",
        description: "Rent share",
      },
    });
    expect(response.status).toBe(201);
    expect(data.data).toMatchObject({
      type: "transfer",
      status: "draft",
      amount: "25.00",
      currency: "USD",
      description: "Rent share",
    });
    // The SDK made up the Idempotency-Key; the server stored it with the journal.
    expect(data.data.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
    const { data: balance } = await developer.keyed.api.GET("/api/v1/ledger/accounts/{id}/balance", {
      params: { path: { id: from.id } },
    });
    expect(balance.data).toMatchObject({ balance: "500.00", available: "475.00", pending_out: "25.00" });
  });

  it("retries a 503 after its Retry-After with the same Idempotency-Key: one journal", async () => {
    const keys: string[] = [];
    let refusals = 0;
    const fetch = interceptFetch(async (request, forward) => {
      if (!request.url.endsWith("/api/v1/ledger/transactions/transfer")) return forward(request);
      keys.push(request.headers.get("Idempotency-Key") ?? "");
      if (refusals++ === 0)
        return Response.json(
          { message: "Service temporarily unavailable", code: "store_unavailable" },
          { status: 503, headers: { "Retry-After": "1" } },
        );
      return forward(request);
    });
    const developer = await newDeveloper(api, fetch);
    const { from, to } = await fundedAccounts(developer.keyed);
    api.waits.length = 0;
    const { data } = await developer.keyed.api.POST("/api/v1/ledger/transactions/transfer", {
      body: { from_account_id: from.id, to_account_id: to.id, amount: "10.00", currency: "USD" },
    });
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(api.waits).toEqual([1_000]);
    expect(data.data.idempotency_key).toBe(keys[0]);
    expect(await journalsWithKey(developer.keyed, keys[0]!)).toHaveLength(1);
  });

  it("retries a transfer whose reply was lost: the server replays it and there is exactly one journal", async () => {
    const keys: string[] = [];
    const fetch = interceptFetch(async (request, forward) => {
      if (!request.url.endsWith("/api/v1/ledger/transactions/transfer")) return forward(request);
      keys.push(request.headers.get("Idempotency-Key") ?? "");
      const reply = await forward(request);
      if (keys.length > 1) return reply;
      // The server committed the transfer, but its reply never reaches the caller.
      await reply.body?.cancel();
      throw new TypeError("fetch failed", { cause: new Error("read ECONNRESET") });
    });
    const developer = await newDeveloper(api, fetch);
    const { from, to } = await fundedAccounts(developer.keyed);
    const { data, response } = await developer.keyed.api.POST("/api/v1/ledger/transactions/transfer", {
      body: { from_account_id: from.id, to_account_id: to.id, amount: "40.00", currency: "USD" },
    });
    expect(keys).toEqual([keys[0], keys[0]]);
    expect(response.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await journalsWithKey(developer.keyed, keys[0]!)).toEqual([
      expect.objectContaining({ id: data.data.id, type: "transfer", amount: "40.00" }),
    ]);
    const { data: balance } = await developer.keyed.api.GET("/api/v1/ledger/accounts/{id}/balance", {
      params: { path: { id: from.id } },
    });
    expect(balance.data).toMatchObject({ available: "460.00", pending_out: "40.00" });
  });

  it("keeps the caller's Idempotency-Key: the same write twice is one journal", async () => {
    const developer = await newDeveloper(api);
    const { from, to } = await fundedAccounts(developer.keyed);
    const write = () =>
      developer.keyed.api.POST("/api/v1/ledger/transactions/transfer", {
        body: { from_account_id: from.id, to_account_id: to.id, amount: "7.00", currency: "USD" },
        headers: { "Idempotency-Key": "invoice-2026-0042" },
      });
    const first = await write();
    const second = await write();
    expect(second.data.data.id).toBe(first.data.data.id);
    expect(second.response.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await journalsWithKey(developer.keyed, "invoice-2026-0042")).toHaveLength(1);
  });

  it("answers a revoked API key with INVALID_API_KEY", async () => {
    const developer = await newDeveloper(api);
    await developer.keyed.api.GET("/api/v1/ledger/accounts");
    await developer.signedIn.api.DELETE("/api/v1/api-keys/{id}", { params: { path: { id: developer.apiKeyId } } });
    const error = await failureOf(developer.keyed.api.GET("/api/v1/ledger/accounts"));
    expect(error).toMatchObject({ code: "INVALID_API_KEY", status: 401 });
    expect(error.apiCode).toEqual(expect.any(String));
    expect(error.message).not.toBe("");
    expect(error.requestId).toEqual(expect.any(String));
  });

  it("carries the server's message and code on a refusal", async () => {
    const developer = await newDeveloper(api);
    const { from, to } = await fundedAccounts(developer.keyed);
    const error = await failureOf(
      developer.keyed.api.POST("/api/v1/ledger/transactions/transfer", {
        body: { from_account_id: from.id, to_account_id: to.id, amount: "1000000.00", currency: "USD" },
      }),
    );
    expect(error).toMatchObject({ code: "VALIDATION_ERROR", status: 422, apiCode: "insufficient_funds" });
    expect(error.message).toContain("Insufficient available balance");
  });

  it("fails with TIMEOUT when a server accepts the connection but never answers", async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = silent.address() as net.AddressInfo;
      const waits: number[] = [];
      const client = createFintechClient({
        baseUrl: `http://127.0.0.1:${port}`,
        apiKey: "fpk_any",
        timeoutMs: 50,
        retries: 1,
        backoff: { sleep: async (ms) => void waits.push(ms) },
      });
      const error = await failureOf(client.api.GET("/api/v1/ledger/accounts"));
      expect(error).toMatchObject({ code: "TIMEOUT", status: null });
      expect(error.message).toContain("within 50 ms");
      expect(waits).toHaveLength(1);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it("fails with NETWORK_ERROR when nothing listens, after its retries", async () => {
    const port = await freePort();
    let attempts = 0;
    const waits: number[] = [];
    const client = createFintechClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: "fpk_nobody",
      retries: 2,
      fetch: (request) => {
        attempts += 1;
        return globalThis.fetch(request);
      },
      backoff: { sleep: async (ms) => void waits.push(ms) },
    });
    const error = await failureOf(client.api.GET("/api/v1/ledger/accounts"));
    expect(error.code).toBe("NETWORK_ERROR");
    expect(error.status).toBeNull();
    expect(attempts).toBe(3);
    expect(waits).toHaveLength(2);
  });
});
