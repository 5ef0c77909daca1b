import type { UseFormRegisterReturn } from "react-hook-form";
import type { FormCurrency } from "../api/types";
import { inputClass, labelClass } from "../components/styles";
import { FieldError } from "./ui";

/**
 * The fields the ledger forms share (deposit, transfer amount step, connect details), each with
 * its label, its error under it and aria-invalid/aria-describedby wired to that error.
 */

interface FieldProps {
  id: string;
  registration: UseFormRegisterReturn;
  error?: string;
}

const errorProps = (id: string, error: string | undefined) => ({
  "aria-invalid": error ? true : undefined,
  "aria-describedby": error ? `${id}-error` : undefined,
});

/**
 * A decimal amount. A text field with the decimal keypad rather than type="number": a number
 * input silently drops what it cannot read ("abc" becomes ""), so it could never say "Amount
 * must be a number"; the money parser enforces the step (at most the currency's decimals).
 */
export function AmountField({
  id,
  registration,
  error,
  label = "Amount",
  required = true,
  autoFocus = false,
  className,
}: FieldProps & { label?: string; required?: boolean; autoFocus?: boolean; className?: string }) {
  return (
    <div className={className}>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <input
        id={id}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        spellCheck={false}
        aria-required={required ? "true" : undefined}
        data-autofocus={autoFocus ? true : undefined}
        className={inputClass}
        {...errorProps(id, error)}
        {...registration}
      />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/**
 * The currency picker. Money moves in an account's own currency until FX exists, so forms about
 * an existing account offer just that one; a new account offers every currency.
 */
export function CurrencyField({
  id,
  registration,
  error,
  options,
  hint,
}: FieldProps & { options: readonly FormCurrency[]; hint?: string }) {
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        Currency
      </label>
      <select
        id={id}
        className={inputClass}
        {...errorProps(id, error)}
        aria-describedby={[error ? `${id}-error` : null, hintId].filter(Boolean).join(" ") || undefined}
        {...registration}
      >
        {options.map((currency) => (
          <option key={currency} value={currency}>
            {currency}
          </option>
        ))}
      </select>
      {hint && (
        <p id={hintId} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

export function DescriptionField({ id, registration, error }: FieldProps) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        Description <span className="font-normal text-slate-500 dark:text-slate-400">(optional)</span>
      </label>
      <input
        id={id}
        type="text"
        autoComplete="off"
        className={inputClass}
        {...errorProps(id, error)}
        {...registration}
      />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
