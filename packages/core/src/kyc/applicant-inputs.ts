import { z } from "zod";
import { textFieldError } from "../shared/field-errors";
import { findCountry } from "./countries";
import { KYC_LIMITS } from "./model";

/**
 * What an applicant sends to start KYC and to verify an identity number (docs/product/kyc.md#data), and the
 * fields a KYC profile shares with a start (profiles.ts).
 */

export const countryCode = z
  .string({ error: textFieldError("country") })
  .trim()
  .max(3, "country must be an ISO country code")
  .transform((code) => code.toUpperCase())
  .refine(
    (code) => findCountry(code) !== undefined,
    "country must be a supported ISO country code (see GET /api/v1/kyc/countries)",
  );

export const personName = z
  .string({ error: textFieldError("name") })
  .trim()
  .min(1, "name is required")
  .max(200, "name must be at most 200 characters");
export const emailAddress = z
  .string({ error: textFieldError("email") })
  .trim()
  .max(254, "Please enter a valid email address")
  .pipe(z.email("Please enter a valid email address"))
  .transform((email) => email.toLowerCase());
/** E.164-ish: an optional +, then digits with the usual separators; 6 to 20 characters in all. */
export const phoneNumber = z
  .string({ error: textFieldError("phone") })
  .trim()
  .regex(/^\+?[0-9][0-9 ()-]{4,18}[0-9]$/, "phone must be a phone number of 6 to 20 characters, e.g. +919876543210");
export const kycAmount = z
  .number({ error: `amount must be a whole number from 0 to ${KYC_LIMITS.maxAmount}` })
  .int(`amount must be a whole number from 0 to ${KYC_LIMITS.maxAmount}`)
  .min(0, `amount must be a whole number from 0 to ${KYC_LIMITS.maxAmount}`)
  .max(KYC_LIMITS.maxAmount, `amount must be a whole number from 0 to ${KYC_LIMITS.maxAmount}`);

/** The Start-KYC payload of docs/product/kyc.md#data, plus the amount the stream's startVerification sends. */
export const StartKycInput = z.object({
  country: countryCode,
  name: personName,
  email: emailAddress,
  phone: phoneNumber,
  amount: kycAmount.default(KYC_LIMITS.defaultAmount),
});
export type StartKycInput = z.infer<typeof StartKycInput>;

/** The Verify-document payload of docs/product/kyc.md#data, for every identity number. */
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
