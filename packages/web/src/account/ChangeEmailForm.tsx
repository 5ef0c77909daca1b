import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { api } from "../api";
import type { ProfileMessage } from "../api/profile";
import { PasswordField } from "../auth/PasswordField";
import { inputClass, labelClass, primaryButtonClass } from "../components/styles";
import { writeErrorMessage } from "../ledger/actionErrors";
import { errorTextClass, FieldError, Spinner } from "../ledger/ui";
import { useSession } from "../session/hooks";
import { changeEmailFormSchema, type ChangeEmailFormInput, type ChangeEmailFormValues } from "./changeEmail";

const EMAIL_FIELD_ID = "new-email";
const PASSWORD_FIELD_ID = "current-password";

/** The signed-in user's profile, keyed by the user so two sessions never mix. */
export function useProfile() {
  const userId = useSession()?.user.id ?? "signed-out";
  return useQuery({
    queryKey: ["profile", userId],
    queryFn: () => api.profile.getProfile(),
    enabled: userId !== "signed-out",
  });
}

/**
 * A new sign-in email takes the current password, and a link sent to the new address: the
 * server's reply is the same whether or not the address is taken, and the form shows just that.
 */
export function ChangeEmailForm({ currentEmail }: { currentEmail: string }) {
  const change = useMutation({
    mutationFn: (values: ChangeEmailFormValues) => api.profile.changeEmail(values.email, values.currentPassword),
  });
  const [sent, setSent] = useState<ProfileMessage | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<ChangeEmailFormInput, unknown, ChangeEmailFormValues>({
    resolver: zodResolver(changeEmailFormSchema),
    defaultValues: { email: "", currentPassword: "" },
  });
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
              Your sign-in email stays <span className="font-mono">{currentEmail}</span> until the link is used; the
              link works for an hour.
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
