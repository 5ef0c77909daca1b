import { describe, expect, it } from "vitest";
import {
  createKeyFormSchema,
  DEFAULT_FORM_SCOPES,
  keyPlaceholder,
  keyStatus,
  lastUsedLabel,
  prefixLabel,
  scopeGroups,
} from "./view";

describe("API key view", () => {
  it("says whether a key is active or revoked", () => {
    expect(keyStatus({ revoked_at: null })).toBe("Active");
    expect(keyStatus({ revoked_at: "2026-03-15T00:00:00.000Z" })).toBe("Revoked");
  });

  it("marks the prefix as cut short, and a never-used key as Never", () => {
    expect(prefixLabel("fpk_abcdefgh")).toBe("fpk_abcdefgh…");
    expect(lastUsedLabel({ last_used_at: null })).toBe("Never");
    expect(lastUsedLabel({ last_used_at: "2026-03-14T12:00:00.000Z" })).toMatch(/Mar 14, 2026/);
  });

  it("shows the newest active key's prefix in the sample call, never a revoked one", () => {
    const revoked = { prefix: "fpk_revoked1", revoked_at: "2026-03-15T00:00:00.000Z" };
    const active = { prefix: "fpk_active12", revoked_at: null };
    expect(keyPlaceholder([revoked, active])).toBe("fpk_active12<rest of your key>");
    expect(keyPlaceholder([revoked])).toBe("fpk_<your key>");
    expect(keyPlaceholder([])).toBe("fpk_<your key>");
  });

  it("checks the name with the server's rule: 1 to 100 characters once trimmed", () => {
    const scopes = ["ledger:read"];
    expect(createKeyFormSchema.parse({ name: "  CI  ", scopes })).toEqual({ name: "CI", scopes });
    expect(createKeyFormSchema.safeParse({ name: "   ", scopes }).error?.issues[0]?.message).toBe("A name is required");
    expect(createKeyFormSchema.safeParse({ name: "x".repeat(101), scopes }).error?.issues[0]?.message).toBe(
      "Name must be at most 100 characters",
    );
    expect(createKeyFormSchema.safeParse({ name: "x".repeat(100), scopes }).success).toBe(true);
  });

  it("needs at least one known scope, and starts with every read scope ticked", () => {
    expect(createKeyFormSchema.safeParse({ name: "CI", scopes: [] }).error?.issues[0]?.message).toBe(
      "Choose at least one scope",
    );
    expect(createKeyFormSchema.safeParse({ name: "CI", scopes: ["ledger:admin"] }).success).toBe(false);
    expect(DEFAULT_FORM_SCOPES).toEqual([
      "ledger:read",
      "payments:read",
      "kyc:read",
      "rails:read",
      "profile:read",
      "webhooks:read",
    ]);
    expect(scopeGroups()).toEqual([
      ["ledger", ["ledger:read", "ledger:write"]],
      ["payments", ["payments:read", "payments:write"]],
      ["kyc", ["kyc:read", "kyc:write"]],
      ["rails", ["rails:read"]],
      ["profile", ["profile:read"]],
      ["webhooks", ["webhooks:read", "webhooks:write"]],
    ]);
  });
});
