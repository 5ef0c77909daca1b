import { describe, expect, it } from "vitest";
import { backoffPolicy, retryDelayMs } from "../src/backoff";
import { FintechError, parseRetryAfter } from "../src/errors";
import { createTransport, withIdempotencyKey, type FetchFunction, type TransportOptions } from "../src/transport";

/**
 * The transport against a scripted fetch: what each attempt sends, which failures are retried
 * and how long it waits (recorded by an injected sleep: nothing here waits on a clock).
 */
type Script = (request: Request, attempt: number) => Response | Promise<Response>;

function harness(
  script: Script,
  options: {
    retries?: number;
    timeoutMs?: number | null;
    credential?: string | null;
    sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  } & Pick<TransportOptions, "onUnauthorized" | "newIdempotencyKey"> = {},
) {
  const seen: { method: string; url: string; headers: Headers; body: string }[] = [];
  const waits: number[] = [];
  const fetch: FetchFunction = async (request) => {
    seen.push({
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: await request.clone().text(),
    });
    return script(request, seen.length);
  };
  const send = createTransport({
    fetch,
    credential: options.credential === undefined ? "fpk_test" : options.credential,
    timeoutMs: options.timeoutMs === undefined ? 30_000 : options.timeoutMs,
    retries: options.retries ?? 3,
    onUnauthorized: options.onUnauthorized,
    newIdempotencyKey: options.newIdempotencyKey,
    // random() = 0: every backoff is exactly half its ceiling, so the waits are predictable.
    backoff: backoffPolicy({ random: () => 0, sleep: options.sleep ?? (async (ms) => void waits.push(ms)) }),
  });
  return { send, seen, waits };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });

const post = (body: unknown, headers: Record<string, string> = {}) =>
  new Request("http://api.test/api/v1/ledger/transactions/transfer", {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", ...headers },
  });

async function failureOf(promise: Promise<unknown>): Promise<FintechError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(FintechError);
  return error as FintechError;
}

describe("what every call sends", () => {
  it("sends the bearer credential, and a generated Idempotency-Key on writes only", async () => {
    const { send, seen } = harness(() => json(200, { ok: true }));
    await send(new Request("http://api.test/api/v1/ledger/accounts"));
    await send(post({ amount: "1.00" }));
    expect(seen[0]!.headers.get("Authorization")).toBe("Bearer fpk_test");
    expect(seen[0]!.headers.has("Idempotency-Key")).toBe(false);
    expect(seen[1]!.headers.get("Authorization")).toBe("Bearer fpk_test");
    expect(seen[1]!.headers.get("Idempotency-Key")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("keeps the caller's Idempotency-Key and sends no Authorization without a credential", async () => {
    const { send, seen } = harness(() => json(201, {}), { credential: null });
    for (const method of ["PUT", "PATCH", "DELETE"])
      await send(new Request("http://api.test/x", { method, headers: { "Idempotency-Key": `mine-${method}` } }));
    expect(seen.map((request) => request.headers.get("Idempotency-Key"))).toEqual([
      "mine-PUT",
      "mine-PATCH",
      "mine-DELETE",
    ]);
    expect(seen.every((request) => !request.headers.has("Authorization"))).toBe(true);
  });

  it("makes missing keys with the given generator, on writes only", async () => {
    let made = 0;
    const { send, seen } = harness(() => json(200, {}), { newIdempotencyKey: () => `made-${++made}` });
    await send(post({}));
    await send(new Request("http://api.test/x"));
    await send(new Request("http://api.test/x", { method: "DELETE" }));
    expect(seen.map((request) => request.headers.get("Idempotency-Key"))).toEqual(["made-1", null, "made-2"]);
  });

  it("states the rule on its own: a write keeps its key or gets one, a read gets none", () => {
    const key = () => "fresh";
    expect(withIdempotencyKey(new Headers(), "post", key).get("Idempotency-Key")).toBe("fresh");
    expect(withIdempotencyKey(new Headers({ "Idempotency-Key": "mine" }), "PATCH", key).get("Idempotency-Key")).toBe(
      "mine",
    );
    expect(withIdempotencyKey(new Headers(), "GET", key).has("Idempotency-Key")).toBe(false);
  });
});

describe("a refused credential", () => {
  it("calls onUnauthorized for a 401 of a call that carried a credential, then throws", async () => {
    const refused: FintechError[] = [];
    const { send } = harness(() => json(401, { message: "Invalid or expired token", code: "invalid_token" }), {
      credential: null,
      onUnauthorized: (failure) => refused.push(failure),
    });
    const withToken = await failureOf(
      send(new Request("http://api.test/api/v1/users/profile", { headers: { Authorization: "Bearer t" } })),
    );
    expect(withToken).toMatchObject({ code: "INVALID_API_KEY", status: 401, apiCode: "invalid_token" });
    expect(refused).toEqual([withToken]);
    // A 401 without a credential (a failed login) is the caller's error only.
    await failureOf(send(post({ email: "a@b.co" })));
    expect(refused).toHaveLength(1);
  });
});

describe("retries", () => {
  it("retries a 503 after its Retry-After with the same Idempotency-Key and body", async () => {
    const { send, seen, waits } = harness((_, attempt) =>
      attempt === 1
        ? json(503, { message: "Service unavailable", code: "store_unavailable" }, { "Retry-After": "2" })
        : json(201, { data: { id: "j1" } }),
    );
    const reply = await send(post({ amount: "5.00" }));
    expect(reply.status).toBe(201);
    expect(await reply.json()).toEqual({ data: { id: "j1" } });
    expect(seen).toHaveLength(2);
    expect(waits).toEqual([2_000]);
    expect(seen[1]!.headers.get("Idempotency-Key")).toBe(seen[0]!.headers.get("Idempotency-Key"));
    expect(seen[1]!.body).toBe(seen[0]!.body);
    expect(JSON.parse(seen[1]!.body)).toEqual({ amount: "5.00" });
  });

  it("backs off exponentially on network errors, then throws NETWORK_ERROR after the last retry", async () => {
    const { send, seen, waits } = harness(() => {
      throw new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED 127.0.0.1:1") });
    });
    const error = await failureOf(send(post({})));
    expect(error.code).toBe("NETWORK_ERROR");
    expect(error.status).toBeNull();
    expect(error.message).toContain("ECONNREFUSED");
    expect(seen).toHaveLength(4);
    expect(waits).toEqual([250, 500, 1_000]);
    expect(new Set(seen.map((request) => request.headers.get("Idempotency-Key"))).size).toBe(1);
  });

  it("retries 429 and 5xx but gives up with the server's error after the retries", async () => {
    const { send, seen } = harness(
      () => json(500, { message: "Internal server error", code: "internal_error" }, { "X-Request-Id": "req-1" }),
      { retries: 2 },
    );
    const error = await failureOf(send(new Request("http://api.test/api/v1/ledger/accounts")));
    expect(seen).toHaveLength(3);
    expect(error).toMatchObject({
      code: "SERVER_ERROR",
      status: 500,
      message: "Internal server error",
      apiCode: "internal_error",
      requestId: "req-1",
    });
  });

  it("retries a 409 idempotency_in_progress (its own earlier attempt still running) into the stored reply", async () => {
    const { send, seen } = harness((_, attempt) =>
      attempt === 1
        ? json(409, {
            message: "A request with this Idempotency-Key is still in progress",
            code: "idempotency_in_progress",
          })
        : json(201, { data: { id: "j1" } }, { "Idempotent-Replayed": "true" }),
    );
    const reply = await send(post({ amount: "5.00" }));
    expect(reply.headers.get("Idempotent-Replayed")).toBe("true");
    expect(seen).toHaveLength(2);
    expect(seen[1]!.headers.get("Idempotency-Key")).toBe(seen[0]!.headers.get("Idempotency-Key"));
  });

  it("does not wait for a Retry-After longer than a minute: RATE_LIMITED at once, with the wait", async () => {
    const { send, seen, waits } = harness(() =>
      json(429, { message: "Too many attempts", code: "rate_limited" }, { "Retry-After": "900" }),
    );
    const error = await failureOf(send(post({})));
    expect(seen).toHaveLength(1);
    expect(waits).toEqual([]);
    expect(error).toMatchObject({ code: "RATE_LIMITED", status: 429, retryAfterSeconds: 900, apiCode: "rate_limited" });
  });

  it("never retries other 4xx replies, and maps each to its code", async () => {
    const cases: [number, string][] = [
      [400, "VALIDATION_ERROR"],
      [401, "INVALID_API_KEY"],
      [403, "FORBIDDEN"],
      [404, "NOT_FOUND"],
      [409, "CONFLICT"],
      [422, "VALIDATION_ERROR"],
      [423, "LOCKED"],
      [405, "HTTP_ERROR"],
    ];
    for (const [status, code] of cases) {
      const { send, seen } = harness(() =>
        json(status, { message: `refused ${status}`, code: "server_code", reason: "why" }),
      );
      const error = await failureOf(send(post({})));
      expect(seen).toHaveLength(1);
      expect(error).toMatchObject({
        code,
        status,
        message: `refused ${status}`,
        apiCode: "server_code",
        body: { reason: "why" },
      });
    }
  });

  it("times out each attempt: TIMEOUT once the retries are spent", async () => {
    const { send, seen } = harness(
      (request) =>
        new Promise<Response>((_, reject) => {
          if (request.signal.aborted) reject(request.signal.reason);
          else request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true });
        }),
      { timeoutMs: 1, retries: 1 },
    );
    const error = await failureOf(send(new Request("http://api.test/api/v1/ledger/accounts")));
    expect(error.code).toBe("TIMEOUT");
    expect(seen).toHaveLength(2);
  });

  it("times out a fetch that ignores its signal and never settles", async () => {
    const { send, seen } = harness(() => new Promise<Response>(() => undefined), { timeoutMs: 5, retries: 1 });
    const error = await failureOf(send(new Request("http://api.test/api/v1/ledger/accounts")));
    expect(error.code).toBe("TIMEOUT");
    expect(seen).toHaveLength(2);
  });

  it("passes the caller's abort through untouched and does not retry it", async () => {
    const controller = new AbortController();
    const { send, seen } = harness((request) => {
      controller.abort();
      return Promise.reject(request.signal.reason);
    });
    const error = await send(new Request("http://api.test/x", { signal: controller.signal })).catch(
      (caught: unknown) => caught,
    );
    expect(error).not.toBeInstanceOf(FintechError);
    expect((error as Error).name).toBe("AbortError");
    expect(seen).toHaveLength(1);
  });

  it("stops waiting for the next attempt when the caller aborts", async () => {
    const controller = new AbortController();
    const { send, seen } = harness(() => json(503, { message: "busy", code: "store_unavailable" }), {
      // A wait that only the abort ends: the call must end with it, without another attempt.
      sleep: (_, signal) =>
        new Promise<void>((_resolve, reject) => {
          signal?.addEventListener("abort", () => reject(signal.reason));
          controller.abort();
        }),
    });
    const error = await send(new Request("http://api.test/x", { signal: controller.signal })).catch(
      (caught: unknown) => caught,
    );
    expect((error as Error).name).toBe("AbortError");
    expect(seen).toHaveLength(1);
  });

  it("sets no time limit when timeoutMs is null", async () => {
    const { send } = harness(
      () => new Promise<Response>((resolve) => setTimeout(() => resolve(json(200, { late: true })), 20)),
      { timeoutMs: null, retries: 0 },
    );
    expect(await (await send(new Request("http://api.test/x"))).json()).toEqual({ late: true });
  });

  it("retries a reply whose body is cut mid-way (a network failure of that attempt)", async () => {
    const { send, seen } = harness((_, attempt) => {
      if (attempt > 1) return json(200, { whole: true });
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"whole":'));
          controller.error(new TypeError("terminated"));
        },
      });
      return new Response(body, { status: 200 });
    });
    expect(await (await send(new Request("http://api.test/x"))).json()).toEqual({ whole: true });
    expect(seen).toHaveLength(2);
  });
});

describe("backoff and Retry-After", () => {
  it("doubles the ceiling each retry, jitters between half and all of it, and caps it", () => {
    const low = backoffPolicy({ random: () => 0 });
    const high = backoffPolicy({ random: () => 0.999_999 });
    expect([1, 2, 3, 4, 5, 6].map((retry) => retryDelayMs(low, retry, null))).toEqual([
      250, 500, 1_000, 2_000, 4_000, 4_000,
    ]);
    expect([1, 2, 3, 4, 5, 6].map((retry) => retryDelayMs(high, retry, null))).toEqual([
      500, 1_000, 2_000, 4_000, 8_000, 8_000,
    ]);
    expect(retryDelayMs(low, 1, 3_000)).toBe(3_000);
    expect(retryDelayMs(low, 3, 0)).toBe(1_000);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-11-23T10:00:00Z");
    expect(parseRetryAfter("7", now)).toBe(7);
    expect(parseRetryAfter(" 120 ", now)).toBe(120);
    expect(parseRetryAfter("Mon, 23 Nov 2026 10:00:30 GMT", now)).toBe(30);
    expect(parseRetryAfter("Mon, 23 Nov 2026 09:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter("", now)).toBeNull();
  });
});
