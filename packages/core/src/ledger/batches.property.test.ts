import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { createTestContext } from "@fintech/testing/context";
import { createContext, type CoreContext } from "../shared/context";
import { AppError } from "../shared/errors";
import { postBatch } from "./batches";
import { isItemError, RECORDED_REFUSALS } from "./decisions";
import { checkInvariants } from "@fintech/testing/ledger/invariants";
import { execute, type CreateCommand, type CreateRequest, type Request } from "@fintech/testing/ledger/commands";
import { setUpWorld, type World } from "@fintech/testing/ledger/world";
import type { Model } from "@fintech/testing/ledger/oracle";

/**
 * Batches against the testkit's oracle: random batches of transfers and deposits (valid,
 * malformed, refused, overdrawing), each checked against what the oracle says the items would
 * do one after another (all or nothing: the first failing item by the batch's order of checks),
 * keyed batches replayed, batch journals posted later, some accounts on credit shards (converted
 * at set-up); then the whole-table invariants of
 * @fintech/testing/ledger/invariants (chains follow from their changes, folded versions included; journals and
 * versions account for each other; point in time = replay of the journals at every instant;
 * trial balances; the oracle's totals).
 */

const runs = Number(process.env.LEDGER_BATCH_RUNS ?? 3);
const disposers: (() => Promise<void>)[] = [];
/** How often each outcome was seen (to judge the generator): "ok", "replayed", or the refusal's code. */
const outcomes = new Map<string, number>();
const tally = (label: string) => outcomes.set(label, (outcomes.get(label) ?? 0) + 1);
afterAll(async () => {
  console.log(`batch outcomes: ${JSON.stringify(Object.fromEntries([...outcomes].sort()))}`);
  await Promise.all(disposers.map((dispose) => dispose()));
});

/**
 * Accounts 0..5 are the first user's (the batch's owner: 0-2 USD, 2 credit-normal, 3-4 JPY, 5
 * EUR), 6 and 7 another user's (a 404 in a batch). Most batches are clean (they commit unless
 * they overdraw); some carry one malformed or refused item somewhere.
 */
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
const goodAmount = fc.record({
  form: fc.constantFrom("number" as const, "string" as const),
  minor: fc.integer({ min: 1, max: 20_000 }),
});
/** Transfers are now and then large enough to overdraw (the funding batch puts 100,000 minor units on each account). */
const transferAmount = fc.oneof(
  { weight: 6, arbitrary: goodAmount },
  {
    weight: 1,
    arbitrary: fc.record({ form: fc.constant("string" as const), minor: fc.integer({ min: 50_000, max: 200_000 }) }),
  },
);
const rightCurrency = fc.constantFrom("omit" as const, "right" as const);
const cleanItem: fc.Arbitrary<CreateCommand> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .record({ pair: fc.constantFrom(...SAME_CURRENCY_PAIRS), amount: transferAmount, currency: rightCurrency })
      .map(({ pair, ...rest }) => ({
        kind: "transfer" as const,
        from: pair[0],
        to: pair[1],
        keyed: false,
        description: null,
        ...rest,
      })),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({ account: fc.nat({ max: 5 }), amount: goodAmount, currency: rightCurrency })
      .map((rest) => ({ kind: "deposit" as const, keyed: false, description: null, ...rest })),
  },
);
/** Same account, another user's account, another currency, a wrong currency field, a malformed amount. */
const dirtyItem: fc.Arbitrary<CreateCommand> = fc.oneof(
  fc
    .record({
      pair: fc.constantFrom<[number, number]>([0, 0], [3, 3], [0, 6], [3, 7], [0, 3], [5, 1]),
      amount: goodAmount,
    })
    .map(({ pair, amount }) => ({
      kind: "transfer" as const,
      from: pair[0],
      to: pair[1],
      amount,
      currency: "omit" as const,
      keyed: false,
      description: null,
    })),
  fc.record({ account: fc.nat({ max: 5 }), amount: goodAmount }).map((rest) => ({
    kind: "deposit" as const,
    currency: "wrong" as const,
    keyed: false,
    description: null,
    ...rest,
  })),
  fc.record({ account: fc.nat({ max: 5 }), text: fc.constantFrom("1.234", "abc", "-5") }).map(({ account, text }) => ({
    kind: "deposit" as const,
    account,
    amount: { form: "bad" as const, text },
    currency: "omit" as const,
    keyed: false,
    description: null,
  })),
);
const items = fc.oneof(
  { weight: 4, arbitrary: fc.array(cleanItem, { minLength: 1, maxLength: 12 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.array(cleanItem, { minLength: 0, maxLength: 8 }), dirtyItem, fc.nat())
      .map(([clean, dirty, at]) => {
        const all = [...clean];
        all.splice(at % (clean.length + 1), 0, dirty);
        return all;
      }),
  },
);
/** postDrafts: afterwards post every draft journal (single path), so later transfers have money to spend. */
const batchStep = fc.record({ items, keyed: fc.boolean(), postDrafts: fc.nat({ max: 3 }).map((n) => n > 0) });

/** The first batch of every run: a deposit of 1,000 (minor units x 100) into each of the owner's accounts. */
const FUNDING: CreateCommand[] = [0, 1, 2, 3, 4, 5].map((account) => ({
  kind: "deposit",
  account,
  amount: { form: "string", minor: 100_000 },
  currency: "omit",
  keyed: false,
  description: null,
}));

type Expected = { ok: true } | { ok: false; status: number; code: string; index: number };

/** What the batch must answer: validation of every item, then the business checks, then the balances in order. */
function expectBatch(model: Model, requests: CreateRequest[]): Expected {
  const singles = requests.map((request) => model.expect(request));
  const failing = (accept: (code: string) => boolean): Expected | null => {
    const index = singles.findIndex((single) => !single.ok && accept(single.code));
    const single = singles[index];
    return single && !single.ok ? { ok: false, status: single.status, code: single.code, index } : null;
  };
  const stateful = new Set(["insufficient_funds", "account_locked"]);
  const refusal = failing((code) => !RECORDED_REFUSALS.has(code)) ?? failing((code) => !stateful.has(code));
  if (refusal) return refusal;
  // The balances: apply the items one after another on a copy of the oracle's state, then roll back.
  const totals = new Map(model.totals);
  const journals = new Map(model.journals);
  const order = model.journalOrder.length;
  const writes = model.expectedWrites;
  let outcome: Expected = { ok: true };
  for (const [index, request] of requests.entries()) {
    const single = model.expect(request);
    if (!single.ok) {
      outcome = { ok: false, status: single.status, code: single.code, index };
      break;
    }
    model.record(request, { ok: true, body: JSON.stringify({ data: { id: `simulated-${index}` } }), replayed: false });
  }
  model.totals.clear();
  for (const [id, value] of totals) model.totals.set(id, value);
  model.journals.clear();
  for (const [id, value] of journals) model.journals.set(id, value);
  model.journalOrder.length = order;
  model.expectedWrites = writes;
  return outcome;
}

type BatchOutcome =
  | { ok: true; body: string; replayed: boolean }
  | { ok: false; status: number; code: string; index: number | null; replayed: boolean };

async function send(
  world: World,
  ctx: CoreContext,
  requests: CreateRequest[],
  key: string | null,
): Promise<BatchOutcome> {
  const items = requests.map((request) => ({ type: request.fn, ...request.body }));
  try {
    const result = await postBatch(ctx, world.owners[0]!, { items }, key);
    return { ok: true, body: result.body, replayed: result.replayed };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return {
      ok: false,
      status: error.status,
      code: error.code,
      index: isItemError(error) ? error.index : null,
      replayed: error.headers["Idempotent-Replayed"] === "true",
    };
  }
}

/**
 * Accounts of the batches' owner converted to credit shards before the run: their credits land on
 * shards (several of one batch folded into one shard version), their debits on the main chain.
 */
const convertedAtSetUp = fc.uniqueArray(fc.nat({ max: 5 }), { maxLength: 2 });

/** Posts every draft journal of the oracle through the single path; returns any disagreement. */
async function postDrafts(ctx: CoreContext, model: Model): Promise<string[]> {
  const problems: string[] = [];
  for (const [journalId, journal] of model.journals) {
    if (journal.status !== "draft") continue;
    const request: Request = { fn: "post", owner: journal.owner, journalId, key: null };
    const wanted = model.expect(request);
    const posted = await execute(ctx, request);
    if (wanted.ok !== posted.ok)
      problems.push(`post ${journalId}: got ${JSON.stringify(posted)}, oracle ${JSON.stringify(wanted)}`);
    model.record(request, posted);
  }
  return problems;
}

describe("batches against the oracle", () => {
  it("random batches (valid, malformed, refused, overdrawing; keyed and replayed) keep every invariant", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(batchStep, { minLength: 4, maxLength: 8 }),
        convertedAtSetUp,
        async (random, converted) => {
          const steps = [{ items: FUNDING, keyed: true, postDrafts: true }, ...random];
          const ctx = await createTestContext();
          disposers.push(() => ctx.dispose());
          const world = await setUpWorld(ctx, `batch-${++run}`, { creditShards: converted });
          const { model } = world;
          const problems: string[] = [];
          let committed = 0;
          for (const step of steps) {
            const requests = step.items.map((command) => model.request(command) as CreateRequest);
            const expected = expectBatch(model, requests);
            const key = step.keyed ? model.freshKey() : null;
            const outcome = await send(world, ctx, requests, key);
            const label = JSON.stringify(requests.map((request) => [request.fn, request.body]));
            tally(
              outcome.ok
                ? `ok (${requests.length <= 4 ? "1-4" : "5-12"} items)`
                : `${outcome.code}${outcome.index === null ? "" : " at an index"}`,
            );
            if (expected.ok !== outcome.ok) {
              problems.push(`${label}: got ${JSON.stringify(outcome)}, oracle ${JSON.stringify(expected)}`);
              break;
            }
            if (
              !expected.ok &&
              !outcome.ok &&
              (outcome.status !== expected.status || outcome.code !== expected.code || outcome.index !== expected.index)
            ) {
              problems.push(`${label}: got ${JSON.stringify(outcome)}, oracle ${JSON.stringify(expected)}`);
            }
            if (outcome.ok) {
              committed += 1;
              const data = (JSON.parse(outcome.body) as { data: unknown[] }).data;
              if (data.length !== requests.length)
                problems.push(`${label}: ${data.length} results for ${requests.length} items`);
              requests.forEach((request, index) => {
                const single = {
                  ok: true as const,
                  body: JSON.stringify({ message: "Transaction created", data: data[index] }),
                  replayed: false,
                };
                problems.push(...model.checkReply(request, single));
                model.record(request, single);
              });
            }
            if (key) {
              const again = await send(world, ctx, requests, key);
              const same = outcome.ok
                ? again.ok && again.body === outcome.body
                : !again.ok && !outcome.ok && again.code === outcome.code && again.index === outcome.index;
              // Only business refusals are recorded; a validation error replays nothing (and refuses again).
              const replayWanted = outcome.ok || RECORDED_REFUSALS.has(outcome.code);
              if (!same || again.replayed !== replayWanted)
                problems.push(
                  `${label}: keyed retry answered ${JSON.stringify(again)} after ${JSON.stringify(outcome)}`,
                );
            }
            // Now and then post every draft journal (the batches' and the openings) through the single path.
            if (step.postDrafts) problems.push(...(await postDrafts(ctx, model)));
          }
          problems.push(...(await checkInvariants(ctx, world, 4)));
          expect(problems, `committed ${committed} of ${steps.length} batches`).toEqual([]);
        },
      ),
      { numRuns: runs, endOnFailure: true },
    );
  }, 300_000);

  it("concurrent batches from separate instances, duplicates under one key among them, never overdraw and keep every invariant", async () => {
    let run = 0;
    const round = fc.record({
      batches: fc.array(fc.array(cleanItem, { minLength: 1, maxLength: 10 }), { minLength: 2, maxLength: 4 }),
      duplicated: fc.nat({ max: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(round, { minLength: 2, maxLength: 4 }), convertedAtSetUp, async (rounds, converted) => {
        const ctx = await createTestContext();
        disposers.push(() => ctx.dispose());
        // Separate instances: their own clients, account and head caches and chain queues (as Lambda runs them).
        const peers = [createContext(ctx.config), createContext(ctx.config)];
        disposers.push(async () => {
          for (const peer of peers) peer.db.raw.destroy();
        });
        const instances = [ctx, ...peers];
        const world = await setUpWorld(ctx, `batch-race-${++run}`, { creditShards: converted });
        const { model } = world;
        const problems: string[] = [];
        const funding = FUNDING.map((command) => model.request(command) as CreateRequest);
        const funded = await send(world, ctx, funding, null);
        if (!funded.ok) throw new Error(`funding failed: ${JSON.stringify(funded)}`);
        const fundedData = (JSON.parse(funded.body) as { data: unknown[] }).data;
        for (const [index, request] of funding.entries())
          model.record(request, { ok: true, body: JSON.stringify({ data: fundedData[index] }), replayed: false });
        problems.push(...(await postDrafts(ctx, model)));
        for (const { batches, duplicated } of rounds) {
          const planned = batches.map((items) => ({
            requests: items.map((command) => model.request(command) as CreateRequest),
            key: model.freshKey(),
          }));
          // One batch is sent twice more under its key, from other instances, at the same moment.
          const copies = planned[duplicated % planned.length]!;
          const sends = [...planned, copies, copies];
          const outcomes = await Promise.all(
            sends.map((one, index) => send(world, instances[index % instances.length]!, one.requests, one.key)),
          );
          for (const [index, outcome] of outcomes.entries()) {
            tally(outcome.ok ? (outcome.replayed ? "replayed (race)" : "ok (race)") : `${outcome.code} (race)`);
            if (!outcome.ok && outcome.code !== "insufficient_funds" && outcome.code !== "idempotency_in_progress")
              problems.push(`race: unexpected ${JSON.stringify(outcome)}`);
            if (!outcome.ok && outcome.code === "insufficient_funds" && outcome.index === null)
              problems.push(`race: a refusal without its index`);
            if (index >= planned.length) continue;
            if (outcome.ok && !outcome.replayed) {
              const data = (JSON.parse(outcome.body) as { data: unknown[] }).data;
              planned[index]!.requests.forEach((request, at) => {
                const single = {
                  ok: true as const,
                  body: JSON.stringify({ message: "Transaction created", data: data[at] }),
                  replayed: false,
                };
                problems.push(...model.checkReply(request, single));
                model.record(request, single);
              });
            }
          }
          // The key's copies: at most one execution; every answer that is not "in progress" is the one decision.
          const keyed = outcomes.filter((_, index) => sends[index] === copies);
          const fresh = keyed.filter((outcome) => outcome.ok && !outcome.replayed);
          if (fresh.length > 1) problems.push(`race: one key executed ${fresh.length} times`);
          const decided = keyed.filter((outcome) => outcome.ok || outcome.code !== "idempotency_in_progress");
          const sameDecision = (a: BatchOutcome, b: BatchOutcome) =>
            a.ok && b.ok ? a.body === b.body : !a.ok && !b.ok && a.code === b.code && a.index === b.index;
          if (decided.some((outcome) => !sameDecision(outcome, decided[0]!)))
            problems.push(`race: copies of one key answered differently: ${JSON.stringify(decided)}`);
          if (fresh.length === 1 && outcomes[planned.indexOf(copies)] !== fresh[0]) {
            // The fresh execution was one of the extra copies: the oracle still has to learn its journals.
            const data = (JSON.parse((fresh[0] as { body: string }).body) as { data: unknown[] }).data;
            for (const [at, request] of copies.requests.entries())
              model.record(request, {
                ok: true,
                body: JSON.stringify({ message: "Transaction created", data: data[at] }),
                replayed: false,
              });
          }
          problems.push(...(await postDrafts(ctx, model)));
        }
        problems.push(...(await checkInvariants(ctx, world, 4)));
        expect(problems).toEqual([]);
      }),
      { numRuns: runs, endOnFailure: true },
    );
  }, 300_000);
});
