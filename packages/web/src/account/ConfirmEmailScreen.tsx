import { useMutation } from "@tanstack/react-query";
import { Link, useLocation } from "react-router-dom";
import { AUTH_MESSAGES } from "@fintech/core/auth/model";
import { api } from "../api";
import { primaryButtonClass } from "../components/styles";
import { writeErrorMessage } from "../ledger/actionErrors";
import { cardClass, errorTextClass, Spinner, subtleTextClass } from "../ledger/ui";
import { confirmationToken } from "./changeEmail";

/**
 * /confirm-email?token=...: where the confirmation mail's link leads. The change is made by the
 * button, never on load, so a mail scanner that opens links cannot use the link up. No sign-in is
 * needed: the link's token is the proof.
 */
export function ConfirmEmailScreen() {
  const token = confirmationToken(useLocation().search);
  const confirm = useMutation({ mutationFn: (value: string) => api.profile.confirmEmail(value) });

  return (
    <div className="mx-auto max-w-xl px-4 py-10 sm:px-6">
      <section aria-labelledby="confirm-email-title" className={cardClass}>
        <h1 id="confirm-email-title" className="text-2xl font-bold tracking-tight text-slate-900 dark:text-white">
          Confirm your new sign-in email
        </h1>
        {!token ? (
          <p role="alert" className={`mt-3 ${errorTextClass}`}>
            {AUTH_MESSAGES.emailConfirmationInvalid}
          </p>
        ) : confirm.isSuccess ? (
          <div role="status" className="mt-3 space-y-2">
            <p className="font-semibold text-emerald-800 dark:text-emerald-200">{confirm.data.message}</p>
            <p className={subtleTextClass}>
              From now on you sign in with <span className="break-all font-mono">{confirm.data.user.email}</span>.
            </p>
            <Link to="/" className="inline-block text-sm font-semibold text-indigo-700 underline dark:text-indigo-300">
              Go to the home page
            </Link>
          </div>
        ) : (
          <>
            <p className={`mt-3 ${subtleTextClass}`}>
              Confirm to make this address the one you sign in with. Your password stays the same.
            </p>
            <button
              type="button"
              className={`mt-4 ${primaryButtonClass}`}
              disabled={confirm.isPending}
              onClick={() => confirm.mutate(token)}
            >
              {confirm.isPending ? <Spinner label="Confirming…" /> : "Confirm email change"}
            </button>
            {confirm.isError && (
              <p role="alert" className={`mt-3 ${errorTextClass}`}>
                {writeErrorMessage(confirm.error, AUTH_MESSAGES.emailConfirmationInvalid)}
              </p>
            )}
          </>
        )}
      </section>
    </div>
  );
}
