import type { CoreContext } from "../shared/context";
import { badRequest, conflict } from "../shared/errors";
import { findCountry } from "./countries";
import { asksForNumber, identityNumbersFor } from "./country-requirements";
import { identityNumberHashes, recordedHashes } from "./identity-hash";
import {
  IDENTITY_NUMBER_KINDS,
  isValidIdentityNumber,
  maskIdentityNumber,
  normaliseIdentityNumber,
} from "./identity-numbers";
import { identityNumberClaimKey } from "./keys";
import type { IdentityNumberType, KycSubmission } from "./model";
import { changeSubmission, type HistoryInput } from "./submissions";
import { afterApplicantStep } from "./workflow";
import { VerifyIdentityNumberInput } from "./applicant-inputs";
import type { IdentityNumberVerified } from "./applicant-replies";
import { requireUserSubmission } from "./applicant-state";

/**
 * The identity-number steps an applicant's country asks for (country-requirements.ts): each number
 * checked (identity-numbers.ts), then recorded masked and hashed, ending with afterApplicantStep.
 */

const applicantActor = (submission: Pick<KycSubmission, "user_id" | "name">) => ({
  id: submission.user_id,
  name: submission.name,
  role: "applicant" as const,
});

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
 * same number on another user. Verifying the number already recorded answers as the first time and
 * writes nothing. Replacing a recorded number (while the submission is pending) keeps the old
 * claim: that this user presented that number stays true.
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
    // A missing or wrong number reads as docs/product/kyc.md#messages says; other fields keep their own.
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
