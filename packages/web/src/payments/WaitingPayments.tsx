import { formatDateTime } from "../ledger/format";
import { cardClass, sectionTitleClass } from "../ledger/ui";
import { formatMoney } from "../lib/money";
import { usePaymentList } from "./hooks";
import { payeeText, WAITING_WORDS, waitingPayments } from "./reviews";

/**
 * The payer's payments that wait for an administrator, each with what it waits for ("Held for
 * review", "Awaiting approval") and what that means for their money. Nothing shows when none waits.
 */
export function WaitingPayments() {
  const list = usePaymentList();
  const waiting = waitingPayments(list.data?.payments ?? []);
  if (waiting.length === 0) return null;
  return (
    <section aria-labelledby="waiting-payments-heading" className={`${cardClass} space-y-3`}>
      <h2 id="waiting-payments-heading" className={sectionTitleClass}>
        Waiting for a decision
      </h2>
      <ul className="divide-y divide-slate-200 dark:divide-slate-800">
        {waiting.map((payment) => {
          const words = WAITING_WORDS[payment.status as keyof typeof WAITING_WORDS];
          return (
            <li
              key={payment.paymentId}
              className="flex min-w-0 flex-wrap items-start justify-between gap-3 py-3"
              data-payment-id={payment.paymentId}
            >
              <div className="min-w-0 flex-1">
                <p className="font-semibold text-slate-900 dark:text-white">
                  {formatMoney(payment.amount, payment.currency)} to{" "}
                  {payment.payee.kind === "account" ? "your account" : payeeText(payment.payee)}
                </p>
                <p className="text-sm text-slate-700 dark:text-slate-200">{words.detail}</p>
                <p className="text-xs text-slate-600 dark:text-slate-300">{formatDateTime(payment.createdAt)}</p>
              </div>
              <span className="inline-flex shrink-0 items-center rounded-full bg-amber-100 px-3 py-1 text-sm font-semibold text-amber-900 dark:bg-amber-950 dark:text-amber-200">
                {words.badge}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
