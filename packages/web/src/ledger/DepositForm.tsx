import { useEffect, useRef, useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { FORM_CURRENCIES, type FormCurrency, type LedgerAccount } from "../api/types";
import { inputClass, labelClass, primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { CloseIcon } from "../components/icons";
import { keyFor, settled, type ActionKey } from "./actionKey";
import { writeErrorMessage } from "./actionErrors";
import { AMOUNT_STEP, DEFAULT_DEPOSIT_AMOUNT } from "./constants";
import { depositBody, responseText, testBalanceBody, validateDeposit, type DepositErrors, type DepositFields } from "./depositForm";
import { accountOptionLabel } from "./format";
import { useDeposit, useTestBalance } from "./hooks";
import { LEDGER_UI_MESSAGES } from "./messages";
import { formatMoney } from "../lib/money";
import { SubView } from "./SubView";
import { errorTextClass, FieldError, Spinner, subtleTextClass } from "./ui";

interface DepositFormProps {
  accounts: LedgerAccount[];
  accountId: string | null;
  onClose: () => void;
  onConnect: () => void;
}

const formCurrency = (currency: string | undefined): FormCurrency => (currency === "EUR" || currency === "GBP" ? currency : "USD");

/** The deposit form of spec 000 §2.7: Create Deposit and Get Test Balance, with the API Response box. */
export function DepositForm({ accounts, accountId, onClose, onConnect }: DepositFormProps) {
  const initial = accounts.find((account) => account.id === accountId) ?? (accounts.length === 1 ? accounts[0] : undefined);
  const [fields, setFields] = useState<DepositFields>(() => ({
    accountId: initial?.id ?? "",
    amount: DEFAULT_DEPOSIT_AMOUNT,
    currency: formCurrency(initial?.currency),
    description: "",
  }));
  const [errors, setErrors] = useState<DepositErrors>({});
  const [response, setResponse] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const deposit = useDeposit();
  const testBalance = useTestBalance();
  const depositKey = useRef<ActionKey | null>(null);
  const testKey = useRef<ActionKey | null>(null);
  const inFlight = useRef(false);
  const responseRef = useRef<HTMLPreElement>(null);
  const busy = deposit.isPending || testBalance.isPending;

  useEffect(() => {
    if (response) responseRef.current?.focus();
  }, [response]);

  const edit = (change: Partial<DepositFields>) => {
    setFields((current) => {
      const next = { ...current, ...change };
      // Choosing an account brings its currency along; a different one would be refused.
      if (change.accountId !== undefined) {
        const account = accounts.find((item) => item.id === change.accountId);
        if (account) next.currency = formCurrency(account.currency);
      }
      return next;
    });
    setErrors((current) => {
      const next = { ...current };
      if (change.accountId !== undefined) delete next.accountId;
      if (change.amount !== undefined || change.currency !== undefined) delete next.amount;
      return next;
    });
    setFailure(null);
  };

  const run = async (kind: "deposit" | "test") => {
    if (inFlight.current) return;
    const problems = validateDeposit(fields);
    // The test balance's amount is the server's default, so the amount field does not matter.
    if (kind === "test") delete problems.amount;
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    inFlight.current = true;
    setFailure(null);
    try {
      if (kind === "deposit") {
        const body = depositBody(fields);
        depositKey.current = keyFor(depositKey.current, body);
        const reply = await deposit.mutateAsync({ body, idempotencyKey: depositKey.current.key });
        depositKey.current = settled(depositKey.current);
        setResponse(responseText(reply));
        toast.success(`Deposit of ${formatMoney(reply.data.total_amount_minor, reply.data.currency)} created (${reply.data.status})`);
      } else {
        const body = testBalanceBody(fields);
        testKey.current = keyFor(testKey.current, body);
        const reply = await testBalance.mutateAsync({ body, idempotencyKey: testKey.current.key });
        testKey.current = settled(testKey.current);
        setResponse(responseText(reply));
        toast.success(`Test balance of ${formatMoney(reply.data.total_amount_minor, reply.data.currency)} created (${reply.data.status})`);
      }
    } catch (error) {
      const message = writeErrorMessage(error, kind === "deposit" ? LEDGER_UI_MESSAGES.depositFailed : LEDGER_UI_MESSAGES.testBalanceFailed);
      setFailure(message);
      toast.error(message);
    } finally {
      inFlight.current = false;
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run("deposit");
  };

  if (accounts.length === 0) {
    return (
      <SubView id="deposit" title="Make Deposit" onClose={onClose} closeLabel="Close deposit">
        <p className={subtleTextClass}>You have no account to deposit into yet.</p>
        <div className="mt-4 flex gap-3">
          <button type="button" className={primaryButtonClass} onClick={onConnect}>
            Connect Account
          </button>
          <button type="button" className={secondaryButtonClass} onClick={onClose}>
            Back to overview
          </button>
        </div>
      </SubView>
    );
  }

  const describedBy = (name: keyof DepositErrors) => (errors[name] ? `deposit-${name}-error` : undefined);

  return (
    <SubView id="deposit" title="Make Deposit" description="Deposits and test balances start as drafts; approve them on the Transactions tab." onClose={onClose} closeLabel="Close deposit">
      <form onSubmit={submit} noValidate className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="sm:col-span-2">
            <label htmlFor="deposit-account" className={labelClass}>
              Account
            </label>
            <select
              id="deposit-account"
              className={inputClass}
              value={fields.accountId}
              required
              aria-invalid={errors.accountId ? true : undefined}
              aria-describedby={describedBy("accountId")}
              onChange={(event) => edit({ accountId: event.target.value })}
            >
              <option value="">Select an account</option>
              {accounts.map((account) => (
                <option key={account.id} value={account.id}>
                  {accountOptionLabel(account)}
                </option>
              ))}
            </select>
            <FieldError id="deposit-accountId-error" message={errors.accountId} />
          </div>
          <div>
            <label htmlFor="deposit-amount" className={labelClass}>
              Amount
            </label>
            <input
              id="deposit-amount"
              type="number"
              inputMode="decimal"
              step={AMOUNT_STEP}
              min="0"
              required
              value={fields.amount}
              aria-invalid={errors.amount ? true : undefined}
              aria-describedby={describedBy("amount")}
              onChange={(event) => edit({ amount: event.target.value })}
              className={inputClass}
            />
            <FieldError id="deposit-amount-error" message={errors.amount} />
          </div>
          <div>
            <label htmlFor="deposit-currency" className={labelClass}>
              Currency
            </label>
            <select id="deposit-currency" className={inputClass} value={fields.currency} onChange={(event) => edit({ currency: event.target.value as FormCurrency })}>
              {FORM_CURRENCIES.map((currency) => (
                <option key={currency} value={currency}>
                  {currency}
                </option>
              ))}
            </select>
          </div>
          <div className="sm:col-span-2">
            <label htmlFor="deposit-description" className={labelClass}>
              Description <span className="font-normal text-slate-500 dark:text-slate-400">(optional)</span>
            </label>
            <input id="deposit-description" className={inputClass} value={fields.description} onChange={(event) => edit({ description: event.target.value })} />
          </div>
        </div>

        {failure && (
          <p role="alert" className={errorTextClass}>
            {failure}
          </p>
        )}

        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" className={primaryButtonClass} disabled={busy}>
            {busy ? <Spinner label="Creating..." /> : "Create Deposit"}
          </button>
          <button type="button" className={secondaryButtonClass} disabled={busy} onClick={() => void run("test")}>
            {busy ? <Spinner label="Creating..." /> : "Get Test Balance"}
          </button>
          <button type="button" className={`${secondaryButtonClass} sm:ml-auto`} onClick={onClose}>
            Back to overview
          </button>
        </div>
        <p className="text-xs text-slate-600 dark:text-slate-400">Get Test Balance adds 1,000 of sandbox money in the account's currency.</p>
      </form>

      {response && (
        <section aria-labelledby="api-response-title" className="mt-6 rounded-xl border border-slate-200 bg-slate-50 dark:border-slate-700 dark:bg-slate-950">
          <div className="flex items-center justify-between border-b border-slate-200 px-4 py-2 dark:border-slate-700">
            <h3 id="api-response-title" className="text-sm font-semibold text-slate-900 dark:text-white">
              API Response
            </h3>
            <button
              type="button"
              aria-label="Close API response"
              onClick={() => setResponse(null)}
              className="inline-flex h-8 w-8 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-200 dark:text-slate-200 dark:hover:bg-slate-800"
            >
              <CloseIcon width="16" height="16" />
            </button>
          </div>
          <pre
            ref={responseRef}
            tabIndex={0}
            aria-label="Raw API response"
            className="max-h-80 overflow-auto p-4 font-mono text-xs leading-relaxed text-slate-800 dark:text-slate-200"
          >
            {response}
          </pre>
        </section>
      )}
    </SubView>
  );
}
