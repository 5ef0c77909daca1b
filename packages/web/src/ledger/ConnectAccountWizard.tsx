import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useReducer, useRef } from "react";
import { useForm } from "react-hook-form";
import { useStepFocus } from "./useStepFocus";
import toast from "react-hot-toast";
import { FORM_CURRENCIES } from "../api/types";
import { Dialog } from "../components/Dialog";
import { inputClass, labelClass, primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { keyFor, settled, type ActionKey } from "./actionKey";
import { accountErrorMessage } from "./actionErrors";
import { CONNECT_COUNTRIES, logoSource, type BankProvider } from "./bankProvidersSeed";
import {
  accountBody,
  CONNECT_STEP_LABELS,
  connectReducer,
  initialConnectState,
  providerDetails,
  type AccountDetails,
} from "./connectWizard";
import { AUTHORISE_DELAY_MS, SUCCESS_CLOSE_DELAY_MS } from "./constants";
import { CurrencyField, DescriptionField } from "./fields";
import { accountDetailsSchema } from "./formSchemas";
import { useCreateAccount } from "./hooks";
import { SubView } from "./SubView";
import { errorTextClass, FieldError, ReviewItem, Spinner, StepList, subtleTextClass, WizardButtons } from "./ui";

interface ConnectAccountWizardProps {
  onClose: () => void;
  /** Called 1.2 s after the success step with the new account's id. */
  onConnected: (accountId: string) => void;
}

/** Connect-account wizard (docs/product/ledger-workspace.md#connect-account-wizard): creates a real ledger account. */
export function ConnectAccountWizard({ onClose, onConnected }: ConnectAccountWizardProps) {
  const [state, dispatch] = useReducer(connectReducer, initialConnectState);
  const create = useCreateAccount();
  const action = useRef<ActionKey | null>(null);
  const inFlight = useRef(false);

  // The simulated bank authorisation: after 1.5 s the details come back pre-filled.
  useEffect(() => {
    const provider = state.authorising;
    const country = state.country;
    if (!provider || !country) return;
    const timer = window.setTimeout(
      () => dispatch({ type: "authorised", details: providerDetails(provider, country) }),
      AUTHORISE_DELAY_MS,
    );
    return () => window.clearTimeout(timer);
  }, [state.authorising, state.country]);

  // Success: close and reload after 1.2 s (the latest callback, without restarting the timer).
  const connected = useRef(onConnected);
  useEffect(() => {
    connected.current = onConnected;
  }, [onConnected]);
  useEffect(() => {
    const accountId = state.createdAccountId;
    if (state.step !== 5 || !accountId) return;
    const timer = window.setTimeout(() => connected.current(accountId), SUCCESS_CLOSE_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [state.step, state.createdAccountId]);

  const submit = async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    const body = accountBody(state.details);
    action.current = keyFor(action.current, body);
    try {
      const reply = await create.mutateAsync({ body, idempotencyKey: action.current.key });
      action.current = settled(action.current);
      toast.success(`Account ${reply.data.name} connected`);
      dispatch({ type: "created", accountId: reply.data.id });
    } catch (error) {
      const message = accountErrorMessage(error);
      toast.error(message);
      dispatch({ type: "failed", message });
    } finally {
      inFlight.current = false;
    }
  };

  const stepHeading = useStepFocus<HTMLHeadingElement>(state.step);
  const stepTitle = [
    "Choose your country",
    "Choose your bank",
    "Account details",
    "Review and connect",
    "Account connected",
  ][state.step - 1]!;

  return (
    <SubView
      id="connect"
      title="Connect Account"
      description="Bank connections are simulated in this sandbox; the account is created in your ledger."
      onClose={onClose}
      closeLabel="Close connect account"
    >
      <StepList labels={CONNECT_STEP_LABELS} current={state.step} label="Connect account progress" />
      <h3
        ref={stepHeading}
        tabIndex={-1}
        className="mt-5 text-lg font-semibold text-slate-900 outline-none dark:text-white"
      >
        Step {state.step} of 5: {stepTitle}
      </h3>

      {state.step === 1 && (
        <ul className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {CONNECT_COUNTRIES.map((country) => (
            <li key={country.code}>
              <button
                type="button"
                onClick={() => dispatch({ type: "country", country })}
                className="flex w-full items-center gap-3 rounded-xl border border-slate-200 bg-white p-4 text-left hover:border-indigo-400 dark:border-slate-700 dark:bg-slate-900 dark:hover:border-indigo-500"
              >
                <span
                  aria-hidden="true"
                  className="flex h-10 w-10 items-center justify-center rounded-lg bg-slate-100 text-sm font-bold text-slate-800 dark:bg-slate-800 dark:text-slate-100"
                >
                  {country.code}
                </span>
                <span>
                  <span className="block font-semibold text-slate-900 dark:text-white">{country.name}</span>
                  <span className="block text-sm text-slate-600 dark:text-slate-400">
                    {country.providers.length} banks + manual entry
                  </span>
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}

      {state.step === 2 && state.country && (
        <div className="mt-4">
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label={`Banks in ${state.country.name}`}>
            {state.country.providers.map((provider) => (
              <li key={provider.id}>
                <button
                  type="button"
                  onClick={() => dispatch({ type: "provider", provider })}
                  className="flex w-full items-center gap-3 rounded-xl border border-slate-200 bg-white p-3 text-left hover:border-indigo-400 dark:border-slate-700 dark:bg-slate-900 dark:hover:border-indigo-500"
                >
                  <img src={logoSource(provider.logo)} alt="" width={40} height={40} className="h-10 w-10 shrink-0" />
                  <span className="font-medium text-slate-900 dark:text-white">{provider.name}</span>
                </button>
              </li>
            ))}
            <li>
              <button
                type="button"
                onClick={() => dispatch({ type: "manual" })}
                className="flex w-full items-center gap-3 rounded-xl border border-dashed border-slate-300 p-3 text-left hover:border-indigo-400 dark:border-slate-600 dark:hover:border-indigo-500"
              >
                <span
                  aria-hidden="true"
                  className="flex h-10 w-10 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-xl text-slate-700 dark:bg-slate-800 dark:text-slate-200"
                >
                  ✎
                </span>
                <span>
                  <span className="block font-medium text-slate-900 dark:text-white">Enter details manually</span>
                  <span className="block text-xs text-slate-600 dark:text-slate-400">Manual entry</span>
                </span>
              </button>
            </li>
          </ul>
          <WizardButtons onBack={() => dispatch({ type: "back" })} />
        </div>
      )}

      {state.step === 3 && (
        <DetailsForm
          details={state.details}
          provider={state.provider}
          onSubmit={(details) => dispatch({ type: "details", details })}
          onBack={() => dispatch({ type: "back" })}
        />
      )}

      {state.step === 4 && (
        <div className="mt-4">
          <dl className="grid gap-3 rounded-xl border border-slate-200 p-4 text-sm sm:grid-cols-2 dark:border-slate-700">
            <ReviewItem label="Country">{state.country?.name ?? ""}</ReviewItem>
            <ReviewItem label="Bank">{state.provider?.name ?? "Manual entry"}</ReviewItem>
            <ReviewItem label="Account name">{state.details.name}</ReviewItem>
            <ReviewItem label="Account number" mono>
              {state.details.accountNumber}
            </ReviewItem>
            <ReviewItem label="Currency">{state.details.currency}</ReviewItem>
            <ReviewItem label="Description">{state.details.description || "-"}</ReviewItem>
          </dl>
          {state.submitError && (
            <p role="alert" className={`mt-3 ${errorTextClass}`}>
              {state.submitError}
            </p>
          )}
          <WizardButtons onBack={() => dispatch({ type: "back" })} backDisabled={create.isPending}>
            <button
              type="button"
              className={primaryButtonClass}
              onClick={() => void submit()}
              disabled={create.isPending}
            >
              {create.isPending ? <Spinner label="Connecting…" /> : "Connect Account"}
            </button>
          </WizardButtons>
        </div>
      )}

      {state.step === 5 && (
        <div role="status" className="mt-6 flex flex-col items-center gap-3 py-6 text-center">
          <span
            aria-hidden="true"
            className="flex h-14 w-14 items-center justify-center rounded-full bg-emerald-100 text-2xl text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300"
          >
            ✓
          </span>
          <p className="text-lg font-semibold text-slate-900 dark:text-white">{state.details.name} is connected</p>
          <p className={subtleTextClass}>Returning to your accounts…</p>
        </div>
      )}

      {state.authorising && (
        <Dialog
          labelledBy="authorise-title"
          describedBy="authorise-text"
          onClose={() => dispatch({ type: "cancel-authorise" })}
        >
          <div className="flex flex-col items-center text-center">
            <img src={logoSource(state.authorising.logo)} alt="" width={56} height={56} className="h-14 w-14" />
            <h2 id="authorise-title" className="mt-4 text-lg font-bold">
              Authorise {state.authorising.name}
            </h2>
            <p id="authorise-text" className="mt-2 text-sm text-slate-600 dark:text-slate-300">
              Connecting securely to {state.authorising.name} and fetching your account details (simulated).
            </p>
            <p role="status" className="mt-4 text-sm font-medium text-indigo-700 dark:text-indigo-300">
              <Spinner label="Authorising…" />
            </p>
            <button
              type="button"
              className={`${secondaryButtonClass} mt-6`}
              onClick={() => dispatch({ type: "cancel-authorise" })}
            >
              Cancel
            </button>
          </div>
        </Dialog>
      )}
    </SubView>
  );
}

interface DetailsFormProps {
  details: AccountDetails;
  provider: BankProvider | null;
  onSubmit: (details: AccountDetails) => void;
  onBack: () => void;
}

/** Step 3: name, number, currency (a new account may pick any), description; the server's rules. */
function DetailsForm({ details, provider, onSubmit, onBack }: DetailsFormProps) {
  const { register, handleSubmit, formState } = useForm<AccountDetails>({
    resolver: zodResolver(accountDetailsSchema),
    defaultValues: details,
  });
  const errors = formState.errors;
  const field = (name: keyof AccountDetails, id: string) => ({
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? `${id}-error` : undefined,
  });

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate className="mt-4 space-y-4">
      {provider && (
        <p className="rounded-lg bg-emerald-50 p-3 text-sm text-emerald-900 dark:bg-emerald-950/60 dark:text-emerald-100">
          Details received from {provider.name}. Check them before you continue.
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor="connect-name" className={labelClass}>
            Account name
          </label>
          <input
            id="connect-name"
            className={inputClass}
            aria-required="true"
            autoComplete="off"
            {...field("name", "connect-name")}
            {...register("name")}
          />
          <FieldError id="connect-name-error" message={errors.name?.message} />
        </div>
        <div>
          <label htmlFor="connect-number" className={labelClass}>
            Account number
          </label>
          <input
            id="connect-number"
            className={`${inputClass} font-mono`}
            aria-required="true"
            autoComplete="off"
            spellCheck={false}
            {...field("accountNumber", "connect-number")}
            {...register("accountNumber")}
          />
          <FieldError id="connect-number-error" message={errors.accountNumber?.message} />
        </div>
        <CurrencyField
          id="connect-currency"
          registration={register("currency")}
          error={errors.currency?.message}
          options={FORM_CURRENCIES}
        />
        <DescriptionField
          id="connect-description"
          registration={register("description")}
          error={errors.description?.message}
        />
      </div>
      <WizardButtons onBack={onBack}>
        <button type="submit" className={primaryButtonClass}>
          Review
        </button>
      </WizardButtons>
    </form>
  );
}
