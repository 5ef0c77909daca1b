import { fromDecimalString, toDecimalString } from "../money/model";
import {
  isActiveStatus,
  isWaitingForDecision,
  PAYMENT_MESSAGES,
  type Payment,
  type PaymentDetail,
  type PaymentHistoryEntry,
  type PaymentPayee,
  type RoutingView,
  type TimelineEntry,
} from "./model";

/**
 * A payment's detail as its payer reads it (pure: built from the stored payment and its
 * history): the timeline (created, the hold, a wait for a person and its outcome, each attempt on
 * a rail with its outcome, then posted or released), the routing decision (the rail chosen, the
 * eligible rails best first, the excluded ones with why) and the fee actually charged.
 *
 * What a payer is never shown: why a payment waits beyond what its status says (the screening
 * match, an administrator's reason and identity live in history notes, for administrators only).
 */

const payeeText = (payee: PaymentPayee): string => {
  switch (payee.kind) {
    case "account":
      return "your own account";
    case "user":
      return payee.email;
    case "external":
      return `${payee.name} (…${payee.accountLast4}, ${payee.country})`;
  }
};

const entry = (
  kind: TimelineEntry["kind"],
  at: string,
  title: string,
  tone: TimelineEntry["tone"],
  detail: string | null = null,
  rail: string | null = null,
): TimelineEntry => ({ kind, at, title, detail, rail, tone });

/** The history entries that moved the payment into or out of a wait for a person. */
function decisionEntries(history: readonly PaymentHistoryEntry[]): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  let waiting = false;
  for (const item of history) {
    if (isWaitingForDecision(item.status)) {
      if (!waiting)
        entries.push(
          entry(
            "waiting",
            item.at,
            item.status === "held_for_review" ? "Held for review" : "Awaiting approval",
            "waiting",
            item.status === "held_for_review"
              ? "A person checks this payment before it moves."
              : "A second person approves payments of this size before they move.",
          ),
        );
      waiting = true;
      continue;
    }
    if (waiting) {
      const approved = item.status === "pending";
      const message =
        item.event?.type === "paymentStatusUpdate"
          ? item.event.data.message
          : item.event?.type === "paymentError"
            ? item.event.data.errorMessage
            : null;
      entries.push(
        entry(
          "decided",
          item.at,
          approved ? "Approved" : "Refused after review",
          approved ? "success" : "error",
          message ?? (approved ? PAYMENT_MESSAGES.approved : PAYMENT_MESSAGES.refusedAfterReview),
        ),
      );
      waiting = false;
    }
  }
  return entries;
}

function attemptEntries(payment: Payment): TimelineEntry[] {
  return payment.attempts.flatMap((attempt) => {
    const started = entry(
      "attempt_started",
      attempt.startedAt,
      `Attempt ${attempt.number} on ${attempt.rail}`,
      "info",
      `Sent to ${attempt.rail}; its answer was due by ${attempt.dueAt}`,
      attempt.rail,
    );
    if (attempt.status === "in_flight" || attempt.finishedAt === null) return [started];
    if (attempt.status === "succeeded")
      return [
        started,
        entry(
          "attempt_succeeded",
          attempt.finishedAt,
          `${attempt.rail} confirmed the payment`,
          "success",
          null,
          attempt.rail,
        ),
      ];
    const next = payment.attempts.find((other) => other.number === attempt.number + 1);
    const detail = [
      attempt.errorMessage ?? "The rail refused it",
      attempt.errorCode ? `(${attempt.errorCode})` : null,
      next ? `: retried on ${next.rail}` : null,
    ]
      .filter(Boolean)
      .join(" ");
    return [
      started,
      entry(
        "attempt_failed",
        attempt.finishedAt,
        `Attempt ${attempt.number} on ${attempt.rail} failed`,
        "error",
        detail,
        attempt.rail,
      ),
    ];
  });
}

/** When the hold was released: the history entry that ended the payment, else its last change. */
function endedAt(payment: Payment, history: readonly PaymentHistoryEntry[]): string {
  const end = history.find(
    (item) => item.status === payment.status && (item.status === "failed" || item.status === "parked"),
  );
  return end?.at ?? payment.updatedAt;
}

export function paymentTimeline(payment: Payment, history: readonly PaymentHistoryEntry[]): TimelineEntry[] {
  // The hold carries the quoted fee (estimatedFee); the fee charged may end lower.
  const held = toDecimalString(
    payment.amountMinor + fromDecimalString(payment.estimatedFee, payment.currency),
    payment.currency,
  );
  const entries: TimelineEntry[] = [
    entry(
      "created",
      payment.createdAt,
      "Payment created",
      "info",
      `${payment.amount} ${payment.currency} to ${payeeText(payment.payee)}`,
    ),
    entry(
      "held",
      payment.createdAt,
      `${held} ${payment.currency} held`,
      "info",
      `The amount and the ${payment.estimatedFee} ${payment.currency} quoted fee are set aside from your account until the payment ends`,
    ),
    ...decisionEntries(history),
    ...attemptEntries(payment),
  ];
  if (payment.status === "completed" && payment.completedAt) {
    entries.push(
      entry(
        "posted",
        payment.completedAt,
        "Posted",
        "success",
        `${payment.amount} ${payment.currency} paid to ${payeeText(payment.payee)}; fee ${payment.fee} ${payment.currency}`,
      ),
    );
  } else if (payment.status === "failed" || payment.status === "parked") {
    const reason = payment.failureReason ?? "";
    const detail = /nothing was paid/i.test(reason)
      ? reason
      : `${reason ? `${reason}. ` : ""}Nothing was paid: the held amount and fee are available again.`;
    entries.push(entry("released", endedAt(payment, history), "Hold released", "error", detail));
  }
  // Stable: entries of the same instant keep the order above (created before held, started before its outcome).
  return entries
    .map((item, index) => ({ item, index }))
    .sort((a, b) => (a.item.at < b.item.at ? -1 : a.item.at > b.item.at ? 1 : a.index - b.index))
    .map(({ item }) => item);
}

/** The routing decision as the detail shows it: eligible rails best first, the others with why they were left out. */
export function routingView(payment: Payment): RoutingView {
  const { routing } = payment;
  const cannotCarry = new Set(routing.excluded.map((rail) => rail.railId));
  const eligible = routing.candidates
    .filter((candidate) => !cannotCarry.has(candidate.railId) && candidate.status === "active" && !candidate.eliminated)
    .sort((a, b) => b.score - a.score)
    .map((candidate) => ({
      rail: candidate.rail,
      cost: candidate.cost,
      score: candidate.score,
      successRate: candidate.successRate,
      note: candidate.note,
      chosen: candidate.railId === routing.chosenRailId,
    }));
  const outOfService = routing.candidates
    .filter(
      (candidate) => !cannotCarry.has(candidate.railId) && (candidate.status !== "active" || candidate.eliminated),
    )
    .map((candidate) => ({ rail: candidate.rail, reason: candidate.note }));
  const excluded = [...routing.excluded.map(({ rail, reason }) => ({ rail, reason })), ...outOfService];
  return { strategy: routing.strategy, chosenRail: routing.chosenRail, reason: routing.reason, eligible, excluded };
}

/** The fee the payer is charged: the payment's fee once posted, nothing once released, the held fee while it moves. */
export function feeCharged(payment: Payment): PaymentDetail["feeCharged"] {
  if (payment.status === "completed")
    return {
      fee: payment.fee,
      feeMinor: payment.feeMinor,
      currency: payment.currency,
      note: `Charged on completion (${payment.selectedRail})`,
    };
  if (payment.status === "failed" || payment.status === "parked")
    return {
      fee: toDecimalString(0, payment.currency),
      feeMinor: 0,
      currency: payment.currency,
      note: "Nothing charged: the hold was released",
    };
  const why = isActiveStatus(payment.status)
    ? "Held while the payment moves; charged when it completes"
    : "Held while the payment waits for a decision; charged only if it completes";
  return { fee: payment.fee, feeMinor: payment.feeMinor, currency: payment.currency, note: why };
}

export function paymentDetail(payment: Payment, history: readonly PaymentHistoryEntry[]): PaymentDetail {
  return {
    payment,
    timeline: paymentTimeline(payment, history),
    routing: routingView(payment),
    feeCharged: feeCharged(payment),
  };
}
