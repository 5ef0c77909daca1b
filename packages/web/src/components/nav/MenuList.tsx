import { useEffect, useRef, type KeyboardEvent, type MutableRefObject } from "react";
import { Link } from "react-router-dom";
import { ChevronRightIcon } from "../icons";
import { menuKeyTarget } from "./menuKeyboard";
import type { NavEntry } from "./navModel";
import type { NavMenuDispatch, NavMenuState } from "./useNavMenus";

/** A navigation entry, or a command such as Sign Out. */
export type MenuEntry = NavEntry | { kind: "action"; label: string; onSelect: () => void };

interface MenuListProps {
  domId: string;
  labelledBy: string;
  entries: MenuEntry[];
  state: NavMenuState;
  dispatch: NavMenuDispatch;
  /** id of the menu whose first item should take focus once it appears (keyboard opening). */
  pendingFocus: MutableRefObject<string | null>;
  nested?: boolean;
}

const itemClass =
  "flex w-full items-start justify-between gap-3 rounded-lg px-3 py-2 text-left text-sm text-slate-800 outline-none " +
  "hover:bg-slate-100 focus:bg-slate-100 dark:text-slate-100 dark:hover:bg-slate-800 dark:focus:bg-slate-800";

function ItemText({ label, description }: { label: string; description?: string }) {
  return (
    <span className="flex flex-col">
      <span className="font-medium">{label}</span>
      {description && <span className="text-xs text-slate-600 dark:text-slate-400">{description}</span>}
    </span>
  );
}

/**
 * A role="menu" list with roving focus: items are reached with the arrow keys, Home and End
 * (Tab leaves the menu), ArrowRight opens a sub-menu and ArrowLeft returns from it.
 */
export function MenuList({ domId, labelledBy, entries, state, dispatch, pendingFocus, nested = false }: MenuListProps) {
  const listRef = useRef<HTMLDivElement>(null);
  const items = () => Array.from(listRef.current?.querySelectorAll<HTMLElement>(`[data-menu-item="${domId}"]`) ?? []);

  useEffect(() => {
    if (pendingFocus.current !== domId) return;
    pendingFocus.current = null;
    listRef.current?.querySelector<HTMLElement>(`[data-menu-item="${domId}"]`)?.focus();
  }, [domId, pendingFocus]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const list = items();
    const active = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const target = menuKeyTarget(event.key, active ? list.indexOf(active) : -1, list.length);
    if (target !== null) {
      event.preventDefault();
      event.stopPropagation();
      list[target]?.focus();
      return;
    }
    if (event.key === " " && active instanceof HTMLAnchorElement) {
      // Space activates menu items; links only react to Enter on their own.
      event.preventDefault();
      active.click();
      return;
    }
    if (nested && event.key === "ArrowLeft") {
      event.preventDefault();
      event.stopPropagation();
      dispatch({ type: "close-submenu" });
      document.getElementById(labelledBy)?.focus();
    }
  };

  return (
    <div
      ref={listRef}
      role="menu"
      id={domId}
      aria-labelledby={labelledBy}
      onKeyDown={onKeyDown}
      className={
        nested
          ? "absolute left-full top-0 ml-1 w-60 rounded-xl border border-slate-200 bg-white p-1.5 shadow-xl dark:border-slate-700 dark:bg-slate-900"
          : "p-1.5"
      }
    >
      {entries.map((entry) => {
        switch (entry.kind) {
          case "link":
            return (
              <Link
                key={entry.label}
                to={entry.to}
                role="menuitem"
                tabIndex={-1}
                data-menu-item={domId}
                className={itemClass}
              >
                <ItemText label={entry.label} description={entry.description} />
              </Link>
            );
          case "inert":
            return (
              <div
                key={entry.label}
                role="menuitem"
                aria-disabled="true"
                tabIndex={-1}
                data-menu-item={domId}
                title="Coming soon"
                className={`${itemClass} cursor-not-allowed opacity-60 hover:bg-transparent dark:hover:bg-transparent`}
              >
                <ItemText label={entry.label} description={entry.description} />
              </div>
            );
          case "action":
            return (
              <button
                key={entry.label}
                type="button"
                role="menuitem"
                tabIndex={-1}
                data-menu-item={domId}
                onClick={entry.onSelect}
                className={itemClass}
              >
                <ItemText label={entry.label} />
              </button>
            );
          case "submenu": {
            const open = state.submenu === entry.id;
            const triggerId = `${domId}-${entry.id}-trigger`;
            const submenuId = `${domId}-${entry.id}`;
            return (
              <div
                key={entry.label}
                role="none"
                className="relative"
                onMouseEnter={() => dispatch({ type: "open-submenu", submenu: entry.id })}
                onMouseLeave={() => dispatch({ type: "close-submenu" })}
              >
                <button
                  type="button"
                  id={triggerId}
                  role="menuitem"
                  tabIndex={-1}
                  data-menu-item={domId}
                  aria-haspopup="menu"
                  aria-expanded={open}
                  aria-controls={open ? submenuId : undefined}
                  className={itemClass}
                  onClick={(event) => {
                    // Keep the parent dropdown open: the document listener would close everything.
                    event.stopPropagation();
                    if (event.detail === 0) {
                      // Keyboard (Enter/Space): toggle, landing on the first item when opening.
                      if (!open) pendingFocus.current = submenuId;
                      dispatch({ type: "toggle-submenu", submenu: entry.id });
                    } else {
                      // A pointer has already opened it on hover; a click must not close it again.
                      dispatch({ type: "open-submenu", submenu: entry.id });
                    }
                  }}
                  onKeyDown={(event) => {
                    if (event.key !== "ArrowRight") return;
                    event.preventDefault();
                    event.stopPropagation();
                    pendingFocus.current = submenuId;
                    dispatch({ type: "open-submenu", submenu: entry.id });
                  }}
                >
                  <ItemText label={entry.label} description={entry.description} />
                  <ChevronRightIcon className="mt-0.5 shrink-0" />
                </button>
                {open && (
                  <MenuList
                    domId={submenuId}
                    labelledBy={triggerId}
                    entries={entry.entries}
                    state={state}
                    dispatch={dispatch}
                    pendingFocus={pendingFocus}
                    nested
                  />
                )}
              </div>
            );
          }
          default:
            return entry satisfies never;
        }
      })}
    </div>
  );
}
