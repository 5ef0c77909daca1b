import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { CreatedApiKey } from "../../api/apiKeys";
import { inputClass, labelClass, primaryButtonClass } from "../../components/styles";
import { writeErrorMessage } from "../../ledger/actionErrors";
import { errorTextClass, FieldError, Spinner } from "../../ledger/ui";
import { useCreateApiKey } from "./hooks";
import { createKeyFormSchema, type CreateKeyFormInput, type CreateKeyFormValues } from "./view";

export const NAME_FIELD_ID = "api-key-name";

/** The key's name (what it is for); the server's refusal (e.g. 20 active keys) shows under the form. */
export function CreateKeyForm({ onCreated }: { onCreated: (created: CreatedApiKey) => void }) {
  const create = useCreateApiKey();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<CreateKeyFormInput, unknown, CreateKeyFormValues>({ resolver: zodResolver(createKeyFormSchema), defaultValues: { name: "" } });
  const error = form.formState.errors.name?.message;

  const submit = async (values: CreateKeyFormValues) => {
    setFailure(null);
    try {
      onCreated(await create.mutateAsync(values.name));
      form.reset({ name: "" });
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
      {failure && (
        <p role="alert" className={`mt-2 ${errorTextClass}`}>
          {failure}
        </p>
      )}
    </form>
  );
}
