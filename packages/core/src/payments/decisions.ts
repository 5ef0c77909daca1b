import { TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import type { Reviewer } from "../approvals/model";
import { getAccounts } from "../ledger/accounts";
import { changeJournalStatus } from "../ledger/journal-status";
import { ExtraItemsRefused } from "../ledger/journal-writes";
import { isLedgerId } from "../ledger/model";
import type { CursorBinding } from "../shared/cursor";
import type { CoreContext } from "../shared/context";
import { cancellationCodes } from "../shared/dynamo";
import { AppError, conflict, forbidden, notFound } from "../shared/errors";
import { queryPage, type Page } from "../shared/pagination";
import { parseWith } from "../shared/validation";
import { PAYMENT_DECISIONS_PARTITION } from "./keys";
import {
  DecidePaymentInput,
  isWaitingForDecision,
  PAYMENT_MESSAGES,
  type PaymentDecision,
  type PaymentReviewCase,
  type ReviewListQuery,
} from "./model";
import {
  announcePaymentCommit,
  duePut,
  getPayment,
  historyPuts,
  paymentItem,
  parseStoredPayment,
  type StoredPayment,
} from "./store";
import { requestSchedule } from "./worker";

/**
 * Administrators decide the payments that wait for a person: held for review (the payee's name
 * matched a sanctions list) or awaiting approval (above the four-eyes threshold). Both are
 * decided the same way, by an administrator other than the payer, with a reason:
 * - approve: the payment becomes pending with its first step due at once (its due marker written
 *   in the same transaction), so the worker takes it from there; its hold was in place all along;
 * - reject: ONE ledger transaction voids the hold (the funds are available again) with the
 *   payment (failed, the payer reads that it was refused after review).
 * Who decided, when and why is kept on the payment (its review) and in its history; the payer's
 * feed hears the new status. A payment that is not waiting is a 409, and the payer deciding their
 * own payment a 403 `second_approver_required`.
 */

const notWaiting = () => conflict(PAYMENT_MESSAGES.notWaiting, "payment_not_awaiting_decision");

function caseOf(payment: StoredPayment, reviewer: Reviewer): PaymentReviewCase {
  const waiting = isWaitingForDecision(payment.status);
  const own = payment.userId === reviewer.id;
  return {
    paymentId: payment.paymentId,
    userId: payment.userId,
    status: payment.status,
    kind: payment.review?.kind ?? null,
    amount: payment.amount,
    amountMinor: payment.amountMinor,
    currency: payment.currency,
    fee: payment.fee,
    payee: payment.payee,
    description: payment.description,
    createdAt: payment.createdAt,
    why: payment.review?.why ?? null,
    screening: payment.screening,
    decision: payment.review?.decision ?? null,
    canDecide: waiting && !own,
    cannotDecideReason: !waiting ? PAYMENT_MESSAGES.notWaiting : own ? PAYMENT_MESSAGES.ownPayment : null,
  };
}

/** Payments waiting for a decision, newest first, optionally of one kind; signed cursors bound to the kind. */
export async function listPaymentReviews(
  ctx: CoreContext,
  reviewer: Reviewer,
  query: ReviewListQuery,
): Promise<Page<PaymentReviewCase>> {
  const binding: CursorBinding = {
    secret: ctx.config.CURSOR_KEYS,
    scope: { route: "payments/reviews", kind: query.kind },
  };
  return queryPage(
    ctx.db,
    {
      IndexName: "gsi2",
      KeyConditionExpression: "gsi2pk = :pk",
      ExpressionAttributeValues: { ":pk": PAYMENT_DECISIONS_PARTITION },
    },
    ["pk", "sk", "gsi2pk", "gsi2sk"],
    { name: "gsi2pk", value: PAYMENT_DECISIONS_PARTITION },
    binding,
    { limit: query.limit, offset: 0, cursor: query.cursor },
    (item) => {
      if (item.entity !== "payment") return null;
      const payment = parseStoredPayment(item);
      // The index may lag the item by a moment: only what still waits, of the kind asked for.
      if (!isWaitingForDecision(payment.status) || (query.kind && payment.review?.kind !== query.kind)) return null;
      return caseOf(payment, reviewer);
    },
  );
}

async function requirePayment(ctx: CoreContext, paymentId: string): Promise<StoredPayment> {
  const payment = isLedgerId(paymentId) ? await getPayment(ctx, paymentId) : null;
  if (!payment) throw notFound(PAYMENT_MESSAGES.paymentNotFound, "payment_not_found");
  return payment;
}

/** Any payment as administrators review it: its payee's screening, and its decision if it waited. */
export async function paymentReviewCase(
  ctx: CoreContext,
  reviewer: Reviewer,
  paymentId: string,
): Promise<PaymentReviewCase> {
  return caseOf(await requirePayment(ctx, paymentId), reviewer);
}

const auditNote = (decision: PaymentDecision) =>
  `${decision.outcome === "approved" ? "Approved" : "Rejected"} by ${decision.by.email} (${decision.by.id}): ${decision.reason}`;

async function approve(ctx: CoreContext, payment: StoredPayment, decision: PaymentDecision): Promise<StoredPayment> {
  const at = decision.at;
  const message = payment.review?.kind === "screening" ? PAYMENT_MESSAGES.released : PAYMENT_MESSAGES.approved;
  const next: StoredPayment = {
    ...payment,
    status: "pending",
    nextDueAt: at,
    updatedAt: at,
    version: payment.version + 1,
    seq: payment.seq + 1,
    review: payment.review ? { ...payment.review, decision } : null,
  };
  try {
    await ctx.db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: ctx.db.table,
              Item: paymentItem(next),
              ConditionExpression: "version = :seen",
              ExpressionAttributeValues: { ":seen": payment.version },
            },
          },
          ...historyPuts(ctx, next, payment.seq + 1, at, [
            {
              event: {
                type: "paymentStatusUpdate",
                data: { paymentId: payment.paymentId, status: "pending", message },
              },
              note: auditNote(decision),
            },
          ]),
          duePut(ctx, payment.paymentId, at),
        ],
      }),
    );
  } catch (error) {
    const codes = cancellationCodes(error);
    if (codes?.includes("ConditionalCheckFailed") || codes?.includes("TransactionConflict")) throw notWaiting();
    throw error;
  }
  announcePaymentCommit(ctx, next.userId, at);
  await requestSchedule(ctx, next.paymentId, next.nextDueAt);
  return next;
}

async function reject(
  ctx: CoreContext,
  payment: StoredPayment,
  reviewer: Reviewer,
  decision: Omit<PaymentDecision, "at">,
): Promise<StoredPayment> {
  let settled: StoredPayment | null = null;
  try {
    await changeJournalStatus(
      ctx,
      payment.userId,
      payment.journalId,
      "void",
      { key: null, hash: "" },
      { id: reviewer.id, name: reviewer.name },
      (ids) => getAccounts(ctx, ids),
      {
        settlesPayment: true,
        extraItems: (at) => {
          const decided: PaymentDecision = { ...decision, at };
          const next: StoredPayment = {
            ...payment,
            status: "failed",
            failureReason: PAYMENT_MESSAGES.refusedAfterReview,
            nextDueAt: null,
            updatedAt: at,
            version: payment.version + 1,
            seq: payment.seq + 1,
            review: payment.review ? { ...payment.review, decision: decided } : null,
          };
          settled = next;
          return [
            {
              Put: {
                TableName: ctx.db.table,
                Item: paymentItem(next),
                ConditionExpression: "version = :seen",
                ExpressionAttributeValues: { ":seen": payment.version },
              },
            },
            ...historyPuts(ctx, next, payment.seq + 1, at, [
              {
                event: {
                  type: "paymentError",
                  data: { paymentId: payment.paymentId, errorMessage: PAYMENT_MESSAGES.refusedAfterReview },
                },
                note: auditNote(decided),
              },
            ]),
          ];
        },
      },
    );
  } catch (error) {
    // Another decision came first (the payment's version moved, or its hold is settled already).
    if (error instanceof ExtraItemsRefused || (error instanceof AppError && error.status === 409)) throw notWaiting();
    throw error;
  }
  const next = settled as StoredPayment | null;
  if (!next) throw new Error("reject: the payment change was not built");
  announcePaymentCommit(ctx, next.userId, next.updatedAt);
  return next;
}

/**
 * An administrator approves or rejects a payment that waits (see the module comment). 404 for an
 * unknown id, 409 `payment_not_awaiting_decision` when it does not wait (or was decided
 * meanwhile), 403 `second_approver_required` for the payer's own payment.
 */
export async function decidePayment(
  ctx: CoreContext,
  paymentId: string,
  reviewer: Reviewer,
  body: unknown,
): Promise<PaymentReviewCase> {
  const input = parseWith(DecidePaymentInput, body);
  const payment = await requirePayment(ctx, paymentId);
  if (!isWaitingForDecision(payment.status)) throw notWaiting();
  if (payment.userId === reviewer.id) throw forbidden(PAYMENT_MESSAGES.ownPayment, "second_approver_required");
  const by = { id: reviewer.id, email: reviewer.email };
  const decided =
    input.decision === "approve"
      ? await approve(ctx, payment, {
          outcome: "approved",
          reason: input.reason,
          by,
          at: new Date(Math.max(ctx.clock().getTime(), Date.parse(payment.updatedAt))).toISOString(),
        })
      : await reject(ctx, payment, reviewer, { outcome: "rejected", reason: input.reason, by });
  return caseOf(decided, reviewer);
}
