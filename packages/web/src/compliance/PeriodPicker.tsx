import {
  COMPLIANCE_MESSAGES,
  PERIOD_PRESET_LABELS,
  PERIOD_PRESETS,
  PeriodQuery,
  presetPeriod,
} from "@fintech/core/compliance/model";
import { useId, useState, type FormEvent } from "react";
import { inputClass, labelClass, primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { cardClass, errorTextClass, sectionTitleClass, subtleTextClass } from "../ledger/ui";
import type { Period } from "./api";

/** The reports' period: a preset or two dates. */
export function PeriodPicker({ period, onChange }: { period: Period; onChange: (period: Period) => void }) {
  const [draft, setDraft] = useState(period);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const apply = (next: Period) => {
    const checked = PeriodQuery.safeParse(next);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? COMPLIANCE_MESSAGES.span);
      return;
    }
    setError(null);
    setDraft(checked.data);
    onChange(checked.data);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply(draft);
  };
  return (
    <section aria-labelledby={`${id}-title`} className={cardClass}>
      <h2 id={`${id}-title`} className={sectionTitleClass}>
        Period
      </h2>
      <form onSubmit={submit} className="mt-3 flex flex-wrap items-end gap-3" noValidate>
        <div>
          <label htmlFor={`${id}-from`} className={labelClass}>
            From
          </label>
          <input
            id={`${id}-from`}
            type="date"
            className={inputClass}
            value={draft.from}
            onChange={(event) => setDraft({ ...draft, from: event.target.value })}
            aria-describedby={error ? `${id}-error` : undefined}
          />
        </div>
        <div>
          <label htmlFor={`${id}-to`} className={labelClass}>
            To
          </label>
          <input
            id={`${id}-to`}
            type="date"
            className={inputClass}
            value={draft.to}
            onChange={(event) => setDraft({ ...draft, to: event.target.value })}
            aria-describedby={error ? `${id}-error` : undefined}
          />
        </div>
        <button type="submit" className={primaryButtonClass}>
          Show reports
        </button>
        <div role="group" aria-label="Preset periods" className="flex flex-wrap gap-2">
          {PERIOD_PRESETS.map((preset) => (
            <button
              key={preset}
              type="button"
              className={secondaryButtonClass}
              onClick={() => apply(presetPeriod(preset, new Date()))}
            >
              {PERIOD_PRESET_LABELS[preset]}
            </button>
          ))}
        </div>
      </form>
      {error ? (
        <p id={`${id}-error`} role="alert" className={`mt-2 ${errorTextClass}`}>
          {error}
        </p>
      ) : (
        <p className={`mt-2 ${subtleTextClass}`}>
          Showing {period.from} to {period.to} (UTC), both days included.
        </p>
      )}
    </section>
  );
}
