/**
 * One client process of the cross-process ledger property test (ledger.processes.test.ts): a
 * Node process started with tsx, like one Lambda instance. For every plan it builds its own core
 * context on the plan's table (config from the environment, as a Lambda instance gets it; own
 * DynamoDB client, so its own account and head caches and chain queues: nothing shared with the
 * test or with the other clients), then performs the plan's requests one after the other through
 * the core services (a Lambda instance serves one request at a time) and reports every outcome.
 *
 * Protocol over the IPC channel (child_process.fork):
 *   child -> parent  {type: "ready"}                   once loaded (loading tsx takes seconds)
 *   parent -> child  {type: "plan", table, requests}   child builds its context, answers "armed"
 *                    (+ mutation, see Mutation)
 *   parent -> child  {type: "go"}                      sent to every client at once, after all are
 *                                                      armed: no client starts before the others
 *   child -> parent  {type: "done", results}           one result per request, in order
 *   child -> parent  {type: "paused", at}              only with a plan's `pause` (see Pause): the
 *                                                      client stopped inside its first write and
 *                                                      waits there for ever (the test kills it)
 * The process exits when the channel closes (also when the test process is gone). The test
 * imports only this module's types: importing it runs it.
 */
import { z } from "zod";
import { loadConfig } from "@fintech/core/shared/config";
import { createContext, type CoreContext } from "@fintech/core/shared/context";
import { AppError } from "@fintech/core/shared/errors";
import { postBatch } from "@fintech/core/ledger/batches";
import { setAccountLock } from "@fintech/core/ledger/controls";
import { isItemError } from "@fintech/core/ledger/decisions";
import { convertToCreditShards, execute, type Outcome } from "./commands";

const Key = z.string().min(1).nullable();
/** A batch (POST /ledger/transactions/batch): its items are the single requests' bodies plus their type. */
export const BatchClientRequest = z.object({
  fn: z.literal("batch"),
  owner: z.string(),
  body: z.object({ items: z.array(z.record(z.string(), z.unknown())) }),
  key: Key,
});
export type BatchClientRequest = z.infer<typeof BatchClientRequest>;
/** An admin locks or unlocks an account (controls.ts): nothing may leave a locked account. */
export const ControlClientRequest = z.object({
  fn: z.enum(["lock", "unlock"]),
  owner: z.string(),
  accountId: z.string(),
  key: z.null(),
});
export type ControlClientRequest = z.infer<typeof ControlClientRequest>;
const isControlRequest = (request: ClientRequest): request is ControlClientRequest =>
  request.fn === "lock" || request.fn === "unlock";
/** An admin converts an account to credit shards (credit-shards.ts), while others write to it. */
export const ConversionClientRequest = z.object({
  fn: z.literal("credit_shards"),
  owner: z.string(),
  accountId: z.string(),
  key: z.null(),
});
export type ConversionClientRequest = z.infer<typeof ConversionClientRequest>;
export const ClientRequest = z.discriminatedUnion("fn", [
  z.object({
    fn: z.enum(["deposit", "test_balance", "transfer"]),
    owner: z.string(),
    body: z.record(z.string(), z.unknown()),
    key: Key,
  }),
  z.object({ fn: z.enum(["post", "unpost"]), owner: z.string(), journalId: z.string(), key: Key }),
  BatchClientRequest,
  ControlClientRequest,
  ConversionClientRequest,
]);
/** What a client can be asked to do: the test kit's requests, batches, and an admin's locks and conversions. */
export type ClientRequest = z.infer<typeof ClientRequest>;

/**
 * Deliberate defects, to show that the test's checks have teeth. "unguarded_balances": every
 * item of a TransactWriteItems except the journal goes without its condition (no version guard,
 * no funds condition), as a write path without optimistic concurrency would. "unguarded_journals":
 * the journal item goes without its condition (no "only if absent" for a new journal, which is
 * the idempotency record, no version check on a status change). "unlocked_reads": every item
 * this instance reads says "not locked", as a write path that ignored locks would see it.
 */
export const Mutation = z.enum(["unguarded_balances", "unguarded_journals", "unlocked_reads"]);
export type Mutation = z.infer<typeof Mutation>;

/**
 * Where a client stops for good, so that the test can SIGKILL it at a known point of a request
 * (a Lambda instance that dies mid-request). "before_write": its first TransactWriteItems never
 * leaves the process. "after_commit": its first TransactWriteItems that DynamoDB accepted has
 * committed, and the reply is never read (the caller of the service never hears of it).
 */
export const Pause = z.enum(["before_write", "after_commit"]);
export type Pause = z.infer<typeof Pause>;

export const ToClient = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("plan"),
    table: z.string().min(1),
    requests: z.array(ClientRequest),
    mutation: Mutation.optional(),
    pause: Pause.optional(),
  }),
  z.object({ type: z.literal("go") }),
]);
export type ToClient = z.infer<typeof ToClient>;

/**
 * What one request got. `unexpected` is anything that is not a client error (AppError): through
 * the HTTP API it would be a 500, e.g. a write that lost the race on every attempt.
 */
export type ClientOutcome =
  | Outcome
  /** A refused batch names its failing item. */
  | { ok: false; status: number; code: string; message: string; index: number }
  | { ok: false; status: 500; code: "unexpected"; message: string };

export interface ClientResult {
  outcome: ClientOutcome;
  /** TransactWriteItems calls the request made, and how many of them were cancelled. */
  writes: number;
  cancelled: number;
  /** Wall-clock start and end of the call (one machine, so comparable across clients). */
  startedAt: number;
  endedAt: number;
}

export type FromClient =
  | { type: "ready" }
  | { type: "armed" }
  | { type: "done"; results: ClientResult[] }
  | { type: "paused"; at: Pause };

type WriteItem = Record<
  string,
  | {
      Item?: Record<string, unknown>;
      ConditionExpression?: string;
      UpdateExpression?: string;
      ExpressionAttributeValues?: Record<string, unknown>;
      ExpressionAttributeNames?: Record<string, string>;
    }
  | undefined
>;

/** The item's entity, marshalled or not (the middleware may run before or after the document client's marshalling). */
const entityOf = (item: Record<string, unknown> | undefined) => {
  const entity = item?.entity;
  return typeof entity === "string" ? entity : (entity as { S?: string } | undefined)?.S;
};

function removeConditions(ctx: CoreContext, mutation: Mutation): void {
  const journals = mutation === "unguarded_journals";
  ctx.db.raw.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === "TransactWriteItemsCommand") {
        for (const item of (args.input as { TransactItems?: WriteItem[] }).TransactItems ?? []) {
          const write = item.Put ?? item.Update;
          if (!write?.ConditionExpression || (entityOf(write.Item) === "journal") !== journals) continue;
          delete write.ConditionExpression;
          // Placeholders only the condition used must go too (DynamoDB refuses unused ones).
          const used = new Set((write.UpdateExpression ?? "").match(/[:#][A-Za-z0-9_]+/g) ?? []);
          for (const name of Object.keys(write.ExpressionAttributeValues ?? {}))
            if (!used.has(name)) delete write.ExpressionAttributeValues![name];
          for (const name of Object.keys(write.ExpressionAttributeNames ?? {}))
            if (!used.has(name)) delete write.ExpressionAttributeNames![name];
          if (Object.keys(write.ExpressionAttributeValues ?? {}).length === 0) delete write.ExpressionAttributeValues;
          if (Object.keys(write.ExpressionAttributeNames ?? {}).length === 0) delete write.ExpressionAttributeNames;
        }
      }
      return next(args);
    },
    { step: "initialize", name: "ledgerProcessMutation" },
  );
}

/** Every item a Query or Get returns reads as not locked (marshalled or not). */
function ignoreLocks(ctx: CoreContext): void {
  ctx.db.raw.middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      const output = result.output as { Items?: Record<string, unknown>[]; Item?: Record<string, unknown> };
      for (const item of [...(output.Items ?? []), ...(output.Item ? [output.Item] : [])]) {
        if (item.locked === true) item.locked = false;
        else if ((item.locked as { BOOL?: boolean } | undefined)?.BOOL === true) item.locked = { BOOL: false };
      }
      return result;
    },
    { step: "initialize", name: "ledgerProcessIgnoreLocks" },
  );
}

/** Stops the instance at `at` in its first write (see Pause), tells the test, and never goes on. */
function pauseInFirstWrite(ctx: CoreContext, at: Pause): void {
  const forever = new Promise<never>(() => {});
  ctx.db.raw.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== "TransactWriteItemsCommand") return next(args);
      if (at === "before_write") {
        send({ type: "paused", at });
        return forever;
      }
      // A cancelled write (a lost race) throws and is retried: the pause waits for one that committed.
      await next(args);
      send({ type: "paused", at });
      return forever;
    },
    { step: "initialize", name: "ledgerProcessPause" },
  );
}

function send(message: FromClient): void {
  process.send!(message);
}

/** Counts this instance's TransactWriteItems calls and cancellations (the request's retries). */
function countWrites(ctx: CoreContext): { writes: number; cancelled: number } {
  const counts = { writes: 0, cancelled: 0 };
  ctx.db.raw.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== "TransactWriteItemsCommand") return next(args);
      counts.writes += 1;
      try {
        return await next(args);
      } catch (error) {
        if ((error as { name?: string }).name === "TransactionCanceledException") counts.cancelled += 1;
        throw error;
      }
    },
    { step: "initialize", name: "ledgerProcessWriteCount" },
  );
  return counts;
}

/** A batch through the core service; a client error becomes an outcome (with the item's index), like execute does. */
async function executeBatch(ctx: CoreContext, request: BatchClientRequest): Promise<ClientOutcome> {
  try {
    const result = await postBatch(ctx, request.owner, request.body, request.key);
    return { ok: true, body: result.body, replayed: result.replayed };
  } catch (error) {
    if (isItemError(error))
      return { ok: false, status: error.status, code: error.code, message: error.message, index: error.index };
    if (error instanceof AppError) return { ok: false, status: error.status, code: error.code, message: error.message };
    throw error;
  }
}

const ADMIN = { id: "processes-admin", name: "Processes Admin" };

/** A lock or unlock by an admin; a refusal (already locked, not locked) becomes an outcome. */
async function executeControl(ctx: CoreContext, request: ControlClientRequest): Promise<ClientOutcome> {
  try {
    const account = await setAccountLock(
      ctx,
      request.accountId,
      request.fn === "lock",
      { reason: "processes test" },
      ADMIN,
    );
    return { ok: true, body: JSON.stringify({ data: { id: account.id } }), replayed: false };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, status: error.status, code: error.code, message: error.message };
    throw error;
  }
}

/** A conversion by an admin; the reply's data is the conversion (converted or not). */
async function executeConversion(ctx: CoreContext, request: ConversionClientRequest): Promise<ClientOutcome> {
  const converted = await convertToCreditShards(ctx, request.accountId);
  return converted.ok
    ? { ok: true, body: JSON.stringify({ data: converted.result }), replayed: false }
    : { ok: false, status: 400, code: converted.code, message: "conversion refused" };
}

async function perform(
  ctx: CoreContext,
  requests: ClientRequest[],
  counts: { writes: number; cancelled: number },
): Promise<ClientResult[]> {
  const results: ClientResult[] = [];
  for (const request of requests) {
    const startedAt = Date.now();
    const before = { ...counts };
    let outcome: ClientOutcome;
    try {
      if (request.fn === "batch") outcome = await executeBatch(ctx, request);
      else if (isControlRequest(request)) outcome = await executeControl(ctx, request);
      else if (request.fn === "credit_shards") outcome = await executeConversion(ctx, request);
      else outcome = await execute(ctx, request);
    } catch (error) {
      outcome = {
        ok: false,
        status: 500,
        code: "unexpected",
        message: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      };
    }
    results.push({
      outcome,
      writes: counts.writes - before.writes,
      cancelled: counts.cancelled - before.cancelled,
      startedAt,
      endedAt: Date.now(),
    });
  }
  return results;
}

function main(): void {
  if (!process.send) throw new Error("ledger/process-client.ts runs as a forked child with an IPC channel");
  let ctx: CoreContext | null = null;
  let counts = { writes: 0, cancelled: 0 };
  let requests: ClientRequest[] = [];
  const dispose = () => {
    ctx?.db.raw.destroy();
    ctx?.storage.destroy();
    ctx = null;
  };
  process.on("message", (raw: unknown) => {
    const message = ToClient.parse(raw);
    if (message.type === "plan") {
      // A fresh instance per plan: its own client, caches and queues, on the plan's table.
      dispose();
      ctx = createContext(loadConfig({ ...process.env, TABLE_NAME: message.table }));
      counts = countWrites(ctx);
      if (message.mutation === "unlocked_reads") ignoreLocks(ctx);
      else if (message.mutation) removeConditions(ctx, message.mutation);
      if (message.pause) pauseInFirstWrite(ctx, message.pause);
      requests = message.requests;
      send({ type: "armed" });
      return;
    }
    if (!ctx) throw new Error("go before any plan");
    void perform(ctx, requests, counts).then((results) => send({ type: "done", results }));
  });
  process.on("disconnect", () => {
    dispose();
    process.exit(0);
  });
  send({ type: "ready" });
}

main();
