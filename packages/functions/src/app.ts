import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { secureHeaders } from "hono/secure-headers";
import { RequestMetrics } from "@fintech/core/metrics/recorder";
import { createRequestMetrics } from "@fintech/core/metrics/service";
import type { CoreContext } from "@fintech/core/shared/context";
import type { AppEnv } from "./http/env";
import { errorReply, requestContext } from "./http/middleware";
import { DOCUMENT_CONFIG, registerComponents } from "./http/openapi";
import { hasOwnBodyLimit } from "./http/body-limits";
import { requireOriginProof } from "./http/origin-verify";
import { accountRoutes } from "./routes/accounts";
import { apiKeyRoutes } from "./routes/api-keys";
import { authRoutes } from "./routes/auth";
import { DEVELOPERS_PREFIX, developerRoutes } from "./routes/developers";
import { authenticatedHealthRoutes, publicHealthRoutes } from "./routes/health";
import { kycRoutes } from "./routes/kyc";
import { kycDocumentRoutes } from "./routes/kyc-documents";
import { kycProfileRoutes } from "./routes/kyc-profiles";
import { kycReviewRoutes } from "./routes/kyc-review";
import { kycRuleRoutes } from "./routes/kyc-rules";
import { kycStreamRoutes } from "./routes/kyc-stream";
import { ledgerRoutes } from "./routes/ledger";
import { ledgerStreamRoutes } from "./routes/ledger-stream";
import { openApiDocumentRoutes } from "./routes/openapi";
import { paymentRoutes } from "./routes/payments";
import { paymentFeedRoutes, paymentStreamRoutes } from "./routes/payment-stream";
import { railRoutes } from "./routes/rails";
import { recordRequestMetrics, STATUS_PREFIX, statusRoutes } from "./routes/status";
import { userRoutes } from "./routes/users";

const MAX_JSON_BODY_BYTES = 1024 * 1024;

/**
 * Every route of the API, each module declared with createRoute (see http/openapi.ts), so this
 * one composition is both what the app serves and what the OpenAPI document describes. The
 * request metrics reach the modules that read them (status reads them from the request context;
 * the developers' response times keep a per-app cache, hence the argument).
 */
export function apiRoutes(metrics: RequestMetrics): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>()
    .route("/", publicHealthRoutes)
    .route("/api", authenticatedHealthRoutes)
    .route("/api", openApiDocumentRoutes(() => openApiDocument()))
    .route("/api/v1/auth", authRoutes)
    .route("/api/v1/users", userRoutes)
    .route("/api/v1/api-keys", apiKeyRoutes)
    .route("/api/v1/accounts", accountRoutes)
    .route("/api/v1/ledger", ledgerRoutes)
    .route("/api/grpc/ledger", ledgerStreamRoutes)
    .route("/api/v1/kyc", kycRoutes)
    .route("/api/v1/kyc", kycDocumentRoutes)
    .route("/api/v1/kyc", kycReviewRoutes)
    .route("/api/v1/kyc/rules", kycRuleRoutes)
    .route("/v1/kyc/profiles", kycProfileRoutes)
    .route("/api/grpc/kyc", kycStreamRoutes)
    .route("/api/v1/rails", railRoutes)
    .route("/v1/payments", paymentFeedRoutes)
    .route("/v1/payments", paymentRoutes)
    .route("/api/grpc/payment", paymentStreamRoutes)
    .route(STATUS_PREFIX, statusRoutes)
    .route(DEVELOPERS_PREFIX, developerRoutes(metrics));
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
    document = routes.getOpenAPI31Document(DOCUMENT_CONFIG);
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
 * The one Hono app. The Lambda handlers, the streaming handler and the local Node server all
 * serve this same app; they differ only in how the request reaches it.
 */
export function createApp(core: CoreContext, options: AppOptions = {}) {
  // Not strict: the spec's client calls both /api/v1/accounts and /api/v1/accounts/.
  const app = new OpenAPIHono<AppEnv>({ strict: false });
  const metrics = options.metrics ?? createRequestMetrics(core);
  app.use(requestContext(core));
  // In the cloud, before anything else: only CloudFront's requests get further (403 otherwise).
  app.use(requireOriginProof(core.config.ORIGIN_SECRET));
  app.use(recordRequestMetrics(metrics));
  app.use(secureHeaders());
  app.use(
    cors({
      origin: (origin) => (core.config.CORS_ORIGINS.includes(origin) ? origin : null),
      allowHeaders: ["Content-Type", "Authorization", "Idempotency-Key", "X-Request-Id", "Last-Event-ID"],
      allowMethods: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
      exposeHeaders: ["X-Request-Id", "Retry-After", "Idempotent-Replayed"],
      maxAge: 600,
    }),
  );
  // The KYC document routes take pictures and set their own limits (a 6 MB file must still get
  // the spec's "File size must be less than 5MB"); every other route keeps the 1 MB one.
  const generalBodyLimit = bodyLimit({ maxSize: MAX_JSON_BODY_BYTES });
  app.use((c, next) => (hasOwnBodyLimit(c.req.path) ? next() : generalBodyLimit(c, next)));

  app.route("/", apiRoutes(metrics));

  app.notFound((c) => c.json({ message: `No route for ${c.req.method} ${c.req.path}`, code: "not_found" }, 404));
  app.onError(errorReply);
  return app;
}

export type App = ReturnType<typeof createApp>;
