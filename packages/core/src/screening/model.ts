import { z } from "zod";

/**
 * Sanctions and embargo screening of the other side of a money movement
 * (docs/trust-and-safety.md#sanctions-and-embargo-screening): who is screened, what was found, and
 * the messages. Safe to import from the browser: zod only.
 *
 * - An embargoed country (screening/embargoes.ts) is a refusal: 422 `embargoed_country`, nothing
 *   written.
 * - A name on a sanctions list (the seeded list, screening/sanctions-seed.ts, plus the `sanctions`
 *   entries of the watchlist administrators upload) is a review case, not a refusal: the payment
 *   keeps its hold and waits as `held_for_review` until an administrator releases or refuses it.
 * - Every screening's decision, clear or not, is stored with the payment (admins read it).
 */

/**
 * Who was screened: an external beneficiary, another user of the platform, or the payer's own
 * account (nothing to screen).
 */
export const SCREENING_SUBJECTS = ["beneficiary", "platform_user", "own_account"] as const;
export const ScreeningSubject = z.enum(SCREENING_SUBJECTS);
export type ScreeningSubject = z.infer<typeof ScreeningSubject>;

export const SCREENING_RESULTS = ["clear", "hit"] as const;

/** The list entry a name matched. */
export const ScreeningMatch = z.object({
  list: z
    .string()
    .describe('The list it is on, e.g. "Seeded sanctions sample (SDN style) 2026-01" or "Uploaded watchlist v3"'),
  entry: z.string().describe("The entry's name as the list writes it"),
  matchedName: z.string().describe("The name or alias of the entry that matched"),
  entryType: z.string().describe("individual, entity, or empty when the list does not say"),
  entryCountry: z.string().describe("The entry's country (ISO alpha-2), empty when the list does not say"),
  score: z.number().min(0).max(1).describe("Jaro-Winkler similarity of the normalised names (1 = the same name)"),
});
export type ScreeningMatch = z.infer<typeof ScreeningMatch>;

/** A screening's outcome, as stored with the payment and shown to administrators. */
export const ScreeningDecision = z.object({
  subject: ScreeningSubject,
  result: z.enum(SCREENING_RESULTS),
  screenedName: z.string().nullable(),
  screenedCountry: z
    .string()
    .nullable()
    .describe("ISO alpha-2; null when unknown (a platform user without KYC) or not screened"),
  match: ScreeningMatch.nullable().describe("The best match when result is hit"),
  lists: z.array(z.string()).describe("Every list consulted"),
  at: z.string(),
});
export type ScreeningDecision = z.infer<typeof ScreeningDecision>;

export const SCREENING_MESSAGES = {
  /** The refusal: what the payer reads. It names the country only when the payer gave it (a beneficiary's). */
  embargoedBeneficiary: (countryName: string) =>
    `Payments to ${countryName} are not allowed: it is under a comprehensive embargo. Nothing was held or paid.`,
  embargoedPayee:
    "Payments to this payee are not allowed: the payee is in an embargoed country. Nothing was held or paid.",
  heldForReview:
    "Held for a compliance review before it is sent. The amount and fee stay held; you will see the outcome here.",
} as const;

/** Names are screened up to this length (the matcher's own bound). */
export const SCREENED_NAME_MAX = 200;
