import { TabList } from "../components/TabList";

/** The demo's six tabs, in the product's order. */
export const DEMO_TABS = [
  { id: "overview", label: "Overview" },
  { id: "payments", label: "Payment Monitor" },
  { id: "risk", label: "Risk Monitoring" },
  { id: "reconciliation", label: "Reconciliation" },
  { id: "webhooks", label: "Webhook Debug" },
  { id: "connection", label: "Connection Test" },
] as const;
export type DemoTab = (typeof DEMO_TABS)[number]["id"];

export const demoTabId = (tab: DemoTab) => `demo-tab-${tab}`;
export const demoPanelId = (tab: DemoTab) => `demo-panel-${tab}`;

/** The demo's tablist; the selected tab controls the one rendered panel. */
export function DemoTabs({ current, onSelect }: { current: DemoTab; onSelect: (tab: DemoTab) => void }) {
  return (
    <TabList
      tabs={DEMO_TABS}
      current={current}
      onSelect={onSelect}
      label="Streaming demo sections"
      tabId={demoTabId}
      panelId={demoPanelId}
    />
  );
}
