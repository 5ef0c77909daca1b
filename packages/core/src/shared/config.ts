import { z } from "zod";
import { keyringProblems, parseKeyring, unconfiguredKeyring, type Keyring } from "./keyring";
import { KEY_SECRETS, type KeySecretName } from "./secret-names";

/** Comma separated list in an environment variable. */
const csv = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? "")
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean),
  );

const flag = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0"])
    .optional()
    .transform((value) => (value === undefined ? fallback : value === "true" || value === "1"));

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/**
 * A keyring secret (keyring.ts): checked when present; when absent, a keyring that refuses to be
 * used, so a function bound to fewer secrets still starts and a stray use names what is missing.
 */
const keyring = (name: KeySecretName) =>
  z
    .string()
    .optional()
    .transform((value, ctx): Keyring => {
      if (value === undefined) return unconfiguredKeyring(name);
      const problems = keyringProblems(value);
      if (problems.length === 0) return parseKeyring(name, value);
      for (const problem of problems) ctx.addIssue({ code: "custom", message: problem });
      return z.NEVER;
    });

/**
 * Runtime configuration, read from the environment once. In the cloud the stacks set these
 * variables; locally infra/local does. Nothing else reads process.env.
 */
export const ConfigSchema = z.object({
  STAGE: z.string().default("local"),
  AWS_REGION: z.string().default("us-east-1"),
  TABLE_NAME: z.string().min(1).default("fintech-local"),
  KYC_BUCKET: z.string().min(1).default("kyc-documents"),
  SETTLEMENTS_BUCKET: z.string().min(1).default("settlements"),
  /** Set only for DynamoDB Local / the S3 emulator. */
  DYNAMODB_ENDPOINT: z.url().optional(),
  S3_ENDPOINT: z.url().optional(),
  /** One secret per purpose, each a keyring of versions (secret-names.ts, keyring.ts). */
  SESSION_KEYS: keyring(KEY_SECRETS.session),
  CURSOR_KEYS: keyring(KEY_SECRETS.cursor),
  API_KEY_HASH_KEYS: keyring(KEY_SECRETS.apiKeyHash),
  IDENTITY_HASH_KEYS: keyring(KEY_SECRETS.identityHash),
  WEBHOOK_SECRET_KEYS: keyring(KEY_SECRETS.webhookSecret),
  /**
   * The proof that a request came through CloudFront, which adds it as an origin header. Set
   * by the stacks in the cloud (then every request without it is refused, and the viewer's
   * address is read from CloudFront's header); unset locally, where there is no CDN.
   */
  ORIGIN_SECRET: z.string().min(32, "ORIGIN_SECRET must be at least 32 characters").optional(),
  /**
   * The origin secret before a rotation, accepted beside ORIGIN_SECRET until CloudFront sends the
   * new one everywhere.
   */
  ORIGIN_SECRET_PREVIOUS: z.string().min(32, "ORIGIN_SECRET_PREVIOUS must be at least 32 characters").optional(),
  TOKEN_TTL_SECONDS: positiveInt(24 * 60 * 60),
  /** scrypt cost (N) for new password hashes; stored hashes carry their own parameters. */
  PASSWORD_HASH_COST: positiveInt(2 ** 16),
  CORS_ORIGINS: csv,
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  ALLOW_TEST_BALANCE: flag(false),
  AUTH_RATE_LIMIT_PER_IP: positiveInt(30),
  AUTH_RATE_LIMIT_PER_EMAIL: positiveInt(10),
  AUTH_RATE_LIMIT_WINDOW_SECONDS: positiveInt(60),
  /** Payments one user may create per minute (REST and stream command together); the next is a 429. */
  PAYMENT_RATE_LIMIT_PER_MINUTE: positiveInt(20),
  /**
   * Live feeds (SSE over the outbox; see packages/core/src/events/feed.ts). Readers trail the
   * newest commits by FEED_SETTLE_MS so writers whose clocks differ by less still land in order;
   * commits that show up later than that (up to FEED_LOOKBACK_MS) are found by a rescan every
   * FEED_LATE_SCAN_MS and still delivered exactly once.
   */
  FEED_SETTLE_MS: z.coerce.number().int().nonnegative().default(150),
  FEED_LOOKBACK_MS: positiveInt(30_000),
  FEED_LATE_SCAN_MS: positiveInt(5_000),
  /** Polling adapts: FEED_POLL_MIN_MS after activity, growing to FEED_POLL_MAX_MS when idle. */
  FEED_POLL_MIN_MS: positiveInt(100),
  FEED_POLL_MAX_MS: positiveInt(500),
  /** CloudFront closes an origin that is silent for 30 s. */
  FEED_HEARTBEAT_MS: positiveInt(15_000),
  /** A stream ends cleanly after this, well inside Lambda's 15 minutes; the client resumes. */
  FEED_MAX_SECONDS: positiveInt(300),
  FEED_RETRY_MS: positiveInt(2_000),
  /** An open stream asks again this often whether its session or API key still holds, and ends if not. */
  FEED_AUTH_RECHECK_MS: positiveInt(60_000),
  /** Open streams one user may hold at once, across every process (events/stream-leases.ts). */
  FEED_STREAMS_PER_USER: positiveInt(5),
  STREAM_TICKET_TTL_SECONDS: positiveInt(60),
  /** The web app's address, for links in mail (packages/core/src/mail); unset: the first of CORS_ORIGINS. */
  APP_URL: z.url().optional(),
  /** The sender of the platform's mail (a verified SES identity in the cloud). */
  MAIL_FROM: z.string().min(3).max(254).default("Fintech Platform <no-reply@fintech.local>"),
  /**
   * Webhook endpoints may use http:// and loopback addresses (a receiver on this machine). Only the
   * embedded stack sets it; private, link-local and metadata addresses stay refused even then
   * (docs/webhooks.md#target-safety-ssrf).
   */
  WEBHOOK_LOCAL_TARGETS: flag(false),
  /**
   * A customer account whose credits contend on its balance chain is converted to credit shards
   * without an administrator (docs/ledger.md#hot-receiving-accounts).
   */
  LEDGER_AUTO_CREDIT_SHARDS: flag(true),
});

export type AppConfig = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join("; ")}`);
  }
  return parsed.data;
}
