/**
 * The workspace's four tabs (docs/product/ledger-workspace.md#workspace) and their keyboard model
 * (WAI-ARIA tabs pattern).
 */
export const LEDGER_TABS = [
  { id: "overview", label: "Overview" },
  { id: "accounts", label: "Accounts" },
  { id: "transactions", label: "Transactions" },
  { id: "analytics", label: "Analytics" },
] as const;
export type LedgerTab = (typeof LEDGER_TABS)[number]["id"];

/** The query parameter a link uses to open a tab (/ledger?tab=analytics). */
export const TAB_PARAM = "tab";

/** The tab a link asks for, or null when it names none (or one that does not exist). */
export function tabFromSearch(search: URLSearchParams): LedgerTab | null {
  const requested = search.get(TAB_PARAM);
  return LEDGER_TABS.find((tab) => tab.id === requested)?.id ?? null;
}

/** Sub-views replacing the tabs, chosen by a mode value (no URL): connect account, transfer, deposit. */
export type LedgerMode = "account" | "transfer" | "deposit";

/**
 * The tab index a key moves to from `current`, or null for keys the tablist does not handle.
 * The tablist is horizontal: Left and Right wrap around; Home and End jump to the ends.
 */
export function tabIndexForKey(key: string, current: number, count: number): number | null {
  if (count <= 0) return null;
  switch (key) {
    case "ArrowRight":
      return (current + 1) % count;
    case "ArrowLeft":
      return (current - 1 + count) % count;
    case "Home":
      return 0;
    case "End":
      return count - 1;
    default:
      return null;
  }
}

export const tabId = (tab: LedgerTab) => `ledger-tab-${tab}`;
export const panelId = (tab: LedgerTab) => `ledger-panel-${tab}`;
