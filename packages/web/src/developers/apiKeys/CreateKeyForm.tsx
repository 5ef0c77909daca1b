import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { API_KEY_SCOPE_DESCRIPTIONS } from "@fintech/core/auth/model";
import type { CreatedApiKey } from "../../api/apiKeys";
import { inputClass, labelClass, primaryButtonClass } from "../../components/styles";
import { writeErrorMessage } from "../../ledger/actionErrors";
import { errorTextClass, FieldError, Spinner } from "../../ledger/ui";
import { useCreateApiKey } from "./hooks";
import {
  createKeyFormSchema,
  DEFAULT_FORM_SCOPES,
  scopeGroups,
  type CreateKeyFormInput,
  type CreateKeyFormValues,
} from "./view";

export const NAME_FIELD_ID = "api-key-name";
const SCOPES_ERROR_ID = "api-key-scopes-error";

const emptyForm = (): CreateKeyFormInput => ({ name: "", scopes: [...DEFAULT_FORM_SCOPES] });

/**
 * The key's name (what it is for) and its scopes (what it may do; every read scope is ticked to
 * start with). The server's refusal (e.g. 20 active keys, too many attempts) shows under the form.
 */
export function CreateKeyForm({ onCreated }: { onCreated: (created: CreatedApiKey) => void }) {
  const create = useCreateApiKey();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<CreateKeyFormInput, unknown, CreateKeyFormValues>({
    resolver: zodResolver(createKeyFormSchema),
    defaultValues: emptyForm(),
  });
  const error = form.formState.errors.name?.message;
  const scopesError = form.formState.errors.scopes?.message;

  const submit = async (values: CreateKeyFormValues) => {
    setFailure(null);
    try {
      onCreated(await create.mutateAsync({ name: values.name, scopes: values.scopes }));
      form.reset(emptyForm());
    } catch (caught) {
      setFailure(writeErrorMessage(caught, "Failed to create the API key"));
    }
  };

  return (
    <form onSubmit={form.handleSubmit(submit)} noValidate className="mt-3">
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-[12rem] flex-1">
          <label htmlFor={NAME_FIELD_ID} className={labelClass}>
            Key name
          </label>
          <input
            id={NAME_FIELD_ID}
            type="text"
            autoComplete="off"
            placeholder="e.g. Nightly reconciliation script"
            aria-required="true"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${NAME_FIELD_ID}-error` : undefined}
            className={inputClass}
            {...form.register("name", { onChange: () => setFailure(null) })}
          />
        </div>
        <button type="submit" className={primaryButtonClass} disabled={create.isPending}>
          {create.isPending ? <Spinner label="Creating…" /> : "Create key"}
        </button>
      </div>
      <FieldError id={`${NAME_FIELD_ID}-error`} message={error} />

      <fieldset className="mt-4" aria-describedby={scopesError ? SCOPES_ERROR_ID : undefined}>
        <legend className={labelClass}>Scopes: what the key may do</legend>
        <p className="text-xs text-slate-600 dark:text-slate-300">
          No key can change your sign-in email, your password or your keys, whatever its scopes.
        </p>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {scopeGroups().flatMap(([, scopes]) =>
            scopes.map((scope) => (
              <label
                key={scope}
                className="flex items-start gap-2 rounded-lg border border-slate-200 p-2 text-sm dark:border-slate-700"
              >
                <input
                  type="checkbox"
                  value={scope}
                  className="mt-0.5 h-4 w-4 accent-indigo-600 dark:accent-indigo-400"
                  {...form.register("scopes", { onChange: () => setFailure(null) })}
                />
                <span>
                  <code className="font-mono font-semibold text-slate-900 dark:text-white">{scope}</code>
                  <span className="block text-xs text-slate-600 dark:text-slate-300">
                    {API_KEY_SCOPE_DESCRIPTIONS[scope]}
                  </span>
                </span>
              </label>
            )),
          )}
        </div>
      </fieldset>
      <FieldError id={SCOPES_ERROR_ID} message={scopesError} />
      {failure && (
        <p role="alert" className={`mt-2 ${errorTextClass}`}>
          {failure}
        </p>
      )}
    </form>
  );
}
