/**
 * Test contexts over the emulators that the global setup (global-setup.ts) starts: a core context
 * on its own fresh table, and the data helpers of the tests that compare tables. No HTTP here:
 * core tests import this module, and the app lives in app.ts.
 */
import { randomUUID } from "node:crypto";
import { DeleteTableCommand } from "@aws-sdk/client-dynamodb";
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { inject } from "vitest";
import { loadConfig } from "@fintech/core/shared/config";
import { createContext, type CoreContext } from "@fintech/core/shared/context";
import type { PaymentScheduler } from "@fintech/core/payments/scheduler";
import { ensureSystemAccounts } from "@fintech/core/ledger/accounts";
import { RATE_LIMIT_PREFIX } from "@fintech/core/shared/rate-limit";
import type { KeySecretName } from "@fintech/core/shared/secret-names";
import { ensureTable } from "../../../infra/local/bootstrap";

export const TEST_BUCKETS = { kyc: "test-kyc-documents", settlements: "test-settlements" };

/**
 * A keyring per purpose for tests (@fintech/core/shared/keyring): fixed, so a test can build a second
 * context over the same table with the same keys, or rotate one (`rotatedKeyring`).
 */
export const TEST_KEYS = {
  SESSION_KEYS: "t1:test-session-key-that-is-long-enough-for-hs256",
  CURSOR_KEYS: "t1:test-cursor-key-that-is-long-enough-for-hmac-macs",
  API_KEY_HASH_KEYS: "t1:test-api-key-hash-key-that-is-long-enough",
  IDENTITY_HASH_KEYS: "t1:test-identity-hash-key-that-is-long-enough",
  WEBHOOK_SECRET_KEYS: "t1:test-webhook-secret-key-that-is-long-enough",
} as const satisfies Record<KeySecretName, string>;

/** A keyring with a new newest version in front of `previous` (as a rotation writes it). */
export const rotatedKeyring = (version: string, previous: string): string =>
  `${version}:rotated-${version}-key-that-is-long-enough-for-any-use,${previous}`;

/**
 * A core context on its own fresh table in the shared DynamoDB Local, so test files never see
 * each other's data. Password hashing is cheap here; production keeps the configured cost.
 */
export interface TestContextOptions {
  /** The context's clock, for tests that move time (token expiry, rate-limit windows). */
  clock?: () => Date;
  /** Drives payments' next steps (infra/local/payment-worker.ts); without one, tests call advancePayment. */
  paymentScheduler?: PaymentScheduler;
}

export async function createTestContext(
  env: Record<string, string> = {},
  options: TestContextOptions = {},
): Promise<CoreContext & { dispose(): Promise<void> }> {
  const config = loadConfig({
    STAGE: "test",
    TABLE_NAME: `test-${randomUUID()}`,
    DYNAMODB_ENDPOINT: inject("dynamodbEndpoint"),
    S3_ENDPOINT: inject("s3Endpoint"),
    KYC_BUCKET: TEST_BUCKETS.kyc,
    SETTLEMENTS_BUCKET: TEST_BUCKETS.settlements,
    ...TEST_KEYS,
    PASSWORD_HASH_COST: "1024",
    LOG_LEVEL: "silent",
    ALLOW_TEST_BALANCE: "true",
    CORS_ORIGINS: "http://allowed.example",
    ...env,
  });
  const core = createContext(config, {
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.paymentScheduler ? { paymentScheduler: options.paymentScheduler } : {}),
  });
  await ensureTable(core.db);
  await ensureSystemAccounts(core);
  return {
    ...core,
    async dispose() {
      await core.db.raw.send(new DeleteTableCommand({ TableName: config.TABLE_NAME })).catch(() => undefined);
      core.db.raw.destroy();
      core.storage.destroy();
    },
  };
}

/**
 * Items any request may write that are not data: rate-limit counters and request metrics (10 s
 * windows and per-route latency). Metrics are flushed on a timer, so one can land in the middle
 * of any "nothing changed" comparison.
 */
export const BOOKKEEPING_PREFIXES = [RATE_LIMIT_PREFIX, "METRICS#", "ROUTE_LATENCY#"];

type Item = Record<string, unknown>;

/**
 * Every data item of the table (every page, strongly consistent), bookkeeping left out: what a
 * test compares before and after a refused request to prove that nothing changed.
 */
export async function dataItems(core: CoreContext, keep: (item: Item) => boolean = () => true): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: Item | undefined;
  do {
    const page = await core.db.doc.send(
      new ScanCommand({ TableName: core.db.table, ExclusiveStartKey: cursor, ConsistentRead: true }),
    );
    for (const item of page.Items ?? []) {
      if (BOOKKEEPING_PREFIXES.some((prefix) => String(item.pk).startsWith(prefix))) continue;
      // When a session was last seen is bookkeeping too: any authenticated request may move it.
      if (item.entity === "session") delete item.last_seen_at;
      if (keep(item)) items.push(item);
    }
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return items;
}
