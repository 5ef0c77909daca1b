import { $, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import {
  DryRunInput,
  dryRun,
  getRuleSetVersion,
  parseVersionParameter,
  publishDraft,
  rulesOverview,
  saveDraft,
} from "@fintech/core/kyc/risk/rule-sets";
import { uploadWatchlist, watchlistSummary, WATCHLIST_LIMITS } from "@fintech/core/kyc/risk/watchlist";
import { AppError } from "@fintech/core/shared/errors";
import type { AppEnv } from "../http/app-context";
import { requireAdmin, requireAuth } from "../http/middleware";
import { jsonBody as parseJsonBody, parseJsonText, parseWith, readJson } from "../http/validate";
import {
  draftRoute,
  overviewRoute,
  PublishInput,
  publishRoute,
  testRoute,
  versionRoute,
  WatchlistJsonInput,
  watchlistRoute,
  watchlistUploadRoute,
} from "./kyc-rules.openapi";

/**
 * The risk engine's rules and watchlist for administrators (docs/kyc.md#risk-engine-rules-as-data),
 * mounted at /api/v1/kyc/rules: list versions, read one, save the draft, dry-run a rule set against
 * a stored submission, publish, upload and read the watchlist. Everything lives in core
 * (kyc/risk/rule-sets.ts, watchlist.ts); this module parses, authorises and shapes replies. What
 * the OpenAPI document says of each route is in kyc-rules.openapi.ts.
 */

/** The watchlist route takes up to 2 MB of CSV (JSON-escaped, up to about twice that); see http/body-limits.ts. */
const WATCHLIST_MAX_BODY_BYTES = 2 * WATCHLIST_LIMITS.maxBytes + 64 * 1024;

const actorOf = (c: Context<AppEnv>) => c.get("auth").user.email;

const ExpectedRevision = z.object({
  expected_revision: z.coerce
    .number({ error: "expected_revision must be a whole number" })
    .int("expected_revision must be a whole number")
    .min(0)
    .max(1_000_000_000)
    .optional(),
});

/** The CSV of a watchlist upload: the text/csv body, or `csv` of a JSON body. */
async function readWatchlist(c: Context<AppEnv>): Promise<{ csv: string; name?: string | undefined }> {
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "text/csv" || type === "text/plain") {
    const name = c.req.query("name");
    return { csv: await c.req.text(), name: name?.slice(0, WATCHLIST_LIMITS.maxLabelLength) };
  }
  if (type === "application/json") return parseWith(WatchlistJsonInput, await readJson(c));
  throw new AppError(415, "unsupported_media_type", "Send the watchlist as text/csv, or as JSON {csv, name}");
}

const tooLarge = (c: Context<AppEnv>) =>
  c.json(
    { message: `A watchlist CSV is at most ${WATCHLIST_LIMITS.maxBytes / 1024 / 1024} MB`, code: "payload_too_large" },
    413,
  );

/** Every route: a signed-in administrator. */
export const kycRuleRoutes = $(
  new OpenAPIHono<AppEnv>()
    .use(requireAuth, requireAdmin)
    .use("/watchlist", bodyLimit({ maxSize: WATCHLIST_MAX_BODY_BYTES, onError: tooLarge })),
)
  .openapi(overviewRoute, async (c) => c.json({ data: await rulesOverview(c.get("core")) }, 200))
  .openapi(versionRoute, async (c) =>
    c.json({ data: await getRuleSetVersion(c.get("core"), parseVersionParameter(c.req.param("version"))) }, 200),
  )
  .openapi(draftRoute, async (c) => {
    const { expected_revision } = parseWith(ExpectedRevision, c.req.query());
    const draft = await saveDraft(c.get("core"), await readJson(c), actorOf(c), expected_revision);
    return c.json({ message: `Draft saved (revision ${draft.revision})`, data: draft }, 200);
  })
  .openapi(testRoute, async (c) =>
    c.json({ data: await dryRun(c.get("core"), await parseJsonBody(c, DryRunInput)) }, 200),
  )
  .openapi(publishRoute, async (c) => {
    // The body is optional: an empty one publishes whatever the draft is now.
    const text = await c.req.text();
    const input = text.trim() ? parseWith(PublishInput, parseJsonText(text)) : {};
    const published = await publishDraft(c.get("core"), actorOf(c), input.draft_revision);
    return c.json({ message: `Rule set version ${published.version} published`, data: published }, 201);
  })
  .openapi(watchlistUploadRoute, async (c) => {
    const summary = await uploadWatchlist(c.get("core"), await readWatchlist(c), actorOf(c));
    return c.json(
      { message: `Watchlist version ${summary.version} uploaded: ${summary.entries} entries`, data: summary },
      201,
    );
  })
  .openapi(watchlistRoute, async (c) => c.json({ data: await watchlistSummary(c.get("core")) }, 200));
