import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import toast from "react-hot-toast";
import { paymentReviewsApi, type PaymentReviewCase } from "../api/paymentReviews";
import { errorMessage } from "../api/errors";
import { secondaryButtonClass } from "../components/styles";
import { formatDateTime } from "../ledger/format";
import {
  cardClass,
  dangerButtonClass,
  sectionTitleClass,
  smallPrimaryButtonClass,
  subtleTextClass,
} from "../ledger/ui";
import { formatMoney } from "../lib/money";
import { Loaded } from "../rails/Loaded";
import { useSession } from "../session/hooks";
import { DecisionDialog, type Decision } from "./DecisionDialog";
import { usePaymentsUser, useRefreshPayments } from "./hooks";
import { caseSubject, kindLabel, matchText, payeeText, WAITING_WORDS } from "./reviews";

/** Asked again this often while the queue is on screen: other administrators decide too. */
const QUEUE_POLL_MS = 15_000;

const reviewKey = (userId: string) => ["payments", userId, "reviews"] as const;

/**
 * Administrators' queue of payments waiting for a person (GET /v1/payments/reviews): each says
 * why it waits (the screening match, or the threshold it is above) and offers Approve and Reject,
 * both with a required reason. A payment the administrator made is shown but not decidable: the
 * server refuses it too (403 second_approver_required). Shown to administrators only; the server
 * refuses everyone else (403 admin_required).
 */
export function PaymentReviewQueue() {
  return useSession()?.user.role === "admin" ? <ReviewQueue /> : null;
}

function ReviewQueue() {
  const userId = usePaymentsUser();
  const queryClient = useQueryClient();
  const refreshPayments = useRefreshPayments();
  const reviews = useQuery({
    queryKey: reviewKey(userId),
    queryFn: ({ signal }) => paymentReviewsApi.list(signal),
    refetchInterval: QUEUE_POLL_MS,
    retry: false,
  });
  const [deciding, setDeciding] = useState<{ review: PaymentReviewCase; decision: Decision } | null>(null);
  const decide = useMutation({
    mutationFn: ({ review, decision, reason }: { review: PaymentReviewCase; decision: Decision; reason: string }) =>
      paymentReviewsApi.decide(review.paymentId, { decision, reason }),
    onSuccess: (decided) => {
      toast.success(
        decided.decision?.outcome === "rejected"
          ? "Payment rejected: its hold is released"
          : "Payment approved: it is on its way",
      );
      setDeciding(null);
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: reviewKey(userId) });
      refreshPayments();
    },
  });

  return (
    <section aria-labelledby="payment-reviews-heading" className={`${cardClass} space-y-4`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="payment-reviews-heading" className={sectionTitleClass}>
          Payments awaiting a decision{" "}
          <span className="ml-2 rounded-full bg-slate-100 px-2 py-0.5 align-middle text-xs font-semibold text-slate-700 dark:bg-slate-800 dark:text-slate-200">
            Administrators
          </span>
        </h2>
        <button type="button" className={`${secondaryButtonClass} !px-3 !py-1`} onClick={() => void reviews.refetch()}>
          Refresh
        </button>
      </div>
      <Loaded query={reviews} what="the payments awaiting a decision">
        {(items) =>
          items.length === 0 ? (
            <p className={subtleTextClass}>No payment is held for review or awaiting approval.</p>
          ) : (
            <ul aria-label="Payments awaiting a decision" className="divide-y divide-slate-200 dark:divide-slate-800">
              {items.map((review) => (
                <li
                  key={review.paymentId}
                  className="flex min-w-0 flex-wrap items-start justify-between gap-3 py-3"
                  data-payment-id={review.paymentId}
                >
                  <div className="min-w-0 flex-1 space-y-1">
                    <p className="font-semibold text-slate-900 dark:text-white">
                      {formatMoney(review.amount, review.currency)} to {payeeText(review.payee)}
                    </p>
                    <p className="text-sm text-slate-700 dark:text-slate-200">
                      {review.status === "held_for_review" || review.status === "awaiting_approval"
                        ? WAITING_WORDS[review.status].badge
                        : review.status}{" "}
                      · {kindLabel(review.kind)} · {formatDateTime(review.createdAt)}
                    </p>
                    {matchText(review) && (
                      <p className="break-words text-sm text-slate-700 dark:text-slate-200">
                        Match: {matchText(review)}
                      </p>
                    )}
                    {review.why && review.kind === "four_eyes" && (
                      <p className="break-words text-sm text-slate-700 dark:text-slate-200">{review.why}</p>
                    )}
                    <p className="break-all font-mono text-xs text-slate-600 dark:text-slate-300">{review.paymentId}</p>
                  </div>
                  {review.canDecide ? (
                    <div className="flex shrink-0 gap-2">
                      <button
                        type="button"
                        className={smallPrimaryButtonClass}
                        onClick={() => setDeciding({ review, decision: "approve" })}
                        aria-label={`Approve ${caseSubject(review)}`}
                      >
                        Approve
                      </button>
                      <button
                        type="button"
                        className={dangerButtonClass}
                        onClick={() => setDeciding({ review, decision: "reject" })}
                        aria-label={`Reject ${caseSubject(review)}`}
                      >
                        Reject
                      </button>
                    </div>
                  ) : (
                    <p className={`max-w-xs ${subtleTextClass}`}>{review.cannotDecideReason}</p>
                  )}
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      {deciding && (
        <DecisionDialog
          decision={deciding.decision}
          subject={caseSubject(deciding.review)}
          busy={decide.isPending}
          error={decide.isError ? errorMessage(decide.error, "The decision was not saved") : null}
          onConfirm={(reason) => decide.mutate({ review: deciding.review, decision: deciding.decision, reason })}
          onCancel={() => {
            setDeciding(null);
            decide.reset();
          }}
        >
          <p>
            {deciding.decision === "approve"
              ? "Approving releases the payment: it is sent on its rail at once."
              : "Rejecting refuses the payment: its hold is released and nothing is paid."}
          </p>
        </DecisionDialog>
      )}
    </section>
  );
}
