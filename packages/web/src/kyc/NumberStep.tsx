import { useLayoutEffect, useRef, useState, type ChangeEvent } from "react";
import { IDENTITY_NUMBER_KINDS } from "@fintech/core/kyc/identity-numbers";
import { KYC_LIMITS, KYC_MESSAGES, type IdentityNumberType } from "@fintech/core/kyc/model";
import { ApiError } from "../api/errors";
import type { KycState } from "../api/kyc";
import { inputClass, labelClass, primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { errorTextClass, Spinner } from "../ledger/ui";
import { showToast } from "../toast/notify";
import { useVerifyNumber } from "./hooks";
import {
  aadhaarDisplay,
  aadhaarFieldState,
  applyDigitEdit,
  caretAfter,
  genericFieldState,
  genericNumberOf,
  panFieldState,
  panOf,
  type NumberFieldState,
} from "./identityInput";
import { KYC_TOAST_MS } from "./live/events";
import { Notice, useActionKey } from "./ui";

interface NumberCopy {
  /** The field's label. */
  label: string;
  /** The number's name on the Verify button and in "… verified". */
  name: string;
  intro: string;
  placeholder: string;
}

/**
 * The words of docs/product/kyc.md#identity-number-steps for India's two numbers; every other
 * number is described by its registry entry.
 */
const INDIAN_COPY: Partial<Record<IdentityNumberType, NumberCopy>> = {
  aadhaar: {
    label: "Aadhaar number",
    name: "Aadhaar number",
    intro: "Enter the 12-digit number on your Aadhaar card. It is checked at once; only its last four digits are kept.",
    placeholder: "XXXX XXXX XXXX",
  },
  pan: {
    label: "PAN",
    name: "PAN",
    intro: "Enter your 10-character Permanent Account Number, as printed on your PAN card (for example ABCDE1234F).",
    placeholder: "ABCDE1234F",
  },
};

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function numberCopy(type: IdentityNumberType): NumberCopy {
  const kind = IDENTITY_NUMBER_KINDS[type];
  return (
    INDIAN_COPY[type] ?? {
      label: capitalised(kind.label),
      name: kind.short,
      intro: `Enter your ${kind.label} as printed on your documents. It is checked at once; only its last four characters are kept.`,
      placeholder: kind.format,
    }
  );
}

/**
 * What a failed verification says (docs/product/kyc.md#messages): the server's own message when it
 * gave one (the documented wording for a malformed number), "Document verification failed…" when it
 * judged the number invalid, and "Verification failed. Please try again." when no answer came.
 */
export function verificationFailure(error: unknown): { title: string; message: string } {
  if (
    error instanceof ApiError &&
    (error.kind === "server-message" || error.kind === "session-expired" || error.kind === "no-token")
  )
    return { title: "Verification Failed", message: error.message };
  return { title: "Error", message: KYC_MESSAGES.genericVerificationFailed };
}

interface NumberStepProps {
  type: IdentityNumberType;
  /** Optional numbers may be skipped: the step says so. */
  required: boolean;
  state: KycState;
  /** Verified: the masked number from the reply (null if it gave none). */
  onVerified(masked: string | null): void;
}

/**
 * One identity number the country asks for: for India the Aadhaar number (hidden by default,
 * groups of 4) and the PAN (uppercased) of docs/product/kyc.md#identity-number-steps; for other countries their number,
 * typed as printed and checked by the same rules as the server's.
 */
export function NumberStep({ type, required, state, onVerified }: NumberStepProps) {
  const copy = numberCopy(type);
  const generic = type !== "aadhaar" && type !== "pan";
  const verified = state.identity_numbers[type];
  const verify = useVerifyNumber(type);
  const action = useActionKey();
  const [value, setValue] = useState("");
  const [hidden, setHidden] = useState(true);
  const [failure, setFailure] = useState<{ title: string; message: string } | null>(null);
  const [attempted, setAttempted] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const pendingCaret = useRef<number | null>(null);
  const field: NumberFieldState =
    type === "aadhaar"
      ? aadhaarFieldState(value)
      : type === "pan"
        ? panFieldState(value)
        : genericFieldState(type, value, attempted);
  const display = type === "aadhaar" ? aadhaarDisplay(value, hidden) : value;
  const id = `kyc-${type}`;

  // After an edit the field's text is rebuilt (groups, dots), so the caret is put back after the digit typed.
  useLayoutEffect(() => {
    if (pendingCaret.current === null || !inputRef.current || document.activeElement !== inputRef.current) return;
    const position = caretAfter(display, pendingCaret.current);
    pendingCaret.current = null;
    inputRef.current.setSelectionRange(position, position);
  });

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    setFailure(null);
    setAttempted(false);
    if (type === "pan") {
      setValue(panOf(event.target.value));
      return;
    }
    if (generic) {
      setValue(genericNumberOf(type, event.target.value));
      return;
    }
    const edit = applyDigitEdit(value, {
      before: display,
      after: event.target.value,
      caret: event.target.selectionEnd ?? event.target.value.length,
      inputType: (event.nativeEvent as InputEvent).inputType,
    });
    pendingCaret.current = edit.caret;
    setValue(edit.digits);
  };

  const submit = async () => {
    if (generic && !field.ready) setAttempted(true);
    if (!field.ready || verify.isPending) return;
    setFailure(null);
    const body = { type, number: value, country: state.country };
    try {
      const result = await verify.mutateAsync({
        number: value,
        country: state.country,
        idempotencyKey: action.keyFor(body),
      });
      action.settle();
      if (!result.valid) {
        setFailure({ title: "Verification Failed", message: KYC_MESSAGES.verificationFailed });
        return;
      }
      showToast({
        kind: "success",
        message: KYC_MESSAGES.documentVerified(IDENTITY_NUMBER_KINDS[type].toastName),
        durationMs: KYC_TOAST_MS.success,
      });
      setValue("");
      onVerified(result.masked ?? null);
    } catch (error) {
      setFailure(verificationFailure(error));
    }
  };

  if (verified) {
    return (
      <Notice tone="success" title={`${copy.name} verified`}>
        <span className="font-mono">{verified.masked}</span>
      </Notice>
    );
  }
  if (state.status !== "pending") {
    return (
      <Notice tone="info" title={`No ${copy.name} given`} quiet>
        Your submission is with a reviewer now, so nothing more can be added to it.
      </Notice>
    );
  }

  const describedBy = [`${id}-intro`, field.error ? `${id}-error` : `${id}-hint`].join(" ");
  return (
    <form
      noValidate
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <p id={`${id}-intro`} className="text-sm text-slate-600 dark:text-slate-300">
        {copy.intro}
        {!required && " This step is optional: Continue without it if you prefer."}
      </p>
      <div>
        <label htmlFor={id} className={labelClass}>
          {copy.label}
        </label>
        <div className="flex gap-2">
          <input
            ref={inputRef}
            id={id}
            type="text"
            inputMode={type === "aadhaar" ? "numeric" : "text"}
            autoComplete="off"
            autoCapitalize={type === "aadhaar" ? "off" : "characters"}
            spellCheck={false}
            maxLength={
              type === "pan" ? KYC_LIMITS.panLength : generic ? IDENTITY_NUMBER_KINDS[type].maxLength : undefined
            }
            placeholder={copy.placeholder}
            value={display}
            onChange={onChange}
            aria-invalid={field.error ? true : undefined}
            aria-describedby={describedBy}
            className={`${inputClass} font-mono tracking-wider`}
          />
          {type === "aadhaar" && (
            <button
              type="button"
              className={`${secondaryButtonClass} shrink-0`}
              onClick={() => setHidden((current) => !current)}
              aria-controls={id}
            >
              {hidden ? "Show" : "Hide"}
              <span className="sr-only"> Aadhaar number</span>
            </button>
          )}
        </div>
        <p id={`${id}-hint`} aria-live="polite" className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          {field.hint}
        </p>
        {field.error && (
          <p id={`${id}-error`} role="alert" className={`mt-1 ${errorTextClass}`}>
            {field.error}
          </p>
        )}
      </div>
      {failure && (
        <Notice tone="error" title={failure.title} urgent>
          {failure.message}
        </Notice>
      )}
      {(field.ready || (generic && value.trim() !== "")) && (
        <button type="submit" className={primaryButtonClass} disabled={verify.isPending}>
          {verify.isPending ? <Spinner label="Verifying..." /> : `Verify ${copy.name}`}
        </button>
      )}
    </form>
  );
}
