import { $, OpenAPIHono } from "@hono/zod-openapi";
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  rotateEndpointSecret,
  updateEndpoint,
} from "@fintech/core/webhooks/endpoints";
import { eventTypeCatalogue } from "@fintech/core/webhooks/event-catalogue";
import { CreateWebhookEndpointInput, UpdateWebhookEndpointInput } from "@fintech/core/webhooks/model";
import type { AppEnv } from "../http/app-context";
import { idempotencyKey } from "../http/idempotency";
import { requireAuth } from "../http/middleware";
import { parseWith, readJson } from "../http/validate";
import {
  createEndpointRoute,
  deleteEndpointRoute,
  getEndpointRoute,
  listEndpointsRoute,
  listEventTypesRoute,
  rotateSecretRoute,
  updateEndpointRoute,
} from "./webhooks.openapi";

/**
 * Webhook endpoints, mounted at /api/v1/webhooks (docs/webhooks.md#endpoints-and-secrets): the
 * event-type catalogue and the caller's own endpoints. Everyone, administrators included, sees
 * and changes only their own; API keys need webhooks:read / webhooks:write (http/scopes.ts).
 */
export const webhookEndpointRoutes = $(new OpenAPIHono<AppEnv>().use(requireAuth))
  .openapi(listEventTypesRoute, (c) => c.json({ data: eventTypeCatalogue() }, 200))
  .openapi(listEndpointsRoute, async (c) =>
    c.json({ data: await listEndpoints(c.get("core"), c.get("auth").userId) }, 200),
  )
  .openapi(createEndpointRoute, async (c) => {
    const key = idempotencyKey(c);
    const input = parseWith(CreateWebhookEndpointInput, await readJson(c));
    const { replayed, ...reveal } = await createEndpoint(c.get("core"), c.get("auth").userId, input, key);
    if (replayed) c.header("Idempotent-Replayed", "true");
    return c.json(
      { message: "Webhook endpoint created: copy the signing secret now, it is not shown again", data: reveal },
      201,
    );
  })
  .openapi(getEndpointRoute, async (c) =>
    c.json({ data: await getEndpoint(c.get("core"), c.get("auth").userId, c.req.param("id")) }, 200),
  )
  .openapi(updateEndpointRoute, async (c) => {
    const input = parseWith(UpdateWebhookEndpointInput, await readJson(c));
    return c.json({ data: await updateEndpoint(c.get("core"), c.get("auth").userId, c.req.param("id"), input) }, 200);
  })
  .openapi(deleteEndpointRoute, async (c) => {
    await deleteEndpoint(c.get("core"), c.get("auth").userId, c.req.param("id"));
    return c.body(null, 204);
  })
  .openapi(rotateSecretRoute, async (c) =>
    c.json(
      {
        message: "Signing secret rotated: copy it now, it is not shown again",
        data: await rotateEndpointSecret(c.get("core"), c.get("auth").userId, c.req.param("id")),
      },
      200,
    ),
  );
