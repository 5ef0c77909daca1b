import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { forbidden } from "@fintech/core/shared/errors";
import type { AppEnv } from "./env";

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

/** Refuses (403, no side effects) every request without CloudFront's proof; off when no secret is configured. */
export function requireOriginProof(secret: string | undefined): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (secret !== undefined && !originProofMatches(secret, c.req.header(ORIGIN_PROOF_HEADER))) {
      throw forbidden(ORIGIN_PROOF_MESSAGE, "origin_proof_required");
    }
    await next();
  };
}
