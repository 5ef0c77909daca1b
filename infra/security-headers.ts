/**
 * The browser security policy of the SPA, described once: stacks/Web.ts sends it from
 * CloudFront as a response headers policy, and a local server can send the same.
 *
 * Session tokens live in localStorage, so any script that runs on the page can take them: the
 * CSP allows scripts from the site itself only (no inline script, no eval, no third party).
 * Styles allow 'unsafe-inline' because the toast library (goober) writes a <style> element at
 * run time; style injection cannot read localStorage.
 */
export function contentSecurityPolicy(options: { connectSources?: readonly string[] } = {}): string {
  const directives: [string, ...string[]][] = [
    ["default-src", "'self'"],
    ["script-src", "'self'"],
    ["style-src", "'self'", "'unsafe-inline'"],
    ["img-src", "'self'", "data:", "blob:"],
    ["font-src", "'self'", "data:"],
    // The API is on the same origin; KYC uploads go straight to the bucket with presigned PUTs.
    ["connect-src", "'self'", ...(options.connectSources ?? [])],
    ["object-src", "'none'"],
    ["base-uri", "'self'"],
    ["form-action", "'self'"],
    ["frame-ancestors", "'none'"],
    ["upgrade-insecure-requests"],
  ];
  return directives.map((directive) => directive.join(" ")).join("; ");
}

/** Two years, as the HSTS preload list asks; subdomains included (the site owns its domain). */
export const HSTS_MAX_AGE_SECONDS = 2 * 365 * 24 * 60 * 60;
export const REFERRER_POLICY = "strict-origin-when-cross-origin";
