import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useLocation } from "react-router-dom";
import { AUTH_MESSAGES, linkToken, PasswordResetInput } from "@fintech/core/auth/model";
import { useAuthModal } from "../auth/authModalContext";
import { PasswordField } from "../auth/PasswordField";
import { primaryButtonClass } from "../components/styles";
import { writeErrorMessage } from "../ledger/actionErrors";
import { cardClass, errorTextClass, Spinner, subtleTextClass } from "../ledger/ui";
import { accountApi } from "./accountApi";

/**
 * /reset-password?token=...: where the reset mail's link leads. Nothing happens on load (a mail
 * scanner that opens links cannot use one up); the new password is set by the form, and every
 * session of the account ends.
 */
export function ResetPasswordScreen() {
  const token = linkToken(useLocation().search);
  const { openAuthModal } = useAuthModal();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const reset = useMutation({
    mutationFn: (input: PasswordResetInput) => accountApi.resetPassword(input.token, input.new_password),
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const parsed = PasswordResetInput.safeParse({ token, new_password: password });
    if (!parsed.success) return setFailure(parsed.error.issues[0]?.message ?? AUTH_MESSAGES.newPasswordRequired);
    if (password !== confirm) return setFailure(AUTH_MESSAGES.passwordsDoNotMatch);
    try {
      await reset.mutateAsync(parsed.data);
    } catch (caught) {
      setFailure(writeErrorMessage(caught, AUTH_MESSAGES.passwordResetInvalid));
    }
  };

  return (
    <div className="mx-auto max-w-xl px-4 py-10 sm:px-6">
      <section aria-labelledby="reset-password-title" className={cardClass}>
        <h1 id="reset-password-title" className="text-2xl font-bold tracking-tight text-slate-900 dark:text-white">
          Choose a new password
        </h1>
        {!token ? (
          <p role="alert" className={`mt-3 ${errorTextClass}`}>
            {AUTH_MESSAGES.passwordResetInvalid}
          </p>
        ) : reset.isSuccess ? (
          <div role="status" className="mt-3 space-y-3">
            <p className="font-semibold text-emerald-800 dark:text-emerald-200">{reset.data}</p>
            <p className={subtleTextClass}>Every session of your account was signed out.</p>
            <button type="button" className={primaryButtonClass} onClick={() => openAuthModal("login")}>
              Sign in
            </button>
          </div>
        ) : (
          <form onSubmit={(event) => void submit(event)} noValidate className="mt-4 space-y-3">
            <p className={subtleTextClass}>
              At least 8 characters. Setting it signs out every session of your account.
            </p>
            <PasswordField
              id="reset-new-password"
              label="New password"
              autoComplete="new-password"
              value={password}
              onValueChange={setPassword}
            />
            <PasswordField
              id="reset-confirm-password"
              label="Confirm new password"
              autoComplete="new-password"
              value={confirm}
              onValueChange={setConfirm}
            />
            <button type="submit" className={primaryButtonClass} disabled={reset.isPending}>
              {reset.isPending ? <Spinner label="Saving…" /> : "Set new password"}
            </button>
            {failure && (
              <p role="alert" className={errorTextClass}>
                {failure}
              </p>
            )}
          </form>
        )}
      </section>
    </div>
  );
}
