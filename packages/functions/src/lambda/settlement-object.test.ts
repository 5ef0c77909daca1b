import { formatSettlementLine } from "@fintech/core/reconciliation/file-format";
import { SETTLEMENT_HEADER, settlementFileKey } from "@fintech/core/reconciliation/model";
import { listBreaks, listSettlementFiles } from "@fintech/core/reconciliation/service";
import { createTestContext } from "@fintech/testing/context";
import { putSettlementObject } from "@fintech/testing/reconciliation";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

/**
 * The Lambda entry point as S3 invokes it for an object under the settlements bucket's incoming
 * prefix (stacks/Reconciliation.ts): its context comes from the environment alone (no key
 * secret, no origin proof); the same file delivered twice reconciles once.
 */

let core: Awaited<ReturnType<typeof createTestContext>>;
let handler: typeof import("./settlement-object").handler;

beforeAll(async () => {
  core = await createTestContext();
  const { config } = core;
  for (const [name, value] of Object.entries({
    STAGE: "test",
    LOG_LEVEL: "silent",
    TABLE_NAME: config.TABLE_NAME,
    DYNAMODB_ENDPOINT: config.DYNAMODB_ENDPOINT,
    S3_ENDPOINT: config.S3_ENDPOINT,
    KYC_BUCKET: config.KYC_BUCKET,
    SETTLEMENTS_BUCKET: config.SETTLEMENTS_BUCKET,
    AWS_LAMBDA_FUNCTION_NAME: "test-SettlementObjectCreated",
  })) {
    vi.stubEnv(name, value);
  }
  vi.stubEnv("SESSION_KEYS", undefined);
  ({ handler } = await import("./settlement-object"));
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await core.dispose();
});

/** A settlement day no other test uses: the table is shared by the file's tests. */
const uniqueDay = (() => {
  let offset = Math.floor(Math.random() * 3000);
  return () => new Date(Date.UTC(2001, 0, 1) + offset++ * 86_400_000).toISOString().slice(0, 10);
})();

/** An ACH file whose lines name references the ledger never saw: each is unknown_to_ledger. */
async function dropUnknownLines(date: string, count: number): Promise<string> {
  const key = settlementFileKey("ach", date);
  const rows = Array.from({ length: count }, (_, index) =>
    formatSettlementLine({
      rail: "ach",
      reference: `NOPE-${date.replaceAll("-", "")}-${index + 1}`,
      amountMinor: 1000 + index,
      currency: "USD",
      feeMinor: 25,
      type: "payment",
      settledAt: `${date}T12:00:00Z`,
    }),
  );
  await putSettlementObject(core, key, [SETTLEMENT_HEADER, ...rows].join("\n"));
  return key;
}

const created = (key: string) => ({
  Records: [
    {
      eventName: "ObjectCreated:Put",
      eventTime: new Date().toISOString(),
      s3: { bucket: { name: core.config.SETTLEMENTS_BUCKET }, object: { key } },
    },
  ],
});

describe("settlement-object Lambda handler", () => {
  it("starts without key secrets and reconciles a dropped file once, however often S3 delivers its event", async () => {
    const date = uniqueDay();
    const key = await dropUnknownLines(date, 3);

    const [first] = await handler(created(key));
    expect(first).toMatchObject({ outcome: "reconciled" });
    const file = first!.outcome === "reconciled" ? first!.file : null;
    expect(file).toMatchObject({ key, railId: "ach", date, lines: 3, matched: 0, status: "error" });
    expect(file!.breakCounts.unknown_to_ledger).toBe(3);

    // S3 retries and duplicates: nothing is reconciled or raised twice.
    const [again] = await handler(created(key));
    expect(again).toEqual({ outcome: "already_reconciled", fileId: file!.id });
    const listed = (await listSettlementFiles(core, { railId: "ach", limit: 100 })).files.filter((f) => f.key === key);
    expect(listed).toHaveLength(1);
    const breaks = await listBreaks(core, { fileId: file!.id, limit: 100 });
    expect(breaks.breaks.map((entry) => entry.class)).toEqual(Array(3).fill("unknown_to_ledger"));
  });

  it("passes over objects outside the incoming prefix, keys not named rail/day, and an event without records", async () => {
    await expect(handler(created("results/ach/2001-01-01.csv"))).resolves.toEqual([]);
    const [misnamed] = await handler(created("incoming/ach/yesterday.csv"));
    expect(misnamed).toMatchObject({ outcome: "ignored" });
    await expect(handler({})).resolves.toEqual([]);
  });
});
