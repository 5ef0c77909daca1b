import { zodResolver } from "@hookform/resolvers/zod";
import { useReducer, useRef, useState, type ReactNode } from "react";
import { Link } from "react-router-dom";
import { useForm } from "react-hook-form";
import toast from "react-hot-toast";
import type { FormCurrency, LedgerAccount } from "../api/types";
import { primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { writeErrorMessage } from "./actionErrors";
import { AmountField, CurrencyField, DescriptionField } from "./fields";
import { transferDetailsSchema, type TransferDetails } from "./formSchemas";
import { accountOptionLabel, createdMessage } from "./format";
import { useTransfer } from "./hooks";
import { LEDGER_UI_MESSAGES } from "./messages";
import { formCurrency } from "./money";
import type { QuoteReply } from "@fintech/core/fx/model";
import { parseAmount } from "@fintech/core/money/model";
import { FxQuoteReview } from "../treasury/FxQuoteReview";
import { formatMoney } from "../lib/money";
import { SubView } from "./SubView";
import {
  destinationsFor,
  initialTransferState,
  TRANSFER_STEP_LABELS,
  transferBody,
  transferReducer,
} from "./transferWizard";
import {
  errorTextClass,
  isLocked,
  LockedBadge,
  Money,
  ReviewItem,
  Spinner,
  StatusBadge,
  StepList,
  subtleTextClass,
  WizardButtons,
} from "./ui";
import { useStepFocus } from "./useStepFocus";

interface TransferWizardProps {
  accounts: LedgerAccount[];
  /** Pre-selected source (the Transfer button of an account). */
  fromId: string | null;
  /** Cancel or completion: back to the overview. */
  onClose: () => void;
}

/**
 * Transfer wizard (docs/product/ledger-workspace.md#transfer-wizard): source, destination, amount,
 * confirm; then the result.
 */
export function TransferWizard({ accounts, fromId, onClose }: TransferWizardProps) {
  const preset = accounts.find((account) => account.id === fromId) ?? null;
  const [state, dispatch] = useReducer(transferReducer, undefined, () =>
    initialTransferState(preset?.id ?? null, preset?.currency),
  );
  const transfer = useTransfer();
  const inFlight = useRef(false);
  const stepHeading = useStepFocus<HTMLHeadingElement>(state.step);
  const from = accounts.find((account) => account.id === state.fromId) ?? null;
  const to = accounts.find((account) => account.id === state.toId) ?? null;

  const crossCurrency = Boolean(from && to && from.currency !== to.currency);
  const [quote, setQuote] = useState<QuoteReply | null>(null);

  const confirm = async () => {
    // A second click while the first is in flight sends nothing; a retry reuses the same key.
    if (inFlight.current || !state.action || (crossCurrency && !quote)) return;
    inFlight.current = true;
    try {
      // Between currencies the quote is part of the request: a new quote is a new request (its own key).
      const reply = await transfer.mutateAsync(
        crossCurrency && quote
          ? { body: { ...transferBody(state), quote_id: quote.id }, idempotencyKey: `${state.action.key}-${quote.id}` }
          : { body: transferBody(state), idempotencyKey: state.action.key },
      );
      toast.success(createdMessage("Transfer", reply.data));
      dispatch({ type: "done", result: reply.data });
    } catch (error) {
      const message = writeErrorMessage(error, LEDGER_UI_MESSAGES.transferFailed);
      toast.error(message);
      dispatch({ type: "failed", message });
    } finally {
      inFlight.current = false;
    }
  };

  if (accounts.length < 2) {
    return (
      <SubView id="transfer" title="Transfer Funds" onClose={onClose} closeLabel="Close transfer">
        <p className={subtleTextClass}>
          You need at least two accounts to transfer between. Connect another account first.
        </p>
        <div className="mt-4">
          <button type="button" className={secondaryButtonClass} onClick={onClose}>
            Back to overview
          </button>
        </div>
      </SubView>
    );
  }

  const titles = [
    "Choose the source account",
    "Choose the destination account",
    "Amount and description",
    "Confirm the transfer",
    "Transfer submitted",
  ];

  return (
    <SubView
      id="transfer"
      title="Transfer Funds"
      description="Move money between your own accounts. Transfers start as drafts until approved."
      onClose={onClose}
      closeLabel="Close transfer"
    >
      <p className={`mb-3 ${subtleTextClass}`}>
        Paying a person or an outside bank account?{" "}
        <Link to="/payments/send" className="font-semibold text-indigo-700 underline dark:text-indigo-300">
          Send money
        </Link>
      </p>
      <StepList labels={TRANSFER_STEP_LABELS} current={Math.min(state.step, 5)} label="Transfer progress" />
      <h3
        ref={stepHeading}
        tabIndex={-1}
        className="mt-5 text-lg font-semibold text-slate-900 outline-none dark:text-white"
      >
        {state.step <= 4 ? `Step ${state.step} of 4: ` : ""}
        {titles[state.step - 1]}
      </h3>

      {state.step === 1 && (
        <AccountChoices
          legend="Source account"
          options={accounts.map((account) => ({ account, selectable: true }))}
          selectedId={state.fromId}
          onChoose={(account) => dispatch({ type: "from", accountId: account.id, currency: account.currency })}
        />
      )}

      {state.step === 2 && (
        <>
          <AccountChoices
            legend="Destination account"
            options={destinationsFor(accounts, state.fromId)}
            selectedId={state.toId}
            onChoose={(account) => dispatch({ type: "to", accountId: account.id })}
          />
          <WizardButtons onBack={() => dispatch({ type: "back" })} />
        </>
      )}

      {state.step === 3 && (
        <AmountStep
          defaults={{ amount: state.amount, currency: state.currency, description: state.description }}
          currencies={from ? [formCurrency(from.currency)] : [state.currency]}
          summary={
            <p className={subtleTextClass}>
              From <strong className="text-slate-900 dark:text-white">{from?.name}</strong> to{" "}
              <strong className="text-slate-900 dark:text-white">{to?.name}</strong>
              {from && (
                <>
                  {" "}
                  · available <Money minor={from.available_minor} currency={from.currency} />
                </>
              )}
            </p>
          }
          onBack={() => dispatch({ type: "back" })}
          onSubmit={(values) => dispatch({ type: "details", values })}
        />
      )}

      {state.step === 4 && from && to && (
        <div className="mt-4">
          <dl className="grid gap-3 rounded-xl border border-slate-200 p-4 text-sm sm:grid-cols-2 dark:border-slate-700">
            <ReviewItem label="From">{accountOptionLabel(from)}</ReviewItem>
            <ReviewItem label="To">{accountOptionLabel(to)}</ReviewItem>
            <ReviewItem label="Amount">{displayAmount(state.amount, state.currency)}</ReviewItem>
            <ReviewItem label="Description">{state.description || "-"}</ReviewItem>
          </dl>
          {crossCurrency && (
            <FxQuoteReview from={from.currency} to={to.currency} amount={state.amount} onQuote={setQuote} />
          )}
          {state.submitError && (
            <p role="alert" className={`mt-3 ${errorTextClass}`}>
              {state.submitError}
            </p>
          )}
          <WizardButtons onBack={() => dispatch({ type: "back" })} backDisabled={transfer.isPending}>
            <button
              type="button"
              className={primaryButtonClass}
              onClick={() => void confirm()}
              disabled={transfer.isPending || (crossCurrency && !quote)}
              aria-disabled={transfer.isPending || (crossCurrency && !quote)}
            >
              {transfer.isPending ? (
                <Spinner label="Transferring…" />
              ) : state.submitError ? (
                "Retry transfer"
              ) : (
                "Confirm Transfer"
              )}
            </button>
          </WizardButtons>
        </div>
      )}

      {state.step === 5 && state.result && (
        <div className="mt-4" role="status">
          <div className="rounded-xl border border-emerald-200 bg-emerald-50 p-4 dark:border-emerald-900 dark:bg-emerald-950/50">
            <p className="font-semibold text-emerald-900 dark:text-emerald-100">
              Transfer of <Money minor={state.result.total_amount_minor} currency={state.result.currency} /> created
            </p>
            <p className="mt-1 flex items-center gap-2 text-sm text-emerald-900 dark:text-emerald-100">
              Status: <StatusBadge status={state.result.status} />
              {state.result.status === "draft" && <span>- approve it on the Transactions tab to post it.</span>}
            </p>
            <p className="mt-1 font-mono text-xs text-emerald-900/80 dark:text-emerald-100/80">
              Reference {state.result.id}
            </p>
          </div>
          <div className="mt-6 flex justify-end">
            <button type="button" className={primaryButtonClass} onClick={onClose}>
              Done
            </button>
          </div>
        </div>
      )}
    </SubView>
  );
}

/** Step 3: amount, currency (the source account's) and description, validated with the server's rules. */
function AmountStep({
  defaults,
  currencies,
  summary,
  onBack,
  onSubmit,
}: {
  defaults: TransferDetails;
  currencies: readonly FormCurrency[];
  summary: ReactNode;
  onBack: () => void;
  onSubmit: (values: TransferDetails) => void;
}) {
  const { register, handleSubmit, formState } = useForm<TransferDetails>({
    resolver: zodResolver(transferDetailsSchema),
    defaultValues: defaults,
  });
  const errors = formState.errors;
  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate className="mt-4 space-y-4">
      {summary}
      <div className="grid gap-4 sm:grid-cols-3">
        <AmountField id="transfer-amount" registration={register("amount")} error={errors.amount?.message} />
        <CurrencyField
          id="transfer-currency"
          registration={register("currency")}
          error={errors.currency?.message}
          options={currencies}
          hint="The source account's currency"
        />
        <DescriptionField
          id="transfer-description"
          registration={register("description")}
          error={errors.description?.message}
        />
      </div>
      <WizardButtons onBack={onBack}>
        <button type="submit" className={primaryButtonClass}>
          Review transfer
        </button>
      </WizardButtons>
    </form>
  );
}

function displayAmount(amount: string, currency: FormCurrency): string {
  const parsed = parseAmount(amount, currency);
  return parsed.ok ? formatMoney(parsed.minor, currency) : `${amount} ${currency}`;
}

function AccountChoices({
  legend,
  options,
  selectedId,
  onChoose,
}: {
  legend: string;
  options: { account: LedgerAccount; selectable: boolean; converted?: boolean }[];
  selectedId: string | null;
  onChoose: (account: LedgerAccount) => void;
}) {
  return (
    <fieldset className="mt-4">
      <legend className="sr-only">{legend}</legend>
      <ul className="grid gap-3 sm:grid-cols-2">
        {options.map(({ account, selectable, converted }) => (
          <li key={account.id}>
            <button
              type="button"
              disabled={!selectable}
              aria-pressed={account.id === selectedId}
              onClick={() => onChoose(account)}
              className={`flex w-full items-center justify-between gap-3 rounded-xl border p-3 text-left disabled:cursor-not-allowed disabled:opacity-60 ${
                account.id === selectedId
                  ? "border-indigo-500 bg-indigo-50 dark:border-indigo-400 dark:bg-indigo-950/50"
                  : "border-slate-200 bg-white hover:border-indigo-400 dark:border-slate-700 dark:bg-slate-900 dark:hover:border-indigo-500"
              }`}
            >
              <span className="min-w-0">
                <span className="flex min-w-0 items-center gap-2">
                  <span className="truncate font-medium text-slate-900 dark:text-white">{account.name}</span>
                  {isLocked(account) && <LockedBadge />}
                </span>
                <span className="block truncate font-mono text-xs text-slate-600 dark:text-slate-400">
                  {account.account_number}
                </span>
                {!selectable && (
                  <span className="block text-xs text-slate-600 dark:text-slate-400">Different currency</span>
                )}
                {converted && (
                  <span className="block text-xs text-slate-600 dark:text-slate-400">
                    {account.currency}: converted at a quote
                  </span>
                )}
              </span>
              <span className="shrink-0 text-right text-sm">
                <span className="block font-semibold text-slate-900 dark:text-white">
                  <Money minor={account.available_minor} currency={account.currency} />
                </span>
                <span className="block text-xs text-slate-600 dark:text-slate-400">available</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
