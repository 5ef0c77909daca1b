import { describe, expect, it } from "vitest";
import type { TryItReply, TryItRequest } from "../developers/explorer/send";
import type { LedgerAccount } from "../api/types";
import { planTestPayment, type TestPaymentPlan } from "../payments/testPayment";
import { runSuite, SUITE_MESSAGES, type SuiteDeps, type TestResult } from "./suite";

const json = (status: number, body: unknown, durationMs = 12): TryItReply => ({
  status,
  statusText: "",
  durationMs,
  contentType: "application/json",
  headers: [],
  kind: "json",
  text: JSON.stringify(body, null, 2),
  events: [],
  truncated: false,
});

const account = (id: string, available_minor: number): LedgerAccount =>
  ({ id, name: id, currency: "USD", status: "ACTIVE", available_minor }) as unknown as LedgerAccount;

type Route = (request: TryItRequest) => TryItReply;

function fakeSend(routes: Record<string, Route>) {
  const sent: TryItRequest[] = [];
  const options: unknown[] = [];
  const send: SuiteDeps["send"] = async (request, option) => {
    sent.push(request);
    options.push(option);
    const path = new URL(request.url, "http://api.test").pathname;
    const route = routes[`${request.method} ${path}`];
    if (!route) throw new Error(`unexpected ${request.method} ${path}`);
    return route(request);
  };
  return { send, sent, options };
}

const user = { id: "u1", name: "Ada Lovelace", email: "ada@example.com" };
const profile = { name: "Ada Lovelace", email: "ada@example.com", phone: "+441234567890", country: "GB" };
const funded = async (): Promise<TestPaymentPlan> => planTestPayment([account("a", 500), account("b", 0)]);

const deps = (send: SuiteDeps["send"], overrides: Partial<SuiteDeps> = {}): SuiteDeps => ({
  send,
  baseUrl: "",
  token: "tok",
  user,
  profile,
  planPayment: funded,
  newIdempotencyKey: () => "key-1",
  ...overrides,
});

const streamReply: TryItReply = {
  ...json(200, null, 30),
  kind: "events",
  contentType: "text/event-stream",
  text: "",
  events: [
    { id: null, event: "cursor", data: "{}" },
    { id: "c1", event: "paymentStatusUpdate", data: JSON.stringify({ id: "evt_1", event: {} }) },
    { id: "c2", event: "paymentStatusUpdate", data: "{}" },
  ],
};

const healthy: Route = () => json(200, { status: "ok" });
const byState = (results: TestResult[]) => Object.fromEntries(results.map((result) => [result.id, result.state]));

describe("Run All Tests", () => {
  it("signed out: the health check runs, the rest need a session and send nothing", async () => {
    const { send, sent } = fakeSend({ "GET /health": healthy });
    const results = await runSuite(deps(send, { token: null, user: null }));
    expect(byState(results)).toEqual({
      health: "passed",
      createProfile: "needs-session",
      getProfile: "needs-session",
      createPayment: "needs-session",
      getPayment: "needs-session",
      stream: "needs-session",
    });
    expect(sent).toHaveLength(1);
    expect(results[1]!.message).toBe(SUITE_MESSAGES.needsSession);
  });

  it("signed in: every request for real, in order, with the ids of what it created", async () => {
    const { send, sent, options } = fakeSend({
      "GET /health": healthy,
      "POST /v1/kyc/profiles": () => json(201, { profile: { profileId: "prof-1" } }),
      "GET /v1/kyc/profiles/prof-1": () => json(200, { profile: { profileId: "prof-1" } }),
      "POST /v1/payments": () => json(201, { payment: { paymentId: "pay-1" } }),
      "GET /v1/payments/pay-1": () => json(200, { data: { paymentId: "pay-1" } }),
      "GET /v1/payments/stream": () => streamReply,
    });
    const seen: string[] = [];
    const results = await runSuite(deps(send, { onResult: (result) => seen.push(`${result.id}:${result.state}`) }));
    expect(Object.values(byState(results))).toEqual(Array(6).fill("passed"));
    expect(sent.map((request) => `${request.method} ${request.url}`)).toEqual([
      "GET /health",
      "POST /v1/kyc/profiles",
      "GET /v1/kyc/profiles/prof-1",
      "POST /v1/payments",
      "GET /v1/payments/pay-1",
      "GET /v1/payments/stream?user_id=u1&status_filter=PENDING&status_filter=PROCESSING",
    ]);
    // The health check goes without the token; the rest with it.
    expect(sent[0]!.headers.Authorization).toBeUndefined();
    expect(sent.slice(1).every((request) => request.headers.Authorization === "Bearer tok")).toBe(true);
    expect(JSON.parse(sent[1]!.body!)).toEqual({ userId: "u1", ...profile });
    expect(JSON.parse(sent[3]!.body!)).toMatchObject({
      userId: "u1",
      fromAccountId: "a",
      toAccountId: "b",
      amount: "1.00",
      currency: "USD",
    });
    expect(sent[3]!.headers["Idempotency-Key"]).toBe("key-1");
    expect(sent[5]!.streaming).toBe(true);
    expect(options[5]).toEqual({ maxEvents: 500, streamWindowMs: 5000 });
    const stream = results.find((result) => result.id === "stream")!;
    expect(stream.message).toBe("2 events in 5 s; the first: paymentStatusUpdate");
    expect(JSON.parse(stream.data!)).toMatchObject({ events: 2, first: { event: "paymentStatusUpdate", id: "c1" } });
    expect(results[1]).toMatchObject({ status: 201, durationMs: 12 });
    expect(seen.slice(0, 2)).toEqual(["health:running", "health:passed"]);
  });

  it("a second run: the KYC create is a 409, and the test reads the submission there is", async () => {
    const { send } = fakeSend({
      "GET /health": healthy,
      "POST /v1/kyc/profiles": () =>
        json(409, { message: "User already has a KYC submission", code: "kyc_already_started" }),
      "GET /api/v1/kyc/status": () => json(200, { data: { submission_id: "sub-9" } }),
      "GET /v1/kyc/profiles/sub-9": () => json(200, { profile: { profileId: "sub-9" } }),
      "POST /v1/payments": () => json(201, { payment: { paymentId: "pay-1" } }),
      "GET /v1/payments/pay-1": () => json(200, { data: {} }),
      "GET /v1/payments/stream": () => streamReply,
    });
    const results = await runSuite(deps(send));
    expect(results[1]).toMatchObject({ state: "passed", status: 409 });
    expect(results[1]!.message).toMatch(/already have a KYC submission/);
    expect(results[2]).toMatchObject({ state: "passed", status: 200 });
  });

  it("without funded accounts the payment tests do not run and say what to do; failures carry the status and message", async () => {
    const { send } = fakeSend({
      "GET /health": () => json(503, { status: "error", message: "Database unavailable" }),
      "POST /v1/kyc/profiles": () => json(400, { message: "phone must be a phone number", code: "validation_error" }),
      "GET /v1/payments/stream": () => json(401, { message: "Authentication required", code: "unauthorized" }),
    });
    const results = await runSuite(deps(send, { planPayment: async () => planTestPayment([account("a", 0)]) }));
    expect(byState(results)).toEqual({
      health: "failed",
      createProfile: "failed",
      getProfile: "not-run",
      createPayment: "not-run",
      getPayment: "not-run",
      stream: "failed",
    });
    expect(results[0]!.message).toBe("Health check failed: HTTP 503 Database unavailable");
    expect(results[1]!.message).toBe("Failed to create KYC profile: HTTP 400 phone must be a phone number");
    expect(results[3]!.help).toEqual({ to: "/ledger", label: "Go to the Ledger" });
    expect(results[3]!.message).toMatch(/two of your accounts/);
    expect(results[5]!.message).toBe("Failed to start payment stream: HTTP 401 Authentication required");
  });

  it("no reply at all is a failure with the reason, never a throw", async () => {
    const send: SuiteDeps["send"] = async () => {
      throw new TypeError("Failed to fetch");
    };
    const results = await runSuite(deps(send, { planPayment: async () => Promise.reject(new Error("offline")) }));
    expect(results[0]).toMatchObject({ state: "failed", message: "Health check failed: Failed to fetch" });
    expect(results[3]!.message).toBe("Your accounts could not be loaded: offline");
    expect(results[5]).toMatchObject({ state: "failed", message: "Stream error: Failed to fetch" });
  });
});
