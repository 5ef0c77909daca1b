import { useRef, type KeyboardEvent } from "react";
import { LEDGER_TABS, panelId, tabId, tabIndexForKey, type LedgerTab } from "./tabs";

interface LedgerTabsProps {
  current: LedgerTab;
  onSelect: (tab: LedgerTab) => void;
}

/**
 * The workspace's tablist (WAI-ARIA tabs, automatic activation): one tab stop, Left/Right wrap,
 * Home/End jump; the selected tab controls the one rendered panel.
 */
export function LedgerTabs({ current, onSelect }: LedgerTabsProps) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const currentIndex = LEDGER_TABS.findIndex((tab) => tab.id === current);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next = tabIndexForKey(event.key, currentIndex, LEDGER_TABS.length);
    if (next === null) return;
    event.preventDefault();
    onSelect(LEDGER_TABS[next]!.id);
    refs.current[next]?.focus();
  };

  return (
    <div
      role="tablist"
      aria-label="Ledger sections"
      onKeyDown={onKeyDown}
      className="flex gap-1 overflow-x-auto rounded-xl border border-slate-200 bg-slate-100 p-1 dark:border-slate-800 dark:bg-slate-900"
    >
      {LEDGER_TABS.map((tab, index) => {
        const selected = tab.id === current;
        return (
          <button
            key={tab.id}
            ref={(element) => {
              refs.current[index] = element;
            }}
            id={tabId(tab.id)}
            type="button"
            role="tab"
            aria-selected={selected}
            aria-controls={selected ? panelId(tab.id) : undefined}
            tabIndex={selected ? 0 : -1}
            onClick={() => onSelect(tab.id)}
            className={`min-w-max flex-1 rounded-lg px-1.5 py-2 text-[13px] font-semibold sm:px-4 sm:text-sm motion-safe:transition-colors ${
              selected
                ? "bg-white text-indigo-700 shadow-sm dark:bg-indigo-500/25 dark:text-white dark:ring-1 dark:ring-indigo-400/60"
                : "text-slate-700 hover:bg-white/70 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800/70 dark:hover:text-white"
            }`}
          >
            {tab.label}
          </button>
        );
      })}
    </div>
  );
}
