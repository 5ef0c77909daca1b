import { $, createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";
import { findUserById } from "@fintech/core/auth/users";
import { DEFAULT_MONEY_LIMITS } from "@fintech/core/limits/default-limits";
import { manualLevelHistory, ManualLevelChange, setManualLevel } from "@fintech/core/limits/levels";
import {
  LimitStatus,
  LIMIT_MESSAGES,
  limitsAsAmounts,
  ManualLevelInput,
  MoneyLimitsInput,
  type LimitsEditor,
} from "@fintech/core/limits/model";
import { getMoneyLimits, moneyLimitsHistory, replaceMoneyLimits } from "@fintech/core/limits/settings";
import { limitStatus } from "@fintech/core/limits/status";
import { notFound } from "@fintech/core/shared/errors";
import type { AppEnv } from "../http/app-context";
import { requireAdmin, requireAuth } from "../http/middleware";
import { authenticated, errors, jsonBody, jsonReply, pathParameter, TAGS } from "../http/openapi";
import { readJson } from "../http/validate";

/**
 * Money limits per verification level
 * (docs/trust-and-safety.md#verification-levels-and-money-limits), mounted at
 * /api/v1/ledger/limits: the caller's level with every limit, what it used and what remains; for
 * administrators, the limits in force (data: read and replace, each change audited) and one user's
 * level (set or removed with a reason, audited). The rule and its checks live in core
 * (limits/gate.ts, used by every money write); this module parses, authorises and shapes the
 * replies.
 */

const tags = [TAGS.ledger] as [typeof TAGS.ledger];
const ADMIN_ONLY = "Administrators only (a user is answered 403 `admin_required`).";

/* ---------- replies ---------- */

const Amounts = z.record(z.string(), z.string()).describe("Decimal string per currency (USD, EUR, GBP, JPY, INR)");
const WindowAmounts = z.object({
  day: Amounts.describe("Rolling 24 hours"),
  month: Amounts.describe("Rolling 30 days"),
});
const LimitsTable = z.object({
  unverified: z
    .object({ deposit: WindowAmounts.nullable(), outgoing: WindowAmounts.nullable() })
    .describe("null: this level may not make the movement (403 kyc_required)"),
  verified: z.object({ deposit: WindowAmounts, outgoing: WindowAmounts }),
});
const Editor = z.object({ id: z.string(), email: z.string() });
const LimitsChangeView = z.object({
  version: z.number().int(),
  at: z.string(),
  by: Editor,
  before: LimitsTable,
  after: LimitsTable,
});
const LimitsSettings = LimitsTable.extend({
  version: z.number().int().describe("0: the seeded defaults, never edited; send it back with an edit"),
  updated_at: z.string().nullable(),
  updated_by: Editor.nullable(),
  history: z.array(LimitsChangeView).describe("The last 20 changes, newest first"),
});
const UserLevelView = z.object({
  user_id: z.string(),
  email: z.string(),
  status: LimitStatus,
  history: z
    .array(ManualLevelChange)
    .describe("Administrators' level decisions for this user, newest first (at most 20)"),
});

const LimitStatusReply = z.object({ data: LimitStatus });
const LimitsSettingsReply = z.object({ data: LimitsSettings });
const LimitsSavedReply = z.object({ message: z.string(), data: LimitsSettings });
const UserLevelReply = z.object({ data: UserLevelView });
const UserLevelSavedReply = z.object({ message: z.string(), data: UserLevelView });

/* ---------- examples ---------- */

const EXAMPLE_USER_ID = "0b8f0f5e-2a47-4c1d-9b7e-3f0d6c2a9e11";
const defaults = limitsAsAmounts(DEFAULT_MONEY_LIMITS);
const exampleStatus: LimitStatus = {
  level: "unverified",
  level_label: "Unverified",
  source: "kyc",
  next_step: { href: "/kyc", message: LIMIT_MESSAGES.nextStep },
  limits: [
    {
      movement: "deposit",
      window: "day",
      currency: "USD",
      allowed: true,
      limit: "1000.00",
      used: "250.00",
      remaining: "750.00",
      limit_minor: 100_000,
      used_minor: 25_000,
      remaining_minor: 75_000,
    },
    {
      movement: "outgoing",
      window: "day",
      currency: "USD",
      allowed: false,
      limit: null,
      used: "0.00",
      remaining: null,
      limit_minor: null,
      used_minor: 0,
      remaining_minor: null,
    },
  ],
};
const exampleSettings = { ...defaults, version: 0, updated_at: null, updated_by: null, history: [] };
const exampleEdit = {
  version: 0,
  ...defaults,
  unverified: {
    ...defaults.unverified,
    deposit: {
      day: { USD: "500.00", EUR: "500.00", GBP: "500.00", JPY: "75000", INR: "40000.00" },
      month: defaults.unverified.deposit!.month,
    },
  },
};
const exampleUserLevel = {
  user_id: EXAMPLE_USER_ID,
  email: "grace@example.com",
  status: {
    ...exampleStatus,
    level: "verified" as const,
    level_label: "Verified",
    source: "manual" as const,
    next_step: null,
  },
  history: [],
};

const userIdParameter = pathParameter("userId", "The user's id", EXAMPLE_USER_ID);

/* ---------- routes ---------- */

const statusRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "get",
  path: "/",
  operationId: "getMyLimits",
  summary: "Your verification level and money limits",
  description: [
    "Your level (`unverified` until your identity verification is approved, then `verified`; an administrator may set one: `source: manual`) and, per movement (`deposit`: money in from outside; `outgoing`: payments to other people or outside accounts), rolling window (`day`: 24 hours, `month`: 30 days) and currency, the limit, what the window already counts and what remains.",
    "A movement your level may not make at all shows `allowed: false` (it is refused with 403 `kyc_required`); one that would pass a limit is refused with 422 `limit_exceeded`, naming the limit. Moving money between your own accounts is never limited. `next_step` says what raises the limits (complete verification at /kyc).",
  ].join(" "),
  "x-complexity": "medium",
  responses: {
    200: jsonReply("Your level and limits", "LimitStatusReply", LimitStatusReply, { data: exampleStatus }),
    ...errors({ 401: true, 503: true }),
  },
});

const settingsRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "get",
  path: "/settings",
  operationId: "getMoneyLimits",
  summary: "The money limits in force",
  description: `The limits per verification level, movement, window and currency (decimal strings in each currency's own money), the version to send back with an edit, and the last 20 changes (who, when, before, after). Version 0 is the seeded default. ${ADMIN_ONLY}`,
  "x-complexity": "low",
  responses: {
    200: jsonReply("The limits", "MoneyLimitsReply", LimitsSettingsReply, { data: exampleSettings }),
    ...errors({ 401: true, 403: ["admin_required"], 503: true }),
  },
});

const replaceSettingsRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "put",
  path: "/settings",
  operationId: "replaceMoneyLimits",
  summary: "Replace the money limits",
  description: `The whole table at once, applied to the next request. Every amount is given for every currency, greater than 0 in that currency's decimals; a day limit is at most its month limit; a verified limit is never lower than the unverified one; \`null\` for an unverified movement means the unverified level may not make it (403 \`kyc_required\`); the verified level always may. \`version\` is the one you read: a table changed since is a 409 \`limits_changed\`. The change is recorded with who and when; the same table again changes nothing. ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  request: { body: jsonBody("MoneyLimitsInput", MoneyLimitsInput, exampleEdit) },
  responses: {
    200: jsonReply("The limits now in force", "MoneyLimitsSavedReply", LimitsSavedReply, {
      message: "Limits saved",
      data: {
        ...exampleSettings,
        ...exampleEdit,
        version: 1,
        updated_at: "2026-01-15T10:00:00.000Z",
        updated_by: { id: EXAMPLE_USER_ID, email: "admin@example.com" },
      },
    }),
    ...errors({
      400: ["validation_error", "invalid_json"],
      401: true,
      403: ["admin_required"],
      409: ["limits_changed"],
      413: ["payload_too_large"],
      503: true,
    }),
  },
});

const userLevelRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "get",
  path: "/users/{userId}",
  operationId: "getUserLimits",
  summary: "A user's level and limits",
  description: `What GET /api/v1/ledger/limits answers that user, and the administrators' level decisions for them. 404 \`user_not_found\` for an unknown id. ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  parameters: [userIdParameter],
  responses: {
    200: jsonReply("The user's level and limits", "UserLimitsReply", UserLevelReply, { data: exampleUserLevel }),
    ...errors({ 401: true, 403: ["admin_required"], 404: ["user_not_found"], 503: true }),
  },
});

const setUserLevelRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "put",
  path: "/users/{userId}/level",
  operationId: "setUserLevel",
  summary: "Set a user's level",
  description: `Holds a user at \`level\` whatever their KYC state (e.g. a business verified outside the wizard, or a verified user held back while a case is open), or with \`level: null\` hands the level back to their KYC state. The reason (1-500 characters) is kept with who and when. 404 \`user_not_found\` for an unknown id. ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  parameters: [userIdParameter],
  request: {
    body: jsonBody("SetUserLevelInput", ManualLevelInput, {
      level: "verified",
      reason: "Business customer verified by the onboarding team (case 4711)",
    }),
  },
  responses: {
    200: jsonReply("The user's level and limits now", "UserLevelSavedReply", UserLevelSavedReply, {
      message: "Level saved",
      data: exampleUserLevel,
    }),
    ...errors({
      400: ["validation_error", "invalid_json"],
      401: true,
      403: ["admin_required"],
      404: ["user_not_found"],
      409: ["level_changed"],
      413: ["payload_too_large"],
      503: true,
    }),
  },
});

/* ---------- handlers ---------- */

const editorOf = (c: Context<AppEnv>): LimitsEditor => ({ id: c.get("auth").user.id, email: c.get("auth").user.email });

async function settingsView(c: Context<AppEnv>) {
  const core = c.get("core");
  const [limits, history] = await Promise.all([getMoneyLimits(core), moneyLimitsHistory(core)]);
  return {
    ...limitsAsAmounts(limits),
    version: limits.version,
    updated_at: limits.updated_at,
    updated_by: limits.updated_by,
    history: history.map((change) => ({
      version: change.version,
      at: change.at,
      by: change.by,
      before: limitsAsAmounts(change.before),
      after: limitsAsAmounts(change.after),
    })),
  };
}

/** User ids are UUIDs: anything else is no user (and never reaches the table as a key). */
const USER_ID = /^[A-Za-z0-9-]{1,64}$/;

async function userLevelView(c: Context<AppEnv>) {
  const core = c.get("core");
  const userId = c.req.param("userId") ?? "";
  const user = USER_ID.test(userId) ? await findUserById(core.db, userId) : null;
  if (!user) throw notFound(LIMIT_MESSAGES.userNotFound, "user_not_found");
  const [status, history] = await Promise.all([limitStatus(core, userId), manualLevelHistory(core, userId)]);
  return { user_id: userId, email: user.email, status, history };
}

export const limitRoutes = $(new OpenAPIHono<AppEnv>().use(requireAuth))
  .openapi(statusRoute, async (c) => c.json({ data: await limitStatus(c.get("core"), c.get("auth").userId) }, 200))
  .openapi({ ...settingsRoute, middleware: [requireAdmin] as const }, async (c) =>
    c.json({ data: await settingsView(c) }, 200),
  )
  .openapi({ ...replaceSettingsRoute, middleware: [requireAdmin] as const }, async (c) => {
    await replaceMoneyLimits(c.get("core"), await readJson(c), editorOf(c));
    return c.json({ message: "Limits saved", data: await settingsView(c) }, 200);
  })
  .openapi({ ...userLevelRoute, middleware: [requireAdmin] as const }, async (c) =>
    c.json({ data: await userLevelView(c) }, 200),
  )
  .openapi({ ...setUserLevelRoute, middleware: [requireAdmin] as const }, async (c) => {
    const userId = c.req.param("userId");
    if (!USER_ID.test(userId)) throw notFound(LIMIT_MESSAGES.userNotFound, "user_not_found");
    await setManualLevel(c.get("core"), userId, await readJson(c), editorOf(c));
    return c.json({ message: "Level saved", data: await userLevelView(c) }, 200);
  });
