/**
 * Live-feed benchmark:
 * `npm run bench:feeds -- --clients 200 --users 50 --rate 20 --duration 30 --idle 30 [--feed FEED_SETTLE_MS=50 ...]`
 *
 * Starts its own in-memory DynamoDB Local (stopped on exit, error and Ctrl-C) and serves the real
 * app over real HTTP on 127.0.0.1 (a free port). Registers U users with one account each, opens
 * N SSE clients of GET /api/grpc/ledger/stream (fetch + readSse, Bearer tokens), client i
 * watching user i mod U, then:
 *   1. live: writers POST deposits at a steady, open-loop rate spread over the users' accounts
 *      for --duration seconds; afterwards the clients are given --drain seconds at most to catch
 *      up. Per delivered event: commit-to-delivery latency = client receive time minus the
 *      event's commit time `at` (the outbox item's committed_at; one machine, one clock), and
 *      ack-to-delivery = receive time minus the moment the writer's HTTP 201 arrived. Events
 *      expected vs delivered per client, lost and duplicated (by transactionId+event+accountId).
 *   2. idle: no writes for --idle seconds (after a few seconds for the polling interval to grow
 *      to its maximum); every DynamoDB request the app makes is counted (all of them are the feed
 *      readers': nothing else runs) -> reads per idle connection per minute, and what 10,000
 *      signed-in browsers (one stream each) cost per hour in the cloud: DynamoDB reads and Lambda
 *      duration at the Feeds function's deployed memory and architecture (infra/stage.ts).
 * `--feed NAME=VALUE` (repeatable) gives the app other FEED_* settings, to show a trade-off.
 * Only 127.0.0.1 is contacted. The one Node process runs the server, the clients and the
 * writers; its CPU and event-loop delay are printed next to DynamoDB Local's CPU.
 */
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import type { Server } from "node:http";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { loadConfig, type AppConfig } from "@fintech/core/shared/config";
import { createContext, type CoreContext } from "@fintech/core/shared/context";
import { createLogger } from "@fintech/core/shared/logger";
import { ensureSystemAccounts } from "@fintech/core/ledger/accounts";
import { createApp } from "@fintech/functions/app";
import { LEDGER_FEED_PATH } from "@fintech/core/events/feed-paths";
import { ensureTable } from "../local/bootstrap";
import { EMBEDDED_FEED_SETTINGS } from "../local/feed-settings";
import "../local/cli"; // the local scripts' set-up: silences the SDK's Node 22 notice
import { releaseStore, stopOnceOnExit } from "./teardown";
import { startDynamoDbLocal, type DynamoDbLocal } from "../local/dynamodb-local";
import { freePort, LOOPBACK } from "../local/ports";
import { closeServer, listen } from "../local/server";
import { readSse, type SseStream } from "../local/sse-client";
import { inBatches } from "./concurrency";
import { FEEDS_FUNCTION } from "../stage";
import { localKeyEnv } from "../local/keys";

/** Lambda's architectures as the price list names them. */
type LambdaArchitecture = "arm64" | "x86_64";

/* ------------------------------------------------------------ prices (us-east-1, stated in the output) */

/**
 * DynamoDB on-demand, per million read request units (AWS's DynamoDB pricing page, us-east-1; the
 * output states the price it used, so a run can be checked against the page of its day).
 */
const USD_PER_MILLION_RRU = 0.125;
/** Lambda duration per GB-second, first tier (AWS's Lambda pricing page, us-east-1), by architecture. */
const USD_PER_GB_SECOND: Record<LambdaArchitecture, number> = { arm64: 0.0000133334, x86_64: 0.0000166667 };
/** Lambda requests, per million (AWS's Lambda pricing page, us-east-1, both architectures). */
const USD_PER_MILLION_INVOCATIONS = 0.2;
/** Signed-in browsers priced: each holds one stream, whatever its number of tabs. */
const PRICED_BROWSERS = 10_000;

interface Options {
  clients: number;
  users: number;
  rate: number;
  duration: number;
  drain: number;
  idle: number;
  idleRamp: number | null;
  feed: Record<string, string>;
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      clients: { type: "string", default: "200" },
      users: { type: "string", default: "50" },
      rate: { type: "string", default: "20" },
      duration: { type: "string", default: "30" },
      drain: { type: "string", default: "15" },
      idle: { type: "string", default: "30" },
      "idle-ramp": { type: "string" },
      feed: { type: "string", multiple: true, default: [] },
    },
    strict: true,
  });
  const num = (name: string, text: string, min: number, integer = true) => {
    const value = Number(text);
    if (!Number.isFinite(value) || (integer && !Number.isInteger(value)) || value < min)
      throw new Error(`--${name} must be ${integer ? "an integer" : "a number"} >= ${min}`);
    return value;
  };
  const feed: Record<string, string> = {};
  for (const setting of values.feed) {
    const match = /^(FEED_[A-Z_]+)=(.+)$/.exec(setting);
    if (!match) throw new Error(`--feed takes FEED_NAME=value, got '${setting}'`);
    feed[match[1]!] = match[2]!;
  }
  const opts = {
    clients: num("clients", values.clients, 1),
    users: num("users", values.users, 1),
    rate: num("rate", values.rate, 0.1, false),
    duration: num("duration", values.duration, 1),
    drain: num("drain", values.drain, 1),
    idle: num("idle", values.idle, 1),
    /** Default: FEED_LOOKBACK_MS + 5 s, so the late rescans no longer meet the live phase's items. */
    idleRamp: values["idle-ramp"] === undefined ? null : num("idle-ramp", values["idle-ramp"], 0),
    feed,
  };
  if (opts.users > opts.clients) throw new Error("--users must not exceed --clients (every user is watched)");
  return opts;
}

/* ------------------------------------------------------------ DynamoDB request accounting */

/** Every DynamoDB request the app sends, by operation, and the read request units it would bill. */
interface Counters {
  calls: Map<string, number>;
  readUnits: number;
}
const newCounters = (): Counters => ({ calls: new Map(), readUnits: 0 });
let counters = newCounters();

/**
 * Read units of one request if each item set is under 4 KB: 0.5 eventually consistent, 1 strongly
 * (also for an empty result).
 */
function readUnitsOf(name: string, input: Record<string, unknown>): number {
  const unit = input.ConsistentRead ? 1 : 0.5;
  if (name === "Query" || name === "GetItem" || name === "Scan") return unit;
  if (name === "BatchGetItem") {
    const requests = Object.values(
      (input.RequestItems ?? {}) as Record<string, { Keys?: unknown[]; ConsistentRead?: boolean }>,
    );
    return requests.reduce((sum, table) => sum + (table.Keys?.length ?? 0) * (table.ConsistentRead ? 1 : 0.5), 0);
  }
  if (name === "TransactGetItems") return 2 * ((input.TransactItems as unknown[] | undefined)?.length ?? 0);
  return 0;
}

function instrument(ctx: CoreContext): void {
  ctx.db.raw.middlewareStack.add(
    (next, context) => async (args) => {
      const name = String(context.commandName ?? "unknown").replace(/Command$/, "");
      counters.calls.set(name, (counters.calls.get(name) ?? 0) + 1);
      counters.readUnits += readUnitsOf(name, args.input as Record<string, unknown>);
      return next(args);
    },
    { step: "initialize", name: "benchCounter" },
  );
}
const totalCalls = (c: Counters) => [...c.calls.values()].reduce((sum, n) => sum + n, 0);
const callList = (c: Counters) => [...c.calls].map(([name, n]) => `${name} ${n}`).join(", ") || "none";

/* ------------------------------------------------------------ CPU of this process and of DynamoDB Local */

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** The JVM serving the port (found by its command line; read only, never signalled). */
function javaPid(port: number): number | null {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      const at = args.indexOf("-port");
      // The JVM itself, not the watchdog shell whose command line carries the same arguments.
      if (
        args[0]?.endsWith("java") &&
        args.some((arg) => arg.endsWith("DynamoDBLocal.jar")) &&
        args[at + 1] === String(port)
      )
        return Number(entry);
    } catch {
      // The process ended while we looked.
    }
  }
  return null;
}

function cpuSecondsOf(pid: number | null): number {
  if (pid === null) return Number.NaN;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

interface CpuWindow {
  stop(): { nodePercent: number; dynamoPercent: number; loopP99Ms: number; loopMaxMs: number };
}

/** CPU use (100% = one core) of this process and DynamoDB Local, and this event loop's delay, over a window. */
function cpuWindow(dynamoPid: number | null): CpuWindow {
  const started = performance.now();
  const node = process.cpuUsage();
  const dynamo = cpuSecondsOf(dynamoPid);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  return {
    stop() {
      loop.disable();
      const seconds = (performance.now() - started) / 1000;
      const used = process.cpuUsage(node);
      return {
        nodePercent: ((used.user + used.system) / 1e6 / seconds) * 100,
        dynamoPercent: ((cpuSecondsOf(dynamoPid) - dynamo) / seconds) * 100,
        loopP99Ms: loop.percentile(99) / 1e6,
        loopMaxMs: loop.max / 1e6,
      };
    },
  };
}

/* ------------------------------------------------------------ HTTP helpers */

interface BenchUser {
  index: number;
  id: string;
  token: string;
  accountId: string;
}

async function postJson(base: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : null) as { data?: Record<string, unknown> } | null,
    text,
  };
}

async function registerUser(base: string, index: number, run: string): Promise<BenchUser> {
  const registered = await postJson(base, "/api/v1/auth/register", {
    email: `feed-${run}-${index}@bench.example`,
    password: "bench password 1",
    first_name: "Feed",
    last_name: `Bench${index}`,
  });
  if (registered.status !== 201) throw new Error(`register failed: ${registered.status} ${registered.text}`);
  const { token, user } = registered.body!.data as { token: string; user: { id: string } };
  const account = await postJson(
    base,
    "/api/v1/ledger/accounts",
    { name: `Feed ${index}`, currency: "USD" },
    { Authorization: `Bearer ${token}` },
  );
  if (account.status !== 201) throw new Error(`account failed: ${account.status} ${account.text}`);
  return { index, id: user.id, token, accountId: String(account.body!.data!.id) };
}

/* ------------------------------------------------------------ SSE clients */

interface Delivery {
  client: number;
  key: string;
  transactionId: string;
  receivedAt: number;
  committedAt: number;
}

interface Client {
  index: number;
  user: BenchUser;
  /** Deliveries by transactionId|event|accountId. */
  seen: Map<string, number>;
  stream: SseStream | null;
  /** Streams the server ended cleanly ("end of stream" comment), and streams that broke otherwise. */
  cleanEnds: number;
  drops: number;
  failure: string | null;
}

const deliveries: Delivery[] = [];
let clientsStopping = false;

/** One SSE client: reads until told to stop; when the server ends the stream, resumes with Last-Event-ID. */
async function runClient(base: string, client: Client, retryMs: number, ready: () => void): Promise<void> {
  let lastEventId: string | undefined;
  let announced = false;
  while (!clientsStopping) {
    const headers: Record<string, string> = { Authorization: `Bearer ${client.user.token}` };
    if (lastEventId) headers["Last-Event-ID"] = lastEventId;
    let response: Response;
    try {
      response = await fetch(`${base}${LEDGER_FEED_PATH}?userId=${encodeURIComponent(client.user.id)}`, {
        headers,
      });
    } catch (error) {
      if (!announced) throw error;
      // After the first open, behave like EventSource: wait the retry hint and resume.
      client.drops += 1;
      await sleep(retryMs);
      continue;
    }
    if (response.status !== 200 || !response.body) {
      client.failure = `stream answered ${response.status}: ${(await response.text()).slice(0, 200)}`;
      ready();
      return;
    }
    const stream = readSse(response.body);
    client.stream = stream;
    try {
      for (let index = 0; ; index++) {
        const message = await stream.waitFor(() => true, index);
        // waitFor resolves from the parser's callback: this is (to a microtask) when the bytes were parsed.
        const receivedAt = Date.now();
        if (message.event === "cursor") {
          if (!announced) {
            announced = true;
            ready();
          }
          continue;
        }
        const data = JSON.parse(message.data) as { transactionId?: string; accountId?: string; at: string };
        const key = `${data.transactionId ?? "-"}|${message.event ?? "message"}|${data.accountId ?? ""}`;
        client.seen.set(key, (client.seen.get(key) ?? 0) + 1);
        deliveries.push({
          client: client.index,
          key,
          transactionId: data.transactionId ?? "",
          receivedAt,
          committedAt: Date.parse(data.at),
        });
      }
    } catch {
      // The stream ended (the server's clean end, or our close()).
    }
    lastEventId = stream.lastEventId() ?? lastEventId;
    if (clientsStopping) break;
    if (stream.comments.some((comment) => comment.startsWith("end of stream"))) client.cleanEnds += 1;
    else client.drops += 1;
  }
}

/* ------------------------------------------------------------ writers */

interface Write {
  user: BenchUser;
  transactionId: string | null;
  ackAt: number;
  status: number;
  latencyMs: number;
}

/** Deposits at a steady rate (open loop: each starts on schedule, whether or not the previous one has answered). */
async function runWriters(
  base: string,
  users: BenchUser[],
  rate: number,
  seconds: number,
  run: string,
): Promise<Write[]> {
  const writes: Promise<Write>[] = [];
  const started = performance.now();
  const total = Math.floor(rate * seconds);
  for (let k = 0; k < total; k++) {
    const due = started + (k * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const user = users[k % users.length]!;
    writes.push(
      (async () => {
        const begin = performance.now();
        try {
          const reply = await postJson(
            base,
            "/api/v1/ledger/transactions/deposit",
            { account_id: user.accountId, amount: "1.00" },
            { Authorization: `Bearer ${user.token}`, "Idempotency-Key": `feeds-${run}-${k}` },
          );
          const ackAt = Date.now();
          return {
            user,
            transactionId: reply.status === 201 ? String(reply.body!.data!.id) : null,
            ackAt,
            status: reply.status,
            latencyMs: performance.now() - begin,
          };
        } catch {
          return { user, transactionId: null, ackAt: Date.now(), status: 0, latencyMs: performance.now() - begin };
        }
      })(),
    );
  }
  return Promise.all(writes);
}

/** The events one deposit announces in its owner's feed. */
const expectedKeys = (write: Write) => [
  `${write.transactionId}|balanceUpdate|${write.user.accountId}`,
  `${write.transactionId}|transactionCreated|`,
];

/* ------------------------------------------------------------ figures */

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const ms = (value: number) => (Number.isFinite(value) ? `${Math.round(value)} ms` : "-");
const usd = (value: number) => `$${value.toFixed(value < 1 ? 4 : 2)}`;
const pct = (value: number) => (Number.isFinite(value) ? `${value.toFixed(0)}%` : "n/a");

function summary(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
    count: sorted.length,
  };
}

/* ------------------------------------------------------------ main */

async function main(): Promise<void> {
  const opts = options();
  const run = randomUUID().slice(0, 8);
  const tableName = `bench-feeds-${run}`;
  let dynamo: DynamoDbLocal | null = null;
  let ctx: CoreContext | null = null;
  let server: Server | null = null;
  const clients: Client[] = [];
  const appWarnings = new Map<string, number>();
  const stop = stopOnceOnExit(async () => {
    clientsStopping = true;
    await Promise.all(clients.map((client) => client.stream?.close()));
    if (server) await closeServer(server);
    await releaseStore(tableName, ctx ? [ctx] : [], dynamo);
  });

  try {
    dynamo = await startDynamoDbLocal();
    const config: AppConfig = loadConfig({
      STAGE: "bench",
      TABLE_NAME: tableName,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      S3_ENDPOINT: "http://127.0.0.1:9",
      ...localKeyEnv(null),
      LOG_LEVEL: "silent",
      // Set-up only: cheap password hashes and no sign-up limit for U registrations from one address.
      PASSWORD_HASH_COST: "1024",
      AUTH_RATE_LIMIT_PER_IP: "1000000",
      // Client i watches user i mod U with that user's token: every user may hold that many streams.
      FEED_STREAMS_PER_USER: String(Math.max(5, Math.ceil(opts.clients / opts.users))),
      // The embedded stack's settings, unless --feed says otherwise (e.g. the cloud's polling).
      ...EMBEDDED_FEED_SETTINGS,
      ...opts.feed,
    });
    // The app's warnings and errors (a feed stream that failed, say) are counted, not printed.
    ctx = createContext(config, {
      logger: createLogger("warn", {}, (line) => {
        const record = JSON.parse(line) as { message?: string; error?: { message?: string } };
        const label = `${record.message ?? "?"}${record.error?.message ? `: ${record.error.message.slice(0, 120)}` : ""}`;
        appWarnings.set(label, (appWarnings.get(label) ?? 0) + 1);
      }),
    });
    const core = ctx;
    await ensureTable(core.db);
    await ensureSystemAccounts(core);
    instrument(core);
    const port = await freePort();
    server = await listen(createApp(core), port);
    const base = `http://${LOOPBACK}:${port}`;
    const dynamoPid = javaPid(dynamo.port);
    const feedSettings = Object.entries(config)
      .filter(([name]) => name.startsWith("FEED_"))
      .map(([name, value]) => `${name}=${value}${name in opts.feed ? " (set)" : ""}`)
      .join(" ");

    console.log(
      `feeds benchmark: ${opts.clients} SSE clients over ${opts.users} users (${(opts.clients / opts.users).toFixed(1)} clients per user), ${opts.rate} deposits/s for ${opts.duration} s, idle ${opts.idle} s`,
    );
    console.log(
      `DynamoDB Local (in memory) on ${dynamo.endpoint}${dynamoPid ? ` (pid ${dynamoPid})` : ""}; app on ${base}`,
    );
    console.log(`settings: ${feedSettings}`);

    const loadAtStart = loadavg()[0]!;
    const setupStarted = performance.now();
    const users = await inBatches(opts.users, 8, (index) => registerUser(base, index, run));
    console.log(
      `setup: ${opts.users} users registered with one account each over HTTP in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`,
    );

    // Open every stream and wait for its first cursor event: from then on it is live.
    const openStarted = performance.now();
    const readiness: Promise<void>[] = [];
    const running: Promise<void>[] = [];
    for (let index = 0; index < opts.clients; index++) {
      const client: Client = {
        index,
        user: users[index % users.length]!,
        seen: new Map(),
        stream: null,
        cleanEnds: 0,
        drops: 0,
        failure: null,
      };
      clients.push(client);
      readiness.push(
        new Promise<void>((resolve) =>
          running.push(
            runClient(base, client, config.FEED_RETRY_MS, resolve).catch((error: unknown) => {
              client.failure = (error as Error).message;
              resolve();
            }),
          ),
        ),
      );
    }
    await Promise.all(readiness);
    const failed = clients.filter((client) => client.failure);
    if (failed.length) throw new Error(`${failed.length} clients failed to open: ${failed[0]!.failure}`);
    console.log(`${opts.clients} streams open in ${((performance.now() - openStarted) / 1000).toFixed(1)} s`);

    /* ---- live phase */
    counters = newCounters();
    const liveCpu = cpuWindow(dynamoPid);
    const liveStarted = performance.now();
    const writes = await runWriters(base, users, opts.rate, opts.duration, run);
    const writeSeconds = (performance.now() - liveStarted) / 1000;
    const liveCalls = counters;
    const live = liveCpu.stop();
    const acked = writes.filter((write) => write.transactionId);
    const writeErrors = writes.length - acked.length;
    console.log(
      `live: ${acked.length} deposits acknowledged in ${writeSeconds.toFixed(1)} s (${(acked.length / writeSeconds).toFixed(1)}/s), ${writeErrors} failed; draining`,
    );

    // What each client should have: the two events of every deposit of its user.
    const expectedOf = new Map<string, string[]>();
    for (const write of acked) {
      const keys = expectedOf.get(write.user.id) ?? [];
      keys.push(...expectedKeys(write));
      expectedOf.set(write.user.id, keys);
    }
    const missingOf = (client: Client) =>
      (expectedOf.get(client.user.id) ?? []).filter((key) => !client.seen.has(key)).length;
    const drainStarted = performance.now();
    while (performance.now() - drainStarted < opts.drain * 1000 && clients.some((client) => missingOf(client) > 0))
      await sleep(50);
    const drainSeconds = (performance.now() - drainStarted) / 1000;

    /* ---- delivery figures */
    const ackOf = new Map(acked.map((write) => [write.transactionId!, write.ackAt]));
    const commitLatency = summary(deliveries.map((delivery) => delivery.receivedAt - delivery.committedAt));
    const ackLatency = summary(
      deliveries
        .filter((delivery) => ackOf.has(delivery.transactionId))
        .map((delivery) => delivery.receivedAt - ackOf.get(delivery.transactionId)!),
    );
    const writeLatency = summary(writes.map((write) => write.latencyMs));
    let expectedTotal = 0;
    let delivered = 0;
    let lost = 0;
    let duplicates = 0;
    let unexpected = 0;
    const perClientDelivered: number[] = [];
    for (const client of clients) {
      const expected = new Set(expectedOf.get(client.user.id) ?? []);
      expectedTotal += expected.size;
      let mine = 0;
      for (const [key, count] of client.seen) {
        mine += count;
        duplicates += count - 1;
        if (!expected.has(key)) unexpected += 1;
      }
      delivered += mine;
      perClientDelivered.push(mine);
      lost += [...expected].filter((key) => !client.seen.has(key)).length;
    }
    const perClient = summary(perClientDelivered);
    const cleanEnds = clients.reduce((sum, client) => sum + client.cleanEnds, 0);
    const drops = clients.reduce((sum, client) => sum + client.drops, 0);
    // A write whose commit took longer than the settle window can be passed by a reader and then
    // waits for the next late rescan (FEED_LATE_SCAN_MS) or a later item of its chain.
    const stampOf = new Map<string, number>();
    for (const delivery of deliveries)
      stampOf.set(
        delivery.transactionId,
        Math.min(stampOf.get(delivery.transactionId) ?? Infinity, delivery.committedAt),
      );
    const commitTimes = acked
      .filter((write) => stampOf.has(write.transactionId!))
      .map((write) => write.ackAt - stampOf.get(write.transactionId!)!);
    const slowCommits = commitTimes.filter((took) => took > config.FEED_SETTLE_MS).length;
    const overSecond = deliveries.filter((delivery) => delivery.receivedAt - delivery.committedAt > 1000).length;

    /* ---- idle phase */
    const idleRamp = opts.idleRamp ?? config.FEED_LOOKBACK_MS / 1000 + 5;
    console.log(
      `idle: ${idleRamp} s for polling to slow down and the lookback window to pass, then ${opts.idle} s counted`,
    );
    await sleep(idleRamp * 1000);
    counters = newCounters();
    const idleCpu = cpuWindow(dynamoPid);
    const idleStarted = performance.now();
    await sleep(opts.idle * 1000);
    const idleSeconds = (performance.now() - idleStarted) / 1000;
    const idleCalls = counters;
    const idle = idleCpu.stop();
    const open = clients.filter((client) => client.stream && !client.failure).length;
    const readsPerConnectionMinute = totalCalls(idleCalls) / open / (idleSeconds / 60);
    const unitsPerRead = idleCalls.readUnits / Math.max(1, totalCalls(idleCalls));
    // What the settings imply if a read took no time: a poll every FEED_POLL_MAX_MS plus a rescan
    // every FEED_LATE_SCAN_MS.
    const impliedPerMinute = 60_000 / config.FEED_POLL_MAX_MS + 60_000 / config.FEED_LATE_SCAN_MS;

    /* ---- cost arithmetic */
    const pricedReadsPerMinute = Math.max(readsPerConnectionMinute, impliedPerMinute);
    const readsPerHour = pricedReadsPerMinute * 60 * PRICED_BROWSERS;
    const dynamoPerHour = (readsPerHour * unitsPerRead * USD_PER_MILLION_RRU) / 1e6;
    // The Feeds function as the stacks deploy it (infra/stage.ts FEEDS_FUNCTION), not a copy.
    const deployed: { memoryMB: number; architecture: LambdaArchitecture } = FEEDS_FUNCTION;
    const other: LambdaArchitecture = deployed.architecture === "arm64" ? "x86_64" : "arm64";
    const feedsMemoryGb = deployed.memoryMB / 1024;
    const gbSecondsPerHour = PRICED_BROWSERS * 3600 * feedsMemoryGb;
    const lambdaPerHour = gbSecondsPerHour * USD_PER_GB_SECOND[deployed.architecture];
    const invocationsPerHour = PRICED_BROWSERS * (3600 / config.FEED_MAX_SECONDS);
    const invokePerHour = (invocationsPerHour * USD_PER_MILLION_INVOCATIONS) / 1e6;

    const lines = [
      "",
      "==================== feeds benchmark figures ====================",
      `clients ${opts.clients} over ${opts.users} users (${(opts.clients / opts.users).toFixed(1)} per user); writers ${opts.rate} deposits/s for ${opts.duration} s (open loop)`,
      `settings: ${feedSettings}`,
      `machine load average (1 min) at start ${loadAtStart.toFixed(1)}, at end ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores: other work on a shared machine inflates every latency below`,
      `deposits: ${acked.length} acknowledged, ${writeErrors} failed; deposit HTTP latency p50 ${ms(writeLatency.p50)}, p99 ${ms(writeLatency.p99)}`,
      `commit-to-delivery (receive time - stamp 'at', taken by the writer just before its TransactWriteItems): p50 ${ms(commitLatency.p50)}  p95 ${ms(commitLatency.p95)}  p99 ${ms(commitLatency.p99)}  max ${ms(commitLatency.max)}  (${commitLatency.count} deliveries)`,
      `ack-to-delivery    (receive time - writer's 201 received): p50 ${ms(ackLatency.p50)}  p95 ${ms(ackLatency.p95)}  p99 ${ms(ackLatency.p99)}  max ${ms(ackLatency.max)}`,
      `events: expected ${expectedTotal}, delivered ${delivered}; per client expected ${(expectedTotal / opts.clients).toFixed(1)}, delivered p50 ${perClient.p50} min ${Math.min(...perClientDelivered)} max ${perClient.max}`,
      `lost ${lost} (must be 0)   duplicates ${duplicates} (must be 0)   unexpected ${unexpected}   drain ${drainSeconds.toFixed(1)} s`,
      `streams: ${cleanEnds} ended cleanly and resumed, ${drops} broke and resumed; app warnings: ${[...appWarnings].map(([label, n]) => `${label} x${n}`).join("; ") || "none"}`,
      `deliveries over 1 s: ${overSecond} (${((overSecond / Math.max(1, deliveries.length)) * 100).toFixed(1)}%); deposits whose 201 came > FEED_SETTLE_MS after their stamp 'at': ${slowCommits} of ${commitTimes.length} (at-to-201 p50 ${ms(summary(commitTimes).p50)}, p99 ${ms(summary(commitTimes).p99)})`,
      `live phase: DynamoDB requests ${(totalCalls(liveCalls) / writeSeconds).toFixed(0)}/s (${callList(liveCalls)}); CPU node ${pct(live.nodePercent)}, DynamoDB Local ${pct(live.dynamoPercent)} (200% = both cores); event-loop delay p99 ${live.loopP99Ms.toFixed(0)} ms, max ${live.loopMaxMs.toFixed(0)} ms`,
      `idle phase: ${totalCalls(idleCalls)} DynamoDB requests in ${idleSeconds.toFixed(1)} s from ${open} open streams (${callList(idleCalls)}); CPU node ${pct(idle.nodePercent)}, DynamoDB Local ${pct(idle.dynamoPercent)}`,
      `DynamoDB reads per idle connection per minute: ${readsPerConnectionMinute.toFixed(1)}  (settings imply ${impliedPerMinute.toFixed(0)} if reads took no time: 60000/FEED_POLL_MAX_MS + 60000/FEED_LATE_SCAN_MS; ${unitsPerRead.toFixed(2)} RRU each: eventually consistent gsi2 Query under 4 KB = 0.5 RRU, an empty one too)`,
      `  cost below uses max(measured, implied) = ${Math.max(readsPerConnectionMinute, impliedPerMinute).toFixed(1)} reads/min: in Lambda a read takes milliseconds, so the implied rate is what a connection makes`,
      `cloud cost for ${PRICED_BROWSERS.toLocaleString("en")} signed-in browsers, one open stream each, for one hour (us-east-1 list prices):`,
      `  DynamoDB reads (on-demand, $${USD_PER_MILLION_RRU} per million RRU): ${pricedReadsPerMinute.toFixed(1)} reads/min x 60 x ${PRICED_BROWSERS} x ${unitsPerRead.toFixed(2)} RRU x $${USD_PER_MILLION_RRU}/1e6 = ${usd(dynamoPerHour)} per hour`,
      `  Lambda duration, each stream holding one Feeds invocation as deployed (infra/stage.ts: ${deployed.memoryMB} MB, ${deployed.architecture}):`,
      `    ${PRICED_BROWSERS} x 3600 s x ${feedsMemoryGb} GB = ${gbSecondsPerHour.toLocaleString("en")} GB-s x $${USD_PER_GB_SECOND[deployed.architecture]}/GB-s = ${usd(lambdaPerHour)} per hour (on ${other} at $${USD_PER_GB_SECOND[other]}: ${usd(gbSecondsPerHour * USD_PER_GB_SECOND[other])})`,
      `  Lambda requests: ${PRICED_BROWSERS} x 3600/${config.FEED_MAX_SECONDS} s (FEED_MAX_SECONDS) = ${invocationsPerHour.toLocaleString("en")} x $${USD_PER_MILLION_INVOCATIONS}/1e6 = ${usd(invokePerHour)} per hour`,
      `  total ~ ${usd(dynamoPerHour + lambdaPerHour + invokePerHour)} per hour; Lambda duration is ${(lambdaPerHour / Math.max(dynamoPerHour, 1e-9)).toFixed(0)}x the reads`,
      `target: p99 commit-to-delivery < 1000 ms at ${opts.clients} clients -> ${commitLatency.p99 < 1000 ? "met" : "MISSED"}; lost 0 -> ${lost === 0 ? "met" : "MISSED"}; duplicates 0 -> ${duplicates === 0 ? "met" : "MISSED"}`,
      "=================================================================",
    ];
    console.log(lines.join("\n"));
    if (lost > 0 || duplicates > 0 || unexpected > 0) process.exitCode = 1;
  } finally {
    await stop();
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
