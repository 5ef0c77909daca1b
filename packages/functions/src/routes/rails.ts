import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/env";

/** PLACEHOLDER: filled in by the payment-rails work in progress. */
export const railRoutes = new OpenAPIHono<AppEnv>();
