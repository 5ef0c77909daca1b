import { useState } from "react";
import { Link } from "react-router-dom";
import { DOCUMENT_TYPES, KYC_LIMITS, KYC_MESSAGES, type KycStatus } from "@fintech/core/kyc/model";
import type { KycState } from "../api/kyc";
import {
  inputClass,
  labelClass,
  linkButtonClass,
  primaryButtonClass,
  secondaryButtonClass,
} from "../components/styles";
import { writeErrorMessage } from "../ledger/actionErrors";
import { ReviewItem, Spinner } from "../ledger/ui";
import { showToast } from "../toast/notify";
import { DocumentStatusBadge } from "./DocumentStep";
import { useResubmit, useShownInPlace } from "./hooks";
import { KYC_COMPLETED_TOAST_ID, KYC_MANUAL_REVIEW_TOAST_ID, KYC_UI_MESSAGES } from "./live/events";
import { numberCopy } from "./NumberStep";
import { documentLabel, missingSteps, outcomeOf, stepProgress, type KycStep, type KycStepId } from "./steps";
import { BulletList, Notice, useActionKey } from "./ui";

const STATUS_LABELS: Record<KycStatus, string> = {
  pending: "Pending",
  under_review: "Under review",
  verified: "Verified",
  rejected: "Rejected",
};

interface CompletionStepProps {
  state: KycState;
  /** The country's steps (the numbers it asks for among them). */
  steps: readonly KycStep[];
  /** The stream said the submission needs a reviewer (verificationCompleted REQUIRES_REVIEW). */
  manualReview: boolean;
  onGoTo(step: KycStepId): void;
  onChanged(): void;
}

/**
 * The last step (docs/product/kyc.md#completion): where the submission stands, what is left, the
 * reviewer's request, and the way on. It says what happens next and nothing of the checks behind
 * it: no score, no flag (docs/trust-and-safety.md#what-applicants-see).
 */
export function CompletionStep({ state, steps, manualReview, onGoTo, onChanged }: CompletionStepProps) {
  const outcome = outcomeOf(state, steps);
  // The outcome's notice below says what the stream's toast would: one place only.
  useShownInPlace(
    outcome === "verified" ? KYC_COMPLETED_TOAST_ID : outcome === "under_review" ? KYC_MANUAL_REVIEW_TOAST_ID : null,
  );
  const missing = missingSteps(state, steps);
  const numbers = steps.flatMap((step) => (step.number ? [step.number.type] : []));
  return (
    <div className="space-y-6">
      {outcome === "verified" && (
        <Notice tone="success" title="Identity verified">
          {KYC_MESSAGES.completed}
        </Notice>
      )}
      {outcome === "under_review" && (
        <Notice tone="warning" title="Manual review required">
          {KYC_UI_MESSAGES.manualReview}
        </Notice>
      )}
      {outcome === "rejected" && (
        <Notice tone="error" title="Verification not approved" quiet>
          A reviewer could not verify your identity with what was submitted. You can start a new verification with other
          documents.
          <div className="mt-3">
            <button type="button" className={secondaryButtonClass} onClick={() => onGoTo("country")}>
              Start a new verification
            </button>
          </div>
        </Notice>
      )}
      {outcome === "info_requested" && state.info_request && (
        <InfoRequested request={state.info_request} onGoTo={onGoTo} onChanged={onChanged} />
      )}
      {outcome === "incomplete" && (
        <Notice tone="info" title="Almost there" quiet>
          {manualReview
            ? "Your submission needs a manual review once these are done:"
            : "Finish these to send your submission for review:"}
          <ul className="mt-2 space-y-1">
            {missing.map((item) => (
              <li key={item.step}>
                <button type="button" className={linkButtonClass} onClick={() => onGoTo(item.step)}>
                  {item.label}
                </button>
              </li>
            ))}
          </ul>
        </Notice>
      )}

      <dl className="grid gap-4 sm:grid-cols-2">
        <ReviewItem label="Status">{STATUS_LABELS[state.status]}</ReviewItem>
        <ReviewItem label="Verification progress">{stepProgress(steps, "completion", state).percent}%</ReviewItem>
        {numbers.map((type) => (
          <ReviewItem key={type} label={numberCopy(type).name} mono>
            {state.identity_numbers[type]?.masked ?? "Not verified"}
          </ReviewItem>
        ))}
        <ReviewItem label="Documents">
          <ul className="space-y-1">
            {DOCUMENT_TYPES.filter((type) => state.documents[type]).map((type) => (
              <li key={type} className="flex flex-wrap items-center gap-2">
                {documentLabel(type)} <DocumentStatusBadge status={state.documents[type]!.status} />
              </li>
            ))}
            {DOCUMENT_TYPES.every((type) => !state.documents[type]) && <li>None yet</li>}
          </ul>
        </ReviewItem>
        {state.next_steps.length > 0 && (
          <ReviewItem label="Next steps">
            <BulletList items={state.next_steps} />
          </ReviewItem>
        )}
      </dl>

      <div className="flex flex-wrap gap-3">
        <Link to="/ledger" className={primaryButtonClass}>
          Access Dashboard
        </Link>
        <Link to="/kyc/dashboard" className={secondaryButtonClass}>
          Admin Panel
        </Link>
      </div>
    </div>
  );
}

/**
 * A reviewer's Request Info (docs/product/kyc.md#completion): their message, a way back to the
 * documents, and Resubmit with an optional note.
 */
function InfoRequested({
  request,
  onGoTo,
  onChanged,
}: {
  request: NonNullable<KycState["info_request"]>;
  onGoTo(step: KycStepId): void;
  onChanged(): void;
}) {
  const resubmit = useResubmit();
  const action = useActionKey();
  const [note, setNote] = useState("");
  const [failure, setFailure] = useState<string | null>(null);

  const send = async () => {
    if (resubmit.isPending) return;
    setFailure(null);
    const text = note.trim();
    try {
      await resubmit.mutateAsync({ note: text, idempotencyKey: action.keyFor({ note: text }) });
      action.settle();
      setNote("");
      showToast({ kind: "success", message: "Your submission is back with the reviewer." });
      onChanged();
    } catch (error) {
      setFailure(writeErrorMessage(error, "Failed to resubmit. Please try again."));
    }
  };

  return (
    <Notice tone="warning" title="More information needed" quiet>
      <p className="whitespace-pre-line">{request.message}</p>
      <p className="mt-2">Upload a new document if asked, then resubmit.</p>
      <form
        noValidate
        className="mt-3 space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <button type="button" className={secondaryButtonClass} onClick={() => onGoTo("documents")}>
          Upload a document
        </button>
        <div>
          <label htmlFor="kyc-resubmit-note" className={labelClass}>
            Note for the reviewer (optional)
          </label>
          <textarea
            id="kyc-resubmit-note"
            rows={3}
            maxLength={KYC_LIMITS.maxNoteLength}
            value={note}
            onChange={(event) => setNote(event.target.value)}
            className={inputClass}
          />
        </div>
        {failure && (
          <p role="alert" className="font-medium">
            {failure}
          </p>
        )}
        <button type="submit" className={primaryButtonClass} disabled={resubmit.isPending}>
          {resubmit.isPending ? <Spinner label="Resubmitting..." /> : "Resubmit"}
        </button>
      </form>
    </Notice>
  );
}
