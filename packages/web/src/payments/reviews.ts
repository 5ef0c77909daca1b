import {
  isWaitingForDecision,
  type Payment,
  type PaymentPayee,
  type PaymentReviewCase,
} from "@fintech/core/payments/model";
import { formatMoney } from "../lib/money";

/**
 * Words for payments that wait for an administrator: what the payer reads on their payments
 * (held for review, awaiting approval) and how the administrators' queue names a case.
 */

export const WAITING_WORDS = {
  held_for_review: {
    badge: "Held for review",
    detail: "A compliance check is looking at the payee. The amount and fee stay held until it is decided.",
  },
  awaiting_approval: {
    badge: "Awaiting approval",
    detail:
      "Above the approval threshold: an administrator approves it before it is sent. The amount and fee stay held.",
  },
} as const;

/** The payer's payments that wait for a decision, newest first as listed. */
export const waitingPayments = (payments: readonly Payment[]): Payment[] =>
  payments.filter((payment) => isWaitingForDecision(payment.status));

/** Who receives a payment, in words: "Kim Jong Un (…3000, CN)", "grace@example.com", "your account". */
export function payeeText(payee: PaymentPayee): string {
  if (payee.kind === "external") return `${payee.name} (…${payee.accountLast4}, ${payee.country})`;
  if (payee.kind === "user") return payee.email;
  return "one of the payer's own accounts";
}

/** "payment of $250.00 to Kim Jong Un (…3000, CN)": what a decision acts on. */
export const caseSubject = (review: Pick<PaymentReviewCase, "amount" | "currency" | "payee">): string =>
  `payment of ${formatMoney(review.amount, review.currency)} to ${payeeText(review.payee)}`;

/** The queue's label for why a case waits. */
export const kindLabel = (kind: PaymentReviewCase["kind"]): string =>
  kind === "screening" ? "Sanctions screening" : kind === "four_eyes" ? "Four eyes" : "None";

/** A screening match in one line: "KIM, Jong Un on Seeded … (score 0.97)". */
export function matchText(review: PaymentReviewCase): string | null {
  const match = review.screening?.match;
  if (!match) return null;
  return `${match.entry}${match.entryType ? ` (${match.entryType})` : ""} on ${match.list}, score ${match.score}`;
}
