import type { CoreContext } from "../shared/context";
import { parseWith } from "../shared/validation";
import { findCountry } from "./countries";
import { velocityKey, type VelocityKind } from "./keys";
import type { KycSubmission } from "./model";
import { changeSubmission, createSubmission } from "./submissions";
import { afterApplicantStep } from "./workflow";
import { StartKycInput, type StartOrigin } from "./applicant-inputs";

/**
 * Starting an applicant's KYC (docs/product/kyc.md#data): one active submission per user, written with the
 * velocity items of where the start came from, then a first risk assessment (afterApplicantStep).
 */

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
