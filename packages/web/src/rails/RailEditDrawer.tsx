import { zodResolver } from "@hookform/resolvers/zod";
import { CURRENCIES } from "@fintech/core/money/model";
import { RAIL_STATUSES, RAIL_TYPES } from "@fintech/core/rails/model";
import {
  RailEditInput,
  railEditDefaults,
  type RailEditFormValues,
  type RailEditParsed,
} from "@fintech/core/rails/edit-form";
import { useId, useState } from "react";
import { useForm, type FieldError } from "react-hook-form";
import toast from "react-hot-toast";
import type { Rail } from "../api/rails";
import { errorMessage } from "../api/errors";
import { CloseIcon } from "../components/icons";
import {
  iconButtonClass,
  inputClass,
  labelClass,
  primaryButtonClass,
  secondaryButtonClass,
} from "../components/styles";
import { errorTextClass, Spinner, subtleTextClass } from "../ledger/ui";
import { Drawer } from "./Drawer";
import { changeLines } from "./format";
import { useRailDetail, useRailSave } from "./hooks";

/**
 * The rail edit form of docs/product/payment-rails.md#validation in a side drawer: name, type,
 * status, fixed fee (USD, step 0.01), FX spread in percent (step 0.001; the server stores a
 * fraction), SLA target (0-100, step 0.1), the optional error injection rate (0-100 %, for testing
 * and demo only), and what the rail can carry: its currencies, the countries and regions it
 * reaches, the fee currency (of the fixed fee and the amount limits), minimum and maximum amount,
 * and settlement time. Validated with core's own schema (the server's), so both say the same words;
 * a server refusal is shown in the drawer. Cancel, a successful save, Escape or a press on the
 * backdrop close it.
 */
export function RailEditDrawer({ rail, onClose }: { rail: Rail; onClose: () => void }) {
  const titleId = useId();
  const descriptionId = useId();
  const save = useRailSave();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<RailEditFormValues, unknown, RailEditParsed>({
    resolver: zodResolver(RailEditInput),
    defaultValues: railEditDefaults(rail),
  });
  const { errors } = form.formState;
  const busy = save.isPending;

  const submit = async () => {
    setFailure(null);
    // The values as typed (percent, decimal strings): the server parses them with the same schema.
    const raw = form.getValues();
    const injection = raw.errorInjectionPercent;
    const edit: RailEditFormValues = {
      ...raw,
      errorInjectionPercent: typeof injection === "string" && injection.trim() === "" ? null : injection,
    };
    try {
      const saved = await save.mutateAsync({ id: rail.id, edit });
      toast.success(`${saved.name} saved`);
      onClose();
    } catch (caught) {
      setFailure(errorMessage(caught, "Failed to save the rail"));
    }
  };

  const close = () => {
    if (!busy) onClose();
  };

  return (
    <Drawer labelledBy={titleId} describedBy={descriptionId} onClose={close}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={titleId} className="text-lg font-bold">
            Edit {rail.name}
          </h2>
          <p id={descriptionId} className={subtleTextClass}>
            Fees apply to new quotes and payments at once.
          </p>
        </div>
        <button type="button" className={iconButtonClass} onClick={close} aria-label="Close">
          <CloseIcon width="18" height="18" />
        </button>
      </div>

      <form onSubmit={form.handleSubmit(submit)} noValidate className="mt-4 space-y-4">
        <Field id={`${titleId}-name`} label="Name" error={errors.name}>
          <input
            id={`${titleId}-name`}
            className={inputClass}
            autoComplete="off"
            data-autofocus
            aria-invalid={!!errors.name}
            aria-describedby={describedBy(`${titleId}-name`, false, !!errors.name)}
            {...form.register("name")}
          />
        </Field>
        <div className="grid grid-cols-2 gap-3">
          <Field id={`${titleId}-type`} label="Type" error={errors.type}>
            <select
              id={`${titleId}-type`}
              className={inputClass}
              aria-invalid={!!errors.type}
              aria-describedby={describedBy(`${titleId}-type`, false, !!errors.type)}
              {...form.register("type")}
            >
              {RAIL_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </select>
          </Field>
          <Field id={`${titleId}-status`} label="Status" error={errors.status}>
            <select
              id={`${titleId}-status`}
              className={inputClass}
              aria-invalid={!!errors.status}
              aria-describedby={describedBy(`${titleId}-status`, false, !!errors.status)}
              {...form.register("status")}
            >
              {RAIL_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {status}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <Field
          id={`${titleId}-feecur`}
          label="Fee currency"
          hint="The currency of the fixed fee and the amount limits."
          error={errors.feeCurrency}
        >
          <select
            id={`${titleId}-feecur`}
            className={inputClass}
            aria-invalid={!!errors.feeCurrency}
            aria-describedby={describedBy(`${titleId}-feecur`, true, !!errors.feeCurrency)}
            {...form.register("feeCurrency")}
          >
            {CURRENCY_CODES.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </select>
        </Field>
        <Field id={`${titleId}-fee`} label="Fixed fee (fee currency)" error={errors.fixedFee}>
          <input
            id={`${titleId}-fee`}
            type="number"
            inputMode="decimal"
            min={0}
            step={0.01}
            className={inputClass}
            aria-invalid={!!errors.fixedFee}
            aria-describedby={describedBy(`${titleId}-fee`, false, !!errors.fixedFee)}
            {...form.register("fixedFee")}
          />
        </Field>
        <Field
          id={`${titleId}-fx`}
          label="FX spread (%)"
          hint="Entered in percent: 1 means 1 % of the amount."
          error={errors.fxSpreadPercent}
        >
          <input
            id={`${titleId}-fx`}
            type="number"
            inputMode="decimal"
            min={0}
            max={100}
            step={0.001}
            className={inputClass}
            aria-invalid={!!errors.fxSpreadPercent}
            aria-describedby={describedBy(`${titleId}-fx`, true, !!errors.fxSpreadPercent)}
            {...form.register("fxSpreadPercent")}
          />
        </Field>
        <Field id={`${titleId}-sla`} label="SLA target (%)" error={errors.slaTarget}>
          <input
            id={`${titleId}-sla`}
            type="number"
            inputMode="decimal"
            min={0}
            max={100}
            step={0.1}
            className={inputClass}
            aria-invalid={!!errors.slaTarget}
            aria-describedby={describedBy(`${titleId}-sla`, false, !!errors.slaTarget)}
            {...form.register("slaTarget")}
          />
        </Field>
        <Field
          id={`${titleId}-inject`}
          label="Error injection rate (%)"
          hint="Optional. For testing and demo only: that share of payments on this rail fails on purpose."
          error={errors.errorInjectionPercent}
        >
          <input
            id={`${titleId}-inject`}
            type="number"
            inputMode="decimal"
            min={0}
            max={100}
            step={0.1}
            className={inputClass}
            aria-invalid={!!errors.errorInjectionPercent}
            aria-describedby={describedBy(`${titleId}-inject`, true, !!errors.errorInjectionPercent)}
            {...form.register("errorInjectionPercent")}
          />
        </Field>

        <fieldset className="min-w-0" aria-describedby={errors.currencies ? `${titleId}-currencies-error` : undefined}>
          <legend className={labelClass}>Currencies carried</legend>
          <div className="flex flex-wrap gap-3">
            {CURRENCY_CODES.map((code) => (
              <label key={code} className="flex items-center gap-1 text-sm">
                <input
                  type="checkbox"
                  value={code}
                  aria-invalid={!!errors.currencies}
                  {...form.register("currencies")}
                />
                {code}
              </label>
            ))}
          </div>
          {errors.currencies?.message && (
            <p id={`${titleId}-currencies-error`} role="alert" className={`mt-1 ${errorTextClass}`}>
              {errors.currencies.message}
            </p>
          )}
        </fieldset>
        <Field
          id={`${titleId}-countries`}
          label="Countries and regions"
          hint="Comma-separated country codes (US, IN) and regions (SEPA, WORLDWIDE)."
          error={errors.countries as FieldError | undefined}
        >
          <input
            id={`${titleId}-countries`}
            className={inputClass}
            autoComplete="off"
            aria-invalid={!!errors.countries}
            aria-describedby={describedBy(`${titleId}-countries`, true, !!errors.countries)}
            {...form.register("countries", {
              setValueAs: (value: unknown) =>
                typeof value === "string"
                  ? value
                      .split(",")
                      .map((entry) => entry.trim())
                      .filter((entry) => entry !== "")
                  : value,
            })}
          />
        </Field>
        <div className="grid grid-cols-2 gap-3">
          <Field id={`${titleId}-min`} label="Minimum amount" error={errors.minAmount}>
            <input
              id={`${titleId}-min`}
              type="number"
              inputMode="decimal"
              min={0}
              step={0.01}
              className={inputClass}
              aria-invalid={!!errors.minAmount}
              aria-describedby={describedBy(`${titleId}-min`, false, !!errors.minAmount)}
              {...form.register("minAmount")}
            />
          </Field>
          <Field id={`${titleId}-max`} label="Maximum amount" hint="Empty: no maximum." error={errors.maxAmount}>
            <input
              id={`${titleId}-max`}
              type="number"
              inputMode="decimal"
              min={0}
              step={0.01}
              className={inputClass}
              aria-invalid={!!errors.maxAmount}
              aria-describedby={describedBy(`${titleId}-max`, true, !!errors.maxAmount)}
              {...form.register("maxAmount")}
            />
          </Field>
        </div>
        <Field
          id={`${titleId}-settle`}
          label="Settlement time (seconds)"
          hint="How long until the money arrives."
          error={errors.settlementSeconds}
        >
          <input
            id={`${titleId}-settle`}
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            className={inputClass}
            aria-invalid={!!errors.settlementSeconds}
            aria-describedby={describedBy(`${titleId}-settle`, true, !!errors.settlementSeconds)}
            {...form.register("settlementSeconds", { valueAsNumber: true })}
          />
        </Field>

        <div aria-live="polite">
          {failure && (
            <p role="alert" className={errorTextClass}>
              {failure}
            </p>
          )}
        </div>

        <div className="flex flex-wrap justify-end gap-3">
          <button type="button" className={secondaryButtonClass} onClick={close} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className={primaryButtonClass} disabled={busy}>
            {busy ? <Spinner label="Saving…" /> : "Save"}
          </button>
        </div>
      </form>
      <ChangeHistory railId={rail.id} />
    </Drawer>
  );
}

/** The rail's recorded admin changes (who, when, what), newest first. */
function ChangeHistory({ railId }: { railId: string }) {
  const detail = useRailDetail(railId);
  const history = detail.data?.history ?? [];
  return (
    <section
      aria-labelledby={`${railId}-history`}
      className="mt-6 border-t border-slate-200 pt-4 dark:border-slate-700"
    >
      <h3
        id={`${railId}-history`}
        className="text-sm font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-300"
      >
        Change history
      </h3>
      {detail.isError ? (
        <p className={`mt-2 ${errorTextClass}`}>{errorMessage(detail.error, "Failed to load the history")}</p>
      ) : !detail.data ? null : history.length === 0 ? (
        <p className={`mt-2 ${subtleTextClass}`}>No change since the rail was seeded.</p>
      ) : (
        <ol className="mt-2 space-y-2">
          {history.slice(0, 5).map((change) => (
            <li key={change.version} className="break-words text-sm">
              <p className="font-medium text-slate-800 dark:text-slate-100">
                {change.action === "update" ? "Edited" : change.action === "start" ? "Started" : "Stopped"} by{" "}
                {change.by}
              </p>
              <p className="text-xs text-slate-600 dark:text-slate-300">
                {new Date(change.at).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" })} · version{" "}
                {change.version}
              </p>
              {change.action === "update" && (
                <ul className="mt-1 text-xs text-slate-700 dark:text-slate-200">
                  {changeLines(change).map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

const CURRENCY_CODES = Object.keys(CURRENCIES) as (keyof typeof CURRENCIES)[];

/** The ids of a field's hint and error, as its control's aria-describedby (undefined when neither is shown). */
function describedBy(id: string, hint: boolean, error: boolean): string | undefined {
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter((value) => value !== null);
  return ids.length > 0 ? ids.join(" ") : undefined;
}

function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: FieldError;
  children: React.ReactNode;
}) {
  return (
    <div className="min-w-0">
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600 dark:text-slate-300">
          {hint}
        </p>
      )}
      {error?.message && (
        <p id={`${id}-error`} role="alert" className={`mt-1 ${errorTextClass}`}>
          {error.message}
        </p>
      )}
    </div>
  );
}
