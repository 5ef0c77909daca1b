import type { IdentityNumberType } from "./model";

/**
 * Indian identity numbers (research notes §2.4): Aadhaar (12 digits, Verhoeff check digit) and PAN
 * (AAAAA9999A). Browser-safe, no node imports: the wizard checks as the applicant types with the
 * very functions the server checks with, so the two never disagree about what is valid.
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

/* ---------- normalising, validating, showing ---------- */

/** As the applicant may type it: spaces removed; a PAN also uppercased. */
export function normaliseIdentityNumber(type: IdentityNumberType, raw: string): string {
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
  const number = normaliseIdentityNumber("aadhaar", raw);
  return AADHAAR.test(number) && isVerhoeffValid(number) && number !== [...number].reverse().join("");
}

/** AAAAA9999A with a valid holder type; the serial 0000 is never issued (python-stdnum rejects it). */
export function isValidPan(raw: string): boolean {
  const number = normaliseIdentityNumber("pan", raw);
  return PAN.test(number) && number.slice(5, 9) !== "0000";
}

export function isValidIdentityNumber(type: IdentityNumberType, raw: string): boolean {
  return type === "aadhaar" ? isValidAadhaar(raw) : isValidPan(raw);
}

/** What the Aadhaar field shows while typing (spec 001 §5): digits only, at most 12, in groups of 4. */
export function formatAadhaarGroups(raw: string): string {
  return raw
    .replace(/\D/g, "")
    .slice(0, 12)
    .replace(/(\d{4})(?=\d)/g, "$1 ");
}

/** What the PAN field shows while typing (spec 001 §5): no spaces, uppercased, at most 10 characters. */
export function formatPanInput(raw: string): string {
  return normaliseIdentityNumber("pan", raw).slice(0, 10);
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
