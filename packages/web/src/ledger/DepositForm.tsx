import { zodResolver } from "@hookform/resolvers/zod";
import { useRef, useState } from "react";
import { useForm } from "react-hook-form";
import toast from "react-hot-toast";
import type { LedgerAccount } from "../api/types";
import { inputClass, labelClass, primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { keyFor, settled, type ActionKey } from "./actionKey";
import { writeErrorMessage } from "./actionErrors";
import {
  afterDeposit,
  currenciesFor,
  depositBody,
  initialDeposit,
  testBalanceBody,
  type DepositFields,
} from "./depositForm";
import { AmountField, CurrencyField, DescriptionField } from "./fields";
import { depositFormSchema } from "./formSchemas";
import { accountOptionLabel, createdMessage } from "./format";
import { useDeposit, useTestBalance } from "./hooks";
import { LEDGER_UI_MESSAGES } from "./messages";
import { formCurrency } from "./money";
import { SubView } from "./SubView";
import { errorTextClass, FieldError, Spinner, subtleTextClass } from "./ui";

interface DepositFormProps {
  accounts: LedgerAccount[];
  accountId: string | null;
  onClose: () => void;
  onConnect: () => void;
}

/**
 * The deposit form of docs/product/ledger-workspace.md#deposit-form: Create Deposit and Get Test
 * Balance. The outcome is said in words under the form (what was created, and where to approve it);
 * the raw reply is the developer tools' business, not this screen's.
 */
export function DepositForm({ accounts, accountId, onClose, onConnect }: DepositFormProps) {
  const initial =
    accounts.find((account) => account.id === accountId) ?? (accounts.length === 1 ? accounts[0] : undefined);
  const form = useForm<DepositFields>({
    resolver: zodResolver(depositFormSchema),
    defaultValues: initialDeposit(initial),
  });
  const { register, formState, setValue, watch, clearErrors } = form;
  const [outcome, setOutcome] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const deposit = useDeposit();
  const testBalance = useTestBalance();
  const depositKey = useRef<ActionKey | null>(null);
  const testKey = useRef<ActionKey | null>(null);
  const inFlight = useRef(false);
  const busy = deposit.isPending || testBalance.isPending;
  const selected = accounts.find((account) => account.id === watch("accountId"));
  const errors = formState.errors;

  // Choosing an account brings its currency along; another one would be refused.
  const account = register("accountId", {
    onChange: (event: { target: { value: string } }) => {
      const chosen = accounts.find((item) => item.id === event.target.value);
      if (chosen) setValue("currency", formCurrency(chosen.currency));
      setFailure(null);
      setOutcome(null);
    },
  });

  /**
   * One keyed write at a time: the key is kept across retries of the same body (so a retry after
   * a lost reply is applied once) and settled after success; failures show inline and as a toast.
   */
  const runWrite = async <Reply,>(
    keyRef: { current: ActionKey | null },
    body: unknown,
    send: (idempotencyKey: string) => Promise<Reply>,
    failedMessage: string,
    onSuccess: (reply: Reply) => string,
  ) => {
    inFlight.current = true;
    setFailure(null);
    setOutcome(null);
    try {
      keyRef.current = keyFor(keyRef.current, body);
      const reply = await send(keyRef.current.key);
      keyRef.current = settled(keyRef.current);
      const message = onSuccess(reply);
      // Said once, beside the form (a toast as well would announce it twice).
      setOutcome(`${message}. Approve it on the Transactions tab.`);
    } catch (error) {
      const message = writeErrorMessage(error, failedMessage);
      setFailure(message);
      toast.error(message);
    } finally {
      inFlight.current = false;
    }
  };

  const createDeposit = async (fields: DepositFields) => {
    if (inFlight.current) return;
    const body = depositBody(fields);
    await runWrite(
      depositKey,
      body,
      (idempotencyKey) => deposit.mutateAsync({ body, idempotencyKey }),
      LEDGER_UI_MESSAGES.depositFailed,
      (reply) => {
        // A second click must not deposit the same again: the amount is asked for anew.
        form.reset(afterDeposit(fields));
        return createdMessage("Deposit", reply.data);
      },
    );
  };

  /** The test balance's amount is the server's default, so only the account is checked. */
  const getTestBalance = async () => {
    if (inFlight.current) return;
    clearErrors("amount");
    if (!(await form.trigger("accountId"))) return;
    const body = testBalanceBody(form.getValues());
    await runWrite(
      testKey,
      body,
      (idempotencyKey) => testBalance.mutateAsync({ body, idempotencyKey }),
      LEDGER_UI_MESSAGES.testBalanceFailed,
      (reply) => createdMessage("Test balance", reply.data),
    );
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

  return (
    <SubView
      id="deposit"
      title="Make Deposit"
      description="Deposits and test balances start as drafts; approve them on the Transactions tab."
      onClose={onClose}
      closeLabel="Close deposit"
    >
      <form onSubmit={form.handleSubmit(createDeposit)} noValidate className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="sm:col-span-2">
            <label htmlFor="deposit-account" className={labelClass}>
              Account
            </label>
            <select
              id="deposit-account"
              className={inputClass}
              aria-required="true"
              aria-invalid={errors.accountId ? true : undefined}
              aria-describedby={errors.accountId ? "deposit-account-error" : undefined}
              {...account}
            >
              <option value="">Select an account</option>
              {accounts.map((item) => (
                <option key={item.id} value={item.id}>
                  {accountOptionLabel(item)}
                </option>
              ))}
            </select>
            <FieldError id="deposit-account-error" message={errors.accountId?.message} />
          </div>
          <AmountField
            id="deposit-amount"
            registration={register("amount", { onChange: () => setFailure(null) })}
            error={errors.amount?.message}
          />
          <CurrencyField
            id="deposit-currency"
            registration={register("currency")}
            error={errors.currency?.message}
            options={currenciesFor(selected)}
            hint={selected ? "The account's currency" : undefined}
          />
          <div className="sm:col-span-2">
            <DescriptionField
              id="deposit-description"
              registration={register("description")}
              error={errors.description?.message}
            />
          </div>
        </div>

        {failure && (
          <p role="alert" className={errorTextClass}>
            {failure}
          </p>
        )}
        <p role="status" className="text-sm font-medium text-emerald-800 empty:hidden dark:text-emerald-300">
          {outcome}
        </p>

        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" className={primaryButtonClass} disabled={busy}>
            {busy ? <Spinner label="Creating..." /> : "Create Deposit"}
          </button>
          <button type="button" className={secondaryButtonClass} disabled={busy} onClick={() => void getTestBalance()}>
            {busy ? <Spinner label="Creating..." /> : "Get Test Balance"}
          </button>
          <button type="button" className={`${secondaryButtonClass} sm:ml-auto`} onClick={onClose}>
            Back to overview
          </button>
        </div>
        <p className="text-xs text-slate-600 dark:text-slate-400">
          Get Test Balance adds 1,000 of sandbox money in the account's currency.
        </p>
      </form>
    </SubView>
  );
}
