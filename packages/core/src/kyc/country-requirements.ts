import { IDENTITY_NUMBER_KINDS, type IdentityNumberType } from "./identity-numbers";
import type { DocumentType, KycSubmission } from "./model";

/**
 * What KYC asks of an applicant, by country: the identity documents it accepts and the identity
 * numbers it asks for, each required or optional. This is data: a country's entry changes here
 * and nowhere else, and the server's checks, the state's next steps and the wizard's steps all
 * read it. Browser-safe: the wizard imports it.
 *
 * A required number must be verified before the submission goes to a reviewer; an optional one
 * is offered (its step can be skipped) and, when given, is checked, masked, hashed and matched
 * against other users exactly like a required one.
 *
 * The 30 countries of the built-in list (docs/product/kyc.md#countries-and-documents) have entries;
 * every other country gets DEFAULT_REQUIREMENTS. Where a country has no published number format we
 * can check, or where collecting the number is restricted by law (Japan's My Number), it asks for
 * none.
 */

export interface IdentityNumberRequirement {
  type: IdentityNumberType;
  required: boolean;
}

export interface CountryRequirements {
  /** The documents accepted, in the order to offer them; any one that passes its checks will do. */
  documentTypes: readonly DocumentType[];
  /** The numbers asked for, in the order the wizard asks. */
  identityNumbers: readonly IdentityNumberRequirement[];
}

const ALL_DOCUMENTS: readonly DocumentType[] = ["passport", "idCard", "driverLicense", "residencePermit"];
/** Nine of the 30 take no residence permit (docs/product/kyc.md#countries-and-documents). */
const NO_RESIDENCE_PERMIT: readonly DocumentType[] = ["passport", "idCard", "driverLicense"];

const required = (type: IdentityNumberType): IdentityNumberRequirement => ({ type, required: true });
const optional = (type: IdentityNumberType): IdentityNumberRequirement => ({ type, required: false });

/** By ISO 3166-1 alpha-2 code. */
export const COUNTRY_REQUIREMENTS: Readonly<Record<string, CountryRequirements>> = {
  AF: { documentTypes: NO_RESIDENCE_PERMIT, identityNumbers: [] },
  AL: { documentTypes: ALL_DOCUMENTS, identityNumbers: [] },
  DZ: { documentTypes: NO_RESIDENCE_PERMIT, identityNumbers: [] },
  AR: { documentTypes: NO_RESIDENCE_PERMIT, identityNumbers: [required("ar_cuil")] },
  AU: { documentTypes: NO_RESIDENCE_PERMIT, identityNumbers: [optional("au_tfn")] },
  AT: { documentTypes: ALL_DOCUMENTS, identityNumbers: [optional("at_tin")] },
  BE: { documentTypes: ALL_DOCUMENTS, identityNumbers: [required("be_nn")] },
  BR: { documentTypes: NO_RESIDENCE_PERMIT, identityNumbers: [required("br_cpf")] },
  CA: { documentTypes: ALL_DOCUMENTS, identityNumbers: [optional("ca_sin")] },
  CN: { documentTypes: ALL_DOCUMENTS, identityNumbers: [required("cn_ric")] },
  FR: { documentTypes: ALL_DOCUMENTS, identityNumbers: [optional("fr_nif")] },
  DE: { documentTypes: ALL_DOCUMENTS, identityNumbers: [required("de_idnr")] },
  IN: { documentTypes: ALL_DOCUMENTS, identityNumbers: [required("aadhaar"), required("pan")] },
  IT: { documentTypes: ALL_DOCUMENTS, identityNumbers: [required("it_cf")] },
  JP: { documentTypes: ALL_DOCUMENTS, identityNumbers: [] },
  MX: { documentTypes: NO_RESIDENCE_PERMIT, identityNumbers: [required("mx_curp")] },
  NL: { documentTypes: ALL_DOCUMENTS, identityNumbers: [required("nl_bsn")] },
  NG: { documentTypes: NO_RESIDENCE_PERMIT, identityNumbers: [optional("ng_nin")] },
  PL: { documentTypes: ALL_DOCUMENTS, identityNumbers: [required("pl_pesel")] },
  PT: { documentTypes: ALL_DOCUMENTS, identityNumbers: [required("pt_nif")] },
  RU: { documentTypes: ALL_DOCUMENTS, identityNumbers: [optional("ru_inn")] },
  ZA: { documentTypes: NO_RESIDENCE_PERMIT, identityNumbers: [required("za_id")] },
  ES: { documentTypes: ALL_DOCUMENTS, identityNumbers: [required("es_dni")] },
  SE: { documentTypes: ALL_DOCUMENTS, identityNumbers: [required("se_personnummer")] },
  CH: { documentTypes: ALL_DOCUMENTS, identityNumbers: [optional("ch_ahv")] },
  TR: { documentTypes: ALL_DOCUMENTS, identityNumbers: [required("tr_tckimlik")] },
  UA: { documentTypes: ALL_DOCUMENTS, identityNumbers: [optional("ua_rntrc")] },
  AE: { documentTypes: ALL_DOCUMENTS, identityNumbers: [optional("ae_eid")] },
  GB: { documentTypes: NO_RESIDENCE_PERMIT, identityNumbers: [optional("gb_nino")] },
  US: { documentTypes: ALL_DOCUMENTS, identityNumbers: [optional("us_ssn")] },
};

/** Every other country: a passport or a national ID card, and no number. */
export const DEFAULT_REQUIREMENTS: CountryRequirements = { documentTypes: ["passport", "idCard"], identityNumbers: [] };

export function requirementsFor(countryCode: string): CountryRequirements {
  const code = countryCode.toUpperCase();
  return Object.hasOwn(COUNTRY_REQUIREMENTS, code) ? COUNTRY_REQUIREMENTS[code]! : DEFAULT_REQUIREMENTS;
}

/** The numbers a country asks for (required or optional). */
export const identityNumbersFor = (countryCode: string): IdentityNumberType[] =>
  requirementsFor(countryCode).identityNumbers.map((number) => number.type);

/** The numbers that must be verified before review. */
export const requiredIdentityNumbers = (countryCode: string): IdentityNumberType[] =>
  requirementsFor(countryCode)
    .identityNumbers.filter((number) => number.required)
    .map((number) => number.type);

/** Whether the country asks for this number at all. */
export const asksForNumber = (countryCode: string, type: IdentityNumberType): boolean =>
  identityNumbersFor(countryCode).includes(type);

/** The numbers a country asks for, as the countries list and the KYC state describe them. */
export function describeIdentityNumbers(
  countryCode: string,
): { type: IdentityNumberType; label: string; required: boolean; format: string }[] {
  return requirementsFor(countryCode).identityNumbers.map(({ type, required: isRequired }) => ({
    type,
    label: IDENTITY_NUMBER_KINDS[type].label,
    required: isRequired,
    format: IDENTITY_NUMBER_KINDS[type].format,
  }));
}

type SubmissionFacts = {
  country: string;
  documents: Partial<Record<DocumentType, { status: string } | undefined>>;
  identity_numbers: Partial<Record<IdentityNumberType, unknown>>;
};

export interface MissingRequirements {
  /** No document has passed its checks yet. */
  document: boolean;
  /** Required numbers not verified yet, in the country's order. */
  numbers: IdentityNumberType[];
}

/** What the applicant still has to do before review, by the country's requirements. */
export function missingRequirements(submission: SubmissionFacts): MissingRequirements {
  return {
    document: !Object.values(submission.documents).some((document) => document?.status === "verified"),
    numbers: requiredIdentityNumbers(submission.country).filter(
      (type) => submission.identity_numbers[type] === undefined,
    ),
  };
}

/** Every requirement met: the submission can go to a reviewer. */
export function meetsRequirements(submission: SubmissionFacts): boolean {
  const missing = missingRequirements(submission);
  return !missing.document && missing.numbers.length === 0;
}

/**
 * The missing requirements in words ("Aadhaar verification", "a verified identity document"), for
 * refusals that name them.
 */
export function missingRequirementNames(submission: SubmissionFacts): string[] {
  const missing = missingRequirements(submission);
  return [
    ...missing.numbers.map((type) => `${IDENTITY_NUMBER_KINDS[type].short} verification`),
    ...(missing.document ? ["a verified identity document"] : []),
  ];
}

/**
 * The applicant has done every step their country asks for (each required number verified, at
 * least one identity document passed its checks): the submission goes to a reviewer.
 */
export function isReadyForReview(
  submission: Pick<KycSubmission, "country" | "documents" | "identity_numbers">,
): boolean {
  return meetsRequirements(submission);
}
