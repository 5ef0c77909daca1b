import { APPROVAL_CONFIRMATION_WORD, confirmationMatches, type ApprovalRisk } from "@fintech/core/kyc/review-model";
import { useId, useState } from "react";
import { inputClass, labelClass } from "../components/styles";
import { ConfirmDialog } from "../ledger/ConfirmDialog";
import { subtleTextClass } from "../ledger/ui";
import { NoteField } from "./ui";

/**
 * The confirmations in front of a reviewer's decisions: Approve always asks, and when the guard
 * warns (High risk, or the rules recommend rejecting) it shows why and waits for the reviewer to
 * type APPROVE, as the server will refuse the approval without that acknowledgement. Reject asks
 * for the reason the server requires.
 */

const warningBoxClass =
  "rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-950 dark:border-red-800 dark:bg-red-950/60 dark:text-red-100";

/** The guard's warnings and the typed confirmation; `typed` is the text typed so far. */
export function RiskAcknowledgement({
  warnings,
  typed,
  onTyped,
  what,
}: {
  warnings: readonly string[];
  typed: string;
  onTyped: (text: string) => void;
  what: string;
}) {
  const inputId = useId();
  const hintId = useId();
  return (
    <div className={warningBoxClass}>
      <p className="font-semibold">Risk warning: {what}</p>
      <ul aria-label="Risk warnings" className="mt-1 list-disc pl-5">
        {warnings.map((warning) => (
          <li key={warning}>{warning}</li>
        ))}
      </ul>
      <label htmlFor={inputId} className={`${labelClass} mt-3`}>
        Type {APPROVAL_CONFIRMATION_WORD} to approve anyway
      </label>
      <input
        id={inputId}
        className={inputClass}
        value={typed}
        onChange={(event) => onTyped(event.target.value)}
        autoComplete="off"
        spellCheck={false}
        aria-describedby={hintId}
      />
      <p id={hintId} className="mt-1 text-xs">
        Your acknowledgement is kept in the audit trail with these warnings.
      </p>
    </div>
  );
}

interface ApproveDialogProps {
  name: string;
  risk: ApprovalRisk | null;
  busy: boolean;
  onConfirm: (acknowledgeRisk: boolean) => void;
  onCancel: () => void;
}

export function ApproveDialog({ name, risk, busy, onConfirm, onCancel }: ApproveDialogProps) {
  const [typed, setTyped] = useState("");
  const warned = risk?.acknowledgement_required === true;
  return (
    <ConfirmDialog
      title={`Approve ${name}?`}
      confirmLabel="Approve"
      busyLabel="Approving…"
      busy={busy}
      tone={warned ? "danger" : "primary"}
      confirmDisabled={warned && !confirmationMatches(typed)}
      onConfirm={() => onConfirm(warned)}
      onCancel={onCancel}
    >
      <p>The applicant is told their identity is verified. Your name and note are kept in the audit trail.</p>
      {warned && risk && (
        <RiskAcknowledgement warnings={risk.warnings} typed={typed} onTyped={setTyped} what="this submission" />
      )}
    </ConfirmDialog>
  );
}

interface RejectDialogProps {
  name: string;
  /** The reviewer's notes so far: the reason starts from them. */
  initialReason: string;
  busy: boolean;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
}

export function RejectDialog({ name, initialReason, busy, onConfirm, onCancel }: RejectDialogProps) {
  const reasonId = useId();
  const [reason, setReason] = useState(initialReason);
  const missing = !reason.trim();
  return (
    <ConfirmDialog
      title={`Reject ${name}?`}
      confirmLabel="Reject"
      busyLabel="Rejecting…"
      busy={busy}
      confirmDisabled={missing}
      onConfirm={() => onConfirm(reason.trim())}
      onCancel={onCancel}
    >
      <p>
        The applicant is told their verification was not successful. A reason is required; it is kept in the audit trail
        with your name.
      </p>
      <NoteField
        id={reasonId}
        label="Reason for rejecting (required)"
        value={reason}
        onChange={setReason}
        dialogAutoFocus
      />
      {missing && <p className={subtleTextClass}>Write the reason to enable Reject.</p>}
    </ConfirmDialog>
  );
}
