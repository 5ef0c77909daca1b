import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/env";

/** PLACEHOLDER: filled in by the KYC work in progress. */
export const kycReviewRoutes = new OpenAPIHono<AppEnv>();
