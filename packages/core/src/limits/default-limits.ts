import type { CurrencyLimits, MoneyLimits, WindowLimits } from "./model";

/**
 * THE SEEDED LIMITS: in force until an administrator saves others (PUT /api/v1/limits/settings),
 * never changed by a deploy once edited. Amounts in minor units, per currency in its own money:
 * the euro and the pound take the dollar's figures, the yen about 150 to the dollar, the rupee
 * about 80.
 *
 * - unverified: deposits up to 1,000 per 24 hours and 5,000 per 30 days; no payments to others;
 * - verified: deposits up to 50,000 per 24 hours and 250,000 per 30 days; payments to others up
 *   to 25,000 per 24 hours and 100,000 per 30 days.
 */

/**
 * `major` in every currency: USD, EUR and GBP as given (cents), JPY at 150 yen per unit, INR at 80
 * rupees (in paise).
 */
const inEveryCurrency = (major: number): CurrencyLimits => ({
  USD: major * 100,
  EUR: major * 100,
  GBP: major * 100,
  JPY: major * 150,
  INR: major * 80 * 100,
});
const perWindow = (day: number, month: number): WindowLimits => ({
  day: inEveryCurrency(day),
  month: inEveryCurrency(month),
});

export const DEFAULT_MONEY_LIMITS: MoneyLimits = {
  unverified: { deposit: perWindow(1_000, 5_000), outgoing: null },
  verified: { deposit: perWindow(50_000, 250_000), outgoing: perWindow(25_000, 100_000) },
};
