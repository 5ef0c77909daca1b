import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  formatAadhaarGroups,
  formatPanInput,
  IDENTITY_NUMBER_KINDS,
  IDENTITY_NUMBER_TYPES,
  isIdentityNumberType,
  isValidAadhaar,
  isValidIdentityNumber,
  isValidPan,
  isVerhoeffValid,
  maskIdentityNumber,
  normaliseIdentityNumber,
  verhoeffCheckDigit,
} from "./identity-numbers";

/**
 * Aadhaar and PAN rules (docs/kyc.md#identity-numbers), with the published Verhoeff vectors; the
 * other countries' numbers.
 */

describe("Verhoeff", () => {
  it("matches the published vectors", () => {
    expect(verhoeffCheckDigit("236")).toBe("3");
    expect(verhoeffCheckDigit("12345")).toBe("1");
    expect(verhoeffCheckDigit("23412341234")).toBe("6");
    expect(verhoeffCheckDigit("49685824515")).toBe("2");
    expect(verhoeffCheckDigit("75872")).toBe("2"); // Wikipedia's worked example
    for (const valid of ["2363", "123451", "234123412346", "496858245152", "758722"])
      expect(isVerhoeffValid(valid)).toBe(true);
    for (const invalid of ["2364", "234123412347", "496858245153", "758723", "", "12a4"])
      expect(isVerhoeffValid(invalid)).toBe(false);
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
    for (const pan of ["ABCPE1234F", "AAAPL1234C", "abcpe1234f", "ABC PE 1234 F", "ZZZTZ9999Z"])
      expect(isValidPan(pan)).toBe(true);
    for (const holder of "ABCFGHJLPT") expect(isValidPan(`ABC${holder}E1234F`)).toBe(true);
  });

  it("refuses other holder types, wrong shapes and the serial 0000", () => {
    // The example of docs/product/kyc.md#identity-number-steps has D in the 4th place, which is no holder type.
    for (const pan of [
      "ABCDE1234F",
      "ABCKE1234F",
      "ABCEE1234F",
      "ABCPE12345",
      "ABCPE1234",
      "ABCPE1234FF",
      "1BCPE1234F",
      "ABCPE12A4F",
      "ABCPE0000F",
      "",
    ]) {
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

/**
 * One well-formed number per type (python-stdnum's and stdnum-js's own test vectors, as typed with
 * their separators), the number it is stored as, and a malformed one beside it.
 */
const SAMPLES: Record<string, { valid: string; normalised: string; malformed: string }> = {
  aadhaar: { valid: "2341 2341 2346", normalised: "234123412346", malformed: "2341 2341 2347" },
  pan: { valid: "abcpe1234f", normalised: "ABCPE1234F", malformed: "ABCDE1234F" },
  ar_cuil: { valid: "20-05536168-2", normalised: "20055361682", malformed: "20-05536168-3" },
  at_tin: { valid: "59-119/9013", normalised: "591199013", malformed: "59-119/9012" },
  au_tfn: { valid: "123 456 782", normalised: "123456782", malformed: "123 456 781" },
  be_nn: { valid: "85.07.30-033.28", normalised: "85073003328", malformed: "85.07.30-033.29" },
  br_cpf: { valid: "390.533.447-05", normalised: "39053344705", malformed: "231.002.999-00" },
  ca_sin: { valid: "123-456-782", normalised: "123456782", malformed: "123-456-781" },
  ch_ahv: { valid: "756.9217.0769.85", normalised: "7569217076985", malformed: "756.9217.0769.84" },
  cn_ric: { valid: "360426199101010071", normalised: "360426199101010071", malformed: "360426199101010072" },
  de_idnr: { valid: "36 574 261 809", normalised: "36574261809", malformed: "36574261808" },
  es_dni: { valid: "54362315-k", normalised: "54362315K", malformed: "54362315Z" },
  fr_nif: { valid: "30 23 217 600 053", normalised: "3023217600053", malformed: "30 23 217 600 054" },
  gb_nino: { valid: "hh 01 23 45 d", normalised: "HH012345D", malformed: "HH012345E" },
  it_cf: { valid: "RCCMNL83S18D969H", normalised: "RCCMNL83S18D969H", malformed: "RCCMNL83S18D967H" },
  mx_curp: { valid: "BOXW310820HNERXN09", normalised: "BOXW310820HNERXN09", malformed: "BOXW310820HNERXN08" },
  nl_bsn: { valid: "1112.22.333", normalised: "111222333", malformed: "111222334" },
  pl_pesel: { valid: "44051401359", normalised: "44051401359", malformed: "44051401358" },
  pt_nif: { valid: "501 964 843", normalised: "501964843", malformed: "501 964 842" },
  ru_inn: { valid: "123456789047", normalised: "123456789047", malformed: "123456789048" },
  se_personnummer: { valid: "880320-0016", normalised: "8803200016", malformed: "880320-0018" },
  tr_tckimlik: { valid: "17291716060", normalised: "17291716060", malformed: "17291716050" },
  ua_rntrc: { valid: "1759013776", normalised: "1759013776", malformed: "1759013770" },
  us_ssn: { valid: "536-90-4399", normalised: "536904399", malformed: "666-90-4399" },
  za_id: { valid: "7503305044089", normalised: "7503305044089", malformed: "8503305044089" },
  ae_eid: { valid: "784-1985-1234567-1", normalised: "784198512345671", malformed: "785-1985-1234567-1" },
  ng_nin: { valid: "12345678901", normalised: "12345678901", malformed: "1234567890" },
};

describe("every country's number", () => {
  it("has a sample here for every type of the registry", () => {
    expect(Object.keys(SAMPLES).sort()).toEqual([...IDENTITY_NUMBER_TYPES].sort());
  });

  it.each(Object.entries(SAMPLES))(
    "%s: accepts its well-formed sample, stores it compact, masks it to the last four, refuses a malformed one",
    (type, sample) => {
      expect(isIdentityNumberType(type)).toBe(true);
      if (!isIdentityNumberType(type)) return;
      expect(isValidIdentityNumber(type, sample.valid)).toBe(true);
      expect(normaliseIdentityNumber(type, sample.valid)).toBe(sample.normalised);
      expect(maskIdentityNumber(type, sample.valid).replace(/ /g, "")).toBe(
        "X".repeat(sample.normalised.length - 4) + sample.normalised.slice(-4),
      );
      expect(isValidIdentityNumber(type, sample.malformed)).toBe(false);
    },
  );

  it.each(IDENTITY_NUMBER_TYPES)(
    "%s: refuses empty, oversized and non-Latin input without throwing, and names its format in the refusal",
    (type) => {
      const kind = IDENTITY_NUMBER_KINDS[type];
      for (const bad of ["", " ", "x".repeat(64), "€".repeat(12), "١٢٣٤٥٦٧٨٩٠١"])
        expect(isValidIdentityNumber(type, bad), JSON.stringify(bad)).toBe(false);
      expect(kind.invalidMessage).toMatch(/^Please enter a valid /);
      // Aadhaar's and PAN's are the sentences of docs/product/kyc.md#messages; every other one
      // shows the format.
      if (type !== "aadhaar" && type !== "pan") expect(kind.invalidMessage).toContain(kind.format);
    },
  );

  it("keeps the same number under one form whatever separators it was typed with (duplicates are found across forms)", () => {
    expect(normaliseIdentityNumber("br_cpf", "390.533.447-05")).toBe(normaliseIdentityNumber("br_cpf", "39053344705"));
    expect(normaliseIdentityNumber("gb_nino", "hh 01 23 45 d")).toBe(normaliseIdentityNumber("gb_nino", "HH012345D"));
    expect(normaliseIdentityNumber("es_dni", "x-2482300w")).toBe("X2482300W");
  });

  it("knows only its own types", () => {
    for (const unknown of ["", "ssn", "constructor", "__proto__", "toString", "AADHAAR"])
      expect(isIdentityNumberType(unknown)).toBe(false);
  });
});
