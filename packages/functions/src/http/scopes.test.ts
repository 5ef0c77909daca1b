import { describe, expect, it } from "vitest";
import { API_KEY_SCOPES } from "@fintech/core/auth/model";
import { openApiDocument } from "../openapi-document";
import { API_SECTIONS, sectionOf } from "../sections";
import { FEED_SCOPES, READ_COMMANDS, requirementOf, scopeSectionOf, SECTION_SCOPES } from "./scopes";

/**
 * The scope table is the route table's: the same sections and prefixes as sections.ts, a
 * decision for every operation of the API, and a catalogue (API_KEY_SCOPES) that is exactly the
 * scopes those decisions name, less the ones only administrators' routes need.
 */

type Json = Record<string, any>;
const METHODS = ["get", "put", "post", "delete", "patch"] as const;
const document = openApiDocument() as Json;
const operations = Object.entries(document.paths as Json).flatMap(([path, item]) =>
  METHODS.filter((method) => item[method]).map((method) => ({ path, method, operation: item[method] as Json })),
);

/** Scopes that only administrators' routes need: keys never act as an administrator, so none is offered. */
const ADMIN_ONLY_SCOPES = ["rails:write"];

describe("the scope table", () => {
  it("has the route table's sections, with the same prefixes, and finds the same section for a path", () => {
    expect(SECTION_SCOPES.map((entry) => [entry.section, [...entry.prefixes]])).toEqual(
      API_SECTIONS.map((section) => [section.name, [...section.prefixes]]),
    );
    for (const { path } of operations) expect(scopeSectionOf(path), path).toBe(sectionOf(path).name);
    expect(scopeSectionOf("/api/v1/accounts/")).toBe("ledger");
    expect(scopeSectionOf("/api/v1/accountsx")).toBeNull();
  });

  it("decides every operation: a read scope for reads, a write scope for writes, unless a rule says otherwise", () => {
    for (const { path, method } of operations) {
      const requirement = requirementOf(method, path);
      if (requirement.kind !== "scope") continue;
      expect(requirement.scope, `${method} ${path}`).toMatch(
        /^(ledger|payments|kyc|rails|profile|webhooks):(read|write)$/,
      );
      if (method === "get") expect(requirement.scope, `${method} ${path}`).toMatch(/:read$/);
    }
    expect(requirementOf("GET", "/api/v1/ledger/accounts")).toEqual({ kind: "scope", scope: "ledger:read" });
    expect(requirementOf("POST", "/api/v1/ledger/transactions/transfer")).toEqual({
      kind: "scope",
      scope: "ledger:write",
    });
    expect(requirementOf("POST", "/api/v1/rails/quote")).toEqual({ kind: "scope", scope: "rails:read" });
    expect(requirementOf("PUT", "/api/v1/users/profile").kind).toBe("session");
    expect(requirementOf("GET", "/api/v1/api-keys").kind).toBe("session");
    expect(requirementOf("DELETE", "/api/v1/api-keys/abc").kind).toBe("session");
    expect(requirementOf("GET", "/api/v1/users/profile")).toEqual({ kind: "scope", scope: "profile:read" });
    expect(requirementOf("POST", "/api/v1/auth/stream-ticket").kind).toBe("none");
    // A path under no section needs a scope no key has.
    const unknown = requirementOf("GET", "/api/v2/anything");
    expect(unknown.kind === "scope" && !(API_KEY_SCOPES as readonly string[]).includes(unknown.scope)).toBe(true);
  });

  it("offers exactly the scopes the routes need (less the administrators' own), streams and commands included", () => {
    const needed = new Set<string>();
    for (const { path, method } of operations) {
      const requirement = requirementOf(method, path);
      if (requirement.kind === "scope") needed.add(requirement.scope);
      if (requirement.kind === "command") {
        needed.add(`${requirement.area}:read`);
        needed.add(`${requirement.area}:write`);
      }
    }
    for (const scope of Object.values(FEED_SCOPES)) needed.add(scope);
    expect([...needed].filter((scope) => !ADMIN_ONLY_SCOPES.includes(scope)).sort()).toEqual(
      [...API_KEY_SCOPES].sort(),
    );
    // Each command named as read-only is a command of its route.
    for (const [area, commands] of Object.entries(READ_COMMANDS)) {
      const route = operations.find(
        (entry) => entry.path === `/api/grpc/${area === "payments" ? "payment" : area}/command`,
      );
      for (const command of commands)
        expect(route?.operation.description, `${area} ${command}`).toContain(`\`${command}\``);
    }
  });
});
