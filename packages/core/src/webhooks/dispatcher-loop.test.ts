import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestContext } from "@fintech/testing/context";
import { openTestAccount, testCaller } from "@fintech/testing/payments";
import { startReceiver, type TestReceiver } from "@fintech/testing/webhooks/receiver";
import { deposit } from "../ledger/service";
import { cursorKey } from "./delivery-keys";
import { runWebhookDispatcher } from "./dispatcher-loop";
import { createEndpoint } from "./endpoints";

/**
 * The embedded stack's dispatcher loop: it delivers what is committed while it runs, carries on
 * when one owner's dispatch fails, and stops when aborted.
 */

let ctx: Awaited<ReturnType<typeof createTestContext>>;
const receivers: TestReceiver[] = [];
const stop = new AbortController();
beforeAll(async () => {
  ctx = await createTestContext({ WEBHOOK_LOCAL_TARGETS: "true" });
});
afterAll(async () => {
  stop.abort();
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await ctx.dispose();
});

async function subscribedOwner(name: string) {
  const caller = await testCaller(ctx, `webhook-loop-${name}-${Date.now()}@example.com`);
  const account = await openTestAccount(ctx, caller, "Loop test");
  const hook = await startReceiver(200);
  receivers.push(hook);
  const { endpoint } = await createEndpoint(ctx, caller.userId, {
    url: hook.url,
    event_types: ["ledger.transactionCreated"],
    description: name,
    enabled: true,
  });
  return { caller, account, hook, endpoint };
}

it("delivers events committed while it runs, survives a failing owner, and stops on abort", async () => {
  const healthy = await subscribedOwner("healthy");
  const broken = await subscribedOwner("broken");
  // A cursor that cannot be read makes every dispatch of this owner fail.
  await ctx.db.doc.send(
    new PutCommand({
      TableName: ctx.db.table,
      Item: { ...cursorKey(broken.endpoint.id, "ledger"), feed: "ledger", cursor: "{not json", version: 1 },
    }),
  );
  const errors: string[] = [];
  const logged = { ...ctx, logger: { ...ctx.logger, error: (message: string) => errors.push(message) } };
  let rounds = 0;
  const loop = runWebhookDispatcher(logged, { signal: stop.signal, pollMs: 20, onRound: () => (rounds += 1) });

  await deposit(ctx, healthy.caller.userId, { account_id: healthy.account.id, amount: "7.00" }, null);
  await deposit(ctx, broken.caller.userId, { account_id: broken.account.id, amount: "7.00" }, null);
  await healthy.hook.waitFor((received) => received.length === 1);
  expect(JSON.parse(healthy.hook.received[0]!.body)).toMatchObject({ type: "ledger.transactionCreated" });
  expect(errors).toContain("webhook dispatch failed");
  expect(broken.hook.received).toHaveLength(0);

  const roundsBefore = rounds;
  await expect.poll(() => rounds, { timeout: 30_000 }).toBeGreaterThan(roundsBefore + 2);
  stop.abort();
  await loop;
  const roundsAtStop = rounds;
  await deposit(ctx, healthy.caller.userId, { account_id: healthy.account.id, amount: "8.00" }, null);
  expect(rounds).toBe(roundsAtStop);
});
