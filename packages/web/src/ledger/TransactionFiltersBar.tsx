import { useEffect, useId, useState, type FormEvent } from "react";
import type { LedgerAccount, TransactionFilters } from "../api/types";
import { inputClass, labelClass, secondaryButtonClass } from "../components/styles";
import { accountOptionLabel, statusLabel, typeLabel } from "./format";
import { FILTER_STATUSES, FILTER_TYPES, hasFilters, SEARCH_MAX } from "./transactions";
import { FieldError } from "./ui";

interface TransactionFiltersBarProps {
  filters: TransactionFilters;
  accounts: LedgerAccount[];
  /** The date range's problem, shown under the dates. */
  rangeError: string | null;
  /** One filter changed; an empty value removes it. */
  onChange: (change: Partial<TransactionFilters>) => void;
  onClear: () => void;
}

/**
 * Status, type, account and date range apply as soon as they change; the description search
 * applies on Enter or the Search button, so each keystroke is not a request.
 */
export function TransactionFiltersBar({
  filters,
  accounts,
  rangeError,
  onChange,
  onClear,
}: TransactionFiltersBarProps) {
  const id = useId();
  const [text, setText] = useState(filters.q ?? "");
  // The URL is the source of truth (back/forward, Clear filters): the box follows it.
  useEffect(() => setText(filters.q ?? ""), [filters.q]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange({ q: text.trim() || undefined });
  };

  return (
    <form
      role="search"
      aria-label="Filter transactions"
      onSubmit={submit}
      className="rounded-2xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-6">
        <div className="col-span-2">
          <label htmlFor={`${id}-q`} className={labelClass}>
            Search descriptions
          </label>
          <div className="flex gap-2">
            <input
              id={`${id}-q`}
              type="search"
              className={inputClass}
              value={text}
              maxLength={SEARCH_MAX}
              onChange={(event) => setText(event.target.value)}
              placeholder="e.g. rent"
            />
            <button type="submit" className={`${secondaryButtonClass} px-3`}>
              Search
            </button>
          </div>
        </div>
        <div>
          <label htmlFor={`${id}-status`} className={labelClass}>
            Status
          </label>
          <select
            id={`${id}-status`}
            className={inputClass}
            value={filters.status ?? ""}
            onChange={(event) =>
              onChange({ status: (event.target.value || undefined) as TransactionFilters["status"] })
            }
          >
            <option value="">All statuses</option>
            {FILTER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {statusLabel(status)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-type`} className={labelClass}>
            Type
          </label>
          <select
            id={`${id}-type`}
            className={inputClass}
            value={filters.type ?? ""}
            onChange={(event) => onChange({ type: (event.target.value || undefined) as TransactionFilters["type"] })}
          >
            <option value="">All types</option>
            {FILTER_TYPES.map((type) => (
              <option key={type} value={type}>
                {typeLabel(type)}
              </option>
            ))}
          </select>
        </div>
        <div className="col-span-2">
          <label htmlFor={`${id}-account`} className={labelClass}>
            Account
          </label>
          <select
            id={`${id}-account`}
            className={inputClass}
            value={filters.account_id ?? ""}
            onChange={(event) => onChange({ account_id: event.target.value || undefined })}
          >
            <option value="">All accounts</option>
            {accounts.map((account) => (
              <option key={account.id} value={account.id}>
                {accountOptionLabel(account)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-from`} className={labelClass}>
            From date
          </label>
          <input
            id={`${id}-from`}
            type="date"
            className={inputClass}
            value={filters.from ?? ""}
            max={filters.to}
            aria-invalid={rangeError ? true : undefined}
            aria-describedby={rangeError ? `${id}-range-error` : undefined}
            onChange={(event) => onChange({ from: event.target.value || undefined })}
          />
        </div>
        <div>
          <label htmlFor={`${id}-to`} className={labelClass}>
            To date
          </label>
          <input
            id={`${id}-to`}
            type="date"
            className={inputClass}
            value={filters.to ?? ""}
            min={filters.from}
            aria-invalid={rangeError ? true : undefined}
            aria-describedby={rangeError ? `${id}-range-error` : undefined}
            onChange={(event) => onChange({ to: event.target.value || undefined })}
          />
        </div>
        <div className="col-span-2 flex items-end empty:hidden lg:col-span-4 lg:justify-end">
          {hasFilters(filters) && (
            <button type="button" className={secondaryButtonClass} onClick={onClear}>
              Clear filters
            </button>
          )}
        </div>
      </div>
      <FieldError id={`${id}-range-error`} message={rangeError} />
    </form>
  );
}
