import { describe, expect, it } from "vitest";
import { isLiveScreen, routeMeta } from "../../routes/routeMeta";
import { developerEntries, platformEntries, topLinks, type NavEntry } from "./navModel";

const flat = (entries: readonly NavEntry[]): NavEntry[] =>
  entries.flatMap((entry) => (entry.kind === "submenu" ? flat(entry.entries) : [entry]));
const pathOf = (to: string) => new URL(to, "http://app.test").pathname;
const routes = new Set<string>(routeMeta.map((entry) => entry.path));

describe("top navigation", () => {
  const entries = [...flat(platformEntries), ...flat(developerEntries)];

  it("links every entry to a route the app has", () => {
    for (const entry of entries) if (entry.kind === "link") expect(routes.has(pathOf(entry.to)), entry.to).toBe(true);
    for (const link of topLinks) expect(routes.has(link.to)).toBe(true);
  });

  it("says Coming soon on no built screen: Quick Start and Analytics are links", () => {
    expect(entries.filter((entry) => entry.kind === "inert")).toEqual([]);
    const byLabel = new Map(entries.map((entry) => [entry.label, entry]));
    expect(byLabel.get("Quick Start")).toMatchObject({ kind: "link", to: "/developers/quickstart" });
    expect(byLabel.get("Analytics & Insights")).toMatchObject({ kind: "link", to: "/ledger?tab=analytics" });
    for (const entry of entries)
      if (entry.kind === "link" && isLiveScreen(pathOf(entry.to)))
        expect(entry.description ?? "").not.toMatch(/coming soon/i);
  });
});
