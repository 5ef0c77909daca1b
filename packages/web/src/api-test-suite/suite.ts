import { toDecimalString } from "@fintech/core/money/model";
import { PAYMENT_REST_FEED_PATH } from "@fintech/core/events/feed-paths";
import type { TryItReply, TryItRequest } from "../developers/explorer/send";
import type { TestPaymentPlan } from "../payments/testPayment";

/**
 * The test-suite page's Run All Tests (docs/webhooks.md#the-streaming-demo-and-the-test-suite):
 * real requests in order, each timed, with its status and reply: the health check; create a KYC
 * profile and get it; create a small payment between the user's own accounts and get it; and the
 * payment stream held open for a few seconds, its events counted. Signed out, only the health
 * check runs; the rest say they need a session.
 */

export const SUITE_TESTS = [
  { id: "health", name: "Health check", path: "GET /health", needsSession: false },
  { id: "createProfile", name: "Create KYC profile", path: "POST /v1/kyc/profiles", needsSession: true },
  { id: "getProfile", name: "Get KYC profile", path: "GET /v1/kyc/profiles/{id}", needsSession: true },
  { id: "createPayment", name: "Create payment", path: "POST /v1/payments", needsSession: true },
  { id: "getPayment", name: "Get payment", path: "GET /v1/payments/{id}", needsSession: true },
  { id: "stream", name: "Payment stream", path: `GET ${PAYMENT_REST_FEED_PATH}`, needsSession: true },
] as const;
export type SuiteTestId = (typeof SUITE_TESTS)[number]["id"];

/** How long the payment stream is held open. */
export const STREAM_WINDOW_MS = 5_000;
/** The most stream events read in that window. */
export const STREAM_MAX_EVENTS = 500;
/** The statuses the stream test follows, as the product's test does. */
export const STREAM_STATUS_FILTER = ["PENDING", "PROCESSING"] as const;
export const TEST_PAYMENT_DESCRIPTION = "Test payment from the API test suite";

/** The failures in the product's words (docs/product/developer-tools.md#streaming-demo-and-test-suite). */
export const SUITE_MESSAGES = {
  health: "Health check failed",
  createProfile: "Failed to create KYC profile",
  getProfile: "Failed to get profile",
  createPayment: "Failed to create payment",
  getPayment: "Failed to get payment",
  stream: "Failed to start payment stream",
  streamError: "Stream error",
  suite: "Test suite failed",
  noProfile: "Not run: the KYC profile was not created",
  noPayment: "Not run: the payment was not created",
  needsSession: "Needs a session: sign in to run it",
} as const;

export type TestState = "pending" | "running" | "passed" | "failed" | "needs-session" | "not-run";

export interface TestResult {
  id: SuiteTestId;
  name: string;
  path: string;
  state: TestState;
  status: number | null;
  durationMs: number | null;
  message: string | null;
  /** The reply to inspect: JSON pretty-printed, or the stream's summary. */
  data: string | null;
  /** A link that helps when a precondition is missing (e.g. the ledger, to fund an account). */
  help?: { to: string; label: string };
}

export interface SuiteUser {
  id: string;
  name: string;
  email: string;
}

/** What the KYC profile is created with: the user's own details (the page's form). */
export interface ProfileDetails {
  name: string;
  email: string;
  phone: string;
  country: string;
}

export interface SuiteDeps {
  /** One request, timed (developers/explorer/send.ts sendTryIt, bound to fetch and a clock). */
  send: (request: TryItRequest, options?: { maxEvents?: number; streamWindowMs?: number }) => Promise<TryItReply>;
  baseUrl: string;
  token: string | null;
  user: SuiteUser | null;
  profile: ProfileDetails;
  /** The payment to make (payments/testPayment.ts planTestPayment over the user's accounts). */
  planPayment: () => Promise<TestPaymentPlan>;
  newIdempotencyKey: () => string;
  streamWindowMs?: number;
  /** Each result as it changes, for the page to show progress. */
  onResult?: (result: TestResult) => void;
}

export const initialResults = (signedIn: boolean): TestResult[] =>
  SUITE_TESTS.map((test) => ({
    id: test.id,
    name: test.name,
    path: test.path,
    state: test.needsSession && !signedIn ? "needs-session" : "pending",
    status: null,
    durationMs: null,
    message: test.needsSession && !signedIn ? SUITE_MESSAGES.needsSession : null,
    data: null,
  }));

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function bodyOf(reply: TryItReply): Record<string, unknown> | null {
  if (reply.kind !== "json") return null;
  try {
    const parsed: unknown = JSON.parse(reply.text);
    return isRecord(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** A string at `path` in a reply body (`["profile", "profileId"]`), or null. */
export function pick(body: unknown, path: readonly string[]): string | null {
  let value: unknown = body;
  for (const key of path) value = isRecord(value) ? value[key] : undefined;
  return typeof value === "string" && value.length > 0 ? value : null;
}

const replyReason = (reply: TryItReply) => {
  const body = bodyOf(reply);
  const message = typeof body?.message === "string" ? body.message : reply.statusText;
  return `HTTP ${reply.status}${message ? ` ${message}` : ""}`;
};

const failureOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Runs every test in order; never throws (a failure is a result). */
export async function runSuite(deps: SuiteDeps): Promise<TestResult[]> {
  const results = initialResults(deps.token !== null && deps.user !== null);
  const update = (id: SuiteTestId, change: Partial<TestResult>) => {
    const index = results.findIndex((result) => result.id === id);
    results[index] = { ...results[index]!, ...change };
    deps.onResult?.(results[index]!);
    return results[index]!;
  };
  const auth: Record<string, string> = deps.token ? { Authorization: `Bearer ${deps.token}` } : {};
  const request = (method: string, path: string, extra: Partial<TryItRequest> = {}): TryItRequest => ({
    method,
    url: `${deps.baseUrl}${path}`,
    headers: { ...auth, ...extra.headers },
    body: extra.body,
    streaming: extra.streaming ?? false,
  });

  /** Sends, records status, time and data; passes when `ok` says so. Returns the reply, or null when none came. */
  const step = async (
    id: SuiteTestId,
    failure: string,
    make: () => TryItRequest,
    ok: (reply: TryItReply) => boolean = (reply) => reply.status >= 200 && reply.status < 300,
  ): Promise<TryItReply | null> => {
    update(id, { state: "running" });
    try {
      const reply = await deps.send(make());
      const passed = ok(reply);
      update(id, {
        state: passed ? "passed" : "failed",
        status: reply.status,
        durationMs: Math.round(reply.durationMs),
        data: reply.text || null,
        message: passed ? null : `${failure}: ${replyReason(reply)}`,
      });
      return reply;
    } catch (error) {
      update(id, { state: "failed", message: `${failure}: ${failureOf(error)}` });
      return null;
    }
  };

  await step(
    "health",
    SUITE_MESSAGES.health,
    () => ({ method: "GET", url: `${deps.baseUrl}/health`, headers: {}, streaming: false }),
    (reply) => reply.status === 200,
  );
  if (!deps.token || !deps.user) return results;
  const user = deps.user;

  // KYC: a user has one submission; a second create is a 409, and the test then reads the one there is.
  let profileId: string | null = null;
  const created = await step(
    "createProfile",
    SUITE_MESSAGES.createProfile,
    () =>
      request("POST", "/v1/kyc/profiles", {
        body: JSON.stringify({ userId: user.id, ...deps.profile }),
      }),
    (reply) => reply.status === 201 || isAlreadyStarted(reply),
  );
  if (created && created.status === 201) profileId = pick(bodyOf(created), ["profile", "profileId"]);
  else if (created && isAlreadyStarted(created)) {
    try {
      const status = await deps.send(request("GET", "/api/v1/kyc/status"));
      profileId = pick(bodyOf(status), ["data", "submission_id"]);
      update("createProfile", {
        message: "You already have a KYC submission (409 kyc_already_started): the next test reads it.",
      });
    } catch (error) {
      update("createProfile", { state: "failed", message: `${SUITE_MESSAGES.createProfile}: ${failureOf(error)}` });
    }
  }
  if (profileId) {
    const id = profileId;
    await step("getProfile", SUITE_MESSAGES.getProfile, () =>
      request("GET", `/v1/kyc/profiles/${encodeURIComponent(id)}`),
    );
  } else update("getProfile", { state: "not-run", message: SUITE_MESSAGES.noProfile });

  // Payments: the smallest real payment between two of the user's own accounts.
  let paymentId: string | null = null;
  let plan: TestPaymentPlan;
  try {
    plan = await deps.planPayment();
  } catch (error) {
    plan = { ok: false, reason: "no_pair", message: `Your accounts could not be loaded: ${failureOf(error)}` };
  }
  if (plan.ok) {
    const body = {
      userId: user.id,
      fromAccountId: plan.from.id,
      toAccountId: plan.to.id,
      amount: toDecimalString(plan.amountMinor, plan.currency),
      currency: plan.currency,
      description: TEST_PAYMENT_DESCRIPTION,
    };
    const reply = await step("createPayment", SUITE_MESSAGES.createPayment, () =>
      request("POST", "/v1/payments", {
        headers: { "Idempotency-Key": deps.newIdempotencyKey() },
        body: JSON.stringify(body),
      }),
    );
    if (reply && reply.status >= 200 && reply.status < 300) {
      const replyBody = bodyOf(reply);
      paymentId = pick(replyBody, ["payment", "paymentId"]) ?? pick(replyBody, ["data", "paymentId"]);
    }
  } else {
    update("createPayment", {
      state: "not-run",
      message: plan.message,
      help: { to: "/ledger", label: "Go to the Ledger" },
    });
  }
  if (paymentId) {
    const id = paymentId;
    await step("getPayment", SUITE_MESSAGES.getPayment, () => request("GET", `/v1/payments/${encodeURIComponent(id)}`));
  } else update("getPayment", { state: "not-run", message: SUITE_MESSAGES.noPayment });

  await streamStep(deps, user, request, update);
  return results;
}

function isAlreadyStarted(reply: TryItReply): boolean {
  return reply.status === 409 && bodyOf(reply)?.code === "kyc_already_started";
}

async function streamStep(
  deps: SuiteDeps,
  user: SuiteUser,
  request: (method: string, path: string, extra?: Partial<TryItRequest>) => TryItRequest,
  update: (id: SuiteTestId, change: Partial<TestResult>) => TestResult,
) {
  const query = new URLSearchParams({ user_id: user.id });
  for (const status of STREAM_STATUS_FILTER) query.append("status_filter", status);
  const windowMs = deps.streamWindowMs ?? STREAM_WINDOW_MS;
  update("stream", { state: "running", message: `Open for ${windowMs / 1000} s…` });
  try {
    const reply = await deps.send(
      request("GET", `${PAYMENT_REST_FEED_PATH}?${query.toString()}`, {
        headers: { Accept: "text/event-stream" },
        streaming: true,
      }),
      { maxEvents: STREAM_MAX_EVENTS, streamWindowMs: windowMs },
    );
    if (reply.status !== 200 || reply.kind !== "events") {
      update("stream", {
        state: "failed",
        status: reply.status,
        durationMs: Math.round(reply.durationMs),
        data: reply.text || null,
        message: `${SUITE_MESSAGES.stream}: ${replyReason(reply)}`,
      });
      return;
    }
    // The `cursor` events carry the resume point only; the payment events are counted.
    const events = reply.events.filter((event) => event.event !== "cursor");
    const first = events[0] ?? null;
    update("stream", {
      state: "passed",
      status: reply.status,
      durationMs: windowMs,
      message: `${events.length} ${events.length === 1 ? "event" : "events"} in ${windowMs / 1000} s${first ? `; the first: ${first.event}` : ""}`,
      data: JSON.stringify(
        {
          opened_in_ms: Math.round(reply.durationMs),
          events: events.length,
          first: first ? { event: first.event, id: first.id, data: parseOr(first.data) } : null,
        },
        null,
        2,
      ),
    });
  } catch (error) {
    update("stream", { state: "failed", message: `${SUITE_MESSAGES.streamError}: ${failureOf(error)}` });
  }
}

function parseOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
