import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ApiError } from "../api/errors";
import { integrityApi, type IntegrityJob } from "../api/integrity";
import { Notice, ProgressBar } from "../kyc/ui";
import { useSession } from "../session/hooks";
import { writeErrorMessage } from "./actionErrors";
import { formatDateTime } from "./format";
import { INTEGRITY_POLL_MS, isActive, problemLines, progressText, statusSentence } from "./integrityView";
import { cardClass, LoadError, sectionTitleClass, smallPrimaryButtonClass, Spinner, subtleTextClass } from "./ui";

/**
 * Administrators' whole-ledger integrity check: start it, watch its progress, read what it found.
 * The check runs as a job on the server, a page at a time; this panel asks for the job again every
 * second while it runs (react-query's refetchInterval) and stops once it has finished.
 */

const integrityKey = (userId: string) => ["integrity", userId, "latest"] as const;

export function IntegrityPanel() {
  const userId = useSession()?.user.id ?? "signed-out";
  const queryClient = useQueryClient();
  const latest = useQuery({
    queryKey: integrityKey(userId),
    queryFn: ({ signal }) => integrityApi.latest(signal),
    retry: false,
    refetchInterval: (query) => (isActive(query.state.data) ? INTEGRITY_POLL_MS : false),
  });
  const start = useMutation({
    mutationFn: () => integrityApi.start(),
    onSuccess: (job) => queryClient.setQueryData(integrityKey(userId), job),
    // Another administrator's check is running: show that one.
    onSettled: (_job, error) => {
      if (error instanceof ApiError && error.status === 409)
        void queryClient.invalidateQueries({ queryKey: integrityKey(userId) });
    },
  });
  const job = latest.data ?? null;
  const running = isActive(job);

  return (
    <section aria-labelledby="integrity-title" className={`${cardClass} mt-8 space-y-4`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="max-w-2xl">
          <h2 id="integrity-title" className={sectionTitleClass}>
            Ledger integrity{" "}
            <span className="ml-2 rounded-full bg-slate-100 px-2 py-0.5 align-middle text-xs font-semibold text-slate-700 dark:bg-slate-800 dark:text-slate-200">
              Administrators
            </span>
          </h2>
          <p id="integrity-description" className={subtleTextClass}>
            Recomputes every balance in the ledger, system accounts included, from the journals and compares it with the
            recorded balance. It runs in the background, a page at a time, over the ledger as it stood a minute before
            the start.
          </p>
        </div>
        <button
          type="button"
          className={smallPrimaryButtonClass}
          onClick={() => start.mutate()}
          disabled={running || start.isPending || latest.isPending}
          aria-describedby="integrity-description"
        >
          {start.isPending ? <Spinner label="Starting…" /> : running ? "Check running…" : "Run integrity check"}
        </button>
      </div>

      <p role="status" aria-live="polite" className="text-sm font-medium text-slate-900 dark:text-white">
        {latest.isPending ? "Loading the latest integrity check…" : latest.isError ? "" : statusSentence(job)}
      </p>

      {start.isError && !(start.error instanceof ApiError && start.error.status === 409) && (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
          {writeErrorMessage(start.error, "The integrity check could not be started")}
        </p>
      )}
      {latest.isError && (
        <LoadError
          message={writeErrorMessage(latest.error, "Failed to load the latest integrity check")}
          onRetry={() => void latest.refetch()}
        />
      )}

      {job && running && <JobProgress job={job} />}
      {job && !running && <JobOutcome job={job} />}
    </section>
  );
}

function JobProgress({ job }: { job: IntegrityJob }) {
  return (
    <div className="space-y-2">
      {job.progress.percent === null ? (
        <Spinner label="Working…" className={subtleTextClass} />
      ) : (
        <ProgressBar percent={job.progress.percent} label="Integrity check progress" />
      )}
      <p className={subtleTextClass}>{progressText(job)}</p>
      <JobFacts job={job} />
    </div>
  );
}

function JobOutcome({ job }: { job: IntegrityJob }) {
  const result = job.result;
  return (
    <div className="space-y-3">
      {job.status === "failed" ? (
        <Notice tone="error" title="The check failed" quiet>
          {job.error ?? "It stopped before it finished."} Run it again; a failed check changes nothing in the ledger.
        </Notice>
      ) : result?.ok ? (
        <Notice tone="success" title="Balanced" quiet>
          Every balance equals the replay of its journals, every journal balances, and debits equal credits in every
          currency.
        </Notice>
      ) : result ? (
        <Notice tone="error" title="Problems found" quiet>
          <ul className="list-disc space-y-1 pl-5">
            {problemLines(result).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </Notice>
      ) : null}
      <JobFacts job={job} />
    </div>
  );
}

function JobFacts({ job }: { job: IntegrityJob }) {
  const result = job.result;
  return (
    <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
      <Fact label="Started by">{job.started_by.name || job.started_by.id}</Fact>
      <Fact label="Started">{formatDateTime(job.started_at)}</Fact>
      <Fact label="Ledger as of">{formatDateTime(job.as_of)}</Fact>
      {job.finished_at && <Fact label="Finished">{formatDateTime(job.finished_at)}</Fact>}
      {result && <Fact label="Accounts checked">{result.accounts_checked.toLocaleString("en-US")}</Fact>}
      {result && <Fact label="Journals checked">{result.journals_checked.toLocaleString("en-US")}</Fact>}
    </dl>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex gap-2">
      <dt className="text-slate-600 dark:text-slate-300">{label}:</dt>
      <dd className="font-medium text-slate-900 dark:text-white">{children}</dd>
    </div>
  );
}
