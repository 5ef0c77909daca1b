import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { cardClass, LoadError, Spinner, subtleTextClass } from "../ledger/ui";
import { useSession } from "../session/hooks";
import { CompletionStep } from "./CompletionStep";
import { CountryStep } from "./CountryStep";
import { findCountryEntry } from "./countryList";
import { DocumentStep } from "./DocumentStep";
import {
  REST_REFRESH_MS,
  useKycCountries,
  useKycLiveFeed,
  useKycState,
  useRecordVerifiedNumber,
  useRefreshKyc,
} from "./hooks";
import type { EventEffect } from "./live/events";
import { NumberStep } from "./NumberStep";
import type { StartFailure } from "./startForm";
import {
  canContinue,
  decidedSince,
  hasStepButtons,
  indexOf,
  numbersOf,
  resumeStep,
  stepAt,
  stepProgress,
  stepsDone,
  stepsFor,
  type KycStep,
  type KycStepId,
} from "./steps";
import { Notice, ProgressBar } from "./ui";

/** Grid columns by step count (written out in full, so Tailwind keeps them). */
const OVERVIEW_COLUMNS: Record<number, string> = {
  3: "sm:grid-cols-3",
  4: "sm:grid-cols-4",
  5: "sm:grid-cols-5",
  6: "sm:grid-cols-6",
};

/** The country's steps with their time estimates; the current one carries aria-current="step". */
function StepOverview({
  steps,
  current,
  done,
}: {
  steps: readonly KycStep[];
  current: number;
  done: readonly boolean[];
}) {
  return (
    <ol
      aria-label="Verification steps"
      className={`grid gap-1.5 sm:gap-2 ${OVERVIEW_COLUMNS[steps.length] ?? "sm:grid-cols-6"}`}
    >
      {steps.map((step, index) => {
        const state = index === current ? "current" : done[index] ? "done" : "todo";
        return (
          <li
            key={step.id}
            aria-current={state === "current" ? "step" : undefined}
            className={`flex items-center gap-3 rounded-xl border px-3 py-1.5 sm:flex-col sm:items-start sm:gap-1 sm:py-2 ${
              state === "current"
                ? "border-indigo-600 bg-indigo-50 dark:border-indigo-400 dark:bg-indigo-950/60"
                : "border-slate-200 dark:border-slate-800"
            }`}
          >
            <span
              className={`flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold ${
                state === "done"
                  ? "bg-emerald-600 text-white dark:bg-emerald-400 dark:text-slate-950"
                  : state === "current"
                    ? "bg-indigo-600 text-white dark:bg-indigo-400 dark:text-slate-950"
                    : "bg-slate-200 text-slate-700 dark:bg-slate-800 dark:text-slate-300"
              }`}
            >
              {state === "done" ? "✓" : index + 1}
            </span>
            <span className="min-w-0 flex-1 text-sm font-medium text-slate-900 dark:text-slate-100">
              {step.title}
              {state === "done" && <span className="sr-only"> (completed)</span>}
            </span>
            <span className="shrink-0 text-xs text-slate-600 dark:text-slate-400">{step.estimate}</span>
          </li>
        );
      })}
    </ol>
  );
}

const STEP_COUNT_WORDS: Record<number, string> = { 3: "three", 4: "four", 5: "five", 6: "six" };

/**
 * The KYC wizard (docs/product/kyc.md#wizard): the chosen country's steps (steps.ts), resumed where the
 * applicant left off; the state follows the KYC stream while it is connected and is polled over
 * REST otherwise. The current step is kept by id, so it stays put when the country's steps replace
 * the three shown before a country is chosen.
 */
export function KycWizard() {
  const user = useSession()?.user ?? null;
  const [step, setStep] = useState<KycStepId | null>(null);
  const [notice, setNotice] = useState<StartFailure | null>(null);
  const [manualReview, setManualReview] = useState(false);
  const onEffect = useCallback((effect: EventEffect) => {
    if (effect.jumpToCompletion) setStep("completion");
    if (effect.manualReview) setManualReview(true);
  }, []);
  const live = useKycLiveFeed(onEffect);
  const state = useKycState(live === "live");
  const countries = useKycCountries();
  const refresh = useRefreshKyc();
  const recordVerified = useRecordVerifiedNumber();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const shownStep = useRef<KycStepId | null>(null);
  const data = state.data ?? null;
  const country = findCountryEntry(countries.data, data?.country);
  const steps = stepsFor(numbersOf(data));

  // Keyboard and screen-reader users land on each new step's heading; not on the first one shown
  // when the page opens, where focus stays at the top of the page.
  useEffect(() => {
    if (step === null) return;
    if (shownStep.current !== null && shownStep.current !== step) headingRef.current?.focus();
    shownStep.current = step;
  }, [step]);

  // A returning applicant resumes where they left off, once their state is known.
  useEffect(() => {
    if (step === null && state.isSuccess) setStep(resumeStep(state.data, stepsFor(numbersOf(state.data))));
  }, [step, state.isSuccess, state.data]);

  // Without the stream a reviewer's decision arrives by polling: it moves to the outcome as the stream would.
  const status = state.data?.status;
  const seenStatus = useRef(status);
  useEffect(() => {
    if (decidedSince(seenStatus.current, status)) setStep("completion");
    seenStatus.current = status;
  }, [status]);

  const goTo = (next: KycStepId) => {
    setNotice(null);
    setStep(next);
  };
  const goBy = (offset: number) => goTo(stepAt(steps, indexOf(steps, current.id) + offset).id);

  const onStarted = async (failure: StartFailure | null) => {
    const reloaded = await state.refetch();
    const loaded = reloaded.data ?? null;
    const started = stepsFor(numbersOf(loaded));
    setNotice(failure);
    // A fresh start opens the step after the country: the first optional number or the document.
    setStep(failure ? resumeStep(loaded, started) : started[1]!.id);
  };

  const current = stepAt(steps, indexOf(steps, step ?? "country"));
  const progress = stepProgress(steps, current.id, data);

  let body: ReactNode;
  if (state.isPending || step === null) {
    body = state.isError ? (
      <LoadError message="Failed to load your verification status." onRetry={() => void state.refetch()} />
    ) : (
      <Spinner label="Loading your verification..." className={subtleTextClass} />
    );
  } else if (current.id === "country" || data === null) {
    body = <CountryStep user={user} onStarted={onStarted} />;
  } else if (current.id === "documents") {
    body = (
      <DocumentStep
        documentTypes={data.document_types ?? country?.documentTypes ?? ["passport"]}
        state={data}
        onUploaded={() => void refresh()}
      />
    );
  } else if (current.number) {
    const { type, required } = current.number;
    body = (
      <NumberStep
        key={type}
        type={type}
        required={required}
        state={data}
        onVerified={(masked) => (masked ? recordVerified(type, masked) : void refresh())}
      />
    );
  } else {
    body = (
      <CompletionStep
        state={data}
        steps={steps}
        manualReview={manualReview}
        onGoTo={goTo}
        onChanged={() => void refresh()}
      />
    );
  }

  const stepCount = data === null ? null : (STEP_COUNT_WORDS[steps.length] ?? String(steps.length));
  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <p className="text-sm font-semibold uppercase tracking-wide text-indigo-700 dark:text-indigo-300">
            Identity verification
          </p>
          <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 dark:text-white">Know Your Customer</h1>
          <p className={`mt-2 ${subtleTextClass}`}>
            {stepCount
              ? `Verify your identity in ${stepCount} short steps.`
              : "Verify your identity in a few short steps: your country decides which."}{" "}
            Your progress is saved as you go.
          </p>
        </div>
        <p
          role="status"
          aria-live="polite"
          className="inline-flex items-center gap-2 rounded-full border border-slate-200 px-3 py-1.5 text-sm text-slate-700 dark:border-slate-800 dark:text-slate-200"
        >
          <span
            aria-hidden="true"
            className={`h-2 w-2 rounded-full ${live === "live" ? "bg-emerald-500" : "bg-slate-400"}`}
          />
          {live === "live"
            ? "Live updates"
            : live === "connecting"
              ? "Connecting to live updates…"
              : `Updates every ${REST_REFRESH_MS.withoutStream / 1000} s`}
        </p>
      </header>

      <div className="mt-6">
        <StepOverview steps={steps} current={indexOf(steps, current.id)} done={stepsDone(data, steps)} />
      </div>

      {current.id !== "country" && (
        <div className="mt-6">
          <div className="mb-2 flex items-center justify-between text-sm font-medium text-slate-700 dark:text-slate-200">
            <span>{progress.label}</span>
            <span>{progress.percent}% complete</span>
          </div>
          <ProgressBar percent={progress.percent} label={`${progress.label}, ${progress.percent}% complete`} />
        </div>
      )}

      {notice && (
        <Notice tone="warning" title={notice.title} urgent className="mt-6">
          {notice.message}
        </Notice>
      )}

      <section aria-labelledby="kyc-step-title" className={`${cardClass} mt-6 sm:p-6`}>
        <div className="mb-5 flex flex-wrap items-baseline justify-between gap-2">
          <h2
            id="kyc-step-title"
            ref={headingRef}
            tabIndex={-1}
            className="text-xl font-bold text-slate-900 outline-none dark:text-white"
          >
            {current.title}
          </h2>
          <span className="text-sm text-slate-600 dark:text-slate-400">Estimated time: {current.estimate}</span>
        </div>
        {body}
        {hasStepButtons(current.id) && data !== null && (
          <div className="mt-8 flex flex-wrap justify-between gap-3 border-t border-slate-200 pt-5 dark:border-slate-800">
            <button type="button" className={secondaryButtonClass} onClick={() => goBy(-1)}>
              Previous
            </button>
            <button
              type="button"
              className={primaryButtonClass}
              onClick={() => goBy(1)}
              disabled={!canContinue(current, data)}
            >
              Continue
            </button>
          </div>
        )}
      </section>
    </div>
  );
}
