import type { Hono } from "hono";
import type { RequestMetrics } from "@fintech/core/metrics/recorder";
import { FEED_MOUNTS } from "@fintech/core/events/feed-paths";
import type { AppEnv } from "./http/app-context";
import { STATUS_PREFIX } from "./http/request-metrics";

/**
 * The API's route table, the only one: every route module, where it is mounted and in what
 * order, grouped in sections by the path prefixes of the requests they serve. Two apps are made
 * from it. The API function serves it section by section (sectioned-app.ts): a cold instance
 * loads the route modules of its first request's section only (a chunk of the code-split bundle,
 * infra/bundling.ts), each other section at its first request. The local server, the tests and
 * the OpenAPI document load every section once and mount them all, in this order (app.ts).
 * It imports neither app (app.ts imports it), so the table and the apps never form a cycle.
 */

/** A route module and the path it is mounted at. */
export type Mount = readonly [prefix: string, routes: Hono<AppEnv>];

/** What a section's routes are built with. */
export interface SectionContext {
  /** The request metrics of the app (the developers' routes keep a cache per app). */
  metrics: RequestMetrics;
  /** The whole API's OpenAPI document, for the route that serves it. */
  document: () => object | Promise<object>;
}

export interface ApiSection {
  name: string;
  /** The path prefixes whose requests this section serves (a prefix is a whole path segment). */
  prefixes: readonly string[];
  /** Loads the section's route modules; the function it resolves to gives their mounts, in order. */
  load(): Promise<(context: SectionContext) => readonly Mount[]>;
}

/** Requests under no other section's prefixes (and unknown paths, for the 404) go here. */
const SYSTEM: ApiSection = {
  name: "system",
  prefixes: ["/health", "/api/health"],
  async load() {
    const { authenticatedHealthRoutes, publicHealthRoutes } = await import("./routes/health");
    return () => [
      ["/", publicHealthRoutes],
      ["/api", authenticatedHealthRoutes],
    ];
  },
};

export const API_SECTIONS: readonly ApiSection[] = [
  SYSTEM,
  {
    name: "document",
    prefixes: ["/api/openapi.json"],
    async load() {
      const { openApiDocumentRoutes } = await import("./routes/openapi");
      return ({ document }) => [["/api", openApiDocumentRoutes(document)]];
    },
  },
  {
    name: "auth",
    prefixes: ["/api/v1/auth", "/api/v1/users", "/api/v1/api-keys"],
    async load() {
      const { authRoutes } = await import("./routes/auth");
      const { userRoutes } = await import("./routes/users");
      const { apiKeyRoutes } = await import("./routes/api-keys");
      return () => [
        ["/api/v1/auth", authRoutes],
        ["/api/v1/users", userRoutes],
        ["/api/v1/api-keys", apiKeyRoutes],
      ];
    },
  },
  {
    name: "ledger",
    prefixes: ["/api/v1/accounts", "/api/v1/ledger", "/api/grpc/ledger"],
    async load() {
      const { accountRoutes } = await import("./routes/accounts");
      const { ledgerRoutes } = await import("./routes/ledger");
      const { ledgerFeedRoutes } = await import("./routes/ledger-feed");
      const { ledgerCommandRoutes } = await import("./routes/ledger-commands");
      const { limitRoutes } = await import("./routes/limits");
      return () => [
        ["/api/v1/accounts", accountRoutes],
        ["/api/v1/ledger/limits", limitRoutes],
        ["/api/v1/ledger", ledgerRoutes],
        [FEED_MOUNTS.ledger, ledgerFeedRoutes],
        ["/api/grpc/ledger", ledgerCommandRoutes],
      ];
    },
  },
  {
    name: "kyc",
    prefixes: ["/api/v1/kyc", "/v1/kyc", "/api/grpc/kyc"],
    async load() {
      const { kycRoutes } = await import("./routes/kyc");
      const { kycDocumentRoutes } = await import("./routes/kyc-documents");
      const { kycReviewRoutes } = await import("./routes/kyc-review");
      const { kycRuleRoutes } = await import("./routes/kyc-rules");
      const { kycProfileRoutes } = await import("./routes/kyc-profiles");
      const { kycFeedRoutes } = await import("./routes/kyc-feed");
      const { kycCommandRoutes, kycStreamHealthRoutes } = await import("./routes/kyc-commands");
      return () => [
        ["/api/v1/kyc", kycRoutes],
        ["/api/v1/kyc", kycDocumentRoutes],
        ["/api/v1/kyc", kycReviewRoutes],
        ["/api/v1/kyc/rules", kycRuleRoutes],
        ["/v1/kyc/profiles", kycProfileRoutes],
        ["/api/grpc/kyc", kycStreamHealthRoutes],
        [FEED_MOUNTS.kyc, kycFeedRoutes],
        ["/api/grpc/kyc", kycCommandRoutes],
      ];
    },
  },
  {
    name: "approvals",
    prefixes: ["/api/v1/approvals"],
    async load() {
      const { approvalRoutes } = await import("./routes/approvals");
      return () => [["/api/v1/approvals", approvalRoutes]];
    },
  },
  {
    name: "rails",
    prefixes: ["/api/v1/rails"],
    async load() {
      const { railRoutes } = await import("./routes/rails");
      return () => [["/api/v1/rails", railRoutes]];
    },
  },
  {
    name: "payments",
    prefixes: ["/v1/payments", "/api/grpc/payment"],
    async load() {
      const { paymentRestFeedRoutes, paymentFeedRoutes } = await import("./routes/payment-feed");
      const { paymentRoutes } = await import("./routes/payments");
      const { paymentCommandRoutes, paymentStreamHealthRoutes } = await import("./routes/payment-commands");
      return () => [
        // Before the payments routes, so /v1/payments/stream is never taken for a payment id.
        [FEED_MOUNTS.paymentRest, paymentRestFeedRoutes],
        ["/v1/payments", paymentRoutes],
        ["/api/grpc/payment", paymentStreamHealthRoutes],
        [FEED_MOUNTS.payment, paymentFeedRoutes],
        ["/api/grpc/payment", paymentCommandRoutes],
      ];
    },
  },
  {
    name: "reconciliation",
    prefixes: ["/api/v1/reconciliation"],
    async load() {
      const { reconciliationRoutes } = await import("./routes/reconciliation");
      return () => [["/api/v1/reconciliation", reconciliationRoutes]];
    },
  },
  {
    name: "fx",
    prefixes: ["/api/v1/fx", "/api/v1/treasury"],
    async load() {
      const { fxRoutes } = await import("./routes/fx");
      const { treasuryRoutes } = await import("./routes/treasury");
      return () => [
        ["/api/v1/fx", fxRoutes],
        ["/api/v1/treasury", treasuryRoutes],
      ];
    },
  },
  {
    name: "compliance",
    prefixes: ["/api/v1/compliance"],
    async load() {
      const { complianceRoutes } = await import("./routes/compliance");
      return () => [["/api/v1/compliance", complianceRoutes]];
    },
  },
  {
    name: "ops",
    prefixes: ["/api/v1/ops", FEED_MOUNTS.ops],
    async load() {
      const { opsRoutes } = await import("./routes/ops");
      const { opsFeedRoutes } = await import("./routes/ops-feed");
      return () => [
        ["/api/v1/ops", opsRoutes],
        [FEED_MOUNTS.ops, opsFeedRoutes],
      ];
    },
  },
  {
    name: "webhooks",
    prefixes: ["/api/v1/webhooks"],
    async load() {
      const { webhookEndpointRoutes } = await import("./routes/webhooks");
      const { webhookDeliveryRoutes } = await import("./routes/webhook-deliveries");
      return () => [
        ["/api/v1/webhooks", webhookEndpointRoutes],
        ["/api/v1/webhooks", webhookDeliveryRoutes],
      ];
    },
  },
  {
    name: "events",
    prefixes: ["/api/v1/events"],
    async load() {
      const { eventRoutes } = await import("./routes/events");
      return () => [["/api/v1/events", eventRoutes]];
    },
  },
  {
    name: "live",
    prefixes: [FEED_MOUNTS.live],
    async load() {
      const { liveFeedRoutes } = await import("./routes/live-feed");
      return () => [[FEED_MOUNTS.live, liveFeedRoutes]];
    },
  },
  {
    name: "status",
    prefixes: [STATUS_PREFIX],
    async load() {
      const { statusRoutes } = await import("./routes/status");
      return () => [[STATUS_PREFIX, statusRoutes]];
    },
  },
  {
    name: "developers",
    prefixes: ["/api/v1/developers"],
    async load() {
      const { DEVELOPERS_PREFIX, developerRoutes } = await import("./routes/developers");
      return ({ metrics }) => [[DEVELOPERS_PREFIX, developerRoutes(metrics)]];
    },
  },
];

/** Mounts `mounts` on `app`, in order. */
export function mountAll<A extends Hono<AppEnv>>(app: A, mounts: readonly Mount[]): A {
  for (const [prefix, routes] of mounts) app.route(prefix, routes);
  return app;
}

const underPrefix = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/** The section that serves `path`: the one whose prefix it is under, else the system section. */
export function sectionOf(path: string): ApiSection {
  return API_SECTIONS.find((section) => section.prefixes.some((prefix) => underPrefix(path, prefix))) ?? SYSTEM;
}
