import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useId, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import type { EventTypeInfo } from "../../api/webhooks";
import { inputClass, labelClass, primaryButtonClass, secondaryButtonClass } from "../../components/styles";
import { writeErrorMessage } from "../../ledger/actionErrors";
import { errorTextClass, FieldError, Spinner } from "../../ledger/ui";
import {
  endpointFormSchema,
  feedTickState,
  groupEventTypes,
  toggleFeed,
  urlFieldError,
  type EndpointFormInput,
  type EndpointFormValues,
  type FeedGroup,
} from "./view";

const checkboxClass = "mt-0.5 h-4 w-4 shrink-0 accent-indigo-600 dark:accent-indigo-400";

/** "All Ledger events": ticks or clears the feed's types; shows a dash while only some are ticked. */
function FeedToggle({
  group,
  selected,
  onChange,
}: {
  group: FeedGroup;
  selected: readonly string[];
  onChange: (next: string[]) => void;
}) {
  const ref = useRef<HTMLInputElement>(null);
  const state = feedTickState(selected, group);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = state === "some";
  }, [state]);
  return (
    <label className="flex items-center gap-2 text-sm font-semibold text-slate-900 dark:text-white">
      <input
        ref={ref}
        type="checkbox"
        className={checkboxClass}
        checked={state === "all"}
        onChange={() => onChange(toggleFeed(selected, group))}
      />
      All {group.label} events
    </label>
  );
}

/**
 * An endpoint's URL, description, event types (by feed, each feed with its "all" box) and whether
 * it is on: the add form and the edit form. A refused URL (not https, a private address, a name
 * that does not resolve) is shown at the URL field in the server's words.
 */
export function EndpointForm({
  idPrefix,
  catalogue,
  defaultValues,
  submitLabel,
  busyLabel,
  onSubmit,
  onCancel,
}: {
  idPrefix: string;
  catalogue: readonly EventTypeInfo[];
  defaultValues: EndpointFormInput;
  submitLabel: string;
  busyLabel: string;
  /** Rejects with the API's error to show it; resolves when done. */
  onSubmit: (values: EndpointFormValues) => Promise<void>;
  onCancel?: () => void;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const [urlFailure, setUrlFailure] = useState<string | null>(null);
  const form = useForm<EndpointFormInput, unknown, EndpointFormValues>({
    resolver: zodResolver(endpointFormSchema),
    defaultValues,
  });
  const typesErrorId = useId();
  const urlId = `${idPrefix}-url`;
  const descriptionId = `${idPrefix}-description`;
  const urlError = form.formState.errors.url?.message ?? urlFailure;
  const descriptionError = form.formState.errors.description?.message;
  const typesError = form.formState.errors.event_types?.message;
  const selected = form.watch("event_types") ?? [];
  const groups = groupEventTypes(catalogue);
  const clearFailures = () => {
    setFailure(null);
    setUrlFailure(null);
  };

  const submit = async (values: EndpointFormValues) => {
    clearFailures();
    try {
      await onSubmit(values);
    } catch (caught) {
      const atUrl = urlFieldError(caught);
      if (atUrl) {
        setUrlFailure(atUrl);
        form.setFocus("url");
      } else setFailure(writeErrorMessage(caught, "The endpoint could not be saved"));
    }
  };

  return (
    <form onSubmit={form.handleSubmit(submit)} noValidate className="mt-3 space-y-4">
      <div className="grid gap-4 md:grid-cols-2">
        <div>
          <label htmlFor={urlId} className={labelClass}>
            Endpoint URL
          </label>
          <input
            id={urlId}
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://example.com/webhooks"
            aria-required="true"
            aria-invalid={urlError ? true : undefined}
            aria-describedby={urlError ? `${urlId}-error` : undefined}
            className={`${inputClass} font-mono`}
            {...form.register("url", { onChange: clearFailures })}
          />
          <FieldError id={`${urlId}-error`} message={urlError} />
        </div>
        <div>
          <label htmlFor={descriptionId} className={labelClass}>
            Description <span className="font-normal text-slate-600 dark:text-slate-300">(optional)</span>
          </label>
          <input
            id={descriptionId}
            type="text"
            autoComplete="off"
            placeholder="e.g. Order service, production"
            aria-invalid={descriptionError ? true : undefined}
            aria-describedby={descriptionError ? `${descriptionId}-error` : undefined}
            className={inputClass}
            {...form.register("description", { onChange: clearFailures })}
          />
          <FieldError id={`${descriptionId}-error`} message={descriptionError} />
        </div>
      </div>

      <fieldset aria-describedby={typesError ? typesErrorId : undefined}>
        <legend className={labelClass}>Event types to send</legend>
        <div className="mt-1 grid gap-3 lg:grid-cols-3">
          {groups.map((group) => (
            <fieldset
              key={group.feed}
              className="min-w-0 rounded-lg border border-slate-200 p-3 dark:border-slate-700"
              aria-label={`${group.label} events`}
            >
              <FeedToggle
                group={group}
                selected={selected}
                onChange={(next) => {
                  clearFailures();
                  form.setValue("event_types", next as EndpointFormInput["event_types"], {
                    shouldValidate: form.formState.isSubmitted,
                    shouldDirty: true,
                  });
                }}
              />
              <div className="mt-2 space-y-1.5 border-t border-slate-200 pt-2 dark:border-slate-700">
                {group.types.map((info) => (
                  <label key={info.type} className="flex items-start gap-2 text-sm">
                    <input
                      type="checkbox"
                      value={info.type}
                      className={checkboxClass}
                      {...form.register("event_types", { onChange: clearFailures })}
                    />
                    <span className="min-w-0">
                      <code className="break-all font-mono text-xs font-semibold text-slate-900 dark:text-white">
                        {info.type}
                      </code>
                      {info.description && (
                        <span className="block text-xs text-slate-600 dark:text-slate-300">{info.description}</span>
                      )}
                    </span>
                  </label>
                ))}
              </div>
            </fieldset>
          ))}
        </div>
        <FieldError id={typesErrorId} message={typesError} />
      </fieldset>

      <label className="flex items-center gap-2 text-sm font-medium text-slate-800 dark:text-slate-100">
        <input type="checkbox" className={checkboxClass} {...form.register("enabled", { onChange: clearFailures })} />
        Enabled: deliver events to this endpoint
      </label>

      {failure && (
        <p role="alert" className={errorTextClass}>
          {failure}
        </p>
      )}
      <div className="flex flex-wrap gap-3">
        <button type="submit" className={primaryButtonClass} disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? <Spinner label={busyLabel} /> : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className={secondaryButtonClass} onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
