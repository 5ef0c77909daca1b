import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { secureHeaders } from "hono/secure-headers";
import type { RequestMetrics } from "@fintech/core/metrics/recorder";
import type { CoreContext } from "@fintech/core/shared/context";
import { hasOwnBodyLimit } from "./http/body-limits";
import { corsPolicy } from "./http/cors";
import type { AppEnv } from "./http/app-context";
import { errorReply, requestContext } from "./http/middleware";
import { requireOriginProof } from "./http/origin-verify";
import { recordRequestMetrics } from "./http/request-metrics";

const MAX_JSON_BODY_BYTES = 1024 * 1024;

/**
 * The one composition of middleware around a set of routes: the whole API (app.ts) and the
 * stream routes alone (feeds-app.ts) are served through exactly this, so a request meets the same
 * origin check, request id and log line, metrics, headers, CORS and body limit on either function.
 * This module imports no route (nor the OpenAPI wrapper, which only the route modules and the
 * document need): an app built on it bundles only the routes it is given.
 */
export function composeApp(core: CoreContext, metrics: RequestMetrics, routes: Hono<AppEnv>): Hono<AppEnv> {
  // Not strict: the product's client (docs/product/backend-client.md#authenticated-calls) calls
  // both /api/v1/accounts and /api/v1/accounts/.
  const app = new Hono<AppEnv>({ strict: false });
  app.use(requestContext(core));
  // In the cloud, before anything else: only CloudFront's requests get further (403 otherwise).
  app.use(requireOriginProof(core.config.ORIGIN_SECRET));
  app.use(recordRequestMetrics(metrics));
  app.use(secureHeaders());
  app.use(corsPolicy(core.config));
  // The KYC document routes take pictures and set their own limits (a 6 MB file must still get
  // "File size must be less than 5MB", docs/product/kyc.md#messages); every other route keeps the
  // 1 MB one.
  const generalBodyLimit = bodyLimit({ maxSize: MAX_JSON_BODY_BYTES });
  app.use((c, next) => (hasOwnBodyLimit(c.req.path) ? next() : generalBodyLimit(c, next)));

  app.route("/", routes);

  app.notFound((c) => c.json({ message: `No route for ${c.req.method} ${c.req.path}`, code: "not_found" }, 404));
  app.onError(errorReply);
  return app;
}
