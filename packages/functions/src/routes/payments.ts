import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/env";

/** Payments (issue 12): POST/GET /v1/payments (spec 001 §7). Placeholder until the payments slice lands. */
export const paymentRoutes = new OpenAPIHono<AppEnv>();
