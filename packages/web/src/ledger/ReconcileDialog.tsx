import { zodResolver } from "@hookform/resolvers/zod";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import type { LedgerAccount, ReconciliationResult } from "../api/types";
import { Dialog } from "../components/Dialog";
import { primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { formatMoney } from "../lib/money";
import { commandErrorMessage } from "./actionErrors";
import { AmountField } from "./fields";
import { reconcileFormSchema, type ReconcileFormValues } from "./formSchemas";
import { useReconcile } from "./hooks";
import { errorTextClass, Spinner, subtleTextClass } from "./ui";

interface ReconcileDialogProps {
  account: LedgerAccount;
  onClose: () => void;
}

/**
 * Reconcile an account (docs/product/ledger-workspace.md#ledger-commands, reconcileAccount): the
 * user enters the balance they expect (a bank statement's), the ledger compares it with its posted
 * balance, and the dialog shows "Reconciled ✓" or the signed variance (expected − ledger).
 */
export function ReconcileDialog({ account, onClose }: ReconcileDialogProps) {
  const titleId = useId();
  const textId = useId();
  const fieldId = useId();
  const reconcile = useReconcile();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<ReconcileFormValues>({
    resolver: zodResolver(reconcileFormSchema),
    defaultValues: { expectedBalance: "", currency: account.currency },
  });
  const error = form.formState.errors.expectedBalance?.message;
  const busy = reconcile.isPending;

  const submit = async (values: ReconcileFormValues) => {
    setFailure(null);
    try {
      await reconcile.mutateAsync({
        accountId: account.id,
        expectedBalance: values.expectedBalance.trim(),
        currency: account.currency,
      });
    } catch (caught) {
      setFailure(commandErrorMessage(caught));
    }
  };

  // A changed figure makes the last result stale.
  const field = form.register("expectedBalance", {
    onChange: () => {
      reconcile.reset();
      setFailure(null);
    },
  });

  return (
    <Dialog labelledBy={titleId} describedBy={textId} onClose={() => !busy && onClose()}>
      <h2 id={titleId} className="text-lg font-bold">
        Reconcile {account.name}
      </h2>
      <p id={textId} className={`mt-2 ${subtleTextClass}`}>
        Enter the balance you expect, for example from a bank statement. The ledger compares it with its posted balance.
      </p>
      <form onSubmit={form.handleSubmit(submit)} noValidate className="mt-4 space-y-4">
        <AmountField
          id={fieldId}
          label={`Expected balance (${account.currency})`}
          registration={field}
          error={error}
          autoFocus
        />

        <div aria-live="polite">
          {reconcile.data && <ReconcileOutcome result={reconcile.data} />}
          {failure && (
            <p role="alert" className={errorTextClass}>
              {failure}
            </p>
          )}
        </div>

        <div className="flex flex-wrap justify-end gap-3">
          <button type="button" className={secondaryButtonClass} onClick={onClose} disabled={busy}>
            Close
          </button>
          <button type="submit" className={primaryButtonClass} disabled={busy}>
            {busy ? <Spinner label="Reconciling…" /> : "Reconcile"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function ReconcileOutcome({ result }: { result: ReconciliationResult }) {
  const ledger = formatMoney(result.ledgerBalance, result.currency);
  const expected = formatMoney(result.expectedBalance, result.currency);
  if (result.reconciled) {
    return (
      <div className="rounded-xl border border-emerald-300 bg-emerald-50 p-3 dark:border-emerald-800 dark:bg-emerald-950/60">
        <p className="font-semibold text-emerald-800 dark:text-emerald-200">Reconciled ✓</p>
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-200">
          The ledger's posted balance is {ledger}, as expected.
        </p>
      </div>
    );
  }
  return (
    <div className="rounded-xl border border-amber-300 bg-amber-50 p-3 dark:border-amber-800 dark:bg-amber-950/60">
      <p className="font-semibold text-amber-900 dark:text-amber-200">
        Not reconciled: variance {formatMoney(result.variance, result.currency, { signDisplay: "exceptZero" })}
      </p>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-200">
        You expected {expected}; the ledger's posted balance is {ledger} (variance = expected − ledger).
      </p>
    </div>
  );
}
