import { quoteRails, quoteSavings, type QuoteSavings, type RailCostResult } from "@fintech/core/rails/quotes";
import { simulatorAmountMinor } from "@fintech/core/rails/quote-input";
import type { QuoteCurrency, Rail } from "@fintech/core/rails/model";
import { CURRENCY_HOME_COUNTRY } from "@fintech/core/rails/regions";
import { toDecimalString } from "@fintech/core/money/model";

/**
 * The console's pure logic over the rails the API returned: the cost simulator (core's formula,
 * the one POST /api/v1/rails/quote runs) and the summary tiles. No figure here is invented: what
 * needs payments is absent (null) until payments exist.
 */

export const SIMULATOR_DEFAULTS = {
  amount: "1000",
  currency: "USD" as QuoteCurrency,
  payoutCurrency: "USD" as QuoteCurrency,
  country: "US",
};

/** Destinations the simulator offers: every currency's home country and a few more. */
export const SIMULATOR_COUNTRIES = [
  ...new Set([...Object.values(CURRENCY_HOME_COUNTRY), "FR", "CH", "BR", "NG", "SG"]),
];

export interface Simulation {
  /** The amount simulated, in minor units of the currency: floored at 0, invalid input is 0. */
  amountMinor: number;
  /** The same amount as the decimal string the quote API takes ("1000.00"). */
  amount: string;
  currency: QuoteCurrency;
  /** One result per ACTIVE rail, in the rails' order; empty when the amount is 0. */
  results: RailCostResult[];
  best: RailCostResult | null;
  payoutCurrency: QuoteCurrency;
  country: string;
  /** The Best Option against the first eligible rail (never negative); null without an eligible rail. */
  savings: QuoteSavings | null;
}

/**
 * docs/product/payment-rails.md#cost-simulator: only active rails compared, costs only when the
 * amount is above 0, the cheapest ELIGIBLE rail is the Best Option.
 */
export function simulate(
  rails: readonly Rail[],
  amountText: string,
  currency: QuoteCurrency,
  payoutCurrency: QuoteCurrency = currency,
  country: string = CURRENCY_HOME_COUNTRY[payoutCurrency],
): Simulation {
  const amountMinor = simulatorAmountMinor(amountText, currency);
  const results = quoteRails(rails, amountMinor, currency, { payoutCurrency, country });
  return {
    amountMinor,
    amount: toDecimalString(amountMinor, currency),
    currency,
    results,
    best: results.find((result) => result.isOptimal) ?? null,
    payoutCurrency,
    country,
    savings: quoteSavings(results),
  };
}

export interface RailSummary {
  total: number;
  active: number;
  maintenance: number;
  down: number;
  /** Mean success rate (percent) over all rails; null when there are none. */
  averageSuccessRate: number | null;
  /** Mean success rate over the active rails only; null when none is active. */
  activeSuccessRate: number | null;
  /**
   * Whether any rail's traffic figures are still the sample figures of
   * docs/product/payment-rails.md#sample-rails (not from payments).
   */
  sampleFigures: boolean;
}

const mean = (values: readonly number[]): number | null =>
  values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;

export function summarise(rails: readonly Rail[]): RailSummary {
  const active = rails.filter((rail) => rail.status === "active");
  return {
    total: rails.length,
    active: active.length,
    maintenance: rails.filter((rail) => rail.status === "maintenance").length,
    down: rails.filter((rail) => rail.status === "down").length,
    averageSuccessRate: mean(rails.map((rail) => rail.successRate)),
    activeSuccessRate: mean(active.map((rail) => rail.successRate)),
    sampleFigures: rails.some((rail) => rail.metricsSource === "sample"),
  };
}

/** The card's toggle: Stop when the rail is active, Start otherwise (docs/product/payment-rails.md#rail-cards). */
export function toggleAction(rail: Pick<Rail, "status">): "start" | "stop" {
  return rail.status === "active" ? "stop" : "start";
}

/** Replaces one rail in the list (after a start, stop or save), keeping the order. */
export function replaceRail(rails: readonly Rail[], changed: Rail): Rail[] {
  return rails.map((rail) => (rail.id === changed.id ? changed : rail));
}
