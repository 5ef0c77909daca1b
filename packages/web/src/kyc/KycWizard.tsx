import { useCallback, useEffect, useRef, useState } from "react";
import { primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { cardClass, LoadError, Spinner, subtleTextClass } from "../ledger/ui";
import { useSession } from "../session/hooks";
import { CompletionStep } from "./CompletionStep";
import { CountryStep } from "./CountryStep";
import { findCountryEntry } from "./countryList";
import { DocumentStep } from "./DocumentStep";
import { REST_REFRESH_MS, useKycCountries, useKycLiveFeed, useKycState, useRecordVerifiedNumber, useRefreshKyc } from "./hooks";
import type { EventEffect } from "./live/events";
import { NumberStep } from "./NumberStep";
import type { StartFailure } from "./startForm";
import { canContinue, clampStep, decidedSince, hasStepButtons, KYC_STEPS, LAST_STEP, resumeStep, STEP_INDEX, stepProgress, stepsDone } from "./steps";
import { Notice, ProgressBar } from "./ui";

/** The five steps with their time estimates; the current one carries aria-current="step". */
function StepOverview({ current, done }: { current: number; done: readonly boolean[] }) {
  return (
    <ol aria-label="Verification steps" className="grid gap-1.5 sm:grid-cols-5 sm:gap-2">
      {KYC_STEPS.map((step, index) => {
        const state = index === current ? "current" : done[index] ? "done" : "todo";
        return (
          <li
            key={step.id}
            aria-current={state === "current" ? "step" : undefined}
            className={`flex items-center gap-3 rounded-xl border px-3 py-1.5 sm:flex-col sm:items-start sm:gap-1 sm:py-2 ${
              state === "current" ? "border-indigo-600 bg-indigo-50 dark:border-indigo-400 dark:bg-indigo-950/60" : "border-slate-200 dark:border-slate-800"
            }`}
          >
            <span
              className={`flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold ${
                state === "done" ? "bg-emerald-600 text-white dark:bg-emerald-400 dark:text-slate-950" : state === "current" ? "bg-indigo-600 text-white dark:bg-indigo-400 dark:text-slate-950" : "bg-slate-200 text-slate-700 dark:bg-slate-800 dark:text-slate-300"
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

/**
 * The KYC wizard (spec 001 §2, §4): five steps, resumed where the applicant left off; the state
 * follows the KYC stream while it is connected and is polled over REST otherwise.
 */
export function KycWizard() {
  const user = useSession()?.user ?? null;
  const [step, setStep] = useState<number | null>(null);
  const [notice, setNotice] = useState<StartFailure | null>(null);
  const [manualReview, setManualReview] = useState(false);
  const onEffect = useCallback((effect: EventEffect) => {
    if (effect.jumpToCompletion) setStep(LAST_STEP);
    if (effect.manualReview) setManualReview(true);
  }, []);
  const live = useKycLiveFeed(onEffect);
  const state = useKycState(live === "live");
  const countries = useKycCountries();
  const refresh = useRefreshKyc();
  const recordVerified = useRecordVerifiedNumber();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const shownStep = useRef<number | null>(null);

  // Keyboard and screen-reader users land on each new step's heading; not on the first one shown
  // when the page opens, where focus stays at the top of the page.
  useEffect(() => {
    if (step === null) return;
    if (shownStep.current !== null && shownStep.current !== step) headingRef.current?.focus();
    shownStep.current = step;
  }, [step]);

  // A returning applicant resumes where they left off, once their state is known.
  useEffect(() => {
    if (step === null && state.isSuccess) setStep(resumeStep(state.data));
  }, [step, state.isSuccess, state.data]);

  // Without the stream a reviewer's decision arrives by polling: it moves to the outcome as the stream would.
  const status = state.data?.status;
  const seenStatus = useRef(status);
  useEffect(() => {
    if (decidedSince(seenStatus.current, status)) setStep(LAST_STEP);
    seenStatus.current = status;
  }, [status]);

  const goTo = (next: number) => {
    setNotice(null);
    setStep(clampStep(next));
  };

  const onStarted = async (failure: StartFailure | null) => {
    const reloaded = await state.refetch();
    setNotice(failure);
    setStep(failure ? resumeStep(reloaded.data ?? null) : STEP_INDEX.documents);
  };

  const current = step ?? 0;
  const data = state.data ?? null;
  const progress = stepProgress(current);
  const country = findCountryEntry(countries.data, data?.country);

  let body;
  if (state.isPending || step === null) {
    body = state.isError ? (
      <LoadError message="Failed to load your verification status." onRetry={() => void state.refetch()} />
    ) : (
      <Spinner label="Loading your verification..." className={subtleTextClass} />
    );
  } else if (current === STEP_INDEX.country || data === null) {
    body = <CountryStep user={user} onStarted={onStarted} />;
  } else if (current === STEP_INDEX.documents) {
    body = <DocumentStep documentTypes={data.document_types ?? country?.documentTypes ?? ["passport"]} state={data} onUploaded={() => void refresh()} />;
  } else if (current === STEP_INDEX.aadhaar || current === STEP_INDEX.pan) {
    const type = current === STEP_INDEX.aadhaar ? "aadhaar" : "pan";
    body = <NumberStep key={type} type={type} state={data} onVerified={(masked) => (masked ? recordVerified(type, masked) : void refresh())} />;
  } else {
    body = <CompletionStep state={data} manualReview={manualReview} onGoTo={goTo} onChanged={() => void refresh()} />;
  }

  const title = KYC_STEPS[current]!;
  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <p className="text-sm font-semibold uppercase tracking-wide text-indigo-700 dark:text-indigo-300">Identity verification</p>
          <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 dark:text-white">Know Your Customer</h1>
          <p className={`mt-2 ${subtleTextClass}`}>Verify your identity in five short steps. Your progress is saved as you go.</p>
        </div>
        <p role="status" aria-live="polite" className="inline-flex items-center gap-2 rounded-full border border-slate-200 px-3 py-1.5 text-sm text-slate-700 dark:border-slate-800 dark:text-slate-200">
          <span aria-hidden="true" className={`h-2 w-2 rounded-full ${live === "live" ? "bg-emerald-500" : "bg-slate-400"}`} />
          {live === "live" ? "Live updates" : live === "connecting" ? "Connecting to live updates…" : `Updates every ${REST_REFRESH_MS.withoutStream / 1000} s`}
        </p>
      </header>

      <div className="mt-6">
        <StepOverview current={current} done={stepsDone(data)} />
      </div>

      {current >= STEP_INDEX.documents && (
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
          <h2 id="kyc-step-title" ref={headingRef} tabIndex={-1} className="text-xl font-bold text-slate-900 outline-none dark:text-white">
            {title.title}
          </h2>
          <span className="text-sm text-slate-600 dark:text-slate-400">Estimated time: {title.estimate}</span>
        </div>
        {body}
        {hasStepButtons(current) && data !== null && (
          <div className="mt-8 flex flex-wrap justify-between gap-3 border-t border-slate-200 pt-5 dark:border-slate-800">
            <button type="button" className={secondaryButtonClass} onClick={() => goTo(current - 1)}>
              Previous
            </button>
            <button type="button" className={primaryButtonClass} onClick={() => goTo(current + 1)} disabled={!canContinue(current, data)}>
              Continue
            </button>
          </div>
        )}
      </section>
    </div>
  );
}
