/** Per-stage settings: what differs between production, shared and preview stages. */
export interface StageSettings {
  stage: string;
  isProduction: boolean;
  /** Keep data when the stack is removed. */
  retainData: boolean;
  logRetentionDays: number;
  logLevel: "debug" | "info" | "warn" | "error";
  /** Test balances (free money) are only ever offered outside production. */
  allowTestBalance: boolean;
  /**
   * Browser origins, besides the site's own, allowed to call the API and upload KYC documents.
   * Outside production this admits the Vite dev server and the local one-port server so a
   * laptop can work against a cloud stage. `DEPLOY_CORS_ORIGINS` overrides it at deploy time
   * (stacks/settings.ts).
   */
  corsOrigins: string[];
  /** Lambda concurrency: the account's limit and the reservations this stage makes in it. */
  concurrency: ConcurrencySettings;
  /** AWS Backup of the table; null: none (point-in-time recovery still runs on every stage). */
  tableBackup: TableBackupSettings | null;
  /**
   * Default Object Lock retention of every new settlement file version. The bucket always has
   * Object Lock on; null: no default retention, so nothing is locked unless a writer asks.
   */
  settlementRetention: ObjectRetentionSettings | null;
  /** Days an overwritten or deleted KYC document version is kept before S3 expires it. */
  kycNoncurrentVersionDays: number;
  /**
   * The AWS principal (an account or role ARN of the rails' settlement processor) allowed to
   * assume the SettlementProcessor role, which may only put objects under the settlements
   * bucket's incoming prefix (stacks/Reconciliation.ts). null: the stage's own account assumes it.
   * `DEPLOY_SETTLEMENT_PROCESSOR_PRINCIPAL` sets it at deploy time (stacks/settings.ts).
   */
  settlementProcessorPrincipal: string | null;
  /** Where the stage's mail comes from (Amazon SES) and where its links lead. */
  mail: MailSettings;
}

export interface MailSettings {
  /**
   * The SES identity (a domain verified in SES in the stage's region) the stage may send from:
   * ses:SendEmail is granted on it alone.
   */
  identity: string;
  /** The sender, an address on `identity` (MAIL_FROM). */
  from: string;
  /** The web app's address for links in mail (APP_URL); null: set DEPLOY_APP_URL at deploy time (stacks/Mail.ts). */
  appUrl: string | null;
}

/** The platform's sending domain; verify it in SES (DKIM) in each region a stage runs in. */
export const MAIL_DOMAIN = "mail.fintech-platform.example";

export interface ConcurrencySettings {
  /** The account's Lambda concurrent executions quota in the stage's region. */
  accountLimit: number;
  /**
   * Reserved concurrency per function; null: the function shares the unreserved pool. A
   * reservation is both a guarantee and a cap: the API's and the worker's are floors that
   * streams cannot eat, the feeds' is the ceiling that keeps streams off everyone else's.
   */
  reserved: {
    api: number | null;
    feeds: number | null;
    paymentWorker: number | null;
    webhookDispatcher: number | null;
  };
}

export interface TableBackupSettings {
  retentionDays: number;
  /**
   * AWS Backup Vault Lock in compliance mode: no one, root included, can delete a recovery
   * point before `retentionDays` or shorten its retention once the lock is fixed. During
   * `changeableForDays` after the deploy the lock can still be changed or removed.
   */
  vaultLock: { changeableForDays: number } | null;
}

export interface ObjectRetentionSettings {
  /** COMPLIANCE: no one can delete or shorten it; GOVERNANCE: principals allowed to bypass can. */
  mode: "COMPLIANCE" | "GOVERNANCE";
  days: number;
}

/** Origins of the local dev servers (Vite and infra/local's one-port server). */
export const LOCAL_ORIGINS = ["http://localhost:5173", "http://localhost:3000"] as const;

export const PRODUCTION_STAGES = ["production", "prod"] as const;

/* ------------------------------------------------------------ Lambda concurrency */

/** Lambda's default concurrency quota per account and region; raised quotas: DEPLOY_LAMBDA_CONCURRENCY_LIMIT. */
export const DEFAULT_ACCOUNT_CONCURRENCY_LIMIT = 1000;
/** AWS refuses any reservation that would leave fewer unreserved executions than this. */
export const LAMBDA_MIN_UNRESERVED = 100;
/**
 * Payment worker invocations the SQS event source runs at once (its maxConcurrency), which
 * bounds the table's write rate from the payment lifecycle. SQS accepts 2 to 1,000.
 */
export const PAYMENT_WORKER_MAX_CONCURRENCY = 10;
/**
 * Webhook dispatcher invocations the SQS event source runs at once (stacks/Webhooks.ts): bounds
 * the outgoing requests and the table writes a flood of deliveries can cause.
 */
export const WEBHOOK_DISPATCHER_MAX_CONCURRENCY = 5;

/**
 * Production's reservations, from the account limit L:
 *   payment worker = 10, exactly the event source's maxConcurrency: the pollers never invoke
 *     more than that, and fewer would throttle their invokes, which returns messages to the
 *     queue and counts receives towards the dead-letter queue.
 *   webhook dispatcher = 5, its event source's maxConcurrency, for the same reason: a floor
 *     that keeps deliveries flowing and, as a cap, keeps a flood of them off everyone else.
 *   API = 300: a request costs tens of milliseconds of DynamoDB round trips, so 300 executions
 *     serve thousands of requests per second, and still a dozen per second if every request
 *     ran into the 25 s timeout. It is also the API's cap.
 *   unreserved = 200: AWS's minimum of 100 plus 100 for the functions without a reservation
 *     (KYC object checks, the payment sweeper, jobs, deploy-time custom resources).
 *   feeds = L - 200 - 300 - 10 - 5 = 485 at the default 1,000: one stream per signed-in browser,
 *     so 485 browsers with a live feed at once. More needs a quota increase and
 *     DEPLOY_LAMBDA_CONCURRENCY_LIMIT; the ceiling grows with it, the floors stay.
 */
export const PRODUCTION_API_RESERVED = 300;
export const PRODUCTION_UNRESERVED = LAMBDA_MIN_UNRESERVED + 100;

export function productionConcurrency(accountLimit: number): ConcurrencySettings {
  const paymentWorker = PAYMENT_WORKER_MAX_CONCURRENCY;
  const webhookDispatcher = WEBHOOK_DISPATCHER_MAX_CONCURRENCY;
  const api = PRODUCTION_API_RESERVED;
  return {
    accountLimit,
    reserved: {
      api,
      paymentWorker,
      webhookDispatcher,
      feeds: accountLimit - PRODUCTION_UNRESERVED - api - paymentWorker - webhookDispatcher,
    },
  };
}

/**
 * Preview and personal stages reserve nothing. A new AWS account can start with a quota of 10
 * executions, where every reservation is refused (it would leave fewer than 100 unreserved) and
 * the deploy fails. Without reservations a preview's feeds can hold its whole pool and throttle
 * its own API: acceptable for a stage one person tests. A preview deployed into production's
 * account runs in production's unreserved pool; keep them in another account.
 */
export function previewConcurrency(accountLimit: number): ConcurrencySettings {
  return { accountLimit, reserved: { api: null, feeds: null, paymentWorker: null, webhookDispatcher: null } };
}

/** What the stage's reservations leave to every other function of the account. */
export function unreservedConcurrency({ accountLimit, reserved }: ConcurrencySettings): number {
  return Object.values(reserved).reduce<number>((left, value) => left - (value ?? 0), accountLimit);
}

/** Why a stage's concurrency settings cannot deploy (or would throttle what they protect); empty when they can. */
export function concurrencyProblems(settings: ConcurrencySettings): string[] {
  const problems: string[] = [];
  if (!Number.isInteger(settings.accountLimit) || settings.accountLimit < 1) {
    problems.push(`account concurrency limit must be a positive integer, got ${settings.accountLimit}`);
  }
  for (const [name, value] of Object.entries(settings.reserved)) {
    // Zero is Lambda's "switched off": every invocation throttled.
    if (value !== null && (!Number.isInteger(value) || value < 1))
      problems.push(`${name} reservation must be a positive integer, got ${value}`);
  }
  const worker = settings.reserved.paymentWorker;
  if (worker !== null && worker < PAYMENT_WORKER_MAX_CONCURRENCY) {
    problems.push(
      `payment worker reservation ${worker} is below the SQS event source's maxConcurrency ${PAYMENT_WORKER_MAX_CONCURRENCY}`,
    );
  }
  const dispatcher = settings.reserved.webhookDispatcher;
  if (dispatcher !== null && dispatcher < WEBHOOK_DISPATCHER_MAX_CONCURRENCY) {
    problems.push(
      `webhook dispatcher reservation ${dispatcher} is below the SQS event source's maxConcurrency ${WEBHOOK_DISPATCHER_MAX_CONCURRENCY}`,
    );
  }
  const unreserved = unreservedConcurrency(settings);
  const reserves = Object.values(settings.reserved).some((value) => value !== null);
  if (reserves && unreserved < LAMBDA_MIN_UNRESERVED) {
    problems.push(
      `reservations leave ${unreserved} of the account's ${settings.accountLimit} executions unreserved; AWS requires at least ${LAMBDA_MIN_UNRESERVED}`,
    );
  }
  return problems;
}

export function assertConcurrencyFits(stage: string, settings: ConcurrencySettings): void {
  const problems = concurrencyProblems(settings);
  if (problems.length > 0) {
    throw new Error(`Stage ${stage}: Lambda concurrency does not fit the account: ${problems.join("; ")}`);
  }
}

/* ------------------------------------------------------------ function sizes */

/**
 * The Feeds function as deployed (stacks/Feeds.ts), and as `npm run bench:feeds` prices it.
 * A stream is I/O bound: the instance waits on DynamoDB polls and writes a few small frames,
 * one stream per instance, so memory needs only the runtime, the stream bundle and one page of
 * outbox items, with room to spare. Lambda gives CPU in proportion to memory; 256 MB is enough
 * for JSON and token checks, and each extra MB is paid for every second a stream is open.
 */
export const FEEDS_FUNCTION = { memoryMB: 256, architecture: "arm64" } as const;

/* ------------------------------------------------------------ data protection */

/** Daily backups kept 35 days: as far back as point-in-time recovery reaches, but immutable. */
export const TABLE_BACKUP_RETENTION_DAYS = 35;
/** AWS Backup's minimum grace before a compliance-mode Vault Lock becomes permanent (72 hours). */
export const VAULT_LOCK_CHANGEABLE_DAYS = 3;
/** Settlement files are financial records: kept at least seven years. */
export const SETTLEMENT_RETENTION_DAYS = 7 * 365;

export interface StageOverrides {
  /** The account's Lambda concurrency quota, when raised above the default. */
  accountConcurrencyLimit?: number;
}

export function stageSettings(stage: string, overrides: StageOverrides = {}): StageSettings {
  const isProduction = (PRODUCTION_STAGES as readonly string[]).includes(stage);
  const accountLimit = overrides.accountConcurrencyLimit ?? DEFAULT_ACCOUNT_CONCURRENCY_LIMIT;
  return {
    stage,
    isProduction,
    retainData: isProduction,
    logRetentionDays: isProduction ? 365 : 14,
    logLevel: isProduction ? "info" : "debug",
    allowTestBalance: !isProduction,
    corsOrigins: isProduction ? [] : [...LOCAL_ORIGINS],
    concurrency: isProduction ? productionConcurrency(accountLimit) : previewConcurrency(accountLimit),
    // A preview's vault could not be removed with the stage (AWS Backup deletes only empty
    // vaults, and SST removes previews), and its data is disposable: PITR is enough there.
    tableBackup: isProduction
      ? { retentionDays: TABLE_BACKUP_RETENTION_DAYS, vaultLock: { changeableForDays: VAULT_LOCK_CHANGEABLE_DAYS } }
      : null,
    // A preview keeps Object Lock on the bucket (the same bucket and request rules as
    // production) without a default retention: a locked version cannot be deleted before its
    // date, in governance mode too, because the auto-delete that empties a preview's buckets
    // does not send the governance bypass; so any retention would make `sst remove` fail.
    settlementRetention: isProduction ? { mode: "COMPLIANCE", days: SETTLEMENT_RETENTION_DAYS } : null,
    // Long enough to undo a mistaken delete or overwrite, short enough that a document a person
    // asked us to erase is gone within a month.
    kycNoncurrentVersionDays: isProduction ? 30 : 1,
    settlementProcessorPrincipal: null,
    // One verified domain for every stage; a preview says which stage a message came from.
    mail: {
      identity: MAIL_DOMAIN,
      from: isProduction
        ? `Fintech Platform <no-reply@${MAIL_DOMAIN}>`
        : `Fintech Platform (${stage}) <no-reply@${MAIL_DOMAIN}>`,
      appUrl: null,
    },
  };
}
