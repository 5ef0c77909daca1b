import {
  COMPLIANCE_MESSAGES,
  DEFAULT_TAX_RATE,
  PERIOD_PRESET_LABELS,
  PERIOD_PRESETS,
  parseTaxRate,
  PeriodQuery,
  presetPeriod,
  type CaseStatus,
  type ComplianceReport,
  type CtrReport,
  type ExportFormat,
  type ExportReply,
  type SarCandidate,
  type TaxReport,
} from "@fintech/core/compliance/model";
import type { Currency } from "@fintech/core/money/model";
import { useId, useState, type FormEvent, type ReactNode } from "react";
import { Link } from "react-router-dom";
import { errorMessage } from "../api/errors";
import { LockIcon } from "../components/icons";
import {
  inputClass,
  labelClass,
  linkButtonClass,
  primaryButtonClass,
  secondaryButtonClass,
} from "../components/styles";
import {
  cardClass,
  EmptyState,
  errorTextClass,
  LoadError,
  Money,
  sectionTitleClass,
  Spinner,
  subtleTextClass,
} from "../ledger/ui";
import type { Period } from "./api";
import { useComplianceViewer, useCtr, useExport, useSar, useTax, useUpdateCase } from "./hooks";

/**
 * /compliance (docs/money-operations.md#compliance-reports): a period, then the currency
 * transaction report, the suspicious-activity candidates with their cases (file, dismiss with a
 * reason, reopen) and the tax due on fee and FX revenue, each exported as CSV or PDF made on the
 * server. Administrators only: anyone else reads a plain explanation (the server answers 403).
 */
export function ComplianceConsole() {
  const { isAdmin } = useComplianceViewer();
  return (
    <div className="mx-auto max-w-7xl space-y-6 px-4 py-8 sm:px-6">
      <header className="min-w-0">
        <p className="text-sm font-semibold uppercase tracking-wide text-indigo-700 dark:text-indigo-300">
          Money operations
        </p>
        <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
          Compliance reports
        </h1>
        <p className={`mt-2 max-w-3xl ${subtleTextClass}`}>
          Cash reported per customer and day, the activity the rules flag for a suspicious-activity review, and the tax
          due on the platform's fee and FX revenue. All days are UTC.
        </p>
      </header>
      {isAdmin ? <Reports /> : <NotAdmin />}
    </div>
  );
}

function NotAdmin() {
  return (
    <section
      aria-labelledby="compliance-not-admin"
      className="mx-auto mt-10 flex max-w-xl flex-col items-center rounded-2xl border border-slate-200 bg-white px-6 py-10 text-center dark:border-slate-800 dark:bg-slate-900"
    >
      <span className="flex h-12 w-12 items-center justify-center rounded-full bg-indigo-100 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300">
        <LockIcon width="24" height="24" />
      </span>
      <h2 id="compliance-not-admin" className="mt-4 text-xl font-bold text-slate-900 dark:text-white">
        Administrators only
      </h2>
      <p className="mt-2 text-slate-700 dark:text-slate-300">
        Compliance reports name customers and their money: only administrators may open them.
      </p>
      <Link to="/dashboard" className={`${secondaryButtonClass} mt-6`}>
        Go to the dashboard
      </Link>
    </section>
  );
}

function Reports() {
  const [period, setPeriod] = useState<Period>(() => presetPeriod("last7", new Date()));
  return (
    <>
      <PeriodPicker period={period} onChange={setPeriod} />
      <SarSection period={period} />
      <CtrSection period={period} />
      <TaxSection period={period} />
    </>
  );
}

function PeriodPicker({ period, onChange }: { period: Period; onChange: (period: Period) => void }) {
  const [draft, setDraft] = useState(period);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const apply = (next: Period) => {
    const checked = PeriodQuery.safeParse(next);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? COMPLIANCE_MESSAGES.span);
      return;
    }
    setError(null);
    setDraft(checked.data);
    onChange(checked.data);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply(draft);
  };
  return (
    <section aria-labelledby={`${id}-title`} className={cardClass}>
      <h2 id={`${id}-title`} className={sectionTitleClass}>
        Period
      </h2>
      <form onSubmit={submit} className="mt-3 flex flex-wrap items-end gap-3" noValidate>
        <div>
          <label htmlFor={`${id}-from`} className={labelClass}>
            From
          </label>
          <input
            id={`${id}-from`}
            type="date"
            className={inputClass}
            value={draft.from}
            onChange={(event) => setDraft({ ...draft, from: event.target.value })}
            aria-describedby={error ? `${id}-error` : undefined}
          />
        </div>
        <div>
          <label htmlFor={`${id}-to`} className={labelClass}>
            To
          </label>
          <input
            id={`${id}-to`}
            type="date"
            className={inputClass}
            value={draft.to}
            onChange={(event) => setDraft({ ...draft, to: event.target.value })}
            aria-describedby={error ? `${id}-error` : undefined}
          />
        </div>
        <button type="submit" className={primaryButtonClass}>
          Show reports
        </button>
        <div role="group" aria-label="Preset periods" className="flex flex-wrap gap-2">
          {PERIOD_PRESETS.map((preset) => (
            <button
              key={preset}
              type="button"
              className={secondaryButtonClass}
              onClick={() => apply(presetPeriod(preset, new Date()))}
            >
              {PERIOD_PRESET_LABELS[preset]}
            </button>
          ))}
        </div>
      </form>
      {error ? (
        <p id={`${id}-error`} role="alert" className={`mt-2 ${errorTextClass}`}>
          {error}
        </p>
      ) : (
        <p className={`mt-2 ${subtleTextClass}`}>
          Showing {period.from} to {period.to} (UTC), both days included.
        </p>
      )}
    </section>
  );
}

function ReportCard({
  id,
  title,
  description,
  exportOf,
  children,
}: {
  id: string;
  title: string;
  description: string;
  exportOf: { report: ComplianceReport; period: Period; rate?: string };
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-heading`} className={`${cardClass} min-w-0`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={`${id}-heading`} className={sectionTitleClass}>
            {title}
          </h2>
          <p className={`mt-1 max-w-3xl ${subtleTextClass}`}>{description}</p>
        </div>
        <ExportButtons title={title} {...exportOf} />
      </div>
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** Starts the browser's download of a presigned link (the object is served as an attachment). */
function startDownload(reply: ExportReply) {
  const anchor = document.createElement("a");
  anchor.href = reply.downloadUrl;
  anchor.download = reply.filename;
  anchor.rel = "noopener";
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}

function ExportButtons({
  title,
  report,
  period,
  rate,
}: {
  title: string;
  report: ComplianceReport;
  period: Period;
  rate?: string;
}) {
  const exporter = useExport();
  const [format, setFormat] = useState<ExportFormat | null>(null);
  const run = (chosen: ExportFormat) => {
    setFormat(chosen);
    exporter.mutate(
      { report, ...period, format: chosen, ...(rate === undefined ? {} : { rate }) },
      { onSuccess: startDownload },
    );
  };
  return (
    <div className="flex flex-col items-end gap-1">
      <div role="group" aria-label={`Export the ${title.toLowerCase()}`} className="flex gap-2">
        {(["csv", "pdf"] as const).map((choice) => (
          <button
            key={choice}
            type="button"
            className={secondaryButtonClass}
            disabled={exporter.isPending}
            onClick={() => run(choice)}
          >
            {exporter.isPending && format === choice ? (
              <Spinner label="Exporting…" />
            ) : (
              `Export ${choice.toUpperCase()}`
            )}
          </button>
        ))}
      </div>
      <div aria-live="polite" className="text-right text-sm">
        {exporter.isError && <p className={errorTextClass}>{errorMessage(exporter.error, "The export failed")}</p>}
        {exporter.data && (
          <p className={subtleTextClass}>
            <a href={exporter.data.downloadUrl} download={exporter.data.filename} className={linkButtonClass}>
              Download {exporter.data.filename}
            </a>{" "}
            (link valid until {exporter.data.expiresAt.slice(11, 16)} UTC)
          </p>
        )}
      </div>
    </div>
  );
}

const thClass = "px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-300";
const tdClass = "px-3 py-2 align-top text-sm text-slate-800 dark:text-slate-100";

function Table({ caption, head, children }: { caption: string; head: string[]; children: ReactNode }) {
  return (
    // Focusable, so a keyboard can scroll a table wider than a phone.
    <div className="overflow-x-auto" role="region" aria-label={`${caption} table`} tabIndex={0}>
      <table className="min-w-full divide-y divide-slate-200 dark:divide-slate-800">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {head.map((label) => (
              <th key={label} scope="col" className={thClass}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">{children}</tbody>
      </table>
    </div>
  );
}

function Loading<T>({
  query,
  what,
  children,
}: {
  query: { data?: T; isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  what: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Spinner label={`Loading the ${what}…`} className={subtleTextClass} />;
  if (query.isError || query.data === undefined)
    return (
      <LoadError
        message={errorMessage(query.error, `The ${what} could not be loaded`)}
        onRetry={() => void query.refetch()}
      />
    );
  return <>{children(query.data)}</>;
}

function Customer({ customer }: { customer: { name: string; email: string } }) {
  return (
    <span className="block min-w-40">
      <span className="block font-medium">{customer.name}</span>
      <span className={`block break-all ${subtleTextClass}`}>{customer.email}</span>
    </span>
  );
}

const shortIds = (ids: string[]) => ids.map((id) => id.slice(0, 8)).join(", ");

function CtrSection({ period }: { period: Period }) {
  const query = useCtr(period);
  return (
    <ReportCard
      id="compliance-ctr"
      title="Currency transaction report"
      description="Cash in (posted deposits) of 10,000 or more per customer per day and currency (the USD equivalent for JPY and INR), added up across the day's deposits."
      exportOf={{ report: "ctr", period }}
    >
      <Loading query={query} what="currency transaction report">
        {(report: CtrReport) =>
          report.rows.length === 0 ? (
            <EmptyState title="No cash at the reporting threshold">
              No customer's deposits reached it on any day.
            </EmptyState>
          ) : (
            <Table caption="Currency transaction report" head={["Day", "Customer", "Total", "Deposits", "Journals"]}>
              {report.rows.map((row) => (
                <tr key={`${row.customer.id}-${row.day}-${row.currency}`}>
                  <td className={`${tdClass} whitespace-nowrap`}>{row.day}</td>
                  <td className={tdClass}>
                    <Customer customer={row.customer} />
                  </td>
                  <td className={tdClass}>
                    <Money minor={row.total_minor} currency={row.currency} />
                  </td>
                  <td className={tdClass}>{row.count}</td>
                  <td className={`${tdClass} font-mono text-xs`} title={row.journal_ids.join(", ")}>
                    {shortIds(row.journal_ids)}
                  </td>
                </tr>
              ))}
            </Table>
          )
        }
      </Loading>
    </ReportCard>
  );
}

const STATUS_BADGE: Record<CaseStatus, string> = {
  open: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  filed: "bg-indigo-100 text-indigo-900 dark:bg-indigo-950 dark:text-indigo-200",
  dismissed: "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100",
};
const STATUS_LABEL: Record<CaseStatus, string> = { open: "Open", filed: "Filed", dismissed: "Dismissed" };

function SarSection({ period }: { period: Period }) {
  const query = useSar(period);
  return (
    <ReportCard
      id="compliance-sar"
      title="Suspicious activity candidates"
      description="Structuring, rapid in-and-out, high KYC risk with large volume and screening hits. Each candidate has a case: file it, dismiss it with a reason, or reopen it. Running the report again keeps every case's status."
      exportOf={{ report: "sar", period }}
    >
      <Loading query={query} what="suspicious activity candidates">
        {(report) =>
          report.candidates.length === 0 ? (
            <EmptyState title="No candidates">No rule found anything in this period.</EmptyState>
          ) : (
            <Table
              caption="Suspicious activity candidates"
              head={["Rule", "Customer", "What was seen", "Total", "Case"]}
            >
              {report.candidates.map((candidate) => (
                <CandidateRow key={candidate.case.id} candidate={candidate} />
              ))}
            </Table>
          )
        }
      </Loading>
    </ReportCard>
  );
}

function CandidateRow({ candidate }: { candidate: SarCandidate }) {
  const update = useUpdateCase();
  const [dismissing, setDismissing] = useState(false);
  const [reason, setReason] = useState("");
  const [reasonError, setReasonError] = useState<string | null>(null);
  const id = useId();
  const current = candidate.case;
  const change = (status: CaseStatus, withReason?: string) =>
    update.mutate(
      { id: current.id, input: { status, version: current.version, ...(withReason ? { reason: withReason } : {}) } },
      { onSuccess: () => setDismissing(false) },
    );
  const dismiss = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) {
      setReasonError(COMPLIANCE_MESSAGES.reasonRequired);
      return;
    }
    setReasonError(null);
    change("dismissed", reason.trim());
  };
  const label = `${candidate.rule_label}, ${candidate.customer.name}, ${candidate.window}`;
  return (
    <tr>
      <td className={tdClass}>
        <span className="block whitespace-nowrap font-medium">{candidate.rule_label}</span>
        <span className={`block whitespace-nowrap ${subtleTextClass}`}>{candidate.window}</span>
      </td>
      <td className={tdClass}>
        <Customer customer={candidate.customer} />
      </td>
      <td className={`${tdClass} min-w-64`}>
        <p>{candidate.sentence}</p>
        {candidate.journal_ids.length > 0 && (
          <p className={`mt-1 font-mono text-xs ${subtleTextClass}`} title={candidate.journal_ids.join(", ")}>
            Journals {shortIds(candidate.journal_ids)}
          </p>
        )}
        {candidate.payment_ids.length > 0 && (
          <p className={`mt-1 font-mono text-xs ${subtleTextClass}`} title={candidate.payment_ids.join(", ")}>
            Payments {shortIds(candidate.payment_ids)}
          </p>
        )}
      </td>
      <td className={tdClass}>
        <Money minor={candidate.total_minor} currency={candidate.currency as Currency} />
      </td>
      <td className={`${tdClass} min-w-56`}>
        <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_BADGE[current.status]}`}>
          {STATUS_LABEL[current.status]}
        </span>
        {current.reason && <p className={`mt-1 ${subtleTextClass}`}>Reason: {current.reason}</p>}
        <div role="group" aria-label={`Case actions: ${label}`} className="mt-2 flex flex-wrap gap-2">
          {current.status === "open" ? (
            <>
              <button
                type="button"
                className={secondaryButtonClass}
                disabled={update.isPending}
                onClick={() => change("filed")}
              >
                File
              </button>
              <button
                type="button"
                className={secondaryButtonClass}
                disabled={update.isPending}
                aria-expanded={dismissing}
                aria-controls={`${id}-dismiss`}
                onClick={() => setDismissing(!dismissing)}
              >
                Dismiss
              </button>
            </>
          ) : (
            <button
              type="button"
              className={secondaryButtonClass}
              disabled={update.isPending}
              onClick={() => change("open")}
            >
              Reopen
            </button>
          )}
        </div>
        {dismissing && current.status === "open" && (
          <form id={`${id}-dismiss`} onSubmit={dismiss} className="mt-2 space-y-2" noValidate>
            <label htmlFor={`${id}-reason`} className={labelClass}>
              Reason for dismissing
            </label>
            <textarea
              id={`${id}-reason`}
              className={inputClass}
              rows={2}
              maxLength={500}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              aria-invalid={reasonError ? true : undefined}
              aria-describedby={reasonError ? `${id}-reason-error` : undefined}
            />
            {reasonError && (
              <p id={`${id}-reason-error`} className={errorTextClass}>
                {reasonError}
              </p>
            )}
            <button type="submit" className={primaryButtonClass} disabled={update.isPending}>
              Dismiss case
            </button>
          </form>
        )}
        {update.isError && (
          <p role="alert" className={`mt-2 ${errorTextClass}`}>
            {errorMessage(update.error, "The case could not be changed")}
          </p>
        )}
      </td>
    </tr>
  );
}

function TaxSection({ period }: { period: Period }) {
  const [rateText, setRateText] = useState(DEFAULT_TAX_RATE);
  const [rate, setRate] = useState(DEFAULT_TAX_RATE);
  const [error, setError] = useState<string | null>(null);
  const query = useTax(period, rate);
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (parseTaxRate(rateText) === null) {
      setError(COMPLIANCE_MESSAGES.rate);
      return;
    }
    setError(null);
    setRate(rateText.trim());
  };
  return (
    <ReportCard
      id="compliance-tax"
      title="Tax on fee and FX revenue"
      description="Fee revenue and FX revenue posted in the period, per currency, and the tax due on them at the rate below (GST or any configured rate)."
      exportOf={{ report: "tax", period, rate }}
    >
      <form onSubmit={submit} className="mb-4 flex flex-wrap items-end gap-3" noValidate>
        <div>
          <label htmlFor={`${id}-rate`} className={labelClass}>
            Tax rate (0 to 1)
          </label>
          <input
            id={`${id}-rate`}
            inputMode="decimal"
            className={inputClass}
            value={rateText}
            onChange={(event) => setRateText(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-rate-error` : undefined}
          />
        </div>
        <button type="submit" className={secondaryButtonClass}>
          Apply rate
        </button>
        {error && (
          <p id={`${id}-rate-error`} className={errorTextClass}>
            {error}
          </p>
        )}
      </form>
      <Loading query={query} what="tax report">
        {(report: TaxReport) => (
          <Table
            caption={`Tax due at rate ${report.rate}`}
            head={["Currency", "Fee revenue", "FX revenue", "Taxable", `Tax due (${report.rate})`]}
          >
            {report.rows.map((row) => (
              <tr key={row.currency}>
                <td className={`${tdClass} font-medium`}>{row.currency}</td>
                <td className={tdClass}>
                  <Money minor={row.fee_revenue_minor} currency={row.currency} />
                </td>
                <td className={tdClass}>
                  <Money minor={row.fx_revenue_minor} currency={row.currency} />
                </td>
                <td className={tdClass}>
                  <Money minor={row.taxable_minor} currency={row.currency} />
                </td>
                <td className={`${tdClass} font-semibold`}>
                  <Money minor={row.tax_due_minor} currency={row.currency} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Loading>
    </ReportCard>
  );
}
