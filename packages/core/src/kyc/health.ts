import { z } from "zod";
import { checkHealth } from "../health/service";
import type { CoreContext } from "../shared/context";

/**
 * The KYC service's health reply (docs/product/kyc.md#calls).
 */

export const KycHealthReply = z.object({
  success: z.boolean().describe("true when the KYC store answers (documents need storage too: see storage)"),
  service: z.string(),
  status: z.enum(["ok", "degraded", "error"]),
  message: z.string(),
  time: z.string(),
  database: z.object({ connected: z.boolean(), latency_ms: z.number() }),
  storage: z.object({ connected: z.boolean(), latency_ms: z.number() }),
});
export type KycHealthReply = z.infer<typeof KycHealthReply>;

/** The KYC service's health: the table (submissions) and the document bucket, really asked. */
export async function kycHealth(ctx: CoreContext, service: string): Promise<KycHealthReply> {
  const report = await checkHealth(ctx);
  return {
    success: report.status !== "error",
    service,
    status: report.status,
    message: report.message,
    time: report.time,
    database: { connected: report.database.connected, latency_ms: report.database.latency_ms },
    storage: { connected: report.storage.connected, latency_ms: report.storage.latency_ms },
  };
}
