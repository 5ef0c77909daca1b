import { zodResolver } from "@hookform/resolvers/zod";
import { useMemo, useState } from "react";
import { useForm, type UseFormRegisterReturn } from "react-hook-form";
import { KYC_MESSAGES } from "@fintech/core/kyc/model";
import type { KycCountry } from "../api/kyc";
import { inputClass, labelClass } from "../components/styles";
import { FieldError, Spinner, subtleTextClass } from "../ledger/ui";
import type { SessionUser } from "../session/sessionUser";
import { showToast } from "../toast/notify";
import { COUNTRY_SEARCH_MAX, countriesFound, filterCountries } from "./countryList";
import { useKycCountries, useStartKyc } from "./hooks";
import {
  startDefaults,
  startFailure,
  startFormSchema,
  START_LIMITS,
  type StartFailure,
  type StartFormValues,
} from "./startForm";
import { Notice, useActionKey } from "./ui";

interface CountryStepProps {
  user: SessionUser | null;
  /** Started (or found already started): the wizard reloads the state and moves on. */
  onStarted(failure: StartFailure | null): Promise<void>;
}

function ContactField({
  id,
  label,
  type,
  autoComplete,
  registration,
  error,
  maxLength,
}: {
  id: string;
  label: string;
  type: string;
  autoComplete: string;
  registration: UseFormRegisterReturn;
  error?: string;
  maxLength: number;
}) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <input
        id={id}
        type={type}
        autoComplete={autoComplete}
        maxLength={maxLength}
        aria-required="true"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={inputClass}
        {...registration}
      />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/**
 * Step 1 (docs/product/kyc.md#country-step): who is applying (name and email from the signed-in user, a phone number)
 * and a searchable list of countries, the popular ones first; choosing a country starts KYC.
 */
export function CountryStep({ user, onStarted }: CountryStepProps) {
  const countries = useKycCountries();
  const start = useStartKyc();
  const action = useActionKey();
  const [search, setSearch] = useState("");
  const [failure, setFailure] = useState<StartFailure | null>(null);
  const [choosing, setChoosing] = useState<string | null>(null);
  const form = useForm<StartFormValues>({
    resolver: zodResolver(startFormSchema),
    defaultValues: startDefaults(user),
    mode: "onTouched",
  });
  const errors = form.formState.errors;
  const shown = useMemo(() => filterCountries(countries.data ?? [], search), [countries.data, search]);

  const choose = async (entry: KycCountry) => {
    if (choosing) return;
    setFailure(null);
    const valid = await form.trigger(undefined, { shouldFocus: true });
    if (!valid) return;
    const values = startFormSchema.parse(form.getValues());
    const input = { country: entry.countryCode, name: values.name, email: values.email, phone: values.phone };
    setChoosing(entry.countryCode);
    try {
      await start.mutateAsync({ input, idempotencyKey: action.keyFor(input) });
      action.settle();
      showToast({ kind: "success", message: KYC_MESSAGES.started(entry.country) });
      await onStarted(null);
    } catch (error) {
      const failed = startFailure(error);
      if (failed.kind === "exists") {
        action.settle();
        await onStarted(failed);
      } else {
        setFailure(failed);
      }
    } finally {
      setChoosing(null);
    }
  };

  return (
    <div className="space-y-6">
      <form
        noValidate
        onSubmit={(event) => event.preventDefault()}
        aria-labelledby="kyc-contact-title"
        className="space-y-4"
      >
        <h3 id="kyc-contact-title" className="text-base font-semibold text-slate-900 dark:text-white">
          Your details
        </h3>
        <div className="grid gap-4 sm:grid-cols-3">
          <ContactField
            id="kyc-name"
            label="Full name"
            type="text"
            autoComplete="name"
            maxLength={START_LIMITS.name}
            registration={form.register("name")}
            error={errors.name?.message}
          />
          <ContactField
            id="kyc-email"
            label="Email"
            type="email"
            autoComplete="email"
            maxLength={START_LIMITS.email}
            registration={form.register("email")}
            error={errors.email?.message}
          />
          <ContactField
            id="kyc-phone"
            label="Phone number"
            type="tel"
            autoComplete="tel"
            maxLength={START_LIMITS.phone}
            registration={form.register("phone")}
            error={errors.phone?.message}
          />
        </div>
      </form>

      <section aria-labelledby="kyc-country-title" className="space-y-3">
        <h3 id="kyc-country-title" className="text-base font-semibold text-slate-900 dark:text-white">
          Choose your country
        </h3>
        <p className={subtleTextClass}>Choosing a country starts your verification with the documents it accepts.</p>
        {failure && (
          <Notice tone="error" title={failure.title} urgent>
            {failure.message}
          </Notice>
        )}
        <div>
          <label htmlFor="kyc-country-search" className={labelClass}>
            Search countries
          </label>
          <input
            id="kyc-country-search"
            type="search"
            value={search}
            maxLength={COUNTRY_SEARCH_MAX}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Name or code, e.g. India or IN"
            aria-describedby="kyc-country-count"
            className={inputClass}
          />
          <p id="kyc-country-count" aria-live="polite" className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            {countries.isSuccess ? countriesFound(shown.length) : ""}
          </p>
        </div>

        {countries.isPending && <Spinner label="Loading countries..." className={subtleTextClass} />}
        {countries.isError && (
          <Notice tone="error" title="Loading Error" urgent>
            {KYC_MESSAGES.loadCountriesFailed}
          </Notice>
        )}
        {countries.isSuccess && shown.length === 0 && (
          <p className={subtleTextClass}>No country matches “{search.trim()}”.</p>
        )}
        {shown.length > 0 && (
          <ul
            aria-label="Countries"
            className="grid max-h-[26rem] gap-2 overflow-y-auto rounded-xl border border-slate-200 p-2 sm:grid-cols-2 dark:border-slate-800"
          >
            {shown.map((entry) => (
              <li key={entry.countryCode}>
                <button
                  type="button"
                  onClick={() => void choose(entry)}
                  disabled={choosing !== null}
                  className="flex w-full items-center gap-3 rounded-lg px-3 py-2 text-left text-sm text-slate-900 hover:bg-slate-100 disabled:cursor-wait disabled:opacity-60 dark:text-slate-100 dark:hover:bg-slate-800"
                >
                  <span aria-hidden="true" className="text-xl leading-none">
                    {entry.flag}
                  </span>
                  <span className="min-w-0 flex-1 truncate">
                    {entry.country} <span className="text-slate-600 dark:text-slate-400">({entry.countryCode})</span>
                  </span>
                  {choosing === entry.countryCode ? (
                    <Spinner label="Starting..." />
                  ) : (
                    entry.popular && (
                      <span className="shrink-0 rounded-full bg-indigo-100 px-2 py-0.5 text-xs font-semibold text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200">
                        Popular
                      </span>
                    )
                  )}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
