import type { CoreContext } from "../shared/context";
import { badRequest, conflict, forbidden, notFound, unprocessable } from "../shared/errors";
import { newId } from "../shared/ids";
import { parseWith } from "../shared/validation";
import { parseAmount, toDecimalString } from "../money/model";
import { createJournal, decidedOnce } from "../ledger/journal-create";
import { ExtraItemsRefused } from "../ledger/journal-writes";
import { journalIdFor, JournalReplay, requestHash, type JournalDraft } from "../ledger/journals";
import { LEDGER_MESSAGES, isLedgerId } from "../ledger/model";
import type { Account } from "../ledger/accounts";
import { railCostMinor } from "../rails/cost";
import { decisionItems, routePayment } from "../rails/routing";
import { destinationCountry } from "../rails/regions";
import {
  CreatePaymentInput,
  CreatePaymentReply,
  formatProcessingTime,
  PAYMENT_MESSAGES,
  type PaymentCaller,
  type PaymentEvent,
} from "./model";
import { gatePayment } from "./gate";
import {
  paysSomeoneElse,
  requirePayerCanCover,
  requireSystemAccounts,
  resolvePayee,
  resolvePayer,
  type ResolvedPayee,
} from "./payees";
import { gateMoney, withReservation } from "../limits/gate";
import { limitPaymentCreation } from "../limits/payment-rate";
import {
  announcePaymentCommit,
  duePut,
  getPayment,
  historyPuts,
  paymentItem,
  publicPayment,
  type StoredPayment,
} from "./store";
import { chargedFee, heldPartsOf, requestSchedule, type ChargedFee } from "./worker";

/**
 * Initiating a payment (docs/product/payments.md#calls, docs/payments-and-rails.md#payments): the
 * request is validated before anything is read for it (400, never recorded), the payee resolved,
 * the rail chosen by the routing, and then ONE transaction writes the hold (a draft journal of
 * amount + the quoted fee: the fee of the best-ranked rail, what POST /v1/payments/quote shows,
 * even when an exploration pick carries the payment), the payment (its fee what the carrying rail
 * charges, capped at the held fee: worker.ts chargedFee), its first history entry
 * (paymentInitiated), the routing decision and the due marker that hands the payment to the worker
 * (none while it waits for an administrator: decisions.ts). Nothing is written when any check
 * refuses.
 */

export interface InitiateResult {
  /** The reply body (JSON); a replay is byte for byte the first reply. */
  body: string;
  replayed: boolean;
  reply: CreatePaymentReply;
}

/** Idempotency-Keys the HTTP layer lets through: 1 to 255 visible ASCII characters. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * The payment id of a keyed request: derived from (payer, key) like a ledger journal id, in a
 * namespace of its own, so the same key used for a ledger transfer names another id.
 */
export const paymentIdFor = (userId: string, idempotencyKey: string | null): string =>
  idempotencyKey === null ? newId() : journalIdFor(userId, `payment\u0000${idempotencyKey}`);

function replyOf(payment: StoredPayment): CreatePaymentReply {
  return { message: "Payment initiated", payment: publicPayment(payment) };
}

/** The stored reply to the request that created `payment`, or 422 when this key came with another request. */
function replayOf(payment: StoredPayment, hash: string): InitiateResult {
  if (payment.requestHash !== hash) throw unprocessable(LEDGER_MESSAGES.idempotencyMismatch, "idempotency_key_reused");
  return {
    body: payment.createdReply,
    replayed: true,
    reply: CreatePaymentReply.parse(JSON.parse(payment.createdReply)),
  };
}

/**
 * The hold's legs (docs/payments-and-rails.md#payments): payer gives amount + fee; payee (or
 * clearing) gets the amount; fees and the FX part go to the system accounts.
 */
function holdDraft(
  caller: PaymentCaller,
  payee: ResolvedPayee,
  amountMinor: number,
  fee: ChargedFee,
  description: string,
  accounts: { fees: Account; fx: Account },
): JournalDraft {
  const feeRevenue = fee.breakdownMinor.fixedFee + fee.breakdownMinor.networkFee;
  const legs: JournalDraft["legs"] = [
    { account: payee.payer, side: "credit", amount: amountMinor + fee.totalMinor },
    { account: payee.account, side: "debit", amount: amountMinor },
    { account: accounts.fees, side: "debit", amount: feeRevenue },
    { account: accounts.fx, side: "debit", amount: fee.breakdownMinor.fxSpread },
  ];
  return {
    type: "payment",
    ownerId: caller.userId,
    currency: payee.payer.currency,
    description,
    actor: {
      id: caller.userId,
      name: `${caller.user.first_name} ${caller.user.last_name}`.trim() || caller.user.email,
    },
    // Zero legs are left out (a USD payment has no FX part; JPY may round a fee part to 0).
    legs: legs.filter((leg) => leg.amount > 0),
    // How the ledger names each side to the other: the payee sees the payer's name, the payer whom they paid.
    parties: {
      payerName: `${caller.user.first_name} ${caller.user.last_name}`.trim(),
      payeeLabel: defaultDescription(payee).replace(/^Payment to /, ""),
    },
  };
}

/** The description of a payment when the payer gives none: says where it goes, never the payee's account. */
function defaultDescription(payee: ResolvedPayee): string {
  if (payee.view.kind === "account") return `Payment to ${payee.account.name}`;
  if (payee.view.kind === "user") return `Payment to ${payee.view.email}`;
  return `Payment to ${payee.view.name} (…${payee.view.accountLast4})`;
}

/**
 * POST /v1/payments and the stream's initiatePayment command. Order: the caller's rate (429),
 * shape (400), the caller (403), the amount (400), an Idempotency-Key replay, the payer's
 * accounts (404/422), the level (403 kyc_required), the routing (422 `rail_ineligible` when a
 * forced rail cannot carry it, `no_eligible_rail` when none can, `no_rail_available` when none runs),
 * the payer's funds and limits (422 insufficient_funds / limit_exceeded, recorded under a key),
 * and only then the payee (one 422 payee_cannot_receive for any payee problem) and its screening
 * (422 embargoed_country; a sanctions-list name, or an amount above the four-eyes threshold, makes
 * the payment wait for an administrator: gate.ts), then the one transaction (which still refuses
 * a hold that no longer fits the available balance). The scheduler (if any) is asked to run the
 * first step; without one, the sweeper finds the due marker.
 */
export async function initiatePayment(
  ctx: CoreContext,
  caller: PaymentCaller,
  body: unknown,
  idempotencyKey: string | null,
): Promise<InitiateResult> {
  await limitPaymentCreation(ctx, caller.userId);
  if (idempotencyKey !== null && !IDEMPOTENCY_KEY.test(idempotencyKey))
    throw badRequest("Idempotency-Key must be 1 to 255 visible ASCII characters", "invalid_idempotency_key");
  const input = parseWith(CreatePaymentInput, body);
  if (input.userId !== caller.userId) throw forbidden(PAYMENT_MESSAGES.userIdNotCaller, "not_your_user_id");
  const amount = parseAmount(input.amount, input.currency);
  if (!amount.ok) throw badRequest(amount.message, "invalid_amount");
  const amountMinor = amount.minor;
  const hash = requestHash({
    op: "payment",
    fromAccountId: input.fromAccountId,
    amountMinor,
    currency: input.currency,
    description: input.description ?? "",
    preferredRail: input.preferredRail ?? null,
    forceRail: input.forceRail ?? null,
    toAccountId: input.toAccountId ?? null,
    toEmail: input.toEmail?.toLowerCase() ?? null,
    beneficiary: input.beneficiary ?? null,
  });
  const paymentId = paymentIdFor(caller.userId, idempotencyKey);
  if (idempotencyKey !== null) {
    const earlier = await getPayment(ctx, paymentId);
    if (earlier) return replayOf(earlier, hash);
  }

  // The payer's side, all of it, before the payee is looked up: until the payer has a usable,
  // funded account, the level and the limits for this payment (and a rail for it), every reply
  // is the same whoever the payee is, so the form cannot tell who is registered here.
  const payerSide = await resolvePayer(ctx, caller, input);
  const moneyGate = await gateMoney(
    ctx,
    caller.userId,
    paysSomeoneElse(input) ? [{ movement: "outgoing", currency: input.currency, amountMinor }] : [],
  );
  const { decision, rail, quotedRail } = await routePayment(ctx, {
    paymentId,
    amountMinor,
    currency: input.currency,
    country: destinationCountry(input),
    preferredRail: input.preferredRail,
    forceRail: input.forceRail,
  });
  // The hold is the quoted fee; the payer is charged the carrying rail's fee up to it.
  const heldFee = railCostMinor(quotedRail, amountMinor, input.currency);
  const fee = chargedFee(railCostMinor(rail, amountMinor, input.currency), heldPartsOf(heldFee));
  const idempotency = { key: idempotencyKey, hash };
  const payerChecked = await decidedOnce(
    ctx,
    { journalId: paymentId, ownerId: caller.userId, idempotency },
    async () => {
      await requirePayerCanCover(ctx, payerSide.payer, amountMinor + heldFee.totalMinor);
      await moneyGate.reserve();
      return "payer checked";
    },
  );
  if (payerChecked instanceof JournalReplay) return await replayAfterRace(ctx, paymentId, hash);

  const payee = await resolvePayee(ctx, input, payerSide);
  // Screening and four eyes, before the hold: an embargoed payee refuses here, nothing written.
  const gate = await gatePayment(ctx, payee, input.currency, amountMinor);
  const accounts = await requireSystemAccounts(ctx, input.currency, ["fees", "fx"] as const);
  const description = input.description || defaultDescription(payee);
  const money = (minor: number) => toDecimalString(minor, input.currency);

  // The first step (the attempt's start) is due at once. The commit instant may lie a few ms
  // after the clock (the ledger orders commits per chain), so "at once" is the clock's now.
  const dueNow = ctx.clock().toISOString();
  let created: StoredPayment | null = null;
  const build = (at: string): StoredPayment => {
    const payment: StoredPayment = {
      paymentId,
      userId: caller.userId,
      status: gate.status,
      amount: money(amountMinor),
      amountMinor,
      currency: input.currency,
      fee: money(fee.totalMinor),
      feeMinor: fee.totalMinor,
      feeBreakdown: {
        fixedFee: money(fee.breakdownMinor.fixedFee),
        fxSpread: money(fee.breakdownMinor.fxSpread),
        networkFee: money(fee.breakdownMinor.networkFee),
      },
      selectedRail: rail.name,
      railId: rail.id,
      fromAccountId: payee.payer.id,
      payee: payee.view,
      description,
      attempts: [],
      routing: decision,
      journalId: paymentId,
      // The quoted fee, held: the most this payment can charge (worker.ts heldFeeMinor reads it).
      estimatedFee: money(heldFee.totalMinor),
      estimatedTime: formatProcessingTime(rail.avgProcessingTime),
      fxRate: 1,
      initiatedAt: at,
      createdAt: at,
      updatedAt: at,
      completedAt: null,
      failureReason: null,
      version: 1,
      seq: gate.message === null ? 1 : 2,
      payeeAccountId: payee.account.id,
      idempotencyKey,
      requestHash: hash,
      createdReply: "",
      // A payment waiting for a decision has nothing due: no marker, so no worker or sweep moves it.
      nextDueAt: gate.status === "pending" ? (dueNow < at ? dueNow : at) : null,
      parkedAt: null,
      screening: gate.screening,
      review: gate.review === null ? null : { ...gate.review, openedAt: at },
    };
    payment.createdReply = JSON.stringify(replyOf(payment));
    return payment;
  };
  const initiated = (payment: StoredPayment): PaymentEvent => ({
    type: "paymentInitiated",
    data: {
      paymentId,
      amount: payment.amount,
      currency: payment.currency,
      selectedRail: payment.selectedRail,
      estimatedFee: payment.estimatedFee,
      estimatedTime: payment.estimatedTime,
      fxRate: payment.fxRate,
      message: `Payment of ${payment.amount} ${payment.currency} initiated on ${payment.selectedRail}`,
      initiatedAt: payment.initiatedAt,
    },
  });

  try {
    // A keyed request refused for a business rule (insufficient funds, a locked account) records
    // the refusal under the payment's id, as ledger writes do: a retry with the key gets the same
    // refusal, even after funds arrive (docs/ledger.md#decisions-stay-decided). The payer's totals
    // (limits/gate.ts) commit with the hold, decided again if another payment of theirs won.
    const result = await decidedOnce(ctx, { journalId: paymentId, ownerId: caller.userId, idempotency }, () =>
      withReservation(moneyGate, (limitItems) =>
        createJournal(ctx, holdDraft(caller, payee, amountMinor, heldFee, description, accounts), idempotency, {
          id: paymentId,
          extraItems: (at) => {
            const payment = build(at);
            created = payment;
            return [
              {
                Put: {
                  TableName: ctx.db.table,
                  Item: paymentItem(payment),
                  ConditionExpression: "attribute_not_exists(pk)",
                },
              },
              ...historyPuts(ctx, payment, 1, at, [
                { event: initiated(payment) },
                ...(gate.message === null
                  ? []
                  : [
                      {
                        event: {
                          type: "paymentStatusUpdate",
                          data: { paymentId, status: payment.status, message: gate.message },
                        } satisfies PaymentEvent,
                        note: payment.review?.why,
                      },
                    ]),
              ]),
              ...decisionItems(decision, {
                paymentId,
                userId: caller.userId,
                at,
                attemptNumber: 1,
                table: ctx.db.table,
              }),
              ...(payment.nextDueAt === null ? [] : [duePut(ctx, paymentId, payment.nextDueAt)]),
              ...limitItems,
            ];
          },
        }),
      ),
    );
    if (result instanceof JournalReplay) return await replayAfterRace(ctx, paymentId, hash);
  } catch (error) {
    // A concurrent duplicate with the same key committed first (its payment or journal exists).
    if (error instanceof ExtraItemsRefused && idempotencyKey !== null)
      return await replayAfterRace(ctx, paymentId, hash);
    throw error;
  }
  const payment = created as StoredPayment | null;
  if (!payment) throw new Error("initiatePayment: the payment was not built");
  announcePaymentCommit(ctx, payment.userId, payment.createdAt);
  await requestSchedule(ctx, payment.paymentId, payment.nextDueAt);
  return { body: payment.createdReply, replayed: false, reply: replyOf(payment) };
}

/** Creates a payment: the same as initiatePayment (the stream command of docs/product/payments.md#calls). */
export const createPayment = initiatePayment;

async function replayAfterRace(ctx: CoreContext, paymentId: string, hash: string): Promise<InitiateResult> {
  const earlier = await getPayment(ctx, paymentId);
  if (!earlier) throw conflict(LEDGER_MESSAGES.idempotencyInProgress, "idempotency_in_progress");
  return replayOf(earlier, hash);
}

/** One payment of the caller; another user's is the same 404 as an unknown id. */
export async function requireOwnPayment(ctx: CoreContext, userId: string, paymentId: string): Promise<StoredPayment> {
  const payment = isLedgerId(paymentId) ? await getPayment(ctx, paymentId) : null;
  if (!payment || payment.userId !== userId) throw notFound(PAYMENT_MESSAGES.paymentNotFound, "payment_not_found");
  return payment;
}
