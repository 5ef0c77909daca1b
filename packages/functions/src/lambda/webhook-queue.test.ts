import type { SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { deposit } from "@fintech/core/ledger/service";
import { eventId } from "@fintech/core/events/event-id";
import { getDelivery } from "@fintech/core/webhooks/deliveries";
import { deliveryIdOf } from "@fintech/core/webhooks/delivery-keys";
import { createEndpoint } from "@fintech/core/webhooks/endpoints";
import { createTestContext } from "@fintech/testing/context";
import { openTestAccount, testCaller } from "@fintech/testing/payments";
import { startReceiver, type TestReceiver } from "@fintech/testing/webhooks/receiver";
import {
  dispatchMessages,
  fanOutStreamRecords,
  MAX_DELAY_SECONDS,
  ownerOfFeedItem,
  retryMessages,
  sweepWebhookOwners,
  type StreamRecord,
  type WebhookDispatchMessage,
  type WebhookQueue,
} from "./webhook-queue";

/**
 * The cloud's webhook functions (webhook-fanout.ts, webhook-dispatcher.ts, webhook-sweeper.ts only
 * wrap these) against DynamoDB Local and a real receiver on 127.0.0.1, with SQS replaced by a
 * recorder of the messages sent and the clock moved, never waited for.
 */

let offsetMs = 0;
const ctxPromise = createTestContext(
  { WEBHOOK_LOCAL_TARGETS: "true" },
  { clock: () => new Date(Date.now() + offsetMs) },
);
type Ctx = Awaited<typeof ctxPromise>;
let ctx: Ctx;
const sent: { message: WebhookDispatchMessage; delay: number }[] = [];
let sqsDown = false;
const queue: WebhookQueue = {
  url: "https://sqs.test/webhooks",
  send: async (command: SendMessageBatchCommand) => {
    if (sqsDown) throw new Error("SQS is down");
    for (const entry of command.input.Entries ?? [])
      sent.push({ message: JSON.parse(entry.MessageBody!), delay: entry.DelaySeconds! });
    return {};
  },
};
const settle = () => {
  offsetMs += ctx.config.FEED_SETTLE_MS + 200;
};
const take = () => sent.splice(0);

let subscriber: { userId: string; accountId: string };
let bystander: { userId: string; accountId: string };
let hook: TestReceiver;
let secret: string;
let endpointId: string;

async function user(name: string) {
  const caller = await testCaller(ctx, `${name}-${Date.now()}@example.com`);
  const account = await openTestAccount(ctx, caller, `${name} account`);
  return { userId: caller.userId, accountId: account.id };
}

const image = (attributes: Record<string, string>) =>
  Object.fromEntries(Object.entries(attributes).map(([name, value]) => [name, { S: value }]));
const inserted = (sequence: string, attributes: Record<string, string>): StreamRecord => ({
  eventName: "INSERT",
  dynamodb: { SequenceNumber: sequence, NewImage: image(attributes) },
});
const balanceOf = (ownerId: string) => ({ entity: "balance", owner_id: ownerId, gsi2pk: `FEED#${ownerId}` });

beforeAll(async () => {
  ctx = await ctxPromise;
  subscriber = await user("subscriber");
  bystander = await user("bystander");
  hook = await startReceiver(500);
  const created = await createEndpoint(ctx, subscriber.userId, {
    url: hook.url,
    description: "queue test",
    event_types: ["ledger.transactionCreated"],
    enabled: true,
  });
  secret = created.secret;
  endpointId = created.endpoint.id;
  settle();
});
afterAll(async () => {
  await hook?.close();
  await ctx?.dispose();
});

describe("the stream fanout", () => {
  it("finds the owner of a user feed item, and no owner for the system accounts, the ops feed or a change", () => {
    expect(ownerOfFeedItem(inserted("1", balanceOf("u-1")))).toBe("u-1");
    expect(ownerOfFeedItem(inserted("2", { gsi2pk: "FEED#kyc#u-2" }))).toBe("u-2");
    expect(ownerOfFeedItem(inserted("3", { gsi2pk: "FEED#payment#u-3" }))).toBe("u-3");
    expect(ownerOfFeedItem(inserted("4", { ...balanceOf("system"), gsi2pk: "FEED#system#S1" }))).toBeNull();
    expect(ownerOfFeedItem(inserted("5", { gsi2pk: "FEED#ops#journal#S0" }))).toBeNull();
    expect(ownerOfFeedItem(inserted("6", { gsi2pk: "PAYDECIDE" }))).toBeNull();
    expect(ownerOfFeedItem({ ...inserted("7", balanceOf("u-1")), eventName: "MODIFY" })).toBeNull();
    expect(ownerOfFeedItem(inserted("8", balanceOf("x".repeat(65))))).toBeNull();
  });

  it("sends one message per owner with an enabled endpoint, after the feeds' settle window", async () => {
    take();
    const reply = await fanOutStreamRecords(ctx, queue, [
      inserted("10", balanceOf(subscriber.userId)),
      inserted("11", { gsi2pk: `FEED#payment#${subscriber.userId}` }),
      inserted("12", balanceOf(bystander.userId)),
      inserted("13", { ...balanceOf("system"), gsi2pk: "FEED#system#S3" }),
    ]);
    expect(reply).toEqual({ batchItemFailures: [], enqueued: 1 });
    expect(take()).toEqual([
      { message: { ownerId: subscriber.userId }, delay: Math.ceil(ctx.config.FEED_SETTLE_MS / 1000) },
    ]);
  });

  it("reports the owner's records when SQS refuses, so Lambda retries them", async () => {
    sqsDown = true;
    try {
      const reply = await fanOutStreamRecords(ctx, queue, [
        inserted("20", balanceOf(bystander.userId)),
        inserted("21", balanceOf(subscriber.userId)),
        inserted("22", { gsi2pk: `FEED#kyc#${subscriber.userId}` }),
      ]);
      expect(reply.batchItemFailures).toEqual([{ itemIdentifier: "21" }, { itemIdentifier: "22" }]);
    } finally {
      sqsDown = false;
    }
  });
});

describe("the dispatcher", () => {
  it("records an owner's deliveries, attempts them, and queues each retry due within 15 minutes", async () => {
    await deposit(ctx, subscriber.userId, { account_id: subscriber.accountId, amount: "12.00" }, null);
    settle();
    take();
    const reply = await dispatchMessages(ctx, queue, [
      { messageId: "m1", body: JSON.stringify({ ownerId: subscriber.userId }) },
    ]);
    expect(reply.batchItemFailures).toEqual([]);
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]!.status).toBe(500);
    const retries = take();
    expect(retries).toHaveLength(1);
    const retry = retries[0]!;
    expect(retry.message).toMatchObject({ endpointId, deliveryId: expect.stringMatching(/^wd_/) });
    // The first retry waits about 5 s (jitter aside).
    expect(retry.delay).toBeGreaterThanOrEqual(4);
    expect(retry.delay).toBeLessThanOrEqual(6);

    // Early (a moment after it was queued): sent again for the rest of its wait, nothing attempted.
    await dispatchMessages(ctx, queue, [{ messageId: "m2", body: JSON.stringify(retry.message) }]);
    expect(hook.received).toHaveLength(1);
    expect(take()).toEqual([{ message: retry.message, delay: expect.any(Number) }]);

    // Due: attempted, the receiver answers 200, the delivery succeeds and nothing more is queued.
    hook.answer(200);
    const { dueAt, deliveryId } = retry.message as { dueAt: string; deliveryId: string };
    offsetMs = Math.max(offsetMs, Date.parse(dueAt) - Date.now() + 10);
    await dispatchMessages(ctx, queue, [{ messageId: "m3", body: JSON.stringify(retry.message) }]);
    expect(hook.received).toHaveLength(2);
    const request = hook.received[1]!;
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
    // Verified with the library, as a receiver would (its clock is the real one; ours moved a few seconds).
    expect(new Webhook(secret).verify(request.body, headers)).toMatchObject({ type: "ledger.transactionCreated" });
    expect(take()).toEqual([]);
    expect(await getDelivery(ctx, subscriber.userId, endpointId, deliveryId)).toMatchObject({ status: "succeeded" });

    // The same message again (SQS delivers at least once): nothing is sent twice.
    await dispatchMessages(ctx, queue, [{ messageId: "m4", body: JSON.stringify(retry.message) }]);
    expect(hook.received).toHaveLength(2);
    expect(take()).toEqual([]);
  });

  it("drops what is not a dispatch message, and reports a message whose work failed", async () => {
    const reply = await dispatchMessages(ctx, queue, [
      { messageId: "junk", body: "not json" },
      { messageId: "foreign", body: JSON.stringify({ paymentId: "p-1", dueAt: new Date().toISOString() }) },
      { messageId: "bad-endpoint", body: JSON.stringify({ endpointId: "we_x", deliveryId: "wd_1", dueAt: "2026" }) },
    ]);
    expect(reply.batchItemFailures).toEqual([]);
    // A retry of a delivery that is gone (its endpoint deleted since) is dropped, not retried into the dead letters.
    const gone = deliveryIdOf(endpointId, eventId("ledger", "gone", 1, 0, Date.now()));
    const dueAt = new Date(Date.now() + offsetMs - 1_000).toISOString();
    const dropped = await dispatchMessages(ctx, queue, [
      { messageId: "gone", body: JSON.stringify({ endpointId, deliveryId: gone, dueAt }) },
    ]);
    expect(dropped.batchItemFailures).toEqual([]);

    const broken = { ...ctx, db: { ...ctx.db, table: "no-such-table" } };
    const failed = await dispatchMessages(broken, queue, [
      { messageId: "owner", body: JSON.stringify({ ownerId: subscriber.userId }) },
    ]);
    expect(failed.batchItemFailures).toEqual([{ itemIdentifier: "owner" }]);
  });

  it("leaves retries due beyond SQS's 15-minute delay to the sweep", () => {
    const now = new Date("2026-06-01T10:00:00.000Z");
    const at = (seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();
    const messages = retryMessages(
      [
        { endpointId, deliveryId: "wd_soon", nextAttemptAt: at(300) },
        { endpointId, deliveryId: "wd_later", nextAttemptAt: at(MAX_DELAY_SECONDS + 1) },
      ],
      now,
    );
    expect(messages).toEqual([{ message: { endpointId, deliveryId: "wd_soon", dueAt: at(300) }, delaySeconds: 300 }]);
  });
});

describe("the sweeper", () => {
  it("enqueues every owner with an enabled endpoint, and no one else", async () => {
    take();
    expect(await sweepWebhookOwners(ctx, queue)).toEqual({ enqueued: 1 });
    expect(take()).toEqual([{ message: { ownerId: subscriber.userId }, delay: 0 }]);
  });
});
