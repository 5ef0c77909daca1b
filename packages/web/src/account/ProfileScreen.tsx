import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { api } from "../api";
import type { ProfileMessage } from "../api/profile";
import { PasswordField } from "../auth/PasswordField";
import { inputClass, labelClass, primaryButtonClass } from "../components/styles";
import { writeErrorMessage } from "../ledger/actionErrors";
import { cardClass, errorTextClass, FieldError, LoadError, sectionTitleClass, Spinner, subtleTextClass } from "../ledger/ui";
import { useSession } from "../session/hooks";
import { changeEmailFormSchema, type ChangeEmailFormInput, type ChangeEmailFormValues } from "./changeEmail";

const EMAIL_FIELD_ID = "new-email";
const PASSWORD_FIELD_ID = "current-password";

/** The signed-in user's profile, keyed by the user so two sessions never mix. */
function useProfile() {
  const userId = useSession()?.user.id ?? "signed-out";
  return useQuery({ queryKey: ["profile", userId], queryFn: () => api.profile.getProfile(), enabled: userId !== "signed-out" });
}

/**
 * A new sign-in email takes the current password, and a link sent to the new address: the
 * server's reply is the same whether or not the address is taken, and the form shows just that.
 */
function ChangeEmailForm({ currentEmail }: { currentEmail: string }) {
  const change = useMutation({ mutationFn: (values: ChangeEmailFormValues) => api.profile.changeEmail(values.email, values.currentPassword) });
  const [sent, setSent] = useState<ProfileMessage | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<ChangeEmailFormInput, unknown, ChangeEmailFormValues>({ resolver: zodResolver(changeEmailFormSchema), defaultValues: { email: "", currentPassword: "" } });
  const emailError = form.formState.errors.email?.message;
  const passwordError = form.formState.errors.currentPassword?.message;

  const submit = async (values: ChangeEmailFormValues) => {
    setFailure(null);
    setSent(null);
    try {
      setSent(await change.mutateAsync(values));
      form.reset({ email: "", currentPassword: "" });
    } catch (caught) {
      setFailure(writeErrorMessage(caught, "Could not request the change; try again"));
    }
  };

  return (
    <form onSubmit={form.handleSubmit(submit)} noValidate className="mt-3 space-y-3">
      <div>
        <label htmlFor={EMAIL_FIELD_ID} className={labelClass}>
          New email
        </label>
        <input
          id={EMAIL_FIELD_ID}
          type="email"
          autoComplete="email"
          aria-required="true"
          aria-invalid={emailError ? true : undefined}
          aria-describedby={emailError ? `${EMAIL_FIELD_ID}-error` : undefined}
          className={inputClass}
          {...form.register("email")}
        />
        <FieldError id={`${EMAIL_FIELD_ID}-error`} message={emailError} />
      </div>
      <div>
        <Controller
          control={form.control}
          name="currentPassword"
          render={({ field }) => (
            <PasswordField
              id={PASSWORD_FIELD_ID}
              label="Current password"
              value={field.value}
              onValueChange={field.onChange}
              autoComplete="current-password"
              describedBy={passwordError ? `${PASSWORD_FIELD_ID}-error` : undefined}
            />
          )}
        />
        <FieldError id={`${PASSWORD_FIELD_ID}-error`} message={passwordError} />
      </div>
      <button type="submit" className={primaryButtonClass} disabled={change.isPending}>
        {change.isPending ? <Spinner label="Sending…" /> : "Send confirmation link"}
      </button>
      <div role="status" aria-live="polite">
        {sent && (
          <div className="rounded-lg border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950/60 dark:text-emerald-100">
            <p className="font-semibold">{sent.message}</p>
            <p className="mt-1">
              Your sign-in email stays <span className="font-mono">{currentEmail}</span> until the link is used; the link works for an hour.
            </p>
          </div>
        )}
      </div>
      {failure && (
        <p role="alert" className={errorTextClass}>
          {failure}
        </p>
      )}
    </form>
  );
}

/** /profile: who you are signed in as, and the safe way to change the sign-in email. */
export function ProfileScreen() {
  const profile = useProfile();
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:px-6">
      <header>
        <p className="text-sm font-semibold uppercase tracking-wide text-indigo-700 dark:text-indigo-300">Account</p>
        <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">Profile settings</h1>
      </header>
      {profile.isError ? (
        <div className="mt-6">
          <LoadError message={writeErrorMessage(profile.error, "Failed to load your profile")} onRetry={() => void profile.refetch()} />
        </div>
      ) : profile.isPending ? (
        <p className={`mt-6 ${subtleTextClass}`}>
          <Spinner label="Loading your profile…" />
        </p>
      ) : (
        <>
          <section aria-labelledby="profile-details" className={`mt-6 ${cardClass}`}>
            <h2 id="profile-details" className={sectionTitleClass}>
              Your details
            </h2>
            <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-2">
              <div>
                <dt className="font-medium text-slate-600 dark:text-slate-300">Name</dt>
                <dd className="text-slate-900 dark:text-white">
                  {profile.data.first_name} {profile.data.last_name}
                </dd>
              </div>
              <div>
                <dt className="font-medium text-slate-600 dark:text-slate-300">Sign-in email</dt>
                <dd className="break-all font-mono text-slate-900 dark:text-white">{profile.data.email}</dd>
              </div>
            </dl>
          </section>
          <section aria-labelledby="profile-change-email" className={`mt-6 ${cardClass}`}>
            <h2 id="profile-change-email" className={sectionTitleClass}>
              Change your sign-in email
            </h2>
            <p className={`mt-2 ${subtleTextClass}`}>
              We send a confirmation link to the new address; your email changes only when it is used. Your current address is told of the request.
            </p>
            <ChangeEmailForm currentEmail={profile.data.email} />
          </section>
        </>
      )}
    </div>
  );
}
