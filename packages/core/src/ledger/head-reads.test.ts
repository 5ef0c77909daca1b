import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext } from "@fintech/testing/context";
import { createContext, type CoreContext } from "../shared/context";
import { findAccount } from "./accounts";
import { currentBalance } from "./balances";
import { chainPartition } from "./keys";
import { createAccount, deposit, setJournalStatus, transfer } from "./service";

/**
 * How the write path reads heads (head-cache.ts): eventually consistent where a stale answer
 * only costs a cancelled write, strongly consistent wherever a refusal is decided.
 */

type Context = Awaited<ReturnType<typeof createTestContext>>;
let ctx: Context;
/** Another instance on the same table, with nothing cached. */
let fresh: CoreContext;

beforeAll(async () => {
  ctx = await createTestContext({ FEED_SETTLE_MS: "0" });
  fresh = createContext(ctx.config);
});
afterAll(async () => {
  fresh.db.raw.destroy();
  fresh.storage.destroy();
  await ctx.dispose();
});

const idOf = (body: string) => (JSON.parse(body) as { data: { id: string } }).data.id;

/** The consistency of every head read one instance sends for a chain while `run` runs, in order. */
async function headReadsDuring(instance: CoreContext, chain: string, run: () => Promise<unknown>): Promise<boolean[]> {
  const reads: boolean[] = [];
  const name = `head-reads-${Math.random()}`;
  instance.db.raw.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { Limit?: number; ConsistentRead?: boolean; ExpressionAttributeValues?: object };
      const values = Object.values(input.ExpressionAttributeValues ?? {});
      if (context.commandName === "QueryCommand" && input.Limit === 1 && values.includes(chainPartition(chain)))
        reads.push(input.ConsistentRead === true);
      return next(args);
    },
    { step: "initialize", name },
  );
  try {
    await run();
  } finally {
    instance.db.raw.middlewareStack.remove(name);
  }
  return reads;
}

describe("head reads of the write path", () => {
  it("reads a quiet chain eventually consistent, and decides a refusal only on a strongly consistent read", async () => {
    const owner = "head-reads-owner";
    const a = (await createAccount(ctx, owner, { name: "A", currency: "USD" }, null)).account;
    const b = (await createAccount(ctx, owner, { name: "B", currency: "USD" }, null)).account;
    const funded = await deposit(ctx, owner, { account_id: a.id, amount: "100" }, "head-reads-fund");
    await setJournalStatus(ctx, owner, idOf(funded.body), "post", null);

    const paid = await headReadsDuring(fresh, a.id, () =>
      transfer(fresh, owner, { from_account_id: a.id, to_account_id: b.id, amount: "10" }, "head-reads-1"),
    );
    expect(paid).toEqual([false]);

    // An instance that never wrote the chain: its first read is eventual, the refusal's is not.
    const refusing = createContext(ctx.config);
    try {
      const refused = await headReadsDuring(refusing, a.id, async () => {
        await expect(
          transfer(refusing, owner, { from_account_id: a.id, to_account_id: b.id, amount: "500" }, "head-reads-2"),
        ).rejects.toMatchObject({ code: "insufficient_funds" });
      });
      expect(refused).toEqual([false, true]);
    } finally {
      refusing.db.raw.destroy();
      refusing.storage.destroy();
    }
    expect((await currentBalance(ctx, (await findAccount(ctx, a.id))!)).available).toBe(9_000);
  });
});
