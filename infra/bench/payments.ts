/**
 * Payments benchmark: `npm run bench:payments -- --payments 200 --concurrency 16 --users 20`
 *
 * Starts its own in-memory DynamoDB Local (stopped on exit, error and Ctrl-C), the real Hono app
 * in process (app.request, no sockets) and the embedded stack's payment worker
 * (infra/local/payment-worker.ts: timers at each step's due time plus the periodic sweep). U
 * users register over the API, each with two funded USD accounts. Then N payments are POSTed to
 * /v1/payments, C at a time, half between a user's own accounts and half to another user by
 * email, with no rail given, so routing chooses (expected value, exploration). Each one runs its
 * lifecycle through the worker: attempt on the chosen rail after the rail's average processing
 * time, a retry on the next-best rail after a retriable failure, post or void of the held
 * journal. The benchmark waits until every payment has ended and prints:
 *   - payments/s: N over the time from the first POST to the last payment's end, and POSTs/s;
 *   - time to completion (p50/p99, the payment's createdAt to completedAt, or its end when it
 *     failed), next to the rails' configured average processing times, which dominate it;
 *   - completed / failed / retried (two attempts), and the rails used;
 *   - DynamoDB writes per payment: every item written in the payment phase (TransactWriteItems
 *     items and single writes, counted by instrumenting the client), by kind of item (its key's
 *     prefix), so "ledger items per payment" is read off the same table.
 * Only DynamoDB Local on 127.0.0.1 is contacted.
 */
import { randomUUID } from "node:crypto";
import { availableParallelism, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { ensureSystemAccounts } from "@fintech/core/ledger/accounts";
import { createRequestMetrics } from "@fintech/core/metrics/service";
import type { Payment } from "@fintech/core/payments/model";
import { listRails } from "@fintech/core/rails/store";
import { loadConfig } from "@fintech/core/shared/config";
import { createContext, type CoreContext } from "@fintech/core/shared/context";
import { createApp } from "@fintech/functions/app";
import { verifyEmailForTests } from "@fintech/testing/auth";
import { verifyForTests } from "@fintech/testing/limits";
import { ensureTable } from "../local/bootstrap";
import "../local/cli"; // the local scripts' set-up: silences the SDK's Node 22 notice
import { startDynamoDbLocal, type DynamoDbLocal } from "../local/dynamodb-local";
import { DEFAULT_CONCURRENCY, LocalPaymentWorker } from "../local/payment-worker";
import { instrument, newCounters, type Counters } from "./ledger-accounting";
import { releaseStore, stopOnceOnExit } from "./teardown";
import { inBatches } from "./concurrency";
import { localKeyEnv } from "../local/keys";

interface Options {
  payments: number;
  concurrency: number;
  users: number;
  workerConcurrency: number;
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      payments: { type: "string", default: "200" },
      concurrency: { type: "string", default: "16" },
      users: { type: "string", default: "20" },
      "worker-concurrency": { type: "string", default: String(DEFAULT_CONCURRENCY) },
    },
    strict: true,
  });
  const int = (name: string, text: string, min: number) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be an integer >= ${min}`);
    return value;
  };
  return {
    payments: int("payments", values.payments, 1),
    concurrency: int("concurrency", values.concurrency, 1),
    users: int("users", values.users, 2),
    workerConcurrency: int("worker-concurrency", values["worker-concurrency"], 1),
  };
}

/* ------------------------------------------------------------ the API, in process */

type App = ReturnType<typeof createApp>;
let addresses = 0;
/** A fresh client address per sign-up (the benchmarking range 198.18.0.0/15), as the Node server would see it. */
const nextAddress = () => {
  addresses += 1;
  return `198.18.${(addresses >> 8) & 255}.${addresses & 255}`;
};

async function call(
  app: App,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string>; ip?: string } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  const response = await app.request(
    path,
    { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) },
    { incoming: { socket: { remoteAddress: options.ip ?? "127.0.0.1" } } },
  );
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Record<string, any> };
}

async function expectStatus(
  reply: Promise<{ status: number; body: Record<string, any> }>,
  status: number,
  what: string,
) {
  const settled = await reply;
  if (settled.status !== status)
    throw new Error(`${what}: ${settled.status} ${JSON.stringify(settled.body).slice(0, 300)}`);
  return settled.body;
}

interface BenchUser {
  token: string;
  id: string;
  email: string;
  accounts: [string, string];
}

async function setUpUser(app: App, core: CoreContext, index: number, run: string): Promise<BenchUser> {
  const email = `bench-pay-${run}-${index}@example.com`;
  const registered = await expectStatus(
    call(app, "POST", "/api/v1/auth/register", {
      body: { email, password: "long enough pw", first_name: "Bench", last_name: `User ${index}` },
      ip: nextAddress(),
    }),
    201,
    "register",
  );
  const token = registered.data.token as string;
  // Paying others takes a verified level (limits/gate.ts): held there as an administrator would.
  await verifyForTests(core, registered.data.user.id as string);
  // Payments by email reach only an address its owner proved they read (auth/email-verification.ts).
  await verifyEmailForTests(core, registered.data.user.id as string);
  const open = async (name: string) =>
    (
      await expectStatus(
        call(app, "POST", "/api/v1/ledger/accounts", { token, body: { name, currency: "USD" } }),
        201,
        "open account",
      )
    ).data.id as string;
  const accounts: [string, string] = [await open("Everyday"), await open("Savings")];
  // At the four-eyes threshold: the most a user's own deposit can be without a second approver.
  const funded = await expectStatus(
    call(app, "POST", "/api/v1/ledger/transactions/deposit", {
      token,
      body: { account_id: accounts[0], amount: "10000.00" },
    }),
    201,
    "deposit",
  );
  await expectStatus(
    call(app, "POST", `/api/v1/ledger/transactions/${funded.data.id}/post`, { token }),
    200,
    "post deposit",
  );
  return { token, id: registered.data.user.id as string, email, accounts };
}

/* ------------------------------------------------------------ figures */

const percentile = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))] ?? NaN;
const ms = (value: number) => `${Math.round(value)} ms`;
const per = (total: number, count: number) => (total / count).toFixed(2);

/** Bookkeeping items every request may write (rate limits, request metrics): not payment data. */
const BOOKKEEPING = ["RATE#", "METRICS#", "ROUTE_LATENCY#"];

/** Ledger items: journals (TX#) and account balance versions (ACCT#, customer and system accounts). */
const LEDGER = ["TX#", "ACCT#"];

/** The kind of an item by its partition key's prefix (PAY#, PAYDUE#, TX#, ...), ids left out. */
const kindOf = (key: string) => key.replace(/[0-9a-f]{8}-[0-9a-f-]{27}.*/i, "…").replace(/#[^#]*$/, "#…");

function writesByKind(counters: Counters): Map<string, number> {
  const kinds = new Map<string, number>();
  for (const [key, writes] of counters.landings.get("table") ?? []) {
    const kind = kindOf(key);
    kinds.set(kind, (kinds.get(kind) ?? 0) + writes);
  }
  return new Map([...kinds].sort((a, b) => b[1] - a[1]));
}

/* ------------------------------------------------------------ run */

async function main() {
  const opts = options();
  const run = randomUUID().slice(0, 8);
  const tableName = `bench-payments-${run}`;
  let dynamo: DynamoDbLocal | null = null;
  let ctx: CoreContext | null = null;
  const worker = new LocalPaymentWorker({ concurrency: opts.workerConcurrency });
  let stopMetrics = () => undefined as void;
  const stop = stopOnceOnExit(async () => {
    await worker.stop();
    stopMetrics();
    await releaseStore(tableName, ctx ? [ctx] : [], dynamo);
  });

  try {
    console.log(
      `machine: ${availableParallelism()} CPUs, load average ${loadavg()
        .map((load) => load.toFixed(1))
        .join(" ")} at start`,
    );
    console.log(
      `payments benchmark: ${opts.payments} payments, ${opts.concurrency} at a time, over ${opts.users} users; local worker with ${opts.workerConcurrency} concurrent steps`,
    );
    dynamo = await startDynamoDbLocal();
    console.log(`DynamoDB Local (in memory) on ${dynamo.endpoint}; the app in process (app.request)`);
    const config = loadConfig({
      STAGE: "bench",
      TABLE_NAME: tableName,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      S3_ENDPOINT: "http://127.0.0.1:9",
      ...localKeyEnv(null),
      LOG_LEVEL: "silent",
      ALLOW_TEST_BALANCE: "true",
      // Set-up only: cheap password hashes and no sign-up limit for U registrations.
      PASSWORD_HASH_COST: "1024",
      AUTH_RATE_LIMIT_PER_IP: "1000000",
      // The figures are the payments' own: no user is held back by the per-user creation limit.
      PAYMENT_RATE_LIMIT_PER_MINUTE: "1000000",
    });
    ctx = createContext(config, { paymentScheduler: worker });
    const core = ctx;
    await ensureTable(core.db);
    await ensureSystemAccounts(core);
    let counters = newCounters();
    instrument(core, () => counters);
    const metrics = createRequestMetrics(core);
    stopMetrics = () => metrics.stop();
    const app = createApp(core, { metrics });
    worker.start(core);

    const rails = await listRails(core);
    console.log("rails (as configured: the average processing time is how long an attempt takes before its answer):");
    for (const rail of rails) {
      console.log(
        `  ${rail.name.padEnd(7)} ${rail.status.padEnd(8)} avg ${String(rail.avgProcessingTime).padStart(4)} s  success ${rail.successRate} %  error injection ${(rail.errorInjection * 100).toFixed(0)} %  cost ${rail.cost}`,
      );
    }

    const setupStarted = performance.now();
    const users = await inBatches(opts.users, 8, (index) => setUpUser(app, core, index, run));
    console.log(
      `setup: ${opts.users} users with two funded USD accounts each, over the API, in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`,
    );

    /* ---- payments */
    counters = newCounters();
    const stepsBefore = { ...worker.stats };
    const postLatencies: number[] = [];
    const refused = new Map<string, number>();
    const started = performance.now();
    const startedAt = Date.now();
    const created = (
      await inBatches(opts.payments, opts.concurrency, async (index) => {
        const payer = users[index % users.length]!;
        const payee = users[(index + 1) % users.length]!;
        const amount = ((100 + Math.floor(Math.random() * 4_900)) / 100).toFixed(2);
        const body = {
          userId: payer.id,
          fromAccountId: payer.accounts[0],
          amount,
          currency: "USD",
          description: `bench ${index}`,
          ...(index % 2 === 0 ? { toAccountId: payer.accounts[1] } : { toEmail: payee.email }),
        };
        const sent = performance.now();
        const reply = await call(app, "POST", "/v1/payments", {
          token: payer.token,
          body,
          headers: { "Idempotency-Key": `bench-${run}-${index}` },
        });
        postLatencies.push(performance.now() - sent);
        if (reply.status !== 201) {
          const label = `${reply.status} ${reply.body?.code ?? ""}`;
          refused.set(label, (refused.get(label) ?? 0) + 1);
          return null;
        }
        return { paymentId: (reply.body.payment as Payment).paymentId, token: payer.token };
      })
    ).filter((payment): payment is { paymentId: string; token: string } => payment !== null);
    const postSeconds = (performance.now() - started) / 1000;
    console.log(
      `created: ${created.length} payments in ${postSeconds.toFixed(1)} s (${(created.length / postSeconds).toFixed(1)} POST/s)${refused.size ? `, refused: ${[...refused].map(([label, n]) => `${label} x${n}`).join(", ")}` : ""}; waiting for the worker`,
    );

    // Done when the worker has nothing running and no timer armed: every payment has ended.
    while (
      worker.armedDueMs().length > 0 ||
      !(await Promise.race([worker.idle().then(() => true), sleep(100).then(() => false)]))
    ) {
      await sleep(20);
    }
    const drainedAt = performance.now();
    const phase = counters;

    // Every payment as its payer reads it (GET /v1/payments/{id}).
    const payments = (
      await inBatches(created.length, 16, async (index) => {
        const reply = await call(app, "GET", `/v1/payments/${created[index]!.paymentId}`, {
          token: created[index]!.token,
        });
        return reply.status === 200 ? (reply.body.data as Payment) : null;
      })
    ).filter((payment): payment is Payment => payment !== null);

    const ended = payments.filter((payment) => payment.status === "completed" || payment.status === "failed");
    const completed = payments.filter((payment) => payment.status === "completed");
    const failed = payments.filter((payment) => payment.status === "failed");
    const retried = payments.filter((payment) => payment.attempts.length > 1);
    const endOf = (payment: Payment) => Date.parse(payment.completedAt ?? payment.updatedAt);
    const durations = ended.map((payment) => endOf(payment) - Date.parse(payment.createdAt)).sort((a, b) => a - b);
    const lastEnd = Math.max(...ended.map(endOf));
    const wallSeconds = (lastEnd - startedAt) / 1000;
    const railUse = new Map<string, number>();
    for (const payment of payments)
      for (const attempt of payment.attempts) railUse.set(attempt.rail, (railUse.get(attempt.rail) ?? 0) + 1);
    const strategies = new Map<string, number>();
    for (const payment of payments)
      strategies.set(payment.routing.strategy, (strategies.get(payment.routing.strategy) ?? 0) + 1);
    const sortedPosts = [...postLatencies].sort((a, b) => a - b);
    // Where the time goes: the wait for the first step (created -> attempt 1 started) and how late
    // each rail answer ran after its due time (the worker's lateness: queueing behind other steps).
    const firstStepWaits = payments
      .flatMap((payment) =>
        payment.attempts[0] ? [Date.parse(payment.attempts[0].startedAt) - Date.parse(payment.createdAt)] : [],
      )
      .sort((a, b) => a - b);
    const answerLateness = payments
      .flatMap((payment) =>
        payment.attempts.flatMap((attempt) =>
          attempt.finishedAt ? [Date.parse(attempt.finishedAt) - Date.parse(attempt.dueAt)] : [],
        ),
      )
      .sort((a, b) => a - b);

    console.log("");
    console.log(
      `load average at the end: ${loadavg()
        .map((load) => load.toFixed(1))
        .join(" ")}`,
    );
    console.log(
      `throughput: ${(ended.length / wallSeconds).toFixed(1)} payments/s end to end (${ended.length} ended, first POST to last end ${wallSeconds.toFixed(1)} s; worker drained ${((drainedAt - started) / 1000).toFixed(1)} s after the first POST)`,
    );
    console.log(
      `POST /v1/payments latency: p50 ${ms(percentile(sortedPosts, 0.5))}, p99 ${ms(percentile(sortedPosts, 0.99))}`,
    );
    console.log(
      `time to completion (createdAt to end): p50 ${ms(percentile(durations, 0.5))}, p99 ${ms(percentile(durations, 0.99))}, max ${ms(durations[durations.length - 1] ?? NaN)}`,
    );
    console.log(
      `  (the rails' average processing times above are the floor: one attempt waits that long, a retry twice)`,
    );
    console.log(
      `  first step (created to attempt 1 started): p50 ${ms(percentile(firstStepWaits, 0.5))}, p99 ${ms(percentile(firstStepWaits, 0.99))}; rail answer run after its due time: p50 ${ms(percentile(answerLateness, 0.5))}, p99 ${ms(percentile(answerLateness, 0.99))}`,
    );
    console.log(
      `outcomes: ${completed.length} completed, ${failed.length} failed, ${retried.length} retried on a second rail; ${payments.length - ended.length} still active`,
    );
    console.log(
      `rails used (attempts): ${[...railUse]
        .sort((a, b) => b[1] - a[1])
        .map(([rail, n]) => `${rail} ${n}`)
        .join(", ")}`,
    );
    console.log(`routing strategies: ${[...strategies].map(([strategy, n]) => `${strategy} ${n}`).join(", ")}`);
    console.log(
      `worker: ${worker.stats.steps - stepsBefore.steps} advancePayment calls (${per(worker.stats.steps - stepsBefore.steps, created.length)} per payment), ${worker.stats.failures - stepsBefore.failures} failed, ${worker.stats.sweptSteps - stepsBefore.sweptSteps} due steps seen by the 2 s sweeps (mostly already queued by their timer)`,
    );

    /* ---- writes */
    const kinds = writesByKind(phase);
    const dataWrites = [...kinds]
      .filter(([kind]) => !BOOKKEEPING.some((prefix) => kind.startsWith(prefix)))
      .reduce((sum, [, n]) => sum + n, 0);
    const n = created.length;
    console.log("");
    console.log(
      `DynamoDB writes in the payment phase: ${dataWrites} data items = ${per(dataWrites, n)} per payment, in ${phase.transactions} transactions (${per(phase.transactions, n)} per payment, ${per(phase.transactItems, phase.transactions)} items each); ${phase.cancelled} transactions cancelled${phase.cancelReasons.size ? ` (${[...phase.cancelReasons].map(([reason, count]) => `${reason} x${count}`).join(", ")})` : ""}`,
    );
    const ledgerWrites = [...kinds]
      .filter(([kind]) => LEDGER.some((prefix) => kind.startsWith(prefix)))
      .reduce((sum, [, count]) => sum + count, 0);
    console.log(
      `ledger items written per payment: ${per(ledgerWrites, n)} (journal create + post/void, balance versions of payer, payee and the system accounts)`,
    );
    console.log("  items per payment by kind (partition key prefix):");
    for (const [kind, writes] of kinds) {
      const bookkeeping = BOOKKEEPING.some((prefix) => kind.startsWith(prefix));
      console.log(
        `    ${kind.padEnd(28)} ${per(writes, n).padStart(6)}${bookkeeping ? "  (request bookkeeping, not payment data)" : ""}`,
      );
    }
    const calls = [...phase.calls]
      .sort((a, b) => b[1] - a[1])
      .map(([name, count]) => `${name} ${per(count, n)}`)
      .join(", ");
    console.log(`  DynamoDB calls per payment: ${calls}`);
  } finally {
    await stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
