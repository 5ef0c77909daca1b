import { errors } from "./openapi";
import { FEED_SCOPES, READ_COMMANDS, requirementOf, type ScopeRequirement } from "./scopes";

/**
 * Writes into the OpenAPI document what an API key needs for each operation, from the same
 * decision the middleware makes (scopes.ts), so the explorer, the SDK's comments and the
 * server cannot disagree:
 *
 * - `x-required-scope`: the scope a key needs to call the operation at all;
 * - `x-scope-note`: what more some calls need (a writing command, the live stream's feeds);
 * - `x-session-only: true`: no API key may call it, whatever its scopes (403 `session_required`);
 *
 * plus a sentence in the description and the 403 the refusal answers.
 */

type Json = Record<string, unknown>;
interface Operation extends Json {
  description?: string;
  security?: Json[];
  responses?: Record<string, Json>;
}

const METHODS = ["get", "put", "post", "delete", "patch", "head"] as const;

/** The document's `{id}` templates read as request paths for the decision (no rule depends on an id). */
const requestPathOf = (template: string) => template.replace(/\{[^}]+\}/g, "id");

interface Declared {
  scope?: string;
  note?: string;
  sessionOnly?: true;
  sentence: string;
  forbiddenCodes: string[];
}

function declare(requirement: ScopeRequirement): Declared | null {
  switch (requirement.kind) {
    case "none":
      return null;
    case "session":
      return {
        sessionOnly: true,
        sentence:
          "API keys cannot call this, whatever their scopes (403 `session_required`): it needs a signed-in session.",
        forbiddenCodes: ["session_required"],
      };
    case "scope":
      return {
        scope: requirement.scope,
        sentence: `An API key needs the scope \`${requirement.scope}\` (else 403 \`insufficient_scope\`).`,
        forbiddenCodes: ["insufficient_scope"],
      };
    case "command": {
      const reads = READ_COMMANDS[requirement.area];
      const note = `${reads.length ? `Commands other than ${reads.map((name) => `\`${name}\``).join(", ")}` : "Every command"} also need \`${requirement.area}:write\`.`;
      return {
        scope: `${requirement.area}:read`,
        note,
        sentence: `An API key needs the scope \`${requirement.area}:read\`; ${note.charAt(0).toLowerCase()}${note.slice(1)}`,
        forbiddenCodes: ["insufficient_scope"],
      };
    }
    case "feeds": {
      const note = `Each feed asked for needs its read scope: ${Object.entries(FEED_SCOPES)
        .map(([feed, scope]) => `${feed} \`${scope}\``)
        .join(", ")}.`;
      return {
        note,
        sentence: `With an API key: ${note.charAt(0).toLowerCase()}${note.slice(1)}`,
        forbiddenCodes: ["insufficient_scope"],
      };
    }
    case "events": {
      const note = `The events of each feed the \`type\` filter touches (every feed without one) need that feed's read scope: ${Object.entries(
        FEED_SCOPES,
      )
        .map(([feed, scope]) => `${feed} \`${scope}\``)
        .join(", ")}.`;
      return {
        note,
        sentence: `With an API key: ${note.charAt(0).toLowerCase()}${note.slice(1)}`,
        forbiddenCodes: ["insufficient_scope"],
      };
    }
  }
}

const CODES = /Codes: (.*)\.$/;

/** Adds `codes` to the operation's 403 (made from the Error shape when it has none). */
function addForbiddenCodes(operation: Operation, codes: string[], scope: string | undefined): void {
  operation.responses ??= {};
  const responses = operation.responses;
  const existing = responses["403"];
  if (!existing) {
    const made = errors({ 403: codes })[403] as Json;
    const content = made.content as { "application/json": { example: Record<string, string> } };
    const example = content["application/json"].example;
    content["application/json"].example =
      codes[0] === "insufficient_scope"
        ? {
            ...example,
            message: `This API key lacks the scope ${scope ?? "ledger:read"}`,
            scope: scope ?? "ledger:read",
          }
        : { ...example, message: "API keys cannot do this: sign in" };
    responses["403"] = made;
    return;
  }
  const description = String(existing.description ?? "");
  const listed = CODES.exec(description)?.[1] ?? "";
  const missing = codes.filter((code) => !listed.includes(`\`${code}\``));
  if (missing.length === 0) return;
  const added = missing.map((code) => `\`${code}\``).join(", ");
  existing.description = CODES.test(description)
    ? description.replace(CODES, (_, list: string) => `Codes: ${list}, ${added}.`)
    : `${description} Codes: ${added}.`;
}

/** Annotates every authenticated operation of `document` in place, and returns it. */
export function withRequiredScopes<D extends object>(document: D): D {
  const paths = (document as { paths?: Record<string, Record<string, Operation>> }).paths ?? {};
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation || (Array.isArray(operation.security) && operation.security.length === 0)) continue;
      const declared = declare(requirementOf(method, requestPathOf(path)));
      if (!declared) continue;
      if (declared.scope) operation["x-required-scope"] = declared.scope;
      if (declared.note) operation["x-scope-note"] = declared.note;
      if (declared.sessionOnly) operation["x-session-only"] = true;
      const said = declared.sessionOnly ? "session_required" : declared.sentence;
      if (!operation.description?.includes(said))
        operation.description = `${operation.description ?? ""}${operation.description ? " " : ""}${declared.sentence}`;
      addForbiddenCodes(operation, declared.forbiddenCodes, declared.scope);
    }
  }
  return document;
}
