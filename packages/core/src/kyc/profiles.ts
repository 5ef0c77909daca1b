import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import type { CoreContext } from "../shared/context";
import { badRequest, forbidden, notFound } from "../shared/errors";
import { parseWith } from "../shared/validation";
import { countryDocumentTypes, findCountry } from "./countries";
import { profileKey } from "./keys";
import {
  DOCUMENT_STATUSES,
  DOCUMENT_TYPE_LABELS,
  DocumentType,
  KYC_LIMITS,
  KYC_STATUSES,
  type KycSubmission,
} from "./model";
import { getSubmission } from "./submissions";
import { countryCode, emailAddress, kycAmount, personName, phoneNumber, type StartOrigin } from "./applicant-inputs";
import { startKyc } from "./start";

/**
 * KYC profiles, the hosted backend's /v1/kyc/profiles (docs/product/kyc.md#data and
 * docs/product/kyc.md#calls): a start with the profile's own details (avatar, masked document
 * numbers) kept beside the submission.
 */

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
  amount: kycAmount.default(KYC_LIMITS.defaultAmount),
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
