/**
 * Which dropdown and which sub-menu are open. There is at most one of each (docs/product/session.md#top-navigation),
 * so opening one closes the other, and closing a dropdown closes its sub-menu.
 */
export interface MenuState<Menu extends string, Submenu extends string> {
  menu: Menu | null;
  submenu: Submenu | null;
}

export type MenuAction<Menu extends string, Submenu extends string> =
  | { type: "toggle-menu"; menu: Menu }
  | { type: "open-menu"; menu: Menu }
  | { type: "toggle-submenu"; submenu: Submenu }
  | { type: "open-submenu"; submenu: Submenu }
  | { type: "close-submenu" }
  | { type: "close-all" };

export function menuReducer<Menu extends string, Submenu extends string>(
  state: MenuState<Menu, Submenu>,
  action: MenuAction<Menu, Submenu>,
): MenuState<Menu, Submenu> {
  switch (action.type) {
    case "toggle-menu":
      return state.menu === action.menu ? { menu: null, submenu: null } : { menu: action.menu, submenu: null };
    case "open-menu":
      return state.menu === action.menu ? state : { menu: action.menu, submenu: null };
    case "toggle-submenu":
      return { ...state, submenu: state.submenu === action.submenu ? null : action.submenu };
    case "open-submenu":
      return state.submenu === action.submenu ? state : { ...state, submenu: action.submenu };
    case "close-submenu":
      return state.submenu === null ? state : { ...state, submenu: null };
    case "close-all":
      return state.menu === null && state.submenu === null ? state : { menu: null, submenu: null };
  }
}

export const closedMenus = { menu: null, submenu: null } as const;
