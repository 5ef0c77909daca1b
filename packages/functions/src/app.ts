import { OpenAPIHono } from "@hono/zod-openapi";
import { RequestMetrics } from "@fintech/core/metrics/recorder";
import { createRequestMetrics } from "@fintech/core/metrics/service";
import type { CoreContext } from "@fintech/core/shared/context";
import { composeApp } from "./compose";
import type { AppEnv } from "./http/app-context";
import { DOCUMENT_CONFIG, registerComponents } from "./http/openapi";
import { withRequiredScopes } from "./http/scope-document";
import { API_SECTIONS, mountAll, type ApiSection } from "./sections";

/** Every section of the route table (sections.ts), loaded once, in the table's order. */
const SECTION_MOUNTS: Awaited<ReturnType<ApiSection["load"]>>[] = [];
for (const section of API_SECTIONS) SECTION_MOUNTS.push(await section.load());

/**
 * Every route of the API, each module declared with createRoute (see http/openapi.ts), so this
 * one composition is both what the app serves and what the OpenAPI document describes: the route
 * table's sections, all mounted, in order. The request metrics reach the modules that read them
 * (status reads them from the request context; the developers' response times keep a per-app
 * cache, hence the argument).
 */
export function apiRoutes(metrics: RequestMetrics): OpenAPIHono<AppEnv> {
  const context = { metrics, document: () => openApiDocument() };
  return SECTION_MOUNTS.reduce((routes, mountsOf) => mountAll(routes, mountsOf(context)), new OpenAPIHono<AppEnv>());
}

type OpenApiDocument = ReturnType<OpenAPIHono["getOpenAPI31Document"]>;
let document: OpenApiDocument | undefined;

/**
 * The OpenAPI 3.1 document of apiRoutes, built once (the routes never change at run time) and
 * without a store: the metrics given here are never read, only the route declarations are.
 */
export function openApiDocument(): OpenApiDocument {
  if (!document) {
    const routes = apiRoutes(new RequestMetrics({ clock: () => new Date() }));
    registerComponents(routes);
    // What an API key needs for each operation, from the same rules the middleware applies.
    document = withRequiredScopes(routes.getOpenAPI31Document(DOCUMENT_CONFIG));
  }
  return document;
}

export interface AppOptions {
  /**
   * Request metrics of this process (one per Lambda instance), flushed to the table in windows.
   * The Lambda entry points pass their own so they can flush before each invocation returns.
   */
  metrics?: RequestMetrics;
}

/**
 * The one Hono app: every route of the API behind the middleware of compose.ts, as the local
 * server and the tests serve it. In the cloud the API function serves the same route table
 * section by section (sectioned-app.ts) and the feeds function the feed routes alone (feeds-app.ts),
 * both through the same middleware.
 */
export function createApp(core: CoreContext, options: AppOptions = {}) {
  const metrics = options.metrics ?? createRequestMetrics(core);
  return composeApp(core, metrics, apiRoutes(metrics));
}

export type App = ReturnType<typeof createApp>;
