import { describe, expect, it } from "vitest";
import { menuKeyTarget } from "./menuKeyboard";
import { closedMenus, menuReducer, type MenuState } from "./menuState";

type State = MenuState<"platform" | "developers", "kyc">;
const reduce = menuReducer<"platform" | "developers", "kyc">;

describe("menuReducer", () => {
  it("keeps at most one dropdown open", () => {
    const platform = reduce(closedMenus, { type: "toggle-menu", menu: "platform" });
    expect(platform).toEqual({ menu: "platform", submenu: null });
    expect(reduce(platform, { type: "toggle-menu", menu: "developers" })).toEqual({
      menu: "developers",
      submenu: null,
    });
    expect(reduce(platform, { type: "toggle-menu", menu: "platform" })).toEqual(closedMenus);
  });

  it("closes the sub-menu with its dropdown or when another dropdown opens", () => {
    const withSub: State = { menu: "platform", submenu: "kyc" };
    expect(reduce(withSub, { type: "toggle-menu", menu: "platform" })).toEqual(closedMenus);
    expect(reduce(withSub, { type: "toggle-menu", menu: "developers" })).toEqual({ menu: "developers", submenu: null });
    expect(reduce(withSub, { type: "close-all" })).toEqual(closedMenus);
  });

  it("toggles the sub-menu without touching the dropdown", () => {
    const open: State = { menu: "platform", submenu: null };
    const sub = reduce(open, { type: "toggle-submenu", submenu: "kyc" });
    expect(sub).toEqual({ menu: "platform", submenu: "kyc" });
    expect(reduce(sub, { type: "toggle-submenu", submenu: "kyc" })).toEqual(open);
    expect(reduce(sub, { type: "close-submenu" })).toEqual(open);
  });

  it("returns the same state when nothing changes (no needless renders)", () => {
    expect(reduce(closedMenus, { type: "close-all" })).toBe(closedMenus);
    const open: State = { menu: "platform", submenu: "kyc" };
    expect(reduce(open, { type: "open-menu", menu: "platform" })).toBe(open);
    expect(reduce(open, { type: "open-submenu", submenu: "kyc" })).toBe(open);
  });
});

describe("menuKeyTarget", () => {
  it("moves with wrap-around and jumps to the ends", () => {
    expect(menuKeyTarget("ArrowDown", 0, 3)).toBe(1);
    expect(menuKeyTarget("ArrowDown", 2, 3)).toBe(0);
    expect(menuKeyTarget("ArrowUp", 0, 3)).toBe(2);
    expect(menuKeyTarget("ArrowUp", -1, 3)).toBe(2);
    expect(menuKeyTarget("ArrowDown", -1, 3)).toBe(0);
    expect(menuKeyTarget("Home", 2, 3)).toBe(0);
    expect(menuKeyTarget("End", 0, 3)).toBe(2);
  });

  it("ignores other keys and empty menus", () => {
    expect(menuKeyTarget("a", 0, 3)).toBeNull();
    expect(menuKeyTarget("ArrowDown", 0, 0)).toBeNull();
  });
});
