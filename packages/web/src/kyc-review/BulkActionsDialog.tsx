import { confirmationMatches } from "@fintech/core/kyc/review-model";
import { useId, useMemo, useState } from "react";
import { DECISION_STATUSES, kycReviewApi, type BulkRiskSummary, type DecisionStatus } from "../api/kycReview";
import { Dialog } from "../components/Dialog";
import { primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { errorTextClass, Spinner, subtleTextClass } from "../ledger/ui";
import { randomId } from "../lib/uuid";
import { NoteField } from "./ui";
import {
  actionErrorMessage,
  bulkQuestion,
  bulkRiskLines,
  DECISION_VERBS,
  REVIEW_MESSAGES,
  summariseBulk,
  type BulkSummary,
} from "./actions";
import { RiskAcknowledgement } from "./DecisionDialogs";
import { useBulkRisk } from "./hooks";

interface BulkActionsDialogProps {
  /** The selected ids with their customers' names (for the per-id results). */
  selection: ReadonlyMap<string, string>;
  onClose: () => void;
  /** After the update ran (whatever its outcome): the list and stats reload. */
  onDone: () => void;
}

const SUMMARY_TONES: Record<BulkSummary["tone"], string> = {
  success: "text-emerald-800 dark:text-emerald-200",
  warning: "text-amber-900 dark:text-amber-200",
  error: errorTextClass,
};

/** What the selection holds by risk, read from the server before anything is decided. */
function RiskSummary({
  risk,
  loading,
  failed,
}: {
  risk: BulkRiskSummary | undefined;
  loading: boolean;
  failed: string | null;
}) {
  if (loading) {
    return (
      <p className={`mt-3 ${subtleTextClass}`}>
        <Spinner label="Checking the risk of the selection…" />
      </p>
    );
  }
  if (failed || !risk) {
    return (
      <p role="alert" className={`mt-3 ${errorTextClass}`}>
        {failed ?? REVIEW_MESSAGES.bulkRiskFailed}. The server still checks each approval.
      </p>
    );
  }
  return (
    <ul
      aria-label="Risk of the selection"
      className="mt-3 space-y-0.5 rounded-lg border border-slate-200 p-3 text-sm text-slate-900 dark:border-slate-700 dark:text-white"
    >
      {bulkRiskLines(risk).map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}

/**
 * Bulk Actions (the bulk status update of docs/product/kyc.md#bulk-actions): choose Approve, Reject
 * or Under Review for the selected submissions, see what they hold by risk (count per level, the
 * highest score, how many the rules recommend rejecting), confirm, then see each one's result.
 * Rejecting needs a reason; approving a selection with a High-risk or reject-recommended submission
 * needs the typed APPROVE, as a single approval does.
 */
export function BulkActionsDialog({ selection, onClose, onDone }: BulkActionsDialogProps) {
  const titleId = useId();
  const notesId = useId();
  const [status, setStatus] = useState<DecisionStatus | null>(null);
  const [notes, setNotes] = useState("");
  const [typed, setTyped] = useState("");
  const [busy, setBusy] = useState(false);
  const [summary, setSummary] = useState<BulkSummary | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // One key per chosen action: a retry after a lost reply is applied once.
  const [key, setKey] = useState(randomId);
  const ids = useMemo(() => [...selection.keys()], [selection]);
  const risk = useBulkRisk(ids);
  const riskFailed = risk.isError ? actionErrorMessage(risk.error, REVIEW_MESSAGES.bulkRiskFailed) : null;
  const warned = status === "verified" && risk.data?.acknowledgement_required === true;
  const reasonMissing = status === "rejected" && !notes.trim();
  const blocked = (status === "verified" && risk.isPending) || reasonMissing || (warned && !confirmationMatches(typed));

  const choose = (next: DecisionStatus | null) => {
    setStatus(next);
    setFailure(null);
    setTyped("");
    setKey(randomId());
  };

  const run = async () => {
    if (!status || busy || blocked) return;
    setBusy(true);
    setFailure(null);
    try {
      const change = {
        ids,
        status,
        ...(notes.trim() ? { notes: notes.trim() } : {}),
        ...(warned ? { acknowledge_risk: true } : {}),
      };
      const results = await kycReviewApi.bulkUpdate(change, { idempotencyKey: key });
      setSummary(summariseBulk(status, ids, results, selection));
      onDone();
    } catch (error) {
      setFailure(actionErrorMessage(error, REVIEW_MESSAGES.bulkFailed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog labelledBy={titleId} onClose={() => !busy && onClose()}>
      <h2 id={titleId} className="text-lg font-bold">
        Bulk Actions
      </h2>
      {summary ? (
        <div role="status">
          <p className={`mt-3 text-sm font-semibold ${SUMMARY_TONES[summary.tone]}`}>{summary.headline}</p>
          {summary.failures.length > 0 && (
            <ul
              aria-label="Not updated"
              className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-700 dark:text-slate-300"
            >
              {summary.failures.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          )}
          <div className="mt-6 flex justify-end">
            <button type="button" className={primaryButtonClass} onClick={onClose} data-autofocus>
              Close
            </button>
          </div>
        </div>
      ) : status ? (
        <>
          <p className="mt-3 text-sm text-slate-900 dark:text-white">{bulkQuestion(status, ids.length)}</p>
          <p className={`mt-1 ${subtleTextClass}`}>
            Each submission is updated on its own; any that cannot change are listed afterwards.
          </p>
          <RiskSummary risk={risk.data} loading={risk.isPending} failed={riskFailed} />
          {warned && risk.data && (
            <div className="mt-3">
              <RiskAcknowledgement
                warnings={risk.data.submissions
                  .filter((item) => item.acknowledgement_required)
                  .map((item) => `${item.name}: ${item.warnings.join("; ")}`)}
                typed={typed}
                onTyped={setTyped}
                what="the selection holds submissions the guard warns about"
              />
            </div>
          )}
          <div className="mt-4">
            <NoteField
              id={notesId}
              label={
                status === "rejected"
                  ? "Reason for rejecting (required, kept in the audit trail)"
                  : "Note for the audit trail (optional)"
              }
              value={notes}
              onChange={setNotes}
            />
          </div>
          {failure && (
            <p role="alert" className={`mt-3 ${errorTextClass}`}>
              {failure}
            </p>
          )}
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <button
              type="button"
              className={secondaryButtonClass}
              onClick={() => choose(null)}
              disabled={busy}
              data-autofocus
            >
              Back
            </button>
            <button type="button" className={primaryButtonClass} onClick={() => void run()} disabled={busy || blocked}>
              {busy ? <Spinner label="Updating…" /> : `Confirm: ${DECISION_VERBS[status].label}`}
            </button>
          </div>
        </>
      ) : (
        <>
          <p className={`mt-2 ${subtleTextClass}`}>
            {ids.length} submission{ids.length === 1 ? "" : "s"} selected. What should happen to{" "}
            {ids.length === 1 ? "it" : "them"}?
          </p>
          <RiskSummary risk={risk.data} loading={risk.isPending} failed={riskFailed} />
          <div className="mt-4 flex flex-col gap-2">
            {DECISION_STATUSES.map((decision) => (
              <button key={decision} type="button" className={secondaryButtonClass} onClick={() => choose(decision)}>
                {DECISION_VERBS[decision].label}
              </button>
            ))}
          </div>
          <div className="mt-6 flex justify-end">
            <button type="button" className={secondaryButtonClass} onClick={onClose}>
              Cancel
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
