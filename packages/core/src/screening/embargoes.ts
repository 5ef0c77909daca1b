/**
 * Jurisdictions under a comprehensive embargo: money is never sent there. A payment whose
 * beneficiary (or payee, when the platform knows the payee's country) is in one of these is
 * refused before anything is written (screening/screen.ts).
 *
 * Source: the US Treasury's OFAC "Sanctions Programs and Country Information" page
 * (https://ofac.treasury.gov/sanctions-programs-and-country-information), whose comprehensive
 * programs cover Cuba, Iran, North Korea and the Crimea, so-called Donetsk and Luhansk People's
 * Republic regions of Ukraine; cross-checked against FATF's "call for action" list (North Korea,
 * Iran, Myanmar: https://www.fatf-gafi.org/en/countries/black-and-grey-lists.html). Syria is kept
 * as this platform's risk policy: OFAC revoked its Syria program by Executive Order 14312 (30 June
 * 2025), but EU and UN measures on Syrian persons remain; drop the row if the policy follows OFAC
 * alone. This module is the list: change it here (with the source and date of the change in the
 * commit), nothing else decides which countries are embargoed.
 */

export interface EmbargoedJurisdiction {
  /** ISO 3166-1 alpha-2 for a country, ISO 3166-2 for a region. */
  code: string;
  name: string;
  /** The measure the refusal rests on. */
  basis: string;
}

/** Countries, by ISO 3166-1 alpha-2 code: matched against a beneficiary's or payee's country. */
export const EMBARGOED_COUNTRIES: readonly EmbargoedJurisdiction[] = [
  { code: "CU", name: "Cuba", basis: "OFAC Cuban Assets Control Regulations (31 CFR part 515)" },
  { code: "IR", name: "Iran", basis: "OFAC Iranian Transactions and Sanctions Regulations (31 CFR part 560)" },
  {
    code: "KP",
    name: "North Korea",
    basis: "OFAC North Korea Sanctions Regulations (31 CFR part 510); FATF call for action",
  },
  {
    code: "SY",
    name: "Syria",
    basis: "Platform risk policy (EU and UN measures); OFAC's program was revoked by EO 14312",
  },
];

/**
 * Regions under embargo, by ISO 3166-2 code. A payment names a country only (alpha-2), so these
 * cannot be told apart from the rest of Ukraine yet: they are listed for the day a beneficiary's
 * address carries its subdivision, and so that the list says what it does not cover.
 */
export const EMBARGOED_REGIONS: readonly EmbargoedJurisdiction[] = [
  { code: "UA-43", name: "Crimea", basis: "OFAC, Executive Order 13685" },
  { code: "UA-40", name: "Sevastopol", basis: "OFAC, Executive Order 13685" },
  { code: "UA-14", name: "So-called Donetsk People's Republic (Donetsk oblast)", basis: "OFAC, Executive Order 14065" },
  { code: "UA-09", name: "So-called Luhansk People's Republic (Luhansk oblast)", basis: "OFAC, Executive Order 14065" },
];

const BY_COUNTRY = new Map(EMBARGOED_COUNTRIES.map((entry) => [entry.code, entry]));

/** The embargo on a country (alpha-2, any case), or null when there is none. */
export const embargoOf = (country: string): EmbargoedJurisdiction | null =>
  BY_COUNTRY.get(country.trim().toUpperCase()) ?? null;
