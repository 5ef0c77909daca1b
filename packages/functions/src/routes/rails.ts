import { $, createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";
import { toDecimalString } from "@fintech/core/money/model";
import { QuoteInput, quoteRails, Rail, RailChange, RailEditInput, RAIL_ID_PATTERN } from "@fintech/core/rails/model";
import { getRail, listRails, railHistory, setRailRunning, updateRail } from "@fintech/core/rails/store";
import { SEED_RAILS } from "@fintech/core/rails/seed-rails";
import type { AppEnv } from "../http/env";
import { requireAdmin, requireAuth } from "../http/middleware";
import { authenticated, errors, jsonBody, jsonReply, pathParameter, TAGS } from "../http/openapi";
import { jsonBody as parseJsonBody } from "../http/validate";

/**
 * Payment rails (issue 12 "Rails are data"), mounted at /api/v1/rails: the list and one rail for
 * any signed-in user, edits and start/stop for administrators, and the cost quote of every active
 * rail. Everything lives in core (rails/model.ts: schemas and the cost formula; rails/store.ts);
 * this module parses, authorises and shapes the replies. Rail metrics and throughput come with
 * payments.
 */

const tags = [TAGS.accounts] as [typeof TAGS.accounts];
const ADMIN_ONLY = "Administrators only (a user is answered 403 `admin_required`).";

/* ---------- replies ---------- */

const RailsReply = z.object({ data: z.array(Rail) });
const RailDetailReply = z.object({ data: Rail.extend({ history: z.array(RailChange).describe("The last 20 admin changes, newest first") }) });
const RailMessageReply = z.object({ message: z.string(), data: Rail });
const RailCostResultSchema = z.object({
  railId: z.string(),
  name: z.string(),
  totalCost: z.string().describe("Decimal string in the quote's currency"),
  totalCostMinor: z.number().int(),
  breakdown: z.object({ fixedFee: z.string(), fxSpread: z.string(), networkFee: z.string() }),
  breakdownMinor: z.object({ fixedFee: z.number().int(), fxSpread: z.number().int(), networkFee: z.number().int() }),
  isOptimal: z.boolean().describe("The Best Option: the cheapest active rail (ties: faster, then higher success rate, then id)"),
  estimatedTime: z.number().describe("The rail's average processing time, seconds"),
  costPercent: z.number().describe("Total cost as a percentage of the amount, 3 decimals"),
  costBand: z.enum(["green", "yellow", "red"]).describe("green under 1 %, yellow under 2 %, red otherwise"),
});
const QuoteReply = z.object({
  data: z.object({
    amount: z.string(),
    amountMinor: z.number().int(),
    currency: z.enum(["USD", "EUR", "GBP", "JPY"]),
    results: z.array(RailCostResultSchema).describe("One per ACTIVE rail, in console order; empty when the amount is 0"),
    optimalRailId: z.string().nullable(),
  }),
});

/* ---------- examples ---------- */

const exampleRail = { ...SEED_RAILS[0]!, lastPing: null, version: 1, updated_at: "2026-01-15T09:30:00.000Z", updated_by: "system (spec 001 §9 sample rails)", lastChange: null };
const exampleChange = { version: 2, action: "update" as const, at: "2026-01-15T10:00:00.000Z", by: "admin@example.com", before: { fxSpread: 0.01 }, after: { fxSpread: 0.008 } };
const exampleQuote = (() => {
  const results = quoteRails(SEED_RAILS.map((rail) => ({ ...rail })), 100_000, "EUR");
  return { amount: "1000.00", amountMinor: 100_000, currency: "EUR" as const, results, optimalRailId: results.find((result) => result.isOptimal)?.railId ?? null };
})();

const idParameter = pathParameter("id", `The rail id (${RAIL_ID_PATTERN.source}), e.g. ach, wire, card, swift, sepa, crypto`, "ach");
const railErrors = { 400: ["invalid_rail_id"], 401: true, 404: ["rail_not_found"], 503: true } as const;

/* ---------- routes ---------- */

const listRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "get",
  path: "/",
  operationId: "listRails",
  summary: "The payment rails",
  description: "Every rail with the fields of spec 001 §3 (fixed fee and cost in USD as decimal strings and cents; FX spread and error injection as fractions; success/error rate and SLA in percent; average time in seconds), its version and who changed it last. The six sample rails of spec 001 §9 are seeded on first use (`metricsSource: sample` until payments compute the figures).",
  "x-complexity": "low",
  responses: {
    200: jsonReply("The rails", "RailsReply", RailsReply, { data: [exampleRail] }),
    ...errors({ 401: true, 503: true }),
  },
});

const getRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "get",
  path: "/{id}",
  operationId: "getRail",
  summary: "One payment rail with its change history",
  description: "The rail and its last 20 admin changes (who, when, the fields before and after).",
  "x-complexity": "low",
  parameters: [idParameter],
  responses: {
    200: jsonReply("The rail", "RailDetailReply", RailDetailReply, { data: { ...exampleRail, history: [exampleChange] } }),
    ...errors(railErrors),
  },
});

const updateRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "put",
  path: "/{id}",
  operationId: "updateRail",
  summary: "Edit a rail",
  description: `The rail edit form of spec 001 §5: name (unique), type (${["ACH", "Wire", "Card", "Crypto", "SWIFT", "SEPA", "UPI"].join(", ")}), status (active, maintenance, down), fixed fee in USD (step 0.01), FX spread in PERCENT (step 0.001; stored as a fraction, ÷100), SLA target 0-100 % (step 0.1), optional error injection rate 0-100 % (step 0.1; stored as a fraction; for testing and demo only). With \`version\`, a rail changed since that version is not overwritten (409 \`rail_changed\`). A bad field is a 400 naming it and nothing changes. ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  parameters: [idParameter],
  request: { body: jsonBody("RailEditInput", RailEditInput, { name: "SEPA", type: "SEPA", status: "active", fixedFee: "0.02", fxSpreadPercent: 0.8, slaTarget: 99.9, errorInjectionPercent: 0, version: 1 }) },
  responses: {
    200: jsonReply("The rail as saved", "RailUpdateReply", RailMessageReply, { message: "Rail SEPA saved", data: { ...exampleRail, version: 2, lastChange: exampleChange } }),
    ...errors({ 400: ["validation_error", "invalid_json", "invalid_rail_id"], 401: true, 403: ["admin_required"], 404: ["rail_not_found"], 409: ["rail_changed", "rail_name_taken"], 503: true }),
  },
});

const startRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "post",
  path: "/{id}/start",
  operationId: "startRail",
  summary: "Start a rail (status active)",
  description: `Sets the rail's status to active (from maintenance or down), recording who and when; an active rail is left as it is. Only active rails are quoted (and, later, routed to). ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  parameters: [idParameter],
  responses: {
    200: jsonReply("The rail", "RailStartReply", RailMessageReply, { message: "Rail ACH started", data: exampleRail }),
    ...errors({ ...railErrors, 403: ["admin_required"], 409: ["rail_changed"] }),
  },
});

const stopRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "post",
  path: "/{id}/stop",
  operationId: "stopRail",
  summary: "Stop a rail (status down)",
  description: `Sets the rail's status to down, recording who and when; a stopped rail is no longer quoted. A rail already down is left as it is. ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  parameters: [idParameter],
  responses: {
    200: jsonReply("The rail", "RailStopReply", RailMessageReply, { message: "Rail ACH stopped", data: { ...exampleRail, status: "down" } }),
    ...errors({ ...railErrors, 403: ["admin_required"], 409: ["rail_changed"] }),
  },
});

const quoteRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "post",
  path: "/quote",
  operationId: "quoteRails",
  summary: "Cost of an amount over every active rail",
  description: "The cost simulator of spec 001 §9 on the server, with the same function the console uses: per ACTIVE rail, total = fixed fee + FX spread × amount (zero in USD) + 0.1 % network fee, each part rounded half-up to the currency's minor unit (JPY: whole yen); the fixed fee (a USD figure) is taken as that many units of the amount's currency, as the spec's simulator does. Exactly one result is the Best Option (`isOptimal`). `amount` is a decimal string or number, 0 or more (0: no results); anything else is a 400. Writes nothing.",
  "x-complexity": "low",
  request: { body: jsonBody("RailQuoteInput", QuoteInput, { amount: "1000", currency: "EUR" }) },
  responses: {
    200: jsonReply("The cost per active rail", "RailQuoteReply", QuoteReply, { data: exampleQuote }),
    ...errors({ 400: ["validation_error", "invalid_json"], 401: true, 503: true }),
  },
});

/* ---------- handlers ---------- */

const actorOf = (c: Context<AppEnv>) => c.get("auth").user.email;

/** Signed-in for every route; the admin routes add requireAdmin (checked on the server, before the body is read). */
export const railRoutes = $(new OpenAPIHono<AppEnv>().use(requireAuth))
  .openapi(quoteRoute, async (c) => {
    const input = await parseJsonBody(c, QuoteInput);
    const results = quoteRails(await listRails(c.get("core")), input.amountMinor, input.currency);
    return c.json({ data: { amount: toDecimalString(input.amountMinor, input.currency), amountMinor: input.amountMinor, currency: input.currency, results, optimalRailId: results.find((result) => result.isOptimal)?.railId ?? null } }, 200);
  })
  .openapi(listRoute, async (c) => c.json({ data: await listRails(c.get("core")) }, 200))
  .openapi(getRoute, async (c) => {
    const id = c.req.param("id");
    const rail = await getRail(c.get("core"), id);
    return c.json({ data: { ...rail, history: await railHistory(c.get("core"), id) } }, 200);
  })
  .openapi({ ...updateRoute, middleware: [requireAdmin] as const }, async (c) => {
    const edit = await parseJsonBody(c, RailEditInput);
    const rail = await updateRail(c.get("core"), c.req.param("id"), edit, actorOf(c));
    return c.json({ message: `Rail ${rail.name} saved`, data: rail }, 200);
  })
  .openapi({ ...startRoute, middleware: [requireAdmin] as const }, async (c) => {
    const rail = await setRailRunning(c.get("core"), c.req.param("id"), true, actorOf(c));
    return c.json({ message: `Rail ${rail.name} started`, data: rail }, 200);
  })
  .openapi({ ...stopRoute, middleware: [requireAdmin] as const }, async (c) => {
    const rail = await setRailRunning(c.get("core"), c.req.param("id"), false, actorOf(c));
    return c.json({ message: `Rail ${rail.name} stopped`, data: rail }, 200);
  });
