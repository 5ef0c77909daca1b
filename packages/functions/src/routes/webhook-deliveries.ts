import { $, OpenAPIHono } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { DeliveryListQuery, ReplaySinceInput } from "@fintech/core/webhooks/model";
import {
  getDelivery,
  listDeliveries,
  replayDelivery,
  replaySince,
  sendTestEvent,
} from "@fintech/core/webhooks/deliveries";
import type { AppEnv } from "../http/app-context";
import { requireAuth } from "../http/middleware";
import { jsonBody, queryWith } from "../http/validate";
import {
  getDeliveryRoute,
  listDeliveriesRoute,
  replayDeliveryRoute,
  replaySinceRoute,
  sendTestEventRoute,
} from "./webhook-deliveries.openapi";

/**
 * An endpoint's delivery log, replay and test send (docs/webhooks.md#the-delivery-log-replay-and-test-events),
 * mounted at /api/v1/webhooks beside the endpoint routes. Core checks that the endpoint is the
 * caller's (webhooks/deliveries.ts); this module parses and shapes the replies.
 */

/** Signed in (once: the endpoint routes share the mount and may have authenticated already). */
const signedIn: MiddlewareHandler<AppEnv> = async (c, next) => (c.get("auth") ? next() : requireAuth(c, next));

const ids = (c: { req: { param(name: string): string | undefined } }) => ({
  endpointId: c.req.param("id") ?? "",
  deliveryId: c.req.param("deliveryId") ?? "",
});

export const webhookDeliveryRoutes = $(new OpenAPIHono<AppEnv>().use(signedIn))
  .openapi(listDeliveriesRoute, async (c) => {
    const query = queryWith(c, DeliveryListQuery);
    const page = await listDeliveries(c.get("core"), c.get("auth").userId, ids(c).endpointId, query);
    return c.json({ data: page.items, has_more: page.has_more, next_cursor: page.next_cursor }, 200);
  })
  .openapi(getDeliveryRoute, async (c) => {
    const { endpointId, deliveryId } = ids(c);
    return c.json({ data: await getDelivery(c.get("core"), c.get("auth").userId, endpointId, deliveryId) }, 200);
  })
  .openapi(replayDeliveryRoute, async (c) => {
    const { endpointId, deliveryId } = ids(c);
    return c.json({ data: await replayDelivery(c.get("core"), c.get("auth").userId, endpointId, deliveryId) }, 200);
  })
  .openapi(replaySinceRoute, async (c) => {
    const input = await jsonBody(c, ReplaySinceInput);
    return c.json(
      { data: await replaySince(c.get("core"), c.get("auth").userId, ids(c).endpointId, input.since) },
      200,
    );
  })
  .openapi(sendTestEventRoute, async (c) =>
    c.json({ data: await sendTestEvent(c.get("core"), c.get("auth").userId, ids(c).endpointId) }, 200),
  );
