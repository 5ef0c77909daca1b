import { useRef, type FocusEvent, type ReactNode } from "react";
import { ChevronDownIcon } from "../icons";
import { MenuList, type MenuEntry } from "./MenuList";
import type { NavMenuId } from "./navModel";
import { menuTriggerId, type NavMenuDispatch, type NavMenuState } from "./useNavMenus";

interface DropdownMenuProps {
  id: NavMenuId;
  trigger: ReactNode;
  /** Accessible name when the trigger's content is not plain text (e.g. an avatar). */
  triggerLabel?: string;
  entries: MenuEntry[];
  state: NavMenuState;
  dispatch: NavMenuDispatch;
  align?: "left" | "right";
  /** Non-interactive content above the items, e.g. the user's name and email. */
  header?: ReactNode;
}

export const navTriggerClass =
  "inline-flex items-center gap-1 rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-950 " +
  "aria-expanded:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800 dark:hover:text-white dark:aria-expanded:bg-slate-800";

/** A menu button (aria-haspopup, aria-expanded) with its dropdown. */
export function DropdownMenu({
  id,
  trigger,
  triggerLabel,
  entries,
  state,
  dispatch,
  align = "left",
  header,
}: DropdownMenuProps) {
  const open = state.menu === id;
  const triggerId = menuTriggerId(id);
  const menuId = `nav-${id}-menu`;
  const pendingFocus = useRef<string | null>(null);

  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    // Tab out of the menu closes it, as a click elsewhere does.
    if (open && !event.currentTarget.contains(event.relatedTarget)) dispatch({ type: "close-all" });
  };

  return (
    // Focus leaving the trigger and its menu (focusout bubbles here) closes the menu; the wrapper takes no input.
    // biome-ignore lint/a11y/noStaticElementInteractions: only bubbled focusout is handled (see above).
    <div className="relative" onBlur={onBlur}>
      <button
        type="button"
        id={triggerId}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={triggerLabel}
        className={navTriggerClass}
        onClick={(event) => {
          event.stopPropagation();
          // detail 0 = Enter/Space: keyboard users land on the first item, as the menu pattern expects.
          if (!open && event.detail === 0) pendingFocus.current = menuId;
          dispatch({ type: "toggle-menu", menu: id });
        }}
        onKeyDown={(event) => {
          if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
          event.preventDefault();
          pendingFocus.current = menuId;
          dispatch({ type: "open-menu", menu: id });
        }}
      >
        {trigger}
        <ChevronDownIcon className={`transition-transform ${open ? "rotate-180" : ""}`} />
      </button>
      {open && (
        <div
          className={`absolute top-full mt-2 w-72 rounded-xl border border-slate-200 bg-white shadow-xl dark:border-slate-700 dark:bg-slate-900 ${
            align === "right" ? "right-0" : "left-0"
          }`}
        >
          {header}
          <MenuList
            domId={menuId}
            labelledBy={triggerId}
            entries={entries}
            state={state}
            dispatch={dispatch}
            pendingFocus={pendingFocus}
          />
        </div>
      )}
    </div>
  );
}
