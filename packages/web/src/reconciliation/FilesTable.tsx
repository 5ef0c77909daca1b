import type { SettlementFile } from "@fintech/core/reconciliation/model";
import { linkButtonClass } from "../components/styles";
import { FileStatusChip, VarianceBar } from "./FileBadges";
import { breakClassLabel, utcTime } from "./format";

const headClass =
  "px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-300";
const cellClass = "px-3 py-2 align-top text-sm text-slate-800 dark:text-slate-100";

/** What the file's breaks are, in words: "2 Amount mismatch, 1 Duplicate line", or "No breaks". */
export function breakSummary(file: Pick<SettlementFile, "breakCounts">): string {
  const parts = Object.entries(file.breakCounts)
    .filter(([, count]) => (count ?? 0) > 0)
    .map(([name, count]) => `${count} ${breakClassLabel(name as keyof typeof file.breakCounts)}`);
  return parts.length === 0 ? "No breaks" : parts.join(", ");
}

/**
 * The settlement files: filename, rail, day, import time, lines matched, variance bar, status and
 * the per-line result CSV; a file rejected whole says why. `compact` (the rails console's panel)
 * leaves out the day, the lines and the break summary.
 */
export function FilesTable({
  files,
  caption,
  compact = false,
}: {
  files: readonly SettlementFile[];
  caption: string;
  compact?: boolean;
}) {
  return (
    <div className="-mx-1 overflow-x-auto px-1">
      <table className="w-full min-w-[36rem] border-collapse">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 dark:border-slate-700">
          <tr>
            <th scope="col" className={headClass}>
              File
            </th>
            <th scope="col" className={headClass}>
              Rail
            </th>
            {!compact && (
              <th scope="col" className={headClass}>
                Day
              </th>
            )}
            <th scope="col" className={headClass}>
              Imported
            </th>
            {!compact && (
              <th scope="col" className={headClass}>
                Lines
              </th>
            )}
            <th scope="col" className={headClass}>
              Variance
            </th>
            <th scope="col" className={headClass}>
              Status
            </th>
            <th scope="col" className={headClass}>
              Result
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
          {files.map((file) => (
            <tr key={file.id} data-file-key={file.key}>
              <th scope="row" className={`${cellClass} max-w-56 break-all text-left font-medium`}>
                {file.filename}
                {file.rejection !== null ? (
                  <span className="block break-normal text-xs font-normal text-red-800 dark:text-red-300">
                    Not booked: {file.rejection}
                  </span>
                ) : (
                  !compact && (
                    <span className="block text-xs font-normal text-slate-600 dark:text-slate-300">
                      {breakSummary(file)}
                    </span>
                  )
                )}
              </th>
              <td className={cellClass}>{file.rail}</td>
              {!compact && <td className={`${cellClass} whitespace-nowrap tabular-nums`}>{file.date}</td>}
              <td className={`${cellClass} whitespace-nowrap tabular-nums`}>{utcTime(file.importedAt)}</td>
              {!compact && (
                <td className={`${cellClass} whitespace-nowrap tabular-nums`}>
                  {file.matched} of {file.lines} matched
                </td>
              )}
              <td className={cellClass}>
                <VarianceBar variance={file.variance} />
              </td>
              <td className={cellClass}>
                <FileStatusChip status={file.status} />
              </td>
              <td className={cellClass}>
                {file.downloadUrl ? (
                  <a className={linkButtonClass} href={file.downloadUrl} download>
                    Download<span className="sr-only"> the result of {file.filename}</span>
                  </a>
                ) : (
                  <span className="text-slate-600 dark:text-slate-300">Not available</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
