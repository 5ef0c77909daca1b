import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/app-context";

/** Placeholder registered by the lead; the helper that owns this module replaces it. */
export const eventRoutes = new OpenAPIHono<AppEnv>();
