import { useIsFetching } from "@tanstack/react-query";
import { useRef, useState, type KeyboardEvent } from "react";
import { Link, useSearchParams } from "react-router-dom";
import { REVIEW_PERIODS, type DashboardFilters, type ReviewPeriod } from "../api/kycReview";
import { LockIcon } from "../components/icons";
import { inputClass, secondaryButtonClass } from "../components/styles";
import { tabIndexForKey } from "../ledger/tabs";
import { Spinner } from "../ledger/ui";
import { REVIEW_MESSAGES } from "./actions";
import { filtersFromSearch, filtersToSearch, PERIOD_LABELS } from "./format";
import { useInvalidateReview, useReviewer } from "./hooks";
import { RulesTab } from "./RulesTab";
import { SubmissionsPanel } from "./SubmissionsPanel";

const TABS = [
  { id: "submissions", label: "Submissions" },
  { id: "rules", label: "Rules" },
] as const;
type DashboardTab = (typeof TABS)[number]["id"];
const tabId = (tab: DashboardTab) => `kyc-tab-${tab}`;
const panelId = (tab: DashboardTab) => `kyc-panel-${tab}`;

/**
 * /kyc/dashboard, KYC Management (docs/product/kyc.md#dashboard): reviewers' submissions with real stats for the
 * chosen period, filters kept in the URL (a link shares the view), and the Rules tab. Only
 * admins see the content; anyone else gets a plain explanation (the server answers them 403).
 */
export function KycDashboard() {
  const { isAdmin, userId } = useReviewer();
  const [search, setSearch] = useSearchParams();
  const filters = filtersFromSearch(search);
  const [tab, setTab] = useState<DashboardTab>("submissions");
  const invalidate = useInvalidateReview();
  const refreshing = useIsFetching({ queryKey: ["kyc-review", userId] }) > 0;
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);

  const writeFilters = (next: DashboardFilters) => setSearch(filtersToSearch(next), { replace: true });
  const changeFilters = (change: Partial<DashboardFilters>) => writeFilters({ ...filters, ...change });

  const onTabKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const current = TABS.findIndex((entry) => entry.id === tab);
    const next = tabIndexForKey(event.key, current, TABS.length);
    if (next === null) return;
    event.preventDefault();
    setTab(TABS[next]!.id);
    tabRefs.current[next]?.focus();
  };

  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <p className="text-sm font-semibold uppercase tracking-wide text-indigo-700 dark:text-indigo-300">
            Identity review
          </p>
          <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
            KYC Management
          </h1>
        </div>
        {isAdmin && (
          <div className="flex flex-wrap items-end gap-2">
            {/* The period scopes the submissions and their stats; the rules have none. */}
            <div hidden={tab !== "submissions"}>
              <label htmlFor="kyc-period" className="sr-only">
                Period
              </label>
              <select
                id="kyc-period"
                className={`${inputClass} w-auto`}
                value={filters.period}
                onChange={(event) => changeFilters({ period: event.target.value as ReviewPeriod })}
              >
                {REVIEW_PERIODS.map((period) => (
                  <option key={period} value={period}>
                    {PERIOD_LABELS[period]}
                  </option>
                ))}
              </select>
            </div>
            <button
              type="button"
              className={secondaryButtonClass}
              onClick={() => void invalidate()}
              disabled={refreshing}
              aria-label="Refresh"
            >
              {refreshing ? <Spinner label="Refresh" /> : "Refresh"}
            </button>
          </div>
        )}
      </header>

      {!isAdmin ? (
        <NotAdmin />
      ) : (
        <div className="mt-6">
          <div
            role="tablist"
            aria-label="KYC Management sections"
            onKeyDown={onTabKey}
            className="inline-flex gap-1 rounded-xl border border-slate-200 bg-slate-100 p-1 dark:border-slate-800 dark:bg-slate-900"
          >
            {TABS.map((entry, index) => {
              const selected = entry.id === tab;
              return (
                <button
                  key={entry.id}
                  ref={(element) => {
                    tabRefs.current[index] = element;
                  }}
                  id={tabId(entry.id)}
                  type="button"
                  role="tab"
                  aria-selected={selected}
                  aria-controls={selected ? panelId(entry.id) : undefined}
                  tabIndex={selected ? 0 : -1}
                  onClick={() => setTab(entry.id)}
                  className={`rounded-lg px-4 py-2 text-sm font-semibold ${
                    selected
                      ? "bg-white text-indigo-700 shadow-sm dark:bg-indigo-500/25 dark:text-white dark:ring-1 dark:ring-indigo-400/60"
                      : "text-slate-700 hover:bg-white/70 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800/70 dark:hover:text-white"
                  }`}
                >
                  {entry.label}
                </button>
              );
            })}
          </div>
          <div id={panelId(tab)} role="tabpanel" aria-labelledby={tabId(tab)} className="mt-6">
            {tab === "submissions" ? (
              <SubmissionsPanel
                filters={filters}
                onFilters={changeFilters}
                onClearFilters={() => writeFilters({ period: filters.period })}
              />
            ) : (
              <RulesTab />
            )}
          </div>
        </div>
      )}
    </div>
  );
}

function NotAdmin() {
  return (
    <section
      aria-labelledby="kyc-not-admin"
      className="mx-auto mt-10 flex max-w-xl flex-col items-center rounded-2xl border border-slate-200 bg-white px-6 py-10 text-center dark:border-slate-800 dark:bg-slate-900"
    >
      <span className="flex h-12 w-12 items-center justify-center rounded-full bg-indigo-100 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300">
        <LockIcon width="24" height="24" />
      </span>
      <h2 id="kyc-not-admin" className="mt-4 text-xl font-bold text-slate-900 dark:text-white">
        Reviewers only
      </h2>
      <p className="mt-2 text-slate-700 dark:text-slate-300">{REVIEW_MESSAGES.notAdmin}</p>
      <Link to="/kyc" className={`${secondaryButtonClass} mt-6`}>
        Go to your KYC verification
      </Link>
    </section>
  );
}
