import { describe, expect, it } from "vitest";
import { checkRouterTestPath } from "./routerTestPath";

describe("router-test path check", () => {
  it("keeps a same-origin path with its query and hash", () => {
    expect(checkRouterTestPath(" /ledger?tab=1#top ")).toEqual({ ok: true, to: "/ledger?tab=1#top" });
    expect(checkRouterTestPath("/")).toEqual({ ok: true, to: "/" });
  });

  it("refuses anything that does not start with /", () => {
    for (const input of ["", "ledger", "https://example.com/", "javascript:alert(1)"]) {
      expect(checkRouterTestPath(input)).toMatchObject({
        ok: false,
        message: expect.stringContaining("starts with /"),
      });
    }
  });

  it("refuses paths a browser would read as another host", () => {
    for (const input of ["//example.com/x", "/\\example.com/x", "/\\/example.com"]) {
      expect(checkRouterTestPath(input)).toEqual({ ok: false, message: "Only paths on this site can be opened here." });
    }
  });
});
