import { describe, expect, it } from "vitest";
import { trappedFocusTarget } from "./focusTrap";

describe("trappedFocusTarget", () => {
  const items = ["email", "password", "submit"];

  it("wraps Tab from the last element to the first", () => {
    expect(trappedFocusTarget(items, "submit", false)).toBe("email");
  });

  it("wraps Shift+Tab from the first element to the last", () => {
    expect(trappedFocusTarget(items, "email", true)).toBe("submit");
  });

  it("lets the browser move within the dialog", () => {
    expect(trappedFocusTarget(items, "email", false)).toBeNull();
    expect(trappedFocusTarget(items, "submit", true)).toBeNull();
  });

  it("pulls focus back in from outside", () => {
    expect(trappedFocusTarget(items, null, false)).toBe("email");
    expect(trappedFocusTarget(items, "body", true)).toBe("submit");
  });

  it("does nothing without focusable elements", () => {
    expect(trappedFocusTarget([], null, false)).toBeNull();
  });
});
