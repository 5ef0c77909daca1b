import { describe, expect, it } from "vitest";
import { searchCountries } from "./countries";
import {
  COUNTRY_REQUIREMENTS,
  DEFAULT_REQUIREMENTS,
  describeIdentityNumbers,
  meetsRequirements,
  missingRequirementNames,
  missingRequirements,
  requiredIdentityNumbers,
  requirementsFor,
} from "./country-requirements";
import { IDENTITY_NUMBER_KINDS } from "./identity-numbers";
import { DOCUMENT_TYPES } from "./model";

/** What KYC asks for, by country: the data itself and the rules read from it. */

const verified = { status: "verified" };
const recorded = { masked: "XXXX1234" };

describe("country requirements (data)", () => {
  it("has an entry for each of the 30 countries of the built-in list and none for any other", () => {
    const listed = searchCountries()
      .filter((country) => country.listed)
      .map((country) => country.countryCode)
      .sort();
    expect(listed).toHaveLength(30);
    expect(Object.keys(COUNTRY_REQUIREMENTS).sort()).toEqual(listed);
  });

  it("names only known documents and numbers, each at most once, and accepts at least one document everywhere", () => {
    for (const [code, requirements] of Object.entries(COUNTRY_REQUIREMENTS)) {
      expect(requirements.documentTypes.length, code).toBeGreaterThan(0);
      expect(
        requirements.documentTypes.every((type) => (DOCUMENT_TYPES as readonly string[]).includes(type)),
        code,
      ).toBe(true);
      expect(new Set(requirements.documentTypes).size, code).toBe(requirements.documentTypes.length);
      const numbers = requirements.identityNumbers.map((number) => number.type);
      expect(
        numbers.every((type) => IDENTITY_NUMBER_KINDS[type] !== undefined),
        code,
      ).toBe(true);
      expect(new Set(numbers).size, code).toBe(numbers.length);
    }
  });

  it("asks India for Aadhaar and PAN as before, the United States for an optional SSN only, Japan for none", () => {
    expect(requirementsFor("IN").identityNumbers).toEqual([
      { type: "aadhaar", required: true },
      { type: "pan", required: true },
    ]);
    expect(requirementsFor("us").identityNumbers).toEqual([{ type: "us_ssn", required: false }]);
    expect(requiredIdentityNumbers("US")).toEqual([]);
    expect(requirementsFor("JP").identityNumbers).toEqual([]);
    expect(requiredIdentityNumbers("BR")).toEqual(["br_cpf"]);
    expect(requiredIdentityNumbers("ES")).toEqual(["es_dni"]);
  });

  it("keeps the documented document lists: the residence permit everywhere but the nine it names", () => {
    expect(requirementsFor("IN").documentTypes).toEqual(["passport", "idCard", "driverLicense", "residencePermit"]);
    for (const code of ["AF", "DZ", "AR", "AU", "BR", "MX", "NG", "ZA", "GB"])
      expect(requirementsFor(code).documentTypes).toEqual(["passport", "idCard", "driverLicense"]);
  });

  it("gives every other country a passport or a national ID card and no number", () => {
    expect(DEFAULT_REQUIREMENTS).toEqual({ documentTypes: ["passport", "idCard"], identityNumbers: [] });
    for (const code of ["KE", "ke", "NZ", "XX", "", "constructor", "__proto__"])
      expect(requirementsFor(code)).toBe(DEFAULT_REQUIREMENTS);
  });

  it("describes a country's numbers for the wizard: type, label, required, format", () => {
    expect(describeIdentityNumbers("US")).toEqual([
      { type: "us_ssn", label: "Social Security number (SSN)", required: false, format: "123-45-6789" },
    ]);
    expect(describeIdentityNumbers("IN").map((number) => number.label)).toEqual(["Aadhaar number", "PAN"]);
    expect(describeIdentityNumbers("KE")).toEqual([]);
  });
});

describe("what is missing", () => {
  it("is a document and the country's required numbers, never an optional one", () => {
    expect(missingRequirements({ country: "IN", documents: {}, identity_numbers: {} })).toEqual({
      document: true,
      numbers: ["aadhaar", "pan"],
    });
    expect(
      missingRequirements({
        country: "IN",
        documents: { passport: verified },
        identity_numbers: { aadhaar: recorded },
      }),
    ).toEqual({ document: false, numbers: ["pan"] });
    expect(
      missingRequirements({ country: "US", documents: { idCard: { status: "checking" } }, identity_numbers: {} }),
    ).toEqual({ document: true, numbers: [] });
    expect(meetsRequirements({ country: "US", documents: { driverLicense: verified }, identity_numbers: {} })).toBe(
      true,
    );
    expect(meetsRequirements({ country: "IN", documents: { passport: verified }, identity_numbers: {} })).toBe(false);
    // A number another country asks for does not stand in for this country's own.
    expect(
      meetsRequirements({ country: "BR", documents: { passport: verified }, identity_numbers: { us_ssn: recorded } }),
    ).toBe(false);
  });

  it("is named in words, numbers first, for refusals", () => {
    expect(missingRequirementNames({ country: "IN", documents: {}, identity_numbers: {} })).toEqual([
      "Aadhaar verification",
      "PAN verification",
      "a verified identity document",
    ]);
    expect(missingRequirementNames({ country: "DE", documents: { passport: verified }, identity_numbers: {} })).toEqual(
      ["Steuer-ID verification"],
    );
    expect(missingRequirementNames({ country: "US", documents: { passport: verified }, identity_numbers: {} })).toEqual(
      [],
    );
  });
});
