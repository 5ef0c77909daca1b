import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { createTestContext, TEST_BUCKETS, TEST_KEYS } from "@fintech/testing/context";
import { openTestAccount, testCaller } from "@fintech/testing/payments";
import { WEBHOOK_DISPATCHER } from "@fintech/testing/processes";
import { startReceiver, type TestReceiver } from "@fintech/testing/webhooks/receiver";
import { deposit } from "../ledger/service";
import { CLAIM_MS } from "./deliveries";
import { createEndpoint } from "./endpoints";
import { listEvents } from "./events";
import type { EventType, PlatformEvent } from "./model";

/**
 * At least once across a crash: a dispatcher in its own process is killed (SIGKILL) while a batch
 * is being delivered, a second one runs to the end, and every subscribed event reached the
 * receiver, every copy of an event with the same `webhook-id` and the same signed body.
 */

const REPO_ROOT = path.resolve(import.meta.dirname, "../../../..");
const TYPES: EventType[] = ["ledger.transactionCreated", "ledger.balanceUpdate"];
// More events than a dispatcher attempts at once, so the kill always leaves some unsent.
const DEPOSITS = 30;

let ctx: Awaited<ReturnType<typeof createTestContext>>;
let hook: TestReceiver;
const children = new Set<ChildProcessWithoutNullStreams>();

beforeAll(async () => {
  ctx = await createTestContext({ WEBHOOK_LOCAL_TARGETS: "true" });
  hook = await startReceiver(200);
}, 60_000);
afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await hook.close();
  await ctx.dispose();
});

/** A dispatcher process on the test's table; resolves once it has loaded. */
async function startDispatcher(skewMs: number): Promise<ChildProcessWithoutNullStreams> {
  const child = spawn(process.execPath, ["--import", "tsx", WEBHOOK_DISPATCHER], {
    cwd: REPO_ROOT,
    env: {
      ...(process.env as Record<string, string>),
      STAGE: "test",
      TABLE_NAME: ctx.config.TABLE_NAME,
      DYNAMODB_ENDPOINT: inject("dynamodbEndpoint"),
      S3_ENDPOINT: inject("s3Endpoint"),
      KYC_BUCKET: TEST_BUCKETS.kyc,
      SETTLEMENTS_BUCKET: TEST_BUCKETS.settlements,
      ...TEST_KEYS,
      WEBHOOK_LOCAL_TARGETS: "true",
      CLOCK_SKEW_MS: String(skewMs),
      LOG_LEVEL: "silent",
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  children.add(child);
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  await new Promise<void>((resolve, reject) => {
    lines.once("line", (line) => (line === "ready" ? resolve() : reject(new Error(`dispatcher said ${line}`))));
    child.once("exit", (code) => reject(new Error(`dispatcher exited (${code}): ${stderr}`)));
  });
  return child;
}

const exited = (child: ChildProcessWithoutNullStreams) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve()),
  );

it("loses nothing when a dispatcher is killed mid-batch, and copies share their webhook-id", async () => {
  const caller = await testCaller(ctx, `webhook-crash-${Date.now()}@example.com`);
  const account = await openTestAccount(ctx, caller, "Crash test");
  const { secret } = await createEndpoint(ctx, caller.userId, {
    url: hook.url,
    event_types: TYPES,
    description: "crash test",
    enabled: true,
  });
  for (let index = 1; index <= DEPOSITS; index += 1)
    await deposit(ctx, caller.userId, { account_id: account.id, amount: `${index}.00` }, null);
  // Every subscribed event, as the events list has them (past the settle window).
  let expected: PlatformEvent[] = [];
  await expect
    .poll(async () => {
      expected = (await listEvents(ctx, caller.userId, { types: TYPES, limit: 100 })).data;
      return expected.length;
    })
    .toBe(DEPOSITS * TYPES.length);

  // Slow answers: when the dispatcher dies, attempts are in flight and deliveries are pending.
  hook.answerAfter(250);
  const first = await startDispatcher(0);
  await hook.waitFor((received) => received.length >= 3, 60_000);
  first.kill("SIGKILL");
  await exited(first);
  const beforeRestart = new Set(hook.received.map((request) => request.headers["webhook-id"]));
  expect(beforeRestart.size).toBeLessThan(expected.length);

  // A second dispatcher whose clock is past the dead one's claims finishes the work.
  hook.answerAfter(0);
  const second = await startDispatcher(CLAIM_MS + 1_000);
  const ids = new Set(expected.map((event) => event.id));
  await hook.waitFor(
    (received) => [...ids].every((id) => received.some((r) => r.headers["webhook-id"] === id)),
    90_000,
  );
  second.stdin.end();
  await exited(second);

  const byId = new Map<string, string[]>();
  for (const request of hook.received) {
    const id = String(request.headers["webhook-id"]);
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
    const verified = new Webhook(secret).verify(request.body, headers) as PlatformEvent;
    expect(verified.id).toBe(id);
    byId.set(id, [...(byId.get(id) ?? []), request.body]);
  }
  // Exactly the subscribed events, each at least once; every copy of one is the same body.
  expect(new Set(byId.keys())).toEqual(ids);
  for (const bodies of byId.values()) expect(new Set(bodies).size).toBe(1);
}, 240_000);
