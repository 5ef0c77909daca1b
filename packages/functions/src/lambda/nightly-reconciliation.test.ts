import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { expectationPut, settlementReference } from "@fintech/core/reconciliation/expectations";
import { MISSING_FILE_LOG_MESSAGE } from "@fintech/core/reconciliation/model";
import { listBreaks } from "@fintech/core/reconciliation/service";
import { createTestContext } from "@fintech/testing/context";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

/**
 * The nightly Lambda entry point as EventBridge invokes it (stacks/Reconciliation.ts): its
 * context comes from the environment alone, and it checks the day before the event's time.
 */

let core: Awaited<ReturnType<typeof createTestContext>>;
let handler: typeof import("./nightly-reconciliation").handler;

beforeAll(async () => {
  core = await createTestContext();
  const { config } = core;
  for (const [name, value] of Object.entries({
    STAGE: "test",
    // Warnings reach stdout as in the cloud: the missing-file alarm counts one of them.
    LOG_LEVEL: "warn",
    TABLE_NAME: config.TABLE_NAME,
    DYNAMODB_ENDPOINT: config.DYNAMODB_ENDPOINT,
    S3_ENDPOINT: config.S3_ENDPOINT,
    KYC_BUCKET: config.KYC_BUCKET,
    SETTLEMENTS_BUCKET: config.SETTLEMENTS_BUCKET,
    AWS_LAMBDA_FUNCTION_NAME: "test-NightlyReconciliation",
  })) {
    vi.stubEnv(name, value);
  }
  vi.stubEnv("SESSION_KEYS", undefined);
  ({ handler } = await import("./nightly-reconciliation"));
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await core.dispose();
});

describe("nightly-reconciliation Lambda handler", () => {
  it("starts without key secrets and checks the day before the scheduled time, idempotently", async () => {
    const event = { time: "1999-03-02T02:00:00Z" };
    const first = await handler(event);
    expect(first.date).toBe("1999-03-01");
    // Nothing was sent over a rail that day: no file was expected, none is missing.
    expect(first.missingFiles).toEqual([]);
    // EventBridge may deliver a tick twice.
    expect(await handler(event)).toEqual(first);
  });

  it("falls back to the current time when the event has none or an unreadable one", async () => {
    const dayBefore = (at: number) => new Date(at - 86_400_000).toISOString().slice(0, 10);
    for (const event of [{}, { time: "not a time" }]) {
      const before = Date.now();
      const reply = await handler(event);
      // The run may straddle midnight: the day before either end of it.
      expect([dayBefore(before), dayBefore(Date.now())]).toContain(reply.date);
    }
  });

  it("raises a missing-file break for a rail that settled attempts and sent no file, logged for the alarm", async () => {
    const date = "1999-04-01";
    const paymentId = "00000000-0000-4000-8000-000000000001";
    const expectation = {
      railId: "wire",
      reference: settlementReference(paymentId, 1),
      paymentId,
      attempt: 1,
      amountMinor: 5000,
      currency: "USD" as const,
      feeMinor: 1500,
      completedAt: `${date}T09:00:00.000Z`,
    };
    await core.db.doc.send(new PutCommand(expectationPut(core.db.table, expectation, new Date().toISOString()).Put));
    const lines: string[] = [];
    const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      const reply = await handler({ time: "1999-04-02T02:00:00Z" });
      expect(reply.missingFiles).toEqual([{ railId: "wire", date, breakId: expect.any(String) }]);
    } finally {
      write.mockRestore();
    }
    const logged = lines.flatMap((line) => line.split("\n")).filter((line) => line.includes(MISSING_FILE_LOG_MESSAGE));
    expect(logged.map((line) => JSON.parse(line) as { message: string; rail_id: string })).toEqual([
      expect.objectContaining({ message: MISSING_FILE_LOG_MESSAGE, rail_id: "wire", date }),
    ]);
    const breaks = await listBreaks(core, { class: "missing_file", railId: "wire", limit: 10 });
    expect(breaks.breaks.filter((entry) => entry.date === date)).toHaveLength(1);
  });
});
