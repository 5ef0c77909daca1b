import { MAX_PAGE_SIZE } from "@fintech/core/reconciliation/model";
import { useState } from "react";
import { Link } from "react-router-dom";
import { errorMessage } from "../api/errors";
import { LockIcon } from "../components/icons";
import { secondaryButtonClass } from "../components/styles";
import { cardClass, EmptyState, LoadError, sectionTitleClass, Spinner, subtleTextClass } from "../ledger/ui";
import { BreaksPanel } from "./BreaksPanel";
import { FilesTable } from "./FilesTable";
import { countText, fileTiles, RECON_SCREEN_MESSAGES, utcDay } from "./format";
import { FILES_PAGE, useBreaks, useReconViewer, useSettlementFiles } from "./hooks";
import { PositionsPanel } from "./PositionsPanel";
import { UploadPanel } from "./UploadPanel";

/**
 * /reconciliation (docs/money-operations.md#reconciliation-screens-and-cloud-wiring): tiles, the
 * settlement files with their variance and result CSV, the upload of a file, the breaks with
 * their resolution, and the rails' clearing positions. Administrators only: anyone else reads a
 * plain explanation (the server answers them 403).
 */
export function ReconciliationConsole() {
  const { isAdmin } = useReconViewer();
  const [today] = useState(() => utcDay(new Date()));

  return (
    <div className="mx-auto max-w-7xl space-y-6 px-4 py-8 sm:px-6">
      <header className="min-w-0">
        <p className="text-sm font-semibold uppercase tracking-wide text-indigo-700 dark:text-indigo-300">
          Money operations
        </p>
        <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
          Reconciliation
        </h1>
        <p className={`mt-2 max-w-3xl ${subtleTextClass}`}>
          Each rail's settlement file matched line by line against the ledger: what reconciled, what broke, and whether
          each rail's clearing account nets to zero.
        </p>
      </header>
      {isAdmin ? <AdminConsole today={today} /> : <NotAdmin />}
    </div>
  );
}

function AdminConsole({ today }: { today: string }) {
  const files = useSettlementFiles({ limit: FILES_PAGE });
  const openBreaks = useBreaks({ status: "open", limit: MAX_PAGE_SIZE });
  const shown = files.data?.pages.flatMap((page) => page.files) ?? [];
  const tiles = fileTiles(shown, today);
  const moreFiles = files.hasNextPage === true;
  const openCount = openBreaks.data?.pages[0]?.breaks.length;

  return (
    <>
      <dl aria-label="Summary" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Tile label="Files today" value={files.data ? String(tiles.importedToday) : "…"} note="Imported today (UTC)" />
        <Tile
          label="Auto-Reconciled"
          value={files.data ? countText(tiles.autoReconciled, moreFiles) : "…"}
          note="Variance under 0.1%"
        />
        <Tile
          label="Requires Review"
          value={files.data ? countText(tiles.requiresReview, moreFiles) : "…"}
          note={
            files.data && tiles.warnings > 0
              ? `Variance 1% or more · ${tiles.warnings} in the warning band`
              : "Variance 1% or more"
          }
        />
        <Tile
          label="Open breaks"
          value={openCount === undefined ? "…" : countText(openCount, Boolean(openBreaks.data?.pages[0]?.nextCursor))}
          note="Waiting for a match or a write-off"
        />
      </dl>

      <UploadPanel today={today} />

      <section aria-labelledby="recon-files-heading" className={`${cardClass} min-w-0`}>
        <h2 id="recon-files-heading" className={sectionTitleClass}>
          Settlement files
        </h2>
        <p className={`mt-1 ${subtleTextClass}`}>
          Newest first. Variance is |file total − matched ledger total| / file total; the result CSV lists every line
          with its class.
        </p>
        <div className="mt-4">
          {files.isError && !files.data ? (
            <LoadError
              message={errorMessage(files.error, "Failed to load the settlement files")}
              onRetry={() => void files.refetch()}
            />
          ) : !files.data ? (
            <p className={subtleTextClass}>
              <Spinner label="Loading the settlement files…" />
            </p>
          ) : shown.length === 0 ? (
            <EmptyState title="No settlement file has been reconciled yet">
              Files dropped by a rail's processor or uploaded here appear once reconciled.
            </EmptyState>
          ) : (
            <FilesTable files={shown} caption="Settlement files" />
          )}
          {moreFiles && (
            <button
              type="button"
              className={`${secondaryButtonClass} mt-3`}
              disabled={files.isFetchingNextPage}
              onClick={() => void files.fetchNextPage()}
            >
              {files.isFetchingNextPage ? <Spinner label="Loading more files…" /> : "Show more files"}
            </button>
          )}
        </div>
      </section>

      <BreaksPanel />
      <PositionsPanel today={today} />
    </>
  );
}

function Tile({ label, value, note }: { label: string; value: string; note: string }) {
  return (
    <div className={`${cardClass} min-w-0 !p-4`}>
      <dt className="text-sm font-medium text-slate-600 dark:text-slate-300">{label}</dt>
      <dd className="mt-1 text-xl font-bold tabular-nums text-slate-900 dark:text-white">{value}</dd>
      <dd className="mt-1 text-xs text-slate-600 dark:text-slate-300">{note}</dd>
    </div>
  );
}

function NotAdmin() {
  return (
    <section
      aria-labelledby="recon-not-admin"
      className="mx-auto mt-10 flex max-w-xl flex-col items-center rounded-2xl border border-slate-200 bg-white px-6 py-10 text-center dark:border-slate-800 dark:bg-slate-900"
    >
      <span className="flex h-12 w-12 items-center justify-center rounded-full bg-indigo-100 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300">
        <LockIcon width="24" height="24" />
      </span>
      <h2 id="recon-not-admin" className="mt-4 text-xl font-bold text-slate-900 dark:text-white">
        Administrators only
      </h2>
      <p className="mt-2 text-slate-700 dark:text-slate-300">{RECON_SCREEN_MESSAGES.notAdmin}</p>
      <Link to="/payment-rails" className={`${secondaryButtonClass} mt-6`}>
        Go to the payment rails
      </Link>
    </section>
  );
}
