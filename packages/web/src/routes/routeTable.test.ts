import { describe, expect, it } from "vitest";
import { isLiveScreen } from "./routeMeta";
import { routeTable } from "./routeTable";

describe("route table", () => {
  it("is docs/product/README.md#routes (with the quickstart and examples pages the developer hub links to): path, guard and layout", () => {
    expect(routeTable.map(({ path, guarded, layout }) => [path, guarded ? "guarded" : "open", layout])).toEqual([
      ["/", "open", "standard"],
      ["/landing", "open", "header-only"],
      ["/status", "guarded", "standard"],
      ["/ledger", "guarded", "standard"],
      ["/kyc", "guarded", "standard"],
      ["/kyc/dashboard", "guarded", "standard"],
      ["/payments", "guarded", "none"],
      ["/payments/send", "guarded", "standard"],
      ["/payments/:id", "guarded", "standard"],
      ["/payment-rails", "guarded", "standard"],
      ["/reconciliation", "guarded", "standard"],
      ["/treasury", "guarded", "standard"],
      ["/compliance", "guarded", "standard"],
      ["/ops", "guarded", "standard"],
      ["/developers", "open", "standard"],
      ["/developers/api-explorer", "open", "standard"],
      ["/developers/quickstart", "open", "standard"],
      ["/developers/examples", "open", "standard"],
      ["/developers/api-keys", "guarded", "standard"],
      ["/developers/webhooks", "guarded", "standard"],
      ["/developers/docs", "open", "standard"],
      ["/grpc-demo", "open", "standard"],
      ["/grpc-test", "open", "standard"],
      ["/router-test", "open", "standard"],
      ["/about", "open", "standard"],
      ["/profile", "guarded", "standard"],
      ["/confirm-email", "open", "standard"],
      ["/settings", "guarded", "standard"],
      ["/reset-password", "open", "standard"],
      ["/verify-email", "open", "standard"],
    ]);
  });

  it("has no duplicate paths", () => {
    expect(new Set(routeTable.map((entry) => entry.path)).size).toBe(routeTable.length);
  });

  it("marks which screens are built; every other path counts as not live", () => {
    expect(routeTable.filter((entry) => entry.live).map((entry) => entry.path)).toEqual([
      "/",
      "/landing",
      "/status",
      "/ledger",
      "/kyc",
      "/kyc/dashboard",
      "/payments",
      "/payments/send",
      "/payments/:id",
      "/payment-rails",
      "/reconciliation",
      "/treasury",
      "/compliance",
      "/ops",
      "/developers",
      "/developers/api-explorer",
      "/developers/quickstart",
      "/developers/examples",
      "/developers/api-keys",
      "/developers/webhooks",
      "/developers/docs",
      "/grpc-demo",
      "/grpc-test",
      "/router-test",
      "/about",
      "/profile",
      "/confirm-email",
      "/settings",
      "/reset-password",
      "/verify-email",
    ]);
    expect(isLiveScreen("/ledger")).toBe(true);
    expect(isLiveScreen("/kyc")).toBe(true);
    expect(isLiveScreen("/payment-rails")).toBe(true);
    expect(isLiveScreen("/payments")).toBe(true);
    expect(isLiveScreen("/no-such-route")).toBe(false);
  });
});
