/**
 * Webhooks benchmark: `npm run bench:webhooks -- --endpoints 50 --users 10 --rate 20 --seconds 30 --failure-rate 0.2`
 *
 * Starts the embedded stack as `npm start` does (in memory, on a free port: DynamoDB Local, the
 * S3 emulator, the app and its webhook dispatcher), registers E endpoints spread over U users, each
 * a receiver on 127.0.0.1 subscribed to `ledger.transactionCreated` that answers 500 to a share
 * F of the attempts at random and 200 otherwise. Then it makes R ledger transfers per second for S
 * seconds (each between a user's own two accounts, users in turn), so every transfer is one event
 * for every endpoint of its user.
 *
 * First attempts run in real time. Retries are seconds to hours apart (docs/webhooks.md#retries):
 * after the load, the benchmark moves the dispatcher's clock (its own core context, offset from
 * the API's) past each step of the schedule instead of waiting, until every delivery has arrived
 * or the schedule is used up. It prints:
 *   - events produced (counted from GET /api/v1/events' core, listEvents, per user);
 *   - deliveries expected (events x the endpoints subscribed to them), delivered (distinct
 *     webhook-ids a receiver answered 2xx, per endpoint), lost (expected, never answered 2xx:
 *     must be 0) and duplicates (a webhook-id arriving again after its 2xx);
 *   - first-attempt latency p50/p99: from the event's commit (its `created_at`) to the arrival of
 *     its first attempt at the receiver;
 *   - retries (attempts after the first), and how far the dispatcher's clock was moved.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { availableParallelism, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { createCustomerAccount } from "@fintech/core/ledger/accounts";
import { CreateAccountInput } from "@fintech/core/ledger/model";
import { transfer } from "@fintech/core/ledger/service";
import { KEY_SECRET_NAMES } from "@fintech/core/shared/secret-names";
import { createEndpoint } from "@fintech/core/webhooks/endpoints";
import { listEvents } from "@fintech/core/webhooks/events";
import {
  MAX_ENDPOINTS_PER_USER,
  RETRY_SCHEDULE_MS,
  type EventType,
  type PlatformEvent,
} from "@fintech/core/webhooks/model";
import { JITTER } from "@fintech/core/webhooks/retry";
import { allowMoneyForTests } from "@fintech/testing/limits";
import { fundAccount, testCaller } from "@fintech/testing/payments";
import "../local/cli"; // the local scripts' set-up: silences the SDK's Node 22 notice
import { LOOPBACK } from "../local/ports";
import { startLocalStack, type LocalStack } from "../local/stack";
import { inBatches } from "./concurrency";
import { stopOnceOnExit } from "./teardown";

const SUBSCRIBED: EventType[] = ["ledger.transactionCreated"];
/** Rounds in a row that attempt nothing: the dispatcher has caught up with what is due. */
const QUIET_ROUNDS = 3;

interface Options {
  endpoints: number;
  users: number;
  rate: number;
  seconds: number;
  failureRate: number;
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      endpoints: { type: "string", default: "50" },
      users: { type: "string", default: "10" },
      rate: { type: "string", default: "20" },
      seconds: { type: "string", default: "30" },
      "failure-rate": { type: "string", default: "0.2" },
    },
    strict: true,
  });
  const int = (name: string, text: string, min: number) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be an integer >= ${min}`);
    return value;
  };
  const endpoints = int("endpoints", values.endpoints, 1);
  const users = int("users", values.users, 1);
  if (endpoints > users * MAX_ENDPOINTS_PER_USER)
    throw new Error(`--endpoints ${endpoints} needs --users >= ${Math.ceil(endpoints / MAX_ENDPOINTS_PER_USER)}`);
  const failureRate = Number(values["failure-rate"]);
  if (!(failureRate >= 0 && failureRate < 1)) throw new Error("--failure-rate must be in [0, 1)");
  return {
    endpoints,
    users,
    rate: int("rate", values.rate, 1),
    seconds: int("seconds", values.seconds, 1),
    failureRate,
  };
}

/* ------------------------------------------------------------ receivers */

interface Receiver {
  url: string;
  /** First arrival (ms, real clock) per webhook-id, and the commit instant its body names. */
  first: Map<string, { arrivedMs: number; committedMs: number }>;
  /** Webhook-ids answered 2xx. */
  delivered: Set<string>;
  requests: number;
  duplicates: number;
  server: Server;
}

async function startBenchReceiver(failureRate: number): Promise<Receiver> {
  const server = createServer();
  const receiver: Receiver = { url: "", first: new Map(), delivered: new Set(), requests: 0, duplicates: 0, server };
  server.on("request", (request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const arrivedMs = Date.now();
      const id = String(request.headers["webhook-id"] ?? "");
      receiver.requests += 1;
      if (!receiver.first.has(id)) {
        const event = JSON.parse(Buffer.concat(chunks).toString("utf8")) as PlatformEvent;
        receiver.first.set(id, { arrivedMs, committedMs: Date.parse(event.created_at) });
      }
      const fail = Math.random() < failureRate;
      if (!fail) {
        if (receiver.delivered.has(id)) receiver.duplicates += 1;
        receiver.delivered.add(id);
      }
      response.writeHead(fail ? 500 : 200, { "content-type": "text/plain" });
      response.end(fail ? "injected failure" : "ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
  receiver.url = `http://${LOOPBACK}:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/* ------------------------------------------------------------ the run */

async function main(): Promise<void> {
  const opts = options();
  let offsetMs = 0;
  const dispatcherClock = () => new Date(Date.now() + offsetMs);
  const receivers: Receiver[] = [];
  let stack: LocalStack | null = null;
  const stop = stopOnceOnExit(async () => {
    for (const receiver of receivers) receiver.server.close();
    await stack?.stop();
  });

  try {
    console.log(
      `Webhooks benchmark: ${opts.endpoints} endpoints over ${opts.users} users, ${opts.rate} events/s for ${opts.seconds} s, receivers failing ${Math.round(opts.failureRate * 100)} % of attempts`,
    );
    console.log(`Machine: ${availableParallelism()} cores, load ${loadavg()[0]!.toFixed(1)}`);
    stack = await startLocalStack({
      port: 0,
      dataDir: null,
      fresh: true,
      staticDir: null,
      env: {
        ...process.env,
        ...Object.fromEntries(KEY_SECRET_NAMES.map((name) => [name, undefined])),
        LOG_LEVEL: "warn",
        PASSWORD_HASH_COST: "1024",
      },
      webhookDispatcher: { clock: dispatcherClock, pollMs: 1_000 },
    });
    const ctx = stack.core;

    // Users, each with two accounts (the first funded) and its share of the endpoints.
    const users = await inBatches(opts.users, 4, async (index) => {
      const caller = await testCaller(ctx, `bench-webhooks-${index}-${Date.now()}@example.com`);
      await allowMoneyForTests(ctx, caller.userId);
      const open = async (name: string) =>
        (await createCustomerAccount(ctx, caller.userId, CreateAccountInput.parse({ name, currency: "USD" }))).account;
      const [from, to] = [await open("Checking"), await open("Savings")];
      await fundAccount(ctx, caller, from, "5000.00");
      return { caller, from, to, receivers: [] as Receiver[] };
    });
    for (let index = 0; index < opts.endpoints; index++) {
      const receiver = await startBenchReceiver(opts.failureRate);
      receivers.push(receiver);
      const user = users[index % users.length]!;
      user.receivers.push(receiver);
      await createEndpoint(ctx, user.caller.userId, {
        url: receiver.url,
        description: `bench ${index}`,
        event_types: SUBSCRIBED,
        enabled: true,
      });
    }
    // Set-up events (the funding) came before the endpoints; only what follows is delivered.
    await sleep(ctx.config.FEED_SETTLE_MS + 50);
    const startedAt = new Date().toISOString();

    // Load: R transfers per second, paced by the wall clock, users in turn.
    const total = opts.rate * opts.seconds;
    const loadStarted = performance.now();
    const inFlight: Promise<unknown>[] = [];
    let failedTransfers = 0;
    for (let made = 0; made < total; made++) {
      const due = loadStarted + (made * 1000) / opts.rate;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const user = users[made % users.length]!;
      inFlight.push(
        transfer(
          ctx,
          user.caller.userId,
          { from_account_id: user.from.id, to_account_id: user.to.id, amount: "1.00" },
          null,
        ).catch(() => {
          failedTransfers += 1;
        }),
      );
    }
    await Promise.all(inFlight);
    const loadSeconds = (performance.now() - loadStarted) / 1000;

    // What was produced, as the events list reads it (independent of the dispatcher).
    let events = 0;
    let expected = 0;
    const expectedIds = new Map<Receiver, Set<string>>();
    await sleep(ctx.config.FEED_SETTLE_MS + 50);
    for (const user of users) {
      const ids: string[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await listEvents(ctx, user.caller.userId, { types: SUBSCRIBED, limit: 100, after });
        ids.push(...page.data.filter((event) => event.created_at >= startedAt).map((event) => event.id));
        if (!page.has_more || !page.next_after) break;
        after = page.next_after;
      }
      events += ids.length;
      expected += ids.length * user.receivers.length;
      for (const receiver of user.receivers) expectedIds.set(receiver, new Set(ids));
    }
    const missing = () =>
      receivers.reduce(
        (sum, receiver) => sum + [...expectedIds.get(receiver)!].filter((id) => !receiver.delivered.has(id)).length,
        0,
      );
    const firstAttempts = () => receivers.reduce((sum, receiver) => sum + receiver.first.size, 0);
    const dispatcher = stack.webhookDispatcher;
    /** Waits until the dispatcher has made QUIET_ROUNDS rounds in a row that recorded and attempted nothing. */
    const caughtUp = async () => {
      for (let quiet = 0; quiet < QUIET_ROUNDS; ) {
        const round = await dispatcher.nextRound();
        quiet = round.attempted === 0 && round.recorded === 0 ? quiet + 1 : 0;
      }
    };

    // Every first attempt, in real time.
    await caughtUp();
    const firstDone = (performance.now() - loadStarted) / 1000;
    // The retries: the dispatcher's clock moves past each step of the schedule (jitter included).
    const moves: string[] = [];
    for (const waitMs of RETRY_SCHEDULE_MS) {
      if (missing() === 0) break;
      offsetMs += Math.ceil(waitMs * (1 + JITTER)) + 1_000;
      moves.push(offsetMs < 120_000 ? `${Math.round(offsetMs / 1000)} s` : `${Math.round(offsetMs / 60_000)} min`);
      await caughtUp();
    }

    const latencies = receivers
      .flatMap((receiver) => [...receiver.first.values()].map((first) => first.arrivedMs - first.committedMs))
      .sort((a, b) => a - b);
    const delivered = receivers.reduce((sum, receiver) => sum + receiver.delivered.size, 0);
    const requests = receivers.reduce((sum, receiver) => sum + receiver.requests, 0);
    const duplicates = receivers.reduce((sum, receiver) => sum + receiver.duplicates, 0);

    console.log("");
    console.log(`Transfers made:           ${total - failedTransfers} of ${total} in ${loadSeconds.toFixed(1)} s`);
    console.log(`Events produced:          ${events} (${SUBSCRIBED.join(", ")}, from the events list)`);
    console.log(`Deliveries expected:      ${expected} (events x endpoints subscribed)`);
    console.log(`Delivered (distinct ids): ${delivered}`);
    console.log(`Lost (never answered 2xx): ${missing()}`);
    console.log(`Duplicates after a 2xx:   ${duplicates}`);
    console.log(
      `First-attempt latency:    p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms (commit -> receiver; every first attempt made ${firstDone.toFixed(1)} s after the load began)`,
    );
    console.log(`Retries (attempts after the first): ${requests - firstAttempts()} of ${requests} attempts`);
    console.log(
      `Retries were driven by moving the dispatcher's clock ahead, not waited for: ${moves.length > 0 ? moves.join(", ") : "not needed"}`,
    );
  } finally {
    await stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
