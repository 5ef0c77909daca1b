import type { CoreContext } from "../shared/context";
import { isAppError } from "../shared/errors";
import {
  consumeRateLimit,
  isRememberedSubject,
  rateLimitSubject,
  rememberSubject,
  type RateLimitRule,
} from "../shared/rate-limit";

export type AuthAction = "login" | "register";

/**
 * How much slower and higher the account-wide limit is than the per-address one: with the
 * defaults (10 attempts per email and address per 60 s) an email as a whole takes 100
 * attempts per 15 minutes from addresses it has never signed in from.
 */
const ACCOUNT_WIDE_LIMIT_FACTOR = 10;
const ACCOUNT_WIDE_WINDOW_FACTOR = 15;
/** How long an address that signed in to an account stays exempt from the account-wide limit. */
export const KNOWN_ADDRESS_DAYS = 30;

const KNOWN_ADDRESS_SCOPE = "login:known";

interface AttemptRules {
  /** Every attempt from one address, whatever the email. */
  address: RateLimitRule;
  /** One email from one address: the limit a guesser meets first. */
  emailFromAddress: RateLimitRule;
  /** One email from everywhere: slow and high, and waived for addresses that signed in before. */
  email: RateLimitRule;
}

function attemptRules(ctx: CoreContext, action: AuthAction): AttemptRules {
  const perEmail = ctx.config.AUTH_RATE_LIMIT_PER_EMAIL;
  const windowSeconds = ctx.config.AUTH_RATE_LIMIT_WINDOW_SECONDS;
  return {
    address: { scope: `${action}:ip`, limit: ctx.config.AUTH_RATE_LIMIT_PER_IP, windowSeconds },
    emailFromAddress: { scope: `${action}:email-ip`, limit: perEmail, windowSeconds },
    email: {
      scope: `${action}:email`,
      limit: perEmail * ACCOUNT_WIDE_LIMIT_FACTOR,
      windowSeconds: windowSeconds * ACCOUNT_WIDE_WINDOW_FACTOR,
    },
  };
}

/** The same email however it was typed, as the schemas normalise it. */
const normaliseEmail = (email: string) => email.trim().toLowerCase();

/**
 * Counts a login or register attempt before its input is validated (a malformed attempt is
 * still an attempt), and throws 429 with Retry-After past a limit. Raw input never reaches a
 * key: emails and addresses are hashed, so any length or content gives a valid key.
 *
 * Lock-out design: someone who knows a victim's email can exhaust the per email+address
 * counter only for their own address. The account-wide counter needs ten times as many
 * attempts (so many addresses) to trip, and even then the victim still signs in from any
 * address that has signed in to the account in the last 30 days.
 */
export async function limitAuthAttempt(
  ctx: CoreContext,
  action: AuthAction,
  ip: string,
  email: string | null,
): Promise<void> {
  const rules = attemptRules(ctx, action);
  const now = ctx.clock();
  await consumeRateLimit(ctx.db, rules.address, rateLimitSubject(ip), now);
  if (email === null) return;
  const normalised = normaliseEmail(email);
  await consumeRateLimit(ctx.db, rules.emailFromAddress, rateLimitSubject(normalised, ip), now);
  try {
    await consumeRateLimit(ctx.db, rules.email, rateLimitSubject(normalised), now);
  } catch (error) {
    if (!(isAppError(error) && error.status === 429)) throw error;
    if (!(await isRememberedSubject(ctx.db, KNOWN_ADDRESS_SCOPE, rateLimitSubject(normalised, ip), now))) throw error;
  }
}

/** After a successful sign-in: this address is the account's own, exempt from the account-wide limit. */
export async function rememberSignInAddress(ctx: CoreContext, ip: string, email: string): Promise<void> {
  await rememberSubject(
    ctx.db,
    KNOWN_ADDRESS_SCOPE,
    rateLimitSubject(normaliseEmail(email), ip),
    ctx.clock(),
    KNOWN_ADDRESS_DAYS * 24 * 60 * 60,
  );
}
