import { describe, expect, it } from "vitest";
import { normalizeBaseUrl } from "./config";

describe("normalizeBaseUrl", () => {
  it("defaults to same origin and drops trailing slashes", () => {
    expect(normalizeBaseUrl(undefined)).toBe("");
    expect(normalizeBaseUrl("  ")).toBe("");
    expect(normalizeBaseUrl("https://api.example.com/")).toBe("https://api.example.com");
    expect(normalizeBaseUrl("http://localhost:3000//")).toBe("http://localhost:3000");
  });
});
