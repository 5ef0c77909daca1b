import { KYC_FEED_PATH } from "@fintech/core/events/feed-paths";
import { z } from "zod";
import {
  DocumentStatus,
  DocumentType,
  IdentityNumberType,
  ImageChecks,
  KYC_MESSAGES,
  KycStatus,
} from "@fintech/core/kyc/model";
import { apiBaseUrl } from "../config";
import { credentialStore } from "../session/credentialStore";
import { appHttp } from "./appClient";
import { answersHealthCheck, type HttpClient, type TokenSource } from "./client";
import { unwrapData } from "./envelope";
import { API_MESSAGES, ApiError, bodyCode, bodyMessage } from "./errors";
import { withQuery } from "./query";
import type { WriteOptions } from "./types";
import { delayUnlessAborted, uploadCancelled, type PollWait } from "../lib/pollWait";

/**
 * The applicant's KYC calls (docs/product/kyc.md#calls): countries, start, status, Aadhaar/PAN
 * verification, document upload (with real upload progress; large pictures straight to the bucket)
 * and resubmission after a reviewer's Request Info. Replies are parsed with zod, so a reply that
 * breaks the contract is an "Invalid response format" error here rather than a crash deep in a
 * screen.
 */

export const KYC_PATH = "/api/v1/kyc";
export const KYC_STREAM_PATH = KYC_FEED_PATH;
export const KYC_STREAM_HEALTH_PATH = "/api/grpc/kyc/health";

/** An identity number a country asks for (its requirements, country-requirements.ts). */
export const IdentityNumberRequirement = z.object({
  type: IdentityNumberType,
  label: z.string(),
  required: z.boolean(),
  format: z.string(),
});
export type IdentityNumberRequirement = z.infer<typeof IdentityNumberRequirement>;

export const KycCountry = z.object({
  country: z.string(),
  countryCode: z.string(),
  flag: z.string(),
  documentTypes: z.array(DocumentType),
  popular: z.boolean(),
  identityNumbers: z.array(IdentityNumberRequirement).default([]),
});
export type KycCountry = z.infer<typeof KycCountry>;
const CountriesReply = z.object({ countries: z.array(KycCountry) });

/** One document of the applicant's state: its status and, once checked, what the checks found. */
export const KycDocumentState = z.object({
  status: DocumentStatus,
  verified_at: z.string().nullable().optional(),
  /** When the server recorded it: tells a bucket upload's document from the one it replaces. */
  uploaded_at: z.string().optional(),
  problems: z.array(z.string()).optional(),
});
export type KycDocumentState = z.infer<typeof KycDocumentState>;

/** The applicant's KYC state (docs/product/kyc.md#data KYC state, plus what the wizard resumes from). */
export const KycState = z.object({
  user_id: z.string(),
  country: z.string(),
  status: KycStatus,
  progress: z.number(),
  /** The document types the country accepts, in the order to offer them. */
  document_types: z.array(DocumentType).optional(),
  documents: z.partialRecord(DocumentType, KycDocumentState).default({}),
  next_steps: z.array(z.string()).default([]),
  updated_at: z.string(),
  /** The numbers the country asks for, in order: the wizard's number steps. */
  identity_number_requirements: z.array(IdentityNumberRequirement).default([]),
  identity_numbers: z
    .partialRecord(IdentityNumberType, z.object({ masked: z.string(), verified_at: z.string().optional() }))
    .default({}),
  info_request: z.object({ message: z.string(), requested_at: z.string() }).nullable().optional(),
});
export type KycState = z.infer<typeof KycState>;

export const IdentityVerification = z.object({
  valid: z.boolean(),
  status: z.string(),
  masked: z.string().optional(),
  progress: z.number().optional(),
});
export type IdentityVerification = z.infer<typeof IdentityVerification>;

/** An uploaded document as the upload reply describes it: status and the image checks' findings. */
export const UploadedDocument = z.object({
  type: DocumentType,
  status: DocumentStatus,
  checks: ImageChecks.partial()
    .extend({ problems: z.array(z.string()).optional() })
    .nullable()
    .optional(),
});
export type UploadedDocument = z.infer<typeof UploadedDocument>;

/** POST /uploads/presign's reply: a presigned S3 POST form for one picture. */
export const UploadTicket = z.object({
  url: z.string().min(1),
  fields: z.record(z.string(), z.string()),
  key: z.string(),
  expires_at: z.string(),
});
export type UploadTicket = z.infer<typeof UploadTicket>;

/**
 * A bucket upload landed but its checks did not finish within the wait: not a failure (S3 has the
 * picture and the checks will record it), so the screen says so and the state's polling shows the verdict later.
 */
export class DocumentCheckPendingError extends Error {
  constructor(readonly documentType: DocumentType) {
    super("The document was uploaded; its checks are still running");
    this.name = "DocumentCheckPendingError";
  }
}

export interface StartKycInput {
  country: string;
  name: string;
  email: string;
  phone: string;
}

/** The service errors of docs/product/kyc.md#messages for a reply without its `data`. */
export const KYC_SERVICE_MESSAGES = {
  noStartData: "No data received from KYC start request",
  noVerificationData: "No data received from document verification request",
  noStatusData: "No data received from KYC status request",
  uploadFailed: "Failed to upload document",
} as const;

/** The reply's `data`, or the "No data received from …" error (docs/product/kyc.md#messages) when it has none. */
function dataOf(body: unknown, message: string): unknown {
  const data = unwrapData<unknown>(body);
  if (data === null || data === undefined || data === body) throw new ApiError(message, "invalid-response");
  return data;
}

function parsed<S extends z.ZodType>(schema: S, body: unknown, status = 200): z.infer<S> {
  const result = schema.safeParse(body);
  if (!result.success) throw new ApiError(API_MESSAGES.invalidResponse, "invalid-response", status);
  return result.data;
}

/** The part of XMLHttpRequest an upload uses, so tests can hand it a fake. */
export type UploadTransport = Pick<
  XMLHttpRequest,
  | "open"
  | "setRequestHeader"
  | "send"
  | "abort"
  | "status"
  | "responseText"
  | "upload"
  | "onload"
  | "onerror"
  | "onabort"
>;

export interface UploadOptions {
  file: Blob & { name?: string };
  documentType: DocumentType;
  /** Share of the file's bytes sent so far, 0 to 1 (XMLHttpRequest upload progress: fetch cannot report it). */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

export interface BucketUploadOptions extends UploadOptions {
  /** The bytes are in the bucket; from now on the wait is for the server's checks. */
  onChecking?: () => void;
}

export type CheckWait = PollWait;

export const DEFAULT_CHECK_WAIT: CheckWait = { intervalMs: 1_000, attempts: 60, delay: delayUnlessAborted };

export interface KycApiConfig {
  http: HttpClient;
  baseUrl: string;
  credentials: TokenSource;
  newUploadTransport: () => UploadTransport;
  checkWait?: CheckWait;
}

/** An upload's non-OK reply as the same ApiError the JSON calls raise (a 401 ends the session). */
function uploadError(status: number, body: unknown, credentials: TokenSource): ApiError {
  if (status === 401) {
    credentials.clear();
    return new ApiError(API_MESSAGES.sessionExpired, "session-expired", 401, bodyCode(body));
  }
  const message = bodyMessage(body);
  return message
    ? new ApiError(message, "server-message", status, bodyCode(body))
    : new ApiError(API_MESSAGES.httpStatus(status), "http-status", status, bodyCode(body));
}

const jsonOrNull = (text: string): unknown => {
  try {
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return undefined;
  }
};

/** S3 answers a refused POST with XML: <Error><Code>…</Code><Message>…</Message></Error>. */
function xmlField(text: string, field: "Code" | "Message"): string | null {
  return new RegExp(`<${field}>([^<]{1,500})</${field}>`).exec(text)?.[1] ?? null;
}

/** A refused bucket POST in words the applicant can act on (the bucket's own message otherwise). */
function bucketError(status: number, responseText: string): ApiError {
  const code = xmlField(responseText, "Code");
  if (code === "EntityTooLarge") return new ApiError(KYC_MESSAGES.fileTooLarge, "server-message", status, code);
  const message = xmlField(responseText, "Message");
  return message
    ? new ApiError(`${KYC_SERVICE_MESSAGES.uploadFailed}: ${message}`, "server-message", status, code)
    : new ApiError(API_MESSAGES.httpStatus(status), "http-status", status, code);
}

interface Transfer {
  request: UploadTransport;
  body: FormData;
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/**
 * Sends a form with XMLHttpRequest rather than fetch (only it reports upload progress in every
 * browser); Cancel aborts it. Resolves with the reply's status and text, whatever the status.
 */
function transfer({ request, body, onProgress, signal }: Transfer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(uploadCancelled());
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(Math.min(1, event.loaded / event.total));
    };
    const onAbort = () => request.abort();
    signal?.addEventListener("abort", onAbort, { once: true });
    const settle = () => signal?.removeEventListener("abort", onAbort);
    request.onload = () => {
      settle();
      resolve({ status: request.status, text: request.responseText });
    };
    request.onerror = () => {
      settle();
      reject(new ApiError(API_MESSAGES.network, "network"));
    };
    request.onabort = () => {
      settle();
      reject(uploadCancelled());
    };
    request.send(body);
  });
}

const isOk = (status: number) => status >= 200 && status < 300;

/** The document of a type as the state shows it, in the shape the upload reply has. */
const documentOfState = (type: DocumentType, document: KycDocumentState): UploadedDocument => ({
  type,
  status: document.status,
  checks: { problems: document.problems ?? [] },
});

export function kycEndpoints({
  http,
  baseUrl,
  credentials,
  newUploadTransport,
  checkWait = DEFAULT_CHECK_WAIT,
}: KycApiConfig) {
  const status = async (signal?: AbortSignal): Promise<KycState | null> => {
    try {
      return parsed(
        KycState,
        dataOf(
          await http.authCall<unknown>("GET", `${KYC_PATH}/status`, { signal }),
          KYC_SERVICE_MESSAGES.noStatusData,
        ),
      );
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  };

  /**
   * Waits until the state shows a checked document of `type` other than the one recorded before
   * the upload (`before`: its uploaded_at). The applicant never sees object keys, so "other than
   * before" is what ties the verdict to this upload.
   */
  const checkedDocument = async (
    type: DocumentType,
    before: string | null,
    signal?: AbortSignal,
  ): Promise<UploadedDocument> => {
    for (let attempt = 0; attempt < checkWait.attempts; attempt++) {
      if (attempt > 0) await checkWait.delay(checkWait.intervalMs, signal);
      const document = (await status(signal))?.documents[type];
      if (
        document &&
        (document.uploaded_at ?? null) !== before &&
        (document.status === "verified" || document.status === "rejected")
      )
        return documentOfState(type, document);
    }
    throw new DocumentCheckPendingError(type);
  };

  return {
    /** GET /countries[?search=] -> {success, countries, total}: every country with its document types. */
    async countries(search = "", signal?: AbortSignal): Promise<KycCountry[]> {
      return parsed(
        CountriesReply,
        await http.authCall<unknown>("GET", withQuery(`${KYC_PATH}/countries`, { search }), { signal }),
      ).countries;
    },
    /** POST /start -> {data: state}; 409 "… already has a KYC submission" when one is active. */
    async start(input: StartKycInput, options: WriteOptions = {}): Promise<unknown> {
      return dataOf(
        await http.authCall<unknown>("POST", `${KYC_PATH}/start`, { ...options, body: input }),
        KYC_SERVICE_MESSAGES.noStartData,
      );
    },
    /** GET /status -> {data: state}; null before any start (404 kyc_not_started). */
    status,
    /**
     * POST /verify/{aadhaar|pan} (docs/product/kyc.md#calls), or /identity-numbers/{type}/verify
     * for any other number the country asks for;
     * {document_number, country} -> {data: {valid, status, masked, progress}}.
     */
    async verifyNumber(
      type: IdentityNumberType,
      documentNumber: string,
      country: string,
      options: WriteOptions = {},
    ): Promise<IdentityVerification> {
      const path =
        type === "aadhaar" || type === "pan"
          ? `${KYC_PATH}/verify/${type}`
          : `${KYC_PATH}/identity-numbers/${type}/verify`;
      const reply = await http.authCall<unknown>("POST", path, {
        ...options,
        body: { document_number: documentNumber, country },
      });
      return parsed(IdentityVerification, dataOf(reply, KYC_SERVICE_MESSAGES.noVerificationData));
    },
    /** POST /resubmit {note?}: back to review after the reviewer's Request Info. */
    async resubmit(note: string, options: WriteOptions = {}): Promise<unknown> {
      return unwrapData<unknown>(
        await http.authCall<unknown>("POST", `${KYC_PATH}/resubmit`, { ...options, body: note ? { note } : {} }),
      );
    },
    /**
     * GET /api/grpc/kyc/health with the bearer token: whether the stream service answers
     * (docs/product/kyc.md#calls).
     */
    streamHealthy: (signal?: AbortSignal): Promise<boolean> => answersHealthCheck(http, KYC_STREAM_HEALTH_PATH, signal),
    /**
     * POST /upload (multipart: file, document_type) -> {data: document}, with real progress.
     * Refusals carry the server's message.
     */
    async uploadDocument({ file, documentType, onProgress, signal }: UploadOptions): Promise<UploadedDocument> {
      const token = credentials.getToken();
      if (!token) throw new ApiError(API_MESSAGES.noToken, "no-token");
      if (signal?.aborted) throw uploadCancelled();
      const request = newUploadTransport();
      const form = new FormData();
      form.append("document_type", documentType);
      form.append("file", file, file.name ?? "document");
      request.open("POST", `${baseUrl}${KYC_PATH}/upload`);
      request.setRequestHeader("Authorization", `Bearer ${token}`);
      request.setRequestHeader("Accept", "application/json");
      const reply = await transfer({ request, body: form, onProgress, signal });
      const body = jsonOrNull(reply.text);
      if (!isOk(reply.status)) throw uploadError(reply.status, body, credentials);
      return parsed(UploadedDocument, unwrapData(body), reply.status);
    },
    /**
     * A picture too large for the API's request limit (kyc/uploadPath.ts): POST /uploads/presign
     * for a ticket, the form's fields and the file straight to the bucket (real progress, Cancel
     * aborts), then the verdict of S3's ObjectCreated checks from GET /status, waited for within
     * `checkWait` (DocumentCheckPendingError beyond it). A refused file comes back as a rejected
     * document whose problems hold the refusal.
     */
    async uploadDocumentViaBucket({
      file,
      documentType,
      onProgress,
      onChecking,
      signal,
    }: BucketUploadOptions): Promise<UploadedDocument> {
      const ticketReply = await http.authCall<unknown>("POST", `${KYC_PATH}/uploads/presign`, {
        body: { document_type: documentType, content_type: file.type },
        signal,
      });
      const ticket = parsed(UploadTicket, dataOf(ticketReply, KYC_SERVICE_MESSAGES.uploadFailed), 201);
      // Read before the bytes leave: whatever the state holds now is not this upload's verdict.
      const before = (await status(signal))?.documents[documentType]?.uploaded_at ?? null;
      const form = new FormData();
      for (const [name, value] of Object.entries(ticket.fields)) form.append(name, value);
      // S3 ignores every field after the file: it goes last.
      form.append("file", file, file.name ?? "document");
      const request = newUploadTransport();
      request.open("POST", ticket.url);
      const reply = await transfer({ request, body: form, onProgress, signal });
      if (!isOk(reply.status)) throw bucketError(reply.status, reply.text);
      onChecking?.();
      return checkedDocument(documentType, before, signal);
    },
  };
}

export type KycApi = ReturnType<typeof kycEndpoints>;

/**
 * The app's KYC client over the same base address and stored session as the other endpoints (see
 * api/index.ts); uploads go through XMLHttpRequest, the rest through the shared HTTP client.
 */
export const kycApi: KycApi = kycEndpoints({
  http: appHttp,
  baseUrl: apiBaseUrl,
  credentials: credentialStore,
  newUploadTransport: () => new XMLHttpRequest(),
});
