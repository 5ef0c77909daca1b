import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Link } from "react-router-dom";
import type { Currency } from "@fintech/core/money/model";
import type { CreatePaymentRequest, Recipient } from "@fintech/core/payments/model";
import { ApiError } from "../api/errors";
import { inputClass, labelClass, primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { keyFor, settled, type ActionKey } from "../ledger/actionKey";
import { useLedgerAccounts } from "../ledger/hooks";
import { cardClass, errorTextClass, FieldError, sectionTitleClass, Spinner, subtleTextClass } from "../ledger/ui";
import { LimitBanner } from "../limits/LimitBanner";
import { formatMoney, minorToDecimal } from "../lib/money";
import { useSession } from "../session/hooks";
import type { PaymentQuote } from "./api";
import type { PaymentLiveEvent } from "./events";
import { usePaymentStream } from "./hooks";
import { RecipientsPanel } from "./RecipientsPanel";
import {
  useCreatePayment,
  useFollowedPayment,
  useQuote,
  useRecipientChanges,
  useRefreshAllPayments,
} from "./sendHooks";
import {
  emptySendForm,
  fillFromRecipient,
  payingAccounts,
  sendProblem,
  sendRequest,
  statusView,
  TONE_TEXT,
  type SendErrors,
  type SendField,
  type SendForm,
  type SendProblem,
} from "./sendMoney";

/**
 * Send money (/payments/send): pay a person on the platform by email, or an outside bank account
 * (name, account number or IBAN, bank code, country), from one of your accounts. The form is
 * checked with the API's own schema; Review asks for a quote (fee, rail, arrival, total held);
 * Confirm sends the payment with one Idempotency-Key per action and follows it live (the payment
 * stream, and its status asked again while it moves or waits). Saved recipients fill the form.
 */

type Step =
  | { kind: "details" }
  | { kind: "review"; request: CreatePaymentRequest; currency: Currency; quote: PaymentQuote }
  | { kind: "sent"; paymentId: string };

export function SendMoneyScreen() {
  const userId = useSession()?.user.id ?? "";
  const accounts = useLedgerAccounts();
  const sources = payingAccounts(accounts.data ?? []);
  const [form, setForm] = useState<SendForm>(emptySendForm());
  const [errors, setErrors] = useState<SendErrors>({});
  const [step, setStep] = useState<Step>({ kind: "details" });
  const [problem, setProblem] = useState<SendProblem | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const action = useRef<ActionKey | null>(null);
  const stepHeading = useRef<HTMLHeadingElement>(null);
  const quote = useQuote();
  const create = useCreatePayment();
  const { add } = useRecipientChanges();

  useEffect(() => {
    if (!form.fromAccountId && sources[0]) setForm((current) => ({ ...current, fromAccountId: sources[0]!.id }));
  }, [form.fromAccountId, sources]);
  useEffect(() => {
    if (step.kind !== "details") stepHeading.current?.focus();
  }, [step.kind]);

  const set = <K extends keyof SendForm>(field: K, value: SendForm[K]) => {
    setForm((current) => ({ ...current, [field]: value }));
    if (field in errors) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const review = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const built = sendRequest(form, userId, sources);
    if (!built.ok) {
      setErrors(built.errors);
      const first = Object.keys(built.errors)[0] as SendField | undefined;
      if (first) document.getElementById(`send-${first}`)?.focus();
      return;
    }
    setErrors({});
    try {
      const quoted = await quote.mutateAsync(built.request);
      setStep({ kind: "review", request: built.request, currency: built.currency, quote: quoted });
    } catch (error) {
      setProblem(sendProblem(error, "The payment could not be quoted"));
    }
  };

  const confirm = async () => {
    if (step.kind !== "review") return;
    setProblem(null);
    const key = keyFor(action.current, step.request);
    action.current = key;
    try {
      const payment = await create.mutateAsync({ input: step.request, idempotencyKey: key.key });
      action.current = settled(key);
      setStep({ kind: "sent", paymentId: payment.paymentId });
      if (form.save) {
        const payee =
          step.request.toEmail !== undefined
            ? { email: step.request.toEmail }
            : { beneficiary: step.request.beneficiary };
        add.mutate(
          { label: form.saveLabel.trim(), ...payee },
          {
            onSuccess: () => setNotice(`Saved to your recipients as ${form.saveLabel.trim()}.`),
            onError: (error) =>
              setNotice(`The recipient was not saved: ${sendProblem(error, "please try again").message}`),
          },
        );
      }
    } catch (error) {
      // A refusal is the server's verdict: a new attempt is a new payment. No reply keeps the key for a retry.
      if (error instanceof ApiError && error.status !== null && error.status < 500) action.current = settled(key);
      setProblem(sendProblem(error, "The payment was not sent"));
    }
  };

  const startOver = () => {
    setForm(emptySendForm(form.fromAccountId));
    setStep({ kind: "details" });
    setProblem(null);
    setNotice(null);
    action.current = null;
  };

  const paySavedRecipient = (recipient: Recipient) => {
    setForm((current) => fillFromRecipient(current, recipient));
    setErrors({});
    setNotice(`Paying ${recipient.label}.`);
  };

  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-8 sm:px-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-3xl font-bold tracking-tight text-slate-900 dark:text-white">Send money</h1>
          <p className={`mt-2 ${subtleTextClass}`}>
            Pay a person on the platform by email, or a bank account by its number or IBAN. You see the fee, the rail
            and when it arrives before you confirm.
          </p>
        </div>
        <Link to="/payments" className={secondaryButtonClass}>
          Back to payments
        </Link>
      </header>

      <LimitBanner currencies={sources.map((account) => account.currency as Currency)} />

      {problem && <ProblemNotice problem={problem} />}
      <div role="status" aria-live="polite">
        {notice && <p className="break-words text-sm text-slate-700 dark:text-slate-200">{notice}</p>}
      </div>

      {step.kind === "details" && (
        <>
          {accounts.isPending ? (
            <p className={subtleTextClass}>
              <Spinner label="Loading your accounts…" />
            </p>
          ) : sources.length === 0 ? (
            <section className={cardClass}>
              <p className={subtleTextClass}>
                You need an active account to pay from.{" "}
                <Link to="/ledger" className="font-semibold text-indigo-700 underline dark:text-indigo-300">
                  Open one on the Ledger
                </Link>
              </p>
            </section>
          ) : (
            <DetailsForm
              form={form}
              errors={errors}
              sources={sources}
              set={set}
              onSubmit={review}
              busy={quote.isPending}
            />
          )}
          <RecipientsPanel onUse={paySavedRecipient} />
        </>
      )}

      {step.kind === "review" && (
        <section aria-labelledby="send-review-heading" className={`${cardClass} space-y-4`}>
          <h2 id="send-review-heading" ref={stepHeading} tabIndex={-1} className={sectionTitleClass}>
            Review and confirm
          </h2>
          <QuoteDetails
            quote={step.quote}
            fromName={sources.find((account) => account.id === step.request.fromAccountId)?.name ?? ""}
            description={step.request.description}
          />
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className={secondaryButtonClass}
              onClick={() => setStep({ kind: "details" })}
              disabled={create.isPending}
            >
              Change details
            </button>
            <button
              type="button"
              className={primaryButtonClass}
              onClick={() => void confirm()}
              disabled={create.isPending}
            >
              {create.isPending ? (
                <Spinner label="Sending…" />
              ) : (
                `Confirm and send ${formatMoney(step.quote.total, step.quote.currency)}`
              )}
            </button>
          </div>
        </section>
      )}

      {step.kind === "sent" && (
        <SentPayment paymentId={step.paymentId} headingRef={stepHeading} onAnother={startOver} />
      )}
    </div>
  );
}

function ProblemNotice({ problem }: { problem: SendProblem }) {
  return (
    <div role="alert" className="rounded-lg border border-red-300 bg-red-50 p-4 dark:border-red-800 dark:bg-red-950">
      <p className={errorTextClass}>{problem.message}</p>
      {problem.needsVerification && (
        <p className="mt-2 text-sm">
          <Link to="/kyc" className="font-semibold text-indigo-700 underline dark:text-indigo-300">
            Verify your identity
          </Link>{" "}
          <span className="text-slate-700 dark:text-slate-200">to pay other people and outside accounts.</span>
        </p>
      )}
    </div>
  );
}

const fieldProps = (id: string, error: string | undefined) => ({
  id,
  "aria-invalid": error ? true : undefined,
  "aria-describedby": error ? `${id}-error` : undefined,
});

function TextField({
  field,
  label,
  value,
  error,
  onChange,
  hint,
  autoComplete = "off",
  inputMode,
}: {
  field: SendField;
  label: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
  hint?: string;
  autoComplete?: string;
  inputMode?: "text" | "email" | "decimal";
}) {
  const id = `send-${field}`;
  return (
    <div className="min-w-0">
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <input
        {...fieldProps(id, error)}
        type="text"
        inputMode={inputMode}
        autoComplete={autoComplete}
        spellCheck={false}
        className={inputClass}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
      {hint && !error && <p className="mt-1 text-xs text-slate-600 dark:text-slate-300">{hint}</p>}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

function DetailsForm({
  form,
  errors,
  sources,
  set,
  onSubmit,
  busy,
}: {
  form: SendForm;
  errors: SendErrors;
  sources: ReturnType<typeof payingAccounts>;
  set: <K extends keyof SendForm>(field: K, value: SendForm[K]) => void;
  onSubmit: (event: FormEvent) => void;
  busy: boolean;
}) {
  const from = sources.find((account) => account.id === form.fromAccountId);
  return (
    <form noValidate onSubmit={onSubmit} aria-labelledby="send-details-heading" className={`${cardClass} space-y-5`}>
      <h2 id="send-details-heading" className={sectionTitleClass}>
        Payment details
      </h2>
      <div>
        <label htmlFor="send-fromAccountId" className={labelClass}>
          Pay from
        </label>
        <select
          {...fieldProps("send-fromAccountId", errors.fromAccountId)}
          className={inputClass}
          value={form.fromAccountId}
          onChange={(event) => set("fromAccountId", event.target.value)}
        >
          {sources.map((account) => (
            <option key={account.id} value={account.id}>
              {account.name} · {account.currency} ·{" "}
              {formatMoney(minorToDecimal(account.available_minor, account.currency), account.currency)} available
            </option>
          ))}
        </select>
        <FieldError id="send-fromAccountId-error" message={errors.fromAccountId} />
      </div>

      <fieldset>
        <legend className={labelClass}>Pay to</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {(
            [
              ["user", "A person on the platform (email)"],
              ["external", "A bank account (account number or IBAN)"],
            ] as const
          ).map(([kind, text]) => (
            <label key={kind} className="flex items-center gap-2 text-sm text-slate-800 dark:text-slate-100">
              <input
                type="radio"
                name="payee-kind"
                value={kind}
                checked={form.payeeKind === kind}
                onChange={() => set("payeeKind", kind)}
                className="h-4 w-4 accent-indigo-600"
              />
              {text}
            </label>
          ))}
        </div>
      </fieldset>

      {form.payeeKind === "user" ? (
        <TextField
          field="email"
          label="Their email address"
          value={form.email}
          error={errors.email}
          onChange={(value) => set("email", value)}
          inputMode="email"
          autoComplete="email"
        />
      ) : (
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            field="name"
            label="Account holder's name"
            value={form.name}
            error={errors.name}
            onChange={(value) => set("name", value)}
            autoComplete="name"
          />
          <TextField
            field="accountNumber"
            label="Account number or IBAN"
            value={form.accountNumber}
            error={errors.accountNumber}
            onChange={(value) => set("accountNumber", value)}
            hint="An IBAN is checked, and must be of the country below"
          />
          <TextField
            field="bankCode"
            label="Bank code (BIC or routing number, optional)"
            value={form.bankCode}
            error={errors.bankCode}
            onChange={(value) => set("bankCode", value)}
          />
          <TextField
            field="country"
            label="Bank's country (two letters, e.g. DE)"
            value={form.country}
            error={errors.country}
            onChange={(value) => set("country", value)}
            autoComplete="country"
          />
        </div>
      )}

      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          field="amount"
          label={`Amount${from ? ` (${from.currency})` : ""}`}
          value={form.amount}
          error={errors.amount}
          onChange={(value) => set("amount", value)}
          inputMode="decimal"
        />
        <TextField
          field="description"
          label="Description (optional)"
          value={form.description}
          error={errors.description}
          onChange={(value) => set("description", value)}
        />
      </div>

      <div className="space-y-2">
        <label className="flex items-center gap-2 text-sm text-slate-800 dark:text-slate-100">
          <input
            type="checkbox"
            checked={form.save}
            onChange={(event) => set("save", event.target.checked)}
            className="h-4 w-4 accent-indigo-600"
          />
          Save this recipient for next time
        </label>
        {form.save && (
          <TextField
            field="saveLabel"
            label="Save as"
            value={form.saveLabel}
            error={errors.saveLabel}
            onChange={(value) => set("saveLabel", value)}
          />
        )}
      </div>

      <button type="submit" className={primaryButtonClass} disabled={busy}>
        {busy ? <Spinner label="Getting a quote…" /> : "Review payment"}
      </button>
    </form>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap justify-between gap-x-4 gap-y-1 py-2">
      <dt className="text-sm text-slate-600 dark:text-slate-300">{label}</dt>
      <dd className="min-w-0 break-words text-right text-sm font-medium text-slate-900 dark:text-white">{children}</dd>
    </div>
  );
}

function payeeLine(quote: PaymentQuote): string {
  const payee = quote.payee as PaymentQuote["payee"] & { accountLast4?: string; country?: string };
  return payee.kind === "external" && payee.accountLast4
    ? `${payee.name} (…${payee.accountLast4}${payee.country ? `, ${payee.country}` : ""})`
    : payee.name;
}

function QuoteDetails({
  quote,
  fromName,
  description,
}: {
  quote: PaymentQuote;
  fromName: string;
  description?: string;
}) {
  return (
    <>
      <dl className="divide-y divide-slate-200 dark:divide-slate-800">
        <Row label="To">{payeeLine(quote)}</Row>
        <Row label="From">{fromName}</Row>
        {description && <Row label="Description">{description}</Row>}
        <Row label="Amount">{formatMoney(quote.amount, quote.currency)}</Row>
        <Row label="Fee">
          {formatMoney(quote.fee, quote.feeCurrency)} ({quote.rail})
        </Row>
        <Row label="Total held from your account">{formatMoney(quote.total, quote.currency)}</Row>
        <Row label="Arrives">{quote.arrivalEstimate}</Row>
      </dl>
      {(quote.eligible.length > 1 || quote.excluded.length > 0) && (
        <details className="text-sm text-slate-700 dark:text-slate-200">
          <summary className="cursor-pointer font-medium">Why {quote.rail}?</summary>
          <ul className="mt-2 space-y-1">
            {quote.eligible.map((rail) => (
              <li key={rail.rail}>
                {rail.rail}: fee {formatMoney(rail.fee, rail.feeCurrency)}
                {rail.rail === quote.rail ? " (chosen)" : ""}
              </li>
            ))}
            {quote.excluded.map((rail) => (
              <li key={rail.rail}>
                {rail.rail}: not available ({rail.reason})
              </li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}

function SentPayment({
  paymentId,
  headingRef,
  onAnother,
}: {
  paymentId: string;
  headingRef: React.RefObject<HTMLHeadingElement | null>;
  onAnother: () => void;
}) {
  const followed = useFollowedPayment(paymentId);
  const refresh = useRefreshAllPayments();
  const onEvent = useCallback(
    (event: PaymentLiveEvent) => {
      if (event.data.paymentId === paymentId) refresh();
    },
    [paymentId, refresh],
  );
  const payment = followed.data;
  const view = payment ? statusView(payment.status, payment.failureReason) : null;
  usePaymentStream(view ? !view.final : true, onEvent);
  return (
    <section aria-labelledby="send-sent-heading" className={`${cardClass} space-y-4`} data-payment-id={paymentId}>
      <h2 id="send-sent-heading" ref={headingRef} tabIndex={-1} className={sectionTitleClass}>
        Payment sent
      </h2>
      <div role="status" aria-live="polite" className="space-y-1">
        {view && payment ? (
          <>
            <p className={`text-lg font-semibold ${TONE_TEXT[view.tone]}`} data-status={payment.status}>
              {view.title}
            </p>
            <p className="break-words text-sm text-slate-700 dark:text-slate-200">{view.detail}</p>
            <p className={subtleTextClass}>
              {formatMoney(payment.amount, payment.currency)} · fee {formatMoney(payment.fee, payment.currency)} ·{" "}
              {payment.selectedRail}
            </p>
          </>
        ) : followed.isError ? (
          <p className={errorTextClass}>
            The payment was sent; its status could not be loaded. Open its details to follow it.
          </p>
        ) : (
          <Spinner label="Following the payment…" />
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        <Link to={`/payments/${paymentId}`} className={secondaryButtonClass}>
          View payment details
        </Link>
        <button type="button" className={primaryButtonClass} onClick={onAnother}>
          Send another payment
        </button>
      </div>
    </section>
  );
}
