import { KYC_LIMITS, riskLevel, type KycStatus, type Priority, type RiskLevel } from "@fintech/core/kyc/model";
import { inputClass, labelClass } from "../components/styles";
import { PRIORITY_LABELS, PRIORITY_TONES, RISK_TONES, STATUS_LABELS, STATUS_TONES } from "./format";

/** Badges and small figures of the back office. */

const badgeClass = "inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold";

export function KycStatusBadge({ status }: { status: KycStatus }) {
  return (
    <span className={`${badgeClass} ${STATUS_TONES[status] ?? STATUS_TONES.pending}`}>
      {STATUS_LABELS[status] ?? status}
    </span>
  );
}

export function PriorityBadge({ priority }: { priority: Priority }) {
  return (
    <span className={`${badgeClass} ${PRIORITY_TONES[priority] ?? PRIORITY_TONES.low}`}>
      {PRIORITY_LABELS[priority] ?? priority}
    </span>
  );
}

/** "42 · Medium": the score with its level, coloured by level. */
export function RiskScore({ score, level }: { score: number; level?: RiskLevel }) {
  const shown = level ?? riskLevel(score);
  return (
    <span className={`whitespace-nowrap font-semibold tabular-nums ${RISK_TONES[shown]}`}>
      {score}
      <span className="font-normal"> · {shown}</span>
    </span>
  );
}

/** A reviewer's free text (decision notes, the message to an applicant), bounded as the server bounds it. */
export function NoteField({
  id,
  label,
  labelHidden = false,
  value,
  onChange,
  placeholder,
  autoFocus = false,
  dialogAutoFocus = false,
}: {
  id: string;
  label: string;
  /** The section heading already says what it is: the label is for screen readers only. */
  labelHidden?: boolean;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  autoFocus?: boolean;
  /** Inside a Dialog: the field takes the focus the dialog gives on open. */
  dialogAutoFocus?: boolean;
}) {
  return (
    <>
      <label htmlFor={id} className={labelHidden ? "sr-only" : labelClass}>
        {label}
      </label>
      <textarea
        id={id}
        className={`${inputClass} min-h-[4.5rem]`}
        value={value}
        maxLength={KYC_LIMITS.maxNoteLength}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        // biome-ignore lint/a11y/noAutofocus: only where the reviewer's own click opened the field.
        autoFocus={autoFocus}
        data-autofocus={dialogAutoFocus || undefined}
      />
    </>
  );
}
