import { useState, type FormEvent } from "react";
import { Link } from "react-router-dom";
import {
  PAYMENT_STATUSES,
  PaymentListQuery,
  type Payment,
  type PaymentListFilters,
  type PaymentPayee,
} from "@fintech/core/payments/model";
import { inputClass, labelClass, primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { cardClass, errorTextClass, sectionTitleClass, Spinner, subtleTextClass } from "../ledger/ui";
import { formatMoney } from "../lib/money";
import { useRails } from "../rails/hooks";
import { statusWord } from "./events";
import { usePaymentPages } from "./sendHooks";
import { sendProblem } from "./sendMoney";

/**
 * The caller's payments: filters (status, rail, dates, amount range, counterparty), a search over
 * the payee and the description, and pages that follow the API's signed cursors. The filters are
 * checked with the API's own query schema before they are sent; each row opens the payment's
 * detail.
 */

type FilterForm = Required<{ [K in keyof PaymentListFilters]: string }>;
type FilterField = keyof FilterForm;

const EMPTY: FilterForm = {
  status: "",
  rail: "",
  currency: "",
  from: "",
  to: "",
  minAmount: "",
  maxAmount: "",
  counterparty: "",
  q: "",
};

/** What the list shows of the payee: the email, the beneficiary's name and last four, or "your account". */
export function payeeLabel(payee: PaymentPayee): string {
  switch (payee.kind) {
    case "account":
      return "Your own account";
    case "user":
      return payee.email;
    case "external":
      return `${payee.name} (…${payee.accountLast4})`;
  }
}

/** The filled fields as the API's query (blank ones left out). */
const activeFilters = (form: FilterForm): PaymentListFilters =>
  Object.fromEntries(Object.entries(form).filter(([, value]) => value.trim() !== "")) as PaymentListFilters;

export function PaymentsList() {
  const [form, setForm] = useState<FilterForm>(EMPTY);
  const [filters, setFilters] = useState<PaymentListFilters>({});
  const [error, setError] = useState<{ field: FilterField | null; message: string } | null>(null);
  const pages = usePaymentPages(filters);
  const rails = useRails();
  const payments = pages.data?.pages.flatMap((page) => page.payments) ?? [];
  const filtered = Object.keys(filters).length > 0;

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const next = activeFilters(form);
    const checked = PaymentListQuery.safeParse(next);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      const field = (issue.path[0] as FilterField | undefined) ?? null;
      setError({ field, message: issue.message });
      if (field) document.getElementById(`payments-filter-${field}`)?.focus();
      return;
    }
    setError(null);
    setFilters(next);
  };
  const clear = () => {
    setForm(EMPTY);
    setFilters({});
    setError(null);
  };

  const field = (
    name: FilterField,
    label: string,
    props: { type?: string; inputMode?: "decimal" | "search"; placeholder?: string } = {},
  ) => {
    const id = `payments-filter-${name}`;
    const invalid = error?.field === name;
    return (
      <div className="min-w-0">
        <label htmlFor={id} className={labelClass}>
          {label}
        </label>
        <input
          id={id}
          type={props.type ?? "text"}
          inputMode={props.inputMode}
          placeholder={props.placeholder}
          className={inputClass}
          value={form[name]}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={invalid ? "payments-filter-error" : undefined}
          onChange={(event) => setForm((current) => ({ ...current, [name]: event.target.value }))}
        />
      </div>
    );
  };

  return (
    <section aria-labelledby="payments-list-heading" className={`${cardClass} min-w-0 space-y-4`}>
      <h2 id="payments-list-heading" className={sectionTitleClass}>
        Your payments
      </h2>
      <form role="search" aria-label="Filter payments" onSubmit={apply} noValidate className="space-y-3">
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <div className="min-w-0 sm:col-span-2">
            {field("q", "Search payee or description", { type: "search", inputMode: "search" })}
          </div>
          <div className="min-w-0">
            <label htmlFor="payments-filter-status" className={labelClass}>
              Payment status
            </label>
            <select
              id="payments-filter-status"
              className={inputClass}
              value={form.status}
              onChange={(event) => setForm((current) => ({ ...current, status: event.target.value }))}
            >
              <option value="">Any status</option>
              {PAYMENT_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {statusWord(status)}
                </option>
              ))}
            </select>
          </div>
          <div className="min-w-0">
            <label htmlFor="payments-filter-rail" className={labelClass}>
              Rail
            </label>
            <select
              id="payments-filter-rail"
              className={inputClass}
              value={form.rail}
              onChange={(event) => setForm((current) => ({ ...current, rail: event.target.value }))}
            >
              <option value="">Any rail</option>
              {(rails.data ?? []).map((rail) => (
                <option key={rail.id} value={rail.name}>
                  {rail.name}
                </option>
              ))}
            </select>
          </div>
          {field("from", "From date", { type: "date" })}
          {field("to", "To date", { type: "date" })}
          {field("minAmount", "Amount at least", { inputMode: "decimal" })}
          {field("maxAmount", "Amount at most", { inputMode: "decimal" })}
          <div className="min-w-0 sm:col-span-2">{field("counterparty", "Counterparty (email, name or last 4)")}</div>
        </div>
        {error && (
          <p id="payments-filter-error" role="alert" className={errorTextClass}>
            {error.message}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <button type="submit" className={primaryButtonClass}>
            Apply filters
          </button>
          {filtered && (
            <button type="button" className={secondaryButtonClass} onClick={clear}>
              Clear filters
            </button>
          )}
        </div>
      </form>

      {pages.isPending ? (
        <Spinner label="Loading your payments…" />
      ) : pages.isError ? (
        <p role="alert" className={errorTextClass}>
          Your payments could not be loaded: {sendProblem(pages.error, "please try again").message}
        </p>
      ) : payments.length === 0 ? (
        <p className={subtleTextClass}>
          {filtered ? "No payment matches these filters." : "No payments yet. Send money to see it here."}
        </p>
      ) : (
        <>
          <div className="overflow-x-auto">
            <table
              className="w-full min-w-[40rem] text-left text-sm"
              aria-label={filtered ? "Your payments, filtered" : "Your payments"}
            >
              <thead className="text-xs uppercase text-slate-600 dark:text-slate-300">
                <tr>
                  <th scope="col" className="py-2 pr-3">
                    Date
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    To
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    Description
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    Rail
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    Status
                  </th>
                  <th scope="col" className="py-2 text-right">
                    Amount
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
                {payments.map((payment) => (
                  <PaymentRow key={payment.paymentId} payment={payment} />
                ))}
              </tbody>
            </table>
          </div>
          {pages.hasNextPage && (
            <button
              type="button"
              className={secondaryButtonClass}
              onClick={() => void pages.fetchNextPage()}
              disabled={pages.isFetchingNextPage}
            >
              {pages.isFetchingNextPage ? <Spinner label="Loading more…" /> : "Load more payments"}
            </button>
          )}
        </>
      )}
    </section>
  );
}

function PaymentRow({ payment }: { payment: Payment }) {
  return (
    <tr data-payment-id={payment.paymentId} data-status={payment.status}>
      <td className="whitespace-nowrap py-2 pr-3 tabular-nums text-slate-700 dark:text-slate-200">
        <time dateTime={payment.createdAt}>
          {new Date(payment.createdAt).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric" })}
        </time>
      </td>
      <td className="max-w-[14rem] break-words py-2 pr-3">
        <Link
          to={`/payments/${payment.paymentId}`}
          className="font-medium text-indigo-700 underline dark:text-indigo-300"
        >
          {payeeLabel(payment.payee)}
        </Link>
      </td>
      <td className="max-w-[14rem] break-words py-2 pr-3 text-slate-700 dark:text-slate-200">{payment.description}</td>
      <td className="py-2 pr-3 text-slate-700 dark:text-slate-200">{payment.selectedRail}</td>
      <td className="py-2 pr-3 text-slate-900 dark:text-white">{statusWord(payment.status)}</td>
      <td className="whitespace-nowrap py-2 text-right font-medium tabular-nums text-slate-900 dark:text-white">
        {formatMoney(payment.amount, payment.currency)}
      </td>
    </tr>
  );
}
