import { settlementFileId, type SettlementFile } from "@fintech/core/reconciliation/model";
import { ApiError } from "../api/errors";
import type { ReconciliationApi } from "./api";
import { delayUnlessAborted, type PollWait } from "../lib/pollWait";

/**
 * An admin's upload of a settlement file: a presigned POST from the API, the bytes straight to
 * the bucket (real progress), then the wait for S3's ObjectCreated to record it. A file's id is its
 * rail, day and content hash (settlementFileId), so the wait asks for that id: it finds the file
 * whether it was reconciled, rejected whole, or already recorded from the same content before.
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

/** The file's SHA-256: base64 for the upload's signed policy (the bucket has Object Lock), hex for its id. */
export async function contentDigest(file: Blob): Promise<{ base64: string; hex: string }> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", await file.arrayBuffer()));
  let binary = "";
  for (const byte of digest) binary += String.fromCharCode(byte);
  return { base64: btoa(binary), hex: Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("") };
}

export interface UploadResult {
  file: SettlementFile;
  /** The same content was recorded before, from another upload or drop: nothing was booked again. */
  recordedBefore: boolean;
}

export async function uploadSettlementFile(
  api: Pick<ReconciliationApi, "uploadGrant" | "sendFile" | "file">,
  { railId, date, file, onPhase, onProgress, signal }: UploadInput,
  wait: ReconcileWait = DEFAULT_RECONCILE_WAIT,
): Promise<UploadResult> {
  onPhase?.("signing");
  const digest = await contentDigest(file);
  const grant = await api.uploadGrant(
    { railId, date, filename: file.name, size: file.size, sha256: digest.base64 },
    signal,
  );
  onPhase?.("sending");
  await api.sendFile(grant, file, onProgress, signal);
  onPhase?.("reconciling");
  const id = settlementFileId(railId, date, digest.hex);
  for (let attempt = 0; attempt < wait.attempts; attempt++) {
    if (attempt > 0) await wait.delay(wait.intervalMs, signal);
    try {
      const recorded = await api.file(id, signal);
      return { file: recorded, recordedBefore: recorded.key !== grant.key };
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    }
  }
  throw new ReconcilePendingError(grant.key);
}
