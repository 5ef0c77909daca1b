import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { forbidden } from "@fintech/core/shared/errors";
import type { AppEnv } from "./app-context";

/**
 * The header CloudFront adds to every request it forwards to the API and feed function URLs
 * (stacks/Web.ts), carrying the ORIGIN_SECRET. A caller who goes to a function URL directly
 * does not know the value, so the app refuses the request before anything else runs.
 */
export const ORIGIN_PROOF_HEADER = "x-origin-verify";

export const ORIGIN_PROOF_MESSAGE = "Requests must come through the site";

const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();

/**
 * Compares in constant time. Hashing first gives both sides the same length, so neither the
 * secret's length nor the position of the first differing byte shows in the timing.
 */
export function originProofMatches(expected: string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  return timingSafeEqual(digest(expected), digest(presented));
}

/**
 * Whether the presented proof is one of the accepted secrets; every one is compared, so the
 * timing says nothing of which.
 */
export function originProofAccepted(accepted: readonly string[], presented: string | undefined): boolean {
  return accepted.map((secret) => originProofMatches(secret, presented)).includes(true);
}

/**
 * Refuses (403, no side effects) every request without CloudFront's proof; off when no secret is
 * configured. The previous secret (ORIGIN_SECRET_PREVIOUS in the core context's configuration)
 * is accepted too while it is set: CloudFront takes minutes to send a new header value from every
 * edge, so a rotation deploys the new secret with the old one beside it, and drops the old one
 * in a later deploy (docs/cloud.md#keys).
 */
export function requireOriginProof(secret: string | undefined): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (secret !== undefined) {
      const previous = c.get("core")?.config.ORIGIN_SECRET_PREVIOUS;
      const accepted = previous === undefined ? [secret] : [secret, previous];
      if (!originProofAccepted(accepted, c.req.header(ORIGIN_PROOF_HEADER)))
        throw forbidden(ORIGIN_PROOF_MESSAGE, "origin_proof_required");
    }
    await next();
  };
}
