import { useReducer } from "react";
import { NavLink } from "react-router-dom";
import { useAuthModal } from "../../auth/authModalContext";
import type { Session } from "../../session/credentials";
import { displayName } from "../../session/sessionUser";
import { useSignOut } from "../../session/useSignOut";
import { ChevronDownIcon } from "../icons";
import { accentFillClass } from "../styles";
import { closedMenus, menuReducer } from "./menuState";
import { Avatar } from "./UserMenu";
import {
  accountLinks,
  developerEntries,
  platformEntries,
  topLinks,
  type NavEntry,
  type NavMenuId,
  type NavSubmenuId,
} from "./navModel";

const rowClass =
  "flex w-full items-center justify-between rounded-lg px-3 py-2.5 text-base font-medium text-slate-800 hover:bg-slate-100 dark:text-slate-100 dark:hover:bg-slate-800";
const activeRowClass = "bg-slate-100 text-indigo-700 dark:bg-slate-800 dark:text-indigo-300";

interface MobileMenuProps {
  id: string;
  session: Session | null;
  onNavigate: () => void;
}

/** Below md, the same entries as the desktop bar, as disclosure sections (one open at a time). */
export function MobileMenu({ id, session, onNavigate }: MobileMenuProps) {
  const [state, dispatch] = useReducer(menuReducer<NavMenuId, NavSubmenuId>, closedMenus);
  const { openAuthModal } = useAuthModal();
  const signOut = useSignOut();

  const link = (label: string, to: string, end = false) => (
    <NavLink
      key={to}
      to={to}
      end={end}
      onClick={onNavigate}
      className={({ isActive }) => `${rowClass} ${isActive ? activeRowClass : ""}`}
    >
      {label}
    </NavLink>
  );

  const renderEntries = (entries: NavEntry[]) =>
    entries.map((entry) => {
      if (entry.kind === "link") return <li key={entry.label}>{link(entry.label, entry.to)}</li>;
      if (entry.kind === "inert") {
        return (
          <li key={entry.label}>
            <span
              aria-disabled="true"
              title="Coming soon"
              className={`${rowClass} cursor-not-allowed opacity-60 hover:bg-transparent`}
            >
              {entry.label}
              <span className="text-xs font-normal">Coming soon</span>
            </span>
          </li>
        );
      }
      const open = state.submenu === entry.id;
      return (
        <li key={entry.label}>
          <button
            type="button"
            aria-expanded={open}
            aria-controls={`${id}-${entry.id}`}
            onClick={() => dispatch({ type: "toggle-submenu", submenu: entry.id })}
            className={rowClass}
          >
            {entry.label}
            <ChevronDownIcon className={`transition-transform ${open ? "rotate-180" : ""}`} />
          </button>
          {open && (
            <ul id={`${id}-${entry.id}`} className="ml-4 border-l border-slate-200 pl-2 dark:border-slate-700">
              {renderEntries(entry.entries)}
            </ul>
          )}
        </li>
      );
    });

  const section = (menu: NavMenuId, label: string, entries: NavEntry[]) => {
    const open = state.menu === menu;
    return (
      <li>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={`${id}-${menu}`}
          onClick={() => dispatch({ type: "toggle-menu", menu })}
          className={rowClass}
        >
          {label}
          <ChevronDownIcon className={`transition-transform ${open ? "rotate-180" : ""}`} />
        </button>
        {open && (
          <ul id={`${id}-${menu}`} className="ml-4 border-l border-slate-200 pl-2 dark:border-slate-700">
            {renderEntries(entries)}
          </ul>
        )}
      </li>
    );
  };

  return (
    <div
      id={id}
      className="max-h-[calc(100vh-4rem)] overflow-y-auto border-t border-slate-200 bg-white px-4 pb-6 pt-2 shadow-lg md:hidden dark:border-slate-800 dark:bg-slate-950"
    >
      <ul className="space-y-1">
        <li>{link("Home", "/", true)}</li>
        {section("platform", "Platform", platformEntries)}
        {section("developers", "Developers", developerEntries)}
        {topLinks.map((entry) => (
          <li key={entry.to}>{link(entry.label, entry.to)}</li>
        ))}
      </ul>
      <div className="mt-4 border-t border-slate-200 pt-4 dark:border-slate-800">
        {session ? (
          <>
            <div className="mb-2 flex items-center gap-3 px-3">
              <Avatar session={session} />
              <div className="min-w-0">
                <p className="truncate text-sm font-semibold">{displayName(session.user)}</p>
                <p className="truncate text-xs text-slate-600 dark:text-slate-400">{session.user.email}</p>
              </div>
            </div>
            <ul className="space-y-1">
              {accountLinks.map((entry) => (
                <li key={entry.to}>{link(entry.label, entry.to)}</li>
              ))}
              <li>
                <button
                  type="button"
                  className={rowClass}
                  onClick={() => {
                    onNavigate();
                    signOut();
                  }}
                >
                  Sign Out
                </button>
              </li>
            </ul>
          </>
        ) : (
          <button
            type="button"
            className={`w-full rounded-lg px-4 py-2.5 text-base font-semibold ${accentFillClass} hover:bg-indigo-700 dark:hover:bg-indigo-300`}
            onClick={() => {
              onNavigate();
              openAuthModal("login");
            }}
          >
            Login
          </button>
        )}
      </div>
    </div>
  );
}
