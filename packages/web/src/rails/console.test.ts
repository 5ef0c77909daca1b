import { SEED_RAILS } from "@fintech/core/rails/seed-rails";
import { QuoteInput } from "@fintech/core/rails/quote-input";
import { quoteRails } from "@fintech/core/rails/quotes";
import type { Rail } from "@fintech/core/rails/model";
import { describe, expect, it } from "vitest";
import { replaceRail, simulate, SIMULATOR_DEFAULTS, summarise, toggleAction } from "./console";

/** The seven seeded rails as GET /api/v1/rails returns them. */
const RAILS: Rail[] = SEED_RAILS.map((rail) => ({
  ...rail,
  version: 1,
  updated_at: "2026-01-01T00:00:00.000Z",
  updated_by: "seed",
  lastChange: null,
  lastPing: null,
}));

const totals = (
  rails: readonly Rail[],
  amount: string,
  currency: "USD" | "EUR" | "GBP" | "JPY",
  payout = currency,
  country?: string,
) =>
  Object.fromEntries(
    simulate(rails, amount, currency, payout, country).results.map((result) => [result.name, result.totalCost]),
  );

describe("cost simulator (docs/product/payment-rails.md#cost-simulator), hand-computed", () => {
  it("defaults to 1000 USD", () => {
    expect(SIMULATOR_DEFAULTS).toEqual({ amount: "1000", currency: "USD", payoutCurrency: "USD", country: "US" });
  });

  it("USD 1000 to the US: fixed fee + 0.1 % network fee ($1.00), no FX; SEPA and UPI are cheap but cannot carry USD, so ACH is the Best Option", () => {
    // ACH 0.05 + 1; Wire 1 + 1; Card 0.10 + 1; SWIFT 5 + 1; SEPA EUR 0.02 = USD 0.02 + 1;
    // Crypto 0.20 + 1; UPI INR 0 + 1
    expect(totals(RAILS, "1000", "USD")).toEqual({
      ACH: "1.05",
      Wire: "2.00",
      Card: "1.10",
      SWIFT: "6.00",
      SEPA: "1.02",
      Crypto: "1.20",
      UPI: "1.00",
    });
    const simulation = simulate(RAILS, "1000", "USD");
    expect(simulation.amount).toBe("1000.00");
    expect(simulation.best?.name).toBe("ACH");
    expect(simulation.results.filter((result) => result.isOptimal)).toHaveLength(1);
    expect(simulation.results.find((result) => result.name === "SEPA")).toMatchObject({
      eligible: false,
      ineligibleReason: "SEPA carries EUR only",
      fixedFeeOriginal: { amount: "0.02", currency: "EUR", rate: "1 EUR = 1.0870 USD" },
    });
    expect(simulation.best?.costPercent).toBe(0.105);
    expect(simulation.savings).toEqual({
      baselineRailId: "ach",
      baselineName: "ACH",
      optimalRailId: "ach",
      savingMinor: 0,
    });
  });

  it("EUR 1000 paid out in EUR: no FX at all, fees in euros; SEPA is the Best Option", () => {
    // USD fees at 0.92: ACH 0.05; Wire 0.92; Card 0.09; SWIFT 4.60; Crypto 0.18; SEPA EUR 0.02; UPI 0; + 1.00 network
    expect(totals(RAILS, "1000", "EUR")).toEqual({
      ACH: "1.05",
      Wire: "1.92",
      Card: "1.09",
      SWIFT: "5.60",
      SEPA: "1.02",
      Crypto: "1.18",
      UPI: "1.00",
    });
    const simulation = simulate(RAILS, "1000", "EUR");
    expect(simulation).toMatchObject({ country: "DE", best: { name: "SEPA" } });
    expect(simulation.results.every((result) => result.breakdown.fxSpread === "0.00")).toBe(true);
    // Baseline: the first eligible rail (Card), 1.09 - 1.02.
    expect(simulation.savings).toMatchObject({ baselineName: "Card", savingMinor: 7 });
  });

  it("EUR 1000 paid out in USD to the US: the FX spread applies; Card is the Best Option", () => {
    expect(totals(RAILS, "1000", "EUR", "USD", "US")).toEqual({
      ACH: "11.05",
      Wire: "21.92",
      Card: "6.09",
      SWIFT: "35.60",
      SEPA: "9.02",
      Crypto: "51.18",
      UPI: "11.00",
    });
    const simulation = simulate(RAILS, "1000", "EUR", "USD", "US");
    expect(simulation.best?.name).toBe("Card");
    expect(simulation.savings).toMatchObject({ baselineName: "ACH", savingMinor: 1105 - 609 });
  });

  it("JPY 10000 in Japan: whole yen, USD fees converted at 150 (ACH 7.5 -> 8)", () => {
    // network 10; ACH 8; Wire 150; Card 15; SWIFT 750; SEPA EUR 0.02 = 3; Crypto 30; UPI 0
    expect(totals(RAILS, "10000", "JPY")).toEqual({
      ACH: "18",
      Wire: "160",
      Card: "25",
      SWIFT: "760",
      SEPA: "13",
      Crypto: "40",
      UPI: "10",
    });
    expect(simulate(RAILS, "10000", "JPY").best?.name).toBe("Card");
  });

  it("colour bands of the cost percentage: green < 1, yellow < 2, red otherwise (USD 10)", () => {
    const bands = Object.fromEntries(
      simulate(RAILS, "10", "USD").results.map((result) => [
        result.name,
        [result.totalCost, result.costPercent, result.costBand],
      ]),
    );
    // SEPA 0.02 + 0.01 = 0.03 (0.3 %); Card 0.10 + 0.01 = 0.11 (1.1 %); Wire 1.01 (10.1 %)
    expect(bands.SEPA).toEqual(["0.03", 0.3, "green"]);
    expect(bands.Card).toEqual(["0.11", 1.1, "yellow"]);
    expect(bands.Wire).toEqual(["1.01", 10.1, "red"]);
  });

  it("only active rails are compared: a stopped or maintenance rail drops out, the next cheapest becomes the Best Option", () => {
    const sepaDown = RAILS.map((rail) => (rail.id === "sepa" ? { ...rail, status: "down" as const } : rail));
    expect(Object.keys(totals(sepaDown, "1000", "USD"))).toEqual(["ACH", "Wire", "Card", "SWIFT", "Crypto", "UPI"]);
    expect(simulate(sepaDown, "1000", "USD").best?.name).toBe("ACH");
    const achMaintenance = sepaDown.map((rail) =>
      rail.id === "ach" ? { ...rail, status: "maintenance" as const } : rail,
    );
    expect(simulate(achMaintenance, "1000", "USD").best?.name).toBe("Card");
    const allDown = RAILS.map((rail) => ({ ...rail, status: "down" as const }));
    expect(simulate(allDown, "1000", "USD")).toMatchObject({ results: [], best: null });
  });

  it("amount floored at 0, invalid input counts as 0, costs only above 0; extra decimals are cut", () => {
    for (const input of ["0", "-5", "abc", "", "1e3", "0.001"]) {
      const simulation = simulate(RAILS, input, "USD");
      expect(simulation, input).toMatchObject({ amountMinor: 0, results: [], best: null });
    }
    expect(simulate(RAILS, "10.999", "USD").amount).toBe("10.99");
    expect(simulate(RAILS, "10.5", "JPY").amount).toBe("10");
  });
});

describe("the simulator agrees with POST /api/v1/rails/quote", () => {
  // The route parses {amount, currency} with core's QuoteInput and answers quoteRails over the
  // stored rails; the browser parses the typed amount with simulatorAmountMinor. Same rails, same
  // values: same results. (The browser test checks the running API for the same pairs.)
  const server = (rails: readonly Rail[], amount: string, currency: "USD" | "EUR" | "GBP" | "JPY") => {
    const input = QuoteInput.parse({ amount, currency });
    return quoteRails(rails, input.amountMinor, input.currency);
  };
  const cases = [
    ["1000", "USD"],
    ["1000", "EUR"],
    ["250.5", "GBP"],
    ["10000", "JPY"],
    ["10", "USD"],
    ["0.37", "EUR"],
    ["123456.78", "GBP"],
  ] as const;
  for (const [amount, currency] of cases) {
    it(`${amount} ${currency}`, () => {
      expect(simulate(RAILS, amount, currency).results).toEqual(server(RAILS, amount, currency));
      const sepaDown = RAILS.map((rail) => (rail.id === "sepa" ? { ...rail, status: "down" as const } : rail));
      expect(simulate(sepaDown, amount, currency).results).toEqual(server(sepaDown, amount, currency));
    });
  }
});

describe("summary tiles", () => {
  it("counts by status and averages success rates from the rails' own figures", () => {
    const summary = summarise(RAILS);
    expect(summary).toMatchObject({ total: 7, active: 7, maintenance: 0, down: 0, sampleFigures: true });
    // (98.5 + 99.2 + 99.8 + 99 + 98.8 + 95.5 + 98.2) / 7 = 689 / 7
    expect(summary.averageSuccessRate).toBeCloseTo(689 / 7, 10);
    const changed = RAILS.map((rail) =>
      rail.id === "crypto"
        ? { ...rail, status: "down" as const }
        : rail.id === "swift"
          ? { ...rail, status: "maintenance" as const }
          : rail,
    );
    const after = summarise(changed);
    expect(after).toMatchObject({ total: 7, active: 5, maintenance: 1, down: 1 });
    // active: ACH, Wire, Card, SEPA, UPI = (98.5 + 99.2 + 99.8 + 98.8 + 98.2) / 5
    expect(after.activeSuccessRate).toBeCloseTo(494.5 / 5, 10);
    expect(summarise([])).toMatchObject({
      total: 0,
      averageSuccessRate: null,
      activeSuccessRate: null,
      sampleFigures: false,
    });
  });

  it("the toggle says Stop for an active rail and Start otherwise; a changed rail replaces its old self in place", () => {
    expect(toggleAction({ status: "active" })).toBe("stop");
    expect(toggleAction({ status: "down" })).toBe("start");
    expect(toggleAction({ status: "maintenance" })).toBe("start");
    const stopped = { ...RAILS[2]!, status: "down" as const, version: 2 };
    expect(replaceRail(RAILS, stopped).map((rail) => [rail.id, rail.status])).toEqual([
      ["ach", "active"],
      ["wire", "active"],
      ["card", "down"],
      ["swift", "active"],
      ["sepa", "active"],
      ["crypto", "active"],
      ["upi", "active"],
    ]);
  });
});
