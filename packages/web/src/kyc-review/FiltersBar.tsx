import { KYC_STATUSES, PRIORITIES, type KycStatus, type Priority } from "@fintech/core/kyc/model";
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
 * Search (name, email, submission or user id; applied on Enter or Search, so typing is not a request per
 * key), status (spec 001 §2's options), country and priority (applied as soon as they change).
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
    <form role="search" aria-label="Filter submissions" onSubmit={submit} className="rounded-2xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
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
        <div>
          <label htmlFor={`${id}-status`} className={labelClass}>
            Status
          </label>
          <select id={`${id}-status`} className={inputClass} value={filters.status ?? ""} onChange={(event) => onChange({ status: (event.target.value || undefined) as KycStatus | undefined })}>
            <option value="">All Status</option>
            {KYC_STATUSES.map((status) => (
              <option key={status} value={status}>
                {STATUS_LABELS[status]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-country`} className={labelClass}>
            Country
          </label>
          <select id={`${id}-country`} className={inputClass} value={filters.country ?? ""} onChange={(event) => onChange({ country: event.target.value || undefined })}>
            <option value="">All Countries</option>
            {filters.country && !listed && <option value={filters.country}>{filters.country}</option>}
            {countries.map((country) => (
              <option key={country.countryCode} value={country.countryCode}>
                {country.country}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-priority`} className={labelClass}>
            Priority
          </label>
          <select id={`${id}-priority`} className={inputClass} value={filters.priority ?? ""} onChange={(event) => onChange({ priority: (event.target.value || undefined) as Priority | undefined })}>
            <option value="">All Priorities</option>
            {PRIORITIES.map((priority) => (
              <option key={priority} value={priority}>
                {PRIORITY_LABELS[priority]}
              </option>
            ))}
          </select>
        </div>
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
