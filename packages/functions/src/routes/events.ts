import { $, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { EVENT_ID_PATTERN } from "@fintech/core/events/event-id";
import { badRequest } from "@fintech/core/shared/errors";
import {
  EVENTS_PAGE_DEFAULT,
  EVENTS_PAGE_MAX,
  eventTypesOfFilter,
  listEvents,
  MAX_TYPE_FILTER_ENTRIES,
} from "@fintech/core/webhooks/events";
import type { AppEnv } from "../http/app-context";
import { requireAuth } from "../http/middleware";
import { listEventsRoute } from "./events.openapi";

/**
 * The events list, mounted at /api/v1/events (docs/webhooks.md#the-events-list): the caller's own
 * recent events by stable id, so a client that missed a webhook or a stream can catch up. Who
 * lists is whose events are listed, administrators included; an API key needs the read scope of
 * each feed the `type` filter touches (http/scopes.ts, kind "events").
 */

const MAX_AFTER_LENGTH = 64;
const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${EVENTS_PAGE_MAX}`;

/** The `type` entries, repeated or comma-separated; the count is bounded before anything is split further. */
function typeEntries(c: Context<AppEnv>): string[] {
  const values = c.req.queries("type") ?? [];
  if (values.length > MAX_TYPE_FILTER_ENTRIES)
    throw badRequest(`type may name at most ${MAX_TYPE_FILTER_ENTRIES} event types`, "invalid_event_type");
  return values.flatMap((value) => value.split(",").map((part) => part.trim())).filter(Boolean);
}

function afterOf(c: Context<AppEnv>): string | undefined {
  const after = c.req.query("after");
  if (after === undefined) return undefined;
  if (after.length > MAX_AFTER_LENGTH || !EVENT_ID_PATTERN.test(after))
    throw badRequest("after must be an event id (evt_…), e.g. the next_after of the previous page", "invalid_after");
  return after;
}

function limitOf(c: Context<AppEnv>): number {
  const limit = c.req.query("limit");
  if (limit === undefined) return EVENTS_PAGE_DEFAULT;
  if (!/^\d{1,3}$/.test(limit)) throw badRequest(LIMIT_MESSAGE);
  const value = Number(limit);
  if (value < 1 || value > EVENTS_PAGE_MAX) throw badRequest(LIMIT_MESSAGE);
  return value;
}

export const eventRoutes = $(new OpenAPIHono<AppEnv>().use(requireAuth)).openapi(listEventsRoute, async (c) => {
  const types = eventTypesOfFilter(typeEntries(c));
  const after = afterOf(c);
  const page = await listEvents(c.get("core"), c.get("auth").userId, {
    types,
    limit: limitOf(c),
    ...(after === undefined ? {} : { after }),
  });
  return c.json(page, 200);
});
