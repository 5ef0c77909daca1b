/**
 * Ledger benchmark:
 * `npm run bench:ledger -- --workers 16 --accounts 100 --owners 10 --duration 20 [--hot] [--no-instances] [--replica-lag 50]`
 *
 * Starts its own in-memory DynamoDB Local (stopped on exit, error and Ctrl-C), creates a table
 * and the system accounts, opens N accounts over O owners (--owners, default 10) funded by
 * posted deposits, then
 * measures, each phase for --duration seconds with W concurrent workers:
 *   1. uniform: transfers between random account pairs through service.transfer (with keys);
 *   2. raw:     bare TransactWriteItems of 3 conditional Puts of the same items' size to random
 *               new keys: no reads, no application code, the ceiling for 3 items per write;
 *   3. deposits: every write touches sys-funding-usd (sharded) -> hot / uniform ratio;
 *   4. with --hot: every transfer leaves one customer account (one chain) -> hot / uniform;
 *   then batches of 10 and of 50 transfers within one owner (POST .../transactions/batch's
 *      core, postBatch): postings/s, items per posting;
 *   5-7. with each worker its own context (caches, queues, client), like one Lambda instance per
 *      concurrent request (--no-instances skips them): uniform transfers, transfers that all
 *      leave one hot customer account, and deposits (hot system account);
 *   8-9. with separate instances too: transfers from N accounts of the receiver's owner (its
 *      own N, so the payers are as many as in the uniform phases) that all credit one customer
 *      account converted to credit shards first (a hot receiver), and
 *      batches of 50 transfers that all leave one hot account (a hot payer's answer).
 * Prints throughput, p50/p99 latency, DynamoDB calls, head reads and optimistic-concurrency
 * retries per operation, items per committed posting, the request units DynamoDB would bill per
 * posting (ledger-capacity.ts), and where the committed writes land: the busiest partition key of
 * the table and of each index, as a share of its writes (see ledger-accounting.ts). Only
 * 127.0.0.1 is contacted.
 */
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { GetCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { loadConfig } from "@fintech/core/shared/config";
import { createContext, type CoreContext } from "@fintech/core/shared/context";
import { isAppError } from "@fintech/core/shared/errors";
import { ensureSystemAccounts, getAccounts, systemAccountId } from "@fintech/core/ledger/accounts";
import { latestVersion } from "@fintech/core/ledger/balances";
import { journalKey, balanceVersionKey } from "@fintech/core/ledger/keys";
import { createAccount, deposit, transfer, type WriteResult } from "@fintech/core/ledger/service";
import { decideDeposit } from "@fintech/core/approvals/deposits";
import { postBatch } from "@fintech/core/ledger/batches";
import { enableCreditShards } from "@fintech/core/ledger/credit-shards";
import { allowMoneyForTests } from "@fintech/testing/limits";
import { ensureTable } from "../local/bootstrap";
import "../local/cli"; // the local scripts' set-up: silences the SDK's Node 22 notice
import { releaseStore, stopOnceOnExit } from "./teardown";
import { hotspots, instrument as instrumentStore, newCounters, shortKey, type Counters } from "./ledger-accounting";
import { totalUnits } from "./ledger-capacity";
import { startDynamoDbLocal, type DynamoDbLocal } from "../local/dynamodb-local";
import { localKeyEnv } from "../local/keys";

interface Options {
  workers: number;
  accounts: number;
  /** The accounts belong to this many owners (round robin); transfers stay within an owner. */
  owners: number;
  duration: number;
  warmup: number;
  hot: boolean;
  /** Also measure uniform transfers with one process-like instance per worker (Lambda-like). */
  instances: boolean;
  /**
   * A replica lag to simulate, in ms: an eventually consistent head read answers the version
   * before the head if the head was committed less than this long ago, as a lagging replica of
   * the cloud could (DynamoDB Local never does). What stale head reads would cost.
   */
  replicaLagMs: number;
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      workers: { type: "string", default: "16" },
      accounts: { type: "string", default: "100" },
      owners: { type: "string", default: "10" },
      duration: { type: "string", default: "20" },
      warmup: { type: "string", default: "3" },
      hot: { type: "boolean", default: false },
      "no-instances": { type: "boolean", default: false },
      "replica-lag": { type: "string", default: "0" },
    },
    strict: true,
  });
  const int = (name: string, text: string, min: number) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be an integer >= ${min}`);
    return value;
  };
  const accounts = int("accounts", values.accounts, 2);
  const owners = int("owners", values.owners, 1);
  if (accounts % owners !== 0 || accounts / owners < 2)
    throw new Error("--accounts must be a multiple of --owners, at least 2 accounts per owner");
  return {
    workers: int("workers", values.workers, 1),
    accounts,
    owners,
    duration: int("duration", values.duration, 1),
    warmup: int("warmup", values.warmup, 0),
    hot: values.hot,
    instances: !values["no-instances"],
    replicaLagMs: int("replica-lag", values["replica-lag"], 0),
  };
}

/**
 * Answers a context's eventually consistent head reads (Query, Limit 1, newest first) with the
 * version before the head when the head is younger than `lagMs`.
 */
function lagEventualReads(ctx: CoreContext, lagMs: number): void {
  if (lagMs === 0) return;
  ctx.db.raw.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, unknown>;
      const eventualHead =
        context.commandName === "QueryCommand" &&
        input.ConsistentRead !== true &&
        input.IndexName === undefined &&
        input.Limit === 1 &&
        input.ScanIndexForward === false;
      if (!eventualHead) return next(args);
      const result = await next({ ...args, input: { ...input, Limit: 2 } });
      const output = result.output as { Items?: { committed_at?: string }[] };
      const [head, previous] = output.Items ?? [];
      const young = head?.committed_at !== undefined && Date.now() - Date.parse(head.committed_at) < lagMs;
      output.Items = young && previous ? [previous] : head ? [head] : [];
      return result;
    },
    { step: "initialize", name: "benchStaleHeads" },
  );
}

/* ------------------------------------------------------------ request accounting */

let counters = newCounters();
const instrument = (ctx: CoreContext) => instrumentStore(ctx, () => counters);

/* ------------------------------------------------------------ phases */

interface PhaseResult {
  name: string;
  ops: number;
  errors: Map<string, number>;
  seconds: number;
  latencies: number[];
  counters: Counters;
  /** Postings per operation: 1, or a batch's size. */
  postings: number;
}

/** The accounts one batch draws from: 50 journals + 25 chains stay within a transaction's 100 items. */
const BATCH_ACCOUNTS = 25;

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** W workers call `op` back to back until the deadline; each call's latency is recorded. */
async function runPhase(
  name: string,
  workers: number,
  seconds: number,
  op: (worker: number, seq: number) => Promise<void>,
  postings = 1,
): Promise<PhaseResult> {
  counters = newCounters();
  const latencies: number[] = [];
  const errors = new Map<string, number>();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let ops = 0;
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (let seq = 0; performance.now() < deadline; seq++) {
        const begin = performance.now();
        try {
          await op(worker, seq);
          ops += 1;
          latencies.push(performance.now() - begin);
        } catch (error) {
          const label = isAppError(error) ? `${error.status} ${error.code}` : (error as Error).name || "Error";
          errors.set(label, (errors.get(label) ?? 0) + 1);
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { name, ops, errors, seconds: elapsed, latencies, counters, postings };
}

const warm = async (seconds: number, workers: number, op: (worker: number, seq: number) => Promise<void>) => {
  if (seconds > 0) await runPhase("warm-up", workers, seconds, op);
};

/* ------------------------------------------------------------ main */

async function main(): Promise<void> {
  const opts = options();
  const tableName = `bench-ledger-${randomUUID().slice(0, 8)}`;
  let dynamo: DynamoDbLocal | null = null;
  let ctx: CoreContext | null = null;
  const peers: CoreContext[] = [];
  const stop = stopOnceOnExit(() => releaseStore(tableName, ctx ? [ctx, ...peers] : [], dynamo));

  try {
    console.log(
      `ledger benchmark: ${opts.workers} workers, ${opts.accounts} accounts, ${opts.duration} s per phase (warm-up ${opts.warmup} s)${opts.hot ? ", --hot" : ""}`,
    );
    dynamo = await startDynamoDbLocal();
    console.log(`DynamoDB Local (in memory) on ${dynamo.endpoint}`);
    const config = loadConfig({
      STAGE: "bench",
      TABLE_NAME: tableName,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      S3_ENDPOINT: "http://127.0.0.1:9",
      ...localKeyEnv(null),
      LOG_LEVEL: "silent",
      ALLOW_TEST_BALANCE: "true",
    });
    ctx = createContext(config);
    const core = ctx;
    await ensureTable(core.db);
    await ensureSystemAccounts(core);
    instrument(core);

    // N accounts over the owners (account i belongs to owner i mod O), each funded by a posted
    // deposit (16 at a time). Several owners, so that per-owner keys (an owner's journal list and
    // feed) show as what they are in the partition accounting, not as the whole ledger's.
    const ownerOf = (index: number) => `bench-owner-${index % opts.owners}`;
    const BENCH_APPROVER = { id: "bench-approver", email: "bench-approver@example.com", name: "Benchmark approver" };
    // Verified owners under limits no benchmark reaches: the limits gate still runs on every deposit.
    // The hot receiver's owner has N accounts of its own, so that its payers are as many and as
    // little contended as the uniform phases' and the phase differs from them only in its receiver.
    const RECEIVER_OWNER = "bench-receiver-owner";
    await allowMoneyForTests(
      core,
      RECEIVER_OWNER,
      ...Array.from({ length: opts.owners }, (_, index) => ownerOf(index)),
    );
    const setupStarted = performance.now();
    const accountIds: string[] = new Array(opts.accounts);
    const fund = async (index: number, name: string, owner = ownerOf(index)) => {
      const created = await createAccount(core, owner, { name, currency: "USD", type: "bank" }, null);
      const funded = await deposit(
        core,
        owner,
        { account_id: created.account.id, amount: "1000000.00" },
        `fund-${index}`,
      );
      const journalId = (JSON.parse(funded.body) as { data: { id: string } }).data.id;
      // Above the four-eyes threshold: approved by a second person, as the product requires.
      await decideDeposit(core, journalId, BENCH_APPROVER, { decision: "approve", reason: "Benchmark funding" });
      return created.account.id;
    };
    for (let start = 0; start < opts.accounts; start += 16) {
      await Promise.all(
        Array.from({ length: Math.min(16, opts.accounts - start) }, async (_, offset) => {
          accountIds[start + offset] = await fund(start + offset, `Bench ${start + offset}`);
        }),
      );
    }
    // The hot accounts belong to owner 0 (indexes O * N and O * (N + 1) are multiples of O). The
    // hot payer is funded twice: its phases move more money out of it than any other account.
    const hotAccount = await fund(opts.accounts * opts.owners, "Hot treasury");
    const refund = await deposit(core, ownerOf(0), { account_id: hotAccount, amount: "1000000.00" }, "fund-hot-again");
    await decideDeposit(core, (JSON.parse(refund.body) as { data: { id: string } }).data.id, BENCH_APPROVER, {
      decision: "approve",
      reason: "Benchmark funding",
    });
    const hotReceiver = await fund(opts.accounts, "Hot receiver", RECEIVER_OWNER);
    // One owner's deposits reserve its limit totals one at a time: a few at once, each retried
    // while another holds them (503 service_unavailable), as a client would.
    const receiverPayers: string[] = new Array(opts.instances ? opts.accounts : 0);
    const fundPayer = async (index: number): Promise<string> => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await fund(index, `Payer ${index}`, RECEIVER_OWNER);
        } catch (error) {
          if (!isAppError(error) || error.status !== 503 || attempt >= 20) throw error;
        }
      }
    };
    for (let start = 0; start < receiverPayers.length; start += 4) {
      await Promise.all(
        Array.from({ length: Math.min(4, receiverPayers.length - start) }, async (_, offset) => {
          receiverPayers[start + offset] = await fundPayer(start + offset);
        }),
      );
    }
    const ownAccounts = accountIds.filter((_, index) => index % opts.owners === 0);
    console.log(
      `setup: ${opts.accounts + 2 + receiverPayers.length} funded accounts in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`,
    );

    /** Two different accounts of one owner, and that owner. */
    const randomPair = () => {
      const from = Math.floor(Math.random() * accountIds.length);
      const peersOfOwner = accountIds.length / opts.owners;
      const step = 1 + Math.floor(Math.random() * (peersOfOwner - 1));
      const to = (from + step * opts.owners) % accountIds.length;
      return [accountIds[from]!, accountIds[to]!, ownerOf(from)] as const;
    };
    const amount = () => ((1 + Math.floor(Math.random() * 999)) / 100).toFixed(2);
    let run = 0;
    // Each worker writes through an instance: the one shared context (one Node process serving
    // concurrent requests), or its own context with its own caches and queues (like one Lambda
    // instance per concurrent request, where nothing of this process's state helps).
    for (let index = 1; opts.instances && index < opts.workers; index++) peers.push(createContext(config));
    for (const peer of peers) instrument(peer);
    for (const instance of [core, ...peers]) lagEventualReads(instance, opts.replicaLagMs);
    const shared = () => core;
    const ownInstance = (worker: number) => (worker === 0 ? core : peers[worker - 1]!);
    const uniformTransfer =
      (phase: string, via: (worker: number) => CoreContext) => async (worker: number, seq: number) => {
        const [from, to, owner] = randomPair();
        const result: WriteResult = await transfer(
          via(worker),
          owner,
          { from_account_id: from, to_account_id: to, amount: amount() },
          `${phase}-${run}-${worker}-${seq}`,
        );
        if (result.replayed) throw new Error("unexpected replay");
      };
    const hotTransfer =
      (phase: string, via: (worker: number) => CoreContext) => async (worker: number, seq: number) => {
        const to = ownAccounts[Math.floor(Math.random() * ownAccounts.length)]!;
        await transfer(
          via(worker),
          ownerOf(0),
          { from_account_id: hotAccount, to_account_id: to, amount: amount() },
          `${phase}-${run}-${worker}-${seq}`,
        );
      };
    /** A transfer from a random one of the receiver owner's N accounts to the one hot receiver. */
    const toHotReceiver =
      (phase: string, via: (worker: number) => CoreContext) => async (worker: number, seq: number) => {
        const from = receiverPayers[Math.floor(Math.random() * receiverPayers.length)]!;
        await transfer(
          via(worker),
          RECEIVER_OWNER,
          { from_account_id: from, to_account_id: hotReceiver, amount: amount() },
          `${phase}-${run}-${worker}-${seq}`,
        );
      };
    /**
     * A batch of `size` transfers out of the one hot payer, to a slice of the owner's accounts
     * (one version of the hot chain per batch; the slice keeps the batch within 100 items).
     */
    const hotPayerBatch =
      (size: number, via: (worker: number) => CoreContext) => async (worker: number, seq: number) => {
        // Each worker pays its own slice of the owner's accounts, so that the hot payer's chain is
        // the only one the batches contend on.
        const slice = Math.max(1, Math.min(BATCH_ACCOUNTS - 1, Math.floor(ownAccounts.length / opts.workers)));
        const window = Array.from(
          { length: slice },
          (_, offset) => ownAccounts[(worker * slice + offset) % ownAccounts.length]!,
        );
        const items = Array.from({ length: size }, () => ({
          type: "transfer" as const,
          from_account_id: hotAccount,
          to_account_id: window[Math.floor(Math.random() * window.length)]!,
          amount: amount(),
        }));
        await postBatch(via(worker), ownerOf(0), { items }, `hot-batch${size}-${run}-${worker}-${seq}`);
      };
    /** One batch of `size` transfers between random accounts of one owner, all or nothing. */
    const batchOf = (size: number) => async (worker: number, seq: number) => {
      const owner = Math.floor(Math.random() * opts.owners);
      const all = accountIds.filter((_, index) => index % opts.owners === owner);
      // A batch commits in one transaction of at most 100 items (journals + chains), so it draws
      // its accounts from a window of at most 25 of the owner's: a batch of 50 spread over more
      // accounts could need more items than that and be refused (batch_too_large).
      const first = Math.floor(Math.random() * all.length);
      const mine =
        all.length <= BATCH_ACCOUNTS
          ? all
          : Array.from({ length: BATCH_ACCOUNTS }, (_, offset) => all[(first + offset) % all.length]!);
      const items = Array.from({ length: size }, () => {
        const from = Math.floor(Math.random() * mine.length);
        const to = (from + 1 + Math.floor(Math.random() * (mine.length - 1))) % mine.length;
        return { type: "transfer" as const, from_account_id: mine[from]!, to_account_id: mine[to]!, amount: amount() };
      });
      await postBatch(core, ownerOf(owner), { items }, `batch${size}-${run}-${worker}-${seq}`);
    };
    const hotDeposit = (phase: string, via: (worker: number) => CoreContext) => async (worker: number, seq: number) => {
      const index = Math.floor(Math.random() * accountIds.length);
      await deposit(
        via(worker),
        ownerOf(index),
        { account_id: accountIds[index]!, amount: amount() },
        `${phase}-${run}-${worker}-${seq}`,
      );
    };

    // The raw ceiling writes items of the very size the engine writes: copies of a real journal
    // and two real versions, under fresh random keys.
    const sampleJournal = (
      JSON.parse(
        (
          await transfer(
            core,
            ownerOf(0),
            { from_account_id: accountIds[0]!, to_account_id: accountIds[opts.owners]!, amount: "1.00" },
            "sample",
          )
        ).body,
      ) as { data: { id: string } }
    ).data.id;
    const journalItem = (
      await core.db.doc.send(new GetCommand({ TableName: core.db.table, Key: journalKey(sampleJournal) }))
    ).Item!;
    const versionItems = await Promise.all(
      [accountIds[0]!, accountIds[opts.owners]!].map(async (chain) => {
        const head = await latestVersion(core, chain);
        return (
          await core.db.doc.send(
            new GetCommand({ TableName: core.db.table, Key: balanceVersionKey(chain, head.version) }),
          )
        ).Item!;
      }),
    );
    const itemBytes = JSON.stringify([journalItem, ...versionItems]).length;
    const rawWrite = async () => {
      const id = randomUUID();
      await core.db.doc.send(
        new TransactWriteCommand({
          TransactItems: [journalItem, ...versionItems].map((item, index) => ({
            Put: {
              TableName: core.db.table,
              Item: {
                ...item,
                pk: `RAW#${id}#${index}`,
                sk: index === 0 ? "TX" : "BAL#000000000001",
                gsi1pk: `RAW#${id}#${index}`,
                ...(index === 0 ? {} : { gsi2pk: `RAWF#${id}` }),
              },
              ConditionExpression: "attribute_not_exists(pk)",
            },
          })),
        }),
      );
    };

    const results: PhaseResult[] = [];
    run += 1;
    await warm(opts.warmup, opts.workers, uniformTransfer("warm", shared));
    await warm(opts.warmup, opts.workers, rawWrite);
    run += 1;
    results.push(await runPhase(PHASES.uniform, opts.workers, opts.duration, uniformTransfer("uniform", shared)));
    results.push(await runPhase(PHASES.raw, opts.workers, opts.duration, rawWrite));
    results.push(await runPhase(PHASES.deposits, opts.workers, opts.duration, hotDeposit("deposit", shared)));
    if (opts.hot) results.push(await runPhase(PHASES.hot, opts.workers, opts.duration, hotTransfer("hot", shared)));
    for (const size of [10, 50])
      results.push(await runPhase(PHASES.batches(size), opts.workers, opts.duration, batchOf(size), size));
    if (opts.instances && opts.workers > 1) {
      // A Lambda instance is reused between requests, so its account cache (30 s) is warm: each
      // one is primed before each of these phases.
      const known = [...accountIds, ...receiverPayers, hotAccount, hotReceiver, systemAccountId("funding", "USD")];
      const primed = async () => {
        for (let start = 0; start < known.length; start += 100)
          await Promise.all(peers.map((peer) => getAccounts(peer, known.slice(start, start + 100))));
      };
      await primed();
      await warm(opts.warmup, opts.workers, uniformTransfer("warm-instances", ownInstance));
      await primed();
      results.push(
        await runPhase(
          PHASES.instances(opts.workers),
          opts.workers,
          opts.duration,
          uniformTransfer("instances", ownInstance),
        ),
      );
      await primed();
      results.push(
        await runPhase(
          PHASES.hotInstances(opts.workers),
          opts.workers,
          opts.duration,
          hotTransfer("hot-instances", ownInstance),
        ),
      );
      await primed();
      results.push(
        await runPhase(
          PHASES.depositInstances(opts.workers),
          opts.workers,
          opts.duration,
          hotDeposit("deposit-instances", ownInstance),
        ),
      );
      // Converted before the priming, so that every instance's cached account knows its shards.
      await enableCreditShards(core, hotReceiver, null, "Benchmark: a hot receiver");
      await primed();
      results.push(
        await runPhase(
          PHASES.hotReceiver(opts.workers),
          opts.workers,
          opts.duration,
          toHotReceiver("hot-receiver", ownInstance),
        ),
      );
      await primed();
      results.push(
        await runPhase(
          PHASES.hotPayerBatches(HOT_PAYER_BATCH, opts.workers),
          opts.workers,
          opts.duration,
          hotPayerBatch(HOT_PAYER_BATCH, ownInstance),
          HOT_PAYER_BATCH,
        ),
      );
    }

    report(results, opts, itemBytes);
  } finally {
    await stop();
  }
}

/** Phase names; the ratios below find phases by them. */
const PHASES = {
  uniform: "uniform transfers",
  raw: "raw TransactWriteItems (3 Puts)",
  deposits: "deposits (hot sys-funding-usd)",
  hot: "transfers from one hot account",
  batches: (size: number) => `batches of ${size} transfers`,
  instances: (n: number) => `uniform transfers, ${n} instances`,
  hotInstances: (n: number) => `one hot account, ${n} instances`,
  depositInstances: (n: number) => `deposits (hot system), ${n} instances`,
  hotReceiver: (n: number) => `one hot receiver (credit shards), ${n} instances`,
  hotPayerBatches: (size: number, n: number) => `hot payer, batches of ${size}, ${n} instances`,
};

/** The hot payer's batch size: as many postings as one version of its chain can carry in the API's batches. */
const HOT_PAYER_BATCH = 50;

function report(results: PhaseResult[], opts: Options, itemBytes: number): void {
  const perOp = (result: PhaseResult, n: number, digits = 2) => (result.ops ? (n / result.ops).toFixed(digits) : "-");
  /** Request units per committed posting, by kind. */
  const unitsPer = (result: PhaseResult, n: number) =>
    result.ops ? (n / (result.ops * result.postings)).toFixed(2) : "-";
  const rows = results.map((result) => {
    const calls = [...result.counters.calls.values()].reduce((sum, n) => sum + n, 0);
    const busiest = hotspots(result.counters.landings, 1);
    const units = result.counters.units;
    return {
      phase: result.name,
      "ops/s": (result.ops / result.seconds).toFixed(1),
      "postings/s": ((result.ops * result.postings) / result.seconds).toFixed(1),
      "p50 ms": percentile(result.latencies, 50).toFixed(1),
      "p99 ms": percentile(result.latencies, 99).toFixed(1),
      "calls/op": perOp(result, calls),
      "heads/op": perOp(result, result.counters.headReads),
      "retries/op": perOp(result, result.counters.cancelled, 3),
      // Per committed posting: cancelled attempts are in retries/op.
      "items/posting": result.counters.transactions
        ? (result.counters.transactItems / result.counters.transactions / result.postings).toFixed(2)
        : "-",
      "busiest key share (table / gsi1 / gsi2)": busiest
        .map((spot) => `${((spot.top[0]?.share ?? 0) * 100).toFixed(1)}%`)
        .join(" / "),
      "RU/posting read / write / index / cancelled = total": `${unitsPer(result, units.read)} / ${unitsPer(result, units.write)} / ${unitsPer(result, units.index)} / ${unitsPer(result, units.cancelled)} = ${unitsPer(result, totalUnits(units))}`,
      errors: [...result.errors].map(([label, n]) => `${label} x${n}`).join(", ") || "0",
    };
  });
  console.log("");
  console.table(rows);
  for (const result of results) {
    const calls = [...result.counters.calls].map(([name, n]) => `${name} ${perOp(result, n)}`).join(", ");
    const reasons = [...result.counters.cancelReasons].map(([label, n]) => `${label} x${n}`).join(", ") || "none";
    console.log(
      `  ${result.name}: calls per op: ${calls}; cancelled transactions: ${result.counters.cancelled} (${reasons})`,
    );
    for (const spot of hotspots(result.counters.landings, 2)) {
      const keys = spot.top
        .map((top) => `${shortKey(top.key)} ${(top.share * 100).toFixed(1)}% (${perOp(result, top.writes)}/op)`)
        .join(", ");
      console.log(`      ${spot.partition.padEnd(5)} ${perOp(result, spot.writes)} writes/op; busiest: ${keys}`);
    }
  }
  const rate = (name: string) => {
    const found = results.find((result) => result.name === name);
    return found ? found.ops / found.seconds : Number.NaN;
  };
  /** Request units billed per committed posting of a phase, all kinds summed. */
  const unitsPerPosting = (name: string) => {
    const found = results.find((result) => result.name === name);
    return found?.ops ? totalUnits(found.counters.units) / (found.ops * found.postings) : Number.NaN;
  };
  const ratio = (a: string, b: string) => (rate(a) / rate(b)).toFixed(2);
  const uniform = rate(PHASES.uniform);
  console.log("");
  console.log(
    `items written per transfer: ${(results[0]!.counters.transactItems / Math.max(1, results[0]!.counters.transactions)).toFixed(2)} (journal + 2 balance versions; raw items ~${Math.round(itemBytes / 3)} B JSON each)`,
  );
  console.log(`app/raw            = ${(uniform / rate(PHASES.raw)).toFixed(2)}   (one process)`);
  console.log(`hot deposits/uniform = ${(rate(PHASES.deposits) / uniform).toFixed(2)}   (one process)`);
  for (const size of [10, 50]) {
    console.log(
      `batches of ${size}: ${(rate(PHASES.batches(size)) * size).toFixed(0)} postings/s = ${((rate(PHASES.batches(size)) * size) / uniform).toFixed(2)} x uniform transfers   (one process; one TransactWriteItems per batch)`,
    );
  }
  if (opts.hot)
    console.log(
      `hot transfers/uniform = ${ratio(PHASES.hot, PHASES.uniform)}   (one process; one customer chain: every transfer waits for the previous one)`,
    );
  if (opts.instances && opts.workers > 1) {
    const n = opts.workers;
    console.log(
      `app/raw, ${n} instances            = ${ratio(PHASES.instances(n), PHASES.raw)}   (target >= 0.80; no shared caches or queues, as Lambda runs it)`,
    );
    console.log(
      `hot account/uniform, ${n} instances = ${ratio(PHASES.hotInstances(n), PHASES.instances(n))}   (retired target 0.50: single transfers out of one chain are serial; see hot payer batches)`,
    );
    console.log(
      `hot system/uniform, ${n} instances  = ${ratio(PHASES.depositInstances(n), PHASES.instances(n))}   (target >= 0.90)`,
    );
    console.log("");
    console.log(
      `instances/raw (${n} instances, ${opts.accounts} accounts) = ${ratio(PHASES.instances(n), PHASES.raw)}   (target >= 0.80)`,
    );
    console.log(
      `hot receiver/uniform (${n} instances) = ${ratio(PHASES.hotReceiver(n), PHASES.instances(n))}   (target >= 0.90)`,
    );
    console.log(
      `capacity units per transfer / raw = ${(unitsPerPosting(PHASES.instances(n)) / unitsPerPosting(PHASES.raw)).toFixed(2)}   (target <= 1.25; ${unitsPerPosting(PHASES.instances(n)).toFixed(2)} RU per uniform transfer with ${n} instances, ${unitsPerPosting(PHASES.raw).toFixed(2)} per raw transaction)`,
    );
    console.log(
      `hot payer batches/uniform singles (${n} instances) = ${((rate(PHASES.hotPayerBatches(HOT_PAYER_BATCH, n)) * HOT_PAYER_BATCH) / rate(PHASES.instances(n))).toFixed(2)}   (target >= 1.00; postings/s out of one account in batches of ${HOT_PAYER_BATCH})`,
    );
  }
  console.log(
    "RU/posting: request units DynamoDB would bill per committed posting (a transfer, or one posting of a batch): " +
      "read (1 per 4 KB consistent, 0.5 eventual), table writes (2 per KB per item in a transaction), index writes " +
      "(1 per KB per item per index), cancelled (each cancelled transaction's prepare write, 1 per KB per item); total = plain sum.",
  );
  console.log(
    "busiest key share: of the item writes committed to the table / each index in the phase. The cloud gives a partition about 1,000 WCU/s; " +
      "an item of 1-2 KB costs 4 WCU per transactional write in the table and 2 WCU per index write, so a key with w writes/op caps the phase near 250 / w (table) or 500 / w (index) ops/s.",
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
