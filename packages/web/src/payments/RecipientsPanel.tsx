import { useState, type FormEvent } from "react";
import { RECIPIENT_MESSAGES, RenameRecipientInput, type Recipient } from "@fintech/core/payments/model";
import { inputClass, secondaryButtonClass } from "../components/styles";
import {
  cardClass,
  dangerButtonClass,
  errorTextClass,
  FieldError,
  sectionTitleClass,
  Spinner,
  subtleTextClass,
} from "../ledger/ui";
import { useRecipientChanges, useRecipients } from "./sendHooks";
import { recipientSummary, sendProblem } from "./sendMoney";

/**
 * The caller's saved recipients beside the Send money form: use one (fills the payee), rename it
 * (a new label, checked with the API's schema) or delete it (asked twice: it cannot be undone).
 */
export function RecipientsPanel({ onUse }: { onUse: (recipient: Recipient) => void }) {
  const recipients = useRecipients();
  const [message, setMessage] = useState<{ tone: "error" | "info"; text: string } | null>(null);
  return (
    <section aria-labelledby="recipients-heading" className={`${cardClass} space-y-3`}>
      <h2 id="recipients-heading" className={sectionTitleClass}>
        Saved recipients
      </h2>
      <div role="status" aria-live="polite">
        {message && (
          <p className={message.tone === "error" ? errorTextClass : "text-sm text-slate-700 dark:text-slate-200"}>
            {message.text}
          </p>
        )}
      </div>
      {recipients.isPending ? (
        <Spinner label="Loading your recipients…" />
      ) : recipients.isError ? (
        <p className={errorTextClass}>
          Your recipients could not be loaded: {sendProblem(recipients.error, "please try again").message}
        </p>
      ) : recipients.data.length === 0 ? (
        <p className={subtleTextClass}>
          None yet. Tick “Save this recipient” when you send a payment to pay them again in one click.
        </p>
      ) : (
        <ul className="divide-y divide-slate-200 dark:divide-slate-800" aria-label="Your saved recipients">
          {recipients.data.map((recipient) => (
            <RecipientRow key={recipient.recipientId} recipient={recipient} onUse={onUse} onMessage={setMessage} />
          ))}
        </ul>
      )}
    </section>
  );
}

function RecipientRow({
  recipient,
  onUse,
  onMessage,
}: {
  recipient: Recipient;
  onUse: (recipient: Recipient) => void;
  onMessage: (message: { tone: "error" | "info"; text: string }) => void;
}) {
  const { rename, remove } = useRecipientChanges();
  const [mode, setMode] = useState<"view" | "rename" | "delete">("view");
  const [label, setLabel] = useState(recipient.label);
  const [error, setError] = useState<string | null>(null);
  const inputId = `recipient-label-${recipient.recipientId}`;

  const saveLabel = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = RenameRecipientInput.safeParse({ label });
    if (!parsed.success) {
      setError(RECIPIENT_MESSAGES.label);
      return;
    }
    try {
      await rename.mutateAsync({ recipientId: recipient.recipientId, label: parsed.data.label });
      onMessage({ tone: "info", text: `Renamed to ${parsed.data.label}.` });
      setMode("view");
    } catch (caught) {
      setError(sendProblem(caught, "The recipient was not renamed").message);
    }
  };

  const confirmDelete = async () => {
    try {
      await remove.mutateAsync(recipient.recipientId);
      onMessage({ tone: "info", text: `${recipient.label} was deleted from your recipients.` });
    } catch (caught) {
      onMessage({ tone: "error", text: sendProblem(caught, "The recipient was not deleted").message });
      setMode("view");
    }
  };

  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3" data-recipient={recipient.label}>
      {mode === "rename" ? (
        <form onSubmit={saveLabel} className="flex w-full flex-wrap items-start gap-2" noValidate>
          <div className="min-w-0 flex-1">
            <label htmlFor={inputId} className="sr-only">
              New name for {recipient.label}
            </label>
            <input
              id={inputId}
              className={inputClass}
              value={label}
              onChange={(event) => setLabel(event.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${inputId}-error` : undefined}
            />
            <FieldError id={`${inputId}-error`} message={error} />
          </div>
          <button type="submit" className={secondaryButtonClass} disabled={rename.isPending}>
            Save name
          </button>
          <button type="button" className={secondaryButtonClass} onClick={() => setMode("view")}>
            Cancel
          </button>
        </form>
      ) : (
        <>
          <div className="min-w-0">
            <p className="break-words font-medium text-slate-900 dark:text-white">{recipient.label}</p>
            <p className={`break-words ${subtleTextClass}`}>{recipientSummary(recipient)}</p>
          </div>
          {mode === "delete" ? (
            <div className="flex flex-wrap items-center gap-2">
              <span className="text-sm text-slate-700 dark:text-slate-200">Delete {recipient.label}?</span>
              <button
                type="button"
                className={dangerButtonClass}
                onClick={() => void confirmDelete()}
                disabled={remove.isPending}
              >
                Yes, delete
              </button>
              <button type="button" className={secondaryButtonClass} onClick={() => setMode("view")}>
                Keep
              </button>
            </div>
          ) : (
            <div className="flex flex-wrap gap-2">
              <button
                type="button"
                className={secondaryButtonClass}
                onClick={() => onUse(recipient)}
                aria-label={`Pay ${recipient.label}`}
              >
                Pay
              </button>
              <button
                type="button"
                className={secondaryButtonClass}
                onClick={() => {
                  setLabel(recipient.label);
                  setError(null);
                  setMode("rename");
                }}
                aria-label={`Rename ${recipient.label}`}
              >
                Rename
              </button>
              <button
                type="button"
                className={secondaryButtonClass}
                onClick={() => setMode("delete")}
                aria-label={`Delete ${recipient.label}`}
              >
                Delete
              </button>
            </div>
          )}
        </>
      )}
    </li>
  );
}
