/**
 * Routes that take more than the app's general 1 MB JSON limit and set their own limit on the
 * route, so that an oversized body is answered in the route's words (a 6 MB picture gets "File
 * size must be less than 5MB", not a generic 413). The general limit skips exactly these.
 */
const ROUTES_WITH_OWN_BODY_LIMIT = new Set([
  "/api/v1/kyc/upload",
  "/api/v1/kyc/verify/didit",
  "/api/grpc/kyc/command",
  "/api/v1/kyc/rules/watchlist",
]);

/** The app routes without strict trailing slashes, so "/upload/" is the same route and the same limit. */
export const hasOwnBodyLimit = (path: string) => ROUTES_WITH_OWN_BODY_LIMIT.has(path.replace(/\/+$/, ""));
