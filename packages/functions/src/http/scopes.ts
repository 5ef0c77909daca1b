import type { Context } from "hono";
import { API_KEY_SCOPES, type ApiKeyScope } from "@fintech/core/auth/model";
import { AppError, forbidden } from "@fintech/core/shared/errors";
import { FEED_MOUNTS } from "@fintech/core/events/feed-paths";
import { feedsOfTypeFilter } from "@fintech/core/webhooks/model";
import type { AppEnv } from "./app-context";
import { STATUS_PREFIX } from "./request-metrics";

/**
 * The one place that decides what an API key may call: every authenticated request (requireAuth,
 * and the stream ticket path of requireFeedAuth) asks `requirementOf(method, path)` here, so no
 * route module checks scopes itself. A session token is never limited here: it has every scope
 * its role allows, and the admin routes check the role themselves.
 *
 * The rule is the section of the route table (sections.ts) the path falls in, and the method:
 * GET and HEAD need `<area>:read`, every other method `<area>:write`. The exceptions are listed
 * in ROUTE_RULES: account routes no key may use (keys, profile changes, the sign-in email),
 * writes by method that only read (a rails quote), the command routes (each command has its own
 * scope) and the live feed (each feed it carries needs its read scope).
 *
 * This module keeps its own copy of the sections' prefixes (it must not load sections.ts, which
 * loads every route: the Feeds function would bundle them all); scopes.test.ts holds the copy
 * equal to sections.ts, so a section added there without a rule here fails the tests. A path
 * under no known section needs a scope no key has.
 */

export type ScopeArea = "ledger" | "payments" | "kyc" | "rails" | "profile" | "webhooks";
type Access = "read" | "write";

export type ScopeRequirement =
  /** Anything authenticated may call it (health, status, stream tickets, sign-out's own check). */
  | { kind: "none" }
  /** Account changes: a signed-in session only, whatever the key's scopes. */
  | { kind: "session"; message: string }
  | { kind: "scope"; scope: string }
  /** A command route: `<area>:read` to call it, `<area>:write` for a command not in READ_COMMANDS. */
  | { kind: "command"; area: ScopeArea }
  /** The live feed: the read scope of each feed in `?scopes=`. */
  | { kind: "feeds" }
  /** The events list: the read scope of each feed its `?type=` filter touches (all of them without one). */
  | { kind: "events" };

type SectionRule =
  | { kind: "area"; area: ScopeArea }
  | Exclude<ScopeRequirement, { kind: "scope" } | { kind: "command" }>;

const NONE = { kind: "none" } as const;
const session = (message: string) => ({ kind: "session", message }) as const;
export const ACCOUNT_SESSION_MESSAGE =
  "API keys cannot change the account (sign-in email, password, profile or keys): sign in";

/** Operators' screens: API keys act for a customer and never carry an administrator's rights. */
const ADMIN_SESSION_MESSAGE = "API keys cannot use the operators' routes: sign in as an administrator";

/** The route table's sections (sections.ts): their prefixes and what a key needs there. */
export const SECTION_SCOPES: readonly { section: string; prefixes: readonly string[]; rule: SectionRule }[] = [
  { section: "system", prefixes: ["/health", "/api/health"], rule: NONE },
  { section: "document", prefixes: ["/api/openapi.json"], rule: NONE },
  {
    section: "auth",
    prefixes: ["/api/v1/auth", "/api/v1/users", "/api/v1/api-keys"],
    rule: session(ACCOUNT_SESSION_MESSAGE),
  },
  {
    section: "ledger",
    prefixes: ["/api/v1/accounts", "/api/v1/ledger", "/api/grpc/ledger"],
    rule: { kind: "area", area: "ledger" },
  },
  { section: "kyc", prefixes: ["/api/v1/kyc", "/v1/kyc", "/api/grpc/kyc"], rule: { kind: "area", area: "kyc" } },
  { section: "approvals", prefixes: ["/api/v1/approvals"], rule: { kind: "area", area: "ledger" } },
  { section: "rails", prefixes: ["/api/v1/rails"], rule: { kind: "area", area: "rails" } },
  { section: "payments", prefixes: ["/v1/payments", "/api/grpc/payment"], rule: { kind: "area", area: "payments" } },
  {
    section: "reconciliation",
    prefixes: ["/api/v1/reconciliation"],
    rule: session(ADMIN_SESSION_MESSAGE),
  },
  // Quotes and rates serve cross-currency ledger transfers, so a key uses them with the ledger's scopes.
  { section: "fx", prefixes: ["/api/v1/fx", "/api/v1/treasury"], rule: { kind: "area", area: "ledger" } },
  { section: "compliance", prefixes: ["/api/v1/compliance"], rule: session(ADMIN_SESSION_MESSAGE) },
  { section: "ops", prefixes: ["/api/v1/ops", FEED_MOUNTS.ops], rule: session(ADMIN_SESSION_MESSAGE) },
  { section: "webhooks", prefixes: ["/api/v1/webhooks"], rule: { kind: "area", area: "webhooks" } },
  // The events of each feed a request asks for need that feed's read scope (routes/events.ts).
  { section: "events", prefixes: ["/api/v1/events"], rule: { kind: "events" } },
  { section: "live", prefixes: [FEED_MOUNTS.live], rule: { kind: "feeds" } },
  { section: "status", prefixes: [STATUS_PREFIX], rule: NONE },
  { section: "developers", prefixes: ["/api/v1/developers"], rule: NONE },
];

interface RouteRule {
  /** null: every method. */
  methods: readonly string[] | null;
  /** A path (matched exactly, or with what follows when it ends in `/*`), as requested or as the document writes it. */
  path: string;
  requirement: ScopeRequirement;
}

const READS = ["GET", "HEAD"] as const;

/** The exceptions to the section rule, first match wins. */
export const ROUTE_RULES: readonly RouteRule[] = [
  { methods: null, path: "/api/v1/api-keys/*", requirement: session("API keys cannot manage API keys: sign in") },
  { methods: READS, path: "/api/v1/users/profile", requirement: { kind: "scope", scope: "profile:read" } },
  {
    methods: null,
    path: "/api/v1/users/profile",
    requirement: session("API keys cannot change the profile or the sign-in email: sign in"),
  },
  {
    methods: null,
    path: "/api/v1/auth/password",
    requirement: session("API keys cannot change the password: sign in"),
  },
  { methods: READS, path: "/api/v1/auth/sessions", requirement: session("API keys cannot list sessions: sign in") },
  {
    methods: null,
    path: "/api/v1/auth/sessions/*",
    requirement: session("API keys cannot sign out sessions: sign in"),
  },
  // A stream ticket opens only what the key's scopes allow (checked when the stream opens);
  // sign-out takes a session (its own check).
  { methods: null, path: "/api/v1/auth/*", requirement: NONE },
  // A quote prices a payment across the rails and changes nothing.
  { methods: ["POST"], path: "/api/v1/rails/quote", requirement: { kind: "scope", scope: "rails:read" } },
  { methods: ["POST"], path: "/api/grpc/ledger/command", requirement: { kind: "command", area: "ledger" } },
  { methods: ["POST"], path: "/api/grpc/kyc/command", requirement: { kind: "command", area: "kyc" } },
  { methods: ["POST"], path: "/api/grpc/payment/command", requirement: { kind: "command", area: "payments" } },
];

/** Commands that only read or hand out a stream; every other command writes. */
export const READ_COMMANDS: Record<ScopeArea, readonly string[]> = {
  ledger: ["getBalance", "subscribeToAccount", "subscribeToTransactions"],
  kyc: ["subscribeToVerification"],
  payments: ["subscribeToPayments"],
  rails: [],
  profile: [],
  webhooks: [],
};

/** The live feed's feeds (`?scopes=`) and the scope each needs. */
export const FEED_SCOPES: Record<string, ApiKeyScope> = {
  ledger: "ledger:read",
  kyc: "kyc:read",
  payment: "payments:read",
};

const withoutTrailingSlash = (path: string) => (path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path);
const isUnder = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
const matches = (rule: RouteRule, method: string, path: string) =>
  (rule.methods === null || rule.methods.includes(method)) &&
  (rule.path.endsWith("/*") ? isUnder(path, rule.path.slice(0, -2)) : path === rule.path);

const accessOf = (method: string): Access => (READS.includes(method as (typeof READS)[number]) ? "read" : "write");

/** The section a path falls in, as sections.ts's sectionOf finds it (null: none). */
export function scopeSectionOf(path: string): string | null {
  const normalised = withoutTrailingSlash(path);
  return SECTION_SCOPES.find((entry) => entry.prefixes.some((prefix) => isUnder(normalised, prefix)))?.section ?? null;
}

/** What an API key needs to make a `method` request to `path` (a request path, or a path of the document). */
export function requirementOf(method: string, path: string): ScopeRequirement {
  const verb = method.toUpperCase();
  const normalised = withoutTrailingSlash(path);
  const rule = ROUTE_RULES.find((candidate) => matches(candidate, verb, normalised));
  if (rule) return rule.requirement;
  const section = SECTION_SCOPES.find((entry) => entry.section === scopeSectionOf(normalised));
  if (!section)
    return { kind: "scope", scope: `${normalised.split("/").filter(Boolean).join(".") || "root"}:${accessOf(verb)}` };
  if (section.rule.kind === "area") return { kind: "scope", scope: `${section.rule.area}:${accessOf(verb)}` };
  return section.rule;
}

/** The refusal of a request whose key lacks `scope`: 403, naming the scope in the message and in `scope`. */
export class InsufficientScopeError extends AppError {
  constructor(readonly scope: string) {
    super(403, "insufficient_scope", `This API key lacks the scope ${scope}`);
    this.name = "InsufficientScopeError";
  }
}

export const isInsufficientScope = (error: unknown): error is InsufficientScopeError =>
  error instanceof InsufficientScopeError;

const KNOWN_SCOPES: ReadonlySet<string> = new Set(API_KEY_SCOPES);

function requireScope(granted: readonly ApiKeyScope[], scope: string): void {
  if (!KNOWN_SCOPES.has(scope) || !granted.includes(scope as ApiKeyScope)) throw new InsufficientScopeError(scope);
}

/** The `type` filter of an events list request, as given (the route itself refuses unknown types). */
const askedEventTypes = (c: Context<AppEnv>) =>
  (c.req.queries("type") ?? []).flatMap((value) => value.split(",").map((part) => part.trim())).filter(Boolean);

/** The feeds a live feed request asks for, as given (the route itself refuses a malformed list). */
const askedFeeds = (c: Context<AppEnv>) =>
  (c.req.queries("scopes") ?? []).flatMap((value) => value.split(",").map((part) => part.trim()));

/**
 * Throws when the request's credential is an API key that may not make it: 403
 * `session_required` on account routes, 403 `insufficient_scope` naming the first missing scope
 * elsewhere. Sessions pass.
 */
export function assertRequestScope(c: Context<AppEnv>): void {
  const credential = c.get("auth")?.credential;
  if (credential?.kind !== "api_key") return;
  const requirement = requirementOf(c.req.method, c.req.path);
  switch (requirement.kind) {
    case "none":
      return;
    case "session":
      throw forbidden(requirement.message, "session_required");
    case "scope":
      requireScope(credential.scopes, requirement.scope);
      return;
    case "command":
      requireScope(credential.scopes, `${requirement.area}:read`);
      return;
    case "feeds":
      for (const feed of askedFeeds(c)) {
        const scope = FEED_SCOPES[feed];
        if (scope) requireScope(credential.scopes, scope);
      }
      return;
    case "events":
      for (const feed of feedsOfTypeFilter(askedEventTypes(c))) requireScope(credential.scopes, FEED_SCOPES[feed]!);
      return;
  }
}

/** For a command route: a command that writes needs the area's write scope (its read scope was checked at the door). */
export function assertCommandScope(c: Context<AppEnv>, command: string): void {
  const credential = c.get("auth")?.credential;
  if (credential?.kind !== "api_key") return;
  const requirement = requirementOf(c.req.method, c.req.path);
  if (requirement.kind !== "command" || READ_COMMANDS[requirement.area].includes(command)) return;
  requireScope(credential.scopes, `${requirement.area}:write`);
}
