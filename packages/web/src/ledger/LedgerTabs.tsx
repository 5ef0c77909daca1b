import { TabList } from "../components/TabList";
import { LEDGER_TABS, panelId, tabId, type LedgerTab } from "./tabs";

/** The workspace's tablist; the selected tab controls the one rendered panel. */
export function LedgerTabs({ current, onSelect }: { current: LedgerTab; onSelect: (tab: LedgerTab) => void }) {
  return (
    <TabList
      tabs={LEDGER_TABS}
      current={current}
      onSelect={onSelect}
      label="Ledger sections"
      tabId={tabId}
      panelId={panelId}
    />
  );
}
