import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/env";

/** The payment streams (issue 12): /api/grpc/payment/* and GET /v1/payments/stream. Placeholders until the streams land. */
export const paymentStreamRoutes = new OpenAPIHono<AppEnv>();
/** Mounted at /v1/payments before paymentRoutes, so /v1/payments/stream is never taken for a payment id. */
export const paymentFeedRoutes = new OpenAPIHono<AppEnv>();
