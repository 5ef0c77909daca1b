import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import { ExtraItemsRefused } from "../ledger/journal-writes";
import type { TransactItems } from "../ledger/write-path";
import type { Currency } from "../money/model";
import type { CoreContext } from "../shared/context";
import { cancellationCodes } from "../shared/dynamo";
import { AppError, forbidden, serviceUnavailable } from "../shared/errors";
import { emptyBuckets, UsageBuckets, usedInWindow, withMovement } from "./buckets";
import { usageKey } from "./keys";
import { userLevel, type UserLevel } from "./levels";
import { LIMIT_MESSAGES, LIMIT_WINDOWS, type LevelLimits, type LimitBreach, type Movement } from "./model";
import { getMoneyLimits } from "./settings";

/**
 * THE money gate: every write that moves money into or out of a user's hands (a deposit, an
 * opening balance, a batch's deposits, a payment to another person or an outside account) asks
 * it, in the same way, before anything is written:
 *
 * 1. `gateMoney` reads the caller's level (levels.ts) and the limits in force (settings.ts); a
 *    level that may not make the movement at all is a 403 `kyc_required`, never recorded under
 *    an Idempotency-Key (verifying must unlock the very same retry).
 * 2. `reserve` reads the caller's rolling totals per currency (buckets.ts) and either refuses,
 *    422 `limit_exceeded` naming the limit, the window, what remains and what unlocks more (a
 *    decision, recorded under a key like insufficient funds), or returns the items that add the
 *    movement to the totals. Those items commit in the movement's own transaction, each
 *    conditional on the totals' version as read: two movements racing on one user's totals
 *    cannot both pass on the same figures; the loser reads again and is decided again
 *    (`withReservation`). So a limit holds exactly, however many requests run at once.
 *
 * Moving money between one's own accounts (transfers, payments to one's own account) is no
 * movement here and is never gated; test balances are sandbox money, only on stages that
 * allow them, and cannot leave the platform without a verified level.
 */

export interface MoneyMovement {
  movement: Movement;
  currency: Currency;
  amountMinor: number;
}

/** A limit_exceeded refusal: which of the movements passed which limit. */
export class LimitExceeded extends AppError {
  constructor(
    /** The position of the movement (in the list given to gateMoney) that passed the limit. */
    readonly movementIndex: number,
    readonly breach: LimitBreach,
  ) {
    super(422, "limit_exceeded", LIMIT_MESSAGES.limitExceeded(breach));
    this.name = "LimitExceeded";
  }
}

const UsageItem = z.object({
  version: z.number().int().positive(),
  deposit: UsageBuckets.default(emptyBuckets()),
  outgoing: UsageBuckets.default(emptyBuckets()),
});
type UsageItem = z.infer<typeof UsageItem>;

/** One user's totals in one currency as read: null when they never moved money in it. */
async function readUsage(ctx: CoreContext, userId: string, currency: Currency): Promise<UsageItem | null> {
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: usageKey(userId, currency), ConsistentRead: true }),
  );
  return reply.Item ? UsageItem.parse(reply.Item) : null;
}

/** What the window ending `now` counts for one movement in one currency. */
export async function usageOf(
  ctx: CoreContext,
  userId: string,
  currency: Currency,
  now: Date,
): Promise<Record<Movement, Record<(typeof LIMIT_WINDOWS)[number], number>>> {
  const usage = await readUsage(ctx, userId, currency);
  const windows = (buckets: UsageBuckets) => ({
    day: usedInWindow(buckets, "day", now),
    month: usedInWindow(buckets, "month", now),
  });
  return { deposit: windows(usage?.deposit ?? emptyBuckets()), outgoing: windows(usage?.outgoing ?? emptyBuckets()) };
}

export interface MoneyGate {
  /**
   * The totals as they are now: 422 LimitExceeded, or the items recording these movements, to
   * commit in the movement's transaction (none when there is nothing to count).
   */
  reserve(): Promise<TransactItems>;
}

/** Nothing to gate: moving money between one's own accounts. */
const UNGATED: MoneyGate = { reserve: async () => [] };

/**
 * The one check of every money write: 403 kyc_required when the caller's level may not make one
 * of `movements` at all; otherwise the gate whose `reserve` checks and records the totals.
 */
export async function gateMoney(
  ctx: CoreContext,
  userId: string,
  movements: readonly MoneyMovement[],
): Promise<MoneyGate> {
  if (movements.length === 0) return UNGATED;
  const [level, limits] = await Promise.all([userLevel(ctx, userId), getMoneyLimits(ctx)]);
  const allowed: LevelLimits = limits[level.level];
  for (const { movement } of movements) {
    if (allowed[movement] === null) throw forbidden(LIMIT_MESSAGES.kycRequired(movement), "kyc_required");
  }
  return { reserve: () => reserve(ctx, userId, level, allowed, movements) };
}

async function reserve(
  ctx: CoreContext,
  userId: string,
  level: UserLevel,
  allowed: LevelLimits,
  movements: readonly MoneyMovement[],
): Promise<TransactItems> {
  const currencies = [...new Set(movements.map((movement) => movement.currency))];
  const read = await Promise.all(currencies.map((currency) => readUsage(ctx, userId, currency)));
  const usage = new Map(currencies.map((currency, index) => [currency, read[index]!] as const));
  const now = ctx.clock();
  const next = new Map(
    currencies.map((currency) => [
      currency,
      {
        deposit: usage.get(currency)?.deposit ?? emptyBuckets(),
        outgoing: usage.get(currency)?.outgoing ?? emptyBuckets(),
      },
    ]),
  );
  movements.forEach((movement, index) => {
    const limits = allowed[movement.movement]!;
    const buckets = next.get(movement.currency)!;
    for (const window of LIMIT_WINDOWS) {
      const limitMinor = limits[window][movement.currency];
      const usedMinor = usedInWindow(buckets[movement.movement], window, now);
      if (usedMinor + movement.amountMinor > limitMinor) {
        throw new LimitExceeded(index, {
          level: level.level,
          movement: movement.movement,
          window,
          currency: movement.currency,
          limitMinor,
          usedMinor,
          remainingMinor: Math.max(0, limitMinor - usedMinor),
        });
      }
    }
    buckets[movement.movement] = withMovement(buckets[movement.movement], movement.amountMinor, now);
  });
  const at = now.toISOString();
  return currencies.map((currency) => {
    const seen = usage.get(currency) ?? null;
    const buckets = next.get(currency)!;
    return {
      Put: {
        TableName: ctx.db.table,
        Item: {
          ...usageKey(userId, currency),
          entity: "limit_usage",
          user_id: userId,
          currency,
          version: (seen?.version ?? 0) + 1,
          updated_at: at,
          ...buckets,
        },
        ...(seen
          ? { ConditionExpression: "version = :seen", ExpressionAttributeValues: { ":seen": seen.version } }
          : { ConditionExpression: "attribute_not_exists(pk)" }),
      },
    };
  });
}

/**
 * Whether a write that carried `count` reservation items as its LAST items failed because the
 * totals changed after they were read (another movement of the same user committed first).
 */
export function lostReservationRace(error: unknown, count: number): boolean {
  if (count === 0) return false;
  const codes = error instanceof ExtraItemsRefused ? error.codes : cancellationCodes(error);
  return (
    codes?.slice(-count).some((code) => code === "ConditionalCheckFailed" || code === "TransactionConflict") ?? false
  );
}

const MAX_RESERVE_ATTEMPTS = 10;

/**
 * Runs a write carrying the gate's reservation items last (e.g. a journal's extra items),
 * deciding again on fresh totals when another movement of the same user committed first.
 */
export async function withReservation<T>(gate: MoneyGate, write: (items: TransactItems) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const items = await gate.reserve();
    try {
      return await write(items);
    } catch (error) {
      if (!lostReservationRace(error, items.length)) throw error;
      if (attempt >= MAX_RESERVE_ATTEMPTS)
        throw serviceUnavailable(
          "Other payments or deposits of yours are being recorded right now; please retry shortly",
          1,
        );
    }
  }
}
