import { Link, useParams } from "react-router-dom";
import type { PaymentDetail, TimelineEntry } from "@fintech/core/payments/model";
import { ApiError } from "../api/errors";
import { secondaryButtonClass } from "../components/styles";
import { cardClass, errorTextClass, sectionTitleClass, Spinner, subtleTextClass } from "../ledger/ui";
import { formatMoney } from "../lib/money";
import { payeeLabel } from "./PaymentsList";
import { usePaymentDetail } from "./sendHooks";
import { sendProblem, statusView, TONE_TEXT } from "./sendMoney";

/**
 * One payment (/payments/:id), for its payer (and administrators): its status, the timeline
 * (created, the hold, a wait for a decision and its outcome, each attempt on a rail with its
 * outcome, then posted or released), the routing decision (the rail chosen and why, the eligible
 * rails best first, the excluded ones with why) and the fee actually charged. Asked again while
 * the payment moves or waits.
 */
export function PaymentDetailScreen() {
  const paymentId = useParams().id ?? "";
  const detail = usePaymentDetail(paymentId);
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-8 sm:px-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-3xl font-bold tracking-tight text-slate-900 dark:text-white">Payment details</h1>
          <p className={`mt-1 break-all font-mono text-xs ${subtleTextClass}`}>{paymentId}</p>
        </div>
        <nav aria-label="Payment pages" className="flex flex-wrap gap-2">
          <Link to="/payments" className={secondaryButtonClass}>
            All payments
          </Link>
          <Link to="/payments/send" className={secondaryButtonClass}>
            Send money
          </Link>
        </nav>
      </header>
      {detail.isPending ? (
        <Spinner label="Loading the payment…" />
      ) : detail.isError ? (
        <p role="alert" className={errorTextClass}>
          {detail.error instanceof ApiError && detail.error.status === 404
            ? "No payment of yours has this id."
            : `The payment could not be loaded: ${sendProblem(detail.error, "please try again").message}`}
        </p>
      ) : (
        <DetailBody detail={detail.data} />
      )}
    </div>
  );
}

const TIMELINE_DOT: Record<TimelineEntry["tone"], string> = {
  info: "bg-indigo-600 dark:bg-indigo-400",
  success: "bg-emerald-600 dark:bg-emerald-400",
  error: "bg-red-600 dark:bg-red-400",
  waiting: "bg-amber-500 dark:bg-amber-300",
};

const timeText = (at: string) => new Date(at).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "medium" });

function DetailBody({ detail }: { detail: PaymentDetail }) {
  const { payment, timeline, routing, feeCharged } = detail;
  const view = statusView(payment.status, payment.failureReason);
  return (
    <>
      <section aria-labelledby="payment-summary-heading" className={`${cardClass} space-y-3`}>
        <h2 id="payment-summary-heading" className="sr-only">
          Summary
        </h2>
        <div role="status" aria-live="polite">
          <p className={`text-xl font-semibold ${TONE_TEXT[view.tone]}`} data-status={payment.status}>
            {view.title}
          </p>
          <p className="break-words text-sm text-slate-700 dark:text-slate-200">{view.detail}</p>
        </div>
        <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <Fact label="Amount">{formatMoney(payment.amount, payment.currency)}</Fact>
          <Fact label="To">{payeeLabel(payment.payee)}</Fact>
          <Fact label="Fee charged">
            {formatMoney(feeCharged.fee, feeCharged.currency)}
            <span className="block text-xs font-normal text-slate-600 dark:text-slate-300">{feeCharged.note}</span>
          </Fact>
          <Fact label="Rail">{payment.selectedRail}</Fact>
        </dl>
        {payment.description && (
          <p className="break-words text-sm text-slate-700 dark:text-slate-200">{payment.description}</p>
        )}
      </section>

      <section aria-labelledby="payment-timeline-heading" className={cardClass}>
        <h2 id="payment-timeline-heading" className={sectionTitleClass}>
          Timeline
        </h2>
        <ol className="mt-3 space-y-3" aria-label="Payment timeline, oldest first">
          {timeline.map((entry, index) => (
            <li key={`${entry.kind}-${index}`} className="flex min-w-0 gap-3" data-kind={entry.kind}>
              <span
                aria-hidden="true"
                className={`mt-1.5 h-2.5 w-2.5 shrink-0 rounded-full ${TIMELINE_DOT[entry.tone]}`}
              />
              <div className="min-w-0 flex-1">
                <p className="flex flex-wrap items-baseline justify-between gap-x-3">
                  <span className="font-semibold text-slate-900 dark:text-white">{entry.title}</span>
                  <time dateTime={entry.at} className="text-xs tabular-nums text-slate-600 dark:text-slate-300">
                    {timeText(entry.at)}
                  </time>
                </p>
                {entry.detail && (
                  <p className="break-words text-sm text-slate-700 dark:text-slate-200">{entry.detail}</p>
                )}
              </div>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="payment-routing-heading" className={`${cardClass} space-y-3`}>
        <h2 id="payment-routing-heading" className={sectionTitleClass}>
          Routing decision
        </h2>
        <p className="break-words text-sm text-slate-700 dark:text-slate-200">
          <strong className="text-slate-900 dark:text-white">{routing.chosenRail}</strong> (
          {routing.strategy.replace("_", " ")}): {routing.reason}
        </p>
        <div>
          <h3 className="text-sm font-semibold text-slate-900 dark:text-white">
            Rails that could carry it, best first
          </h3>
          <ol className="mt-1 space-y-1 text-sm text-slate-700 dark:text-slate-200" aria-label="Eligible rails">
            {routing.eligible.map((rail) => (
              <li key={rail.rail} className="break-words">
                <span className="font-medium text-slate-900 dark:text-white">{rail.rail}</span>
                {rail.chosen ? " (chosen)" : ""}: cost {formatMoney(rail.cost, payment.currency)}, success estimate{" "}
                {(rail.successRate * 100).toFixed(1)} %
              </li>
            ))}
          </ol>
        </div>
        {routing.excluded.length > 0 && (
          <div>
            <h3 className="text-sm font-semibold text-slate-900 dark:text-white">Rails left out</h3>
            <ul className="mt-1 space-y-1 text-sm text-slate-700 dark:text-slate-200" aria-label="Excluded rails">
              {routing.excluded.map((rail) => (
                <li key={rail.rail} className="break-words">
                  <span className="font-medium text-slate-900 dark:text-white">{rail.rail}</span>: {rail.reason}
                </li>
              ))}
            </ul>
          </div>
        )}
      </section>
    </>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm text-slate-600 dark:text-slate-300">{label}</dt>
      <dd className="break-words font-semibold text-slate-900 dark:text-white">{children}</dd>
    </div>
  );
}
