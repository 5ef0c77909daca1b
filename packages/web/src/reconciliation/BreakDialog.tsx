import { MAX_NOTE_LENGTH, MAX_REFERENCE_LENGTH, type ReconciliationBreak } from "@fintech/core/reconciliation/model";
import { useId, useState, type FormEvent } from "react";
import { errorMessage } from "../api/errors";
import { Dialog } from "../components/Dialog";
import { inputClass, labelClass, primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { errorTextClass, subtleTextClass } from "../ledger/ui";
import { notify } from "../toast/notify";
import { RECON_SCREEN_MESSAGES } from "./format";
import { useBreakAction } from "./hooks";

type ResolveChoice = "match" | "write_off";

/**
 * Resolving a break: match it by hand to a settled payment attempt (its reference), or write it
 * off to the expense account; both need a note, which the audit trail keeps. A resolved break
 * can be reopened, with a note too. One idempotency key per open dialog, so a retried click
 * after a lost reply acts once.
 */
export function BreakDialog({ entry, onClose }: { entry: ReconciliationBreak; onClose: () => void }) {
  const titleId = useId();
  const describedId = useId();
  const reopening = entry.status === "resolved";
  const canMatch = entry.class !== "missing_file" && entry.fileAmount !== null;
  const [choice, setChoice] = useState<ResolveChoice>(canMatch ? "match" : "write_off");
  const [reference, setReference] = useState(entry.reference ?? "");
  const [note, setNote] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const action = useBreakAction();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = note.trim();
    if (!trimmed) return setProblem(RECON_SCREEN_MESSAGES.noteRequired);
    if (!reopening && choice === "match" && !reference.trim())
      return setProblem(RECON_SCREEN_MESSAGES.referenceRequired);
    setProblem(null);
    try {
      if (reopening) {
        await action.mutateAsync({ kind: "reopen", id: entry.id, input: { note: trimmed }, idempotencyKey });
        notify.success("Break reopened");
      } else {
        await action.mutateAsync({
          kind: "resolve",
          id: entry.id,
          input:
            choice === "match"
              ? { action: "match", reference: reference.trim(), note: trimmed }
              : { action: "write_off", note: trimmed },
          idempotencyKey,
        });
        notify.success(choice === "match" ? "Break matched" : "Break written off");
      }
      onClose();
    } catch (caught) {
      setProblem(errorMessage(caught, reopening ? "Failed to reopen the break" : "Failed to resolve the break"));
    }
  };

  return (
    <Dialog labelledBy={titleId} describedBy={describedId} onClose={onClose}>
      <h2 id={titleId} className="text-lg font-semibold text-slate-900 dark:text-white">
        {reopening ? "Reopen break" : "Resolve break"}
      </h2>
      <p id={describedId} className={`mt-1 ${subtleTextClass}`}>
        {entry.classLabel} on {entry.rail}, {entry.date}
        {entry.reference ? `, reference ${entry.reference}` : ""}.
        {reopening
          ? " Reopening puts the break back among the open ones; its history keeps the resolution."
          : " Matching ties it to a settled payment attempt by reference; writing off books the amount to an expense account."}
      </p>
      <form className="mt-4 space-y-4" onSubmit={(event) => void onSubmit(event)} noValidate>
        {!reopening && (
          <fieldset>
            <legend className={labelClass}>Resolution</legend>
            <div className="flex flex-wrap gap-4">
              <label className="flex items-center gap-2 text-sm text-slate-800 dark:text-slate-100">
                <input
                  type="radio"
                  name="resolution"
                  value="match"
                  checked={choice === "match"}
                  disabled={!canMatch}
                  onChange={() => setChoice("match")}
                  data-autofocus={canMatch ? true : undefined}
                />
                Match by reference
              </label>
              <label className="flex items-center gap-2 text-sm text-slate-800 dark:text-slate-100">
                <input
                  type="radio"
                  name="resolution"
                  value="write_off"
                  checked={choice === "write_off"}
                  onChange={() => setChoice("write_off")}
                  data-autofocus={canMatch ? undefined : true}
                />
                Write off
              </label>
            </div>
          </fieldset>
        )}
        {!reopening && choice === "match" && (
          <div>
            <label htmlFor={`${titleId}-reference`} className={labelClass}>
              Payment reference
            </label>
            <input
              id={`${titleId}-reference`}
              className={inputClass}
              value={reference}
              maxLength={MAX_REFERENCE_LENGTH}
              autoComplete="off"
              onChange={(event) => setReference(event.target.value)}
            />
          </div>
        )}
        <div>
          <label htmlFor={`${titleId}-note`} className={labelClass}>
            Note (required)
          </label>
          <textarea
            id={`${titleId}-note`}
            className={inputClass}
            rows={3}
            value={note}
            maxLength={MAX_NOTE_LENGTH}
            required
            aria-invalid={problem === RECON_SCREEN_MESSAGES.noteRequired ? true : undefined}
            data-autofocus={reopening ? true : undefined}
            onChange={(event) => setNote(event.target.value)}
          />
        </div>
        {problem && (
          <p role="alert" className={errorTextClass}>
            {problem}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <button type="button" className={secondaryButtonClass} onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className={primaryButtonClass} disabled={action.isPending}>
            {reopening ? "Reopen" : choice === "match" ? "Match" : "Write off"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
