import type { MouseEvent } from "react";
import type { DashboardSubmission } from "../api/kycReview";
import { formatDateTime } from "../ledger/format";
import { formatInr, submittedAge } from "./format";
import { KycStatusBadge, PriorityBadge, RiskScore } from "./ui";

export type ListLayout = "list" | "grid";

interface SubmissionListProps {
  layout: ListLayout;
  submissions: readonly DashboardSubmission[];
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onToggleAll: () => void;
  onOpen: (id: string) => void;
}

const checkboxClass =
  "h-4 w-4 rounded border-slate-400 text-indigo-600 focus:ring-2 focus:ring-indigo-600 dark:border-slate-500";
const viewButtonClass =
  "inline-flex items-center rounded-lg px-3 py-1.5 text-sm font-semibold text-indigo-700 hover:bg-indigo-50 dark:text-indigo-300 dark:hover:bg-slate-800";

/** A row or card opens its submission on a click, unless the click was on one of its own controls. */
const opensOnClick = (id: string, onOpen: (id: string) => void) => ({
  "data-submission-id": id,
  onClick: (event: MouseEvent<HTMLElement>) => {
    if (event.target instanceof Element && event.target.closest("button, input, a, label")) return;
    onOpen(id);
  },
});

/**
 * The submissions as the table of docs/product/kyc.md#submission-list (Customer, Location, Status,
 * Risk Score, Amount, Priority, Submitted, Actions), scrolling inside its own container on narrow
 * screens, or as a grid of cards. Rows open the detail on click; the Review button does the same
 * for keyboard users.
 */
export function SubmissionList({ layout, submissions, selected, onToggle, onToggleAll, onOpen }: SubmissionListProps) {
  const now = Date.now();
  const allSelected = submissions.length > 0 && submissions.every((submission) => selected.has(submission.id));

  if (layout === "grid") {
    return (
      <ul aria-label="Submissions" className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-3">
        {submissions.map((submission) => (
          <li
            key={submission.id}
            {...opensOnClick(submission.id, onOpen)}
            className="cursor-pointer rounded-2xl border border-slate-200 bg-white p-4 hover:border-indigo-400 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-indigo-500"
          >
            <div className="flex items-start gap-3">
              <SelectBox submission={submission} selected={selected} onToggle={onToggle} className="mt-1" />
              <div className="min-w-0 flex-1">
                <p className="truncate font-semibold text-slate-900 dark:text-white">{submission.name}</p>
                <p className="truncate text-sm text-slate-600 dark:text-slate-300">{submission.email}</p>
                <p className="truncate text-sm text-slate-600 dark:text-slate-300">
                  {submission.location || submission.country}
                </p>
              </div>
              <RowStatus submission={submission} />
            </div>
            <dl className="mt-3 grid grid-cols-2 gap-2 text-sm">
              <div>
                <dt className="text-xs text-slate-600 dark:text-slate-400">Risk Score</dt>
                <dd>
                  <RiskScore score={submission.risk_score} level={submission.risk_level} />
                </dd>
              </div>
              <div>
                <dt className="text-xs text-slate-600 dark:text-slate-400">Amount</dt>
                <dd className="font-semibold tabular-nums text-slate-900 dark:text-white">
                  {formatInr(submission.amount)}
                </dd>
              </div>
              <div>
                <dt className="text-xs text-slate-600 dark:text-slate-400">Priority</dt>
                <dd>
                  <PriorityBadge priority={submission.priority} />
                </dd>
              </div>
              <div>
                <dt className="text-xs text-slate-600 dark:text-slate-400">Submitted</dt>
                <dd className="text-slate-900 dark:text-white" title={formatDateTime(submission.submitted_at)}>
                  {submittedAge(submission.submitted_at, now)}
                </dd>
              </div>
            </dl>
            <div className="mt-3 flex justify-end">
              <ReviewButton submission={submission} onOpen={onOpen} />
            </div>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <div
      className="overflow-x-auto rounded-2xl border border-slate-200 dark:border-slate-800"
      tabIndex={0}
      role="region"
      aria-label="Submissions table"
    >
      <table className="w-full min-w-[60rem] text-left text-sm">
        <caption className="sr-only">KYC submissions, newest first. Select a row to review it.</caption>
        <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-600 dark:bg-slate-900 dark:text-slate-400">
          <tr>
            <th scope="col" className="w-10 px-4 py-3">
              <input
                type="checkbox"
                className={checkboxClass}
                checked={allSelected}
                onChange={onToggleAll}
                aria-label="Select all shown submissions"
              />
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Customer
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Location
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Status
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Risk Score
            </th>
            <th scope="col" className="px-4 py-3 text-right font-semibold">
              Amount
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Priority
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Submitted
            </th>
            <th scope="col" className="px-4 py-3 text-right font-semibold">
              Actions
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 bg-white dark:divide-slate-800 dark:bg-slate-950">
          {submissions.map((submission) => (
            <tr
              key={submission.id}
              {...opensOnClick(submission.id, onOpen)}
              className="cursor-pointer hover:bg-slate-50 dark:hover:bg-slate-900"
            >
              <td className="px-4 py-3">
                <SelectBox submission={submission} selected={selected} onToggle={onToggle} />
              </td>
              <td className="max-w-[16rem] px-4 py-3">
                <p className="truncate font-semibold text-slate-900 dark:text-white">{submission.name}</p>
                <p className="truncate text-xs text-slate-600 dark:text-slate-400">{submission.email}</p>
              </td>
              <td className="max-w-[12rem] truncate px-4 py-3 text-slate-700 dark:text-slate-300">
                {submission.location || submission.country}
              </td>
              <td className="px-4 py-3">
                <RowStatus submission={submission} />
              </td>
              <td className="px-4 py-3">
                <RiskScore score={submission.risk_score} level={submission.risk_level} />
              </td>
              <td className="whitespace-nowrap px-4 py-3 text-right font-semibold tabular-nums text-slate-900 dark:text-white">
                {formatInr(submission.amount)}
              </td>
              <td className="px-4 py-3">
                <PriorityBadge priority={submission.priority} />
              </td>
              <td
                className="whitespace-nowrap px-4 py-3 text-slate-700 dark:text-slate-300"
                title={formatDateTime(submission.submitted_at)}
              >
                {submittedAge(submission.submitted_at, now)}
              </td>
              <td className="px-4 py-3 text-right">
                <ReviewButton submission={submission} onOpen={onOpen} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SelectBox({
  submission,
  selected,
  onToggle,
  className = "",
}: {
  submission: DashboardSubmission;
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  className?: string;
}) {
  return (
    <input
      type="checkbox"
      className={`${checkboxClass} ${className}`}
      checked={selected.has(submission.id)}
      onChange={() => onToggle(submission.id)}
      aria-label={`Select ${submission.name}`}
    />
  );
}

/** Opens the detail: named with whose submission it is, so a list of them reads well to a screen reader. */
function ReviewButton({ submission, onOpen }: { submission: DashboardSubmission; onOpen: (id: string) => void }) {
  return (
    <button
      type="button"
      className={viewButtonClass}
      onClick={() => onOpen(submission.id)}
      aria-label={`Review ${submission.name}`}
    >
      Review
    </button>
  );
}

/**
 * The status, whether a Request Info is waiting for the applicant (the ball is not with the
 * reviewers), and whether a re-score raised an alert on a decided submission (it is again).
 */
function RowStatus({ submission }: { submission: DashboardSubmission }) {
  return (
    <span className="inline-flex flex-col items-start gap-1">
      <KycStatusBadge status={submission.status} />
      {submission.info_requested && (
        <span className="whitespace-nowrap text-xs text-slate-600 dark:text-slate-400">Info requested</span>
      )}
      {submission.alert_open && (
        <span className="whitespace-nowrap rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800 dark:bg-red-950 dark:text-red-200">
          Alert: re-scored
        </span>
      )}
    </span>
  );
}
