import { useRef, type KeyboardEvent } from "react";
import { tabIndexForKey } from "../ledger/tabs";

export interface TabItem<T extends string> {
  id: T;
  label: string;
}

interface TabListProps<T extends string> {
  tabs: readonly TabItem<T>[];
  current: T;
  onSelect: (tab: T) => void;
  /** The tablist's accessible name. */
  label: string;
  /** The element ids of a tab and of the panel it controls. */
  tabId: (tab: T) => string;
  panelId: (tab: T) => string;
}

/**
 * A horizontal tablist (WAI-ARIA tabs, automatic activation): one tab stop, Left/Right wrap,
 * Home/End jump; the selected tab controls the one rendered panel. Scrolls sideways on a phone
 * rather than widening the page.
 */
export function TabList<T extends string>({ tabs, current, onSelect, label, tabId, panelId }: TabListProps<T>) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const currentIndex = tabs.findIndex((tab) => tab.id === current);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next = tabIndexForKey(event.key, currentIndex, tabs.length);
    if (next === null) return;
    event.preventDefault();
    onSelect(tabs[next]!.id);
    refs.current[next]?.focus();
  };

  return (
    <div
      role="tablist"
      aria-label={label}
      onKeyDown={onKeyDown}
      className="flex gap-1 overflow-x-auto rounded-xl border border-slate-200 bg-slate-100 p-1 dark:border-slate-800 dark:bg-slate-900"
    >
      {tabs.map((tab, index) => {
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
            className={`min-w-max flex-1 rounded-lg px-1.5 py-2 text-[13px] font-semibold sm:px-3 sm:text-sm motion-safe:transition-colors ${
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
