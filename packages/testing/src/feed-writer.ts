/**
 * One writer process of the feed property test (feed.property.test.ts): its own core context on
 * the test's table (config from the environment, as a Lambda instance gets it), its own clock
 * offset, and a delay injected between taking the commit stamp and the write landing, so its
 * outbox positions are out of order with respect to when they become visible. It performs a
 * plan's ledger operations one after the other through the core services; refusals (4xx) are
 * part of the game and write nothing.
 *
 * Protocol: prints "ready" once loaded; then for every line on stdin (a JSON plan: the test
 * sends one to each writer at the same moment) performs it and prints one JSON line of outcome
 * counts. Exits 0 when stdin closes (also when the test process is gone). Any other failure
 * exits 1. The process lives for several plans: starting Node with tsx costs seconds.
 */
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { loadConfig } from "@fintech/core/shared/config";
import { createContext, type CoreContext } from "@fintech/core/shared/context";
import { createDatabase, isAwsError } from "@fintech/core/shared/dynamo";
import { AppError } from "@fintech/core/shared/errors";
import { toDecimalString } from "@fintech/core/money/model";
import { reconcileAccount, setAccountLock, setLowBalanceThreshold } from "@fintech/core/ledger/controls";
import { deposit, setJournalStatus, transfer, type WriteResult } from "@fintech/core/ledger/service";

const Id = z.string().min(1);
const Minor = z.number().int().nonnegative();
export const WriterOp = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("deposit"), owner: Id, account: Id, minor: Minor }),
  z.object({ kind: z.literal("transfer"), owner: Id, from: Id, to: Id, minor: Minor }),
  /** `journal` picks among the journals this writer created (modulo their number). */
  z.object({ kind: z.enum(["post", "unpost"]), journal: Minor }),
  z.object({ kind: z.literal("reconcile"), owner: Id, account: Id, minor: Minor }),
  z.object({ kind: z.literal("threshold"), owner: Id, account: Id, minor: Minor }),
  z.object({ kind: z.enum(["lock", "unlock"]), account: Id }),
]);
export type WriterOp = z.infer<typeof WriterOp>;

export const WriterPlan = z.object({
  /** Added to this process's clock: its commit stamps are that far off. */
  skewMs: z.number().int(),
  /** Delays before successive writes land (used in turn). */
  delaysMs: z.array(Minor).min(1),
  ops: z.array(WriterOp),
});
export type WriterPlan = z.infer<typeof WriterPlan>;

/** What the writer reports per plan: outcome counts ("ok", or the refusal's code) and the writes it delayed. */
export interface WriterReport {
  outcomes: Record<string, number>;
  delayedWrites: number;
}

const ADMIN = { id: "feed-property-admin", name: "Feed Property Admin" };
const usd = (minor: number) => toDecimalString(minor, "USD");

/** Every write of the ledger (journals are transactions, markers are puts) lands late. */
const DELAYED_COMMANDS = new Set(["TransactWriteItemsCommand", "PutItemCommand"]);
function delayWrites(ctx: CoreContext, delaysMs: () => number[]): { count: number } {
  const delayed = { count: 0 };
  ctx.db.raw.middlewareStack.add(
    (handler, context) => async (args) => {
      if (DELAYED_COMMANDS.has(context.commandName ?? "")) {
        const delays = delaysMs();
        await sleep(delays[delayed.count++ % delays.length]!);
      }
      return handler(args);
    },
    { step: "initialize", name: "feedPropertyWriteDelay" },
  );
  return delayed;
}

async function perform(ctx: CoreContext, op: WriterOp, journals: { owner: string; id: string }[]): Promise<string> {
  const created = (owner: string, result: WriteResult) => {
    if (!result.replayed) journals.push({ owner, id: (JSON.parse(result.body) as { data: { id: string } }).data.id });
  };
  switch (op.kind) {
    case "deposit":
      created(
        op.owner,
        await deposit(ctx, op.owner, { account_id: op.account, amount: usd(Math.max(1, op.minor)) }, null),
      );
      return "ok";
    case "transfer":
      created(
        op.owner,
        await transfer(
          ctx,
          op.owner,
          { from_account_id: op.from, to_account_id: op.to, amount: usd(Math.max(1, op.minor)) },
          null,
        ),
      );
      return "ok";
    case "post":
    case "unpost": {
      const journal = journals[op.journal % Math.max(1, journals.length)];
      if (!journal) return "no_journal";
      await setJournalStatus(ctx, journal.owner, journal.id, op.kind, null);
      return "ok";
    }
    case "reconcile":
      await reconcileAccount(
        ctx,
        op.owner,
        { accountId: op.account, expectedBalance: usd(op.minor) },
        { id: op.owner, name: op.owner },
      );
      return "ok";
    case "threshold":
      await setLowBalanceThreshold(
        ctx,
        op.owner,
        op.account,
        { low_balance_threshold: usd(op.minor) },
        { id: op.owner, name: op.owner },
      );
      return "ok";
    case "lock":
    case "unlock":
      await setAccountLock(ctx, op.account, op.kind === "lock", { reason: `property ${op.kind}` }, ADMIN);
      return "ok";
  }
}

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  let plan: WriterPlan = { skewMs: 0, delaysMs: [0], ops: [] };
  const ctx = createContext(config, { db: createDatabase(config), clock: () => new Date(Date.now() + plan.skewMs) });
  const delayed = delayWrites(ctx, () => plan.delaysMs);

  const lines = createInterface({ input: process.stdin });
  process.stdout.write("ready\n");
  for await (const line of lines) {
    plan = WriterPlan.parse(JSON.parse(line));
    const outcomes: Record<string, number> = {};
    const delayedBefore = delayed.count;
    const journals: { owner: string; id: string }[] = [];
    for (const op of plan.ops) {
      let outcome: string;
      try {
        outcome = await perform(ctx, op, journals);
      } catch (error) {
        if (error instanceof AppError) outcome = error.code;
        // Out-raced on every attempt: the write was cancelled, so nothing was committed.
        else if (
          isAwsError(error, "TransactionCanceledException") ||
          isAwsError(error, "ConditionalCheckFailedException")
        )
          outcome = "gave_up";
        else throw error;
      }
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
    const report: WriterReport = { outcomes, delayedWrites: delayed.count - delayedBefore };
    process.stdout.write(`${JSON.stringify(report)}\n`);
  }
  ctx.db.raw.destroy();
}

main().catch((error: unknown) => {
  process.stderr.write(
    `feed writer failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
