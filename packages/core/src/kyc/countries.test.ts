import countries from "i18n-iso-countries/index.js";
import { describe, expect, it } from "vitest";
import { countryDocumentTypes, findCountry, POPULAR_COUNTRIES, searchCountries } from "./countries";

describe("KYC countries", () => {
  it("lists the 30 popular countries first, then every other ISO 3166-1 country with a passport or a national ID card", () => {
    const all = searchCountries();
    expect(all.length).toBeGreaterThan(220);
    expect(all.slice(0, 30).every((country) => country.listed)).toBe(true);
    expect(
      all.slice(30).every((country) => !country.listed && country.documentTypes.join() === "passport,idCard"),
    ).toBe(true);
    expect(new Set(all.map((country) => country.countryCode)).size).toBe(all.length);
  });

  it("gives the residence permit to listed countries except the nine the docs name", () => {
    expect(countryDocumentTypes("IN")).toEqual(["passport", "idCard", "driverLicense", "residencePermit"]);
    for (const code of ["AF", "DZ", "AR", "AU", "BR", "MX", "NG", "ZA", "GB"]) {
      expect(countryDocumentTypes(code)).toEqual(["passport", "idCard", "driverLicense"]);
    }
    expect(findCountry("us")?.country).toBe("United States of America");
    expect(findCountry("gb")?.flag).toBe("🇬🇧");
    expect(countryDocumentTypes("XX")).toEqual([]);
  });

  it("covers every ISO 3166-1 code of the package, named from its English data (the official name first)", () => {
    const codes = searchCountries()
      .map((country) => country.countryCode)
      .sort();
    expect(codes).toEqual(Object.keys(countries.getAlpha2Codes()).sort());
    // The package lists several English names for some countries: the first is the official one.
    expect(findCountry("CZ")?.country).toBe("Czech Republic");
    expect(findCountry("CI")?.country).toBe("Cote d'Ivoire");
    expect(findCountry("AX")?.country).toBe("Åland Islands");
  });

  it("searches name or code, case-insensitively; empty search returns all", () => {
    expect(searchCountries("  ").length).toBe(searchCountries().length);
    expect(searchCountries("INDIA").map((country) => country.countryCode)).toContain("IN");
    expect(searchCountries("de").map((country) => country.countryCode)).toContain("DE");
    expect(searchCountries("zzzz")).toEqual([]);
    expect(POPULAR_COUNTRIES.every((code) => findCountry(code)?.popular)).toBe(true);
  });
});
