import type { KycCountry } from "../api/kyc";

/**
 * The country step's list (docs/product/kyc.md#country-step): a case-insensitive substring match on
 * name or code (an empty search returns all), with the popular countries first, in the order given
 * there.
 */

export const POPULAR_ORDER = ["US", "GB", "DE", "FR", "IT", "ES", "CA", "AU", "IN", "BR"] as const;

const popularRank = (code: string) => {
  const index = (POPULAR_ORDER as readonly string[]).indexOf(code);
  return index === -1 ? POPULAR_ORDER.length : index;
};

export const COUNTRY_SEARCH_MAX = 60;

export function filterCountries(countries: readonly KycCountry[], search: string): KycCountry[] {
  const needle = search.trim().toLowerCase().slice(0, COUNTRY_SEARCH_MAX);
  const matches = needle
    ? countries.filter(
        (entry) => entry.country.toLowerCase().includes(needle) || entry.countryCode.toLowerCase().includes(needle),
      )
    : [...countries];
  // A stable sort: the popular ones first in the documented order, the rest as the server listed them.
  return matches.sort((a, b) => popularRank(a.countryCode) - popularRank(b.countryCode));
}

export const countriesFound = (count: number) => (count === 1 ? "1 country" : `${count} countries`);

export const findCountryEntry = (countries: readonly KycCountry[] | undefined, code: string | undefined) =>
  code ? countries?.find((entry) => entry.countryCode === code.toUpperCase()) : undefined;
