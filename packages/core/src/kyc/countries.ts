import english from "i18n-iso-countries/langs/en.json";
import { requirementsFor } from "./country-requirements";
import type { DocumentType } from "./model";

/**
 * The countries KYC supports. The 30 of docs/product/kyc.md#countries-and-documents, then every
 * other ISO 3166-1 country (from i18n-iso-countries), which makes the "220+ countries" claim true.
 * Names of the 30 are the ones that page gives; the rest are the package's English names. What each
 * accepts is country-requirements.ts.
 *
 * Only the package's English data file is imported, statically: its entry point registers every
 * language with a computed `require("./langs/" + locale + ".json")`, which a bundle cannot serve
 * (a bundled function would fail at import), and English is all KYC shows.
 */
const ENGLISH_NAMES: Readonly<Record<string, string | readonly string[]>> = english.countries;

/** The package's official English name of a code: the first of its names where it lists several. */
const englishName = (code: string): string => {
  const names = ENGLISH_NAMES[code];
  return (typeof names === "string" ? names : names?.[0]) ?? code;
};

/** The 30 countries of docs/product/kyc.md#countries-and-documents, in its order, by ISO alpha-2 code. */
const LISTED: readonly (readonly [code: string, name: string])[] = [
  ["AF", "Afghanistan"],
  ["AL", "Albania"],
  ["DZ", "Algeria"],
  ["AR", "Argentina"],
  ["AU", "Australia"],
  ["AT", "Austria"],
  ["BE", "Belgium"],
  ["BR", "Brazil"],
  ["CA", "Canada"],
  ["CN", "China"],
  ["FR", "France"],
  ["DE", "Germany"],
  ["IN", "India"],
  ["IT", "Italy"],
  ["JP", "Japan"],
  ["MX", "Mexico"],
  ["NL", "Netherlands"],
  ["NG", "Nigeria"],
  ["PL", "Poland"],
  ["PT", "Portugal"],
  ["RU", "Russia"],
  ["ZA", "South Africa"],
  ["ES", "Spain"],
  ["SE", "Sweden"],
  ["CH", "Switzerland"],
  ["TR", "Turkey"],
  ["UA", "Ukraine"],
  ["AE", "United Arab Emirates"],
  ["GB", "United Kingdom"],
  ["US", "United States of America"],
];

/** The popular countries of docs/product/kyc.md#country-step. */
export const POPULAR_COUNTRIES = ["US", "GB", "DE", "FR", "IT", "ES", "CA", "AU", "IN", "BR"] as const;

export interface KycCountry {
  country: string;
  countryCode: string;
  flag: string;
  /**
   * Supported document types (docs/product/kyc.md#countries-and-documents), each with a numeric
   * marker (1 = supported).
   */
  supportedDocuments: Partial<Record<DocumentType, 1>>;
  documentTypes: DocumentType[];
  popular: boolean;
  /** One of the 30 of the built-in list; the others take the default requirements. */
  listed: boolean;
}

/** The flag emoji of an ISO alpha-2 code (two regional-indicator symbols). */
export const flagOf = (code: string) =>
  String.fromCodePoint(...[...code.toUpperCase()].map((letter) => 0x1f1e6 + letter.charCodeAt(0) - 65));

function entry(code: string, name: string, listed: boolean): KycCountry {
  const documentTypes = [...requirementsFor(code).documentTypes];
  return {
    country: name,
    countryCode: code,
    flag: flagOf(code),
    supportedDocuments: Object.fromEntries(documentTypes.map((type) => [type, 1 as const])),
    documentTypes,
    popular: (POPULAR_COUNTRIES as readonly string[]).includes(code),
    listed,
  };
}

const listedCodes = new Set(LISTED.map(([code]) => code));
const ALL: readonly KycCountry[] = [
  ...LISTED.map(([code, name]) => entry(code, name, true)),
  ...Object.keys(ENGLISH_NAMES)
    .filter((code) => !listedCodes.has(code))
    .map((code) => entry(code, englishName(code), false))
    .sort((a, b) => a.country.localeCompare(b.country)),
];
const BY_CODE = new Map(ALL.map((country) => [country.countryCode, country]));

/** Case-insensitive substring match on name or code; an empty search returns all (docs/product/kyc.md#country-step). */
export function searchCountries(search = ""): KycCountry[] {
  const needle = search.trim().toLowerCase();
  if (!needle) return [...ALL];
  return ALL.filter(
    (country) => country.country.toLowerCase().includes(needle) || country.countryCode.toLowerCase().includes(needle),
  );
}

export function findCountry(code: string): KycCountry | undefined {
  return BY_CODE.get(code.toUpperCase());
}

/** The document types a country accepts; none for an unknown code. */
export function countryDocumentTypes(code: string): DocumentType[] {
  return findCountry(code)?.documentTypes ?? [];
}
