import { PutObjectCommand } from "@aws-sdk/client-s3";
import type { CoreContext } from "@fintech/core/shared/context";
import type { KycSubmission, Priority } from "@fintech/core/kyc/model";
import { pendingSubmissionFields } from "@fintech/core/kyc/start";
import { identityNumbersFor } from "@fintech/core/kyc/country-requirements";
import { changeSubmission, createSubmission, type NewSubmission } from "@fintech/core/kyc/submissions";
import { afterApplicantStep } from "@fintech/core/kyc/workflow";

/**
 * Test support (imported by tests only): submissions for the back-office tests, written through the
 * KYC foundation (createSubmission + changeSubmission + afterApplicantStep), as the applicant's
 * routes would: started, then, when `complete`, Aadhaar and PAN verified and a passport image
 * (stored in the S3 emulator) verified, which moves it to under_review.
 */

export interface SeedOptions {
  userId: string;
  name?: string;
  email?: string;
  country?: string;
  location?: string;
  amount?: number;
  priority?: Priority;
  /** Every applicant step done (under_review), or just started (pending). */
  complete?: boolean;
  /** Bytes of the passport image (and of a face image, when given) put in the KYC bucket. */
  image?: Uint8Array;
  face?: Uint8Array;
}

/** A 1x1 PNG: the smallest real image, for the presigned-download check. */
export const TINY_PNG = Uint8Array.from(
  Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
    "base64",
  ),
);

/** The fields a start gives (kyc/start.ts pendingSubmissionFields), with the priority a test asks for. */
function startFields(options: SeedOptions): NewSubmission {
  const fields = pendingSubmissionFields(
    options.userId,
    {
      country: options.country ?? "IN",
      name: options.name ?? "Asha Rao",
      email: options.email ?? `${options.userId}@example.com`,
      phone: "+919876543210",
      amount: options.amount ?? 50_000,
    },
    { ip: null },
    options.location,
  );
  return { ...fields, priority: options.priority ?? fields.priority };
}

export async function seedSubmission(core: CoreContext, options: SeedOptions): Promise<KycSubmission> {
  const applicant = { id: options.userId, name: options.name ?? "Asha Rao", role: "applicant" } as const;
  const started = await createSubmission(core, startFields(options), {
    actor: applicant,
    action: "started",
    from: null,
    to: "pending",
    note: null,
    event: { type: "verificationStarted", data: { verificationId: "seed", country: options.country ?? "IN" } },
  });
  if (!options.complete) return started;
  const objectKey = `users/${options.userId}/${started.id}/passport.png`;
  const faceKey = options.face ? `users/${options.userId}/${started.id}/passport-face.png` : null;
  const s3 = await core.storage.client();
  await s3.send(
    new PutObjectCommand({
      Bucket: core.storage.kycBucket,
      Key: objectKey,
      Body: options.image ?? TINY_PNG,
      ContentType: "image/png",
    }),
  );
  if (faceKey && options.face) {
    await s3.send(
      new PutObjectCommand({
        Bucket: core.storage.kycBucket,
        Key: faceKey,
        Body: options.face,
        ContentType: "image/png",
      }),
    );
  }
  return changeSubmission(core, started.id, (current) => {
    const at = core.clock().toISOString();
    const draft: KycSubmission = {
      ...current,
      identity_numbers: {
        // The seeded country's own numbers too, so a complete seed of any country goes to review.
        ...Object.fromEntries(
          identityNumbersFor(current.country).map((type) => [
            type,
            { masked: "XXXXX1234", hash: `${type}-${options.userId}`, verified_at: at },
          ]),
        ),
        aadhaar: { masked: "XXXX XXXX 1234", hash: `aadhaar-${options.userId}`, verified_at: at },
        pan: { masked: "AAAAAXXXXA", hash: `pan-${options.userId}`, verified_at: at },
      },
      documents: {
        passport: {
          type: "passport",
          status: "verified",
          uploaded_at: at,
          verified_at: at,
          object_key: objectKey,
          file_name: "passport.png",
          checks: null,
          face_object_key: faceKey,
          refusal: null,
        },
      },
    };
    return afterApplicantStep(core, draft, [
      { actor: applicant, action: "identity_numbers_verified", from: null, to: null, note: null, event: null },
      {
        actor: applicant,
        action: "document_verified",
        from: null,
        to: null,
        note: null,
        event: { type: "documentVerified", data: { documentType: "passport", status: "VERIFIED", confidence: 1 } },
      },
    ]);
  });
}
