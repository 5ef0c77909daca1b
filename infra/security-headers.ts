/**
 * The browser security policy of the SPA, described once: stacks/Web.ts sends it from
 * CloudFront as a response headers policy, and a local server can send the same.
 *
 * Session tokens live in localStorage, so any script that runs on the page can take them: the
 * CSP allows scripts from the site itself only (no inline script, no eval, no third party).
 * Styles allow 'unsafe-inline' because the toast library (goober) writes a <style> element at
 * run time; style injection cannot read localStorage.
 */
export function contentSecurityPolicy(
  options: {
    /**
     * The KYC bucket's origin: uploads go there with presigned requests and reviewers see
     * documents through presigned GETs.
     */
    documentStoreOrigins?: readonly string[];
    upgradeInsecureRequests?: boolean;
  } = {},
): string {
  const directives: [string, ...string[]][] = [
    ["default-src", "'self'"],
    ["script-src", "'self'"],
    ["style-src", "'self'", "'unsafe-inline'"],
    ["img-src", "'self'", "data:", "blob:", ...(options.documentStoreOrigins ?? [])],
    ["font-src", "'self'", "data:"],
    // The API is on the same origin; KYC uploads may go straight to the bucket with presigned POSTs.
    ["connect-src", "'self'", ...(options.documentStoreOrigins ?? [])],
    ["object-src", "'none'"],
    ["base-uri", "'self'"],
    ["form-action", "'self'"],
    ["frame-ancestors", "'none'"],
  ];
  // Off only for the plain-HTTP local server, whose own URLs it would rewrite to https.
  if (options.upgradeInsecureRequests ?? true) directives.push(["upgrade-insecure-requests"]);
  return directives.map((directive) => directive.join(" ")).join("; ");
}

/** Two years, as the HSTS preload list asks; subdomains included (the site owns its domain). */
export const HSTS_MAX_AGE_SECONDS = 2 * 365 * 24 * 60 * 60;
export const REFERRER_POLICY = "strict-origin-when-cross-origin";

/**
 * The same policy as headers, for the local one-port server (plain HTTP, so no HSTS and no
 * upgrade of its own URLs): the browser tests then run the SPA under the CSP it gets in the cloud.
 */
export function localSiteSecurityHeaders(documentStoreOrigins: readonly string[] = []): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy({ documentStoreOrigins, upgradeInsecureRequests: false }),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": REFERRER_POLICY,
  };
}
