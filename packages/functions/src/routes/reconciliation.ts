import { $, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { z } from "zod";
import { badRequest, notFound } from "@fintech/core/shared/errors";
import {
  BreakQuery,
  FileId,
  FileQuery,
  NightlyInput,
  PositionsQuery,
  RECON_MESSAGES,
  ReopenBreakInput,
  ResolveBreakInput,
  UploadRequest,
} from "@fintech/core/reconciliation/model";
import { parseBreakId } from "@fintech/core/reconciliation/keys";
import {
  clearingPositions,
  createSettlementUpload,
  getSettlementFile,
  listBreaks,
  listSettlementFiles,
  reconcileNight,
  reopenBreak,
  resolveBreak,
} from "@fintech/core/reconciliation/service";
import type { AppEnv } from "../http/app-context";
import { requireAdmin, requireAuth } from "../http/middleware";
import { idempotencyKey } from "../http/idempotency";
import { jsonBody as parseJsonBody, queryWith } from "../http/validate";
import {
  getFileRoute,
  listBreaksRoute,
  listFilesRoute,
  nightlyRoute,
  positionsRoute,
  reopenBreakRoute,
  resolveBreakRoute,
  uploadRoute,
} from "./reconciliation.openapi";

/**
 * Settlement reconciliation (docs/money-operations.md#reconciliation), mounted at
 * /api/v1/reconciliation, administrators only: reconciled files, breaks and their resolution, the
 * presigned upload of a file, clearing positions and the nightly check on demand. Everything lives
 * in core (reconciliation/); this module parses, authorises and shapes the replies.
 */

const actorOf = (c: Context<AppEnv>) => ({ userId: c.get("auth").user.id, email: c.get("auth").user.email });

/** The query parsed with `schema`; a parameter given twice is a 400. */
function singleQuery<S extends z.ZodType>(c: Context<AppEnv>, schema: S): z.infer<S> {
  const repeated = Object.entries(c.req.queries()).find(([, values]) => values.length > 1);
  if (repeated) throw badRequest(`${repeated[0].slice(0, 40)} may be given once`);
  return queryWith(c, schema);
}

/** A file id from the path: checked before it goes near a key (a malformed one is a 404: no such file). */
function fileIdOf(c: Context<AppEnv>): string {
  const id = c.req.param("id") ?? "";
  if (!FileId.safeParse(id).success) throw notFound(RECON_MESSAGES.fileNotFound, "file_not_found");
  return id;
}

function breakIdOf(c: Context<AppEnv>): string {
  const id = c.req.param("id") ?? "";
  if (id.length > 200 || !parseBreakId(id)) throw notFound(RECON_MESSAGES.breakNotFound, "break_not_found");
  return id;
}

const withKey = (c: Context<AppEnv>) => idempotencyKey(c) ?? undefined;

/** Signed in, then administrators only: checked on the server before any body or query is read. */
export const reconciliationRoutes = $(new OpenAPIHono<AppEnv>().use(requireAuth).use(requireAdmin))
  .openapi(listFilesRoute, async (c) => {
    const query = singleQuery(c, FileQuery);
    const reply = await listSettlementFiles(c.get("core"), {
      railId: query.rail,
      status: query.status,
      limit: query.limit,
      cursor: query.cursor,
    });
    return c.json(reply, 200);
  })
  .openapi(getFileRoute, async (c) => c.json(await getSettlementFile(c.get("core"), fileIdOf(c)), 200))
  .openapi(listBreaksRoute, async (c) => {
    const query = singleQuery(c, BreakQuery);
    const reply = await listBreaks(c.get("core"), {
      class: query.class,
      status: query.status,
      railId: query.rail,
      fileId: query.fileId,
      limit: query.limit,
      cursor: query.cursor,
    });
    return c.json(reply, 200);
  })
  .openapi(resolveBreakRoute, async (c) => {
    const id = breakIdOf(c);
    const key = withKey(c);
    const input = await parseJsonBody(c, ResolveBreakInput);
    return c.json(await resolveBreak(c.get("core"), actorOf(c), id, input, key), 200);
  })
  .openapi(reopenBreakRoute, async (c) => {
    const id = breakIdOf(c);
    const key = withKey(c);
    const input = await parseJsonBody(c, ReopenBreakInput);
    return c.json(await reopenBreak(c.get("core"), actorOf(c), id, input, key), 200);
  })
  .openapi(uploadRoute, async (c) => {
    const input = await parseJsonBody(c, UploadRequest);
    return c.json(await createSettlementUpload(c.get("core"), actorOf(c), input), 201);
  })
  .openapi(positionsRoute, async (c) => {
    const { date } = singleQuery(c, PositionsQuery);
    return c.json(await clearingPositions(c.get("core"), date), 200);
  })
  .openapi(nightlyRoute, async (c) => {
    const { date } = await parseJsonBody(c, NightlyInput);
    const core = c.get("core");
    return c.json(await reconcileNight(core, core.clock(), date), 200);
  });
