import { useEffect, useState } from "react";
import { Link, NavLink, useLocation } from "react-router-dom";
import { NAV_SCROLL_THRESHOLD_PX, PRODUCT_NAME } from "../../constants";
import { useScrolledPast } from "../../hooks/useScrolledPast";
import { useSession } from "../../session/hooks";
import { CloseIcon, LogoMark, MenuIcon } from "../icons";
import { iconButtonClass } from "../styles";
import { DropdownMenu, navTriggerClass } from "./DropdownMenu";
import { LoginButton } from "./LoginButton";
import { MobileMenu } from "./MobileMenu";
import { developerEntries, platformEntries, topLinks } from "./navModel";
import { ThemeToggle } from "./ThemeToggle";
import { useNavMenus } from "./useNavMenus";
import { UserMenu } from "./UserMenu";

const MOBILE_MENU_ID = "mobile-menu";

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `${navTriggerClass} ${isActive ? "text-indigo-700 dark:text-indigo-300" : ""}`;

/**
 * Fixed top navigation (docs/product/session.md#top-navigation): transparent at the top, solid once
 * scrolled past 10 px.
 */
export function TopNav() {
  const session = useSession();
  const scrolled = useScrolledPast(NAV_SCROLL_THRESHOLD_PX);
  const [menus, dispatch] = useNavMenus();
  const [mobileOpen, setMobileOpen] = useState(false);
  const { pathname } = useLocation();

  // A new screen starts with every menu closed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: pathname is the trigger: a route change closes the menus.
  useEffect(() => {
    setMobileOpen(false);
    dispatch({ type: "close-all" });
  }, [pathname, dispatch]);

  useEffect(() => {
    if (!mobileOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setMobileOpen(false);
      document.getElementById("mobile-menu-toggle")?.focus();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [mobileOpen]);

  const solid = scrolled || mobileOpen;

  return (
    <header
      data-scrolled={scrolled}
      className={`fixed inset-x-0 top-0 z-50 transition-[background-color,box-shadow,border-color] duration-300 ${
        solid
          ? "border-b border-slate-200 bg-white/95 shadow-sm backdrop-blur dark:border-slate-800 dark:bg-slate-950/95"
          : "border-b border-transparent bg-transparent"
      }`}
    >
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link to="/" className="flex items-center gap-2 rounded-lg text-lg font-bold text-slate-900 dark:text-white">
          <LogoMark />
          <span>{PRODUCT_NAME}</span>
        </Link>

        <div className="hidden items-center gap-1 md:flex">
          <NavLink to="/" end className={linkClass}>
            Home
          </NavLink>
          <DropdownMenu id="platform" trigger="Platform" entries={platformEntries} state={menus} dispatch={dispatch} />
          <DropdownMenu
            id="developers"
            trigger="Developers"
            entries={developerEntries}
            state={menus}
            dispatch={dispatch}
          />
          {topLinks.map((link) => (
            <NavLink key={link.to} to={link.to} className={linkClass}>
              {link.label}
            </NavLink>
          ))}
        </div>

        <div className="flex items-center gap-2">
          <ThemeToggle />
          <div className="hidden md:block">
            {session ? <UserMenu session={session} state={menus} dispatch={dispatch} /> : <LoginButton />}
          </div>
          <button
            type="button"
            id="mobile-menu-toggle"
            className={`${iconButtonClass} md:hidden`}
            aria-label={mobileOpen ? "Close menu" : "Open menu"}
            aria-expanded={mobileOpen}
            aria-controls={mobileOpen ? MOBILE_MENU_ID : undefined}
            onClick={() => setMobileOpen((open) => !open)}
          >
            {mobileOpen ? <CloseIcon /> : <MenuIcon />}
          </button>
        </div>
      </nav>
      {mobileOpen && <MobileMenu id={MOBILE_MENU_ID} session={session} onNavigate={() => setMobileOpen(false)} />}
    </header>
  );
}
