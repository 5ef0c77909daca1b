import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import toast from "react-hot-toast";
import type { LedgerAccount } from "../api/types";
import { secondaryButtonClass } from "../components/styles";
import { formatMoney } from "../lib/money";
import { writeErrorMessage } from "./actionErrors";
import { AmountField } from "./fields";
import { thresholdFormSchema, type ThresholdFormValues } from "./formSchemas";
import { useUpdateThreshold } from "./hooks";
import { errorTextClass, Spinner, subtleTextClass } from "./ui";

/**
 * The account's low-balance alert (PATCH /api/v1/ledger/accounts/{id}): when what can be spent
 * drops below the threshold, the stream raises 'Account … has $… (below $…)'. Empty removes it.
 */
export function ThresholdForm({ account }: { account: LedgerAccount }) {
  const fieldId = `threshold-${account.id}`;
  const update = useUpdateThreshold();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<ThresholdFormValues>({
    resolver: zodResolver(thresholdFormSchema),
    // Follows the account when another tab or the stream changes it, keeping what the user is typing.
    values: { threshold: account.low_balance_threshold ?? "", currency: account.currency },
    resetOptions: { keepDirtyValues: true },
  });
  const error = form.formState.errors.threshold?.message;
  const current = account.low_balance_threshold;

  const submit = async (values: ThresholdFormValues) => {
    setFailure(null);
    try {
      const saved = await update.mutateAsync({ accountId: account.id, threshold: values.threshold.trim() });
      form.reset({ threshold: saved.low_balance_threshold ?? "", currency: account.currency });
      toast.success(
        saved.low_balance_threshold
          ? `Low-balance alert set below ${formatMoney(saved.low_balance_threshold, account.currency)}`
          : "Low-balance alert removed",
      );
    } catch (caught) {
      setFailure(writeErrorMessage(caught, "Failed to update the alert"));
    }
  };

  return (
    <form
      onSubmit={form.handleSubmit(submit)}
      noValidate
      className="mt-6 rounded-xl border border-slate-200 p-4 dark:border-slate-800"
      aria-labelledby={`${fieldId}-title`}
    >
      <h3 id={`${fieldId}-title`} className="text-sm font-semibold text-slate-900 dark:text-white">
        Low-balance alert
      </h3>
      <p className={`mt-1 ${subtleTextClass}`}>
        {current
          ? `Alerts when the available balance drops below ${formatMoney(current, account.currency)}.`
          : "No alert set. Leave empty for none."}
      </p>
      <div className="mt-3 flex flex-wrap items-end gap-3">
        <AmountField
          id={fieldId}
          className="min-w-[10rem] flex-1"
          label={`Alert below (${account.currency})`}
          required={false}
          registration={form.register("threshold", { onChange: () => setFailure(null) })}
          error={error}
        />
        <button type="submit" className={secondaryButtonClass} disabled={update.isPending}>
          {update.isPending ? <Spinner label="Saving…" /> : "Save alert"}
        </button>
      </div>
      {failure && (
        <p role="alert" className={`mt-2 ${errorTextClass}`}>
          {failure}
        </p>
      )}
    </form>
  );
}
