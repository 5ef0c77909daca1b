import { describe, expect, it } from "vitest";
import type { KycCountry } from "../api/kyc";
import { countriesFound, filterCountries, findCountryEntry } from "./countryList";

const entry = (countryCode: string, country: string, popular = false): KycCountry => ({
  country,
  countryCode,
  flag: "",
  documentTypes: ["passport"],
  popular,
  identityNumbers: [],
});
const list = [
  entry("AF", "Afghanistan"),
  entry("DE", "Germany", true),
  entry("IN", "India", true),
  entry("NL", "Netherlands"),
  entry("US", "United States of America", true),
];

describe("country list", () => {
  it("puts the popular countries first in the documented order, the rest as listed", () => {
    expect(filterCountries(list, "").map((item) => item.countryCode)).toEqual(["US", "DE", "IN", "AF", "NL"]);
  });

  it("matches name or code, case-insensitive substring", () => {
    expect(filterCountries(list, "ind").map((item) => item.countryCode)).toEqual(["IN"]);
    expect(filterCountries(list, " nl ").map((item) => item.countryCode)).toEqual(["NL"]);
    expect(filterCountries(list, "an").map((item) => item.countryCode)).toEqual(["DE", "AF", "NL"]);
    expect(filterCountries(list, "zz")).toEqual([]);
  });

  it("counts and finds", () => {
    expect(countriesFound(1)).toBe("1 country");
    expect(countriesFound(3)).toBe("3 countries");
    expect(findCountryEntry(list, "in")?.country).toBe("India");
    expect(findCountryEntry(list, undefined)).toBeUndefined();
  });
});
