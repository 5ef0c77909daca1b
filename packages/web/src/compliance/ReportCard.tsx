import type { ComplianceReport, ExportFormat, ExportReply } from "@fintech/core/compliance/model";
import { useState, type ReactNode } from "react";
import { errorMessage } from "../api/errors";
import { linkButtonClass, secondaryButtonClass } from "../components/styles";
import { cardClass, errorTextClass, sectionTitleClass, Spinner, subtleTextClass } from "../ledger/ui";
import type { Period } from "./api";
import { useExport } from "./hooks";

/** One report's card with its CSV and PDF exports. */
export function ReportCard({
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
