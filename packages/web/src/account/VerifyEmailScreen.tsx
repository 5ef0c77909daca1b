import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link, useLocation } from "react-router-dom";
import { AUTH_MESSAGES, linkToken } from "@fintech/core/auth/model";
import { primaryButtonClass } from "../components/styles";
import { writeErrorMessage } from "../ledger/actionErrors";
import { cardClass, errorTextClass, Spinner, subtleTextClass } from "../ledger/ui";
import { accountApi } from "./accountApi";

/**
 * /verify-email?token=...: where the sign-up mail's link leads. Verified by the button, never on
 * load, as the other link pages. No sign-in needed: the link's token is the proof.
 */
export function VerifyEmailScreen() {
  const token = linkToken(useLocation().search);
  const client = useQueryClient();
  const verify = useMutation({
    mutationFn: (value: string) => accountApi.verifyEmail(value),
    onSuccess: ({ user }) => client.setQueryData(["profile", user.id], user),
  });

  return (
    <div className="mx-auto max-w-xl px-4 py-10 sm:px-6">
      <section aria-labelledby="verify-email-title" className={cardClass}>
        <h1 id="verify-email-title" className="text-2xl font-bold tracking-tight text-slate-900 dark:text-white">
          Verify your email address
        </h1>
        {!token ? (
          <p role="alert" className={`mt-3 ${errorTextClass}`}>
            {AUTH_MESSAGES.emailVerificationInvalid}
          </p>
        ) : verify.isSuccess ? (
          <div role="status" className="mt-3 space-y-2">
            <p className="font-semibold text-emerald-800 dark:text-emerald-200">{verify.data.message}</p>
            <p className={subtleTextClass}>
              Others can now pay you by email at <span className="break-all font-mono">{verify.data.user.email}</span>.
            </p>
            <Link
              to="/settings"
              className="inline-block text-sm font-semibold text-indigo-700 underline dark:text-indigo-300"
            >
              Go to account settings
            </Link>
          </div>
        ) : (
          <>
            <p className={`mt-3 ${subtleTextClass}`}>
              Confirm that this address is yours, so others can pay you by email.
            </p>
            <button
              type="button"
              className={`mt-4 ${primaryButtonClass}`}
              disabled={verify.isPending}
              onClick={() => verify.mutate(token)}
            >
              {verify.isPending ? <Spinner label="Verifying…" /> : "Verify email"}
            </button>
            {verify.isError && (
              <p role="alert" className={`mt-3 ${errorTextClass}`}>
                {writeErrorMessage(verify.error, AUTH_MESSAGES.emailVerificationInvalid)}
              </p>
            )}
          </>
        )}
      </section>
    </div>
  );
}
