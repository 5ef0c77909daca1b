import type { ReactNode } from "react";
import { useId } from "react";
import { Dialog } from "../components/Dialog";
import { primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { Spinner } from "./ui";

const confirmDangerClass =
  "inline-flex items-center justify-center gap-2 rounded-lg bg-red-700 px-4 py-2 text-sm font-semibold text-white shadow-sm " +
  "hover:bg-red-800 disabled:cursor-not-allowed disabled:opacity-60 dark:bg-red-400 dark:text-slate-950 dark:hover:bg-red-300";

interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /** Holds the confirm button back until the dialog's own condition is met (a reason, a typed word). */
  confirmDisabled?: boolean;
  /** "danger" for what reverses or refuses something; "primary" for a consequential yes. */
  tone?: "danger" | "primary";
}

/**
 * Asks before an action that reverses something (Unpost). Focus starts on Cancel, so Enter
 * pressed out of habit does not reverse anything; Escape and the backdrop cancel.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  busyLabel,
  busy,
  onConfirm,
  onCancel,
  confirmDisabled = false,
  tone = "danger",
}: ConfirmDialogProps) {
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog labelledBy={titleId} describedBy={textId} onClose={() => !busy && onCancel()}>
      <h2 id={titleId} className="text-lg font-bold">
        {title}
      </h2>
      <div id={textId} className="mt-2 space-y-2 text-sm text-slate-700 dark:text-slate-300">
        {children}
      </div>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <button type="button" className={secondaryButtonClass} onClick={onCancel} disabled={busy} data-autofocus>
          Cancel
        </button>
        <button
          type="button"
          className={tone === "danger" ? confirmDangerClass : primaryButtonClass}
          onClick={onConfirm}
          disabled={busy || confirmDisabled}
        >
          {busy ? <Spinner label={busyLabel} /> : confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
