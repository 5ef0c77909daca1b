import { useId } from "react";
import { CURRENCIES } from "@fintech/core/money/model";
import { MAX_SEARCH_LENGTH, OPS_STATUSES, OPS_TYPES, type OpsFilter } from "@fintech/core/ops/model";
import { inputClass, labelClass } from "../components/styles";
import { statusText } from "./format";

const unique = (values: readonly string[]) => [...new Set(values)];
const STATUS_OPTIONS = unique(Object.values(OPS_STATUSES).flat());
const TYPE_OPTIONS = unique(Object.values(OPS_TYPES).flat());

/** The console's one filter bar: each filter narrows the tables that have that field, the search all four. */
export function OpsFilters({
  filter,
  rails,
  onChange,
}: {
  filter: OpsFilter;
  rails: readonly { railId: string; name: string }[];
  onChange: (filter: OpsFilter) => void;
}) {
  const id = useId();
  const select = (field: keyof OpsFilter, label: string, options: readonly { value: string; text: string }[]) => (
    <div className="min-w-0">
      <label htmlFor={`${id}-${field}`} className={labelClass}>
        {label}
      </label>
      <select
        id={`${id}-${field}`}
        className={inputClass}
        value={filter[field] ?? ""}
        onChange={(event) => onChange({ ...filter, [field]: event.target.value || undefined })}
      >
        <option value="">Any</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.text}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <div role="search" aria-label="Filter the tables" className="grid grid-cols-2 gap-3 md:grid-cols-5">
      <div className="col-span-2 min-w-0 md:col-span-1">
        <label htmlFor={`${id}-text`} className={labelClass}>
          Search
        </label>
        <input
          id={`${id}-text`}
          type="search"
          className={inputClass}
          value={filter.text ?? ""}
          maxLength={MAX_SEARCH_LENGTH}
          placeholder="Id, user, description"
          onChange={(event) => onChange({ ...filter, text: event.target.value || undefined })}
        />
      </div>
      {select(
        "status",
        "Status",
        STATUS_OPTIONS.map((value) => ({ value, text: statusText(value) })),
      )}
      {select(
        "rail",
        "Rail",
        rails.map((rail) => ({ value: rail.railId, text: rail.name })),
      )}
      {select(
        "currency",
        "Currency",
        Object.keys(CURRENCIES).map((value) => ({ value, text: value })),
      )}
      {select(
        "type",
        "Type",
        TYPE_OPTIONS.map((value) => ({ value, text: statusText(value) })),
      )}
    </div>
  );
}
