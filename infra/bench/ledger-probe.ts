/**
 * What each kind of store call costs, against the raw 3-item TransactWriteItems ceiling:
 * `npx tsx infra/bench/ledger-probe.ts [--workers 16] [--duration 5]`
 *
 * The ledger's write path with separate instances (Lambda) reads its chains' heads or guesses
 * them, and a wrong guess costs a cancelled transaction. This probe measures, with the same
 * item sizes, on its own DynamoDB Local (stopped on exit): the ceiling (3 conditional Puts to new
 * keys), a head read (Query, Limit 1, consistent), a GetItem, a cancelled 3-item transaction
 * (ALL_OLD returned), the floor of any read-then-write design (2 head Queries, then the 3 Puts,
 * with no contention at all), and the write a no-read design would send (a journal Put and two
 * conditional ADD Updates of balance items), over 100 items and with one hot item in every write.
 * Each is measured right after a ceiling run and printed as a share of it (the load drifts).
 */
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { loadConfig } from "@fintech/core/shared/config";
import { createContext, type CoreContext } from "@fintech/core/shared/context";
import { ensureTable } from "../local/bootstrap";
import "../local/cli";
import { startDynamoDbLocal, type DynamoDbLocal } from "../local/dynamodb-local";
import { releaseStore, stopOnceOnExit } from "./teardown";

const { values } = parseArgs({
  options: { workers: { type: "string", default: "16" }, duration: { type: "string", default: "5" } },
  strict: true,
});
const workers = Number(values.workers);
const duration = Number(values.duration);
if (!Number.isInteger(workers) || workers < 1 || !Number.isInteger(duration) || duration < 1)
  throw new Error("--workers and --duration must be positive integers");

const BALANCES = 100;
/** About the size of a real version item (the ledger benchmark prints the real items' size). */
const padding = "x".repeat(1_000);

async function measure(ops: () => Promise<unknown>, seconds: number): Promise<number> {
  let done = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < deadline) {
        await ops();
        done += 1;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

async function main(): Promise<void> {
  const tableName = `bench-probe-${randomUUID().slice(0, 8)}`;
  let dynamo: DynamoDbLocal | null = null;
  let ctx: CoreContext | null = null;
  const stop = stopOnceOnExit(() => releaseStore(tableName, ctx ? [ctx] : [], dynamo));
  try {
    dynamo = await startDynamoDbLocal();
    ctx = createContext(
      loadConfig({
        STAGE: "bench",
        TABLE_NAME: tableName,
        DYNAMODB_ENDPOINT: dynamo.endpoint,
        S3_ENDPOINT: "http://127.0.0.1:9",
        LOG_LEVEL: "silent",
      }),
    );
    const db = ctx.db;
    await ensureTable(db);
    const table = db.table;
    const balanceKey = (n: number) => ({ pk: `PROBE#${n}`, sk: "BAL#000000000001" });
    for (let n = 0; n < BALANCES; n++) {
      await db.doc.send(
        new PutCommand({ TableName: table, Item: { ...balanceKey(n), available: 1e12, version: 1, padding } }),
      );
    }
    const pick = () => Math.floor(Math.random() * BALANCES);
    const pair = () => {
      const a = pick();
      return [a, (a + 1 + Math.floor(Math.random() * (BALANCES - 1))) % BALANCES] as const;
    };
    const put = (id: string, index: number) => ({
      Put: {
        TableName: table,
        Item: {
          pk: `RAW#${id}#${index}`,
          sk: "BAL#000000000001",
          padding,
          gsi1pk: `RAW#${id}#${index}`,
          gsi1sk: "t",
          ...(index > 0 ? { gsi2pk: `RAWF#${id}`, gsi2sk: "t" } : {}),
        },
        ConditionExpression: "attribute_not_exists(pk)",
      },
    });
    const raw = () => {
      const id = randomUUID();
      return db.doc.send(new TransactWriteCommand({ TransactItems: [0, 1, 2].map((index) => put(id, index)) }));
    };
    const headQuery = () =>
      db.doc.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: "pk = :pk AND begins_with(sk, :bal)",
          ExpressionAttributeValues: { ":pk": `PROBE#${pick()}`, ":bal": "BAL#" },
          ScanIndexForward: false,
          Limit: 1,
          ConsistentRead: true,
        }),
      );
    const get = () => db.doc.send(new GetCommand({ TableName: table, Key: balanceKey(pick()), ConsistentRead: true }));
    const cancelled = () => {
      const [a, b] = pair();
      const existing = (n: number) => ({
        Put: {
          TableName: table,
          Item: { ...balanceKey(n), padding },
          ConditionExpression: "attribute_not_exists(pk)",
          ReturnValuesOnConditionCheckFailure: "ALL_OLD" as const,
        },
      });
      return db.doc
        .send(new TransactWriteCommand({ TransactItems: [put(randomUUID(), 0), existing(a), existing(b)] }))
        .catch(() => undefined);
    };
    const readThenWrite = async () => {
      await Promise.all([headQuery(), headQuery()]);
      await raw();
    };
    const adding = (a: number, b: number) => {
      const update = (n: number, delta: number) => ({
        Update: {
          TableName: table,
          Key: balanceKey(n),
          UpdateExpression: "ADD available :delta, version :one",
          ConditionExpression: "available >= :floor",
          ExpressionAttributeValues: { ":delta": delta, ":one": 1, ":floor": Math.max(0, -delta) },
        },
      });
      return db.doc.send(
        new TransactWriteCommand({ TransactItems: [put(randomUUID(), 0), update(a, -1), update(b, 1)] }),
      );
    };
    let conflicts = 0;
    const counted = (write: Promise<unknown>) =>
      write.catch(() => {
        conflicts += 1;
      });
    const phases: [string, () => Promise<unknown>][] = [
      ["raw TransactWriteItems, 3 Puts (ceiling)", raw],
      ["head Query (Limit 1, consistent)", headQuery],
      ["GetItem (consistent)", get],
      ["cancelled TransactWriteItems, 3 items, ALL_OLD", cancelled],
      ["2 head Queries then 3 Puts (read-then-write floor)", readThenWrite],
      ["Put + 2 conditional ADD Updates, 100 balances", () => counted(adding(...pair()))],
      [
        "Put + 2 conditional ADD Updates, one hot balance",
        () => counted(adding(0, 1 + Math.floor(Math.random() * (BALANCES - 1)))),
      ],
    ];
    console.log(
      `ledger probe: ${workers} workers, ${duration} s per phase (1 s warm-up each), DynamoDB Local in memory`,
    );
    // The JVM compiles DynamoDB Local's hot paths in its first seconds: warm it before measuring.
    await measure(raw, 10);
    // The machine's load drifts: each call is measured right after the ceiling, and set against it.
    const rows = [];
    for (const [name, op] of phases.slice(1)) {
      const ceiling = await measure(raw, duration);
      await measure(op, 1);
      conflicts = 0;
      const rate = await measure(op, duration);
      const cancelled = conflicts / (rate * duration);
      rows.push({
        call: name,
        "ops/s": rate.toFixed(0),
        "ceiling ops/s": ceiling.toFixed(0),
        "of ceiling": (rate / ceiling).toFixed(2),
        "cancelled/op": cancelled ? cancelled.toFixed(3) : "0",
      });
    }
    console.table(rows);
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
