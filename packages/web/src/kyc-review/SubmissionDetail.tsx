import { IDENTITY_NUMBER_KINDS, isIdentityNumberType } from "@fintech/core/kyc/identity-numbers";
import { DOCUMENT_TYPE_LABELS } from "@fintech/core/kyc/model";
import { reviewerTransition, shareLabel } from "@fintech/core/kyc/review-model";
import { useId, useState, type ReactNode } from "react";
import toast from "react-hot-toast";
import {
  kycReviewApi,
  type DashboardSubmission,
  type DecisionStatus,
  type LinkedSubmission,
  type ReviewDocument,
  type SubmissionDetail as Detail,
} from "../api/kycReview";
import { ApiError } from "../api/errors";
import { Dialog } from "../components/Dialog";
import { CloseIcon } from "../components/icons";
import { iconButtonClass, primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { formatDateTime, humanize } from "../ledger/format";
import { dangerButtonClass, errorTextClass, smallPrimaryButtonClass, Spinner, subtleTextClass } from "../ledger/ui";
import { randomId } from "../lib/uuid";
import { actionErrorMessage, DECISION_VERBS, REVIEW_MESSAGES } from "./actions";
import { ApproveDialog, RejectDialog } from "./DecisionDialogs";
import { formatInr, STATUS_LABELS } from "./format";
import { useSubmissionDetail } from "./hooks";
import { KycStatusBadge, NoteField, PriorityBadge, RiskScore } from "./ui";

interface SubmissionDetailProps {
  id: string;
  /** The row as the list showed it, so the header has content before the detail arrives. */
  shown: DashboardSubmission | undefined;
  onClose: () => void;
  /** After a decision or a request for information: the list reloads and the modal closes. */
  onChanged: () => void;
  /** Opens another submission (a linked one) in this modal's place. */
  onOpen: (id: string) => void;
}

/** A decision waiting for its confirmation dialog, with the reviewer's notes at the time. */
type PendingDecision = { status: "verified" | "rejected"; notes: string };

const sectionHeadingClass = "text-sm font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400";

/**
 * One submission in full (the detail modal of docs/product/kyc.md#submission-detail): Customer
 * Information, Risk Assessment with every rule that fired and what the live rules say now, the
 * submissions it is linked to, the document images through short-lived presigned URLs with their
 * check results, Notes, the audit trail, and Approve / Reject / Request Info. Approve and Reject
 * ask first, in a dialog beside this one (not inside it, so each keeps its own focus trap): Reject
 * for the reason the server requires, Approve for the typed acknowledgement when the risk guard
 * warns.
 */
export function SubmissionDetail({ id, shown, onClose, onChanged, onOpen }: SubmissionDetailProps) {
  const titleId = useId();
  const detail = useSubmissionDetail(id);
  const submission = detail.data;
  const name = submission?.name ?? shown?.name ?? "Submission";
  const status = submission?.status ?? shown?.status;
  const [pending, setPending] = useState<PendingDecision | null>(null);
  const [busy, setBusy] = useState(false);

  const decide = async (decision: PendingDecision, acknowledgeRisk: boolean) => {
    if (busy || !submission) return;
    setBusy(true);
    try {
      await kycReviewApi.decide(submission.id, {
        status: decision.status,
        notes: decision.notes,
        ...(acknowledgeRisk ? { acknowledge_risk: true } : {}),
      });
      toast.success(`${submission.name}'s submission ${DECISION_VERBS[decision.status].done}`);
      setPending(null);
      onChanged();
    } catch (error) {
      toast.error(actionErrorMessage(error, REVIEW_MESSAGES.updateFailed));
      // The risk changed since the detail was read: read it again, so the dialog shows the warnings.
      if (error instanceof ApiError && error.code === "kyc_risk_acknowledgement_required") void detail.refetch();
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Dialog labelledBy={titleId} onClose={onClose}>
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <h2 id={titleId} className="truncate text-lg font-bold">
              {name}
            </h2>
            <p className={`${subtleTextClass} flex flex-wrap items-center gap-2`}>
              KYC submission {status && <KycStatusBadge status={status} />}
            </p>
          </div>
          <button type="button" className={iconButtonClass} onClick={onClose} aria-label="Close submission details">
            <CloseIcon width="18" height="18" />
          </button>
        </div>
        {detail.isError ? (
          <p role="alert" className={`mt-4 ${errorTextClass}`}>
            {actionErrorMessage(detail.error, REVIEW_MESSAGES.detailFailed)}
          </p>
        ) : !submission ? (
          <p className={`mt-4 ${subtleTextClass}`}>
            <Spinner label="Loading the submission…" />
          </p>
        ) : (
          <DetailBody
            submission={submission}
            onChanged={onChanged}
            onReload={() => void detail.refetch()}
            onAsk={(status, notes) => setPending({ status, notes })}
            onOpen={onOpen}
            deciding={pending !== null}
          />
        )}
      </Dialog>
      {pending?.status === "verified" && submission && (
        <ApproveDialog
          name={submission.name}
          risk={submission.risk_check}
          busy={busy}
          onConfirm={(acknowledge) => void decide(pending, acknowledge)}
          onCancel={() => !busy && setPending(null)}
        />
      )}
      {pending?.status === "rejected" && submission && (
        <RejectDialog
          name={submission.name}
          initialReason={pending.notes}
          busy={busy}
          onConfirm={(reason) => void decide({ status: "rejected", notes: reason }, false)}
          onCancel={() => !busy && setPending(null)}
        />
      )}
    </>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mt-5">
      <h3 id={headingId} className={sectionHeadingClass}>
        {title}
      </h3>
      <div className="mt-2">{children}</div>
    </section>
  );
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className="break-words text-sm text-slate-900 dark:text-white">{children}</dd>
    </div>
  );
}

interface DetailBodyProps {
  submission: Detail;
  onChanged: () => void;
  onReload: () => void;
  /** Approve or Reject pressed: the confirmation dialog takes over. */
  onAsk: (status: "verified" | "rejected", notes: string) => void;
  onOpen: (id: string) => void;
  /** A confirmation dialog is open for this submission. */
  deciding: boolean;
}

function DetailBody({ submission, onChanged, onReload, onAsk, onOpen, deciding }: DetailBodyProps) {
  const id = useId();
  const [notes, setNotes] = useState(submission.notes ?? "");
  const [asking, setAsking] = useState<"info" | "dismiss" | null>(null);
  const [message, setMessage] = useState("");
  const [dismissReason, setDismissReason] = useState("");
  const [busy, setBusy] = useState<DecisionStatus | "request-info" | "dismiss" | null>(null);
  // One key per opened modal and action: a double click or a retry is applied once.
  const [keys] = useState(() => ({ under_review: randomId(), info: randomId(), dismiss: randomId() }));
  const risk = submission.risk;
  const check = submission.risk_check;
  const liveDiffers =
    check.live !== null && (!risk || check.live.risk_score !== risk.risk_score || check.live.verdict !== risk.verdict);

  const reopen = async () => {
    const status = "under_review";
    if (busy) return;
    setBusy(status);
    try {
      await kycReviewApi.decide(submission.id, { status, notes: notes.trim() }, { idempotencyKey: keys.under_review });
      toast.success(`${submission.name}'s submission ${DECISION_VERBS[status].done}`);
      onChanged();
    } catch (error) {
      toast.error(actionErrorMessage(error, REVIEW_MESSAGES.updateFailed));
      setBusy(null);
    }
  };

  const dismissAlert = async () => {
    const text = dismissReason.trim();
    if (busy || !text) return;
    setBusy("dismiss");
    try {
      await kycReviewApi.dismissAlert(submission.id, text, { idempotencyKey: keys.dismiss });
      toast.success(`${submission.name}'s alert dismissed`);
      onChanged();
    } catch (error) {
      toast.error(actionErrorMessage(error, REVIEW_MESSAGES.dismissFailed));
      setBusy(null);
    }
  };

  const requestInfo = async () => {
    const text = message.trim();
    if (busy || !text) return;
    setBusy("request-info");
    try {
      await kycReviewApi.requestInfo(submission.id, text, { idempotencyKey: keys.info });
      toast.success(`Request sent to ${submission.name}`);
      onChanged();
    } catch (error) {
      toast.error(actionErrorMessage(error, REVIEW_MESSAGES.requestInfoFailed));
      setBusy(null);
    }
  };

  const numbers = Object.entries(submission.identity_numbers ?? {});
  // The server's transition rules (review-model), so a button that would be refused is not offered.
  const allows = (to: DecisionStatus) => reviewerTransition(submission.status, to, true).allowed;
  const decided = submission.status === "verified" || submission.status === "rejected";
  const approval = reviewerTransition(submission.status, "verified", true);
  const blocked = !decided && !approval.allowed ? approval.reason : null;
  const needsNote = decided && !notes.trim();
  const canRequestInfo = submission.status === "under_review" || submission.status === "pending";

  return (
    <>
      {submission.review_alert && (
        <div
          role="note"
          aria-label="Review alert"
          className="mt-4 rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-950 dark:border-red-800 dark:bg-red-950/60 dark:text-red-100"
        >
          <p className="font-semibold">Review alert · {formatDateTime(submission.review_alert.raised_at)}</p>
          <p className="mt-1">{submission.review_alert.reason}</p>
          <p className="mt-1">Reopen it for review (with a note below), or dismiss the alert with a reason.</p>
        </div>
      )}

      <Section title="Customer Information">
        <dl className="grid grid-cols-2 gap-3">
          <Item label="Email">{submission.email}</Item>
          <Item label="Phone">{submission.phone || "—"}</Item>
          <Item label="Location">{submission.location || "—"}</Item>
          <Item label="Country">{submission.country}</Item>
          <Item label="Amount">{formatInr(submission.amount)}</Item>
          <Item label="Priority">
            <PriorityBadge priority={submission.priority} />
          </Item>
          <Item label="Submitted">{formatDateTime(submission.submitted_at)}</Item>
          <Item label="Verified">{submission.verified_at ? formatDateTime(submission.verified_at) : "—"}</Item>
          {numbers.map(([type, record]) => (
            <Item key={type} label={isIdentityNumberType(type) ? IDENTITY_NUMBER_KINDS[type].label : type}>
              <span className="font-mono">{record?.masked}</span>
            </Item>
          ))}
        </dl>
        {submission.info_request && (
          <p className="mt-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-100">
            Information requested {formatDateTime(submission.info_request.requested_at)}: “
            {submission.info_request.message}”
          </p>
        )}
      </Section>

      <Section title="Risk Assessment">
        {!risk ? (
          <p className={subtleTextClass}>Not assessed yet.</p>
        ) : (
          <>
            <p className="text-sm text-slate-900 dark:text-white">
              Score <RiskScore score={risk.risk_score} level={risk.level} />
              <span className="text-slate-600 dark:text-slate-400"> · rule set v{risk.rule_set_version}</span>
            </p>
            {liveDiffers && check.live && (
              <p className="mt-1 text-sm text-slate-900 dark:text-white">
                Live rules now <RiskScore score={check.live.risk_score} level={check.live.level} />
                <span className="text-slate-600 dark:text-slate-400">
                  {" "}
                  · v{check.live.rule_set_version}
                  {check.live.verdict === "reject" ? " · recommend rejecting" : ""}
                </span>
              </p>
            )}
            {check.acknowledgement_required && (
              <ul
                aria-label="Approval warnings"
                className="mt-2 list-disc pl-5 text-sm font-semibold text-red-700 dark:text-red-300"
              >
                {check.warnings.map((warning) => (
                  <li key={warning}>{warning}</li>
                ))}
              </ul>
            )}
            {risk.flags.length > 0 && (
              <ul aria-label="Risk flags" className="mt-2 flex flex-wrap gap-1.5">
                {risk.flags.map((flag) => (
                  <li
                    key={flag.code}
                    className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800 dark:bg-red-950 dark:text-red-200"
                    title={flag.message}
                  >
                    {flag.message || flag.code}
                  </li>
                ))}
              </ul>
            )}
            {risk.reasons.length === 0 ? (
              <p className={`mt-2 ${subtleTextClass}`}>No rule added points.</p>
            ) : (
              // Scrolls sideways on a phone: focusable, so the keyboard can scroll it too.
              <div className="mt-2 overflow-x-auto" tabIndex={0} role="region" aria-label="Rules that fired">
                <table className="w-full text-left text-sm">
                  <caption className="sr-only">Rules that fired and the points each added</caption>
                  <thead className="text-xs text-slate-600 dark:text-slate-400">
                    <tr>
                      <th scope="col" className="py-1 pr-2 font-semibold">
                        Rule
                      </th>
                      <th scope="col" className="py-1 pr-2 text-right font-semibold">
                        Points
                      </th>
                      <th scope="col" className="py-1 font-semibold">
                        Why
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
                    {risk.reasons.map((reason, index) => (
                      <tr key={`${reason.rule}-${index}`}>
                        <td className="py-1 pr-2 font-mono text-xs">{reason.rule}</td>
                        <td className="py-1 pr-2 text-right tabular-nums">
                          {reason.points > 0 ? `+${reason.points}` : reason.points}
                        </td>
                        <td className="py-1">{reason.reason}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </>
        )}
      </Section>

      <Section title="Linked submissions">
        {submission.linked.submissions.length === 0 ? (
          <p className={subtleTextClass}>No other applicant shares an identity number or a picture with this one.</p>
        ) : (
          <ul className="space-y-2">
            {submission.linked.submissions.map((linked) => (
              <LinkedItem key={linked.id} linked={linked} onOpen={onOpen} />
            ))}
          </ul>
        )}
        {submission.linked.more && (
          <p className={`mt-2 ${subtleTextClass}`}>More submissions are linked than are listed here.</p>
        )}
      </Section>

      <Section title="Documents">
        {submission.documents.length === 0 ? (
          <p className={subtleTextClass}>No documents uploaded.</p>
        ) : (
          <ul className="space-y-4">
            {submission.documents.map((document) => (
              <DocumentItem
                key={`${document.type}-${document.url}`}
                document={document}
                owner={submission.name}
                onReload={onReload}
              />
            ))}
          </ul>
        )}
      </Section>

      <Section title="Notes">
        <NoteField
          id={`${id}-notes`}
          label="Reviewer notes"
          labelHidden
          value={notes}
          onChange={setNotes}
          placeholder="Saved with your decision and kept in the audit trail"
        />
      </Section>

      <Section title="Audit trail">
        {submission.audit.length === 0 ? (
          <p className={subtleTextClass}>No entries.</p>
        ) : (
          <ol className="space-y-2 text-sm">
            {submission.audit.map((entry, index) => (
              <li key={`${entry.at}-${index}`} className="border-l-2 border-slate-300 pl-3 dark:border-slate-700">
                <p className="text-slate-900 dark:text-white">
                  <span className="font-semibold">{entry.actor}</span> · {humanize(entry.action)}
                  {entry.from !== entry.to && entry.to && (
                    <span>
                      {" "}
                      ({entry.from ? STATUS_LABELS[entry.from] : "new"} → {STATUS_LABELS[entry.to]})
                    </span>
                  )}
                </p>
                <p className="text-xs text-slate-600 dark:text-slate-400">{formatDateTime(entry.at)}</p>
                {entry.note && <p className="text-slate-700 dark:text-slate-300">“{entry.note}”</p>}
              </li>
            ))}
          </ol>
        )}
      </Section>

      {asking === "dismiss" ? (
        <div className="mt-5">
          <NoteField
            id={`${id}-dismiss`}
            label="Why the alert needs no further action (required)"
            value={dismissReason}
            onChange={setDismissReason}
            placeholder="Kept in the audit trail with your name"
            autoFocus
          />
          <div className="mt-3 flex flex-wrap justify-end gap-2">
            <button
              type="button"
              className={secondaryButtonClass}
              onClick={() => setAsking(null)}
              disabled={busy !== null}
            >
              Cancel
            </button>
            <button
              type="button"
              className={primaryButtonClass}
              onClick={() => void dismissAlert()}
              disabled={busy !== null || !dismissReason.trim()}
            >
              {busy === "dismiss" ? <Spinner label="Dismissing…" /> : "Dismiss alert"}
            </button>
          </div>
        </div>
      ) : asking === "info" ? (
        <div className="mt-5">
          <NoteField
            id={`${id}-message`}
            label="Message to the applicant (required)"
            value={message}
            onChange={setMessage}
            placeholder="What should they send again, and why"
            // It appears on a click of Request Info: typing starts at once.
            autoFocus
          />
          <div className="mt-3 flex flex-wrap justify-end gap-2">
            <button
              type="button"
              className={secondaryButtonClass}
              onClick={() => setAsking(null)}
              disabled={busy !== null}
            >
              Cancel
            </button>
            <button
              type="button"
              className={primaryButtonClass}
              onClick={() => void requestInfo()}
              disabled={busy !== null || !message.trim()}
            >
              {busy === "request-info" ? <Spinner label="Sending…" /> : "Send request"}
            </button>
          </div>
        </div>
      ) : (
        <>
          {(needsNote || blocked) && (
            <p id={`${id}-why`} className={`mt-5 ${subtleTextClass}`}>
              {blocked ?? "Reopening a decision needs a note saying why (Notes above)."}
            </p>
          )}
          <div className="mt-5 flex flex-wrap justify-end gap-2">
            {submission.review_alert && (
              <button
                type="button"
                className={secondaryButtonClass}
                onClick={() => setAsking("dismiss")}
                disabled={busy !== null}
              >
                Dismiss alert
              </button>
            )}
            {canRequestInfo && (
              <button
                type="button"
                className={secondaryButtonClass}
                onClick={() => setAsking("info")}
                disabled={busy !== null}
              >
                Request Info
              </button>
            )}
            {decided ? (
              <button
                type="button"
                className={secondaryButtonClass}
                onClick={() => void reopen()}
                disabled={busy !== null || !notes.trim()}
                aria-describedby={needsNote ? `${id}-why` : undefined}
              >
                {busy === "under_review" ? <Spinner label="Reopening…" /> : "Reopen for review"}
              </button>
            ) : (
              <>
                <button
                  type="button"
                  className={dangerButtonClass}
                  onClick={() => onAsk("rejected", notes.trim())}
                  disabled={busy !== null || deciding || !allows("rejected")}
                  aria-haspopup="dialog"
                >
                  Reject
                </button>
                <button
                  type="button"
                  className={smallPrimaryButtonClass}
                  onClick={() => onAsk("verified", notes.trim())}
                  disabled={busy !== null || deciding || !allows("verified")}
                  aria-describedby={blocked ? `${id}-why` : undefined}
                  aria-haspopup="dialog"
                >
                  Approve
                </button>
              </>
            )}
          </div>
        </>
      )}
    </>
  );
}

/** A linked submission: who, when, in what state, and what the two share; Open shows it in this modal. */
function LinkedItem({ linked, onOpen }: { linked: LinkedSubmission; onOpen: (id: string) => void }) {
  return (
    <li className="flex flex-wrap items-start justify-between gap-2 rounded-xl border border-slate-200 p-3 dark:border-slate-800">
      <div className="min-w-0 text-sm">
        <p className="flex flex-wrap items-center gap-2 font-semibold text-slate-900 dark:text-white">
          {linked.name} <KycStatusBadge status={linked.status} />
          {linked.alert_open && (
            <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800 dark:bg-red-950 dark:text-red-200">
              Alert
            </span>
          )}
        </p>
        <p className="text-slate-700 dark:text-slate-300">
          {linked.relation === "earlier" ? "Earlier" : "Later"} submission · {formatDateTime(linked.submitted_at)} ·
          risk <RiskScore score={linked.risk_score} level={linked.risk_level} />
        </p>
        <p className="text-slate-700 dark:text-slate-300">Shares {linked.shared.map(shareLabel).join(" and ")}</p>
        <p className="font-mono text-xs text-slate-600 dark:text-slate-400">{linked.id}</p>
      </div>
      <button
        type="button"
        className={secondaryButtonClass}
        onClick={() => onOpen(linked.id)}
        aria-label={`Open the linked submission of ${linked.name}`}
      >
        Open
      </button>
    </li>
  );
}

/** One document: its image (and face image) through presigned URLs, and what the checks found. */
function DocumentItem({
  document,
  owner,
  onReload,
}: {
  document: ReviewDocument;
  owner: string;
  onReload: () => void;
}) {
  const label = DOCUMENT_TYPE_LABELS[document.type] ?? document.type;
  const checks = document.checks;
  // A link expires after 5 minutes (or a policy blocks it): say so instead of a broken picture.
  const [failed, setFailed] = useState(false);
  return (
    <li className="rounded-xl border border-slate-200 p-3 dark:border-slate-800">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-semibold text-slate-900 dark:text-white">{label}</p>
        <span className="text-xs font-semibold text-slate-700 dark:text-slate-300">
          {humanize(document.status)} · {formatDateTime(document.uploaded_at)}
        </span>
      </div>
      {failed ? (
        <p role="alert" className={`mt-2 flex flex-wrap items-center gap-2 ${errorTextClass}`}>
          The image could not be loaded.
          <button type="button" className="font-semibold underline" onClick={onReload}>
            Load it again
          </button>
        </p>
      ) : (
        <a href={document.url} target="_blank" rel="noreferrer noopener" className="mt-2 block">
          <img
            src={document.url}
            alt={`${label} of ${owner}`}
            onError={() => setFailed(true)}
            className="max-h-64 w-full rounded-lg bg-slate-100 object-contain dark:bg-slate-800"
          />
        </a>
      )}
      {document.face_url && (
        <img
          src={document.face_url}
          alt={`Face of ${owner}`}
          className="mt-2 max-h-40 rounded-lg bg-slate-100 object-contain dark:bg-slate-800"
        />
      )}
      {checks ? (
        <dl className="mt-2 grid grid-cols-2 gap-2 text-xs">
          <Item label="Checks">{checks.passed ? "Passed" : "Failed"}</Item>
          <Item label="Format">
            {checks.format.toUpperCase()} · {Math.round(checks.bytes / 1024)} KB
          </Item>
          <Item label="Resolution">
            {checks.width} × {checks.height}
          </Item>
          <Item label="Sharpness / glare">
            {checks.sharpness.toFixed(0)} / {(checks.glare * 100).toFixed(1)}%
          </Item>
          {checks.problems.length > 0 && (
            <div className="col-span-2">
              <dt className="text-xs text-slate-600 dark:text-slate-400">Problems</dt>
              <dd>
                <ul className="list-disc pl-4 text-sm text-red-700 dark:text-red-300">
                  {checks.problems.map((problem) => (
                    <li key={problem}>{problem}</li>
                  ))}
                </ul>
              </dd>
            </div>
          )}
        </dl>
      ) : (
        <p className={`mt-2 text-xs ${subtleTextClass}`}>Checks not run yet.</p>
      )}
    </li>
  );
}
