/**
 * Ledger benchmark: `npm run bench:ledger -- --workers 16 --accounts 100 --duration 20 [--hot] [--no-instances]`
 *
 * Starts its own in-memory DynamoDB Local (stopped on exit, error and Ctrl-C), creates a table
 * and the system accounts, opens N accounts for one owner funded by posted deposits, then
 * measures, each phase for --duration seconds with W concurrent workers:
 *   1. uniform: transfers between random account pairs through service.transfer (with keys);
 *   2. raw:     bare TransactWriteItems of 3 conditional Puts of the same items' size to random
 *               new keys: no reads, no application code, the ceiling for 3 items per write;
 *   3. deposits: every write touches sys-funding-usd (8 shards) -> hot / uniform ratio;
 *   4. with --hot: every transfer leaves one customer account (one chain) -> hot / uniform;
 *   5. uniform transfers again, each worker with its own context (caches, queues, client), like
 *      one Lambda instance per concurrent request (--no-instances skips it).
 * Prints throughput, p50/p99 latency, round trips and optimistic-concurrency retries per write,
 * and items per write, as a table. Only 127.0.0.1 is contacted.
 */
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { GetCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { loadConfig } from "@fintech/core/shared/config";
import { createContext, type CoreContext } from "@fintech/core/shared/context";
import { isAppError } from "@fintech/core/shared/errors";
import { ensureSystemAccounts } from "@fintech/core/ledger/accounts";
import { latestVersion } from "@fintech/core/ledger/balances";
import { journalKey, balanceVersionKey } from "@fintech/core/ledger/keys";
import { createAccount, deposit, setJournalStatus, transfer, type WriteResult } from "@fintech/core/ledger/service";
import { ensureTable } from "../local/bootstrap";
import "../local/cli"; // the local scripts' set-up: silences the SDK's Node 22 notice
import { releaseStore, stopOnceOnExit } from "./teardown";
import { startDynamoDbLocal, type DynamoDbLocal } from "../local/dynamodb-local";

interface Options {
  workers: number;
  accounts: number;
  duration: number;
  warmup: number;
  hot: boolean;
  /** Also measure uniform transfers with one process-like instance per worker (Lambda-like). */
  instances: boolean;
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      workers: { type: "string", default: "16" },
      accounts: { type: "string", default: "100" },
      duration: { type: "string", default: "20" },
      warmup: { type: "string", default: "3" },
      hot: { type: "boolean", default: false },
      "no-instances": { type: "boolean", default: false },
    },
    strict: true,
  });
  const int = (name: string, text: string, min: number) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be an integer >= ${min}`);
    return value;
  };
  return {
    workers: int("workers", values.workers, 1),
    accounts: int("accounts", values.accounts, 2),
    duration: int("duration", values.duration, 1),
    warmup: int("warmup", values.warmup, 0),
    hot: values.hot,
    instances: !values["no-instances"],
  };
}

/* ------------------------------------------------------------ request accounting */

/** Every DynamoDB call the SDK sends, by operation, and how transactions ended. */
interface Counters {
  calls: Map<string, number>;
  transactions: number;
  transactItems: number;
  cancelled: number;
  cancelReasons: Map<string, number>;
}
const newCounters = (): Counters => ({ calls: new Map(), transactions: 0, transactItems: 0, cancelled: 0, cancelReasons: new Map() });
let counters = newCounters();

function instrument(ctx: CoreContext): void {
  ctx.db.raw.middlewareStack.add(
    (next, context) => async (args) => {
      const name = String(context.commandName ?? "unknown").replace(/Command$/, "");
      counters.calls.set(name, (counters.calls.get(name) ?? 0) + 1);
      try {
        const result = await next(args);
        if (name === "TransactWriteItems") {
          counters.transactions += 1;
          const input = args.input as { TransactItems?: unknown[] };
          counters.transactItems += input.TransactItems?.length ?? 0;
        }
        return result;
      } catch (error) {
        if (name === "TransactWriteItems") {
          counters.cancelled += 1;
          const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
          const label = reasons.map((reason) => reason.Code ?? "None").filter((code) => code !== "None").join("+") || (error as Error).name;
          counters.cancelReasons.set(label, (counters.cancelReasons.get(label) ?? 0) + 1);
        }
        throw error;
      }
    },
    { step: "initialize", name: "benchCounter" },
  );
}

/* ------------------------------------------------------------ phases */

interface PhaseResult {
  name: string;
  ops: number;
  errors: Map<string, number>;
  seconds: number;
  latencies: number[];
  counters: Counters;
}

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!);

/** W workers call `op` back to back until the deadline; each call's latency is recorded. */
async function runPhase(name: string, workers: number, seconds: number, op: (worker: number, seq: number) => Promise<void>): Promise<PhaseResult> {
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
  return { name, ops, errors, seconds: elapsed, latencies, counters };
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
    console.log(`ledger benchmark: ${opts.workers} workers, ${opts.accounts} accounts, ${opts.duration} s per phase (warm-up ${opts.warmup} s)${opts.hot ? ", --hot" : ""}`);
    dynamo = await startDynamoDbLocal();
    console.log(`DynamoDB Local (in memory) on ${dynamo.endpoint}`);
    const config = loadConfig({
      STAGE: "bench",
      TABLE_NAME: tableName,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      S3_ENDPOINT: "http://127.0.0.1:9",
      JWT_SECRET: "bench-secret-that-is-long-enough-for-hs256",
      LOG_LEVEL: "silent",
      ALLOW_TEST_BALANCE: "true",
    });
    ctx = createContext(config);
    const core = ctx;
    await ensureTable(core.db);
    await ensureSystemAccounts(core);
    instrument(core);

    // N accounts for one owner, each funded by a posted deposit (16 at a time).
    const owner = "bench-owner";
    const setupStarted = performance.now();
    const accountIds: string[] = new Array(opts.accounts);
    const fund = async (index: number, name: string) => {
      const created = await createAccount(core, owner, { name, currency: "USD", type: "bank" }, null);
      const funded = await deposit(core, owner, { account_id: created.account.id, amount: "1000000.00" }, `fund-${index}`);
      const journalId = (JSON.parse(funded.body) as { data: { id: string } }).data.id;
      await setJournalStatus(core, owner, journalId, "post", null);
      return created.account.id;
    };
    for (let start = 0; start < opts.accounts; start += 16) {
      await Promise.all(
        Array.from({ length: Math.min(16, opts.accounts - start) }, async (_, offset) => {
          accountIds[start + offset] = await fund(start + offset, `Bench ${start + offset}`);
        }),
      );
    }
    const hotAccount = await fund(opts.accounts, "Hot treasury");
    console.log(`setup: ${opts.accounts + 1} funded accounts in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`);

    const randomPair = () => {
      const from = Math.floor(Math.random() * accountIds.length);
      let to = Math.floor(Math.random() * (accountIds.length - 1));
      if (to >= from) to += 1;
      return [accountIds[from]!, accountIds[to]!] as const;
    };
    const amount = () => ((1 + Math.floor(Math.random() * 999)) / 100).toFixed(2);
    let run = 0;
    // Each worker writes through an instance: the one shared context (one Node process serving
    // concurrent requests), or its own context with its own caches and queues (like one Lambda
    // instance per concurrent request, where nothing of this process's state helps).
    for (let index = 1; opts.instances && index < opts.workers; index++) peers.push(createContext(config));
    for (const peer of peers) instrument(peer);
    const shared = () => core;
    const ownInstance = (worker: number) => (worker === 0 ? core : peers[worker - 1]!);
    const uniformTransfer = (phase: string, via: (worker: number) => CoreContext) => async (worker: number, seq: number) => {
      const [from, to] = randomPair();
      const result: WriteResult = await transfer(via(worker), owner, { from_account_id: from, to_account_id: to, amount: amount() }, `${phase}-${run}-${worker}-${seq}`);
      if (result.replayed) throw new Error("unexpected replay");
    };
    const hotTransfer = async (worker: number, seq: number) => {
      const to = accountIds[Math.floor(Math.random() * accountIds.length)]!;
      await transfer(core, owner, { from_account_id: hotAccount, to_account_id: to, amount: amount() }, `hot-${run}-${worker}-${seq}`);
    };
    const hotDeposit = (phase: string) => async (worker: number, seq: number) => {
      const to = accountIds[Math.floor(Math.random() * accountIds.length)]!;
      await deposit(core, owner, { account_id: to, amount: amount() }, `${phase}-${run}-${worker}-${seq}`);
    };

    // The raw ceiling writes items of the very size the engine writes: copies of a real journal
    // and two real versions, under fresh random keys.
    const sampleJournal = (JSON.parse((await transfer(core, owner, { from_account_id: accountIds[0]!, to_account_id: accountIds[1]!, amount: "1.00" }, "sample")).body) as { data: { id: string } }).data.id;
    const journalItem = (await core.db.doc.send(new GetCommand({ TableName: core.db.table, Key: journalKey(sampleJournal) }))).Item!;
    const versionItems = await Promise.all(
      [accountIds[0]!, accountIds[1]!].map(async (chain) => {
        const head = await latestVersion(core, chain);
        return (await core.db.doc.send(new GetCommand({ TableName: core.db.table, Key: balanceVersionKey(chain, head.version) }))).Item!;
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
              Item: { ...item, pk: `RAW#${id}#${index}`, sk: index === 0 ? "TX" : "BAL#000000000001", gsi1pk: `RAW#${id}#${index}`, gsi2pk: `RAWF#${id}` },
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
    results.push(await runPhase("uniform transfers", opts.workers, opts.duration, uniformTransfer("uniform", shared)));
    results.push(await runPhase("raw TransactWriteItems (3 Puts)", opts.workers, opts.duration, rawWrite));
    results.push(await runPhase("deposits (hot sys-funding-usd, 8 shards)", opts.workers, opts.duration, hotDeposit("deposit")));
    if (opts.hot) results.push(await runPhase("transfers from one hot account", opts.workers, opts.duration, hotTransfer));
    if (opts.instances && opts.workers > 1) {
      results.push(await runPhase(`uniform transfers, ${opts.workers} instances`, opts.workers, opts.duration, uniformTransfer("instances", ownInstance)));
    }

    report(results, opts, itemBytes);
  } finally {
    await stop();
  }
}

function report(results: PhaseResult[], opts: Options, itemBytes: number): void {
  const rows = results.map((result) => {
    const calls = [...result.counters.calls.values()].reduce((sum, n) => sum + n, 0);
    const retries = result.counters.cancelled;
    return {
      phase: result.name,
      "ops/s": (result.ops / result.seconds).toFixed(1),
      ops: result.ops,
      "p50 ms": percentile(result.latencies, 50).toFixed(1),
      "p99 ms": percentile(result.latencies, 99).toFixed(1),
      "calls/op": result.ops ? (calls / result.ops).toFixed(2) : "-",
      "retries/op": result.ops ? (retries / result.ops).toFixed(3) : "-",
      "items/write": result.counters.transactions ? (result.counters.transactItems / result.counters.transactions).toFixed(2) : "-",
      errors: [...result.errors].map(([label, n]) => `${label} x${n}`).join(", ") || "0",
    };
  });
  console.log("");
  console.table(rows);
  for (const result of results) {
    const calls = [...result.counters.calls].map(([name, n]) => `${name} ${(n / Math.max(1, result.ops)).toFixed(2)}`).join(", ");
    const reasons = [...result.counters.cancelReasons].map(([label, n]) => `${label} x${n}`).join(", ") || "none";
    console.log(`  ${result.name}: calls per op: ${calls}; cancelled transactions: ${result.counters.cancelled} (${reasons})`);
  }
  const rate = (name: string) => {
    const found = results.find((result) => result.name.startsWith(name));
    return found ? found.ops / found.seconds : Number.NaN;
  };
  const uniform = rate("uniform transfers");
  console.log("");
  console.log(`items written per transfer: ${(results[0]!.counters.transactItems / Math.max(1, results[0]!.counters.transactions)).toFixed(2)} (journal + 2 balance versions; raw items ~${Math.round(itemBytes / 3)} B JSON each)`);
  console.log(`app/raw            = ${(uniform / rate("raw")).toFixed(2)}   (target >= 0.70)`);
  console.log(`hot deposits/uniform = ${(rate("deposits") / uniform).toFixed(2)}   (target >= 0.50)`);
  if (opts.hot) console.log(`hot transfers/uniform = ${(rate("transfers from one hot") / uniform).toFixed(2)}   (one customer chain: every transfer waits for the previous one)`);
  if (opts.instances && opts.workers > 1) {
    console.log(`app/raw, ${opts.workers} instances = ${(rate("uniform transfers, ") / rate("raw")).toFixed(2)}   (no shared caches or queues: every write reads its heads, races settle by conditional Puts)`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
