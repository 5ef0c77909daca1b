import type { CoreContext } from "../shared/context";
import { AppError, isAppError } from "../shared/errors";
import { consumeRateLimit, rateLimitSubject, type RateLimitRule } from "../shared/rate-limit";

/**
 * How many payments one user may create per minute (PAYMENT_RATE_LIMIT_PER_MINUTE): counted per
 * attempt, refused or not, replays included, before anything else about the request is read, for
 * POST /v1/payments and the stream's initiatePayment command alike (both call initiatePayment).
 * A fixed one-minute window in the table, so every instance counts the same attempts.
 */
export const PAYMENT_RATE_WINDOW_SECONDS = 60;

const paymentRule = (ctx: CoreContext): RateLimitRule => ({
  scope: "payment:create",
  limit: ctx.config.PAYMENT_RATE_LIMIT_PER_MINUTE,
  windowSeconds: PAYMENT_RATE_WINDOW_SECONDS,
});

/** 429 rate_limited with Retry-After (the seconds left in the window) past the limit. */
export async function limitPaymentCreation(ctx: CoreContext, userId: string): Promise<void> {
  const rule = paymentRule(ctx);
  try {
    await consumeRateLimit(ctx.db, rule, rateLimitSubject(userId), ctx.clock());
  } catch (error) {
    if (!isAppError(error) || error.status !== 429) throw error;
    throw new AppError(
      429,
      error.code,
      `Too many payments: at most ${rule.limit} a minute. Try again in ${error.headers["Retry-After"] ?? "a few"} s.`,
      error.headers,
    );
  }
}
