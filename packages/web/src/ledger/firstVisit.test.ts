import { describe, expect, it } from "vitest";
import { greeting, visitedKey } from "./firstVisit";

describe("greeting", () => {
  it("welcomes a first visit and welcomes back a returning user", () => {
    expect(greeting("Ada", true)).toBe("Welcome, Ada");
    expect(greeting("Ada", false)).toBe("Welcome back, Ada");
  });

  it("remembers visits per user", () => {
    expect(visitedKey("u-1")).not.toBe(visitedKey("u-2"));
  });
});
