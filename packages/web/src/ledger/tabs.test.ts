import { describe, expect, it } from "vitest";
import { LEDGER_TABS, tabFromSearch, tabIndexForKey } from "./tabs";

describe("ledger tabs", () => {
  it("are overview, accounts, transactions, analytics", () => {
    expect(LEDGER_TABS.map((tab) => tab.id)).toEqual(["overview", "accounts", "transactions", "analytics"]);
  });

  it("move with Left/Right (wrapping) and jump with Home/End", () => {
    expect(tabIndexForKey("ArrowRight", 0, 4)).toBe(1);
    expect(tabIndexForKey("ArrowRight", 3, 4)).toBe(0);
    expect(tabIndexForKey("ArrowLeft", 0, 4)).toBe(3);
    expect(tabIndexForKey("Home", 2, 4)).toBe(0);
    expect(tabIndexForKey("End", 0, 4)).toBe(3);
  });

  it("leave other keys to the browser", () => {
    expect(tabIndexForKey("ArrowDown", 0, 4)).toBeNull();
    expect(tabIndexForKey("Enter", 0, 4)).toBeNull();
    expect(tabIndexForKey("ArrowRight", 0, 0)).toBeNull();
  });

  it("open the tab a link names, and ignore names that are not tabs", () => {
    expect(tabFromSearch(new URLSearchParams("tab=analytics"))).toBe("analytics");
    expect(tabFromSearch(new URLSearchParams("tab=transactions&status=draft"))).toBe("transactions");
    expect(tabFromSearch(new URLSearchParams("tab=settings"))).toBeNull();
    expect(tabFromSearch(new URLSearchParams("tab=__proto__"))).toBeNull();
    expect(tabFromSearch(new URLSearchParams(""))).toBeNull();
  });
});
