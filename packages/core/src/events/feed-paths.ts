/**
 * Where the live event feeds are served: the one place their URLs are written. The route table
 * (functions sections.ts) and the feeds function (feeds-app.ts) mount the feed routes at these prefixes, each
 * feed route answers at FEED_ROUTE under its prefix, the commands hand out URLs built on these
 * paths, and CloudFront sends FEED_PATH_PATTERNS to the feeds function (infra/resources/routes.ts).
 * The URLs are the product's contract: the SDK, the web app (which imports this module) and API
 * clients call them.
 *
 * This module imports nothing, so infrastructure code and a browser bundle may load it as it is.
 */

/** Where each feed's route module is mounted. */
export const FEED_MOUNTS = {
  ledger: "/api/grpc/ledger",
  kyc: "/api/grpc/kyc",
  payment: "/api/grpc/payment",
  /** The administrators' feed of every journal, payment and KYC change (the ops console). */
  ops: "/api/grpc/ops",
  /** The browser's one connection carrying several feeds. */
  live: "/api/grpc/live",
  /** The payment feed under the REST payments API's names. */
  paymentRest: "/v1/payments",
} as const;

/** The path of a feed route under its mount. */
export const FEED_ROUTE = "/stream";

export const LEDGER_FEED_PATH = `${FEED_MOUNTS.ledger}${FEED_ROUTE}` as const;
export const KYC_FEED_PATH = `${FEED_MOUNTS.kyc}${FEED_ROUTE}` as const;
export const PAYMENT_FEED_PATH = `${FEED_MOUNTS.payment}${FEED_ROUTE}` as const;
export const OPS_FEED_PATH = `${FEED_MOUNTS.ops}${FEED_ROUTE}` as const;
export const LIVE_FEED_PATH = `${FEED_MOUNTS.live}${FEED_ROUTE}` as const;
export const PAYMENT_REST_FEED_PATH = `${FEED_MOUNTS.paymentRest}${FEED_ROUTE}` as const;

/** Every path the feeds function serves, and nothing else. */
export const FEED_PATHS: readonly string[] = [
  LEDGER_FEED_PATH,
  KYC_FEED_PATH,
  PAYMENT_FEED_PATH,
  OPS_FEED_PATH,
  LIVE_FEED_PATH,
  PAYMENT_REST_FEED_PATH,
];

/**
 * The feed paths as CloudFront path patterns (`*` stands for any characters): every feed under
 * /api/grpc, and the REST one. Only the feeds themselves: the commands beside them
 * (/api/grpc/ledger/command) write, and go to the API function with the rest of /api/*.
 */
export const FEED_PATH_PATTERNS = [`/api/grpc/*${FEED_ROUTE}`, PAYMENT_REST_FEED_PATH] as const;
