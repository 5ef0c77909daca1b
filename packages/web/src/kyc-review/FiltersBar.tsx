import { KYC_STATUSES, PRIORITIES } from "@fintech/core/kyc/model";
import { useEffect, useId, useState, type FormEvent } from "react";
import type { CountryOption, DashboardFilters } from "../api/kycReview";
import { inputClass, labelClass, secondaryButtonClass } from "../components/styles";
import { hasNarrowingFilters, MAX_SEARCH_LENGTH, PRIORITY_LABELS, STATUS_LABELS } from "./format";

interface FiltersBarProps {
  filters: DashboardFilters;
  countries: readonly CountryOption[];
  onChange: (change: Partial<DashboardFilters>) => void;
  onClear: () => void;
}

/**
 * Search (name, email, submission or user id; applied on Enter or Search, so typing is not a
 * request per key), status (the options of docs/product/kyc.md#dashboard), country and priority
 * (applied as soon as they change).
 */
export function FiltersBar({ filters, countries, onChange, onClear }: FiltersBarProps) {
  const id = useId();
  const [text, setText] = useState(filters.search ?? "");
  // The URL is the source of truth (back/forward, Clear filters): the box follows it.
  useEffect(() => setText(filters.search ?? ""), [filters.search]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange({ search: text.trim() || undefined });
  };
  // A country in the URL that the list lacks (or before the list loads) is still offered.
  const listed = countries.some((country) => country.countryCode === filters.country);

  return (
    <form
      role="search"
      aria-label="Filter submissions"
      onSubmit={submit}
      className="rounded-2xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-6">
        <div className="sm:col-span-2 lg:col-span-3">
          <label htmlFor={`${id}-search`} className={labelClass}>
            Search submissions
          </label>
          <div className="flex gap-2">
            <input
              id={`${id}-search`}
              type="search"
              className={inputClass}
              value={text}
              maxLength={MAX_SEARCH_LENGTH}
              onChange={(event) => setText(event.target.value)}
              placeholder="Name, email or ID"
            />
            <button type="submit" className={`${secondaryButtonClass} px-3`}>
              Search
            </button>
          </div>
        </div>
        <FilterSelect
          id={`${id}-status`}
          label="Status"
          allLabel="All Status"
          value={filters.status}
          options={KYC_STATUSES.map((status) => ({ value: status, label: STATUS_LABELS[status] }))}
          onChange={(status) => onChange({ status })}
        />
        <FilterSelect
          id={`${id}-country`}
          label="Country"
          allLabel="All Countries"
          value={filters.country}
          options={[
            ...(filters.country && !listed ? [{ value: filters.country, label: filters.country }] : []),
            ...countries.map((country) => ({ value: country.countryCode, label: country.country })),
          ]}
          onChange={(country) => onChange({ country })}
        />
        <FilterSelect
          id={`${id}-priority`}
          label="Priority"
          allLabel="All Priorities"
          value={filters.priority}
          options={PRIORITIES.map((priority) => ({ value: priority, label: PRIORITY_LABELS[priority] }))}
          onChange={(priority) => onChange({ priority })}
        />
      </div>
      {hasNarrowingFilters(filters) && (
        <div className="mt-3 flex justify-end">
          <button type="button" className={secondaryButtonClass} onClick={onClear}>
            Clear filters
          </button>
        </div>
      )}
    </form>
  );
}

/** A select whose empty first option means "no filter" (undefined). */
function FilterSelect<Value extends string>({
  id,
  label,
  allLabel,
  value,
  options,
  onChange,
}: {
  id: string;
  label: string;
  allLabel: string;
  value: Value | undefined;
  options: readonly { value: Value; label: string }[];
  onChange: (value: Value | undefined) => void;
}) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <select
        id={id}
        className={inputClass}
        value={value ?? ""}
        onChange={(event) => onChange((event.target.value || undefined) as Value | undefined)}
      >
        <option value="">{allLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
