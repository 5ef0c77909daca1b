import { GetCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "../shared/context";
import { cancellationCodes } from "../shared/dynamo";
import { conflict, notFound } from "../shared/errors";
import { queryPage, type Page } from "../shared/pagination";
import { parseWith } from "../shared/validation";
import type { CursorBinding } from "../shared/cursor";
import { isLedgerId } from "../ledger/model";
import type { TransactItems } from "../ledger/write-path";
import { PAYMENT_REVIEW_PARTITION, paymentReviewKey } from "./keys";
import { CloseParkedInput, ParkedPayment, PAYMENT_MESSAGES, type ParkedListQuery, type PaymentStatus } from "./model";
import { announcePaymentCommit, getPayment, historyPuts, paymentItem, type StoredPayment } from "./store";

/**
 * The review list of parked payments (admins). A payment is parked by the worker when one of its
 * steps kept failing (worker.ts parkPayment): its hold is voided and an item is written here in
 * the same transaction, with what an admin needs to find the cause (the status it was stuck in,
 * how often the step failed, the last error). An admin closes it (parked -> failed, with a note):
 * the payer's payment then ends as failed; nothing is paid either way.
 */

const REVIEW_ENTITY = "payment_review";
/** Errors are kept to this length: enough to find the cause, bounded for the item. */
const LAST_ERROR_MAX = 1_000;

export interface ParkedRecord {
  parked: StoredPayment;
  stuckStatus: PaymentStatus;
  stepFailures: number;
  lastError: string;
}

/** The Put of a parked payment's review item (in the parking transaction). */
export function reviewPut(
  ctx: CoreContext,
  { parked, stuckStatus, stepFailures, lastError }: ParkedRecord,
): TransactItems[number] {
  const parkedAt = parked.parkedAt!;
  return {
    Put: {
      TableName: ctx.db.table,
      Item: {
        ...paymentReviewKey(parkedAt, parked.paymentId),
        entity: REVIEW_ENTITY,
        payment_id: parked.paymentId,
        user_id: parked.userId,
        status: parked.status,
        amount: parked.amount,
        currency: parked.currency,
        selected_rail: parked.selectedRail,
        stuck_status: stuckStatus,
        step_failures: stepFailures,
        last_error: lastError.slice(0, LAST_ERROR_MAX),
        reason: parked.failureReason ?? "",
        parked_at: parkedAt,
      },
      ConditionExpression: "attribute_not_exists(pk)",
    },
  };
}

function parseReview(item: Record<string, unknown>): ParkedPayment {
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  return ParkedPayment.parse({
    paymentId: item.payment_id,
    userId: item.user_id,
    status: item.status,
    amount: item.amount,
    currency: item.currency,
    selectedRail: item.selected_rail,
    stuckStatus: item.stuck_status,
    stepFailures: item.step_failures,
    lastError: item.last_error,
    reason: item.reason,
    parkedAt: item.parked_at,
    closedAt: text(item.closed_at),
    closedBy: text(item.closed_by),
    note: text(item.note),
  });
}

/** Parked payments, newest first, open and closed (closedAt says which); signed cursors. */
export async function listParkedPayments(ctx: CoreContext, query: ParkedListQuery): Promise<Page<ParkedPayment>> {
  const binding: CursorBinding = { secret: ctx.config.CURSOR_KEYS, scope: { route: "payments/review" } };
  return queryPage(
    ctx.db,
    { KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": PAYMENT_REVIEW_PARTITION } },
    ["pk", "sk"],
    { name: "pk", value: PAYMENT_REVIEW_PARTITION },
    binding,
    { limit: query.limit, offset: 0, cursor: query.cursor },
    (item) => (item.entity === REVIEW_ENTITY ? parseReview(item) : null),
  );
}

async function readReview(ctx: CoreContext, parkedAt: string, paymentId: string): Promise<ParkedPayment> {
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: paymentReviewKey(parkedAt, paymentId), ConsistentRead: true }),
  );
  if (!reply.Item) throw new Error(`The review item of parked payment ${paymentId} is missing`);
  return parseReview(reply.Item);
}

/**
 * An admin closes a parked payment: it ends as failed (its hold was already released when it was
 * parked), the payer gets a paymentError saying so, and the review item records who closed it,
 * when and why. 404 for an unknown id, 409 when the payment is not parked (or changed meanwhile).
 */
export async function closeParkedPayment(
  ctx: CoreContext,
  paymentId: string,
  adminEmail: string,
  body: unknown,
): Promise<ParkedPayment> {
  const { note } = parseWith(CloseParkedInput, body);
  const payment = isLedgerId(paymentId) ? await getPayment(ctx, paymentId) : null;
  if (!payment) throw notFound(PAYMENT_MESSAGES.paymentNotFound, "payment_not_found");
  if (payment.status !== "parked" || !payment.parkedAt)
    throw conflict(PAYMENT_MESSAGES.notParked, "payment_not_parked");
  const at = new Date(Math.max(ctx.clock().getTime(), Date.parse(payment.updatedAt))).toISOString();
  const reason = `${payment.failureReason ?? ""} ${PAYMENT_MESSAGES.closedAfterReview}`.trim();
  const next: StoredPayment = {
    ...payment,
    status: "failed",
    failureReason: reason,
    updatedAt: at,
    version: payment.version + 1,
    seq: payment.seq + 1,
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
            { event: { type: "paymentError", data: { paymentId, errorMessage: reason } } },
          ]),
          {
            Update: {
              TableName: ctx.db.table,
              Key: paymentReviewKey(payment.parkedAt, paymentId),
              UpdateExpression: "SET #status = :failed, closed_at = :at, closed_by = :by, note = :note",
              ConditionExpression: "attribute_exists(pk) AND attribute_not_exists(closed_at)",
              ExpressionAttributeNames: { "#status": "status" },
              ExpressionAttributeValues: { ":failed": "failed", ":at": at, ":by": adminEmail, ":note": note },
            },
          },
        ],
      }),
    );
  } catch (error) {
    const codes = cancellationCodes(error);
    if (codes?.includes("ConditionalCheckFailed") || codes?.includes("TransactionConflict"))
      throw conflict(PAYMENT_MESSAGES.notParked, "payment_not_parked");
    throw error;
  }
  announcePaymentCommit(ctx, next.userId, at);
  return readReview(ctx, payment.parkedAt, paymentId);
}
