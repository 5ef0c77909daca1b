import { findUserById } from "../auth/users";
import { APPROVAL_MESSAGES, needsSecondApprover, thresholdText } from "../approvals/model";
import { thresholdFor } from "../approvals/thresholds";
import { findUserSubmission } from "../kyc/submissions";
import type { Currency } from "../money/model";
import type { ScreeningDecision } from "../screening/model";
import { SCREENING_MESSAGES } from "../screening/model";
import { screenCounterparty, type Counterparty } from "../screening/screen";
import type { CoreContext } from "../shared/context";
import type { PaymentReview, PaymentStatus } from "./model";
import type { ResolvedPayee } from "./payees";

/**
 * What a payment must pass after its payee is known and before its hold is written:
 * 1. the payee's screening (screening/screen.ts): an embargoed country refuses the payment
 *    (422 `embargoed_country`, nothing written); a sanctions-list name holds it for review;
 * 2. four eyes (approvals/): an amount above the payment threshold waits for approval.
 * A screening hit comes first: the administrator who releases it is the second person four eyes
 * asks for, so one decision covers both.
 */

export interface PaymentGate {
  status: Extract<PaymentStatus, "pending" | "held_for_review" | "awaiting_approval">;
  screening: ScreeningDecision;
  /** Null when the payment goes ahead at once; openedAt is the payment's creation time, set when it is built. */
  review: Omit<PaymentReview, "openedAt"> | null;
  /** What the payer's feed says when it waits. */
  message: string | null;
}

/**
 * The counterparty to screen: a beneficiary as given, a platform user as their KYC (or profile)
 * names them, nobody for the payer's own account.
 */
async function counterpartyOf(ctx: CoreContext, payee: ResolvedPayee): Promise<Counterparty> {
  if (payee.view.kind === "external")
    return { subject: "beneficiary", name: payee.view.name, country: payee.view.country, countryFromPayer: true };
  if (payee.view.kind === "account")
    return { subject: "own_account", name: null, country: null, countryFromPayer: false };
  const ownerId = payee.account.owner_id;
  const [user, submission] = await Promise.all([findUserById(ctx.db, ownerId), findUserSubmission(ctx, ownerId)]);
  const profileName = user ? `${user.first_name} ${user.last_name}`.trim() : "";
  const country = submission && /^[A-Z]{2}$/.test(submission.country) ? submission.country : null;
  return {
    subject: "platform_user",
    name: submission?.name.trim() || profileName || null,
    country,
    countryFromPayer: false,
  };
}

export async function gatePayment(
  ctx: CoreContext,
  payee: ResolvedPayee,
  currency: Currency,
  amountMinor: number,
): Promise<PaymentGate> {
  const screening = await screenCounterparty(ctx, await counterpartyOf(ctx, payee), ctx.clock().toISOString());
  if (screening.result === "hit" && screening.match) {
    const { match } = screening;
    const why = `Payee name "${screening.screenedName}" matched "${match.entry}" (as "${match.matchedName}") on ${match.list}, score ${match.score}`;
    return {
      status: "held_for_review",
      screening,
      review: { kind: "screening", why, thresholdMinor: null, decision: null },
      message: SCREENING_MESSAGES.heldForReview,
    };
  }
  const threshold = await thresholdFor(ctx, "payment", currency);
  if (needsSecondApprover(threshold, amountMinor)) {
    const why = `Amount ${thresholdText(amountMinor, currency)} is above the four-eyes threshold of ${thresholdText(threshold, currency)}`;
    return {
      status: "awaiting_approval",
      screening,
      review: { kind: "four_eyes", why, thresholdMinor: threshold, decision: null },
      message: APPROVAL_MESSAGES.paymentAwaitingApproval(threshold, currency),
    };
  }
  return { status: "pending", screening, review: null, message: null };
}
