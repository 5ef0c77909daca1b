import { useId, useState, type ReactNode } from "react";
import { inputClass, labelClass } from "../components/styles";
import { ConfirmDialog } from "../ledger/ConfirmDialog";
import { errorTextClass } from "../ledger/ui";

/** The most a reason may hold (the server's limit). */
export const REASON_MAX = 500;

export type Decision = "approve" | "reject";

/**
 * An administrator's approve or reject of something that waits for a second person (a held or
 * awaiting payment, a deposit above the threshold): it says what it acts on and asks for the
 * reason the audit trail keeps; the confirm button stays off until there is one.
 */
export function DecisionDialog({
  decision,
  subject,
  children,
  busy,
  error,
  onConfirm,
  onCancel,
}: {
  decision: Decision;
  /** What is decided, e.g. "payment of $250.00 to Kim Jong Un". */
  subject: string;
  children?: ReactNode;
  busy: boolean;
  error: string | null;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
}) {
  const [reason, setReason] = useState("");
  const reasonId = useId();
  const trimmed = reason.trim();
  const approve = decision === "approve";
  return (
    <ConfirmDialog
      title={`${approve ? "Approve" : "Reject"} this ${subject}?`}
      confirmLabel={approve ? "Approve" : "Reject"}
      busyLabel={approve ? "Approving…" : "Rejecting…"}
      busy={busy}
      tone={approve ? "primary" : "danger"}
      confirmDisabled={trimmed.length === 0}
      onConfirm={() => onConfirm(trimmed)}
      onCancel={onCancel}
    >
      {children}
      <div>
        <label htmlFor={reasonId} className={labelClass}>
          Reason (kept in the audit trail)
        </label>
        <textarea
          id={reasonId}
          className={inputClass}
          rows={3}
          maxLength={REASON_MAX}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          required
        />
      </div>
      {error && (
        <p role="alert" className={errorTextClass}>
          {error}
        </p>
      )}
    </ConfirmDialog>
  );
}
