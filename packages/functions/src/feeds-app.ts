import { Hono } from "hono";
import { createRequestMetrics } from "@fintech/core/metrics/service";
import type { CoreContext } from "@fintech/core/shared/context";
import type { AppOptions } from "./app";
import { composeApp } from "./compose";
import { FEED_MOUNTS } from "@fintech/core/events/feed-paths";
import type { AppEnv } from "./http/app-context";
import { kycFeedRoutes } from "./routes/kyc-feed";
import { ledgerFeedRoutes } from "./routes/ledger-feed";
import { liveFeedRoutes } from "./routes/live-feed";
import { opsFeedRoutes } from "./routes/ops-feed";
import { paymentFeedRoutes, paymentRestFeedRoutes } from "./routes/payment-feed";

/**
 * The feed routes, mounted where the route table (sections.ts) mounts them: every path of
 * FEED_PATHS (core/events/feed-paths.ts), the ones CloudFront sends the feeds function (infra/resources/routes.ts).
 * The whole API serves them too (the local server answers everything on one port); the feeds
 * function serves only these, so anything else gets the API's answer to a path it does not serve.
 * The feed modules hold nothing but their feeds (the commands and health checks beside them write
 * or need more than the function's read-only role, and are modules of their own that stay with the
 * API), so the function loads no command code either.
 */
export function feedRoutes(): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .route(FEED_MOUNTS.ledger, ledgerFeedRoutes)
    .route(FEED_MOUNTS.kyc, kycFeedRoutes)
    .route(FEED_MOUNTS.paymentRest, paymentRestFeedRoutes)
    .route(FEED_MOUNTS.payment, paymentFeedRoutes)
    .route(FEED_MOUNTS.ops, opsFeedRoutes)
    .route(FEED_MOUNTS.live, liveFeedRoutes);
}

/** The app of the Feeds function: the feed routes behind the API's own middleware (compose.ts). */
export function createFeedsApp(core: CoreContext, options: AppOptions = {}) {
  return composeApp(core, options.metrics ?? createRequestMetrics(core), feedRoutes());
}
