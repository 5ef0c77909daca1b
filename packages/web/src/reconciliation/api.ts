import {
  BreakList,
  PositionsReply,
  ReconciliationBreak,
  SettlementFile,
  SettlementFileList,
  UploadGrant,
  type BreakClass,
  type BreakStatus,
  type FileStatus,
  type ReopenBreakInput,
  type ResolveBreakInput,
  type UploadRequest,
} from "@fintech/core/reconciliation/model";
import type { z } from "zod";
import { appHttp } from "../api/appClient";
import type { HttpClient } from "../api/client";
import { unwrapData } from "../api/envelope";
import { API_MESSAGES, ApiError } from "../api/errors";
import { segment, withQuery } from "../api/query";

/**
 * The reconciliation API (docs/money-operations.md#reconciliation; administrators only, anyone
 * else is answered 403): settlement files, breaks and their resolution, clearing positions and
 * the presigned upload of a file. Replies are read through core's schemas, the ones the server
 * writes them with: a mismatch is an error, never a blank table.
 */

const RECON = "/api/v1/reconciliation";

export type {
  BreakClass,
  BreakList,
  BreakStatus,
  FileStatus,
  PositionsReply,
  ReconciliationBreak,
  SettlementFile,
  SettlementFileList,
  UploadGrant,
};

export interface FileQuery {
  railId?: string;
  status?: FileStatus;
  limit?: number;
  cursor?: string | null;
}

export interface BreakQuery {
  class?: BreakClass;
  status?: BreakStatus;
  railId?: string;
  fileId?: string;
  limit?: number;
  cursor?: string | null;
}

function parsed<S extends z.ZodType>(schema: S, body: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(unwrapData<unknown>(body));
  if (!result.success) throw new ApiError(`${what}: ${API_MESSAGES.invalidResponse}`, "invalid-response");
  return result.data;
}

/** The part of XMLHttpRequest an upload uses, so tests can hand it a fake. */
export type UploadTransport = Pick<
  XMLHttpRequest,
  "open" | "send" | "abort" | "status" | "responseText" | "upload" | "onload" | "onerror" | "onabort"
>;

const cancelled = () => new DOMException("The upload was cancelled", "AbortError");

/** S3 answers a refused POST with XML: <Error><Code>…</Code><Message>…</Message></Error>. */
function xmlField(text: string, field: "Code" | "Message"): string | null {
  return new RegExp(`<${field}>([^<]{1,500})</${field}>`).exec(text)?.[1] ?? null;
}

export const UPLOAD_MESSAGES = {
  tooLarge: "The file is larger than the bucket accepts for an upload",
  refused: "The bucket refused the file",
  network: API_MESSAGES.network,
} as const;

/**
 * Sends the presigned form to the bucket with XMLHttpRequest (only it reports upload progress in
 * every browser); the signal aborts it. The file goes last: S3 ignores every field after it.
 */
export function postToBucket(
  request: UploadTransport,
  grant: UploadGrant,
  file: Blob & { name?: string },
  onProgress?: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  const form = new FormData();
  for (const [name, value] of Object.entries(grant.fields)) form.append(name, value);
  form.append("file", file, file.name ?? "settlement.csv");
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled());
    const onAbort = () => request.abort();
    signal?.addEventListener("abort", onAbort, { once: true });
    const settle = () => signal?.removeEventListener("abort", onAbort);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(Math.min(1, event.loaded / event.total));
    };
    request.onload = () => {
      settle();
      if (request.status >= 200 && request.status < 300) {
        onProgress?.(1);
        return resolve();
      }
      const code = xmlField(request.responseText, "Code");
      if (code === "EntityTooLarge")
        return reject(new ApiError(UPLOAD_MESSAGES.tooLarge, "server-message", request.status, code));
      const message = xmlField(request.responseText, "Message");
      reject(
        new ApiError(
          message ? `${UPLOAD_MESSAGES.refused}: ${message}` : API_MESSAGES.httpStatus(request.status),
          message ? "server-message" : "http-status",
          request.status,
          code,
        ),
      );
    };
    request.onerror = () => {
      settle();
      reject(new ApiError(UPLOAD_MESSAGES.network, "network"));
    };
    request.onabort = () => {
      settle();
      reject(cancelled());
    };
    request.open("POST", grant.url);
    request.send(form);
  });
}

export function reconciliationEndpoints(http: HttpClient, newUploadTransport: () => UploadTransport) {
  return {
    /** GET /files?rail=&status=&limit=&cursor=: newest first. */
    async files(query: FileQuery = {}, signal?: AbortSignal): Promise<SettlementFileList> {
      const path = withQuery(`${RECON}/files`, {
        rail: query.railId,
        status: query.status,
        limit: query.limit,
        cursor: query.cursor,
      });
      return parsed(SettlementFileList, await http.authCall<unknown>("GET", path, { signal }), "Settlement files");
    },
    async file(id: string, signal?: AbortSignal): Promise<SettlementFile> {
      return parsed(
        SettlementFile,
        await http.authCall<unknown>("GET", `${RECON}/files/${segment(id)}`, { signal }),
        "Settlement file",
      );
    },
    /** GET /breaks?class=&status=&rail=&fileId=&limit=&cursor= */
    async breaks(query: BreakQuery = {}, signal?: AbortSignal): Promise<BreakList> {
      const path = withQuery(`${RECON}/breaks`, {
        class: query.class,
        status: query.status,
        rail: query.railId,
        fileId: query.fileId,
        limit: query.limit,
        cursor: query.cursor,
      });
      return parsed(BreakList, await http.authCall<unknown>("GET", path, { signal }), "Breaks");
    },
    /** POST /breaks/{id}/resolve: match by reference or write off, with a note; the same key replays. */
    async resolve(id: string, input: ResolveBreakInput, idempotencyKey: string): Promise<ReconciliationBreak> {
      return parsed(
        ReconciliationBreak,
        await http.authCall<unknown>("POST", `${RECON}/breaks/${segment(id)}/resolve`, { body: input, idempotencyKey }),
        "Break",
      );
    },
    /** POST /breaks/{id}/reopen {note} */
    async reopen(id: string, input: ReopenBreakInput, idempotencyKey: string): Promise<ReconciliationBreak> {
      return parsed(
        ReconciliationBreak,
        await http.authCall<unknown>("POST", `${RECON}/breaks/${segment(id)}/reopen`, { body: input, idempotencyKey }),
        "Break",
      );
    },
    /** GET /positions?date=: each rail's clearing position per currency that day, and what suspense holds. */
    async positions(date: string, signal?: AbortSignal): Promise<PositionsReply> {
      return parsed(
        PositionsReply,
        await http.authCall<unknown>("GET", withQuery(`${RECON}/positions`, { date }), { signal }),
        "Clearing positions",
      );
    },
    /** POST /uploads: a presigned POST for one CSV file under incoming/. */
    async uploadGrant(input: UploadRequest, signal?: AbortSignal): Promise<UploadGrant> {
      return parsed(
        UploadGrant,
        await http.authCall<unknown>("POST", `${RECON}/uploads`, { body: input, signal }),
        "Upload",
      );
    },
    /** The file's bytes to the bucket with real progress; S3's ObjectCreated then reconciles it. */
    sendFile(
      grant: UploadGrant,
      file: Blob & { name?: string },
      onProgress?: (fraction: number) => void,
      signal?: AbortSignal,
    ): Promise<void> {
      return postToBucket(newUploadTransport(), grant, file, onProgress, signal);
    },
  };
}

export type ReconciliationApi = ReturnType<typeof reconciliationEndpoints>;

export const reconciliationApi: ReconciliationApi = reconciliationEndpoints(appHttp, () => new XMLHttpRequest());
