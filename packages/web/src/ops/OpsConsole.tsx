import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Link } from "react-router-dom";
import { matchesOpsFilter, OPS_MESSAGES, type OpsFilter, type OpsRow } from "@fintech/core/ops/model";
import { errorMessage } from "../api/errors";
import { LockIcon } from "../components/icons";
import { secondaryButtonClass } from "../components/styles";
import { LiveIndicator } from "../ledger/live/LiveIndicator";
import { LoadError, Spinner, subtleTextClass } from "../ledger/ui";
import { OpsTiles, RailsTable } from "./Analytics";
import { OpsFilters } from "./Filters";
import { useOpsLive, useOpsOverview, useOpsViewer } from "./hooks";
import { OpsTablesView, type ShownTables } from "./OpsTables";
import { emptyTables, withLiveRow, withoutFresh, withOverview } from "./tables";

/** How long a row the feed brought stays highlighted. */
const FRESH_MS = 6_000;
/** The analytics are the overview's: after live rows they are asked again, once per this window. */
const ANALYTICS_AFTER_ROWS_MS = 5_000;

/**
 * /ops (docs/money-operations.md#ops-console): the live tables of journals, payments, KYC
 * submissions and reconciliation breaks, kept current by the administrators' ops feed on the
 * browser's one live connection (new rows highlighted, the connection's state beside the title),
 * filters, and the analytics. Administrators only: anyone else reads a plain explanation (the
 * server answers them 403).
 */
export function OpsConsole() {
  const { isAdmin } = useOpsViewer();
  return (
    <div className="mx-auto max-w-7xl space-y-6 px-4 py-8 sm:px-6">
      {isAdmin ? <AdminConsole /> : <Heading status={null} />}
      {!isAdmin && <NotAdmin />}
    </div>
  );
}

function Heading({ status }: { status: ReturnType<typeof useOpsLive> | null }) {
  return (
    <header className="flex min-w-0 flex-wrap items-end justify-between gap-4">
      <div className="min-w-0">
        <p className="text-sm font-semibold uppercase tracking-wide text-indigo-700 dark:text-indigo-300">
          Money operations
        </p>
        <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
          Ops console
        </h1>
        <p className={`mt-2 max-w-3xl ${subtleTextClass}`}>
          Every journal, payment and KYC submission as it happens, the reconciliation breaks still open, and how each
          rail is doing.
        </p>
      </div>
      {status && <LiveIndicator status={status} />}
    </header>
  );
}

function AdminConsole() {
  const overview = useOpsOverview(true);
  const [tables, setTables] = useState(emptyTables);
  const [filter, setFilter] = useState<OpsFilter>({});
  const [now, setNow] = useState(() => new Date());

  useEffect(() => {
    if (overview.data) setTables((current) => withOverview(current, overview.data));
  }, [overview.data]);

  const refetch = overview.refetch;
  const analyticsTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (analyticsTimer.current !== null) clearTimeout(analyticsTimer.current);
    },
    [],
  );
  const onRow = useCallback(
    (row: OpsRow) => {
      setTables((current) => withLiveRow(current, row));
      setNow(new Date());
      analyticsTimer.current ??= setTimeout(() => {
        analyticsTimer.current = null;
        void refetch();
      }, ANALYTICS_AFTER_ROWS_MS);
    },
    [refetch],
  );
  const onResumed = useCallback(() => void refetch(), [refetch]);
  const status = useOpsLive(true, onRow, onResumed);

  // A highlight fades after a while: the keys fresh now are cleared together once it has passed.
  const freshKeys = tables.fresh;
  useEffect(() => {
    if (freshKeys.length === 0) return;
    const timer = setTimeout(() => setTables((current) => withoutFresh(current, freshKeys)), FRESH_MS);
    return () => clearTimeout(timer);
  }, [freshKeys]);

  const shown = useMemo<ShownTables>(() => {
    const keep = <R extends OpsRow>(rows: R[]) => ({
      rows: rows.filter((row) => matchesOpsFilter(row, filter)),
      total: rows.length,
    });
    return {
      journal: keep(tables.journal),
      payment: keep(tables.payment),
      kyc: keep(tables.kyc),
      break: keep(tables.break),
    };
  }, [tables, filter]);
  const fresh = useMemo(() => new Set(tables.fresh), [tables.fresh]);

  return (
    <>
      <Heading status={status} />
      {overview.isError && !overview.data ? (
        <LoadError
          message={errorMessage(overview.error, "Failed to load the ops overview")}
          onRetry={() => void overview.refetch()}
        />
      ) : !overview.data ? (
        <p className={subtleTextClass}>
          <Spinner label="Loading the ops console…" />
        </p>
      ) : (
        <>
          <OpsTiles analytics={overview.data.analytics} />
          <OpsFilters filter={filter} rails={overview.data.analytics.rails} onChange={setFilter} />
          <OpsTablesView tables={shown} fresh={fresh} now={now} />
          <RailsTable analytics={overview.data.analytics} />
        </>
      )}
    </>
  );
}

function NotAdmin() {
  return (
    <section
      aria-labelledby="ops-not-admin"
      className="mx-auto mt-10 flex max-w-xl flex-col items-center rounded-2xl border border-slate-200 bg-white px-6 py-10 text-center dark:border-slate-800 dark:bg-slate-900"
    >
      <span className="flex h-12 w-12 items-center justify-center rounded-full bg-indigo-100 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300">
        <LockIcon width="24" height="24" />
      </span>
      <h2 id="ops-not-admin" className="mt-4 text-xl font-bold text-slate-900 dark:text-white">
        Administrators only
      </h2>
      <p className="mt-2 text-slate-700 dark:text-slate-300">{OPS_MESSAGES.adminOnly}.</p>
      <Link to="/ledger" className={`${secondaryButtonClass} mt-6`}>
        Go to the ledger
      </Link>
    </section>
  );
}
