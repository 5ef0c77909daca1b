import { randomUUID } from "node:crypto";
import { DeleteTableCommand } from "@aws-sdk/client-dynamodb";
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { inject } from "vitest";
import { loadConfig } from "@fintech/core/shared/config";
import { createContext, type CoreContext } from "@fintech/core/shared/context";
import type { PaymentScheduler } from "@fintech/core/payments/scheduler";
import { ensureSystemAccounts } from "@fintech/core/ledger/accounts";
import { RATE_LIMIT_PREFIX } from "@fintech/core/shared/rate-limit";
import { verifyEmailForTests } from "@fintech/core/auth/auth.testkit";
import type { KeySecretName } from "@fintech/core/shared/secret-names";
import { createApp } from "@fintech/functions/app";
import { ensureTable } from "./bootstrap";

export const TEST_BUCKETS = { kyc: "test-kyc-documents", settlements: "test-settlements" };

/**
 * A keyring per purpose for tests (shared/keyring.ts): fixed, so a test can build a second
 * context over the same table with the same keys, or rotate one (`rotatedKeyring`).
 */
export const TEST_KEYS = {
  SESSION_KEYS: "t1:test-session-key-that-is-long-enough-for-hs256",
  CURSOR_KEYS: "t1:test-cursor-key-that-is-long-enough-for-hmac-macs",
  API_KEY_HASH_KEYS: "t1:test-api-key-hash-key-that-is-long-enough",
  IDENTITY_HASH_KEYS: "t1:test-identity-hash-key-that-is-long-enough",
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

/**
 * The env the Node server gives the app for a request from `ip`: the socket's peer, which is
 * where the app takes the client address from locally (never from X-Forwarded-For).
 */
export const fromAddress = (ip: string) => ({ incoming: { socket: { remoteAddress: ip } } });

let addressesHandedOut = 0;
/** A fresh address from the benchmarking range 198.18.0.0/15 for every call, so no two sign-ups share a rate-limit window. */
export function nextTestAddress(): string {
  addressesHandedOut += 1;
  return `198.${18 + (addressesHandedOut >> 16)}.${(addressesHandedOut >> 8) & 255}.${addressesHandedOut & 255}`;
}

/** The Hono app over a fresh table, plus small helpers for JSON calls. */
export async function createTestApp(env: Record<string, string> = {}, options: TestContextOptions = {}) {
  const core = await createTestContext(env, options);
  const app = createApp(core);
  const call = async (
    method: string,
    path: string,
    options: { body?: unknown; token?: string; headers?: Record<string, string>; ip?: string } = {},
  ) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers["Content-Type"] = "application/json";
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    const response = await app.request(
      path,
      {
        method,
        headers,
        body:
          options.body === undefined
            ? undefined
            : typeof options.body === "string"
              ? options.body
              : JSON.stringify(options.body),
      },
      options.ip ? fromAddress(options.ip) : undefined,
    );
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    return { status: response.status, headers: response.headers, body: json as Record<string, any> };
  };
  /** Registers a user from its own address (so no test shares a rate-limit window); returns its session. */
  const signUp = async (email: string, names: { first_name?: string; last_name?: string } = {}) => {
    const reply = await call("POST", "/api/v1/auth/register", {
      body: { email, password: "long enough pw", first_name: "Test", last_name: "User", ...names },
      ip: nextTestAddress(),
    });
    if (reply.status !== 201)
      throw new Error(`Registering ${email} failed: ${reply.status} ${JSON.stringify(reply.body)}`);
    // As if the sign-up mail's link was used: test users can be paid by email.
    await verifyEmailForTests(core, reply.body.data.user.id as string);
    return reply.body.data as {
      token: string;
      user: { id: string; email: string; first_name: string; last_name: string };
    };
  };
  return { core, app, call, signUp };
}
