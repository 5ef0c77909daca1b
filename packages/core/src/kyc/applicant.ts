import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import { checkHealth } from "../health/service";
import type { CoreContext } from "../shared/context";
import { badRequest, conflict, forbidden, notFound } from "../shared/errors";
import { parseWith } from "../shared/validation";
import { textFieldError } from "../shared/field-errors";
import { countryDocumentTypes, findCountry } from "./countries";
import {
  asksForNumber,
  describeIdentityNumbers,
  identityNumbersFor,
  missingRequirements,
} from "./country-requirements";
import { identityNumberHashes, recordedHashes } from "./identity-hash";
import {
  IDENTITY_NUMBER_KINDS,
  isValidIdentityNumber,
  maskIdentityNumber,
  normaliseIdentityNumber,
} from "./identity-numbers";
import { identityNumberClaimKey, profileKey, submissionKey, velocityKey, type VelocityKind } from "./keys";
import {
  DOCUMENT_TYPE_LABELS,
  DocumentType,
  IDENTITY_NUMBER_TYPES,
  IdentityNumberType,
  KYC_LIMITS,
  KYC_STATUSES,
  DOCUMENT_STATUSES,
  type KycSubmission,
} from "./model";
import {
  changeSubmission,
  createSubmission,
  findUserSubmission,
  getSubmission,
  type HistoryInput,
  type NewSubmission,
} from "./submissions";
import { afterApplicantStep } from "./workflow";

/**
 * The applicant's side of KYC (spec 001 §3, §5, §7): starting a submission (also as a "profile" of
 * the hosted backend), the KYC state with what is left to do, and the identity-number steps the
 * applicant's country asks for (country-requirements.ts). Every change goes through the submission
 * store with its history entries (audit trail and stream outbox), and every applicant step ends
 * with afterApplicantStep (progress, risk, move to review).
 *
 * What an applicant is told never includes a risk signal (score, level, flag, rule): it would
 * teach them which check to get around. Their replies say what to do next; reviewers see the rest.
 */

/* ---------- inputs ---------- */

const countryCode = z
  .string({ error: textFieldError("country") })
  .trim()
  .max(3, "country must be an ISO country code")
  .transform((code) => code.toUpperCase())
  .refine(
    (code) => findCountry(code) !== undefined,
    "country must be a supported ISO country code (see GET /api/v1/kyc/countries)",
  );

const personName = z
  .string({ error: textFieldError("name") })
  .trim()
  .min(1, "name is required")
  .max(200, "name must be at most 200 characters");
const emailAddress = z
  .string({ error: textFieldError("email") })
  .trim()
  .max(254, "Please enter a valid email address")
  .pipe(z.email("Please enter a valid email address"))
  .transform((email) => email.toLowerCase());
/** E.164-ish: an optional +, then digits with the usual separators; 6 to 20 characters in all. */
const phoneNumber = z
  .string({ error: textFieldError("phone") })
  .trim()
  .regex(/^\+?[0-9][0-9 ()-]{4,18}[0-9]$/, "phone must be a phone number of 6 to 20 characters, e.g. +919876543210");
const amount = z
  .number({ error: `amount must be a whole number from 0 to ${KYC_LIMITS.maxAmount}` })
  .int(`amount must be a whole number from 0 to ${KYC_LIMITS.maxAmount}`)
  .min(0, `amount must be a whole number from 0 to ${KYC_LIMITS.maxAmount}`)
  .max(KYC_LIMITS.maxAmount, `amount must be a whole number from 0 to ${KYC_LIMITS.maxAmount}`);

/** Spec 001 §3 Start-KYC payload, plus the amount the stream's startVerification sends. */
export const StartKycInput = z.object({
  country: countryCode,
  name: personName,
  email: emailAddress,
  phone: phoneNumber,
  amount: amount.default(KYC_LIMITS.defaultAmount),
});
export type StartKycInput = z.infer<typeof StartKycInput>;

/** Spec 001 §3 Verify-document payload, for every identity number. */
export const VerifyIdentityNumberInput = z.object({
  document_number: z.string({ error: textFieldError("document_number") }).max(64, "document_number is too long"),
  /** The wizard sends the country it started with; when given it must be the submission's. */
  country: z.string().trim().max(3, "country must be an ISO country code").optional(),
});
export type VerifyIdentityNumberInput = z.infer<typeof VerifyIdentityNumberInput>;

/** Where a start came from, for the velocity rules (submissions per IP, e-mail domain, device). */
export interface StartOrigin {
  ip: string | null;
  device?: string | null;
}

/* ---------- replies (what the applicant may see: what to do next, never a risk signal) ---------- */

export const ApplicantDocumentView = z.object({
  status: z.enum(DOCUMENT_STATUSES),
  verified_at: z.string().nullable(),
  uploaded_at: z.string(),
  /** Why a document's checks failed, in words the applicant can act on (empty when passed). */
  problems: z.array(z.string()),
});

/** A number the applicant's country asks for, as the wizard offers it. */
export const IdentityNumberRequirementView = z.object({
  type: IdentityNumberType,
  label: z.string().describe("What the field calls it, e.g. Social Security number (SSN)"),
  required: z.boolean().describe("false: offered, may be skipped"),
  format: z.string().describe("How it looks (an illustration, not a real number)"),
});

/** A step still to do before review: the document, or a required number by type. */
export const RemainingStep = z.union([z.literal("document"), IdentityNumberType]);

export const KycStateView = z.object({
  submission_id: z.string(),
  user_id: z.string(),
  country: z.string(),
  location: z.string(),
  status: z.enum(KYC_STATUSES),
  progress: z.number().int(),
  /** The document types the country accepts, in the order to offer them. */
  document_types: z.array(DocumentType),
  documents: z.partialRecord(DocumentType, ApplicantDocumentView),
  /** The numbers the country asks for, in the order to ask (none for many countries). */
  identity_number_requirements: z.array(IdentityNumberRequirementView),
  identity_numbers: z.partialRecord(IdentityNumberType, z.object({ masked: z.string(), verified_at: z.string() })),
  /** What must still be done before review ("document" and required number types), in the wizard's order; empty once submitted. */
  remaining_steps: z.array(RemainingStep),
  next_steps: z.array(z.string()),
  info_request: z.object({ message: z.string(), requested_at: z.string() }).nullable(),
  submitted_at: z.string(),
  updated_at: z.string(),
  verified_at: z.string().nullable(),
});
export type KycStateView = z.infer<typeof KycStateView>;

export const IdentityNumberVerified = z.object({
  valid: z.literal(true),
  status: z.literal("verified"),
  document_type: IdentityNumberType,
  masked: z.string(),
  progress: z.number().int(),
  /** The submission's status after this step (under_review once every step is done). */
  kyc_status: z.enum(KYC_STATUSES),
});
export type IdentityNumberVerified = z.infer<typeof IdentityNumberVerified>;

/* ---------- health ---------- */

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

/* ---------- the KYC state ---------- */

export function nextSteps(submission: KycSubmission): string[] {
  switch (submission.status) {
    case "under_review":
      return ["Wait for a reviewer's decision"];
    case "verified":
      return [];
    case "rejected":
      return ["Start a new KYC submission"];
    case "pending":
      break;
  }
  const steps: string[] = [];
  if (submission.info_request) steps.push(`Answer the reviewer's request: ${submission.info_request.message}`);
  const documents = Object.values(submission.documents);
  if (!documents.some((document) => document?.status === "verified")) {
    const rejected = documents.find((document) => document?.status === "rejected");
    const checking = documents.find((document) => document?.status === "checking" || document?.status === "uploaded");
    if (checking) steps.push(`Wait for the checks of your ${DOCUMENT_TYPE_LABELS[checking.type]}`);
    else if (rejected)
      steps.push(
        `Upload your ${DOCUMENT_TYPE_LABELS[rejected.type]} again: ${rejected.checks?.problems.join("; ") || "it did not pass the checks"}`,
      );
    else
      steps.push(
        `Upload an identity document (${countryDocumentTypes(submission.country)
          .map((type) => DOCUMENT_TYPE_LABELS[type])
          .join(", ")})`,
      );
  }
  for (const type of missingRequirements(submission).numbers)
    steps.push(`Verify your ${IDENTITY_NUMBER_KINDS[type].label}`);
  if (submission.info_request && steps.length === 1) steps.push("Resubmit for review");
  return steps;
}

/** The steps still to do, for the wizard: only while the applicant has something to do (pending). */
export function remainingSteps(submission: KycSubmission): z.infer<typeof RemainingStep>[] {
  if (submission.status !== "pending") return [];
  const missing = missingRequirements(submission);
  return [...(missing.document ? (["document"] as const) : []), ...missing.numbers];
}

export function stateOf(submission: KycSubmission): KycStateView {
  return {
    submission_id: submission.id,
    user_id: submission.user_id,
    country: submission.country,
    location: submission.location,
    status: submission.status,
    progress: submission.progress,
    document_types: countryDocumentTypes(submission.country),
    documents: Object.fromEntries(
      Object.values(submission.documents).flatMap((document) =>
        document
          ? [
              [
                document.type,
                {
                  status: document.status,
                  verified_at: document.verified_at,
                  uploaded_at: document.uploaded_at,
                  problems: document.refusal ? [document.refusal] : (document.checks?.problems ?? []),
                },
              ],
            ]
          : [],
      ),
    ),
    identity_number_requirements: describeIdentityNumbers(submission.country),
    identity_numbers: Object.fromEntries(
      IDENTITY_NUMBER_TYPES.flatMap((type) => {
        const record = submission.identity_numbers[type];
        return record ? [[type, { masked: record.masked, verified_at: record.verified_at }]] : [];
      }),
    ),
    remaining_steps: remainingSteps(submission),
    next_steps: nextSteps(submission),
    info_request: submission.info_request
      ? { message: submission.info_request.message, requested_at: submission.info_request.requested_at }
      : null,
    submitted_at: submission.submitted_at,
    updated_at: submission.updated_at,
    verified_at: submission.verified_at,
  };
}

export const kycNotStarted = () =>
  notFound("KYC has not been started: choose your country to begin", "kyc_not_started");

/** The user's current submission, or 404 kyc_not_started. */
export async function requireUserSubmission(ctx: CoreContext, userId: string): Promise<KycSubmission> {
  const submission = await findUserSubmission(ctx, userId);
  if (!submission) throw kycNotStarted();
  return submission;
}

export async function kycState(ctx: CoreContext, userId: string): Promise<KycStateView> {
  return stateOf(await requireUserSubmission(ctx, userId));
}

/* ---------- starting ---------- */

const applicantActor = (submission: Pick<KycSubmission, "user_id" | "name">) => ({
  id: submission.user_id,
  name: submission.name,
  role: "applicant" as const,
});

/** How long velocity items are kept: the rules look back a day; a month leaves room for longer windows. */
const VELOCITY_TTL_SECONDS = 30 * 24 * 3600;
const DEVICE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** A client's device id, if it sent a usable one (it becomes part of a key, so it is bounded here). */
export function deviceIdOf(value: string | null | undefined): string | null {
  return value && DEVICE_ID.test(value) ? value : null;
}

function velocityItems(submission: KycSubmission, origin: StartOrigin): Record<string, unknown>[] {
  const at = submission.submitted_at;
  const expiresAt = Math.floor(Date.parse(at) / 1000) + VELOCITY_TTL_SECONDS;
  const sources: [VelocityKind, string | null][] = [
    ["ip", origin.ip],
    ["email_domain", submission.origin.email_domain],
    ["device", deviceIdOf(origin.device)],
  ];
  return sources.flatMap(([kind, value]) =>
    value
      ? [
          {
            ...velocityKey(kind, value, at, submission.id),
            entity: "kyc_velocity",
            kind,
            value: value.toLowerCase(),
            user_id: submission.user_id,
            submission_id: submission.id,
            at,
            expires_at: expiresAt,
          },
        ]
      : [],
  );
}

export interface StartOptions {
  /** Replaces the country's name as the submission's location (a profile may say more, e.g. a city). */
  location?: string;
  /** Further items written with the submission (e.g. a profile's details). */
  extraItems?: (submission: KycSubmission) => Record<string, unknown>[];
}

/** A new submission as a start makes it: pending, nothing verified yet, not yet assessed. */
export function pendingSubmissionFields(
  userId: string,
  input: Pick<StartKycInput, "country" | "name" | "email" | "phone" | "amount">,
  origin: Pick<StartOrigin, "ip" | "device">,
  location?: string,
): Omit<KycSubmission, "id" | "version" | "submitted_at" | "updated_at"> {
  const country = findCountry(input.country);
  return {
    user_id: userId,
    name: input.name,
    email: input.email,
    phone: input.phone,
    country: country?.countryCode ?? input.country,
    location: location ?? country?.country ?? input.country,
    status: "pending",
    amount: input.amount,
    priority: "low",
    risk_score: 0,
    risk: null,
    progress: 0,
    documents: {},
    identity_numbers: {},
    notes: "",
    info_request: null,
    origin: { ip: origin.ip, email_domain: input.email.split("@")[1] ?? "", device: deviceIdOf(origin.device) },
    verified_at: null,
    decided_at: null,
    review_alert: null,
  };
}

/**
 * Starts the user's KYC: one active submission per user (a second start is a 409 whose message
 * contains 'already has a KYC submission'), with the velocity items of its origin in the same
 * transaction, then a first risk assessment (riskAssessmentUpdate on the stream).
 */
export async function startKyc(
  ctx: CoreContext,
  userId: string,
  body: unknown,
  origin: StartOrigin,
  options: StartOptions = {},
): Promise<KycSubmission> {
  const input = parseWith(StartKycInput, body);
  const country = findCountry(input.country)!;
  const created = await createSubmission(
    ctx,
    pendingSubmissionFields(userId, input, origin, options.location),
    {
      actor: { id: userId, name: input.name, role: "applicant" },
      action: "started",
      from: null,
      to: "pending",
      note: `Started for ${country.country}`,
      // verificationId is the submission's id, which the store assigns: the stream adds it (events.ts).
      event: { type: "verificationStarted", data: { country: country.countryCode, countryName: country.country } },
    },
    (submission) => [...velocityItems(submission, origin), ...(options.extraItems?.(submission) ?? [])],
  );
  try {
    return await changeSubmission(ctx, created.id, (current) =>
      current.risk ? null : afterApplicantStep(ctx, current, []),
    );
  } catch (error) {
    // The submission is committed; its first assessment comes with the applicant's next step.
    // Failing the start now would only make the retry a 409.
    ctx.logger.warn("first KYC risk assessment failed", { error, submission_id: created.id });
    return created;
  }
}

/* ---------- identity numbers ---------- */

/** Aadhaar and PAN keep the codes they always had; every other number shares one. */
export const invalidNumberCode = (type: IdentityNumberType) =>
  type === "aadhaar" || type === "pan" ? `invalid_${type}` : "invalid_identity_number";

const invalidNumber = (type: IdentityNumberType) =>
  badRequest(IDENTITY_NUMBER_KINDS[type].invalidMessage, invalidNumberCode(type));

function numberNotAsked(type: IdentityNumberType, countryCode: string) {
  const country = findCountry(countryCode)?.country ?? countryCode;
  const asked = identityNumbersFor(countryCode).map((other) => IDENTITY_NUMBER_KINDS[other].label);
  const instead = asked.length > 0 ? `it asks for: ${asked.join(", ")}` : "it asks for no identity number";
  return badRequest(
    `The ${IDENTITY_NUMBER_KINDS[type].label} is not part of KYC for ${country}; ${instead}`,
    "identity_number_not_asked",
  );
}

const notEditable = (submission: KycSubmission) =>
  conflict(
    submission.status === "under_review"
      ? "Your KYC submission is under review and cannot be changed now"
      : `Your KYC submission is already ${submission.status} and cannot be changed`,
    "kyc_not_editable",
  );

/**
 * Verifies an identity number the applicant's country asks for (its format and check digits, see
 * identity-numbers.ts) and records it: only the masked number and keyed hashes are stored, plus a
 * claim item (type, hash, user) per retained key version, through which the risk engine finds the
 * same number on another user. Verifying the number already recorded answers as before and writes
 * nothing. Replacing a recorded number (while the submission is pending) keeps the old claim: that
 * this user presented that number stays true.
 */
export async function verifyIdentityNumber(
  ctx: CoreContext,
  userId: string,
  type: IdentityNumberType,
  body: unknown,
): Promise<IdentityNumberVerified> {
  const parsed = VerifyIdentityNumberInput.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    // A missing or wrong number reads as the spec's message; other fields keep their own.
    if (issue.path[0] === "document_number") throw invalidNumber(type);
    throw badRequest(issue.path.length === 0 ? "Request body must be a JSON object" : issue.message);
  }
  const input = parsed.data;
  if (!isValidIdentityNumber(type, input.document_number)) throw invalidNumber(type);
  const submission = await requireUserSubmission(ctx, userId);
  if (input.country && input.country.toUpperCase() !== submission.country) {
    throw badRequest(
      `country ${input.country.toUpperCase()} is not the country of your KYC submission (${submission.country})`,
      "country_mismatch",
    );
  }
  if (!asksForNumber(submission.country, type)) throw numberNotAsked(type, submission.country);
  const normalised = normaliseIdentityNumber(type, input.document_number);
  const hashes = identityNumberHashes(ctx, type, normalised).map((entry) => entry.hash);
  const hash = hashes[0]!;
  const masked = maskIdentityNumber(type, normalised);
  const reply = (current: KycSubmission): IdentityNumberVerified => ({
    valid: true,
    status: "verified",
    document_type: type,
    masked,
    progress: current.progress,
    kyc_status: current.status,
  });
  // The same number as recorded, under whichever retained key version it was recorded.
  const isRecorded = (current: KycSubmission) => {
    const record = current.identity_numbers[type];
    return record !== undefined && recordedHashes(record).some((recorded) => hashes.includes(recorded));
  };
  if (isRecorded(submission)) return reply(submission);

  const next = await changeSubmission(ctx, submission.id, (current) => {
    if (isRecorded(current)) return null;
    if (current.status !== "pending") throw notEditable(current);
    const now = ctx.clock().toISOString();
    const kind = IDENTITY_NUMBER_KINDS[type];
    const draft: KycSubmission = {
      ...current,
      identity_numbers: { ...current.identity_numbers, [type]: { masked, hash, hashes, verified_at: now } },
    };
    const entry: HistoryInput = {
      actor: applicantActor(current),
      action: "identity_number_verified",
      from: null,
      to: null,
      note: `${kind.short} ${masked} verified (${kind.check})`,
      // The check is deterministic: confidence 1 says the format (and checksum) passed, not that the number was issued.
      event: { type: "documentVerified", data: { documentType: type, status: "VERIFIED", confidence: 1 } },
    };
    // One claim per retained key version, so the number is found on users recorded under any of them.
    const claims = hashes.map((claimHash) => ({
      ...identityNumberClaimKey(type, claimHash, current.user_id),
      entity: "kyc_number_claim",
      type,
      user_id: current.user_id,
      submission_id: current.id,
      claimed_at: now,
    }));
    return afterApplicantStep(ctx, draft, [entry], claims);
  });
  return reply(next);
}

/* ---------- profiles (the hosted backend's /v1/kyc/profiles, spec 001 §3, §7) ---------- */

/** What a profile may say about each document: details only, never the file (uploads take files). */
const ProfileDocument = z
  .object({
    documentNumber: z.string().trim().min(1).max(64, "documentNumber must be at most 64 characters").optional(),
    issuingCountry: z.string().trim().max(3, "issuingCountry must be an ISO country code").optional(),
    expiryDate: z.iso.date("expiryDate must be a date (YYYY-MM-DD)").optional(),
  })
  .strict();

export const CreateProfileInput = z.object({
  userId: z.string().max(64, "userId is not valid").optional(),
  name: personName,
  email: emailAddress,
  phone: phoneNumber,
  country: countryCode,
  location: z
    .string()
    .trim()
    .min(1, "location must not be empty")
    .max(200, "location must be at most 200 characters")
    .optional(),
  amount: amount.default(KYC_LIMITS.defaultAmount),
  documents: z
    .partialRecord(DocumentType, ProfileDocument, {
      error: `documents must be keyed by document type (${DocumentType.options.join(", ")})`,
    })
    .default({}),
  avatar: z
    .url({ protocol: /^https?$/, error: "avatar must be an http(s) URL" })
    .max(2_048, "avatar must be at most 2048 characters")
    .optional(),
});
export type CreateProfileInput = z.infer<typeof CreateProfileInput>;

const ProfileDocumentView = z.object({
  documentNumber: z.string().nullable().describe("Masked to the last four characters"),
  issuingCountry: z.string().nullable(),
  expiryDate: z.string().nullable(),
  status: z.enum([...DOCUMENT_STATUSES, "not_uploaded"]),
});

export const KycProfileView = z.object({
  profileId: z.string(),
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  country: z.string(),
  location: z.string(),
  amount: z.number().int(),
  avatar: z.string().nullable(),
  documents: z.partialRecord(DocumentType, ProfileDocumentView),
  status: z.enum(KYC_STATUSES),
  progress: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type KycProfileView = z.infer<typeof KycProfileView>;

/** A profile's own details, beside its submission (keys.ts profileKey). */
const StoredProfile = z.object({
  avatar: z.string().nullable(),
  documents: z.partialRecord(
    DocumentType,
    z.object({
      documentNumber: z.string().nullable(),
      issuingCountry: z.string().nullable(),
      expiryDate: z.string().nullable(),
    }),
  ),
});
type StoredProfile = z.infer<typeof StoredProfile>;

function profileView(submission: KycSubmission, stored: StoredProfile | null): KycProfileView {
  const details = stored?.documents ?? {};
  const types = new Set([...Object.keys(details), ...Object.keys(submission.documents)] as DocumentType[]);
  return {
    profileId: submission.id,
    userId: submission.user_id,
    name: submission.name,
    email: submission.email,
    phone: submission.phone,
    country: submission.country,
    location: submission.location,
    amount: submission.amount,
    avatar: stored?.avatar ?? null,
    documents: Object.fromEntries(
      [...types].map((type) => [
        type,
        {
          documentNumber: details[type]?.documentNumber ?? null,
          issuingCountry: details[type]?.issuingCountry ?? null,
          expiryDate: details[type]?.expiryDate ?? null,
          status: submission.documents[type]?.status ?? "not_uploaded",
        },
      ]),
    ),
    status: submission.status,
    progress: submission.progress,
    createdAt: submission.submitted_at,
    updatedAt: submission.updated_at,
  };
}

const maskDocumentNumber = (number: string) => "X".repeat(Math.max(0, number.length - 4)) + number.slice(-4);

/**
 * Creates a KYC profile: starts the caller's submission from the profile (one per user, as
 * /start), keeping the profile's avatar and document details (numbers masked) beside it.
 */
export async function createProfile(
  ctx: CoreContext,
  caller: { userId: string },
  body: unknown,
  origin: StartOrigin,
): Promise<KycProfileView> {
  const input = parseWith(CreateProfileInput, body);
  if (input.userId !== undefined && input.userId !== caller.userId)
    throw forbidden("You may only create your own KYC profile", "forbidden");
  const supported = countryDocumentTypes(input.country);
  const unsupported = Object.keys(input.documents).find((type) => !supported.includes(type as DocumentType));
  if (unsupported)
    throw badRequest(
      `${DOCUMENT_TYPE_LABELS[unsupported as DocumentType]} is not accepted for ${findCountry(input.country)!.country}`,
      "unsupported_document_type",
    );
  for (const [type, document] of Object.entries(input.documents)) {
    if (document?.issuingCountry && !findCountry(document.issuingCountry))
      throw badRequest(`documents.${type}.issuingCountry must be an ISO country code`);
  }
  const stored: StoredProfile = {
    avatar: input.avatar ?? null,
    documents: Object.fromEntries(
      Object.entries(input.documents).map(([type, document]) => [
        type,
        {
          documentNumber: document?.documentNumber ? maskDocumentNumber(document.documentNumber) : null,
          issuingCountry: document?.issuingCountry?.toUpperCase() ?? null,
          expiryDate: document?.expiryDate ?? null,
        },
      ]),
    ),
  };
  const submission = await startKyc(
    ctx,
    caller.userId,
    { country: input.country, name: input.name, email: input.email, phone: input.phone, amount: input.amount },
    origin,
    {
      location: input.location,
      extraItems: (created) => [
        { ...profileKey(created.id), entity: "kyc_profile", user_id: created.user_id, ...stored },
      ],
    },
  );
  return profileView(submission, stored);
}

/** A profile by id: the caller's own, or any for an admin; anything else is a 404 (ids reveal nothing). */
export async function getProfile(
  ctx: CoreContext,
  caller: { userId: string; role: string },
  profileId: string,
): Promise<KycProfileView> {
  const missing = notFound("KYC profile not found", "kyc_profile_not_found");
  if (!/^[A-Za-z0-9-]{1,64}$/.test(profileId)) throw missing;
  const [submission, stored] = await Promise.all([
    getSubmission(ctx, profileId),
    ctx.db.doc.send(new GetCommand({ TableName: ctx.db.table, Key: profileKey(profileId), ConsistentRead: true })),
  ]);
  if (!submission || (submission.user_id !== caller.userId && caller.role !== "admin")) throw missing;
  return profileView(submission, stored.Item ? StoredProfile.parse(stored.Item) : null);
}
