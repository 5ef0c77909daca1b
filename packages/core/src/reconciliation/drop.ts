import { PutObjectCommand } from "@aws-sdk/client-s3";
import type { CoreContext } from "../shared/context";
import { getRail } from "../rails/store";
import { loadDayExpectations } from "./expectations";
import { generateSettlementFile, type PlantedBreak } from "./generator";
import { settlementFileKey } from "./model";

/**
 * A rail's processor, simulated (docs/money-operations.md#settlement-files): the rail-day's file
 * generated from that day's real expectations (the payment worker's), with `breaks` planted
 * breaks, put under incoming/ with a checksum (the bucket has Object Lock). Its ObjectCreated
 * event then reconciles it. The settlement:drop CLI runs this.
 */
export async function dropSettlementFile(
  ctx: CoreContext,
  input: { railId: string; date: string; breaks: number; suffix?: string },
): Promise<{ key: string; attempts: number; lines: number; planted: PlantedBreak[] }> {
  const rail = await getRail(ctx, input.railId);
  const { expectations } = await loadDayExpectations(ctx, rail.id, input.date);
  const ordered = [...expectations.values()].sort(
    (a, b) => a.completedAt.localeCompare(b.completedAt) || a.reference.localeCompare(b.reference),
  );
  const file = generateSettlementFile(ordered, {
    railId: rail.id,
    date: input.date,
    settlementSeconds: rail.settlementSeconds,
    breaks: input.breaks,
  });
  const key = settlementFileKey(rail.id, input.date, input.suffix ?? "");
  await (await ctx.storage.client()).send(
    new PutObjectCommand({
      Bucket: ctx.storage.settlementsBucket,
      Key: key,
      Body: `${[...file.rows()].join("\n")}\n`,
      ContentType: "text/csv",
      ChecksumAlgorithm: "CRC32",
    }),
  );
  return { key, attempts: ordered.length, lines: file.lineCount, planted: file.planted };
}
