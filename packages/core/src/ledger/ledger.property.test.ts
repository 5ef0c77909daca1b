import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { createTestContext } from "@fintech/testing/context";
import { createContext, type CoreContext } from "../shared/context";
import { listAccounts } from "./accounts";
import { integrityCheck, trialBalance } from "./reports";
import { createAccount, deposit } from "./service";
import { decideDeposit } from "../approvals/deposits";
import { checkInvariants, snapshot } from "@fintech/testing/ledger/invariants";
import { FeedFollower } from "@fintech/testing/ledger/feed";
import { countItems, runStep } from "@fintech/testing/ledger/steps";
import {
  outcomeStats,
  type AmountSpec,
  type CreateCommand,
  type SimpleCommand,
  type StatusCommand,
  type Step,
} from "@fintech/testing/ledger/commands";
import { setUpWorld, type World } from "@fintech/testing/ledger/world";
import { allowMoneyForTests } from "@fintech/testing/limits";

/**
 * Property tests of the ledger engine against DynamoDB Local: random command sequences over two
 * users' accounts (USD incl. a credit-normal one, JPY with no decimals, EUR), including quoted
 * conversions between currencies (two journals, one per currency, through the FX position and
 * FX revenue accounts: every currency's debits still equal its credits), run one by one
 * and concurrently, replayed with the same and with a different Idempotency-Key body; after
 * every step the engine's answers must match an independent oracle, and after every run the
 * whole table must satisfy the ledger's invariants (see checkInvariants in @fintech/testing/ledger/invariants).
 *
 * A property of its own converts customer accounts to credit shards (some at set-up, others by a
 * step among the others, while unrelated requests run) and adds: the running sum of every chain
 * never below zero, balances as of the conversion's instant, the millisecond before and after it
 * and random instants equal to the journals' replay, and each owner's feed (read after every step,
 * the connection dropped now and then) with every committed change exactly once, in order per
 * chain. Automatic conversion is off in this file: conversions happen where the steps say.
 *
 * Requests go through three contexts on one table (own clients, caches and chain queues), as
 * three processes would, so concurrent writers really race through DynamoDB's conditions.
 *
 * Accounts (index: owner, currency, type): 0 u1 USD bank, 1 u1 USD bank (opening 250.00 draft),
 * 2 u1 USD liability, 3 u1 JPY bank, 4 u1 JPY asset, 5 u1 EUR bank, 6 u2 USD bank, 7 u2 JPY bank.
 *
 * Knobs: LEDGER_PROPERTY_RUNS (runs per property, default 10), LEDGER_PROPERTY_TIME_LIMIT_MS
 * (bound on a property including shrinking, default 240 s), LEDGER_PROPERTY_TIMING=1 (print
 * per-run timings, outcome counts and cancelled transactions).
 */

const ACCOUNTS = 8;
const SAME_CURRENCY_PAIRS: [number, number][] = [
  [0, 1],
  [1, 0],
  [0, 2],
  [2, 0],
  [1, 2],
  [2, 1],
  [3, 4],
  [4, 3],
];
/** Same account, another owner's account, another currency. */
const REFUSED_PAIRS: [number, number][] = [
  [0, 0],
  [3, 3],
  [0, 6],
  [3, 7],
  [0, 3],
  [5, 1],
];

const amount: fc.Arbitrary<AmountSpec> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      form: fc.constantFrom("number" as const, "string" as const),
      minor: fc.integer({ min: 1, max: 60_000 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ form: fc.constant("string" as const), minor: fc.integer({ min: 1, max: 100_000_000_000 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      form: fc.constant("bad" as const),
      // Refused everywhere, or only for some currencies ("12.5" and "0.10" are fine in USD, not "12.5" in JPY).
      text: fc.constantFrom(
        "0",
        "0.00",
        "-5",
        "12.345",
        "0.001",
        "12.5",
        "0.10",
        "1e3",
        "abc",
        "",
        " ",
        "1,000",
        "10000000000",
        "1000000000.01",
        " 7 ",
      ),
    }),
  },
);
const currencyChoice = fc.constantFrom(
  "right" as const,
  "right" as const,
  "omit" as const,
  "omit" as const,
  "wrong" as const,
);
const keyed = fc.integer({ min: 0, max: 9 }).map((n) => n < 7);
const description = fc.option(fc.constantFrom("rent", "groceries", "Lunch 🍜"), { nil: null });

const transferCommand: fc.Arbitrary<CreateCommand> = fc
  .record({
    pair: fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(...SAME_CURRENCY_PAIRS) },
      { weight: 1, arbitrary: fc.constantFrom(...REFUSED_PAIRS) },
      { weight: 1, arbitrary: fc.tuple(fc.nat({ max: ACCOUNTS - 1 }), fc.nat({ max: ACCOUNTS - 1 })) },
    ),
    amount,
    currency: currencyChoice,
    keyed,
    description,
  })
  .map(({ pair, ...rest }) => ({ kind: "transfer" as const, from: pair[0], to: pair[1], ...rest }));

/** Accounts of one owner in two currencies: a quoted conversion between them. */
const CROSS_CURRENCY_PAIRS: [number, number][] = [
  [0, 5],
  [5, 0],
  [3, 5],
  [5, 3],
  [0, 3],
  [3, 0],
  [1, 4],
  [2, 5],
];

const fxCommand: fc.Arbitrary<CreateCommand> = fc
  .record({
    pair: fc.constantFrom(...CROSS_CURRENCY_PAIRS),
    // Mostly amounts a funded account covers, so that conversions succeed as well as fail.
    amount: fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({ form: fc.constant("string" as const), minor: fc.integer({ min: 1, max: 3_000 }) }),
      },
      { weight: 1, arbitrary: amount },
    ),
    quote: fc.constantFrom(
      "fresh" as const,
      "fresh" as const,
      "fresh" as const,
      "reused" as const,
      "foreign" as const,
      "mismatch" as const,
    ),
    keyed,
  })
  .map(({ pair, ...rest }) => ({ kind: "fx" as const, from: pair[0], to: pair[1], ...rest }));

const depositCommand: fc.Arbitrary<CreateCommand> = fc.record({
  kind: fc.constant("deposit" as const),
  account: fc.nat({ max: ACCOUNTS - 1 }),
  amount,
  currency: currencyChoice,
  keyed,
  description,
});

const testBalanceCommand: fc.Arbitrary<CreateCommand> = fc.record({
  kind: fc.constant("test_balance" as const),
  account: fc.nat({ max: ACCOUNTS - 1 }),
  amount: fc.option(
    fc.oneof(
      amount,
      fc.record({
        form: fc.constant("string" as const),
        minor: fc.constantFrom(10_000_000, 10_000_001, 100_000, 100_001),
      }),
    ),
    { nil: null },
  ),
  keyed,
});

const statusCommand: fc.Arbitrary<StatusCommand> = fc.record({
  kind: fc.constantFrom("post" as const, "post" as const, "post" as const, "unpost" as const),
  journal: fc.nat({ max: 1000 }),
  recent: fc.integer({ min: 0, max: 9 }).map((n) => n < 7),
  keyed,
  asStranger: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
});

const simpleCommand: fc.Arbitrary<SimpleCommand> = fc.oneof(
  { weight: 3, arbitrary: depositCommand },
  { weight: 1, arbitrary: testBalanceCommand },
  { weight: 4, arbitrary: transferCommand },
  { weight: 2, arbitrary: fxCommand },
  { weight: 5, arbitrary: statusCommand },
);

const one: fc.Arbitrary<Step> = simpleCommand.map((command) => ({ kind: "one" as const, command }));
const replay: fc.Arbitrary<Step> = fc.record({
  kind: fc.constant("replay" as const),
  request: fc.nat({ max: 1000 }),
  variant: fc.constantFrom("same" as const, "same" as const, "equivalent" as const, "different" as const),
});
const duplicate: fc.Arbitrary<Step> = fc.record({
  kind: fc.constant("duplicate" as const),
  command: simpleCommand,
  copies: fc.integer({ min: 2, max: 6 }),
});
const batch: fc.Arbitrary<Step> = fc.record({
  kind: fc.constant("batch" as const),
  commands: fc.array(simpleCommand, { minLength: 2, maxLength: 6 }),
});
const drain: fc.Arbitrary<Step> = fc.record({
  kind: fc.constant("drain" as const),
  from: fc.constantFrom(0, 1, 3, 4),
  copies: fc.integer({ min: 2, max: 5 }),
  fraction: fc.double({ min: 0.2, max: 0.8, noNaN: true }),
});

/**
 * An admin converts an account to credit shards (from one to three instances at once) while
 * unrelated requests run: the conversion of a live account.
 */
const convert: fc.Arbitrary<Step> = fc.record({
  kind: fc.constant("convert" as const),
  account: fc.nat({ max: ACCOUNTS - 1 }),
  copies: fc.integer({ min: 1, max: 3 }),
  during: fc.array(simpleCommand, { maxLength: 4 }),
});

/**
 * A run with credit shards: accounts converted at set-up, the steps (conversions among them),
 * a feed client per owner that reads after every step and drops its connection at the given
 * steps (after that many events of the read), and fractions of the run's time span where the
 * converted accounts' balances are read as of then.
 */
const shardedRun = fc.record({
  convertedAtSetUp: fc.uniqueArray(fc.nat({ max: ACCOUNTS - 1 }), { maxLength: 3 }),
  steps: fc.array(
    fc.oneof(
      { weight: 4, arbitrary: one },
      { weight: 1, arbitrary: replay },
      { weight: 1, arbitrary: duplicate },
      { weight: 2, arbitrary: batch },
      { weight: 2, arbitrary: drain },
      { weight: 2, arbitrary: convert },
    ),
    { minLength: 10, maxLength: 25 },
  ),
  drops: fc.array(fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }), { minLength: 25, maxLength: 25 }),
  probes: fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 1, maxLength: 2 }),
});
type ShardedRun = typeof shardedRun extends fc.Arbitrary<infer T> ? T : never;

/**
 * Conversions happen where the run says: automatic conversion (a process losing races on one
 * account's credits) would convert accounts behind the oracle's back.
 */
const testContext = () => createTestContext({ LEDGER_AUTO_CREDIT_SHARDS: "false" });

/** Cancelled TransactWriteItems by reason, over all instances: shows the races really happen. */
const cancellations = new Map<string, number>();
function countCancellations(instance: CoreContext): CoreContext {
  instance.db.raw.middlewareStack.add(
    (next, context) => async (args) => {
      try {
        return await next(args);
      } catch (error) {
        if (context.commandName === "TransactWriteItemsCommand") {
          const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
          const label = reasons.map((reason) => reason.Code ?? "None").join(",");
          cancellations.set(label, (cancellations.get(label) ?? 0) + 1);
        }
        throw error;
      }
    },
    { step: "initialize" },
  );
  return instance;
}

/** Three "processes" on one table: the test context and two more with their own clients and caches. */
function instancesOn(ctx: CoreContext): { instances: CoreContext[]; close(): void } {
  const peers = [countCancellations(createContext(ctx.config)), countCancellations(createContext(ctx.config))];
  countCancellations(ctx);
  return {
    instances: [ctx, ...peers],
    close: () => {
      for (const peer of peers) {
        peer.db.raw.destroy();
        peer.storage.destroy();
      }
    },
  };
}

/** One run: a fresh table, the accounts, the steps (each checked), then the whole-table invariants. */
async function run(steps: Step[], sampledTimes: number, sharded?: Omit<ShardedRun, "steps">): Promise<void> {
  const started = Date.now();
  const ctx = await testContext();
  const { instances, close } = instancesOn(ctx);
  const timing = { setup: 0, run: 0, checks: 0 };
  try {
    const runId = Math.random().toString(36).slice(2, 8);
    const feedStart = new Date(Date.now() - 1);
    const world: World = await setUpWorld(ctx, runId, { creditShards: sharded?.convertedAtSetUp ?? [] });
    const followers = sharded ? world.owners.map((owner) => new FeedFollower(ctx, owner, feedStart)) : [];
    timing.setup = Date.now() - started;
    const problems: string[] = [];
    for (const [index, step] of steps.entries()) {
      const found = await runStep(instances, world.model, step);
      problems.push(...found.map((problem) => `step ${index}: ${problem}`));
      if (problems.length > 0) break;
      for (const follower of followers) await follower.poll(sharded?.drops[index]);
    }
    timing.run = Date.now() - started - timing.setup;
    if (problems.length === 0)
      problems.push(
        ...(await checkInvariants(ctx, world, sampledTimes, {
          conversions: "exact",
          ...(sharded ? { probes: sharded.probes } : {}),
        })),
      );
    if (problems.length === 0 && followers.length > 0) {
      for (const follower of followers) await follower.finish();
      const table = await snapshot(ctx);
      for (const follower of followers) problems.push(...follower.problems(table));
    }
    timing.checks = Date.now() - started - timing.setup - timing.run;
    if (process.env.LEDGER_PROPERTY_TIMING) console.log(JSON.stringify({ steps: steps.length, ...timing }));
    if (problems.length > 0) {
      throw new Error(
        `${problems.length} violation(s):\n${problems.slice(0, 12).join("\n")}\nsteps: ${JSON.stringify(steps)}`,
      );
    }
  } finally {
    close();
    await ctx.dispose();
  }
}

/** LEDGER_PROPERTY_RUNS overrides the number of runs (more for a soak, fewer for a quick look). */
const settings = <T extends unknown[]>(numRuns: number): fc.Parameters<T> => ({
  numRuns: Number(process.env.LEDGER_PROPERTY_RUNS ?? numRuns),
  // Shrinking replays whole runs against DynamoDB; bound it so a failure reports in reasonable time.
  interruptAfterTimeLimit: Number(process.env.LEDGER_PROPERTY_TIME_LIMIT_MS ?? 240_000),
  markInterruptAsFailure: false,
});

describe("ledger engine properties (DynamoDB Local)", () => {
  afterAll(() => {
    if (process.env.LEDGER_PROPERTY_TIMING) {
      console.log(
        [...outcomeStats]
          .sort()
          .map(([label, count]) => `${label}: ${count}`)
          .join("\n"),
      );
      console.log(`cancelled transactions: ${JSON.stringify(Object.fromEntries(cancellations))}`);
    }
  });

  it("sequential commands and replays match the oracle and keep every invariant", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof({ weight: 3, arbitrary: one }, { weight: 1, arbitrary: replay }), {
          minLength: 10,
          maxLength: 30,
        }),
        (steps) => run(steps, 4),
      ),
      settings(10),
    );
  }, 300_000);

  it("concurrent batches, duplicate requests and draining transfers keep every invariant", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            { weight: 3, arbitrary: one },
            { weight: 1, arbitrary: replay },
            { weight: 2, arbitrary: duplicate },
            { weight: 2, arbitrary: batch },
            { weight: 2, arbitrary: drain },
          ),
          { minLength: 10, maxLength: 25 },
        ),
        (steps) => run(steps, 4),
      ),
      settings(10),
    );
  }, 300_000);

  it("customer accounts on credit shards (converted at set-up and live) keep every invariant, point-in-time balance and feed", async () => {
    await fc.assert(
      fc.asyncProperty(shardedRun, ({ steps, ...sharded }) => run(steps, 4, sharded)),
      settings(6),
    );
  }, 300_000);

  it("a burst of identical keyed transfers drains once and replays identically", async () => {
    const ctx = await testContext();
    const { instances, close } = instancesOn(ctx);
    try {
      const world = await setUpWorld(ctx, "burst");
      const steps: Step[] = [
        {
          kind: "one",
          command: {
            kind: "deposit",
            account: 0,
            amount: { form: "string", minor: 10_000 },
            currency: "right",
            keyed: true,
            description: null,
          },
        },
        { kind: "one", command: { kind: "post", journal: 0, recent: true, keyed: true, asStranger: false } },
        {
          kind: "duplicate",
          copies: 8,
          command: {
            kind: "transfer",
            from: 0,
            to: 1,
            amount: { form: "number", minor: 6_000 },
            currency: "omit",
            keyed: true,
            description: null,
          },
        },
        {
          kind: "duplicate",
          copies: 8,
          command: {
            kind: "transfer",
            from: 0,
            to: 1,
            amount: { form: "number", minor: 6_000 },
            currency: "omit",
            keyed: true,
            description: null,
          },
        },
        { kind: "replay", request: 2, variant: "same" },
        { kind: "replay", request: 2, variant: "different" },
        { kind: "drain", from: 0, copies: 5, fraction: 0.3 },
      ];
      const problems: string[] = [];
      for (const step of steps) problems.push(...(await runStep(instances, world.model, step)));
      problems.push(...(await checkInvariants(ctx, world, 6)));
      expect(problems).toEqual([]);
    } finally {
      close();
      await ctx.dispose();
    }
  }, 60_000);

  it("quoted conversions book both journals once, replay, refuse a used quote and keep every currency's zero sum", async () => {
    const ctx = await testContext();
    const { instances, close } = instancesOn(ctx);
    try {
      const world = await setUpWorld(ctx, "fx");
      const fund = (account: number, minor: number): Step[] => [
        {
          kind: "one",
          command: {
            kind: "test_balance",
            account,
            amount: { form: "string", minor },
            keyed: true,
          },
        },
        { kind: "one", command: { kind: "post", journal: 0, recent: true, keyed: false, asStranger: false } },
      ];
      const convert = (from: number, to: number, minor: number, quote: "fresh" | "reused" | "foreign" | "mismatch") =>
        ({ kind: "fx", from, to, amount: { form: "string", minor }, quote, keyed: true }) as const;
      const steps: Step[] = [
        ...fund(0, 50_000),
        ...fund(3, 90_000),
        { kind: "one", command: convert(0, 5, 10_000, "fresh") },
        { kind: "replay", request: 2, variant: "same" },
        { kind: "replay", request: 2, variant: "different" },
        { kind: "one", command: convert(0, 5, 10_000, "reused") },
        { kind: "one", command: convert(0, 3, 2_500, "foreign") },
        { kind: "one", command: convert(0, 3, 2_500, "mismatch") },
        { kind: "duplicate", copies: 6, command: convert(3, 0, 40_000, "fresh") },
        {
          kind: "batch",
          commands: [convert(0, 3, 1_234, "fresh"), convert(3, 5, 777, "fresh"), convert(0, 5, 99, "fresh")],
        },
        { kind: "one", command: { kind: "post", journal: 0, recent: true, keyed: true, asStranger: false } },
        { kind: "one", command: { kind: "post", journal: 1, recent: true, keyed: false, asStranger: false } },
        { kind: "one", command: { kind: "unpost", journal: 0, recent: true, keyed: false, asStranger: false } },
        { kind: "one", command: convert(0, 5, 60_000, "fresh") },
      ];
      const problems: string[] = [];
      for (const step of steps) problems.push(...(await runStep(instances, world.model, step)));
      problems.push(...(await checkInvariants(ctx, world, 6)));
      expect(problems).toEqual([]);
      const fxJournals = [...world.model.journals.values()].filter((journal) =>
        journal.legs.some((leg) => leg.account.startsWith("sys-fx")),
      );
      expect(fxJournals.length).toBeGreaterThanOrEqual(8);
    } finally {
      close();
      await ctx.dispose();
    }
  }, 120_000);

  it("concurrent duplicates of one keyed unpost all answer with the one unpost (regression)", async () => {
    const ctx = await testContext();
    const { instances, close } = instancesOn(ctx);
    try {
      const world = await setUpWorld(ctx, "unpost");
      const problems: string[] = [];
      problems.push(
        ...(await runStep(instances, world.model, {
          kind: "one",
          command: {
            kind: "deposit",
            account: 0,
            amount: { form: "string", minor: 10_000 },
            currency: "right",
            keyed: true,
            description: null,
          },
        })),
      );
      for (let round = 0; round < 6; round++) {
        problems.push(
          ...(await runStep(instances, world.model, {
            kind: "one",
            command: { kind: "post", journal: 0, recent: true, keyed: true, asStranger: false },
          })),
        );
        problems.push(
          ...(await runStep(instances, world.model, {
            kind: "duplicate",
            copies: 6,
            command: { kind: "unpost", journal: 0, recent: true, keyed: true, asStranger: false },
          })),
        );
      }
      problems.push(...(await checkInvariants(ctx, world, 4)));
      expect(problems).toEqual([]);
    } finally {
      close();
      await ctx.dispose();
    }
  }, 60_000);

  it("creating an account twice with one Idempotency-Key opens one account and writes nothing the second time", async () => {
    const ctx = await createTestContext();
    try {
      const body = { name: "Rainy day", currency: "USD", type: "bank", initial_balance: "25.00" };
      const first = await createAccount(ctx, "acct-owner", body, "open-1");
      const items = await countItems(ctx);
      const again = await createAccount(ctx, "acct-owner", body, "open-1");
      expect(await countItems(ctx)).toBe(items);
      expect(again.replayed).toBe(true);
      expect(again.account.id).toBe(first.account.id);
      expect(again.opening_transaction).toEqual(first.opening_transaction);
      const others = await Promise.all(
        Array.from({ length: 4 }, () =>
          createAccount(ctx, "acct-owner", body, "open-2").then((reply) => reply.account.id),
        ),
      );
      expect(new Set(others).size).toBe(1);
      expect((await listAccounts(ctx, "acct-owner")).map((account) => account.name)).toEqual([
        "Rainy day",
        "Rainy day",
      ]);
      const reused = await createAccount(ctx, "acct-owner", { ...body, name: "Other" }, "open-1").catch(
        (error: unknown) => error,
      );
      expect(reused).toMatchObject({ status: 422, code: "idempotency_key_reused" });
      expect((await listAccounts(ctx, "acct-owner")).length).toBe(2);
      const integrity = await integrityCheck(ctx, "ledger");
      expect(integrity.ok).toBe(true);
    } finally {
      await ctx.dispose();
    }
  }, 60_000);

  it("a trial balance whose totals exceed one journal's maximum still balances (regression)", async () => {
    const ctx = await createTestContext();
    try {
      const owner = "big-owner";
      await allowMoneyForTests(ctx, owner);
      for (const name of ["Big one", "Big two"]) {
        const { account } = await createAccount(ctx, owner, { name, currency: "USD", type: "bank" }, null);
        const created = await deposit(ctx, owner, { account_id: account.id, amount: "1000000000.00" }, null);
        // Above the four-eyes threshold: a second person approves it.
        await decideDeposit(
          ctx,
          (JSON.parse(created.body) as { data: { id: string } }).data.id,
          { id: "approver", email: "approver@example.com", name: "Approver" },
          { decision: "approve", reason: "Test funding" },
        );
      }
      const trial = await trialBalance(ctx, owner);
      expect(trial.totals).toEqual([
        {
          currency: "USD",
          total_debit_balance: "2000000000.00",
          total_credit_balance: "2000000000.00",
          is_balanced: true,
        },
      ]);
      expect(trial.is_balanced).toBe(true);
    } finally {
      await ctx.dispose();
    }
  }, 60_000);
});
