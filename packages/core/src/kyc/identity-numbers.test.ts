import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  formatAadhaarGroups,
  formatPanInput,
  isValidAadhaar,
  isValidIdentityNumber,
  isValidPan,
  isVerhoeffValid,
  maskIdentityNumber,
  normaliseIdentityNumber,
  verhoeffCheckDigit,
} from "./identity-numbers";

/** Aadhaar and PAN rules (research notes §2.4), with the published Verhoeff vectors. */

describe("Verhoeff", () => {
  it("matches the published vectors", () => {
    expect(verhoeffCheckDigit("236")).toBe("3");
    expect(verhoeffCheckDigit("12345")).toBe("1");
    expect(verhoeffCheckDigit("23412341234")).toBe("6");
    expect(verhoeffCheckDigit("49685824515")).toBe("2");
    expect(verhoeffCheckDigit("75872")).toBe("2"); // Wikipedia's worked example
    for (const valid of ["2363", "123451", "234123412346", "496858245152", "758722"]) expect(isVerhoeffValid(valid)).toBe(true);
    for (const invalid of ["2364", "234123412347", "496858245153", "758723", "", "12a4"]) expect(isVerhoeffValid(invalid)).toBe(false);
  });

  it("refuses a payload that is not digits", () => {
    expect(() => verhoeffCheckDigit("12x")).toThrow();
  });

  const payload = fc.stringMatching(/^\d{1,20}$/);
  const withCheckDigit = payload.map((digits) => digits + verhoeffCheckDigit(digits));

  it("a payload with its computed check digit is always valid", () => {
    fc.assert(fc.property(withCheckDigit, (number) => isVerhoeffValid(number)));
  });

  it("detects every single-digit error", () => {
    fc.assert(
      fc.property(withCheckDigit, fc.nat(), fc.integer({ min: 1, max: 9 }), (number, where, delta) => {
        const at = where % number.length;
        const changed = number.slice(0, at) + String((Number(number[at]) + delta) % 10) + number.slice(at + 1);
        return !isVerhoeffValid(changed);
      }),
      { numRuns: 2_000 },
    );
  });

  it("detects every transposition of two different adjacent digits", () => {
    fc.assert(
      fc.property(
        withCheckDigit.filter((number) => number.length >= 2),
        fc.nat(),
        (number, where) => {
          const at = where % (number.length - 1);
          fc.pre(number[at] !== number[at + 1]);
          const swapped = number.slice(0, at) + number[at + 1] + number[at] + number.slice(at + 2);
          return !isVerhoeffValid(swapped);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("detects every single-digit error and adjacent transposition of a 12-digit number, exhaustively", () => {
    const number = "234123412346";
    for (let at = 0; at < number.length; at++) {
      for (let digit = 0; digit <= 9; digit++) {
        if (String(digit) === number[at]) continue;
        expect(isVerhoeffValid(number.slice(0, at) + digit + number.slice(at + 1))).toBe(false);
      }
      if (at < number.length - 1 && number[at] !== number[at + 1]) {
        expect(isVerhoeffValid(number.slice(0, at) + number[at + 1] + number[at] + number.slice(at + 2))).toBe(false);
      }
    }
  });
});

describe("Aadhaar", () => {
  it("accepts 12 digits starting 2-9 with a valid check digit, with or without spaces", () => {
    expect(isValidAadhaar("234123412346")).toBe(true);
    expect(isValidAadhaar("4968 5824 5152")).toBe(true);
    expect(isValidAadhaar(" 2341 2341 2346 ")).toBe(true);
  });

  it("refuses a wrong check digit, a first digit 0 or 1, wrong lengths, letters and palindromes", () => {
    expect(isValidAadhaar("234123412347")).toBe(false);
    const startsWith = (first: string) => `${first}${"3412341234"}` + verhoeffCheckDigit(`${first}3412341234`);
    expect(isVerhoeffValid(startsWith("1"))).toBe(true);
    expect(isValidAadhaar(startsWith("1"))).toBe(false);
    expect(isValidAadhaar(startsWith("0"))).toBe(false);
    expect(isValidAadhaar(startsWith("2"))).toBe(true);
    expect(isValidAadhaar("23412341234")).toBe(false);
    expect(isValidAadhaar("2341234123460")).toBe(false);
    expect(isValidAadhaar("2341-2341-2346")).toBe(false);
    expect(isValidAadhaar("23412341234A")).toBe(false);
    expect(isValidAadhaar("")).toBe(false);
    // Palindromes that pass Verhoeff and start with 2-9: only the palindrome rule refuses them.
    for (const palindrome of ["200009900002", "200019910002"]) {
      expect(isVerhoeffValid(palindrome)).toBe(true);
      expect(isValidAadhaar(palindrome)).toBe(false);
    }
  });

  it("agrees with its definition on random 12-digit strings", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{12}$/), (number) => {
        const expected = /^[2-9]/.test(number) && isVerhoeffValid(number) && number !== [...number].reverse().join("");
        return isValidAadhaar(number) === expected;
      }),
    );
  });

  it("formats in groups of 4 as typed, dropping non-digits and anything past 12", () => {
    expect(formatAadhaarGroups("")).toBe("");
    expect(formatAadhaarGroups("1234")).toBe("1234");
    expect(formatAadhaarGroups("12345")).toBe("1234 5");
    expect(formatAadhaarGroups("2341 2341 2346 99")).toBe("2341 2341 2346");
    expect(formatAadhaarGroups("ab23-41")).toBe("2341");
  });

  it("masks all but the last four, keeping the groups", () => {
    expect(maskIdentityNumber("aadhaar", "2341 2341 2346")).toBe("XXXX XXXX 2346");
    expect(maskIdentityNumber("aadhaar", "496858245152")).toBe("XXXX XXXX 5152");
  });
});

describe("PAN", () => {
  it("accepts AAAAA9999A with an official holder type, uppercasing and removing spaces", () => {
    for (const pan of ["ABCPE1234F", "AAAPL1234C", "abcpe1234f", "ABC PE 1234 F", "ZZZTZ9999Z"]) expect(isValidPan(pan)).toBe(true);
    for (const holder of "ABCFGHJLPT") expect(isValidPan(`ABC${holder}E1234F`)).toBe(true);
  });

  it("refuses other holder types, wrong shapes and the serial 0000", () => {
    // The spec's own example has D in the 4th place, which is no holder type.
    for (const pan of ["ABCDE1234F", "ABCKE1234F", "ABCEE1234F", "ABCPE12345", "ABCPE1234", "ABCPE1234FF", "1BCPE1234F", "ABCPE12A4F", "ABCPE0000F", ""]) {
      expect(isValidPan(pan), pan).toBe(false);
    }
  });

  it("normalises, formats while typing and masks", () => {
    expect(normaliseIdentityNumber("pan", " abcpe 1234f ")).toBe("ABCPE1234F");
    expect(normaliseIdentityNumber("aadhaar", "2341 2341 2346")).toBe("234123412346");
    expect(formatPanInput("abcpe1234fzz")).toBe("ABCPE1234F");
    expect(maskIdentityNumber("pan", "abcpe1234f")).toBe("XXXXXX234F");
    expect(isValidIdentityNumber("pan", "ABCPE1234F")).toBe(true);
    expect(isValidIdentityNumber("aadhaar", "ABCPE1234F")).toBe(false);
  });
});
