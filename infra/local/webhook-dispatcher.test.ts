import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deposit } from "@fintech/core/ledger/service";
import { createEndpoint } from "@fintech/core/webhooks/endpoints";
import { createTestContext } from "@fintech/testing/context";
import { openTestAccount, testCaller } from "@fintech/testing/payments";
import { startReceiver, type TestReceiver } from "@fintech/testing/webhooks/receiver";
import { LocalWebhookDispatcher } from "./webhook-dispatcher";

/**
 * The embedded stack's webhook dispatcher: started, it delivers a commit made beside it; stopped
 * (as `npm start` stops it on Ctrl-C), it lets go at once; a dispatcher started afterwards over the
 * same table delivers what was committed while none ran, and nothing twice.
 */

const ctxPromise = createTestContext({ WEBHOOK_LOCAL_TARGETS: "true" });
let ctx: Awaited<typeof ctxPromise>;
let hook: TestReceiver;
let ownerId: string;
let accountId: string;

beforeAll(async () => {
  ctx = await ctxPromise;
  const caller = await testCaller(ctx, `dispatcher-${Date.now()}@example.com`);
  ownerId = caller.userId;
  accountId = (await openTestAccount(ctx, caller, "Dispatcher account")).id;
  hook = await startReceiver(200);
  await createEndpoint(ctx, ownerId, {
    url: hook.url,
    description: "embedded dispatcher",
    event_types: ["ledger.transactionCreated"],
    enabled: true,
  });
});
afterAll(async () => {
  await hook?.close();
  await ctx?.dispose();
});

const ids = () => hook.received.map((request) => String(request.headers["webhook-id"]));

describe("the embedded webhook dispatcher", () => {
  it("delivers commits, stops on request, and after a restart delivers what it missed, once", async () => {
    const first = new LocalWebhookDispatcher({ pollMs: 100 }).start(ctx);
    await deposit(ctx, ownerId, { account_id: accountId, amount: "3.00" }, null);
    await hook.waitFor((received) => received.length === 1);
    await first.stop();
    expect(first.stats.rounds).toBeGreaterThan(0);

    // Committed while no dispatcher runs: nothing arrives.
    await deposit(ctx, ownerId, { account_id: accountId, amount: "4.00" }, null);
    const stillOne = ids();
    expect(stillOne).toHaveLength(1);

    const second = new LocalWebhookDispatcher({ pollMs: 100 }).start(ctx);
    try {
      await hook.waitFor((received) => received.length >= 2);
      // A few more rounds find nothing new to send.
      for (let round = 0; round < 3; round++) await second.nextRound();
      expect(ids()).toHaveLength(2);
      expect(new Set(ids()).size).toBe(2);
    } finally {
      await second.stop();
    }
  });
});
