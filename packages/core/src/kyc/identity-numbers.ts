import * as arCuit from "stdnum/lib/cjs/ar/cuit.js";
import * as atTin from "stdnum/lib/cjs/at/tin.js";
import * as auTfn from "stdnum/lib/cjs/au/tfn.js";
import * as beNn from "stdnum/lib/cjs/be/nn.js";
import * as brCpf from "stdnum/lib/cjs/br/cpf.js";
import * as caSin from "stdnum/lib/cjs/ca/sin.js";
import * as chSsn from "stdnum/lib/cjs/ch/ssn.js";
import * as cnRic from "stdnum/lib/cjs/cn/ric.js";
import * as deIdnr from "stdnum/lib/cjs/de/idnr.js";
import * as esDni from "stdnum/lib/cjs/es/dni.js";
import * as esNie from "stdnum/lib/cjs/es/nie.js";
import * as frNif from "stdnum/lib/cjs/fr/nif.js";
import * as gbNino from "stdnum/lib/cjs/gb/nino.js";
import * as itCodiceFiscale from "stdnum/lib/cjs/it/codicefiscale.js";
import * as mxCurp from "stdnum/lib/cjs/mx/curp.js";
import * as nlBsn from "stdnum/lib/cjs/nl/bsn.js";
import * as plPesel from "stdnum/lib/cjs/pl/pesel.js";
import * as ptNif from "stdnum/lib/cjs/pt/nif.js";
import * as ruInn from "stdnum/lib/cjs/ru/inn.js";
import * as sePersonnummer from "stdnum/lib/cjs/se/personnummer.js";
import * as trTckimlik from "stdnum/lib/cjs/tr/tckimlik.js";
import * as uaRntrc from "stdnum/lib/cjs/ua/rntrc.js";
import * as usSsn from "stdnum/lib/cjs/us/ssn.js";
import * as zaIdnr from "stdnum/lib/cjs/za/idnr.js";

/**
 * Identity numbers KYC can ask for, each with the check that proves it well formed. Browser-safe,
 * no node imports: the wizard checks as the applicant types with the very functions the server
 * checks with, so the two never disagree about what is valid.
 *
 * India's Aadhaar (12 digits, Verhoeff check digit) and PAN (AAAAA9999A) are checked here
 * (docs/kyc.md#identity-numbers); the other countries' numbers by `stdnum`, the JavaScript port of
 * python-stdnum, one module per number (imported one by one so a bundle carries only these). Which
 * country asks for which number is data: country-requirements.ts.
 *
 * A pass here only proves a number is well formed, not that it was issued or whose it is.
 */

/* ---------- Verhoeff (dihedral group D5) ---------- */

/** Multiplication table of D5. */
const D: readonly (readonly number[])[] = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];

/** Position permutations: row k is the permutation (1 5 8 9 4 2 7 0)(3 6) applied k times. */
const P: readonly (readonly number[])[] = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];

const INV: readonly number[] = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9];

const DIGITS = /^\d+$/;

/** Folds the digits, right to left, through D and P; `shift` 1 leaves room for the check digit. */
function verhoeffFold(digits: string, shift: 0 | 1): number {
  let check = 0;
  for (let i = 0; i < digits.length; i++) {
    const digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    check = D[check]![P[(i + shift) % 8]![digit]!]!;
  }
  return check;
}

/** Whether a string of digits ends with its correct Verhoeff check digit. */
export function isVerhoeffValid(digits: string): boolean {
  return DIGITS.test(digits) && verhoeffFold(digits, 0) === 0;
}

/** The Verhoeff check digit to append to a string of digits, e.g. "236" -> "3". */
export function verhoeffCheckDigit(payload: string): string {
  if (!DIGITS.test(payload)) throw new Error("A Verhoeff payload must be digits only");
  return String(INV[verhoeffFold(payload, 1)]);
}

/* ---------- Aadhaar and PAN: normalising, validating, showing ---------- */

/** As the applicant may type it: spaces removed; a PAN also uppercased. */
function compactIndian(type: "aadhaar" | "pan", raw: string): string {
  const compact = raw.replace(/\s+/g, "");
  return type === "pan" ? compact.toUpperCase() : compact;
}

const AADHAAR = /^[2-9]\d{11}$/;
/**
 * The official holder-type codes in the 4th place (A, B, C, F, G, H, J, L, P, T); the 10th is a
 * check letter whose algorithm is unpublished, so it is not checked.
 */
const PAN = /^[A-Z]{3}[ABCFGHJLPT][A-Z]\d{4}[A-Z]$/;

/**
 * 12 digits once spaces are removed, the first 2-9 (UIDAI never issues 0 or 1 there), a valid
 * Verhoeff check digit, and not a palindrome (UIDAI's numbering scheme excludes them, as
 * python-stdnum does).
 */
export function isValidAadhaar(raw: string): boolean {
  const number = compactIndian("aadhaar", raw);
  return AADHAAR.test(number) && isVerhoeffValid(number) && number !== [...number].reverse().join("");
}

/** AAAAA9999A with a valid holder type; the serial 0000 is never issued (python-stdnum rejects it). */
export function isValidPan(raw: string): boolean {
  const number = compactIndian("pan", raw);
  return PAN.test(number) && number.slice(5, 9) !== "0000";
}

/**
 * What the Aadhaar field shows while typing (docs/product/kyc.md#identity-number-steps): digits
 * only, at most 12, in groups of 4.
 */
export function formatAadhaarGroups(raw: string): string {
  return raw
    .replace(/\D/g, "")
    .slice(0, 12)
    .replace(/(\d{4})(?=\d)/g, "$1 ");
}

/**
 * What the PAN field shows while typing (docs/product/kyc.md#identity-number-steps): no spaces,
 * uppercased, at most 10 characters.
 */
export function formatPanInput(raw: string): string {
  return compactIndian("pan", raw).slice(0, 10);
}

/* ---------- the registry of number types ---------- */

/** The part of a stdnum validator used here. */
interface StdnumValidator {
  validate(value: string): { isValid: boolean; compact?: string };
}

/** How one kind of number is named, checked and shown. */
export interface IdentityNumberKind {
  /** What the field calls it, e.g. "Social Security number (SSN)". */
  label: string;
  /** Its short name in sentences, e.g. "SSN" ("SSN verification"). */
  short: string;
  /** The name in the "{name} verified successfully!" toast (docs/product/kyc.md#messages says AADHAAR and PAN). */
  toastName: string;
  /** How it looks, for the placeholder and the error message (an illustration of the format, not a real number). */
  format: string;
  /** The longest input accepted, separators included. */
  maxLength: number;
  /** What a pass proves, in words for the documentation and the API description. */
  check: string;
  /** The refusal of a malformed number. */
  invalidMessage: string;
  isValid(raw: string): boolean;
  /**
   * The number's own characters only (separators removed, letters uppercased): what is hashed and
   * masked. Only for a valid number.
   */
  normalise(raw: string): string;
}

const SEPARATORS = /[\s./-]+/g;
const compactOf = (raw: string) => raw.replace(SEPARATORS, "").toUpperCase();
const invalidMessage = (label: string, format: string) => `Please enter a valid ${label} (e.g., ${format}).`;

type KindText = Pick<IdentityNumberKind, "label" | "short" | "format" | "maxLength" | "check">;

const described = (text: KindText) => ({
  ...text,
  toastName: text.short,
  invalidMessage: invalidMessage(text.label, text.format),
});

/** A validator's verdict; one that throws on input it does not expect (some do, e.g. on an empty string) refuses it. */
function verdictOf(validator: StdnumValidator, raw: string): { isValid: boolean; compact?: string } {
  try {
    return validator.validate(raw);
  } catch {
    return { isValid: false };
  }
}

/** A number checked by one or more stdnum validators (any of them passing). */
function checkedBy(validators: readonly StdnumValidator[], text: KindText): IdentityNumberKind {
  const passing = (raw: string) =>
    validators.map((validator) => verdictOf(validator, raw)).find((result) => result.isValid);
  return {
    ...described(text),
    isValid: (raw) => raw.length <= text.maxLength && passing(raw) !== undefined,
    normalise: (raw) => compactOf(passing(raw)?.compact ?? raw),
  };
}

/** A number whose issuer publishes a format but no check digit: the format is all that is checked. */
function patterned(pattern: RegExp, text: KindText): IdentityNumberKind {
  return {
    ...described(text),
    isValid: (raw) => raw.length <= text.maxLength && pattern.test(compactOf(raw)),
    normalise: compactOf,
  };
}

/**
 * Every number type, by its id. An id is stored with each verified number and in its duplicate
 * claims, so a type is never removed or renamed here once used: a country stops asking for it in
 * country-requirements.ts instead.
 */
const KINDS = {
  aadhaar: {
    label: "Aadhaar number",
    short: "Aadhaar",
    toastName: "AADHAAR",
    format: "XXXX XXXX XXXX",
    maxLength: 14,
    check: "12 digits, the first 2-9, a valid Verhoeff check digit, not a palindrome",
    invalidMessage: "Please enter a valid 12-digit Aadhaar number.",
    isValid: isValidAadhaar,
    normalise: (raw: string) => compactIndian("aadhaar", raw),
  },
  pan: {
    label: "PAN",
    short: "PAN",
    toastName: "PAN",
    format: "ABCDE1234F",
    maxLength: 10,
    check:
      "AAAAA9999A with an official holder type (A, B, C, F, G, H, J, L, P, T) in the 4th place; the serial 0000 is refused",
    invalidMessage: "Please enter a valid PAN number (e.g., ABCDE1234F).",
    isValid: isValidPan,
    normalise: (raw: string) => compactIndian("pan", raw),
  },
  ar_cuil: checkedBy([arCuit], {
    label: "CUIL or CUIT",
    short: "CUIL",
    format: "20-12345678-6",
    maxLength: 16,
    check: "11 digits with the AFIP check digit",
  }),
  at_tin: checkedBy([atTin], {
    label: "Austrian tax number (Steuernummer)",
    short: "Steuernummer",
    format: "12-345/6789",
    maxLength: 14,
    check: "9 digits: a known tax office and the check digit",
  }),
  au_tfn: checkedBy([auTfn], {
    label: "Tax File Number (TFN)",
    short: "TFN",
    format: "123 456 782",
    maxLength: 12,
    check: "8 or 9 digits with the ATO's weighted check",
  }),
  be_nn: checkedBy([beNn], {
    label: "National Register number",
    short: "National Register number",
    format: "85.07.30-033.28",
    maxLength: 17,
    check: "11 digits: a birth date and the modulo-97 check",
  }),
  br_cpf: checkedBy([brCpf], {
    label: "CPF",
    short: "CPF",
    format: "123.456.789-09",
    maxLength: 14,
    check: "11 digits with both check digits",
  }),
  ca_sin: checkedBy([caSin], {
    label: "Social Insurance Number (SIN)",
    short: "SIN",
    format: "123 456 782",
    maxLength: 11,
    check: "9 digits with the Luhn check",
  }),
  ch_ahv: checkedBy([chSsn], {
    label: "AHV/AVS number",
    short: "AHV number",
    format: "756.1234.5678.97",
    maxLength: 16,
    check: "13 digits starting 756, with the EAN-13 check digit",
  }),
  cn_ric: checkedBy([cnRic], {
    label: "Resident Identity Card number",
    short: "Resident Identity Card number",
    format: "11010519491231002X",
    maxLength: 18,
    check: "18 characters: a region, a birth date and the ISO 7064 check character",
  }),
  de_idnr: checkedBy([deIdnr], {
    label: "tax identification number (Steuer-ID)",
    short: "Steuer-ID",
    format: "12 345 678 903",
    maxLength: 14,
    check: "11 digits, the first not 0, with the ISO 7064 check digit",
  }),
  es_dni: checkedBy([esDni, esNie], {
    label: "DNI or NIE",
    short: "DNI/NIE",
    format: "12345678Z",
    maxLength: 11,
    check: "a DNI (8 digits and its check letter) or an NIE (X, Y or Z, 7 digits and the check letter)",
  }),
  fr_nif: checkedBy([frNif], {
    label: "French tax number (numéro fiscal)",
    short: "Numéro fiscal",
    format: "30 23 217 600 053",
    maxLength: 17,
    check: "13 digits, the first 0-3, with the modulo-511 check",
  }),
  gb_nino: checkedBy([gbNino], {
    label: "National Insurance number",
    short: "National Insurance number",
    format: "QQ 12 34 56 C",
    maxLength: 13,
    check: "2 letters of an allocated prefix, 6 digits and a suffix A-D",
  }),
  it_cf: checkedBy([itCodiceFiscale], {
    label: "codice fiscale",
    short: "Codice fiscale",
    format: "RSSMRA85T10A562S",
    maxLength: 16,
    check: "16 characters: name letters, birth date and place, and the check letter",
  }),
  mx_curp: checkedBy([mxCurp], {
    label: "CURP",
    short: "CURP",
    format: "GARC850101HDFRRL09",
    maxLength: 18,
    check: "18 characters: name letters, birth date, sex, state and the check digit",
  }),
  nl_bsn: checkedBy([nlBsn], {
    label: "citizen service number (BSN)",
    short: "BSN",
    format: "111222333",
    maxLength: 11,
    check: "9 digits passing the 11-check",
  }),
  pl_pesel: checkedBy([plPesel], {
    label: "PESEL",
    short: "PESEL",
    format: "44051401359",
    maxLength: 11,
    check: "11 digits: a birth date and the check digit",
  }),
  pt_nif: checkedBy([ptNif], {
    label: "tax number (NIF)",
    short: "NIF",
    format: "123 456 789",
    maxLength: 11,
    check: "9 digits with the modulo-11 check digit",
  }),
  ru_inn: checkedBy([ruInn], {
    label: "taxpayer number (INN)",
    short: "INN",
    format: "123456789047",
    maxLength: 12,
    check: "10 or 12 digits with their check digits",
  }),
  se_personnummer: checkedBy([sePersonnummer], {
    label: "personal identity number (personnummer)",
    short: "Personnummer",
    format: "YYMMDD-NNNN",
    maxLength: 13,
    check: "a birth date, a serial and the Luhn check digit",
  }),
  tr_tckimlik: checkedBy([trTckimlik], {
    label: "T.C. Kimlik No.",
    short: "T.C. Kimlik No.",
    format: "17291716060",
    maxLength: 11,
    check: "11 digits, the first not 0, with both check digits",
  }),
  ua_rntrc: checkedBy([uaRntrc], {
    label: "taxpayer number (RNOKPP)",
    short: "RNOKPP",
    format: "1759013776",
    maxLength: 10,
    check: "10 digits with the check digit",
  }),
  us_ssn: checkedBy([usSsn], {
    label: "Social Security number (SSN)",
    short: "SSN",
    format: "123-45-6789",
    maxLength: 11,
    check: "9 digits in a valid area (not 000, 666 or 9xx), group and serial",
  }),
  za_id: checkedBy([zaIdnr], {
    label: "South African ID number",
    short: "ID number",
    format: "7503305044089",
    maxLength: 13,
    check: "13 digits: a birth date and the Luhn check digit",
  }),
  ae_eid: patterned(/^784\d{12}$/, {
    label: "Emirates ID number",
    short: "Emirates ID",
    format: "784-1985-1234567-1",
    maxLength: 18,
    check: "15 digits starting 784 (the published format; no check digit is published)",
  }),
  ng_nin: patterned(/^\d{11}$/, {
    label: "National Identification Number (NIN)",
    short: "NIN",
    format: "12345678901",
    maxLength: 11,
    check: "11 digits (NIMC publishes no check digit)",
  }),
} satisfies Record<string, IdentityNumberKind>;

export type IdentityNumberType = keyof typeof KINDS;
export const IDENTITY_NUMBER_KINDS: Readonly<Record<IdentityNumberType, IdentityNumberKind>> = KINDS;
export const IDENTITY_NUMBER_TYPES = Object.keys(KINDS) as [IdentityNumberType, ...IdentityNumberType[]];

export const isIdentityNumberType = (value: string): value is IdentityNumberType => Object.hasOwn(KINDS, value);

/** As the applicant may type it, reduced to the number's own characters (separators removed, letters uppercased). */
export function normaliseIdentityNumber(type: IdentityNumberType, raw: string): string {
  return IDENTITY_NUMBER_KINDS[type].normalise(raw);
}

export function isValidIdentityNumber(type: IdentityNumberType, raw: string): boolean {
  return IDENTITY_NUMBER_KINDS[type].isValid(raw);
}

const VISIBLE = 4;

/**
 * The only form of a number ever stored or shown again: all but the last four characters as X.
 * Aadhaar keeps its groups of 4 ("XXXX XXXX 1234", MeitY's masking); a PAN is one block ("XXXXXX234F").
 */
export function maskIdentityNumber(type: IdentityNumberType, raw: string): string {
  const number = normaliseIdentityNumber(type, raw);
  const hidden = Math.max(0, number.length - VISIBLE);
  const masked = "X".repeat(hidden) + number.slice(hidden);
  return type === "aadhaar" ? masked.replace(/(.{4})(?=.)/g, "$1 ") : masked;
}
