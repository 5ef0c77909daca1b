import { COMPLIANCE_MESSAGES, type CaseStatus, type SarCandidate } from "@fintech/core/compliance/model";
import type { Currency } from "@fintech/core/money/model";
import { useId, useState, type FormEvent } from "react";
import { errorMessage } from "../api/errors";
import { inputClass, labelClass, primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { EmptyState, errorTextClass, Money, subtleTextClass } from "../ledger/ui";
import type { Period } from "./api";
import { useSar, useUpdateCase } from "./hooks";
import { ReportCard } from "./ReportCard";
import { Table, Loading, Customer, shortIds, tdClass } from "./ReportTable";

const STATUS_BADGE: Record<CaseStatus, string> = {
  open: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  filed: "bg-indigo-100 text-indigo-900 dark:bg-indigo-950 dark:text-indigo-200",
  dismissed: "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100",
};
const STATUS_LABEL: Record<CaseStatus, string> = { open: "Open", filed: "Filed", dismissed: "Dismissed" };

/** The suspicious-activity candidates of the period, each with the journals behind it and its case. */
export function SarSection({ period }: { period: Period }) {
  const query = useSar(period);
  return (
    <ReportCard
      id="compliance-sar"
      title="Suspicious activity candidates"
      description="Structuring, rapid in-and-out, high KYC risk with large volume and screening hits. Each candidate has a case: file it, dismiss it with a reason, or reopen it. Running the report again keeps every case's status."
      exportOf={{ report: "sar", period }}
    >
      <Loading query={query} what="suspicious activity candidates">
        {(report) =>
          report.candidates.length === 0 ? (
            <EmptyState title="No candidates">No rule found anything in this period.</EmptyState>
          ) : (
            <Table
              caption="Suspicious activity candidates"
              head={["Rule", "Customer", "What was seen", "Total", "Case"]}
            >
              {report.candidates.map((candidate) => (
                <CandidateRow key={candidate.case.id} candidate={candidate} />
              ))}
            </Table>
          )
        }
      </Loading>
    </ReportCard>
  );
}

function CandidateRow({ candidate }: { candidate: SarCandidate }) {
  const update = useUpdateCase();
  const [dismissing, setDismissing] = useState(false);
  const [reason, setReason] = useState("");
  const [reasonError, setReasonError] = useState<string | null>(null);
  const id = useId();
  const current = candidate.case;
  const change = (status: CaseStatus, withReason?: string) =>
    update.mutate(
      { id: current.id, input: { status, version: current.version, ...(withReason ? { reason: withReason } : {}) } },
      { onSuccess: () => setDismissing(false) },
    );
  const dismiss = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) {
      setReasonError(COMPLIANCE_MESSAGES.reasonRequired);
      return;
    }
    setReasonError(null);
    change("dismissed", reason.trim());
  };
  const label = `${candidate.rule_label}, ${candidate.customer.name}, ${candidate.window}`;
  return (
    <tr>
      <td className={tdClass}>
        <span className="block whitespace-nowrap font-medium">{candidate.rule_label}</span>
        <span className={`block whitespace-nowrap ${subtleTextClass}`}>{candidate.window}</span>
      </td>
      <td className={tdClass}>
        <Customer customer={candidate.customer} />
      </td>
      <td className={`${tdClass} min-w-64`}>
        <p>{candidate.sentence}</p>
        {candidate.journal_ids.length > 0 && (
          <p className={`mt-1 font-mono text-xs ${subtleTextClass}`} title={candidate.journal_ids.join(", ")}>
            Journals {shortIds(candidate.journal_ids)}
          </p>
        )}
        {candidate.payment_ids.length > 0 && (
          <p className={`mt-1 font-mono text-xs ${subtleTextClass}`} title={candidate.payment_ids.join(", ")}>
            Payments {shortIds(candidate.payment_ids)}
          </p>
        )}
      </td>
      <td className={tdClass}>
        <Money minor={candidate.total_minor} currency={candidate.currency as Currency} />
      </td>
      <td className={`${tdClass} min-w-56`}>
        <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_BADGE[current.status]}`}>
          {STATUS_LABEL[current.status]}
        </span>
        {current.reason && <p className={`mt-1 ${subtleTextClass}`}>Reason: {current.reason}</p>}
        <div role="group" aria-label={`Case actions: ${label}`} className="mt-2 flex flex-wrap gap-2">
          {current.status === "open" ? (
            <>
              <button
                type="button"
                className={secondaryButtonClass}
                disabled={update.isPending}
                onClick={() => change("filed")}
              >
                File
              </button>
              <button
                type="button"
                className={secondaryButtonClass}
                disabled={update.isPending}
                aria-expanded={dismissing}
                aria-controls={`${id}-dismiss`}
                onClick={() => setDismissing(!dismissing)}
              >
                Dismiss
              </button>
            </>
          ) : (
            <button
              type="button"
              className={secondaryButtonClass}
              disabled={update.isPending}
              onClick={() => change("open")}
            >
              Reopen
            </button>
          )}
        </div>
        {dismissing && current.status === "open" && (
          <form id={`${id}-dismiss`} onSubmit={dismiss} className="mt-2 space-y-2" noValidate>
            <label htmlFor={`${id}-reason`} className={labelClass}>
              Reason for dismissing
            </label>
            <textarea
              id={`${id}-reason`}
              className={inputClass}
              rows={2}
              maxLength={500}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              aria-invalid={reasonError ? true : undefined}
              aria-describedby={reasonError ? `${id}-reason-error` : undefined}
            />
            {reasonError && (
              <p id={`${id}-reason-error`} className={errorTextClass}>
                {reasonError}
              </p>
            )}
            <button type="submit" className={primaryButtonClass} disabled={update.isPending}>
              Dismiss case
            </button>
          </form>
        )}
        {update.isError && (
          <p role="alert" className={`mt-2 ${errorTextClass}`}>
            {errorMessage(update.error, "The case could not be changed")}
          </p>
        )}
      </td>
    </tr>
  );
}
