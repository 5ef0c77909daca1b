import { KYC_LIMITS, KYC_MESSAGES } from "@fintech/core/kyc/model";
import {
  formatAadhaarGroups,
  formatPanInput,
  IDENTITY_NUMBER_KINDS,
  isValidAadhaar,
  isValidPan,
  type IdentityNumberType,
} from "@fintech/core/kyc/identity-numbers";

/**
 * The identity-number fields of the wizard (docs/product/kyc.md#identity-number-steps for Aadhaar and PAN) as pure
 * functions: what the field shows, how a keystroke or a paste changes the number behind it, and
 * the hint under it. The validity rules themselves are the server's (core's identity-number
 * checks), so the wizard accepts exactly what the server would.
 */

/** What a hidden digit looks like in the masked Aadhaar field. */
export const MASK_CHAR = "•";

/** The field's text: grouped digits, each digit a dot while the number is hidden. */
export function aadhaarDisplay(digits: string, hidden: boolean): string {
  const grouped = formatAadhaarGroups(digits);
  return hidden ? grouped.replace(/\d/g, MASK_CHAR) : grouped;
}

/** How many number characters (not separators) come before `position` in the field's text. */
const charsBefore = (display: string, position: number) => display.slice(0, position).replace(/ /g, "").length;

/** Where the caret goes in the field's text to stand after `count` number characters. */
export function caretAfter(display: string, count: number): number {
  if (count <= 0) return 0;
  let seen = 0;
  for (let index = 0; index < display.length; index++) {
    if (display[index] !== " ") seen++;
    if (seen === count) return index + 1;
  }
  return display.length;
}

export interface FieldEdit {
  /** The field's text before the browser applied the edit. */
  before: string;
  /** The field's text after it (what the input event reports). */
  after: string;
  /** The caret after the edit: the inserted text ends there and what follows it was kept. */
  caret: number;
  /** InputEvent.inputType, when known: a backspace over a separator removes the digit before it. */
  inputType?: string;
}

/**
 * The number after an edit of the field's text. The field shows dots while hidden, so the edit is
 * read as a splice: what follows the caret is the old text's unchanged tail, what precedes the
 * splice is the old text's unchanged head, and the typed or pasted characters in between are kept
 * when they are digits. Deleting one dot therefore removes exactly the digit under it.
 */
export function applyDigitEdit(
  digits: string,
  edit: FieldEdit,
  max: number = KYC_LIMITS.aadhaarDigits,
): { digits: string; caret: number } {
  const { before, after } = edit;
  const caret = Math.max(0, Math.min(edit.caret, after.length));
  const tail = Math.min(after.length - caret, before.length);
  let head = 0;
  const headLimit = Math.min(caret, before.length - tail);
  while (head < headLimit && before[head] === after[head]) head++;
  const removedFrom = charsBefore(before, head);
  let removedTo = charsBefore(before, before.length - tail);
  const inserted = after.slice(head, caret).replace(/\D/g, "");
  let keptHead = removedFrom;
  // Backspace over a separator only: the user meant the digit before it.
  if (
    removedTo === removedFrom &&
    inserted === "" &&
    before.length > after.length &&
    edit.inputType !== "deleteContentForward"
  ) {
    keptHead = Math.max(0, removedFrom - 1);
  }
  if (
    edit.inputType === "deleteContentForward" &&
    removedTo === removedFrom &&
    inserted === "" &&
    before.length > after.length
  ) {
    removedTo = Math.min(digits.length, removedTo + 1);
  }
  const next = (digits.slice(0, keptHead) + inserted + digits.slice(removedTo)).slice(0, max);
  const caretCount = Math.min(next.length, keptHead + inserted.length);
  return { digits: next, caret: caretCount };
}

export interface NumberFieldState {
  /** Full length with no error: the Verify button shows. */
  ready: boolean;
  /**
   * "N digits remaining" / "Valid format" (docs/product/kyc.md#identity-number-steps), or null when
   * an error takes its place.
   */
  hint: string | null;
  error: string | null;
}

const remaining = (count: number, unit: "digit" | "character") => `${count} ${unit}${count === 1 ? "" : "s"} remaining`;

export const VALID_FORMAT = "Valid format";

/**
 * Aadhaar: 12 digits, first 2-9, Verhoeff check digit; the refusal of docs/product/kyc.md#messages
 * when 12 digits fail.
 */
export function aadhaarFieldState(digits: string): NumberFieldState {
  if (digits.length < KYC_LIMITS.aadhaarDigits)
    return { ready: false, hint: remaining(KYC_LIMITS.aadhaarDigits - digits.length, "digit"), error: null };
  if (!isValidAadhaar(digits)) return { ready: false, hint: null, error: KYC_MESSAGES.invalidAadhaar };
  return { ready: true, hint: VALID_FORMAT, error: null };
}

/**
 * PAN: uppercased, no spaces, at most 10 (docs/product/kyc.md#identity-number-steps); core's typing
 * format, so it matches the server's.
 */
export const panOf = formatPanInput;

/**
 * PAN: 5 letters (the 4th a holder type), 4 digits, 1 letter; the refusal of
 * docs/product/kyc.md#messages when 10 characters fail.
 */
export function panFieldState(pan: string): NumberFieldState {
  if (pan.length < KYC_LIMITS.panLength)
    return { ready: false, hint: remaining(KYC_LIMITS.panLength - pan.length, "character"), error: null };
  if (!isValidPan(pan)) return { ready: false, hint: null, error: KYC_MESSAGES.invalidPan };
  return { ready: true, hint: VALID_FORMAT, error: null };
}

/**
 * Every other country's number: typed as printed (letters uppercased, separators kept, at most the
 * type's length), checked by the same function the server uses. Its length varies (a Spanish DNI
 * or NIE, an SSN with or without dashes), so no count is shown: the hint gives the format until
 * the number is valid, and the refusal appears once the applicant asks to verify a malformed one.
 */
export function genericNumberOf(type: IdentityNumberType, raw: string): string {
  return raw
    .toUpperCase()
    .replace(/[^0-9A-Z .+\-/]/g, "")
    .slice(0, IDENTITY_NUMBER_KINDS[type].maxLength);
}

export function genericFieldState(type: IdentityNumberType, value: string, attempted: boolean): NumberFieldState {
  const kind = IDENTITY_NUMBER_KINDS[type];
  if (kind.isValid(value)) return { ready: true, hint: VALID_FORMAT, error: null };
  if (attempted && value.trim() !== "") return { ready: false, hint: null, error: kind.invalidMessage };
  return { ready: false, hint: `Format: ${kind.format}`, error: null };
}
