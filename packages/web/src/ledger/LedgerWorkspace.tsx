import { useCallback, useEffect, useRef, useState } from "react";
import { useLocation, useSearchParams } from "react-router-dom";
import { writeErrorMessage } from "./actionErrors";
import { AccountsTab } from "./AccountsTab";
import { AnalyticsTab } from "./AnalyticsTab";
import { ConnectAccountWizard } from "./ConnectAccountWizard";
import { DepositApprovalQueue } from "./DepositApprovals";
import { DepositForm } from "./DepositForm";
import { greeting, useFirstVisit } from "./firstVisit";
import { IntegrityPanel } from "./IntegrityPanel";
import { useInvalidateLedger, useLedgerAccounts, useTransactionHistory } from "./hooks";
import { LedgerTabs } from "./LedgerTabs";
import { LimitBanner } from "../limits/LimitBanner";
import { LiveIndicator } from "./live/LiveIndicator";
import { useLedgerLiveFeed } from "./live/useLedgerLiveFeed";
import { OverviewTab } from "./OverviewTab";
import { panelId, tabFromSearch, tabId, type LedgerMode, type LedgerTab } from "./tabs";
import { filtersFromSearch, hasFilters } from "./transactions";
import { TransactionsTab } from "./TransactionsTab";
import { TransferWizard } from "./TransferWizard";
import { LoadError, Spinner, subtleTextClass } from "./ui";
import { useSession } from "../session/hooks";
import { displayName } from "../session/sessionUser";

/**
 * The ledger workspace (docs/product/ledger-workspace.md#workspace): a greeting, four tabs, and
 * sub-views (connect account, transfer, deposit) chosen by a mode value rather than a URL.
 */
export function LedgerWorkspace() {
  const session = useSession();
  const user = session?.user ?? null;
  const [search] = useSearchParams();
  // A link naming a tab (?tab=analytics) opens it; one with transaction filters (?status=draft…) the Transactions tab.
  const requestedTab = tabFromSearch(search);
  const [tab, setTab] = useState<LedgerTab>(
    () => requestedTab ?? (hasFilters(filtersFromSearch(search)) ? "transactions" : "overview"),
  );
  // Following such a link again while the workspace is open (the menu's Analytics entry) selects the tab again.
  const { key: locationKey } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: locationKey is the trigger (see above).
  useEffect(() => {
    if (requestedTab) setTab(requestedTab);
  }, [requestedTab, locationKey]);
  const [mode, setMode] = useState<LedgerMode | null>(null);
  const [modeAccountId, setModeAccountId] = useState<string | null>(null);
  const [selectedAccountId, setSelectedAccountId] = useState<string | null>(null);
  const accounts = useLedgerAccounts();
  const history = useTransactionHistory();
  const invalidate = useInvalidateLedger();
  // Subscribed while the workspace is open: other tabs' and the server's changes show here live.
  const liveStatus = useLedgerLiveFeed();
  const restoreFocus = useRef(false);

  const openMode = useCallback((next: LedgerMode, accountId: string | null = null) => {
    setModeAccountId(accountId);
    setMode(next);
    window.scrollTo({ top: 0 });
  }, []);

  const closeMode = useCallback((nextTab?: LedgerTab) => {
    setMode(null);
    if (nextTab) setTab(nextTab);
    restoreFocus.current = true;
  }, []);

  // Leaving a sub-view puts focus back on the selected tab.
  useEffect(() => {
    if (mode === null && restoreFocus.current) {
      restoreFocus.current = false;
      document.getElementById(tabId(tab))?.focus();
    }
  }, [mode, tab]);

  // The wizard closes on the accounts tab, with the list reloaded and the new account open.
  const onConnected = useCallback(
    (accountId: string) => {
      setSelectedAccountId(accountId);
      closeMode("accounts");
      void invalidate();
    },
    [closeMode, invalidate],
  );

  const firstName = user?.firstName.trim() || "Friend";
  const accountList = accounts.data ?? [];
  const firstVisit = useFirstVisit(user?.id ?? null, accountList.length > 0);

  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <p className="text-sm font-semibold uppercase tracking-wide text-indigo-700 dark:text-indigo-300">
            Ledger workspace
          </p>
          <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
            {greeting(firstName, firstVisit)}
          </h1>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <p className="inline-flex items-center gap-2 rounded-full border border-slate-200 bg-white px-3 py-1.5 text-sm text-slate-700 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-200">
            <span aria-hidden="true" className={`h-2 w-2 rounded-full ${user ? "bg-emerald-500" : "bg-slate-400"}`} />
            {user ? `Authenticated as ${displayName(user)}` : "Not Authenticated"}
          </p>
          {user && <LiveIndicator status={liveStatus} />}
        </div>
      </header>
      <div className="mt-6">
        <LimitBanner currencies={accountList.map((account) => account.currency)} />
      </div>

      <div className="mt-6">
        {accounts.isError ? (
          <LoadError
            message={writeErrorMessage(accounts.error, "Failed to load your accounts")}
            onRetry={() => void accounts.refetch()}
          />
        ) : accounts.isPending && mode !== null ? (
          <p className={subtleTextClass}>
            <Spinner label="Loading your accounts…" />
          </p>
        ) : mode === "account" ? (
          <ConnectAccountWizard onClose={() => closeMode()} onConnected={onConnected} />
        ) : mode === "transfer" ? (
          <TransferWizard accounts={accountList} fromId={modeAccountId} onClose={() => closeMode("overview")} />
        ) : mode === "deposit" ? (
          <DepositForm
            accounts={accountList}
            accountId={modeAccountId}
            onClose={() => closeMode("overview")}
            onConnect={() => openMode("account")}
          />
        ) : (
          <>
            <LedgerTabs current={tab} onSelect={setTab} />
            <div
              id={panelId(tab)}
              role="tabpanel"
              aria-labelledby={tabId(tab)}
              tabIndex={0}
              className="mt-6 rounded-2xl outline-none focus-visible:outline-2"
            >
              {accounts.isPending ? (
                <p className={subtleTextClass}>
                  <Spinner label="Loading your ledger…" />
                </p>
              ) : tab === "overview" ? (
                <OverviewTab
                  accounts={accountList}
                  history={history.data}
                  historyFailed={history.isError}
                  onAction={(next) => openMode(next)}
                  onOpenAccount={(accountId) => {
                    setSelectedAccountId(accountId);
                    setTab("accounts");
                  }}
                  onShowAccounts={() => setTab("accounts")}
                  onShowTransactions={() => setTab("transactions")}
                />
              ) : tab === "accounts" ? (
                <AccountsTab
                  accounts={accountList}
                  selectedId={selectedAccountId}
                  onSelect={setSelectedAccountId}
                  onConnect={() => openMode("account")}
                  onTransfer={(accountId) => openMode("transfer", accountId)}
                  onDeposit={(accountId) => openMode("deposit", accountId)}
                />
              ) : tab === "transactions" ? (
                <TransactionsTab accounts={accountList} />
              ) : (
                <AnalyticsTab />
              )}
            </div>
            {/* The whole-ledger check; the server refuses its routes to anyone else. */}
            {user?.role === "admin" && <IntegrityPanel />}
            <DepositApprovalQueue />
          </>
        )}
      </div>
    </div>
  );
}
