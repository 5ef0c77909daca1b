import { z } from "zod";
import type { CoreContext } from "../shared/context";
import { encodeCursor } from "../events/cursor";
import { FeedReader, feedSettings, type FeedSource, type OutboxItem } from "../events/feed";
import { kycFeedPartition } from "./keys";
import {
  APPLICANT_KYC_EVENT_TYPES,
  DocumentType,
  IdentityNumberType,
  KycHistoryEntry,
  RISK_LEVELS,
  type KycEventType,
  type KycSubmission,
} from "./model";
import { historyRange } from "./submissions";

/**
 * The KYC outbox, read side (the KYC stream of docs/product/kyc.md#live-updates). A submission's history is its
 * outbox: every committed change wrote its entries in the same transaction, each in the owner's
 * feed index (gsi2, FEED#kyc#<user>) by commit time. A submission is one stream of the feed and
 * its history seq the stream's gap-free sequence, so the common feed reader (events/feed.ts)
 * resumes a Last-Event-ID without loss or repetition. Entries with an `event` become stream
 * events; the others (notes, decisions without an event) are audit only.
 *
 * Who reads decides what is read: an applicant's feed carries no risk signal at all (see
 * forAudience); a reviewer's carries everything.
 */

export interface KycFeedEvent {
  type: KycEventType;
  /** The submission the event belongs to (verificationId in docs/product/kyc.md#live-updates). */
  verificationId: string;
  seq: number;
  payload: Record<string, unknown>;
}

/** The feed of one user's submissions; cursors of it are bound to this scope. */
export const kycFeedScope = (userId: string) => `kyc:${userId}`;

/** A history item as submissions.ts writes it (its entry is parsed where its fields are used). */
interface HistoryItem extends OutboxItem {
  submission_id: string;
  entry: { seq: number } & Record<string, unknown>;
}

/** An entry's stream event; its verificationId is always the submission's (whatever the entry's data says). */
export function eventOf(item: HistoryItem): KycFeedEvent | null {
  const entry = KycHistoryEntry.parse(item.entry);
  if (!entry.event) return null;
  return {
    type: entry.event.type,
    verificationId: item.submission_id,
    seq: entry.seq,
    payload: { ...entry.event.data, verificationId: item.submission_id },
  };
}

export function kycFeedSource(
  ctx: CoreContext,
  userId: string,
  audience: KycAudience = "applicant",
): FeedSource<KycFeedEvent> {
  return {
    feed: "kyc",
    partitions: [kycFeedPartition(userId)],
    streamOf: (item) => ({ stream: (item as HistoryItem).submission_id, seq: (item as HistoryItem).entry.seq }),
    range: async (submissionId, from, to) => (await historyRange(ctx, submissionId, from, to)) as OutboxItem[],
    // History items carry their whole entry: decoding reads nothing more.
    decode: async (items) =>
      items.map((item) => {
        const event = eventOf(item as HistoryItem);
        const shown = event ? forAudience(event, audience) : null;
        return shown ? [shown] : [];
      }),
  };
}

/** A user's KYC feed as `audience` may read it: an applicant's (the default) never carries a risk signal. */
export const kycFeedReader = (ctx: CoreContext, userId: string, audience: KycAudience = "applicant") =>
  new FeedReader(ctx, kycFeedSource(ctx, userId, audience), feedSettings(ctx));

/**
 * A resume point just before a submission started: a stream opened with it as Last-Event-ID
 * delivers the submission's whole history of events, then what follows (a client that started
 * its verification before it subscribed misses nothing).
 */
export function cursorBeforeSubmission(
  ctx: CoreContext,
  submission: Pick<KycSubmission, "user_id" | "submitted_at">,
): string {
  return encodeCursor(ctx.config.CURSOR_KEYS, kycFeedScope(submission.user_id), {
    p: submission.submitted_at,
    f: submission.submitted_at,
    s: {},
  });
}

/* ---------- the stream's messages (documented in OpenAPI; built from the history entries) ---------- */

const verificationId = z.string().describe("The KYC submission's id");
const documentOrNumber = z.union([DocumentType, IdentityNumberType]);

/**
 * Each event's payload (the fields of docs/product/kyc.md#live-updates, plus the verificationId
 * every event carries).
 */
export const KYC_EVENT_PAYLOADS = {
  verificationStarted: z.object({ verificationId, country: z.string(), countryName: z.string() }),
  documentUploaded: z.object({ verificationId, documentType: documentOrNumber }),
  documentVerified: z.object({
    verificationId,
    documentType: documentOrNumber,
    status: z.enum(["VERIFIED", "REJECTED"]),
    confidence: z
      .number()
      .describe(
        "How clearly the picture passed its quality checks (1 for a number whose format and check digits passed)",
      ),
    problems: z.array(z.string()).optional().describe("Why a picture was rejected"),
  }),
  riskAssessmentUpdate: z
    .object({ verificationId, riskScore: z.number().int(), riskLevel: z.enum(RISK_LEVELS), flags: z.array(z.string()) })
    .describe("Reviewers only: sent when an administrator reads a user's feed, never on an applicant's own"),
  verificationCompleted: z.object({
    verificationId,
    status: z
      .enum(["VERIFIED", "REJECTED", "REQUIRES_REVIEW"])
      .describe("REQUIRES_REVIEW: under review; VERIFIED or REJECTED: a reviewer decided"),
  }),
  complianceAlert: z
    .object({ verificationId, alertType: z.string(), severity: z.enum(["low", "medium", "high"]), message: z.string() })
    .describe("Reviewers only: sent when an administrator reads a user's feed, never on an applicant's own"),
} satisfies Record<KycEventType, z.ZodObject>;

/**
 * One SSE message's data: `{event: {<type>: payload}}` as a client of
 * docs/product/kyc.md#live-updates reads it, with the type and commit time beside it.
 */
export function kycStreamMessage(type: KycEventType) {
  return z.object({
    event: z.object({ [type]: KYC_EVENT_PAYLOADS[type] }),
    type: z.literal(type),
    verificationId,
    at: z.string(),
  });
}

/** Who watches: an applicant (their own stream) or a reviewer (an admin, any user's). */
export type KycAudience = "applicant" | "reviewer";

const APPLICANT_EVENTS = new Set<KycEventType>(APPLICANT_KYC_EVENT_TYPES);

/**
 * Applicants never learn that a risk signal fired, let alone which (a watchlist hit, their number
 * or picture on another user, a velocity rule): it would teach them what to change to get through,
 * and leak that someone else holds the same number. Their feed says only what happened to their
 * submission and what comes next (under review, verified, rejected); risk updates and compliance
 * alerts stay with reviewers. Every payload is rebuilt from the fields its schema documents (so the
 * final score a history entry keeps for the audit trail is sent to no one, and a field added to
 * an entry later is sent only once it is documented).
 */
function forAudience(event: KycFeedEvent, audience: KycAudience): KycFeedEvent | null {
  if (audience === "applicant" && !APPLICANT_EVENTS.has(event.type)) return null;
  const fields = Object.keys(KYC_EVENT_PAYLOADS[event.type].shape);
  const payload = Object.fromEntries(
    fields.flatMap((field) => (event.payload[field] === undefined ? [] : [[field, event.payload[field]]])),
  );
  return { ...event, payload: { ...payload, verificationId: event.verificationId } };
}

/**
 * One SSE message's data for a decoded event. kycFeedReader has already left out what `audience`
 * may not read; an event of another audience's reader is cut down to its id here rather than shown.
 */
export function presentKycEvent(event: KycFeedEvent, at: string, audience: KycAudience = "applicant") {
  const payload = forAudience(event, audience)?.payload ?? { verificationId: event.verificationId };
  return { event: { [event.type]: payload }, type: event.type, verificationId: event.verificationId, at };
}
