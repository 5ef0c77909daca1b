import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { createTestContext } from "@fintech/testing/context";
import { openTestAccount, testCaller } from "@fintech/testing/payments";
import { startReceiver, type TestReceiver } from "@fintech/testing/webhooks/receiver";
import type { PaymentCaller } from "../payments/model";
import { deposit } from "../ledger/service";
import { isAppError } from "../shared/errors";
import {
  attemptDueDeliveries,
  CLAIM_MS,
  getDelivery,
  listDeliveries,
  recordDelivery,
  replayDelivery,
  replaySince,
  sendTestEvent,
} from "./deliveries";
import { dispatchOwner } from "./dispatcher";
import { createEndpoint, endpointsOf, getEndpoint, rotateEndpointSecret, updateEndpoint } from "./endpoints";
import {
  FAILING_DISABLE_AFTER_MS,
  RETRY_SCHEDULE_MS,
  TEST_EVENT_TYPE,
  type EventType,
  type PlatformEvent,
  type WebhookDelivery,
} from "./model";

/**
 * The delivery engine against DynamoDB Local and real HTTP receivers on 127.0.0.1: signatures
 * that the Standard Webhooks library verifies, retries on the published schedule (the clock is
 * moved, never waited for), replay, rotation, disabling, and exactly the subscribed types.
 */

/**
 * The clock only moves forward: a ledger stamps a commit no earlier than the last one of its
 * streams, so a clock moved back would put new events out of the readers' reach.
 */
let offsetMs = 0;
const TEST_ENV = { WEBHOOK_LOCAL_TARGETS: "true" };
const ctxPromise = createTestContext(TEST_ENV, { clock: () => new Date(Date.now() + offsetMs) });
type Ctx = Awaited<typeof ctxPromise>;
let ctx: Ctx;
const receivers: TestReceiver[] = [];
/** The jitter's random source: 0.5 is no jitter, so waits are the schedule's exactly. */
const noJitter = () => 0.5;

beforeAll(async () => {
  ctx = await ctxPromise;
});
afterAll(async () => ctx.dispose());
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

/** The clock of the table the test is on (one test has a table of its own). */
const clocks = { own: 0, current: "main" as "main" | "own" };
const advance = (ms: number) => {
  if (clocks.current === "own") clocks.own += ms;
  else offsetMs += ms;
};
/** Past the feed readers' settle window, so what was just committed is readable. */
const settle = () => advance(ctx.config.FEED_SETTLE_MS + 200);

let users = 0;
async function user(): Promise<{ caller: PaymentCaller; accountId: string }> {
  users += 1;
  const caller = await testCaller(ctx, `webhook-delivery-${users}-${Date.now()}@example.com`);
  const account = await openTestAccount(ctx, caller, "Webhook test account");
  return { caller, accountId: account.id };
}

async function receiver(...statuses: number[]): Promise<TestReceiver> {
  const started = await startReceiver(...statuses);
  receivers.push(started);
  return started;
}

async function endpoint(ownerId: string, url: string, eventTypes: EventType[]) {
  return createEndpoint(ctx, ownerId, { url, event_types: eventTypes, description: "test", enabled: true });
}

const depositTo = (ownerId: string, accountId: string, amount = "10.00") =>
  deposit(ctx, ownerId, { account_id: accountId, amount }, null);

/** Dispatch the owner, then attempt what is due for them. */
async function deliver(ownerId: string) {
  settle();
  const { recorded } = await dispatchOwner(ctx, ownerId);
  const summary = await attemptDueDeliveries(ctx, { ownerId, random: noJitter });
  return { recorded, ...summary };
}

async function allDeliveries(ownerId: string, endpointId: string): Promise<WebhookDelivery[]> {
  return (await listDeliveries(ctx, ownerId, endpointId, { limit: 100 })).items;
}

const headersOf = (received: { headers: Record<string, string | string[] | undefined> }) =>
  Object.fromEntries(Object.entries(received.headers).map(([name, value]) => [name, String(value)]));

async function refusal(promise: Promise<unknown>): Promise<{ status: number; code: string }> {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error)) return { status: error.status, code: error.code };
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("delivery", () => {
  it("delivers a signed event that the Standard Webhooks library verifies, once per endpoint and event", async () => {
    const { caller, accountId } = await user();
    const hook = await receiver(200);
    const { endpoint: created, secret } = await endpoint(caller.userId, hook.url, [
      "ledger.transactionCreated",
      "ledger.balanceUpdate",
    ]);
    settle();
    await depositTo(caller.userId, accountId);

    const first = await deliver(caller.userId);
    expect(first.recorded).toBeGreaterThan(0);
    expect(first.succeeded).toBe(first.recorded);
    expect(hook.received).toHaveLength(first.recorded);
    for (const request of hook.received) {
      const headers = headersOf(request);
      const verified = new Webhook(secret).verify(request.body, headers) as PlatformEvent;
      expect(verified.id).toBe(headers["webhook-id"]);
      expect(verified.id).toMatch(/^evt_/);
      expect(["ledger.transactionCreated", "ledger.balanceUpdate"]).toContain(verified.type);
      expect(verified.data.id).toBe(verified.id);
    }

    // Dispatching again finds nothing new; recording an event again is a no-op.
    const again = await deliver(caller.userId);
    expect(again.recorded).toBe(0);
    const [stored] = await endpointsOf(ctx, caller.userId);
    const event = JSON.parse(hook.received[0]!.body) as PlatformEvent;
    expect(await recordDelivery(ctx, stored!, event)).toBe(false);
    const log = await allDeliveries(caller.userId, created.id);
    expect(log).toHaveLength(first.recorded);
    expect(log.every((delivery) => delivery.status === "succeeded" && delivery.attempts.length === 1)).toBe(true);
  });

  it("delivers exactly the subscribed types: a payments endpoint gets no ledger events", async () => {
    const { caller, accountId } = await user();
    const payments = await receiver(200);
    const balances = await receiver(200);
    const paymentsEndpoint = await endpoint(caller.userId, payments.url, [
      "payment.paymentInitiated",
      "payment.paymentStatusUpdate",
      "payment.paymentCompleted",
      "payment.paymentError",
    ]);
    await endpoint(caller.userId, balances.url, ["ledger.balanceUpdate"]);
    settle();
    await depositTo(caller.userId, accountId);
    await depositTo(caller.userId, accountId, "3.00");
    await deliver(caller.userId);

    expect(payments.received).toHaveLength(0);
    expect(await allDeliveries(caller.userId, paymentsEndpoint.endpoint.id)).toHaveLength(0);
    expect(balances.received.length).toBeGreaterThanOrEqual(2);
    const types = balances.received.map((request) => (JSON.parse(request.body) as PlatformEvent).type);
    expect(new Set(types)).toEqual(new Set(["ledger.balanceUpdate"]));
  });

  it("starts a new endpoint at its creation, and a feed added later at the change", async () => {
    const { caller, accountId } = await user();
    await depositTo(caller.userId, accountId, "1.00");
    settle();
    const hook = await receiver(200);
    const { endpoint: created } = await endpoint(caller.userId, hook.url, ["payment.paymentCompleted"]);
    await deliver(caller.userId); // the payment feed's cursor starts at the creation
    settle();
    await depositTo(caller.userId, accountId, "2.00"); // before the ledger is subscribed
    settle();
    await updateEndpoint(ctx, caller.userId, created.id, {
      event_types: ["payment.paymentCompleted", "ledger.transactionCreated"],
    });
    settle();
    await depositTo(caller.userId, accountId, "3.00");
    await deliver(caller.userId);
    const amounts = hook.received.map((request) => JSON.stringify((JSON.parse(request.body) as PlatformEvent).data));
    expect(hook.received).toHaveLength(1);
    expect(amounts[0]).toContain("3.00");
  });
});

describe("disabled endpoints", () => {
  it("records nothing while disabled and, enabled again, delivers what happened meanwhile", async () => {
    const { caller, accountId } = await user();
    const hook = await receiver(200);
    const { endpoint: created } = await endpoint(caller.userId, hook.url, ["ledger.transactionCreated"]);
    await deliver(caller.userId);
    await updateEndpoint(ctx, caller.userId, created.id, { enabled: false });
    settle();
    await depositTo(caller.userId, accountId, "9.00");
    expect((await deliver(caller.userId)).recorded).toBe(0);
    await updateEndpoint(ctx, caller.userId, created.id, { enabled: true });
    expect((await deliver(caller.userId)).recorded).toBe(1);
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]!.body).toContain("9.00");
  });
});

describe("retries", () => {
  it("retries a 500 on the schedule and delivers the same event on the retry", async () => {
    const { caller, accountId } = await user();
    const hook = await receiver(500, 200);
    const { endpoint: created, secret } = await endpoint(caller.userId, hook.url, ["ledger.transactionCreated"]);
    settle();
    await depositTo(caller.userId, accountId);
    const first = await deliver(caller.userId);
    expect(first).toMatchObject({ recorded: 1, attempted: 1, retrying: 1 });
    const [pending] = await allDeliveries(caller.userId, created.id);
    expect(pending!.status).toBe("pending");
    expect(Date.parse(pending!.next_attempt_at!) - Date.parse(pending!.attempts[0]!.at)).toBe(RETRY_SCHEDULE_MS[0]);

    // Not due yet: nothing is attempted.
    expect((await attemptDueDeliveries(ctx, { ownerId: caller.userId, random: noJitter })).attempted).toBe(0);
    advance(RETRY_SCHEDULE_MS[0]);
    expect(await attemptDueDeliveries(ctx, { ownerId: caller.userId, random: noJitter })).toMatchObject({
      attempted: 1,
      succeeded: 1,
    });
    expect(hook.received.map((request) => request.status)).toEqual([500, 200]);
    const [firstTry, retry] = hook.received;
    expect(retry!.body).toBe(firstTry!.body);
    expect(retry!.headers["webhook-id"]).toBe(firstTry!.headers["webhook-id"]);
    expect(() => new Webhook(secret).verify(retry!.body, headersOf(retry!))).not.toThrow();
    const delivered = await getDelivery(ctx, caller.userId, created.id, pending!.id);
    expect(delivered.status).toBe("succeeded");
    expect(delivered.attempts.map((attempt) => [attempt.trigger, attempt.status_code])).toEqual([
      ["automatic", 500],
      ["automatic", 200],
    ]);
  });

  it("disables an endpoint that answers 410, and records nothing more for it", async () => {
    const { caller, accountId } = await user();
    const hook = await receiver(410);
    const { endpoint: created } = await endpoint(caller.userId, hook.url, ["ledger.transactionCreated"]);
    settle();
    await depositTo(caller.userId, accountId);
    await deliver(caller.userId);
    const endpointNow = await getEndpoint(ctx, caller.userId, created.id);
    expect(endpointNow).toMatchObject({ status: "disabled", disabled_reason: "gone" });
    const [gone] = await allDeliveries(caller.userId, created.id);
    expect(gone).toMatchObject({ status: "failed", failure_reason: "endpoint_disabled", next_attempt_at: null });

    settle();
    await depositTo(caller.userId, accountId, "4.00");
    expect((await deliver(caller.userId)).recorded).toBe(0);
    expect(await refusal(replayDelivery(ctx, caller.userId, created.id, gone!.id))).toEqual({
      status: 409,
      code: "webhook_endpoint_disabled",
    });
    expect(await refusal(sendTestEvent(ctx, caller.userId, created.id))).toEqual({
      status: 409,
      code: "webhook_endpoint_disabled",
    });
    expect(hook.received).toHaveLength(1);
  });

  it("disables an endpoint failing for 5 days and stops its pending deliveries", async () => {
    // Days pass in this test only: on a table of its own, whose clock runs ahead of the others'.
    const main = ctx;
    ctx = await createTestContext(TEST_ENV, { clock: () => new Date(Date.now() + clocks.own) });
    clocks.current = "own";
    try {
      await failForDays();
    } finally {
      clocks.current = "main";
      await ctx.dispose();
      ctx = main;
    }
  });
});

async function failForDays() {
  {
    const { caller, accountId } = await user();
    const hook = await receiver(503);
    const { endpoint: created } = await endpoint(caller.userId, hook.url, ["ledger.transactionCreated"]);
    settle();
    await depositTo(caller.userId, accountId);
    const first = await deliver(caller.userId);
    expect(first, JSON.stringify(hook.received)).toMatchObject({ recorded: 1, attempted: 1, retrying: 1 });
    expect((await getEndpoint(ctx, caller.userId, created.id)).failing_since).not.toBeNull();

    // The whole schedule of the first delivery runs out without a success.
    for (const wait of RETRY_SCHEDULE_MS) {
      advance(wait);
      await attemptDueDeliveries(ctx, { ownerId: caller.userId, random: noJitter });
    }
    const [exhausted] = await allDeliveries(caller.userId, created.id);
    expect(exhausted).toMatchObject({ status: "failed", failure_reason: "retries_exhausted" });
    expect(exhausted!.attempts).toHaveLength(RETRY_SCHEDULE_MS.length + 1);
    expect((await getEndpoint(ctx, caller.userId, created.id)).status).toBe("enabled");

    // Days later, still failing: the next failure disables the endpoint.
    advance(FAILING_DISABLE_AFTER_MS);
    await depositTo(caller.userId, accountId, "5.00");
    settle();
    await depositTo(caller.userId, accountId, "6.00");
    const last = await deliver(caller.userId);
    expect(last.recorded).toBe(2);
    expect(await getEndpoint(ctx, caller.userId, created.id)).toMatchObject({
      status: "disabled",
      disabled_reason: "failing",
    });
    const log = await allDeliveries(caller.userId, created.id);
    expect(log.filter((delivery) => delivery.status === "pending")).toHaveLength(0);
    expect(log.filter((delivery) => delivery.failure_reason === "endpoint_disabled")).toHaveLength(2);
  }
}

describe("replay, rotation and test events", () => {
  it("replays one delivery with the same webhook-id, and everything since a time", async () => {
    const { caller, accountId } = await user();
    const hook = await receiver(200);
    const { endpoint: created, secret } = await endpoint(caller.userId, hook.url, ["ledger.transactionCreated"]);
    settle();
    const before = ctx.clock().toISOString();
    await depositTo(caller.userId, accountId, "1.00");
    settle();
    await depositTo(caller.userId, accountId, "2.00");
    await deliver(caller.userId);
    expect(hook.received).toHaveLength(2);
    const log = await allDeliveries(caller.userId, created.id);
    const newest = log[0]!;

    const replayed = await replayDelivery(ctx, caller.userId, created.id, newest.id);
    expect(replayed.attempts.map((attempt) => attempt.trigger)).toEqual(["automatic", "replay"]);
    expect(replayed.status).toBe("succeeded");
    const replayRequest = hook.received[2]!;
    expect(replayRequest.headers["webhook-id"]).toBe(newest.event_id);
    expect(() => new Webhook(secret).verify(replayRequest.body, headersOf(replayRequest))).not.toThrow();

    const reply = await replaySince(ctx, caller.userId, created.id, before);
    expect(reply).toEqual({ scheduled: 2, has_more: false, next_since: null });
    expect((await attemptDueDeliveries(ctx, { ownerId: caller.userId })).succeeded).toBe(2);
    expect(hook.received).toHaveLength(5);
    expect(new Set(hook.received.slice(3).map((request) => request.headers["webhook-id"]))).toEqual(
      new Set(log.map((delivery) => delivery.event_id)),
    );
    const replayedSince = await getDelivery(ctx, caller.userId, created.id, log[1]!.id);
    expect(replayedSince.attempts.map((attempt) => attempt.trigger)).toEqual(["automatic", "replay"]);

    // Nothing after a time in the future; never more than 30 days back.
    expect(
      (await replaySince(ctx, caller.userId, created.id, new Date(ctx.clock().getTime() + 3_600_000).toISOString()))
        .scheduled,
    ).toBe(0);
    expect(await refusal(replaySince(ctx, caller.userId, created.id, "2020-01-01T00:00:00Z"))).toEqual({
      status: 400,
      code: "replay_since_too_old",
    });
  });

  it("signs with both secrets during a rotation's overlap", async () => {
    const { caller, accountId } = await user();
    const hook = await receiver(200);
    const { endpoint: created, secret: oldSecret } = await endpoint(caller.userId, hook.url, [
      "ledger.transactionCreated",
    ]);
    settle();
    await depositTo(caller.userId, accountId);
    await deliver(caller.userId);
    const { secret: newSecret } = await rotateEndpointSecret(ctx, caller.userId, created.id);
    expect(newSecret).not.toBe(oldSecret);
    const [delivery] = await allDeliveries(caller.userId, created.id);
    await replayDelivery(ctx, caller.userId, created.id, delivery!.id);
    const request = hook.received[hook.received.length - 1]!;
    const headers = headersOf(request);
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(() => new Webhook(oldSecret).verify(request.body, headers)).not.toThrow();
    expect(() => new Webhook(newSecret).verify(request.body, headers)).not.toThrow();
  });

  it("sends a test event at once and keeps it in the log; another user's endpoint is not found", async () => {
    const { caller } = await user();
    const other = await user();
    const hook = await receiver(200);
    const { endpoint: created, secret } = await endpoint(caller.userId, hook.url, ["ledger.transactionCreated"]);
    const delivery = await sendTestEvent(ctx, caller.userId, created.id);
    expect(delivery).toMatchObject({ event_type: TEST_EVENT_TYPE, status: "succeeded" });
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]).toMatchObject({ trigger: "test", status_code: 200 });
    const verified = new Webhook(secret).verify(hook.received[0]!.body, headersOf(hook.received[0]!)) as PlatformEvent;
    expect(verified).toMatchObject({ id: delivery.event_id, type: TEST_EVENT_TYPE, data: { test: true } });
    expect((await getDelivery(ctx, caller.userId, created.id, delivery.id)).id).toBe(delivery.id);

    for (const attempt of [
      () => getDelivery(ctx, other.caller.userId, created.id, delivery.id),
      () => replayDelivery(ctx, other.caller.userId, created.id, delivery.id),
      () => sendTestEvent(ctx, other.caller.userId, created.id),
      () => listDeliveries(ctx, other.caller.userId, created.id, { limit: 10 }),
    ])
      expect(await refusal(attempt())).toEqual({ status: 404, code: "webhook_endpoint_not_found" });
    for (const id of [
      "wd_nope",
      "x".repeat(5_000),
      `${delivery.id.slice(0, -1)}${delivery.id.endsWith("0") ? "1" : "0"}`,
    ])
      expect(await refusal(getDelivery(ctx, caller.userId, created.id, id))).toEqual({
        status: 404,
        code: "webhook_delivery_not_found",
      });
    // A test delivery is not retried on its own.
    hook.answer(500);
    const failed = await sendTestEvent(ctx, caller.userId, created.id);
    expect(failed).toMatchObject({ status: "failed", failure_reason: "manual_attempt_failed", next_attempt_at: null });
    advance(CLAIM_MS + RETRY_SCHEDULE_MS[0]);
    expect((await attemptDueDeliveries(ctx, { ownerId: caller.userId })).attempted).toBe(0);
  });
});
