import type { Currency } from "../money/model";

/**
 * THE NAMED REGIONS a rail may cover instead of listing countries (ISO 3166-1 alpha-2 codes).
 * Data: when a scheme admits a country, add it here and every rail covering the region carries
 * payments to it. A rail's `countries` holds codes and region names; a region name is never two
 * letters, so the two cannot be confused.
 */
export const REGIONS = {
  /**
   * The SEPA scheme's countries (European Payments Council, list of countries in the SEPA
   * schemes' geographical scope): the EU 27, the EEA's Iceland, Liechtenstein and Norway, and
   * Andorra, Monaco, San Marino, Switzerland, the United Kingdom and Vatican City.
   */
  SEPA: [
    "AT",
    "BE",
    "BG",
    "HR",
    "CY",
    "CZ",
    "DK",
    "EE",
    "FI",
    "FR",
    "DE",
    "GR",
    "HU",
    "IE",
    "IT",
    "LV",
    "LT",
    "LU",
    "MT",
    "NL",
    "PL",
    "PT",
    "RO",
    "SK",
    "SI",
    "ES",
    "SE",
    "IS",
    "LI",
    "NO",
    "AD",
    "MC",
    "SM",
    "CH",
    "GB",
    "VA",
  ],
  /** Every country: a rail with a global network (cards, correspondent banking, public blockchains). */
  WORLDWIDE: [],
} as const satisfies Record<string, readonly string[]>;
export type RegionName = keyof typeof REGIONS;
export const REGION_NAMES = Object.keys(REGIONS) as RegionName[];

export const isRegionName = (value: string): value is RegionName => Object.hasOwn(REGIONS, value);

/** Whether a rail's coverage list (codes and region names) includes `country`. */
export function coversCountry(coverage: readonly string[], country: string): boolean {
  return coverage.some(
    (entry) =>
      entry === country ||
      entry === "WORLDWIDE" ||
      (isRegionName(entry) && (REGIONS[entry] as readonly string[]).includes(country)),
  );
}

/** A coverage list as words: "US", "SEPA (36 countries)", "worldwide". */
export function coverageText(coverage: readonly string[]): string {
  if (coverage.includes("WORLDWIDE")) return "worldwide";
  return coverage
    .map((entry) => (isRegionName(entry) ? `${entry} (${REGIONS[entry].length} countries)` : entry))
    .join(", ");
}

/**
 * Where a payment goes, for the rails' coverage: an external beneficiary's country as given; for
 * a payee on the platform (the payer's own account or another user's), the home country of the
 * payment's currency. Not the payee's KYC country: routing and the quote run before the payee is
 * looked up and their replies must not tell the payer where another user lives.
 */
export const CURRENCY_HOME_COUNTRY: Readonly<Record<Currency, string>> = {
  USD: "US",
  EUR: "DE",
  GBP: "GB",
  JPY: "JP",
  INR: "IN",
};
// The euro has no single home: any euro-area country would do, since every rail that carries euros
// covers the whole euro area, so the choice changes no eligibility.

export function destinationCountry(payment: {
  currency: Currency;
  beneficiary?: { country: string } | undefined;
}): string {
  return payment.beneficiary?.country ?? CURRENCY_HOME_COUNTRY[payment.currency];
}
