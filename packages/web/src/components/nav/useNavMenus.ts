import { useEffect, useReducer, type Dispatch } from "react";
import { closedMenus, menuReducer, type MenuAction, type MenuState } from "./menuState";
import type { NavMenuId, NavSubmenuId } from "./navModel";

export type NavMenuState = MenuState<NavMenuId, NavSubmenuId>;
export type NavMenuDispatch = Dispatch<MenuAction<NavMenuId, NavSubmenuId>>;

export const menuTriggerId = (menu: NavMenuId) => `nav-${menu}-trigger`;

/**
 * Dropdown state of the desktop navigation. While one is open, any click on the document
 * closes it (triggers stop their own click from reaching the document), and Escape closes it
 * and hands focus back to its trigger.
 */
export function useNavMenus(): [NavMenuState, NavMenuDispatch] {
  const [state, dispatch] = useReducer(menuReducer<NavMenuId, NavSubmenuId>, closedMenus);
  const openMenu = state.menu;

  useEffect(() => {
    if (openMenu === null) return;
    const closeAll = () => dispatch({ type: "close-all" });
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      const trigger = document.getElementById(menuTriggerId(openMenu));
      const focusInside = trigger?.parentElement?.contains(document.activeElement) ?? false;
      closeAll();
      if (focusInside) trigger?.focus();
    };
    document.addEventListener("click", closeAll);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("click", closeAll);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [openMenu]);

  return [state, dispatch];
}
