import { useEffect, useId, useState, type ChangeEvent, type ReactNode } from "react";
import toast from "react-hot-toast";
import { kycReviewApi, type DryRunResult } from "../api/kycReview";
import { inputClass, labelClass, primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { ConfirmDialog } from "../ledger/ConfirmDialog";
import { formatDateTime } from "../ledger/format";
import { cardClass, errorTextClass, LoadError, sectionTitleClass, Spinner, subtleTextClass } from "../ledger/ui";
import { randomId } from "../lib/uuid";
import { actionErrorMessage, editableRuleSet, parseRuleSet } from "./actions";
import { useInvalidateReview, useRulesOverview, useRuleVersion, useWatchlist } from "./hooks";
import { RiskScore } from "./ui";

/** A watchlist file larger than this is refused before upload (the server bounds it too). */
const MAX_WATCHLIST_BYTES = 2 * 1024 * 1024;
/** Submission ids are UUID-like; anything longer is not one. */
const MAX_SUBMISSION_ID_LENGTH = 64;

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

/**
 * Risk rules as data (docs/kyc.md#risk-engine-rules-as-data): the published version and its
 * history, the draft edited as JSON (checked here for syntax, by the server for meaning), a dry run
 * against a stored submission, publishing (the next evaluation everywhere uses it), and the
 * sanctions/PEP watchlist.
 */
export function RulesTab() {
  return (
    <div className="grid gap-4 lg:grid-cols-3">
      <div className="space-y-4 lg:col-span-2">
        <DraftEditor />
      </div>
      <div className="space-y-4">
        <PublishedVersions />
        <Watchlist />
      </div>
    </div>
  );
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className={`${cardClass} min-w-0`}>
      <h2 id={headingId} className={sectionTitleClass}>
        {title}
      </h2>
      <div className="mt-3">{children}</div>
    </section>
  );
}

function DraftEditor() {
  const id = useId();
  const overview = useRulesOverview();
  const invalidate = useInvalidateReview();
  const [text, setText] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<"save" | "test" | "publish" | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [submissionId, setSubmissionId] = useState("");
  const [result, setResult] = useState<DryRunResult | null>(null);
  const [publishKey, setPublishKey] = useState(randomId);
  /** The draft revision the editor started from: a save over someone else's newer draft is refused (409). */
  const [revision, setRevision] = useState(0);

  // The editor starts from the saved draft, else from the live rules, once they arrive.
  const data = overview.data;
  useEffect(() => {
    if (!data || text !== null) return;
    const source = data.draft ?? data.published;
    const start = source ? pretty(editableRuleSet(source)) : "";
    setText(start);
    setSaved(data.draft ? start : null);
    setRevision(data.draft?.revision ?? 0);
  }, [data, text]);

  if (overview.isError)
    return (
      <LoadError
        message={actionErrorMessage(overview.error, "Failed to load the rules")}
        onRetry={() => void overview.refetch()}
      />
    );
  if (!data || text === null) {
    return (
      <p className={subtleTextClass}>
        <Spinner label="Loading the rules…" />
      </p>
    );
  }

  const dirty = text !== saved;
  const check = () => {
    const parsed = parseRuleSet(text);
    setProblem(parsed.ok ? null : parsed.message);
    return parsed;
  };

  const save = async () => {
    const parsed = check();
    if (!parsed.ok || busy) return;
    setBusy("save");
    try {
      const draft = await kycReviewApi.rules.saveDraft(parsed.ruleSet, revision);
      setRevision(draft.revision);
      setSaved(text);
      toast.success("Draft saved");
      void invalidate();
    } catch (error) {
      setProblem(actionErrorMessage(error, "Failed to save the draft"));
    } finally {
      setBusy(null);
    }
  };

  const test = async () => {
    const parsed = check();
    const target = submissionId.trim();
    if (!parsed.ok || busy) return;
    if (!target) {
      setProblem("Enter the ID of a submission to test against");
      return;
    }
    setBusy("test");
    setResult(null);
    try {
      setResult(await kycReviewApi.rules.test(target, parsed.ruleSet));
    } catch (error) {
      setProblem(actionErrorMessage(error, "Failed to test the rules"));
    } finally {
      setBusy(null);
    }
  };

  const publish = async () => {
    if (busy) return;
    setBusy("publish");
    try {
      const version = await kycReviewApi.rules.publish(revision, { idempotencyKey: publishKey });
      toast.success(`Rule set v${version.version} published`);
      setPublishKey(randomId());
      // The draft is gone (it is the live version now): the editor shows what is live.
      setSaved(null);
      setRevision(0);
      void invalidate();
    } catch (error) {
      setProblem(actionErrorMessage(error, "Failed to publish the rules"));
    } finally {
      setBusy(null);
      setConfirming(false);
    }
  };

  return (
    <Panel title="Draft rule set">
      <p className={subtleTextClass}>
        {data.draft
          ? `Draft saved ${formatDateTime(data.draft.updated_at)} by ${data.draft.updated_by}.`
          : "No saved draft: editing starts from the live rules."}
      </p>
      <label htmlFor={`${id}-json`} className={`${labelClass} mt-3`}>
        Rules (JSON)
      </label>
      <textarea
        id={`${id}-json`}
        className={`${inputClass} h-80 font-mono text-xs`}
        spellCheck={false}
        value={text}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
        onChange={(event) => {
          setText(event.target.value);
          setProblem(null);
        }}
      />
      {problem && (
        <p id={`${id}-problem`} role="alert" className={`mt-2 ${errorTextClass}`}>
          {problem}
        </p>
      )}
      <div className="mt-3 flex flex-wrap gap-2">
        <button
          type="button"
          className={secondaryButtonClass}
          onClick={() => (check().ok ? toast.success("Valid JSON") : undefined)}
        >
          Validate
        </button>
        <button
          type="button"
          className={secondaryButtonClass}
          onClick={() => void save()}
          disabled={busy !== null || !dirty}
        >
          {busy === "save" ? <Spinner label="Saving…" /> : "Save draft"}
        </button>
        <button
          type="button"
          className={primaryButtonClass}
          onClick={() => setConfirming(true)}
          disabled={busy !== null || dirty || !data.draft}
        >
          Publish
        </button>
      </div>
      {(dirty || !data.draft) && (
        <p className={`mt-2 text-xs ${subtleTextClass}`}>Publishing takes the saved draft: save your changes first.</p>
      )}

      <h3 className="mt-6 font-semibold text-slate-900 dark:text-white">Test against a submission</h3>
      <p className={subtleTextClass}>
        A dry run of the rules above: nothing is saved, and the submission keeps its score.
      </p>
      <div className="mt-2 flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1">
          <label htmlFor={`${id}-submission`} className={labelClass}>
            Submission ID
          </label>
          <input
            id={`${id}-submission`}
            className={`${inputClass} font-mono`}
            value={submissionId}
            maxLength={MAX_SUBMISSION_ID_LENGTH}
            onChange={(event) => setSubmissionId(event.target.value)}
          />
        </div>
        <button type="button" className={secondaryButtonClass} onClick={() => void test()} disabled={busy !== null}>
          {busy === "test" ? <Spinner label="Testing…" /> : "Run test"}
        </button>
      </div>
      {result && <TestResult result={result} />}

      {confirming && (
        <ConfirmDialog
          title="Publish this rule set?"
          confirmLabel="Publish"
          busyLabel="Publishing…"
          busy={busy === "publish"}
          onConfirm={() => void publish()}
          onCancel={() => setConfirming(false)}
        >
          <p>
            The saved draft becomes the next version. Every evaluation from now on uses it, in every instance, without a
            redeploy.
          </p>
        </ConfirmDialog>
      )}
    </Panel>
  );
}

function TestResult({ result }: { result: DryRunResult }) {
  const { assessment, rule_set: ruleSet, current } = result;
  const source =
    ruleSet.source === "body"
      ? "the rules in the editor"
      : ruleSet.source === "draft"
        ? "the saved draft"
        : `version ${ruleSet.version}`;
  return (
    <div role="status" className="mt-3 rounded-xl border border-slate-200 p-3 text-sm dark:border-slate-800">
      <p className="text-slate-900 dark:text-white">
        With {source}: <RiskScore score={assessment.risk_score} level={assessment.level} /> · priority{" "}
        {assessment.priority} · verdict {assessment.verdict}
      </p>
      {current && (
        <p className={subtleTextClass}>
          Now: {current.risk_score} ({current.level}) under v{current.rule_set_version}
        </p>
      )}
      {assessment.reasons.length > 0 ? (
        <ul className="mt-2 list-disc space-y-1 pl-5 text-slate-700 dark:text-slate-300">
          {assessment.reasons.map((reason, index) => (
            <li key={`${reason.rule}-${index}`}>
              <span className="font-mono text-xs">{reason.rule}</span>{" "}
              {reason.points >= 0 ? `+${reason.points}` : reason.points}: {reason.reason}
            </li>
          ))}
        </ul>
      ) : (
        <p className={`mt-1 ${subtleTextClass}`}>No rule fired.</p>
      )}
      {assessment.flags.length > 0 && (
        <p className="mt-2 text-red-700 dark:text-red-300">
          Flags: {assessment.flags.map((flag) => flag.message || flag.code).join("; ")}
        </p>
      )}
    </div>
  );
}

function PublishedVersions() {
  const overview = useRulesOverview();
  const [viewing, setViewing] = useState<number | null>(null);
  const version = useRuleVersion(viewing);
  const data = overview.data;
  return (
    <Panel title="Published versions">
      {!data ? (
        overview.isError ? (
          <p className={errorTextClass}>{actionErrorMessage(overview.error, "Failed to load the rules")}</p>
        ) : (
          <Spinner label="Loading…" />
        )
      ) : (
        <>
          <p className="text-sm text-slate-900 dark:text-white">
            {data.published
              ? `Live: v${data.published.version}, published ${formatDateTime(data.published.published_at)} by ${data.published.published_by}`
              : "Live: the built-in rules (nothing published yet)"}
          </p>
          {data.versions.length > 0 && (
            <ol aria-label="Version history" className="mt-3 max-h-56 space-y-1 overflow-y-auto text-sm">
              {data.versions.map((entry) => (
                <li key={entry.version} className="flex items-center justify-between gap-2">
                  <span className="min-w-0 truncate text-slate-700 dark:text-slate-300">
                    v{entry.version} · {entry.rules} rule{entry.rules === 1 ? "" : "s"} ·{" "}
                    {formatDateTime(entry.published_at)}
                  </span>
                  <button
                    type="button"
                    className="shrink-0 text-sm font-semibold text-indigo-700 hover:underline dark:text-indigo-300"
                    aria-expanded={viewing === entry.version}
                    aria-label={`${viewing === entry.version ? "Hide" : "Show"} version ${entry.version}`}
                    onClick={() => setViewing(viewing === entry.version ? null : entry.version)}
                  >
                    {viewing === entry.version ? "Hide" : "Show"}
                  </button>
                </li>
              ))}
            </ol>
          )}
          {viewing !== null && (
            <div className="mt-3">
              {version.data ? (
                <pre
                  role="group"
                  tabIndex={0}
                  aria-label={`Rules of version ${viewing}`}
                  className="max-h-64 overflow-auto rounded-lg bg-slate-100 p-2 text-xs text-slate-900 dark:bg-slate-800 dark:text-slate-100"
                >
                  {pretty(editableRuleSet(version.data))}
                </pre>
              ) : version.isError ? (
                <p className={errorTextClass}>{actionErrorMessage(version.error, "Failed to load the version")}</p>
              ) : (
                <Spinner label="Loading…" />
              )}
            </div>
          )}
        </>
      )}
    </Panel>
  );
}

function Watchlist() {
  const id = useId();
  const watchlist = useWatchlist();
  const invalidate = useInvalidateReview();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file || busy) return;
    setProblem(null);
    if (file.size > MAX_WATCHLIST_BYTES) {
      setProblem("The watchlist file must be 2 MB or smaller");
      return;
    }
    setBusy(true);
    try {
      const summary = await kycReviewApi.rules.uploadWatchlist(
        { csv: await file.text(), name: file.name.slice(0, 200) },
        { idempotencyKey: randomId() },
      );
      toast.success(`Watchlist uploaded: ${summary.entries} names`);
      void invalidate();
    } catch (error) {
      setProblem(actionErrorMessage(error, "Failed to upload the watchlist"));
    } finally {
      setBusy(false);
    }
  };

  const summary = watchlist.data;
  return (
    <Panel title="Watchlist">
      <p className={subtleTextClass}>
        Sanctions and PEP names (CSV, a name column). Applicants are matched by name, fuzzily; a hit is a risk flag.
      </p>
      {summary ? (
        <div className="mt-2 text-sm text-slate-900 dark:text-white">
          <p>
            {summary.entries.toLocaleString("en-IN")} name{summary.entries === 1 ? "" : "s"}
            {summary.version !== null && ` · v${summary.version}`}
            {summary.uploaded_at && ` · uploaded ${formatDateTime(summary.uploaded_at)}`}
            {summary.uploaded_by && ` by ${summary.uploaded_by}`}
            {summary.name && ` (${summary.name})`}
          </p>
          {Object.keys(summary.lists).length > 0 && (
            <p className={`mt-1 ${subtleTextClass}`}>
              {Object.entries(summary.lists)
                .map(([list, count]) => `${list}: ${count.toLocaleString("en-IN")}`)
                .join(" · ")}
            </p>
          )}
          {summary.sample.length > 0 && (
            <p className={`mt-1 ${subtleTextClass}`}>e.g. {summary.sample.map((entry) => entry.name).join(", ")}</p>
          )}
        </div>
      ) : watchlist.isError ? (
        <p className={`mt-2 ${errorTextClass}`}>
          {actionErrorMessage(watchlist.error, "Failed to load the watchlist")}
        </p>
      ) : (
        <Spinner label="Loading…" className="mt-2 text-sm" />
      )}
      <label htmlFor={`${id}-file`} className={`${labelClass} mt-3`}>
        Upload a CSV file
      </label>
      <input
        id={`${id}-file`}
        type="file"
        accept=".csv,text/csv"
        disabled={busy}
        onChange={(event) => void upload(event)}
        aria-describedby={problem ? `${id}-problem` : undefined}
        className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-indigo-600 file:px-3 file:py-2 file:text-sm file:font-semibold file:text-white dark:text-slate-300 dark:file:bg-indigo-400 dark:file:text-slate-950"
      />
      {busy && <Spinner label="Uploading…" className="mt-2 text-sm" />}
      {problem && (
        <p id={`${id}-problem`} role="alert" className={`mt-2 ${errorTextClass}`}>
          {problem}
        </p>
      )}
    </Panel>
  );
}
