import {
  processSettlementObjectRecords,
  type ReconcileOutcome,
  type SettlementObjectRecord,
} from "@fintech/core/reconciliation/service";
import { loadConfig } from "@fintech/core/shared/config";
import { createContext } from "@fintech/core/shared/context";

/**
 * S3 ObjectCreated under the settlements bucket's incoming prefix, .csv (stacks/Reconciliation.ts):
 * reconciles the file, the same entry point the embedded stack calls with the emulator's event.
 * S3 invokes asynchronously and retries a failed invocation; reconciliation is idempotent per
 * object version, so a retry or a second delivery reconciles nothing twice.
 *
 * No request reaches this function through CloudFront and it signs, checks or hashes nothing with
 * a key, so it needs neither the origin proof nor any key secret (none is bound to it).
 */
const core = createContext(loadConfig(process.env));

export interface SettlementNotificationEvent {
  Records?: SettlementObjectRecord[];
}

export async function handler(event: SettlementNotificationEvent): Promise<ReconcileOutcome[]> {
  return processSettlementObjectRecords(core, event.Records ?? []);
}
