import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSettlementFile } from "@fintech/core/reconciliation/generator";
import { settlementFileKey } from "@fintech/core/reconciliation/model";
import { listBreaks, listSettlementFiles } from "@fintech/core/reconciliation/service";
import { createTestContext, TEST_BUCKETS } from "@fintech/testing/context";
import { putSettlementObject, seedExpectations, syntheticExpectations } from "@fintech/testing/reconciliation";
import { deliverSettlementObjectEvents, type SettlementObjectEventDelivery } from "./settlement-object-events";
import { startS3Emulator, type S3Emulator } from "./s3-emulator";

/**
 * A settlement file put into the S3 emulator as a processor would: the emulator's ObjectCreated
 * event reaches the embedded stack's delivery, which reconciles it with the handler the cloud's
 * notification invokes; idle() is waited on, never a sleep. This file runs its own emulator so
 * the events reach this process.
 */

let directory: string;
let emulator: S3Emulator;
let core: Awaited<ReturnType<typeof createTestContext>>;
let delivery: SettlementObjectEventDelivery;
const DAY = "2033-07-04";

beforeAll(async () => {
  directory = mkdtempSync(path.join(os.tmpdir(), "fintech-settlement-events-"));
  emulator = await startS3Emulator({ directory, corsOrigins: ["*"], bucketNames: TEST_BUCKETS });
  core = await createTestContext({ S3_ENDPOINT: emulator.endpoint });
  delivery = deliverSettlementObjectEvents(emulator.server, core);
});
afterAll(async () => {
  await delivery?.stop();
  await core?.dispose();
  await emulator?.stop();
  rmSync(directory, { recursive: true, force: true });
});

describe("a settlement file dropped into the emulator", () => {
  it("is reconciled through the emulator's event; objects outside incoming/ are not", async () => {
    const expectations = [...syntheticExpectations("ach", DAY, 30, "EVT")];
    await seedExpectations(core, expectations);
    const file = generateSettlementFile(expectations, {
      railId: "ach",
      date: DAY,
      settlementSeconds: 86_400,
      breaks: 5,
    });
    const body = `${[...file.rows()].join("\n")}\n`;
    await putSettlementObject(core, `archive/ach/${DAY}.csv`, body);
    await delivery.idle();
    expect((await listSettlementFiles(core, { railId: "ach" })).files).toEqual([]);

    await putSettlementObject(core, settlementFileKey("ach", DAY), body);
    await delivery.idle();
    const { files } = await listSettlementFiles(core, { railId: "ach" });
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ date: DAY, source: "s3_event", lines: file.lineCount });
    const { breaks } = await listBreaks(core, { fileId: files[0]!.id, limit: 50 });
    expect(breaks.map((found) => found.class).sort()).toEqual(file.planted.map((plant) => plant.class).sort());

    // The same content dropped again under another name is the same reconciliation.
    await putSettlementObject(core, settlementFileKey("ach", DAY, "-resend"), body);
    await delivery.idle();
    expect((await listSettlementFiles(core, { railId: "ach" })).files).toHaveLength(1);
  }, 60_000);
});
