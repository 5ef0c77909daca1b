import { describe, expect, it } from "vitest";
import { KYC_MESSAGES } from "@fintech/core/kyc/model";
import {
  aadhaarDisplay,
  aadhaarFieldState,
  applyDigitEdit,
  caretAfter,
  genericFieldState,
  genericNumberOf,
  MASK_CHAR,
  panFieldState,
  panOf,
  VALID_FORMAT,
} from "./identityInput";

/** Types `text` at the caret of a field showing `digits`, as the browser would, and applies it. */
function typeAt(digits: string, hidden: boolean, caret: number, text: string) {
  const before = aadhaarDisplay(digits, hidden);
  const after = before.slice(0, caret) + text + before.slice(caret);
  return applyDigitEdit(digits, { before, after, caret: caret + text.length, inputType: "insertText" });
}

/** Deletes the character before (backspace) or after (delete) the caret. */
function deleteAt(digits: string, hidden: boolean, caret: number, direction: "back" | "forward") {
  const before = aadhaarDisplay(digits, hidden);
  const from = direction === "back" ? caret - 1 : caret;
  const after = before.slice(0, from) + before.slice(from + 1);
  return applyDigitEdit(digits, {
    before,
    after,
    caret: from,
    inputType: direction === "back" ? "deleteContentBackward" : "deleteContentForward",
  });
}

describe("Aadhaar field", () => {
  it("shows groups of 4, as dots while hidden", () => {
    expect(aadhaarDisplay("234123412346", false)).toBe("2341 2341 2346");
    expect(aadhaarDisplay("23412", false)).toBe("2341 2");
    expect(aadhaarDisplay("23412", true)).toBe(`${MASK_CHAR.repeat(4)} ${MASK_CHAR}`);
    expect(aadhaarDisplay("", true)).toBe("");
  });

  it("keeps typed digits, drops everything else and stops at 12", () => {
    expect(typeAt("", true, 0, "2a3-4 1").digits).toBe("2341");
    expect(typeAt("23412341234", true, 13, "67").digits).toBe("234123412346");
    expect(typeAt("234123412346", false, 14, "9").digits).toBe("234123412346");
  });

  it("pastes a formatted number whole", () => {
    expect(typeAt("", true, 0, "2341 2341 2346").digits).toBe("234123412346");
  });

  it("removes exactly the digit under a deleted dot, even among identical dots", () => {
    // Hidden, every digit is the same dot: the caret says which one went.
    expect(deleteAt("123456", true, 2, "back")).toEqual({ digits: "13456", caret: 1 });
    expect(deleteAt("123456", true, 2, "forward")).toEqual({ digits: "12456", caret: 2 });
    expect(typeAt("123456", true, 2, "9")).toEqual({ digits: "1293456", caret: 3 });
  });

  it("backspace over a group separator removes the digit before it; delete removes the one after", () => {
    expect(deleteAt("12345", false, 5, "back")).toEqual({ digits: "1235", caret: 3 });
    expect(deleteAt("12345", false, 4, "forward")).toEqual({ digits: "1234", caret: 4 });
  });

  it("replaces a selection with what is typed", () => {
    const before = aadhaarDisplay("12345678", false); // "1234 5678"
    const after = `${before.slice(0, 2)}9${before.slice(7)}`; // "12" + "9" + "78"
    expect(applyDigitEdit("12345678", { before, after, caret: 3, inputType: "insertText" })).toEqual({
      digits: "12978",
      caret: 3,
    });
  });

  it("puts the caret after the n-th digit, past separators", () => {
    expect(caretAfter("1234 5678", 4)).toBe(4);
    expect(caretAfter("1234 5678", 5)).toBe(6);
    expect(caretAfter("1234 5678", 0)).toBe(0);
    expect(caretAfter("1234", 9)).toBe(4);
  });

  it("hints the digits remaining, then Valid format or the documented error", () => {
    expect(aadhaarFieldState("")).toEqual({ ready: false, hint: "12 digits remaining", error: null });
    expect(aadhaarFieldState("23412341234")).toEqual({ ready: false, hint: "1 digit remaining", error: null });
    expect(aadhaarFieldState("234123412346")).toEqual({ ready: true, hint: VALID_FORMAT, error: null });
    // Wrong check digit, a leading 1, a palindrome: full length but not a number UIDAI issues.
    for (const bad of ["234123412347", "134123412346", "222222222222"]) {
      expect(aadhaarFieldState(bad)).toEqual({ ready: false, hint: null, error: KYC_MESSAGES.invalidAadhaar });
    }
  });
});

describe("PAN field", () => {
  it("uppercases, drops spaces and stops at 10", () => {
    expect(panOf("abcde 1234f")).toBe("ABCDE1234F");
    expect(panOf("ABCPE1234FXYZ")).toBe("ABCPE1234F");
  });

  it("hints the characters remaining, then Valid format or the documented error", () => {
    expect(panFieldState("")).toEqual({ ready: false, hint: "10 characters remaining", error: null });
    expect(panFieldState("ABCPE1234")).toEqual({ ready: false, hint: "1 character remaining", error: null });
    expect(panFieldState("ABCPE1234F")).toEqual({ ready: true, hint: VALID_FORMAT, error: null });
    // The 4th letter must be a holder type; digits where letters go; the serial 0000.
    for (const bad of ["ABCDE1234F", "ABCP11234F", "ABCPE0000F"]) {
      expect(panFieldState(bad)).toEqual({ ready: false, hint: null, error: KYC_MESSAGES.invalidPan });
    }
  });
});

describe("other countries' number fields", () => {
  it("keep what a number is printed with (digits, letters uppercased, separators), up to the type's length", () => {
    expect(genericNumberOf("us_ssn", "536-90-4399!!")).toBe("536-90-4399");
    expect(genericNumberOf("gb_nino", "qq 12 34 56 c")).toBe("QQ 12 34 56 C");
    expect(genericNumberOf("se_personnummer", "880320+0016")).toBe("880320+0016");
    expect(genericNumberOf("us_ssn", "1".repeat(40))).toHaveLength(11);
  });

  it("give the format until the number is valid, and the refusal once the applicant asked to verify a malformed one", () => {
    expect(genericFieldState("us_ssn", "", false)).toEqual({ ready: false, hint: "Format: 123-45-6789", error: null });
    expect(genericFieldState("us_ssn", "536-90", false)).toEqual({
      ready: false,
      hint: "Format: 123-45-6789",
      error: null,
    });
    expect(genericFieldState("us_ssn", "666-90-4399", true)).toEqual({
      ready: false,
      hint: null,
      error: "Please enter a valid Social Security number (SSN) (e.g., 123-45-6789).",
    });
    expect(genericFieldState("us_ssn", "536-90-4399", true)).toEqual({ ready: true, hint: VALID_FORMAT, error: null });
    expect(genericFieldState("br_cpf", "390.533.447-05", false).ready).toBe(true);
    expect(genericFieldState("br_cpf", "390.533.447-06", true).error).toBe(
      "Please enter a valid CPF (e.g., 123.456.789-09).",
    );
  });
});
