import { z } from "zod";
import {
  APPLICANT_KYC_EVENT_TYPES,
  DOCUMENT_TYPE_LABELS,
  DocumentType,
  KYC_MESSAGES,
  type KycEventType,
} from "@fintech/core/kyc/model";
import { jsonObjectOf, type LiveStream } from "../../live/feedClient";
import type { ToastSpec } from "../../toast/notify";

/**
 * The KYC stream's events as the wizard reads them, and what each one does on the screen
 * (docs/product/kyc.md#live-updates, in the words of docs/product/kyc.md#messages): the wizard
 * follows the stream while it is connected, so what happens on the server (checks of an upload, a
 * reviewer's decision) shows without a reload. An applicant's feed carries no risk signal (no risk
 * update, compliance alert or score), so none is read or shown.
 */

const text = z.string().max(500);
const upper = z
  .string()
  .max(40)
  .transform((value) => value.toUpperCase());

export const KycLiveEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("verificationStarted"), verificationId: text.optional(), country: text.optional() }),
  z.object({ type: z.literal("documentUploaded"), documentType: text }),
  z.object({
    type: z.literal("documentVerified"),
    documentType: text,
    status: upper,
    confidence: z.number().optional(),
  }),
  z.object({ type: z.literal("verificationCompleted"), status: upper }),
]);
export type KycLiveEvent = z.infer<typeof KycLiveEvent>;

export const KYC_EVENT_NAMES: readonly KycEventType[] = APPLICANT_KYC_EVENT_TYPES;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** One SSE message as an event, or null when its data is not JSON or lacks a field; the SSE name decides the type. */
export function parseKycEvent(name: string, data: string): KycLiveEvent | null {
  const payload = jsonObjectOf(data);
  if (!payload) return null;
  // The server nests the fields, {event: {<type>: {...}}}; flat data is read too.
  const fields = isRecord(payload.event) && isRecord(payload.event[name]) ? payload.event[name] : payload;
  const parsed = KycLiveEvent.safeParse({ ...fields, type: name });
  return parsed.success ? parsed.data : null;
}

/**
 * The KYC stream as the shared feed client (live/feedClient.ts) runs it, on the ledger stream's
 * reconnect rules (backoff with jitter, resume from the last event id, offline pause); the wizard
 * adds the service's health check (docs/product/kyc.md#calls) before each connection.
 */
export const KYC_STREAM: LiveStream<KycLiveEvent> = {
  label: "KYC stream",
  eventNames: KYC_EVENT_NAMES,
  parse: parseKycEvent,
};

/** docs/product/kyc.md#constants: toasts last 4 s (success), 5 s (failure) and 6 s (alert). */
export const KYC_TOAST_MS = { success: 4_000, failure: 5_000, alert: 6_000 } as const;

export const KYC_UI_MESSAGES = {
  documentFailed: (type: string) => `${type} verification failed.`,
  manualReview:
    "Your submission needs a manual review. A reviewer will look at it shortly; you will see the decision here.",
} as const;

/** A document type's label for a message ("Passport"), or the raw value when the stream names another. */
export function documentTypeLabel(type: string): string {
  const known = DocumentType.safeParse(type);
  return known.success ? DOCUMENT_TYPE_LABELS[known.data] : type;
}

/**
 * "{type} verification failed." under one id per type: the upload reply and the stream telling the
 * same failure fold into one toast.
 */
export const documentFailedToastId = (documentType: string) => `kyc-document-failed-${documentType}`;
export const documentFailedToast = (documentType: string): ToastSpec => ({
  kind: "error",
  message: KYC_UI_MESSAGES.documentFailed(documentTypeLabel(documentType)),
  durationMs: KYC_TOAST_MS.failure,
  id: documentFailedToastId(documentType),
});

/** Ids of the toasts for the two outcomes the stream announces (also shown in place by the outcome step). */
export const KYC_COMPLETED_TOAST_ID = "kyc-completed";
export const KYC_MANUAL_REVIEW_TOAST_ID = "kyc-manual-review";

/**
 * Messages the wizard is showing in the page right now, by toast id. A KYC outcome is told once:
 * in place when the step on screen shows it (the upload's verdict, the outcome step), as a toast
 * otherwise; a toast and a notice with the same words side by side read as the message twice.
 */
const shownInPlace = new Map<string, number>();

/** Marks a message as shown in the page until the returned release is called (nested marks count). */
export function markShownInPlace(toastId: string): () => void {
  shownInPlace.set(toastId, (shownInPlace.get(toastId) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (shownInPlace.get(toastId) ?? 1) - 1;
    if (left > 0) shownInPlace.set(toastId, left);
    else shownInPlace.delete(toastId);
  };
}

/** The toast to raise for an event, or null when there is none or the page already shows its message. */
export function toastToRaise(toast: ToastSpec | null): ToastSpec | null {
  if (!toast) return null;
  return toast.id !== undefined && shownInPlace.has(toast.id) ? null : toast;
}

/** What an event does to the wizard. */
export interface EventEffect {
  /** Reload the applicant's state (every event changes something the screen shows). */
  refresh: boolean;
  toast: ToastSpec | null;
  /** Verified: go to the last step. */
  jumpToCompletion: boolean;
  /** Needs a reviewer: show the manual-review warning. */
  manualReview: boolean;
}

/**
 * docs/product/kyc.md#live-updates, in the words of docs/product/kyc.md#messages: a completion with
 * VERIFIED jumps to the last step with the success message, REQUIRES_REVIEW shows the manual-review
 * warning ("under review", never why); a documentVerified that is not VERIFIED raises "{type}
 * verification failed.". Toast ids fold the same news told twice (the upload reply and the stream)
 * into one toast.
 */
export function effectOf(event: KycLiveEvent): EventEffect {
  const none: EventEffect = { refresh: true, toast: null, jumpToCompletion: false, manualReview: false };
  switch (event.type) {
    case "documentVerified":
      if (event.status === "VERIFIED") return none;
      return {
        ...none,
        toast: documentFailedToast(event.documentType),
      };
    case "verificationCompleted":
      if (event.status === "VERIFIED") {
        return {
          ...none,
          jumpToCompletion: true,
          toast: {
            kind: "success",
            message: KYC_MESSAGES.completed,
            durationMs: KYC_TOAST_MS.success,
            id: KYC_COMPLETED_TOAST_ID,
          },
        };
      }
      if (event.status === "REQUIRES_REVIEW")
        return {
          ...none,
          manualReview: true,
          toast: {
            kind: "warning",
            message: KYC_UI_MESSAGES.manualReview,
            durationMs: KYC_TOAST_MS.alert,
            id: KYC_MANUAL_REVIEW_TOAST_ID,
          },
        };
      return none;
    default:
      return none;
  }
}
