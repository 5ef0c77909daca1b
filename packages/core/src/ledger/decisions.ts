import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import type { CoreContext } from "../shared/context";
import { AppError, serviceUnavailable } from "../shared/errors";

/**
 * Decisions stay decided. A keyed request refused for a business rule (a decision about the
 * accounts and their state, not about the request's shape) records the refusal under its
 * Idempotency-Key, so a retry with the same key gets the same refusal byte for byte even after
 * the state changed (funds arrived, an account was unlocked): TigerBeetle's `id_already_failed`,
 * Stripe's stored 4xx. The record is written with a conditional Put on the key's own item, the
 * very item a success would write, so of two concurrent duplicates exactly one decision wins
 * and the other replays it.
 *
 * Not recorded: validation errors (400 about the request's shape, e.g. an amount with too many
 * decimals: a corrected retry works), 404s, 403s and 409 idempotency_in_progress (transient).
 */
export const RECORDED_REFUSALS: ReadonlySet<string> = new Set([
  "insufficient_funds",
  "account_locked",
  "account_inactive",
  "same_account",
  "currency_mismatch",
  "already_posted",
  "not_posted",
  // A rolling total (limits/gate.ts) is state like a balance: a keyed retry gets the same answer.
  "limit_exceeded",
  // A quote is used, expires or fits the transfer once and for all: a keyed retry gets the same answer.
  "quote_not_found",
  "quote_expired",
  "quote_used",
  "quote_mismatch",
]);

/** Whether an error is a business refusal that a keyed request records. */
export const isRecordedRefusal = (error: unknown): error is AppError =>
  error instanceof AppError && RECORDED_REFUSALS.has(error.code);

const RefusalStatus = z.union([z.literal(400), z.literal(409), z.literal(422), z.literal(423)]);

/** What a refusal answered: status, code and message, and for a batch the failing item. */
export const Refusal = z.object({
  status: RefusalStatus,
  code: z.string(),
  message: z.string(),
  /** The 0-based position of the refused item of a batch; null for a single request. */
  index: z.number().int().nullable().default(null),
});
export type Refusal = z.infer<typeof Refusal>;

/** The refusal record stored on the key's item in place of the journal (or batch) a success writes. */
export const RefusalRecord = z.object({
  entity: z.literal("refusal"),
  owner_id: z.string(),
  request_hash: z.string(),
  refusal: Refusal,
  at: z.string(),
});
export type RefusalRecord = z.infer<typeof RefusalRecord>;

/** An error raised for one item of a batch: the single request's error plus the item's position. */
export class ItemError extends AppError {
  constructor(
    readonly index: number,
    error: AppError,
    headers: Record<string, string> = error.headers,
  ) {
    super(error.status, error.code, error.message, headers);
    this.name = "ItemError";
  }
}

/** Whether an error names a batch item (its reply carries `index`). */
export const isItemError = (error: unknown): error is ItemError => error instanceof ItemError;

export function refusalOf(error: AppError): Refusal {
  const status = RefusalStatus.safeParse(error.status);
  if (!status.success) throw new Error(`A ${error.status} is not a recordable refusal`);
  return {
    status: status.data,
    code: error.code,
    message: error.message,
    index: isItemError(error) ? error.index : null,
  };
}

const REPLAYED = { "Idempotent-Replayed": "true" };

/** The stored refusal, raised again: same status, code and message, marked as a replay. */
export function replayedRefusal(refusal: Refusal): AppError {
  const error = new AppError(refusal.status, refusal.code, refusal.message, REPLAYED);
  return refusal.index === null ? error : new ItemError(refusal.index, error, REPLAYED);
}

/** Whether an error is the replay of a recorded refusal (never recorded again). */
export const isReplayedRefusal = (error: unknown) =>
  error instanceof AppError && error.headers["Idempotent-Replayed"] === "true";

/**
 * Writes a refusal record at `key` unless the item exists. Returns false when another decision
 * (a success or an earlier refusal) already holds the key: the caller reads and replays it.
 */
export async function recordRefusal(
  ctx: CoreContext,
  key: { pk: string; sk: string },
  attributes: Record<string, unknown>,
  refusal: Refusal,
): Promise<boolean> {
  try {
    await ctx.db.doc.send(
      new PutCommand({
        TableName: ctx.db.table,
        Item: { ...key, ...attributes, refusal, at: ctx.clock().toISOString() },
        ConditionExpression: "attribute_not_exists(pk)",
      }),
    );
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === "ConditionalCheckFailedException") return false;
    throw error;
  }
}

/** The item at a key, strongly consistent (a decision just made elsewhere must be seen). */
export async function readDecision(
  ctx: CoreContext,
  key: { pk: string; sk: string },
): Promise<Record<string, unknown> | null> {
  const reply = await ctx.db.doc.send(new GetCommand({ TableName: ctx.db.table, Key: key, ConsistentRead: true }));
  return reply.Item ?? null;
}

/**
 * A write that lost the optimistic-concurrency race MAX_ATTEMPTS times in a row: the accounts are
 * too busy right now. A 503 with Retry-After (safe to retry, with the same Idempotency-Key), never
 * the raw TransactionCanceledException, which would be a 500 to a client that did nothing wrong.
 */
export const ledgerBusy = () =>
  serviceUnavailable("These accounts are busy with other writes; please retry shortly", 1);
