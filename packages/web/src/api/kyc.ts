import { z } from "zod";
import { DocumentStatus, DocumentType, IdentityNumberType, ImageChecks, KycStatus } from "@fintech/core/kyc/model";
import { apiBaseUrl } from "../config";
import { credentialStore } from "../session/credentialStore";
import { appHttp } from "./appClient";
import type { HttpClient, TokenSource } from "./client";
import { unwrapData } from "./envelope";
import { API_MESSAGES, ApiError, bodyCode, bodyMessage } from "./errors";
import { withQuery } from "./query";
import type { WriteOptions } from "./types";
import { writeRequest } from "./write";

/**
 * The applicant's KYC calls (spec 001 §7): countries, start, status, Aadhaar/PAN verification,
 * document upload (with real upload progress) and resubmission after a reviewer's Request Info.
 * Replies are parsed with zod, so a reply that breaks the contract is an "Invalid response format"
 * error here rather than a crash deep in a screen.
 */

export const KYC_PATH = "/api/v1/kyc";
export const KYC_STREAM_PATH = "/api/grpc/kyc/stream";
export const KYC_STREAM_HEALTH_PATH = "/api/grpc/kyc/health";

export const KycCountry = z.object({
  country: z.string(),
  countryCode: z.string(),
  flag: z.string(),
  documentTypes: z.array(DocumentType),
  popular: z.boolean(),
});
export type KycCountry = z.infer<typeof KycCountry>;
const CountriesReply = z.object({ countries: z.array(KycCountry) });

/** One document of the applicant's state: its status and, once checked, what the checks found. */
export const KycDocumentState = z.object({
  status: DocumentStatus,
  verified_at: z.string().nullable().optional(),
  problems: z.array(z.string()).optional(),
});
export type KycDocumentState = z.infer<typeof KycDocumentState>;

/** The applicant's KYC state (spec 001 §3 KYC state, plus what the wizard resumes from). */
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
  identity_numbers: z.partialRecord(IdentityNumberType, z.object({ masked: z.string(), verified_at: z.string().optional() })).default({}),
  info_request: z.object({ message: z.string(), requested_at: z.string() }).nullable().optional(),
  risk_score: z.number().nullable().optional(),
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
  checks: ImageChecks.partial().extend({ problems: z.array(z.string()).optional() }).nullable().optional(),
});
export type UploadedDocument = z.infer<typeof UploadedDocument>;

export interface StartKycInput {
  country: string;
  name: string;
  email: string;
  phone: string;
}

/** Spec 001 §8's service errors for a reply without its `data`. */
export const KYC_SERVICE_MESSAGES = {
  noStartData: "No data received from KYC start request",
  noVerificationData: "No data received from document verification request",
  noStatusData: "No data received from KYC status request",
  uploadFailed: "Failed to upload document",
} as const;

/** The reply's `data`, or the spec's "No data received from …" error when it has none. */
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
export type UploadTransport = Pick<XMLHttpRequest, "open" | "setRequestHeader" | "send" | "abort" | "status" | "responseText" | "upload" | "onload" | "onerror" | "onabort">;

export interface UploadOptions {
  file: Blob & { name?: string };
  documentType: DocumentType;
  /** Share of the file's bytes sent so far, 0 to 1 (XMLHttpRequest upload progress: fetch cannot report it). */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

export interface KycApiConfig {
  http: HttpClient;
  baseUrl: string;
  credentials: TokenSource;
  newUploadTransport: () => UploadTransport;
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

export function kycEndpoints({ http, baseUrl, credentials, newUploadTransport }: KycApiConfig) {
  return {
    /** GET /countries[?search=] -> {success, countries, total}: every country with its document types. */
    async countries(search = "", signal?: AbortSignal): Promise<KycCountry[]> {
      return parsed(CountriesReply, await http.authCall<unknown>("GET", withQuery(`${KYC_PATH}/countries`, { search }), { signal })).countries;
    },
    /** POST /start -> {data: state}; 409 "… already has a KYC submission" when one is active. */
    async start(input: StartKycInput, options: WriteOptions = {}): Promise<unknown> {
      return dataOf(await http.authCall<unknown>("POST", `${KYC_PATH}/start`, writeRequest(input, options)), KYC_SERVICE_MESSAGES.noStartData);
    },
    /** GET /status -> {data: state}; null before any start (404 kyc_not_started). */
    async status(signal?: AbortSignal): Promise<KycState | null> {
      try {
        return parsed(KycState, dataOf(await http.authCall<unknown>("GET", `${KYC_PATH}/status`, { signal }), KYC_SERVICE_MESSAGES.noStatusData));
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    /** POST /verify/{aadhaar|pan} {document_number, country} -> {data: {valid, status, masked, progress}}. */
    async verifyNumber(type: IdentityNumberType, documentNumber: string, country: string, options: WriteOptions = {}): Promise<IdentityVerification> {
      const reply = await http.authCall<unknown>("POST", `${KYC_PATH}/verify/${type}`, writeRequest({ document_number: documentNumber, country }, options));
      return parsed(IdentityVerification, dataOf(reply, KYC_SERVICE_MESSAGES.noVerificationData));
    },
    /** POST /resubmit {note?}: back to review after the reviewer's Request Info. */
    async resubmit(note: string, options: WriteOptions = {}): Promise<unknown> {
      return unwrapData<unknown>(await http.authCall<unknown>("POST", `${KYC_PATH}/resubmit`, writeRequest(note ? { note } : {}, options)));
    },
    /** GET /api/grpc/kyc/health with the bearer token: whether the stream service answers (spec 001 §7). */
    async streamHealthy(signal?: AbortSignal): Promise<boolean> {
      try {
        await http.authCall<unknown>("GET", KYC_STREAM_HEALTH_PATH, { signal });
        return true;
      } catch (error) {
        if (error instanceof DOMException && error.name === "AbortError") throw error;
        return false;
      }
    },
    /**
     * POST /upload (multipart: file, document_type) -> {data: document}. XMLHttpRequest rather than
     * fetch: only it reports upload progress in every browser. Refusals carry the server's message.
     */
    uploadDocument({ file, documentType, onProgress, signal }: UploadOptions): Promise<UploadedDocument> {
      return new Promise((resolve, reject) => {
        const token = credentials.getToken();
        if (!token) return reject(new ApiError(API_MESSAGES.noToken, "no-token"));
        if (signal?.aborted) return reject(new DOMException("The upload was cancelled", "AbortError"));
        const request = newUploadTransport();
        const form = new FormData();
        form.append("document_type", documentType);
        form.append("file", file, file.name ?? "document");
        request.open("POST", `${baseUrl}${KYC_PATH}/upload`);
        request.setRequestHeader("Authorization", `Bearer ${token}`);
        request.setRequestHeader("Accept", "application/json");
        request.upload.onprogress = (event) => {
          if (event.lengthComputable && event.total > 0) onProgress?.(Math.min(1, event.loaded / event.total));
        };
        const onAbort = () => request.abort();
        signal?.addEventListener("abort", onAbort, { once: true });
        const settle = () => signal?.removeEventListener("abort", onAbort);
        request.onload = () => {
          settle();
          const body = jsonOrNull(request.responseText);
          if (request.status < 200 || request.status >= 300) return reject(uploadError(request.status, body, credentials));
          try {
            resolve(parsed(UploadedDocument, unwrapData(body), request.status));
          } catch (error) {
            reject(error);
          }
        };
        request.onerror = () => {
          settle();
          reject(new ApiError(API_MESSAGES.network, "network"));
        };
        request.onabort = () => {
          settle();
          reject(new DOMException("The upload was cancelled", "AbortError"));
        };
        request.send(form);
      });
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
