import { useState, type FormEvent } from "react";
import { AUTH_MESSAGES, PasswordResetRequestInput } from "@fintech/core/auth/model";
import { accountApi } from "../account/accountApi";
import { writeErrorMessage } from "../ledger/actionErrors";
import { linkButtonClass, primaryButtonClass } from "../components/styles";
import { FormError } from "./FormError";
import { TextField } from "./TextField";

/**
 * "Forgot password?": asks for a reset link. The server answers the same whatever the address,
 * and so does this form: it never says whether an account uses it.
 */
export function ForgotPasswordForm({ onBackToLogin }: { onBackToLogin: () => void }) {
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const parsed = PasswordResetRequestInput.safeParse({ email });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? AUTH_MESSAGES.invalidEmail);
      return;
    }
    setSubmitting(true);
    try {
      setSent(await accountApi.requestPasswordReset(parsed.data.email));
    } catch (caught) {
      setError(writeErrorMessage(caught, "Could not send the link; try again"));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form
      onSubmit={(event) => void submit(event)}
      noValidate
      className="space-y-4"
      aria-describedby={error ? "forgot-error" : undefined}
    >
      <FormError id="forgot-error" message={error} />
      <div role="status" aria-live="polite">
        {sent && (
          <p className="rounded-lg border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950/60 dark:text-emerald-100">
            {sent} The link works once, for 30 minutes.
          </p>
        )}
      </div>
      <TextField
        id="forgot-email"
        label="Email"
        type="email"
        autoComplete="email"
        value={email}
        onValueChange={setEmail}
        data-autofocus
      />
      <button type="submit" disabled={submitting} className={`${primaryButtonClass} w-full`}>
        {submitting ? "Sending…" : "Send reset link"}
      </button>
      <p className="text-center text-sm text-slate-600 dark:text-slate-300">
        Remembered it?{" "}
        <button type="button" className={linkButtonClass} onClick={onBackToLogin}>
          Back to sign in
        </button>
      </p>
    </form>
  );
}
