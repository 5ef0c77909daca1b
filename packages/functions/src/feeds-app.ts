import { Hono } from "hono";
import { createRequestMetrics } from "@fintech/core/metrics/service";
import type { CoreContext } from "@fintech/core/shared/context";
import type { AppOptions } from "./app";
import { composeApp } from "./compose";
import type { AppEnv } from "./http/env";
import { kycStreamRoutes } from "./routes/kyc-stream";
import { ledgerStreamRoutes } from "./routes/ledger-stream";
import { LIVE_STREAM_PATH, liveStreamRoutes } from "./routes/live-stream";
import { paymentFeedRoutes, paymentStreamRoutes } from "./routes/payment-stream";
import { KYC_STREAM_PATH, LEDGER_STREAM_PATH, PAYMENT_STREAM_PATH } from "./routes/streams";

/** Where the payment feed of the REST surface is served (paymentFeedRoutes, mounted at /v1/payments). */
export const PAYMENT_FEED_PATH = "/v1/payments/stream";

/**
 * Every stream the feeds function serves, and nothing else: the SSE routes that CloudFront sends
 * it (infra/spec/routes.ts feedPathPatterns). The commands and health checks beside them write or
 * need more than the function's read-only role, and stay with the API.
 */
export const FEED_PATHS: readonly string[] = [
  LEDGER_STREAM_PATH,
  KYC_STREAM_PATH,
  PAYMENT_STREAM_PATH,
  LIVE_STREAM_PATH,
  PAYMENT_FEED_PATH,
];

/**
 * The stream routes, mounted where the route table (sections.ts) mounts them. The whole API
 * serves them too (the local server answers everything on one port); the feeds function serves
 * only these, so anything else gets the API's answer to a path it does not serve. The stream
 * modules hold nothing but their streams (the commands beside them are modules of their own), so
 * the function loads no command code either.
 */
export function feedRoutes(): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .route("/api/grpc/ledger", ledgerStreamRoutes)
    .route("/api/grpc/kyc", kycStreamRoutes)
    .route("/v1/payments", paymentFeedRoutes)
    .route("/api/grpc/payment", paymentStreamRoutes)
    .route("/api/grpc/live", liveStreamRoutes);
}

/** The app of the Feeds function: the stream routes behind the API's own middleware (compose.ts). */
export function createFeedsApp(core: CoreContext, options: AppOptions = {}) {
  return composeApp(core, options.metrics ?? createRequestMetrics(core), feedRoutes());
}
