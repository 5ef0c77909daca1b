import { fork } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestContext, TEST_BUCKETS, TEST_KEYS } from "@fintech/testing/context";
import type {} from "@fintech/testing/global-setup"; // the type of inject("dynamodbEndpoint")
import type { CoreContext } from "../shared/context";
import { toDecimalString } from "../money/model";
import { RECORDED_REFUSALS } from "./decisions";
import { unfoldVersion, type FoldedVersionItem } from "./folded-versions";
import { setAccountLock } from "./controls";
import { journalIdFor } from "./journals";
import { holderDirection } from "./model";
import { balanceOf } from "./service";
import { CREDIT_SHARDS, type CreditShardConversion } from "./credit-shards";
import { checkInvariants, snapshot } from "@fintech/testing/ledger/invariants";
import {
  convertToCreditShards,
  execute,
  type CreateRequest,
  type Request,
  type StatusRequest,
} from "@fintech/testing/ledger/commands";
import { FeedFollower } from "@fintech/testing/ledger/feed";
import { setUpWorld, type World } from "@fintech/testing/ledger/world";
import { LEDGER_PROCESS_CLIENT } from "@fintech/testing/processes";
// Types only: importing the client module would run it (it is a process's entry point).
import type {
  BatchClientRequest,
  ClientOutcome,
  ClientRequest,
  ClientResult,
  ControlClientRequest,
  FromClient,
  Mutation,
  Pause,
  ToClient,
} from "@fintech/testing/ledger/process-client";

/**
 * The ledger's invariants when every client is its own OS process, as separate Lambda instances
 * are: each client (@fintech/testing/ledger/process-client, Node with tsx) has its own core context, DynamoDB
 * client, account and head caches and chain queues, and nothing else in common with the others
 * than the table in DynamoDB Local. All clients receive their plan, report "armed", and start on
 * one "go" signal; each performs its requests one at a time (a Lambda instance serves one request
 * at a time), so CLIENTS requests are in flight at once and race only through DynamoDB.
 *
 * Three properties, each run on a fresh table with the accounts of ledger.property.test.ts:
 * - overdraft: one account funded by posted deposits; every client sends transfers out of it that
 *   together exceed its funds several times over, some of them duplicates of one keyed request
 *   sent from several clients (and one copy with another body under the same key), and unposts
 *   of the deposits (the other way to take available away).
 * - mixed: deposits, transfers, batches, posts and unposts over all accounts, keyed and not, keys
 *   reused across clients (the same request, or another request under the same key), posts and
 *   unposts of journals other clients are creating at that moment, an admin's locks and unlocks.
 * - hot receiver: a customer account on credit shards (converted at set-up, or by an admin while
 *   the processes write) that every process credits and debits (transfers and batches out).
 * After every run: the outcome checks below, the testkit's oracle fed with every acknowledged
 * effect, and checkInvariants over the whole table (every balance version of every chain, not
 * only the heads: no customer version below zero, contiguous chains, versions <-> journal
 * operations, point-in-time balances = replay of the journals, balanced trial balances per
 * currency, the integrity check without drift). Three mutation runs (defects injected into the
 * clients' DynamoDB calls) show that the checks catch a write path without its balance
 * conditions, without its journal conditions, or blind to locks. And a client process SIGKILLed
 * in the middle of a keyed transfer (before its write left it, or after the write committed and
 * before it read the reply), retried on other processes: no lost or double posting.
 *
 * Knobs: LEDGER_PROCESSES_RUNS (runs per property, default 2), LEDGER_PROCESSES_SEED (replay a
 * failure: fast-check prints the seed in its report), LEDGER_PROCESSES_STATS=1 (outcome counts,
 * timings, TransactWriteItems and cancellations per run).
 */

const REPO_ROOT = path.resolve(import.meta.dirname, "../../../..");
const CLIENT = LEDGER_PROCESS_CLIENT;
const CLIENTS = 8;
const RUNS = Number(process.env.LEDGER_PROCESSES_RUNS ?? 2);
const SEED = process.env.LEDGER_PROCESSES_SEED === undefined ? undefined : Number(process.env.LEDGER_PROCESSES_SEED);
const STATS = Boolean(process.env.LEDGER_PROCESSES_STATS);

/* ------------------------------------------------------------------ client processes */

interface Client {
  /** Hands the client its plan for a table; resolves once it has built its context. */
  arm(table: string, requests: ClientRequest[], mutation?: Mutation, pause?: Pause): Promise<void>;
  /** Starts the plan; resolves with one result per request. */
  go(): Promise<ClientResult[]>;
  /** Starts a plan armed with a pause; resolves once the client has stopped there. */
  goUntilPaused(): Promise<void>;
  /** SIGKILL, as a Lambda instance dies: no cleanup, no goodbye; resolves once the process is gone. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

type Waiter = { type: FromClient["type"]; resolve(message: FromClient): void; reject(error: Error): void };

async function startClient(env: Record<string, string>): Promise<Client> {
  const child = fork(CLIENT, [], {
    cwd: REPO_ROOT,
    env,
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  let gone: Error | null = null;
  const waiting: Waiter[] = [];
  child.on("message", (message: FromClient) => {
    const waiter = waiting.shift();
    if (waiter?.type === message.type) waiter.resolve(message);
    else waiter?.reject(new Error(`client said ${message.type}, expected ${waiter.type}`));
  });
  const exited = once(child, "exit");
  void exited.then(([code, signal]) => {
    gone = new Error(`client exited (${String(code ?? signal)}): ${stderr}`);
    for (const waiter of waiting.splice(0)) waiter.reject(gone);
  });
  const next = <T extends FromClient["type"]>(type: T) =>
    new Promise<Extract<FromClient, { type: T }>>((resolve, reject) => {
      if (gone) reject(gone);
      else waiting.push({ type, resolve: resolve as (message: FromClient) => void, reject });
    });
  const post = (message: ToClient) => {
    if (gone) throw gone;
    child.send(message);
  };
  await next("ready");
  return {
    async arm(table, requests, mutation, pause) {
      const armed = next("armed");
      post({ type: "plan", table, requests, ...(mutation ? { mutation } : {}), ...(pause ? { pause } : {}) });
      await armed;
    },
    async goUntilPaused() {
      const paused = next("paused");
      post({ type: "go" });
      await paused;
    },
    async kill() {
      child.kill("SIGKILL");
      await exited;
    },
    go() {
      const done = next("done");
      post({ type: "go" });
      return done.then((message) => message.results);
    },
    async stop() {
      if (gone) return;
      // Closing the channel ends the client; one that does not end is killed.
      const killer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      if (child.connected) child.disconnect();
      await exited;
      clearTimeout(killer);
    },
  };
}

/** A client's environment: config as a Lambda instance gets it, on the test's DynamoDB and S3. */
const clientEnv = (): Record<string, string> => ({
  ...(process.env as Record<string, string>),
  STAGE: "test",
  DYNAMODB_ENDPOINT: inject("dynamodbEndpoint"),
  S3_ENDPOINT: inject("s3Endpoint"),
  KYC_BUCKET: TEST_BUCKETS.kyc,
  SETTLEMENTS_BUCKET: TEST_BUCKETS.settlements,
  ...TEST_KEYS,
  ALLOW_TEST_BALANCE: "true",
  LOG_LEVEL: "silent",
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
});

let pool: Client[] = [];
beforeAll(async () => {
  const env = clientEnv();
  // The first table DynamoDB Local creates takes seconds (a cold JVM): create one while the clients load.
  const warmUp = createTestContext().then((ctx) => ctx.dispose());
  const started = await Promise.allSettled(Array.from({ length: CLIENTS }, () => startClient(env)));
  await warmUp;
  pool = started.flatMap((start) => (start.status === "fulfilled" ? [start.value] : []));
  const failed = started.find((start) => start.status === "rejected");
  if (failed) throw failed.reason;
}, 120_000);
afterAll(async () => {
  await Promise.all(pool.map((client) => client.stop()));
});

/** One request as sent and answered, with the client that sent it. */
interface Sent extends ClientResult {
  request: ClientRequest;
  client: number;
}

/** Arms every client with its plan on the table, then starts them all at once. */
async function runOnClients(table: string, plans: ClientRequest[][], mutation?: Mutation): Promise<Sent[]> {
  await Promise.all(plans.map((plan, client) => pool[client]!.arm(table, plan, mutation)));
  const results = await Promise.all(plans.map((_, client) => pool[client]!.go()));
  return results.flatMap((clientResults, client) =>
    clientResults.map((result, index) => ({ ...result, request: plans[client]![index]!, client })),
  );
}

/* ------------------------------------------------------------------ outcome checks */

const describeOutcome = (outcome: ClientOutcome) =>
  outcome.ok ? `ok${outcome.replayed ? " (replayed)" : ""}` : `${outcome.status} ${outcome.code}: ${outcome.message}`;
const show = (sent: Sent) =>
  `client ${sent.client} ${JSON.stringify(sent.request)} -> ${describeOutcome(sent.outcome)}${sent.cancelled > 0 ? ` (after ${sent.cancelled} cancelled writes)` : ""}`;
const isFresh = (sent: Sent) => sent.outcome.ok && !sent.outcome.replayed;
const isStatus = (request: ClientRequest): request is StatusRequest => request.fn === "post" || request.fn === "unpost";
const isBatch = (request: ClientRequest): request is BatchClientRequest => request.fn === "batch";
const isControlRequest = (request: ClientRequest): request is ControlClientRequest =>
  request.fn === "lock" || request.fn === "unlock";
/** A request that creates journals: a single one or a batch. */
const isCreation = (request: ClientRequest): request is CreateRequest | BatchClientRequest =>
  request.fn === "deposit" || request.fn === "test_balance" || request.fn === "transfer" || request.fn === "batch";
/** A batch item as the single request it stands for (the oracle knows those). */
const itemRequest = (owner: string, { type, ...body }: Record<string, unknown>): CreateRequest => ({
  fn: type as "transfer" | "deposit",
  owner,
  body,
  key: null,
});
/** The journal ids a keyed batch's reply must carry (batches.ts: a key namespace of the batch's own). */
const batchJournalIds = (owner: string, key: string, size: number) =>
  Array.from({ length: size }, (_, index) =>
    journalIdFor(owner, index === 0 ? `batch\u0000${key}` : `batch\u0000${key}\u0000${index}`),
  );
/** The journals a successful create or batch reply names. */
const createdIds = (request: ClientRequest, body: string) =>
  isBatch(request)
    ? (JSON.parse(body) as { data: { id: string }[] }).data.map((journal) => journal.id)
    : [replyId(body)];
const replyId = (body: string) => (JSON.parse(body) as { data: { id: string } }).data.id;

/**
 * What a keyed request decided, for comparing answers under one key: the reply of a success, or
 * a business refusal, which is recorded under the key (decisions.ts); null for what is not a
 * decision (validation errors, 404s, 409 in progress, 422 key reused).
 */
const decisionOf = (outcome: ClientOutcome) =>
  outcome.ok
    ? `ok ${outcome.body}`
    : RECORDED_REFUSALS.has(outcome.code)
      ? `refused ${outcome.status} ${outcome.code} ${outcome.message}`
      : null;

/** The idempotency scope of a keyed request: the owner's key for creates, the journal's for post/unpost. */
const scopeOf = (request: ClientRequest) =>
  request.key === null
    ? null
    : isStatus(request)
      ? `J#${request.journalId}#${request.key}`
      : isBatch(request)
        ? `B#${request.owner}#${request.key}`
        : `O#${request.owner}#${request.key}`;

/**
 * What the replies must satisfy whatever the interleaving: no 5xx and only the refusals the run
 * can produce; per idempotency scope at most one execution, every success the byte-identical
 * reply of that execution and only to the same request, every request of the same body that
 * started after the execution answered a replay; one decision per key (a success or a recorded
 * refusal, never both, never two refusals that differ); a 409 "in progress" only while another
 * request of the scope was in flight; a created journal's id is the one its key names, and no two
 * executions ever answer with one journal.
 */
function checkOutcomes(world: World, sent: Sent[], allowed: Set<string>): string[] {
  const problems: string[] = [];
  const { model } = world;
  for (const one of sent) {
    if (!one.outcome.ok && (one.outcome.status >= 500 || !allowed.has(one.outcome.code)))
      problems.push(`unexpected refusal: ${show(one)}`);
  }
  // For post/unpost the caller counts too: a stranger's request under the key is another request.
  const fingerprint = (request: ClientRequest) =>
    isStatus(request)
      ? `${request.fn}#${request.owner}`
      : isBatch(request)
        ? `batch ${request.body.items.map((item) => model.fingerprint(itemRequest(request.owner, item))).join(" ")}`
        : isControlRequest(request) || request.fn === "credit_shards"
          ? `${request.fn}#${request.accountId}`
          : model.fingerprint(request);
  const scopes = new Map<string, Sent[]>();
  for (const one of sent) {
    const scope = scopeOf(one.request);
    if (scope) scopes.set(scope, [...(scopes.get(scope) ?? []), one]);
  }
  for (const [scope, group] of scopes) {
    const fresh = group.filter(isFresh);
    if (fresh.length > 1) problems.push(`${scope}: executed ${fresh.length} times: ${fresh.map(show).join(" | ")}`);
    const winner = fresh[0];
    for (const one of group) {
      if (one.outcome.ok && !winner)
        problems.push(`${scope}: a replay of an execution nobody was told about: ${show(one)}`);
      if (one.outcome.ok && winner && winner.outcome.ok && one.outcome.body !== winner.outcome.body)
        problems.push(`${scope}: replay differs from the original: ${show(one)}`);
      if (one.outcome.ok && winner && fingerprint(one.request) !== fingerprint(winner.request))
        problems.push(
          `${scope}: another request answered with the stored reply: ${show(one)} (stored for ${JSON.stringify(winner.request)})`,
        );
      if (winner && one.startedAt > winner.endedAt) {
        if (fingerprint(one.request) === fingerprint(winner.request) && !(one.outcome.ok && one.outcome.replayed))
          problems.push(`${scope}: a retry after the success was not replayed: ${show(one)}`);
        if (
          fingerprint(one.request) !== fingerprint(winner.request) &&
          !(
            !one.outcome.ok &&
            (one.outcome.code === "idempotency_key_reused" || one.outcome.status === 400 || one.outcome.status === 404)
          )
        ) {
          problems.push(`${scope}: another body under a used key was not refused as reused: ${show(one)}`);
        }
      }
      if (!one.outcome.ok && one.outcome.code === "idempotency_in_progress") {
        const overlapping = group.some(
          (other) => other !== one && other.startedAt <= one.endedAt && one.startedAt <= other.endedAt,
        );
        if (!overlapping)
          problems.push(`${scope}: 409 in progress with no other request of the key in flight: ${show(one)}`);
      }
    }
    // One decision per key: a success or a recorded business refusal, the same for every request
    // of the same body, and every such request that started after it was taken answers with it.
    const decisive = group.filter((one) => decisionOf(one.outcome) !== null).sort((a, b) => a.endedAt - b.endedAt);
    const decisions = new Set(decisive.map((one) => `${fingerprint(one.request)} => ${decisionOf(one.outcome)}`));
    if (decisions.size > 1) problems.push(`${scope}: ${decisions.size} decisions: ${decisive.map(show).join(" | ")}`);
    const first = decisive[0];
    if (first) {
      for (const one of group) {
        if (
          one.startedAt > first.endedAt &&
          fingerprint(one.request) === fingerprint(first.request) &&
          decisionOf(one.outcome) !== decisionOf(first.outcome)
        ) {
          problems.push(`${scope}: a retry after the decision (${show(first)}) got another answer: ${show(one)}`);
        }
      }
    }
    if (winner?.outcome.ok && !isStatus(winner.request) && winner.request.key) {
      const { request } = winner;
      const named = isBatch(request)
        ? batchJournalIds(request.owner, request.key!, request.body.items.length)
        : [journalIdFor(request.owner, request.key)];
      const got = createdIds(request, winner.outcome.body);
      if (JSON.stringify(got) !== JSON.stringify(named))
        problems.push(`${scope}: created journals ${got.join(",")}, the key names ${named.join(",")}`);
    }
  }
  for (const one of sent) {
    if (
      isBatch(one.request) &&
      !one.outcome.ok &&
      "index" in one.outcome &&
      !(one.outcome.index >= 0 && one.outcome.index < one.request.body.items.length)
    ) {
      problems.push(
        `a refused batch names item ${one.outcome.index} of ${one.request.body.items.length}: ${show(one)}`,
      );
    }
  }
  const created = sent
    .filter((one) => isFresh(one) && isCreation(one.request))
    .flatMap((one) => (one.outcome.ok ? createdIds(one.request, one.outcome.body) : []));
  if (new Set(created).size !== created.length)
    problems.push(`${created.length} acknowledged creations name only ${new Set(created).size} journals`);
  return problems;
}

/**
 * Feeds every acknowledged effect to the oracle: creations first (totals add up in any order),
 * then per journal its posts and unposts, which must alternate from the journal's status before
 * the run (at most one more post than unposts from draft, the reverse from posted).
 */
function recordAcknowledged(world: World, sent: Sent[]): string[] {
  const problems: string[] = [];
  const { model } = world;
  const statusBefore = new Map([...model.journals].map(([id, journal]) => [id, journal.status]));
  for (const one of sent) {
    const { request } = one;
    if (!one.outcome.ok || one.outcome.replayed || !isCreation(request)) continue;
    if (isBatch(request)) {
      // Every item of an acknowledged batch is one journal, as the single request would have made it.
      const journals = (JSON.parse(one.outcome.body) as { data: unknown[] }).data;
      if (journals.length !== request.body.items.length)
        problems.push(
          `a batch of ${request.body.items.length} items answered ${journals.length} journals: ${show(one)}`,
        );
      request.body.items.forEach((item, index) => {
        const single = itemRequest(request.owner, item);
        const outcome = { ok: true as const, body: JSON.stringify({ data: journals[index] }), replayed: false };
        problems.push(...model.checkReply(single, outcome).map((problem) => `batch item ${index}: ${problem}`));
        model.record(single, outcome);
      });
      continue;
    }
    problems.push(...model.checkReply(request, one.outcome));
    model.record(request, one.outcome);
  }
  const changes = new Map<string, (Sent & { request: StatusRequest })[]>();
  for (const one of sent) {
    const { request } = one;
    if (isStatus(request) && isFresh(one))
      changes.set(request.journalId, [...(changes.get(request.journalId) ?? []), { ...one, request }]);
  }
  for (const [journalId, done] of changes) {
    const journal = model.journals.get(journalId);
    if (!journal) {
      problems.push(
        `status changes of journal ${journalId}, which no acknowledged request created: ${done.map(show).join(" | ")}`,
      );
      continue;
    }
    const initial = statusBefore.get(journalId) ?? "draft";
    const posts = done.filter((one) => one.request.fn === "post");
    const unposts = done.filter((one) => one.request.fn === "unpost");
    const net = posts.length - unposts.length;
    if (initial === "draft" ? net !== 0 && net !== 1 : net !== 0 && net !== -1) {
      problems.push(
        `journal ${journalId} (${initial}): ${posts.length} posts and ${unposts.length} unposts succeeded: ${done.map(show).join(" | ")}`,
      );
      continue;
    }
    for (let status = initial; posts.length + unposts.length > 0; status = status === "draft" ? "posted" : "draft") {
      const one = (status === "draft" ? posts : unposts).shift()!;
      if (one.outcome.ok) problems.push(...model.checkReply(one.request, one.outcome));
      model.record(one.request, one.outcome);
    }
  }
  return problems;
}

const outcomeCounts = (sent: Sent[]) => {
  const counts: Record<string, number> = {};
  for (const one of sent) {
    const label = `${one.request.fn}${one.request.key ? "+key" : ""} -> ${one.outcome.ok ? (one.outcome.replayed ? "replayed" : "ok") : one.outcome.code}`;
    counts[label] = (counts[label] ?? 0) + 1;
  }
  return counts;
};

interface Scenario {
  name: string;
  /** Sets up what the run needs beyond setUpWorld and returns each client's requests. */
  build(ctx: CoreContext, world: World): Promise<ClientRequest[][]>;
  /** The refusal codes the run may produce. */
  allowed: Set<string>;
  /** The scenario's own checks after the run. */
  extraChecks?(ctx: CoreContext, world: World, sent: Sent[]): Promise<string[]>;
  mutation?: Mutation;
}

/**
 * A fresh table and world, the plans built on it, run across the clients; every violation found.
 * The table is dropped after.
 */
async function scenarioProblems({ name, build, allowed, extraChecks, mutation }: Scenario): Promise<string[]> {
  const started = Date.now();
  const ctx = await createTestContext();
  try {
    const world = await setUpWorld(ctx, Math.random().toString(36).slice(2, 8));
    const plans = await build(ctx, world);
    const ready = Date.now();
    const sent = await runOnClients(ctx.db.table, plans, mutation);
    const ran = Date.now();
    const problems = [...checkOutcomes(world, sent, allowed), ...recordAcknowledged(world, sent)];
    problems.push(...((await extraChecks?.(ctx, world, sent)) ?? []));
    if (problems.length === 0) problems.push(...(await checkInvariants(ctx, world, 4)));
    if (STATS) {
      const writes = sent.reduce((sum, one) => sum + one.writes, 0);
      const cancelled = sent.reduce((sum, one) => sum + one.cancelled, 0);
      const mostCancelled = Math.max(...sent.map((one) => one.cancelled));
      console.log(
        JSON.stringify({
          name,
          mutation,
          requests: sent.length,
          setupMs: ready - started,
          runMs: ran - ready,
          checksMs: Date.now() - ran,
          problems: problems.length,
          writes,
          cancelled,
          mostCancelled,
          outcomes: outcomeCounts(sent),
        }),
      );
    }
    return problems;
  } finally {
    await ctx.dispose();
  }
}

async function runScenario(scenario: Scenario): Promise<void> {
  const problems = await scenarioProblems(scenario);
  if (problems.length > 0) throw new Error(`${problems.length} violation(s):\n${problems.slice(0, 15).join("\n")}`);
}

const settings = <T>(): fc.Parameters<T> => ({
  numRuns: RUNS,
  ...(SEED === undefined ? {} : { seed: SEED }),
  // A run is a whole concurrent execution: replaying it with smaller inputs would not replay
  // the same interleaving, so shrinking tells little and costs minutes. The report has the seed.
  endOnFailure: true,
});

/** Transfers are created as drafts: the pending outflow counts against available at once. */
/** A posted deposit into the account, recorded in the oracle; returns the journal's id. */
async function fund(ctx: CoreContext, world: World, account: number, minor: number, key: string): Promise<string> {
  const target = world.model.accounts[account]!;
  const depositRequest: Request = {
    fn: "deposit",
    owner: target.owner,
    body: { account_id: target.id, amount: toDecimalString(minor, target.currency) },
    key,
  };
  const created = await execute(ctx, depositRequest);
  world.model.record(depositRequest, created);
  if (!created.ok) throw new Error(`funding ${target.name} failed: ${created.message}`);
  const postRequest: Request = { fn: "post", owner: target.owner, journalId: replyId(created.body), key: null };
  const posted = await execute(ctx, postRequest);
  world.model.record(postRequest, posted);
  if (!posted.ok) throw new Error(`posting the funding of ${target.name} failed: ${posted.message}`);
  return replyId(created.body);
}

/** Puts `request` into a client's list at a position (modulo its length + 1). */
const insertAt = (list: ClientRequest[], at: number, request: ClientRequest) =>
  list.splice(at % (list.length + 1), 0, request);

/* ------------------------------------------------------------------ overdraft */

/** Account indices of setUpWorld: 0 u1 USD Checking (the source), 1 u1 USD Savings. */
const SOURCE = 0;
const DESTINATION = 1;

const overdraftPlan = fc.record({
  fundedMajor: fc.integer({ min: 100, max: 2_000 }),
  /** The funds arrive as 1 to 4 posted deposits, in these proportions. */
  deposits: fc.array(fc.integer({ min: 1, max: 10 }), { minLength: 1, maxLength: 4 }),
  /** Unposts of those deposits (the other way to take available away), keyed or not, from one or more clients. */
  unposts: fc.array(
    fc.record({
      deposit: fc.nat(),
      keyed: fc.boolean(),
      // Early in the lists: they race the first transfers, while the deposit is still unspent.
      copies: fc.array(fc.record({ client: fc.nat({ max: CLIENTS - 1 }), at: fc.nat({ max: 1 }) }), {
        minLength: 1,
        maxLength: 3,
      }),
    }),
    { maxLength: 3 },
  ),
  /**
   * Divides the clients' own transfers: with 4, unposts of the deposits race transfers that have
   * not spent them yet.
   */
  smaller: fc.constantFrom(1, 4),
  /** Each client's own transfers, a share of the funds each (per mille); keyed with a key of its own or not. */
  own: fc.array(
    fc.array(fc.record({ permille: fc.integer({ min: 5, max: 200 }), keyed: fc.boolean() }), {
      minLength: 4,
      maxLength: 8,
    }),
    {
      minLength: CLIENTS,
      maxLength: CLIENTS,
    },
  ),
  /** One keyed transfer sent by several clients (possibly twice by one), one copy maybe with another amount. */
  shared: fc.array(
    fc.record({
      permille: fc.integer({ min: 20, max: 300 }),
      copies: fc.array(fc.record({ client: fc.nat({ max: CLIENTS - 1 }), at: fc.nat({ max: 20 }) }), {
        minLength: 2,
        maxLength: 6,
      }),
      otherBodyCopy: fc.option(fc.record({ client: fc.nat({ max: CLIENTS - 1 }), at: fc.nat({ max: 20 }) }), {
        nil: null,
      }),
    }),
    { minLength: 1, maxLength: 5 },
  ),
});
type OverdraftPlan = typeof overdraftPlan extends fc.Arbitrary<infer T> ? T : never;

/** The overdraft run of a plan; `mutation` runs it against a deliberately broken write path. */
function overdraftScenario(plan: OverdraftPlan, mutation?: Mutation): Scenario {
  const funded = plan.fundedMajor * 100;
  /** What each transfer or unpost takes away from the source's available balance. */
  const amounts = new Map<ClientRequest, number>();
  const minorOf = (request: ClientRequest) => amounts.get(request)!;
  return {
    name: "overdraft",
    mutation,
    allowed: new Set(["insufficient_funds", "idempotency_in_progress", "idempotency_key_reused", "not_posted"]),
    async build(ctx, world) {
      const from = world.model.accounts[SOURCE]!;
      const to = world.model.accounts[DESTINATION]!;
      const weights = plan.deposits.reduce((sum, weight) => sum + weight, 0);
      const parts = plan.deposits.map((weight) => Math.floor((funded * weight) / weights));
      parts[0]! += funded - parts.reduce((sum, part) => sum + part, 0);
      const deposits: { id: string; minor: number }[] = [];
      for (const [index, minor] of parts.entries()) {
        if (minor > 0)
          deposits.push({ id: await fund(ctx, world, SOURCE, minor, `${world.model.runId}-funding-${index}`), minor });
      }
      const transfer = (permille: number, key: string | null): Request => {
        const minor = Math.max(1, Math.floor((funded * permille) / 1000));
        const request: Request = {
          fn: "transfer",
          owner: from.owner,
          body: { from_account_id: from.id, to_account_id: to.id, amount: toDecimalString(minor, "USD") },
          key,
        };
        amounts.set(request, minor);
        return request;
      };
      const plans = plan.own.map((transfers, client) =>
        transfers.map(({ permille, keyed }, index) =>
          transfer(permille / plan.smaller, keyed ? `${world.model.runId}-c${client}-${index}` : null),
        ),
      );
      plan.shared.forEach((shared, index) => {
        const key = `${world.model.runId}-shared-${index}`;
        for (const copy of shared.copies) insertAt(plans[copy.client]!, copy.at, transfer(shared.permille, key));
        if (shared.otherBodyCopy)
          insertAt(plans[shared.otherBodyCopy.client]!, shared.otherBodyCopy.at, transfer(shared.permille + 10, key));
      });
      plan.unposts.forEach((unpost, index) => {
        const deposit = deposits[unpost.deposit % deposits.length]!;
        const key = unpost.keyed ? `${world.model.runId}-unpost-${index}` : null;
        for (const copy of unpost.copies) {
          const request: Request = { fn: "unpost", owner: from.owner, journalId: deposit.id, key };
          amounts.set(request, deposit.minor);
          insertAt(plans[copy.client]!, copy.at, request);
        }
      });
      return plans;
    },
    async extraChecks(ctx, world, sent) {
      const problems: string[] = [];
      const source = world.model.accounts[SOURCE]!;
      // Every version the source's chain ever had, not only its head.
      const { chains } = await snapshot(ctx);
      const versions = [...chains.values()].flat().filter((version) => version.account_id === source.id);
      if (versions.length === 0) problems.push(`no balance versions of ${source.name}`);
      for (const version of versions)
        if (version.available < 0)
          problems.push(
            `${source.name} v${version.version}: available ${version.available} < 0 (${version.operation} of ${version.tx_id})`,
          );
      const taken = sent.filter(isFresh).reduce((sum, one) => sum + minorOf(one.request), 0);
      if (taken > funded) problems.push(`transfers and unposts of ${taken} acknowledged out of ${funded}`);
      const now = await balanceOf(ctx, source.owner, source.id, undefined);
      if (now.available_minor !== funded - taken)
        problems.push(`${source.name} has ${now.available_minor} available, want ${funded} - ${taken}`);
      // Only outflows (no posts): available never grows, so a refusal for want of funds, decided on
      // a head that was visible before the reply, stays true from the reply on. The head as of
      // the reply (commit stamps are taken before a write lands; 100 ms of slack only adds later
      // versions, which have less available) must not have had enough.
      const ordered = [...versions].sort((a, b) => a.version - b.version);
      const availableAt = (instant: number) =>
        ordered.filter((version) => Date.parse(version.committed_at) <= instant).at(-1)?.available ?? 0;
      for (const one of sent) {
        if (one.outcome.ok || one.outcome.code !== "insufficient_funds") continue;
        const then = availableAt(one.endedAt + 100);
        if (minorOf(one.request) <= then)
          problems.push(`refused for insufficient funds although ${then} was available when it answered: ${show(one)}`);
      }
      return problems;
    },
  };
}

/* ------------------------------------------------------------------ mixed workload */

/**
 * setUpWorld's accounts: 0 u1 USD bank (funded), 1 u1 USD bank (opening 250.00 draft), 2 u1
 * USD liability, 3 u1 JPY bank (funded), 4 u1 JPY asset, 5 u1 EUR bank, 6 u2 USD bank (funded),
 * 7 u2 JPY bank.
 */
const ACCOUNTS = 8;
const TRANSFER_PAIRS: [number, number][] = [
  [0, 1],
  [1, 0],
  [0, 2],
  [2, 0],
  [1, 2],
  [3, 4],
  [4, 3],
  [0, 1],
  [3, 4],
];
/** Refused before any write: same account, another owner's, another currency. */
const REFUSED_PAIRS: [number, number][] = [
  [0, 0],
  [0, 6],
  [0, 3],
];

/**
 * No key, a key of its own, or the key of an earlier template (the same scope if it is the same
 * owner's or journal's).
 */
const keyChoice = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ mode: "none" as const }) },
  { weight: 5, arbitrary: fc.constant({ mode: "own" as const }) },
  { weight: 1, arbitrary: fc.record({ mode: fc.constant("reuse" as const), of: fc.nat() }) },
);
type KeyChoice = typeof keyChoice extends fc.Arbitrary<infer T> ? T : never;

const placement = fc.array(fc.record({ client: fc.nat({ max: CLIENTS - 1 }), at: fc.nat({ max: 40 }) }), {
  minLength: 1,
  maxLength: 3,
});
/**
 * A batch item of the first user: a transfer between its accounts, or a deposit (rarely into the
 * other user's account: a 404 naming the item).
 */
const batchItem = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      type: fc.constant("transfer" as const),
      pair: fc.constantFrom(...TRANSFER_PAIRS),
      minor: fc.integer({ min: 1, max: 30_000 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant("deposit" as const),
      account: fc.oneof({ weight: 15, arbitrary: fc.nat({ max: 5 }) }, { weight: 1, arbitrary: fc.constant(6) }),
      minor: fc.integer({ min: 1, max: 30_000 }),
    }),
  },
);

const template = fc.oneof(
  /** An admin locks or unlocks one of the accounts (nothing may leave it while locked). */
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("control" as const),
      lock: fc.boolean(),
      account: fc.nat({ max: ACCOUNTS - 1 }),
      placement,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("batch" as const),
      items: fc.array(batchItem, { minLength: 1, maxLength: 5 }),
      key: keyChoice,
      placement,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("deposit" as const),
      account: fc.nat({ max: ACCOUNTS - 1 }),
      minor: fc.integer({ min: 1, max: 50_000 }),
      key: keyChoice,
      placement,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("transfer" as const),
      pair: fc.oneof(
        { weight: 12, arbitrary: fc.constantFrom(...TRANSFER_PAIRS) },
        { weight: 1, arbitrary: fc.constantFrom(...REFUSED_PAIRS) },
      ),
      minor: fc.integer({ min: 1, max: 60_000 }),
      key: keyChoice,
      placement,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constantFrom("post" as const, "post" as const, "unpost" as const),
      /** Among the journals of the world and of the run's keyed creations. */
      target: fc.nat(),
      key: keyChoice,
      stranger: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
      /** Placed near the end of the clients' lists, when most creations have happened. */
      late: fc.boolean(),
      placement,
    }),
  },
);
type Template = typeof template extends fc.Arbitrary<infer T> ? T : never;

/** The concrete requests of the templates, placed into the clients' lists (a template may go to several clients). */
function mixedPlans(world: World, templates: Template[]): ClientRequest[][] {
  const { model } = world;
  const keys: (string | null)[] = [];
  const keyOf = (choice: KeyChoice, index: number): string | null => {
    if (choice.mode === "none") return null;
    const earlier = choice.mode === "reuse" && index > 0 ? keys[choice.of % index] : null;
    return earlier ?? `${model.runId}-t${index}`;
  };
  const requests: ClientRequest[] = [];
  // Journals a post or unpost may name: those of the world, and those the run's keyed creations will have.
  const journals: { id: string; owner: string }[] = model.journalOrder.map((id) => ({
    id,
    owner: model.journals.get(id)!.owner,
  }));
  templates.forEach((spec, index) => {
    const key = "key" in spec ? keyOf(spec.key, index) : null;
    keys.push(key);
    let request: ClientRequest;
    if (spec.kind === "control") {
      request = {
        fn: spec.lock ? "lock" : "unlock",
        owner: "processes-admin",
        accountId: model.accounts[spec.account]!.id,
        key: null,
      };
    } else if (spec.kind === "deposit") {
      const account = model.accounts[spec.account]!;
      request = {
        fn: "deposit",
        owner: account.owner,
        body: { account_id: account.id, amount: toDecimalString(spec.minor, account.currency) },
        key,
      };
    } else if (spec.kind === "transfer") {
      const from = model.accounts[spec.pair[0]]!;
      const to = model.accounts[spec.pair[1]]!;
      request = {
        fn: "transfer",
        owner: from.owner,
        body: { from_account_id: from.id, to_account_id: to.id, amount: toDecimalString(spec.minor, from.currency) },
        key,
      };
    } else if (spec.kind === "batch") {
      const items = spec.items.map((item) => {
        if (item.type === "deposit") {
          const account = model.accounts[item.account]!;
          return { type: "deposit", account_id: account.id, amount: toDecimalString(item.minor, account.currency) };
        }
        const from = model.accounts[item.pair[0]]!;
        return {
          type: "transfer",
          from_account_id: from.id,
          to_account_id: model.accounts[item.pair[1]]!.id,
          amount: toDecimalString(item.minor, from.currency),
        };
      });
      request = { fn: "batch", owner: model.accounts[0]!.owner, body: { items }, key };
    } else {
      const journal = journals[spec.target % journals.length]!;
      const stranger = model.accounts.find((account) => account.owner !== journal.owner)!.owner;
      request = { fn: spec.kind, owner: spec.stranger ? stranger : journal.owner, journalId: journal.id, key };
    }
    const owner = request.owner;
    if (isBatch(request) && key)
      journals.push(...batchJournalIds(owner, key, request.body.items.length).map((id) => ({ id, owner })));
    else if (!isStatus(request) && key) journals.push({ id: journalIdFor(owner, key), owner });
    requests.push(request);
  });
  const plans: ClientRequest[][] = Array.from({ length: CLIENTS }, () => []);
  const late = (spec: Template) => "late" in spec && spec.late;
  templates.forEach((spec, index) => {
    if (!late(spec)) for (const { client, at } of spec.placement) insertAt(plans[client]!, at, requests[index]!);
  });
  templates.forEach((spec, index) => {
    if (late(spec))
      for (const { client, at } of spec.placement)
        plans[client]!.splice(Math.max(0, plans[client]!.length - (at % 3)), 0, requests[index]!);
  });
  return plans;
}

const MIXED_REFUSALS = new Set([
  "insufficient_funds",
  "idempotency_in_progress",
  "idempotency_key_reused",
  "transaction_not_found",
  "already_posted",
  "not_posted",
  "same_account",
  "account_not_found",
  "currency_mismatch",
  "account_locked",
  "already_locked",
  "not_locked",
]);

/**
 * Locks hold inside the write whatever process writes: no chain version takes money out of a
 * customer account (a change in the holder's DEBIT direction) while the version before it says
 * the account is locked; and no leg folded into a batch version leaves the account below zero.
 */
async function lockAndFoldChecks(ctx: CoreContext, world: World): Promise<string[]> {
  const problems: string[] = [];
  const customers = new Set(world.model.accounts.map((account) => account.id));
  const { chains, accounts } = await snapshot(ctx);
  // A converted account's main chain may dip below zero on its own (checkInvariants checks the
  // running sum of its chains instead).
  const converted = new Set(accounts.filter((account) => account.credit_shards > 0).map((account) => account.id));
  for (const versions of chains.values()) {
    versions.forEach((item, index) => {
      if (!customers.has(item.account_id) || index === 0) return;
      const locked = versions[index - 1]!.locked ?? false;
      for (const leg of unfoldVersion(item as FoldedVersionItem)) {
        if (leg.side === null || (leg.operation !== "create" && leg.operation !== "post" && leg.operation !== "unpost"))
          continue;
        if (locked && holderDirection(leg.side, item.normal_side, leg.operation) === "DEBIT") {
          problems.push(
            `${item.chain} v${item.version}: ${leg.operation} ${leg.side} ${leg.amount} of ${leg.tx_id} took money out while the account was locked`,
          );
        }
        if (leg.available < 0 && !converted.has(item.chain))
          problems.push(
            `${item.chain} v${item.version}: a folded leg of ${leg.tx_id} left available ${leg.available} < 0`,
          );
      }
    });
  }
  return problems;
}

/* ------------------------------------------------------------------ a hot receiving account */

/**
 * setUpWorld's accounts: 0 u1 USD Checking, the hot receiver (funded); 1 u1 USD Savings and 2 u1
 * USD Credit line (credit-normal: paying from it needs no funds), where its money comes from and
 * goes to.
 */
const HOT = 0;
const CREDIT_LINE = 2;
const HOT_FUNDED = 100_000;

/** What one client does to the hot account; a credit is created, then posted, by the same client. */
const hotAction = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("deposit" as const),
      minor: fc.integer({ min: 100, max: 20_000 }),
      /** Then reversed: an unpost of the posted deposit, refused if its money was spent. */
      unpost: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("credit_line" as const), minor: fc.integer({ min: 100, max: 20_000 }) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("pay_out" as const),
      minor: fc.integer({ min: 1_000, max: 40_000 }),
      keyed: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("batch_out" as const),
      items: fc.array(fc.record({ minor: fc.integer({ min: 500, max: 15_000 }), to: fc.constantFrom(1, 2) }), {
        minLength: 1,
        maxLength: 5,
      }),
    }),
  },
);

const hotPlan = fc.record({
  /** Converted before the clients start, or by an admin (one to three requests) while they write. */
  convertAt: fc.constantFrom("setup" as const, "live" as const),
  conversions: fc.array(fc.record({ client: fc.nat({ max: CLIENTS - 1 }), at: fc.nat({ max: 6 }) }), {
    minLength: 1,
    maxLength: 3,
  }),
  clients: fc.array(fc.array(hotAction, { minLength: 3, maxLength: 6 }), {
    minLength: CLIENTS,
    maxLength: CLIENTS,
  }),
  /** The feed client drops its connection after that many events, twice, before reading to the end. */
  drops: fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 40 })),
});
type HotPlan = typeof hotPlan extends fc.Arbitrary<infer T> ? T : never;

const HOT_REFUSALS = new Set(["insufficient_funds", "not_posted", "transaction_not_found"]);

/**
 * Every process credits the hot account (deposits, payments from the credit line, each posted by
 * the process that made it) while every process also takes money out of it (transfers and
 * batches): more than it ever holds, so some are refused. Converted at set-up, or live while the
 * processes write. Beyond the scenario checks (no other refusal, no 5xx; the oracle's totals;
 * checkInvariants: every version of every chain, the running sum never below zero, point-in-time
 * = replay): the conversion happened once, and the owner's feed, read with dropped connections,
 * has every committed change exactly once, in order per chain.
 */
function hotScenario(plan: HotPlan, mutation?: Mutation): Scenario {
  return {
    name: `hot receiver (converted ${plan.convertAt})`,
    mutation,
    allowed: HOT_REFUSALS,
    async build(ctx, world) {
      const { model } = world;
      await fund(ctx, world, HOT, HOT_FUNDED, `${model.runId}-fund-hot`);
      const hot = model.accounts[HOT]!;
      if (plan.convertAt === "setup") {
        const converted = await convertToCreditShards(ctx, hot.id);
        if (!converted.ok || !converted.result.at) throw new Error(`conversion failed: ${JSON.stringify(converted)}`);
        model.creditShards.set(hot.id, converted.result.at);
      }
      const usd = (minor: number) => toDecimalString(minor, "USD");
      const plans = plan.clients.map((actions, client) =>
        actions.flatMap((action, index): ClientRequest[] => {
          const key = `${model.runId}-hot-${client}-${index}`;
          const post = (fn: "post" | "unpost"): ClientRequest => ({
            fn,
            owner: hot.owner,
            journalId: journalIdFor(hot.owner, key),
            key: null,
          });
          if (action.kind === "deposit")
            return [
              { fn: "deposit", owner: hot.owner, body: { account_id: hot.id, amount: usd(action.minor) }, key },
              post("post"),
              ...(action.unpost ? [post("unpost")] : []),
            ];
          if (action.kind === "credit_line")
            return [
              {
                fn: "transfer",
                owner: hot.owner,
                body: {
                  from_account_id: model.accounts[CREDIT_LINE]!.id,
                  to_account_id: hot.id,
                  amount: usd(action.minor),
                },
                key,
              },
              post("post"),
            ];
          if (action.kind === "pay_out")
            return [
              {
                fn: "transfer",
                owner: hot.owner,
                body: { from_account_id: hot.id, to_account_id: model.accounts[1]!.id, amount: usd(action.minor) },
                key: action.keyed ? key : null,
              },
            ];
          return [
            {
              fn: "batch",
              owner: hot.owner,
              body: {
                items: action.items.map((item) => ({
                  type: "transfer",
                  from_account_id: hot.id,
                  to_account_id: model.accounts[item.to]!.id,
                  amount: usd(item.minor),
                })),
              },
              key: null,
            },
          ];
        }),
      );
      if (plan.convertAt === "live")
        for (const { client, at } of plan.conversions)
          insertAt(plans[client]!, at, { fn: "credit_shards", owner: "processes-admin", accountId: hot.id, key: null });
      return plans;
    },
    async extraChecks(ctx, world, sent) {
      const problems: string[] = [];
      const hot = world.model.accounts[HOT]!;
      const conversions = sent.filter((one) => one.request.fn === "credit_shards");
      const converted = conversions.flatMap((one) =>
        one.outcome.ok ? [(JSON.parse(one.outcome.body) as { data: CreditShardConversion }).data] : [],
      );
      const fresh = converted.filter((result) => result.converted);
      if (plan.convertAt === "live" && fresh.length > 1)
        problems.push(`${fresh.length} conversions converted: ${conversions.map(show).join(" | ")}`);
      if (plan.convertAt === "setup" && fresh.length > 0) problems.push("a conversion after set-up converted again");
      if (fresh[0]?.at) world.model.creditShards.set(hot.id, fresh[0].at);
      const table = await snapshot(ctx);
      const account = table.accounts.find((candidate) => candidate.id === hot.id);
      if (account?.credit_shards !== CREDIT_SHARDS) problems.push(`${hot.name} has ${account?.credit_shards} shards`);
      // Converted before anyone wrote: every process knew, and no credit went to the main chain.
      const main = table.chains.get(hot.id) ?? [];
      const marker = main.findIndex((item) => item.credit_shards);
      const creditsOnMain = main
        .slice(marker + 1)
        .flatMap((item) => unfoldVersion(item as FoldedVersionItem))
        .filter((leg) => leg.side === hot.normal && (leg.operation === "create" || leg.operation === "post")).length;
      const onShards = [...table.chains.entries()]
        .filter(([chain]) => chain.startsWith(`${hot.id}#`))
        .reduce((sum, [, versions]) => sum + versions.length - 1, 0);
      if (plan.convertAt === "setup" && creditsOnMain > 0)
        problems.push(`${creditsOnMain} credits on the main chain after a conversion at set-up`);
      if (onShards === 0 && sent.some((one) => isFresh(one) && one.request.fn === "deposit"))
        problems.push("no credit landed on a credit shard");
      if (STATS) console.log(JSON.stringify({ convertAt: plan.convertAt, creditsOnMain, onShards }));
      const opened = Math.min(
        ...table.accounts.filter((one) => one.owner_id === hot.owner).map((one) => Date.parse(one.created_at)),
      );
      const follower = new FeedFollower(ctx, hot.owner, new Date(opened - 1));
      for (const drop of plan.drops) await follower.poll(drop);
      await follower.finish();
      problems.push(...follower.problems(await snapshot(ctx)));
      return problems;
    },
  };
}

/* ------------------------------------------------------------------ the properties */

describe(`ledger invariants with ${CLIENTS} client processes (DynamoDB Local)`, () => {
  it("concurrent transfers out of one account from every process never overdraw it, lose or double a posting", async () => {
    await fc.assert(
      fc.asyncProperty(overdraftPlan, (plan) => runScenario(overdraftScenario(plan))),
      settings(),
    );
  }, 180_000);

  it.each(["unguarded_balances", "unguarded_journals"] as const)(
    "the same checks catch a write path with %s (mutation)",
    async (mutation) => {
      // Many small transfers, so that writers of every process often build on the same head, and
      // one keyed transfer every process sends first.
      const plan: OverdraftPlan = {
        fundedMajor: 100,
        smaller: 1,
        deposits: [1],
        unposts: [],
        own: Array.from({ length: CLIENTS }, () =>
          Array.from({ length: 5 }, (_, index) => ({ permille: 30 + 10 * (index % 3), keyed: index % 2 === 0 })),
        ),
        shared: [
          {
            permille: 50,
            copies: Array.from({ length: CLIENTS }, (_, client) => ({ client, at: 0 })),
            otherBodyCopy: null,
          },
        ],
      };
      const problems = await scenarioProblems(overdraftScenario(plan, mutation));
      if (STATS)
        console.log(`mutation ${mutation}: ${problems.length} violation(s), e.g.\n${problems.slice(0, 5).join("\n")}`);
      expect(problems).not.toEqual([]);
    },
    60_000,
  );

  it("the lock check catches a write path that ignores locks (mutation)", async () => {
    const problems = await scenarioProblems({
      name: "locked",
      mutation: "unlocked_reads",
      allowed: MIXED_REFUSALS,
      async build(ctx, world) {
        await fund(ctx, world, 0, 100_000, `${world.model.runId}-fund`);
        const from = world.model.accounts[0]!;
        await setAccountLock(
          ctx,
          from.id,
          true,
          { reason: "mutation check" },
          { id: "processes-admin", name: "Processes Admin" },
        );
        const to = world.model.accounts[1]!;
        return pool.map(() => [
          {
            fn: "transfer" as const,
            owner: from.owner,
            body: { from_account_id: from.id, to_account_id: to.id, amount: "1.00" },
            key: null,
          },
        ]);
      },
      extraChecks: (ctx, world) => lockAndFoldChecks(ctx, world),
    });
    if (STATS)
      console.log(`mutation unlocked_reads: ${problems.length} violation(s), e.g.\n${problems.slice(0, 3).join("\n")}`);
    expect(problems.some((problem) => problem.includes("while the account was locked"))).toBe(true);
  }, 60_000);

  it("a customer account on credit shards, credited and debited by every process, converted at set-up or live, never goes below zero and loses nothing", async () => {
    await fc.assert(
      fc.asyncProperty(hotPlan, (plan) => runScenario(hotScenario(plan))),
      settings(),
    );
  }, 240_000);

  it("the same checks catch a write path without its conditions on a sharded account (mutation)", async () => {
    // Every process pays out of the converted account more than it holds, while credits arrive.
    const plan: HotPlan = {
      convertAt: "setup",
      conversions: [],
      clients: Array.from({ length: CLIENTS }, (_, client) => [
        { kind: "deposit" as const, minor: 2_000, unpost: false },
        ...Array.from({ length: 3 }, () => ({ kind: "pay_out" as const, minor: 20_000, keyed: client % 2 === 0 })),
      ]),
      drops: [1, 1],
    };
    const problems = await scenarioProblems(hotScenario(plan, "unguarded_balances"));
    if (STATS)
      console.log(
        `mutation on credit shards: ${problems.length} violation(s), e.g.\n${problems.slice(0, 5).join("\n")}`,
      );
    expect(problems).not.toEqual([]);
  }, 60_000);

  it("a random mixed workload with keys shared across processes keeps every invariant", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(template, { minLength: 30, maxLength: 60 }), (templates) =>
        runScenario({
          name: "mixed",
          allowed: MIXED_REFUSALS,
          extraChecks: (ctx, world) => lockAndFoldChecks(ctx, world),
          async build(ctx, world) {
            await fund(ctx, world, 0, 200_000, `${world.model.runId}-fund-usd`);
            await fund(ctx, world, 3, 200_000, `${world.model.runId}-fund-jpy`);
            await fund(ctx, world, 6, 100_000, `${world.model.runId}-fund-other`);
            return mixedPlans(world, templates);
          },
        }),
      ),
      settings(),
    );
  }, 180_000);
});

/* ------------------------------------------------------------------ a client killed mid-request */

/**
 * A Lambda instance can die in the middle of a keyed request (timeout, out of memory, a crash):
 * its caller gets no reply and retries the same request under the same Idempotency-Key, which
 * lands on another instance. Here a fresh client process is SIGKILLed where its plan's pause
 * stopped it (no sleeps: it says "paused" and waits there), before its write left the process or
 * after the write committed and before the reply was read. Then the request is retried on a
 * surviving process while three others take money out of the same account, and once more on
 * another process. Whether the killed attempt committed or not: one journal for the key, every
 * retry answers the journal's original reply (replayed) or is the one execution, and the whole
 * table keeps every invariant (checkInvariants: balances = replay of the journals, no version
 * below zero, the integrity check without drift).
 */
describe("a client process killed in the middle of a keyed transfer", () => {
  it.each(["before_write", "after_commit"] as const)(
    "killed %s, the retry on other processes neither loses nor doubles the posting",
    async (pause) => {
      // Loading tsx takes seconds: the victim starts while the table is set up.
      const victimStarting = startClient(clientEnv());
      const ctx = await createTestContext();
      try {
        const world = await setUpWorld(ctx, Math.random().toString(36).slice(2, 8));
        await fund(ctx, world, SOURCE, 100_000, `${world.model.runId}-fund`);
        const from = world.model.accounts[SOURCE]!;
        const to = world.model.accounts[DESTINATION]!;
        const transfer = (minor: number, key: string | null): ClientRequest => ({
          fn: "transfer",
          owner: from.owner,
          body: { from_account_id: from.id, to_account_id: to.id, amount: toDecimalString(minor, "USD") },
          key,
        });
        const key = `${world.model.runId}-killed`;
        const KILLED_MINOR = 12_345;
        const request = transfer(KILLED_MINOR, key);
        const journalId = journalIdFor(from.owner, key);
        const journalsBefore = new Set(world.model.journals.keys());

        const victim = await victimStarting;
        await victim.arm(ctx.db.table, [request], undefined, pause);
        const startedAt = Date.now();
        await victim.goUntilPaused();
        await victim.kill();
        const killedAt = Date.now();

        const left = (await snapshot(ctx)).journals.find((journal) => journal.id === journalId);
        expect(left !== undefined, `the killed attempt's journal is in the table (${pause})`).toBe(
          pause === "after_commit",
        );
        // The killed attempt as the oracle must know it: it executed if and only if its journal is
        // there, and the reply it never read is the one stored with the journal.
        const killed: Sent[] = left
          ? [
              {
                request,
                client: -1,
                outcome: { ok: true, body: left.created_reply, replayed: false },
                writes: 1,
                cancelled: 0,
                startedAt,
                endedAt: killedAt,
              },
            ]
          : [];
        const others = [1, 2, 3].map((client) => [transfer(1_000 + client, null), transfer(2_000 + client, null)]);
        const retried = await runOnClients(ctx.db.table, [[request], ...others]);
        const again = await runOnClients(ctx.db.table, [[], [request]]);
        const sent = [...killed, ...retried, ...again];

        const retries = sent.filter((one) => one.request === request && one.client !== -1);
        const answers = retries.map((one) => describeOutcome(one.outcome));
        expect(answers).toEqual(
          pause === "after_commit" ? ["ok (replayed)", "ok (replayed)"] : ["ok", "ok (replayed)"],
        );
        // Every retry answers the reply the first execution gave (or would have given the killed caller).
        const first = retries[0]!.outcome;
        const original = left?.created_reply ?? (first.ok ? first.body : "no reply");
        expect(new Set(retries.map((one) => (one.outcome.ok ? one.outcome.body : "")))).toEqual(new Set([original]));

        const problems = [...checkOutcomes(world, sent, new Set()), ...recordAcknowledged(world, sent)];
        const { journals } = await snapshot(ctx);
        // One posting of the killed request, under its key's id or any other.
        const postings = journals.filter(
          (journal) =>
            !journalsBefore.has(journal.id) &&
            journal.entries.some((entry) => entry.account_id === from.id && entry.amount === KILLED_MINOR),
        );
        if (postings.map((journal) => journal.id).join() !== journalId)
          problems.push(
            `the killed request's postings: ${postings.map((journal) => journal.id).join(", ") || "none"}, want ${journalId}`,
          );
        if (problems.length === 0) problems.push(...(await checkInvariants(ctx, world, 4)));
        expect(problems).toEqual([]);
      } finally {
        await ctx.dispose();
        await (await victimStarting).stop();
      }
    },
    60_000,
  );
});
