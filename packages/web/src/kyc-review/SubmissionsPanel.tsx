import { useMemo, useState } from "react";
import toast from "react-hot-toast";
import { kycReviewApi, type DashboardFilters } from "../api/kycReview";
import { primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { NARROW_SCREEN_QUERY, useMediaQuery } from "../components/useMediaQuery";
import { saveFile } from "../ledger/download";
import { EmptyState, errorTextClass, Spinner, subtleTextClass } from "../ledger/ui";
import { actionErrorMessage, keepVisible, REVIEW_MESSAGES, toggled, toggledAll } from "./actions";
import { BulkActionsDialog } from "./BulkActionsDialog";
import { exportFilename, formatProcessingTime, hasNarrowingFilters, showingText } from "./format";
import { FiltersBar } from "./FiltersBar";
import { useCountryOptions, useDashboardPages, useDashboardStats, useInvalidateReview } from "./hooks";
import { StatCards } from "./StatCards";
import { SubmissionDetail } from "./SubmissionDetail";
import { SubmissionList, type ListLayout } from "./SubmissionList";

interface SubmissionsPanelProps {
  filters: DashboardFilters;
  onFilters: (change: Partial<DashboardFilters>) => void;
  onClearFilters: () => void;
}

const toggleClass = (active: boolean) =>
  `rounded-md px-3 py-1.5 text-sm font-semibold ${
    active
      ? "bg-white text-indigo-700 shadow-sm dark:bg-indigo-500/25 dark:text-white"
      : "text-slate-700 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white"
  }`;

/**
 * The submissions side of the dashboard: the period's stat cards, the filters, the list or grid
 * with selection, the footer (Showing X of Y, average processing time, Load more, Export Report,
 * Bulk Actions) and the detail modal. A failed load shows an empty list, zeroed stats and N/A
 * (docs/product/kyc.md#submission-list), with the reason and a retry.
 */
export function SubmissionsPanel({ filters, onFilters, onClearFilters }: SubmissionsPanelProps) {
  const pages = useDashboardPages(filters);
  const stats = useDashboardStats(filters.period);
  const countries = useCountryOptions();
  const invalidate = useInvalidateReview();
  // Until the reviewer picks one: cards on a phone (every action in reach), the table elsewhere.
  const narrow = useMediaQuery(NARROW_SCREEN_QUERY);
  const [chosenLayout, setLayout] = useState<ListLayout | null>(null);
  const layout = chosenLayout ?? (narrow ? "grid" : "list");
  const [selection, setSelection] = useState<ReadonlySet<string>>(new Set());
  const [openId, setOpenId] = useState<string | null>(null);
  /** The selection as it was when Bulk Actions opened (ids and names): a reload under the dialog does not change it. */
  const [bulkSelection, setBulkSelection] = useState<ReadonlyMap<string, string> | null>(null);
  const [exporting, setExporting] = useState(false);

  const submissions = useMemo(
    () => (pages.isError ? [] : (pages.data?.pages.flatMap((page) => page.data) ?? [])),
    [pages.data, pages.isError],
  );
  const visibleIds = useMemo(() => submissions.map((submission) => submission.id), [submissions]);
  // Only rows on screen can be acted on: a filter change or a reload drops the others.
  const selected = useMemo(() => keepVisible(selection, visibleIds), [selection, visibleIds]);
  const firstPage = pages.isError ? undefined : pages.data?.pages[0];
  // A failed load reads as zeroed stats and N/A (docs/product/kyc.md#submission-list), never as the previous figures.
  const shownStats = stats.isError ? null : (stats.data ?? null);
  const opened = submissions.find((submission) => submission.id === openId);

  const exportReport = async () => {
    if (exporting) return;
    setExporting(true);
    try {
      const file = await kycReviewApi.exportCsv(filters);
      saveFile(file.blob, exportFilename(file.filename));
      toast.success("Report downloaded");
    } catch (error) {
      toast.error(actionErrorMessage(error, REVIEW_MESSAGES.exportFailed));
    } finally {
      setExporting(false);
    }
  };

  const openBulk = () => {
    if (selected.size === 0) toast.error(REVIEW_MESSAGES.noSelection);
    else
      setBulkSelection(
        new Map(
          submissions
            .filter((submission) => selected.has(submission.id))
            .map((submission) => [submission.id, submission.name]),
        ),
      );
  };

  const afterChange = () => {
    setOpenId(null);
    void invalidate();
  };

  return (
    <div className="space-y-4">
      <StatCards stats={shownStats} period={filters.period} loading={stats.isFetching} />
      {stats.isError && (
        <p role="alert" className={errorTextClass}>
          {actionErrorMessage(stats.error, REVIEW_MESSAGES.statsFailed)}
        </p>
      )}

      <FiltersBar filters={filters} countries={countries.data ?? []} onChange={onFilters} onClear={onClearFilters} />

      <div className="flex flex-wrap items-center justify-between gap-3">
        <div
          role="group"
          aria-label="Layout"
          className="inline-flex rounded-lg border border-slate-200 bg-slate-100 p-1 dark:border-slate-800 dark:bg-slate-900"
        >
          <button
            type="button"
            aria-pressed={layout === "list"}
            className={toggleClass(layout === "list")}
            onClick={() => setLayout("list")}
          >
            List
          </button>
          <button
            type="button"
            aria-pressed={layout === "grid"}
            className={toggleClass(layout === "grid")}
            onClick={() => setLayout("grid")}
          >
            Grid
          </button>
        </div>
        <p className={subtleTextClass} aria-live="polite">
          {selected.size > 0 ? `${selected.size} selected` : "None selected"}
        </p>
      </div>

      {pages.isError && (
        <div
          role="alert"
          className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-red-200 bg-red-50 p-4 dark:border-red-900 dark:bg-red-950/60"
        >
          <p className={errorTextClass}>{actionErrorMessage(pages.error, REVIEW_MESSAGES.loadFailed)}</p>
          <button
            type="button"
            // The stats most likely failed with the list: both are asked again.
            onClick={() => {
              void pages.refetch();
              if (stats.isError) void stats.refetch();
            }}
            className="text-sm font-semibold text-red-800 underline dark:text-red-200"
          >
            Try again
          </button>
        </div>
      )}

      {pages.isPending ? (
        <p className={subtleTextClass}>
          <Spinner label="Loading submissions…" />
        </p>
      ) : submissions.length === 0 ? (
        <EmptyState
          title={REVIEW_MESSAGES.empty}
          action={
            hasNarrowingFilters(filters) ? (
              <button type="button" className={secondaryButtonClass} onClick={onClearFilters}>
                Clear filters
              </button>
            ) : undefined
          }
        />
      ) : (
        <>
          {layout === "grid" && (
            <label className="inline-flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
              <input
                type="checkbox"
                className="h-4 w-4 rounded border-slate-400"
                checked={visibleIds.every((id) => selected.has(id))}
                onChange={() => setSelection(toggledAll(selected, visibleIds))}
              />
              Select all shown
            </label>
          )}
          <SubmissionList
            layout={layout}
            submissions={submissions}
            selected={selected}
            onToggle={(id) => setSelection(toggled(selected, id))}
            onToggleAll={() => setSelection(toggledAll(selected, visibleIds))}
            onOpen={setOpenId}
          />
          {pages.hasNextPage && (
            <div className="flex justify-center">
              <button
                type="button"
                className={secondaryButtonClass}
                onClick={() => void pages.fetchNextPage()}
                disabled={pages.isFetchingNextPage}
              >
                {pages.isFetchingNextPage ? <Spinner label="Loading more…" /> : "Load more submissions"}
              </button>
            </div>
          )}
        </>
      )}

      <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 pt-4 dark:border-slate-800">
        <div className={subtleTextClass}>
          <p aria-live="polite">
            {showingText(submissions.length, firstPage?.total ?? 0, firstPage?.total_capped ?? false)}
          </p>
          <p>Average processing time: {formatProcessingTime(shownStats?.average_processing_time)}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className={secondaryButtonClass}
            onClick={() => void exportReport()}
            disabled={exporting}
          >
            {exporting ? <Spinner label="Exporting…" /> : "Export Report"}
          </button>
          <button type="button" className={primaryButtonClass} onClick={openBulk} aria-haspopup="dialog">
            Bulk Actions{selected.size > 0 ? ` (${selected.size})` : ""}
          </button>
        </div>
      </div>

      {openId && (
        <SubmissionDetail
          key={openId}
          id={openId}
          shown={opened}
          onClose={() => setOpenId(null)}
          onChanged={afterChange}
          onOpen={setOpenId}
        />
      )}
      {bulkSelection && (
        <BulkActionsDialog
          selection={bulkSelection}
          onClose={() => setBulkSelection(null)}
          onDone={() => {
            setSelection(new Set());
            void invalidate();
          }}
        />
      )}
    </div>
  );
}
