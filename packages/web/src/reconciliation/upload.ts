import type { SettlementFile } from "@fintech/core/reconciliation/model";
import type { ReconciliationApi } from "./api";
import { delayUnlessAborted, type PollWait } from "../lib/pollWait";

/**
 * An admin's upload of a settlement file: a presigned POST from the API, the bytes straight to
 * the bucket (real progress), then the wait for S3's ObjectCreated to reconcile it, seen as the
 * file appearing in the list under the key the grant named.
 */

export type UploadPhase = "signing" | "sending" | "reconciling";

export type ReconcileWait = PollWait;

export const DEFAULT_RECONCILE_WAIT: ReconcileWait = { intervalMs: 1_000, attempts: 90, delay: delayUnlessAborted };

/** The upload reached the bucket but no reconciled file showed up within the wait. */
export class ReconcilePendingError extends Error {
  constructor(readonly key: string) {
    super(`The file ${key} is uploaded but not reconciled yet`);
    this.name = "ReconcilePendingError";
  }
}

export interface UploadInput {
  railId: string;
  date: string;
  file: File;
  onPhase?: (phase: UploadPhase) => void;
  /** Share of the bytes sent, 0 to 1. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/** The file's SHA-256 in base64, as the upload's signed policy requires it (the bucket has Object Lock). */
export async function sha256Base64(file: Blob): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", await file.arrayBuffer()));
  let binary = "";
  for (const byte of digest) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export async function uploadSettlementFile(
  api: Pick<ReconciliationApi, "uploadGrant" | "sendFile" | "files">,
  { railId, date, file, onPhase, onProgress, signal }: UploadInput,
  wait: ReconcileWait = DEFAULT_RECONCILE_WAIT,
): Promise<SettlementFile> {
  onPhase?.("signing");
  const sha256 = await sha256Base64(file);
  const grant = await api.uploadGrant({ railId, date, filename: file.name, size: file.size, sha256 }, signal);
  onPhase?.("sending");
  await api.sendFile(grant, file, onProgress, signal);
  onPhase?.("reconciling");
  for (let attempt = 0; attempt < wait.attempts; attempt++) {
    if (attempt > 0) await wait.delay(wait.intervalMs, signal);
    const { files } = await api.files({ railId, limit: 25 }, signal);
    const reconciled = files.find((candidate) => candidate.key === grant.key);
    if (reconciled) return reconciled;
  }
  throw new ReconcilePendingError(grant.key);
}
