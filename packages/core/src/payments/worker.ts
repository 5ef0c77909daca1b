import { createHash } from "node:crypto";
import { TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "../shared/context";
import { AppError } from "../shared/errors";
import { cancellationCodes } from "../shared/dynamo";
import { getAccounts, systemAccountId } from "../ledger/accounts";
import { changeJournalStatus, type StatusOperation } from "../ledger/journal-status";
import { ExtraItemsRefused } from "../ledger/journal-writes";
import { loadJournal } from "../ledger/journal-reads";
import { fromDecimalString, toDecimalString } from "../money/model";
import type { TransactItems } from "../ledger/write-path";
import { getRail } from "../rails/store";
import { attemptOutcomeItems, chooseRail, decisionItems } from "../rails/routing";
import { railCostMinor, type RailCostMinor } from "../rails/cost";
import type { Rail } from "../rails/model";
import { destinationCountry } from "../rails/regions";
import {
  isActiveStatus,
  MAX_ATTEMPTS,
  PAYMENT_MESSAGES,
  type PaymentAttempt,
  type PaymentEvent,
  type PaymentStatus,
  type RoutingDecision,
} from "./model";
import { takeStepLease } from "./markers";
import { reviewPut } from "./review";
import { settlementExpectationItems } from "../reconciliation/expectations";
import {
  announcePaymentCommit,
  dueDelete,
  dueMarkers,
  duePut,
  getPayment,
  historyPuts,
  paymentItem,
  type StoredPayment,
} from "./store";

/**
 * The payment worker (docs/payments-and-rails.md#who-advances-a-payment): one step of a payment's
 * lifecycle per due time.
 *
 *   pending    --due-->  processing: attempt 1 starts on the chosen rail, due after the rail's
 *                        average processing time
 *   processing --due-->  the attempt's outcome, decided deterministically (attemptOutcome):
 *                        success       -> completed: the hold journal is posted
 *                        retriable, 1st -> attempt 2 on the next-best eligible rail (routing
 *                                         again, the failed rail excluded; never for a
 *                                         forced rail); the hold stays as it is, the fee
 *                                         becomes the new rail's (capped: see below)
 *                        otherwise     -> failed: the hold journal is voided (funds released)
 *
 * The fee charged is the fee of the rail that carried the payment, but never more than the fee
 * the payer was quoted, which is the fee held (the best-ranked rail's at creation): charged =
 * min(carrying rail's fee, held fee), chargedFee below. The platform absorbs what an exploration
 * pick or a fallback to a pricier rail costs beyond that, so a retry may take any eligible rail.
 * When the fee charged is below the fee held, the post settles it and releases the difference in
 * the same transaction (settledAmounts).
 *
 * Every step is ONE transaction, conditional on the payment's version: the payment item, its
 * history entries (the outbox of the payment feed), the due marker replaced or deleted, the
 * rail counters of a finished attempt (added exactly once, since they commit with the attempt's
 * outcome) and, for completion and failure, the ledger's post or void of the hold. A duplicate or
 * concurrent advance loses the version condition (or finds the journal already settled) and
 * returns the payment as the winner left it: a payment can never post twice. A crash between
 * steps loses nothing: the due marker stays until the step that replaces it commits, and the
 * sweeper finds it.
 *
 * The drivers run steps through runPaymentStep (runner.ts), which holds a lease on the step's
 * due marker while it runs (markers.ts): a step delivered twice runs once, and a step that keeps
 * throwing parks its payment (parkPayment) instead of being retried forever.
 */

/** Error codes of a failed attempt: what a rail answers, and whether another rail may succeed. */
export const ATTEMPT_ERRORS = {
  rail_timeout: { retriable: true, message: "The rail did not confirm the payment in time" },
  rail_unavailable: { retriable: true, message: "The rail refused the payment: temporarily unavailable" },
  insufficient_funds_at_bank: {
    retriable: false,
    message: "The receiving bank refused the payment: insufficient funds at the bank",
  },
  account_closed: { retriable: false, message: "The receiving account is closed" },
  account_locked: { retriable: false, message: "The paying account is locked" },
} as const;
export type AttemptErrorCode = keyof typeof ATTEMPT_ERRORS;

/** How an organic failure (not injected) is spread over the codes, in cumulative shares. */
const ORGANIC_FAILURES: readonly [AttemptErrorCode, number][] = [
  ["rail_timeout", 0.5],
  ["rail_unavailable", 0.75],
  ["insufficient_funds_at_bank", 0.9],
  ["account_closed", 1],
];

/** A number in [0, 1) fixed by (purpose, payment, attempt): the same on every run. */
export function unitDraw(purpose: string, paymentId: string, attempt: number): number {
  return createHash("sha256").update(`${purpose}:${paymentId}:${attempt}`).digest().readUInt32BE(0) / 2 ** 32;
}

export type AttemptOutcome = { succeeded: true } | { succeeded: false; code: AttemptErrorCode };

/**
 * The outcome of attempt `attempt` of a payment on `rail`: success with probability
 * successRate/100 × (1 - errorInjection). An injected failure is a rail_timeout (retriable: error
 * injection simulates a flaky rail); an organic one is spread over ORGANIC_FAILURES. Deterministic
 * in (paymentId, attempt) and the rail's figures, so a re-run after a crash decides the same.
 */
export function attemptOutcome(
  rail: Pick<Rail, "successRate" | "errorInjection">,
  paymentId: string,
  attempt: number,
): AttemptOutcome {
  if (unitDraw("inject", paymentId, attempt) < rail.errorInjection) return { succeeded: false, code: "rail_timeout" };
  if (unitDraw("outcome", paymentId, attempt) < rail.successRate / 100) return { succeeded: true };
  const draw = unitDraw("code", paymentId, attempt);
  return { succeeded: false, code: ORGANIC_FAILURES.find(([, upTo]) => draw < upTo)?.[0] ?? "rail_timeout" };
}

export interface AdvanceResult {
  status: PaymentStatus;
  nextDueAt: string | null;
}

const resultOf = (payment: StoredPayment): AdvanceResult => ({ status: payment.status, nextDueAt: payment.nextDueAt });

/** Asks the scheduler (if any) to run the payment's next step; a failure only delays it (the sweeper finds it). */
export async function requestSchedule(ctx: CoreContext, paymentId: string, dueAt: string | null): Promise<void> {
  if (!dueAt || !ctx.paymentScheduler) return;
  try {
    await ctx.paymentScheduler.schedule(paymentId, new Date(dueAt), dueAt);
  } catch (error) {
    ctx.logger.warn("payment schedule failed; the sweeper will find it", {
      payment_id: paymentId,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

const addSeconds = (at: string, seconds: number) => new Date(Date.parse(at) + Math.round(seconds * 1000)).toISOString();

/** The payment after a step at `at`: version, seq and the due marker's time move on. */
function nextState(
  payment: StoredPayment,
  at: string,
  changes: Partial<StoredPayment>,
  entries: number,
): StoredPayment {
  return { ...payment, ...changes, updatedAt: at, version: payment.version + 1, seq: payment.seq + entries };
}

interface Step {
  next: StoredPayment;
  entries: { event: PaymentEvent | null; note?: string }[];
  extra: TransactItems;
}

/**
 * A driver's hold on a payment's steps while advancePayment runs them (runner.ts): the lease
 * owner (one per run), the due marker it holds now, and whether another run held it.
 */
export interface StepLease {
  owner: string;
  /** The step whose marker this run holds (its due time) and the failures recorded on it; null when none. */
  held: { dueAt: string; failures: number } | null;
  /** Set when another run held the step: this run did nothing. */
  busy: boolean;
  /** Steps this run committed. */
  committed: number;
}

/** The lease owner a step's transaction is fenced on, or null for a direct (unleased) call. */
type Fence = string | null;

/** The items every step writes: the payment under its version, history, and the due marker moved. */
function stepItems(ctx: CoreContext, before: StoredPayment, at: string, step: Step, fence: Fence): TransactItems {
  const items: TransactItems = [
    {
      Put: {
        TableName: ctx.db.table,
        Item: paymentItem(step.next),
        ConditionExpression: "version = :seen",
        ExpressionAttributeValues: { ":seen": before.version },
      },
    },
    ...historyPuts(ctx, step.next, before.seq + 1, at, step.entries),
    ...step.extra,
  ];
  if (before.nextDueAt) items.push(dueDelete(ctx, before.paymentId, before.nextDueAt, fence));
  if (step.next.nextDueAt) items.push(duePut(ctx, step.next.paymentId, step.next.nextDueAt));
  return items;
}

const isLostRace = (error: unknown) =>
  error instanceof ExtraItemsRefused || cancellationCodes(error)?.includes("ConditionalCheckFailed") === true;

/** A step that moves no money: one transaction. False when another advance changed the payment first. */
async function commitStep(
  ctx: CoreContext,
  before: StoredPayment,
  at: string,
  step: Step,
  fence: Fence,
): Promise<boolean> {
  try {
    await ctx.db.doc.send(new TransactWriteCommand({ TransactItems: stepItems(ctx, before, at, step, fence) }));
    return true;
  } catch (error) {
    if (isLostRace(error) || cancellationCodes(error)?.includes("TransactionConflict")) return false;
    throw error;
  }
}

/**
 * A step that settles the hold (post or void) with the payment change, in the ledger's
 * transaction. The commit instant is the ledger's, so the step is built from it. False when
 * another advance won (the payment's version moved, or the journal is already settled).
 */
async function commitSettlement(
  ctx: CoreContext,
  before: StoredPayment,
  operation: StatusOperation,
  build: (at: string) => Step,
  fence: Fence,
  settledAmounts?: readonly number[],
): Promise<{ ok: true; at: string } | { ok: false; refusal?: AppError }> {
  let committedAt = "";
  try {
    await changeJournalStatus(
      ctx,
      before.userId,
      before.journalId,
      operation,
      { key: null, hash: "" },
      null,
      (ids) => getAccounts(ctx, ids),
      {
        settlesPayment: true,
        ...(settledAmounts ? { settledAmounts } : {}),
        extraItems: (at) => {
          committedAt = at;
          return stepItems(ctx, before, at, build(at), fence);
        },
      },
    );
    return { ok: true, at: committedAt };
  } catch (error) {
    if (isLostRace(error)) return { ok: false };
    // Already posted or voided: another advance settled it first.
    if (error instanceof AppError && error.status === 409) return { ok: false };
    // The ledger's business refusal: the paying account was locked meanwhile (money may not leave it).
    if (error instanceof AppError && error.status === 423) return { ok: false, refusal: error };
    // Anything else (the ledger busy, a store error) leaves the payment as it is: the next call retries.
    throw error;
  }
}

function finishAttempt(attempts: PaymentAttempt[], at: string, outcome: AttemptOutcome): PaymentAttempt[] {
  return attempts.map((attempt, index) =>
    index === attempts.length - 1
      ? {
          ...attempt,
          status: outcome.succeeded ? "succeeded" : "failed",
          finishedAt: at,
          errorCode: outcome.succeeded ? null : outcome.code,
          errorMessage: outcome.succeeded ? null : ATTEMPT_ERRORS[outcome.code].message,
          retriable: outcome.succeeded ? null : ATTEMPT_ERRORS[outcome.code].retriable,
        }
      : attempt,
  );
}

function outcomeItems(
  ctx: CoreContext,
  payment: StoredPayment,
  attempt: PaymentAttempt,
  at: string,
  succeeded: boolean,
): TransactItems {
  return attemptOutcomeItems({
    railId: attempt.railId,
    paymentId: payment.paymentId,
    attemptNumber: attempt.number,
    outcome: succeeded ? "succeeded" : "failed",
    startedAt: attempt.startedAt,
    finishedAt: at,
    amountMinor: payment.amountMinor,
    currency: payment.currency,
    table: ctx.db.table,
  });
}

/**
 * A new attempt on `rail`: due after the rail's average time, or at once when the rail is not
 * active (it will refuse).
 */
function newAttempt(number: number, rail: Rail, at: string): PaymentAttempt {
  const dueAt = rail.status === "active" ? addSeconds(at, rail.avgProcessingTime) : at;
  return {
    number,
    railId: rail.id,
    rail: rail.name,
    status: "in_flight",
    startedAt: at,
    dueAt,
    finishedAt: null,
    errorCode: null,
    errorMessage: null,
    retriable: null,
  };
}

/** pending -> processing: attempt 1 on the chosen rail. */
async function startFirstAttempt(ctx: CoreContext, payment: StoredPayment, at: string, fence: Fence): Promise<boolean> {
  const rail = await getRail(ctx, payment.railId);
  const attempt = newAttempt(1, rail, at);
  const next = nextState(
    payment,
    at,
    { status: "processing", attempts: [attempt], selectedRail: rail.name, railId: rail.id, nextDueAt: attempt.dueAt },
    1,
  );
  return commitStep(
    ctx,
    payment,
    at,
    {
      next,
      entries: [
        {
          event: {
            type: "paymentStatusUpdate",
            data: {
              paymentId: payment.paymentId,
              status: "processing",
              message: `Processing on ${rail.name} (attempt 1)`,
            },
          },
        },
      ],
      extra: [],
    },
    fence,
  );
}

/** The attempt in flight is due: its outcome decides completion, a retry, or failure. */
async function finishCurrentAttempt(
  ctx: CoreContext,
  payment: StoredPayment,
  now: string,
  fence: Fence,
): Promise<boolean> {
  const current = payment.attempts[payment.attempts.length - 1]!;
  const rail = await getRail(ctx, current.railId);
  // A rail stopped (or in maintenance) while the attempt was in flight answers "unavailable":
  // retriable, so the payment moves to the next-best rail.
  const outcome: AttemptOutcome =
    rail.status === "active"
      ? attemptOutcome(rail, payment.paymentId, current.number)
      : { succeeded: false, code: "rail_unavailable" };
  if (outcome.succeeded) {
    const settledAmounts = await feeSettlement(ctx, payment);
    const settled = await commitSettlement(
      ctx,
      payment,
      "post",
      (at) => ({
        next: nextState(
          payment,
          at,
          {
            status: "completed",
            attempts: finishAttempt(payment.attempts, at, outcome),
            completedAt: at,
            nextDueAt: null,
          },
          1,
        ),
        entries: [
          {
            event: {
              type: "paymentCompleted",
              data: {
                paymentId: payment.paymentId,
                completedAt: at,
                finalAmount: payment.amount,
                railUsed: current.rail,
              },
            },
          },
        ],
        extra: [
          ...outcomeItems(ctx, payment, current, at, true),
          ...settlementExpectationItems(ctx.db.table, payment, current, rail, at),
        ],
      }),
      fence,
      settledAmounts,
    );
    if (settled.ok || !settled.refusal) return settled.ok;
    // The ledger refused to post (the paying account was locked meanwhile): the payment fails
    // and its hold is released (a void is allowed on a locked account).
    return failPayment(ctx, payment, current, "account_locked", settled.refusal.message, fence);
  }
  const error = ATTEMPT_ERRORS[outcome.code];
  // A forced rail is the payer's order (e.g. SWIFT for a compliance reason): it is never
  // silently swapped for another rail, so a forced payment's failed attempt is final.
  const forced = payment.routing.strategy === "forced";
  if (error.retriable && !forced && current.number < MAX_ATTEMPTS) {
    const decision = await nextDecision(ctx, payment);
    if (decision) {
      const nextRail = await getRail(ctx, decision.chosenRailId);
      const retry = newAttempt(current.number + 1, nextRail, now);
      const attempts = [...finishAttempt(payment.attempts, now, outcome), retry];
      const fee = chargedFee(
        railCostMinor(nextRail, payment.amountMinor, payment.currency),
        await heldFeeParts(ctx, payment),
      );
      const money = (minor: number) => toDecimalString(minor, payment.currency);
      const feeFields = {
        fee: money(fee.totalMinor),
        feeMinor: fee.totalMinor,
        feeBreakdown: {
          fixedFee: money(fee.breakdownMinor.fixedFee),
          fxSpread: money(fee.breakdownMinor.fxSpread),
          networkFee: money(fee.breakdownMinor.networkFee),
        },
      };
      const next = nextState(
        payment,
        now,
        {
          attempts,
          selectedRail: nextRail.name,
          railId: nextRail.id,
          routing: decision,
          nextDueAt: retry.dueAt,
          ...feeFields,
        },
        1,
      );
      return commitStep(
        ctx,
        payment,
        now,
        {
          next,
          entries: [
            {
              event: {
                type: "paymentStatusUpdate",
                data: {
                  paymentId: payment.paymentId,
                  status: "processing",
                  message: `Attempt ${current.number} on ${current.rail} failed (${outcome.code}); retrying on ${nextRail.name} (attempt ${retry.number}), fee ${feeFields.fee} ${payment.currency}`,
                },
              },
            },
          ],
          extra: [
            ...outcomeItems(ctx, payment, current, now, false),
            ...decisionItems(decision, {
              paymentId: payment.paymentId,
              userId: payment.userId,
              at: now,
              attemptNumber: retry.number,
              table: ctx.db.table,
            }),
          ],
        },
        fence,
      );
    }
  }
  return failPayment(ctx, payment, current, outcome.code, error.message, fence);
}

/** The fee held for a payment: the fee quoted when it was created (its hold). */
export const heldFeeMinor = (payment: Pick<StoredPayment, "estimatedFee" | "currency">): number =>
  fromDecimalString(payment.estimatedFee, payment.currency);

/** A fee as the hold books it: the fee revenue part (fixed + network fee) and the FX part. */
export interface HeldFeeParts {
  revenueMinor: number;
  fxMinor: number;
}

export type ChargedFee = Pick<RailCostMinor, "totalMinor" | "breakdownMinor">;

/** The parts of a fee computed at creation, as the hold books them. */
export const heldPartsOf = (fee: ChargedFee): HeldFeeParts => ({
  revenueMinor: fee.breakdownMinor.fixedFee + fee.breakdownMinor.networkFee,
  fxMinor: fee.breakdownMinor.fxSpread,
});

/**
 * The fee a payer is charged when `carrying` is the fee of the rail that carries the payment and
 * `held` the fee held for it (the quoted one): the carrying fee, capped at the held total. Each
 * part also stays within the hold's part, since a post can settle at most what an entry holds:
 * the FX part is the carrying rail's, moved just enough to fit, and the rest is fee revenue.
 * Equal to the held fee whenever the carrying fee is not lower.
 */
export function chargedFee(carrying: ChargedFee, held: HeldFeeParts): ChargedFee {
  const totalMinor = Math.min(carrying.totalMinor, held.revenueMinor + held.fxMinor);
  const fxSpread = Math.min(
    Math.max(carrying.breakdownMinor.fxSpread, totalMinor - held.revenueMinor, 0),
    held.fxMinor,
    totalMinor,
  );
  const revenue = totalMinor - fxSpread;
  const networkFee = Math.min(carrying.breakdownMinor.networkFee, revenue);
  return { totalMinor, breakdownMinor: { fixedFee: revenue - networkFee, fxSpread, networkFee } };
}

/** The fee parts the payment's hold journal holds. */
async function heldFeeParts(ctx: CoreContext, payment: StoredPayment): Promise<HeldFeeParts> {
  const journal = await loadJournal(ctx, payment.journalId);
  if (!journal) throw new Error(`The hold of payment ${payment.paymentId} is missing`);
  // A zero part has no entry in the hold (zero legs are left out).
  const held = (account: string) =>
    journal.entries.find((entry) => entry.account_id === account && entry.side === "debit")?.amount ?? 0;
  return {
    revenueMinor: held(systemAccountId("fees", payment.currency)),
    fxMinor: held(systemAccountId("fx", payment.currency)),
  };
}

/** Where a stored payment goes, for the rails' coverage (older routing decisions do not record it). */
function paymentDestination(payment: StoredPayment): string {
  return (
    payment.routing.destinationCountry ??
    destinationCountry({
      currency: payment.currency,
      beneficiary: payment.payee.kind === "external" ? { country: payment.payee.country } : undefined,
    })
  );
}

/**
 * The amounts the post settles when the fee charged is below the fee held, one per hold entry:
 * the payer gives amount + fee charged, the payee (or clearing) gets the amount, fee revenue and
 * the FX account their parts of the fee charged. Undefined when the fee is the one held.
 */
async function feeSettlement(ctx: CoreContext, payment: StoredPayment): Promise<number[] | undefined> {
  if (payment.feeMinor === heldFeeMinor(payment)) return undefined;
  const journal = await loadJournal(ctx, payment.journalId);
  if (!journal) throw new Error(`The hold of payment ${payment.paymentId} is missing`);
  const parts = payment.feeBreakdown;
  const minor = (text: string) => fromDecimalString(text, payment.currency);
  const feesAccount = systemAccountId("fees", payment.currency);
  const fxAccount = systemAccountId("fx", payment.currency);
  return journal.entries.map((entry) => {
    if (entry.account_id === payment.fromAccountId && entry.side === "credit")
      return payment.amountMinor + payment.feeMinor;
    if (entry.account_id === feesAccount) return minor(parts.fixedFee) + minor(parts.networkFee);
    if (entry.account_id === fxAccount) return minor(parts.fxSpread);
    return entry.amount;
  });
}

/** The routing's next-best rail for a retry, or null when no other rail can take it. */
async function nextDecision(ctx: CoreContext, payment: StoredPayment): Promise<RoutingDecision | null> {
  try {
    return await chooseRail(ctx, {
      paymentId: payment.paymentId,
      amountMinor: payment.amountMinor,
      currency: payment.currency,
      country: paymentDestination(payment),
      excludeRailIds: payment.attempts.map((attempt) => attempt.railId),
    });
  } catch (error) {
    if (error instanceof AppError && error.status === 422) return null;
    throw error;
  }
}

/** Final failure: the hold is voided with the payment change. */
async function failPayment(
  ctx: CoreContext,
  payment: StoredPayment,
  current: PaymentAttempt,
  code: AttemptErrorCode,
  message: string,
  fence: Fence,
): Promise<boolean> {
  const outcome: AttemptOutcome = { succeeded: false, code };
  const reason = `${message} (${code}, attempt ${current.number} on ${current.rail})`;
  const settled = await commitSettlement(
    ctx,
    payment,
    "void",
    (at) => ({
      next: nextState(
        payment,
        at,
        {
          status: "failed",
          attempts: finishAttempt(payment.attempts, at, outcome),
          failureReason: reason,
          nextDueAt: null,
        },
        1,
      ),
      entries: [{ event: { type: "paymentError", data: { paymentId: payment.paymentId, errorMessage: reason } } }],
      extra: outcomeItems(ctx, payment, current, at, false),
    }),
    fence,
  );
  if (!settled.ok && settled.refusal) throw settled.refusal;
  return settled.ok;
}

/** The error code of the attempt that was in flight when its payment was parked. */
export const PARKED_ATTEMPT_CODE = "step_failed";

/**
 * Parks a payment whose step failed `stepFailures` times (runner.ts decides when): ONE ledger
 * transaction voids the hold (the funds are available again) with the payment (status parked,
 * the reason in failureReason, nothing due), its history entry (a paymentStatusUpdate the payer
 * sees), and its review item for the admins (review.ts). An attempt in flight is closed as failed
 * with PARKED_ATTEMPT_CODE; the rail's counters are left alone (the rail did not answer). False
 * when another run changed the payment first.
 */
export async function parkPayment(
  ctx: CoreContext,
  payment: StoredPayment,
  stepFailures: number,
  lastError: string,
  fence: Fence,
): Promise<boolean> {
  if (!isActiveStatus(payment.status)) return false;
  const reason = PAYMENT_MESSAGES.parked(stepFailures);
  const settled = await commitSettlement(
    ctx,
    payment,
    "void",
    (at) => {
      const attempts = payment.attempts.map((attempt) =>
        attempt.status === "in_flight"
          ? {
              ...attempt,
              status: "failed" as const,
              finishedAt: at,
              errorCode: PARKED_ATTEMPT_CODE,
              errorMessage: reason,
              retriable: false,
            }
          : attempt,
      );
      const next = nextState(
        payment,
        at,
        { status: "parked", attempts, failureReason: reason, nextDueAt: null, parkedAt: at },
        1,
      );
      return {
        next,
        entries: [
          {
            event: {
              type: "paymentStatusUpdate",
              data: { paymentId: payment.paymentId, status: "parked", message: reason },
            },
          },
        ],
        extra: [reviewPut(ctx, { parked: next, stuckStatus: payment.status, stepFailures, lastError })],
      };
    },
    fence,
  );
  if (!settled.ok && settled.refusal) throw settled.refusal;
  if (settled.ok) announcePaymentCommit(ctx, payment.userId, settled.at);
  return settled.ok;
}

/** Bounded: a payment has at most 1 + 2 × MAX_ATTEMPTS steps; more would be a bug, not a loop. */
const MAX_STEPS_PER_CALL = 2 * MAX_ATTEMPTS + 1;
/** A step cancelled by a transaction conflict on a shared item (a rail counter) is tried again this often. */
const CONFLICT_RETRIES = 3;
const conflictPause = () => new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40));

/**
 * Advances one payment by every step that is due
 * (docs/payments-and-rails.md#who-advances-a-payment). Idempotent and safe to call twice at once,
 * early (nothing happens before the step is due) and late (catches up: each step starts its attempt
 * at the time it runs, so a late worker never decides an attempt it did not start).
 *
 * With a `lease` (the drivers' runs, runner.ts) each step first takes the lease on its due marker
 * and commits only while holding it; when another run holds it, this call stops and sets
 * `lease.busy`. Without one (tests, tools) the payment's version alone keeps steps from
 * committing twice.
 */
export async function advancePayment(
  ctx: CoreContext,
  paymentId: string,
  lease: StepLease | null = null,
): Promise<AdvanceResult> {
  let payment = await getPayment(ctx, paymentId);
  if (!payment) throw new AppError(404, "payment_not_found", "Payment not found");
  let conflicts = 0;
  for (let step = 0; step < MAX_STEPS_PER_CALL + CONFLICT_RETRIES; step += 1) {
    if (!isActiveStatus(payment.status) || !payment.nextDueAt) return resultOf(payment);
    const now = new Date(Math.max(ctx.clock().getTime(), Date.parse(payment.updatedAt))).toISOString();
    if (payment.nextDueAt > ctx.clock().toISOString()) return resultOf(payment);
    if (lease) {
      const taken = await takeStepLease(ctx, paymentId, payment.nextDueAt, lease.owner);
      if (!taken.held && taken.reason === "busy") {
        lease.busy = true;
        return resultOf(payment);
      }
      if (!taken.held) {
        // The marker is gone: another run committed this step meanwhile. Read what it left.
        const moved = await getPayment(ctx, paymentId);
        if (!moved) throw new Error(`Payment ${paymentId} disappeared`);
        if (moved.version === payment.version) {
          // Unchanged, so the marker is missing (they are written together: it should never be).
          // Without it no sweep would find the payment again: put it back and take its lease.
          ctx.logger.warn("payment due marker missing; restored", { payment_id: paymentId, due_at: payment.nextDueAt });
          await ctx.db.doc.send(
            new TransactWriteCommand({ TransactItems: [duePut(ctx, paymentId, payment.nextDueAt)] }),
          );
        }
        payment = moved;
        continue;
      }
      lease.held = { dueAt: payment.nextDueAt, failures: taken.failures };
    }
    const fence = lease?.owner ?? null;
    const committed =
      payment.status === "pending"
        ? await startFirstAttempt(ctx, payment, now, fence)
        : await finishCurrentAttempt(ctx, payment, now, fence);
    // The step's transaction deleted the marker, and the lease with it.
    if (committed && lease) {
      lease.held = null;
      lease.committed += 1;
    }
    const after: StoredPayment | null = await getPayment(ctx, paymentId);
    if (!after) throw new Error(`Payment ${paymentId} disappeared`);
    if (committed) {
      announcePaymentCommit(ctx, after.userId, after.updatedAt);
      await requestSchedule(ctx, after.paymentId, after.nextDueAt);
    } else if (after.version === payment.version) {
      // Nothing committed and nothing changed: a transaction conflict on a shared item. Try again
      // a few times; then leave it to the next call (the due marker stays, the sweeper finds it).
      conflicts += 1;
      if (conflicts > CONFLICT_RETRIES) return resultOf(after);
      await conflictPause();
    }
    payment = after;
  }
  return resultOf(payment);
}

/**
 * Ids of active payments whose next step is due at or before `now`, leased or not (the drivers
 * sweep with markers.ts claimOverdueSteps).
 */
export async function duePayments(ctx: CoreContext, now: Date, limit = 100): Promise<string[]> {
  return dueMarkers(ctx, now, Math.max(1, Math.min(1000, Math.floor(limit))));
}
