import { SEED_RAILS } from "@fintech/core/rails/seed-rails";
import { QuoteInput, quoteRails, type Rail } from "@fintech/core/rails/model";
import { describe, expect, it } from "vitest";
import { replaceRail, simulate, SIMULATOR_DEFAULTS, summarise, toggleAction } from "./console";

/** The six seeded rails as GET /api/v1/rails returns them. */
const RAILS: Rail[] = SEED_RAILS.map((rail) => ({ ...rail, version: 1, updated_at: "2026-01-01T00:00:00.000Z", updated_by: "seed", lastChange: null, lastPing: null }));

const totals = (rails: readonly Rail[], amount: string, currency: "USD" | "EUR" | "GBP" | "JPY") =>
  Object.fromEntries(simulate(rails, amount, currency).results.map((result) => [result.name, result.totalCost]));

describe("cost simulator (spec 001 §5, §9), hand-computed", () => {
  it("defaults to 1000 USD", () => {
    expect(SIMULATOR_DEFAULTS).toEqual({ amount: "1000", currency: "USD" });
  });

  it("USD 1000: fixed fee + 0.1 % network fee ($1.00), no FX spread; SEPA is the Best Option", () => {
    // ACH 0.05 + 1 = 1.05; Wire 1 + 1 = 2; Card 0.10 + 1 = 1.10; SWIFT 5 + 1 = 6; SEPA 0.02 + 1 = 1.02; Crypto 0.20 + 1 = 1.20
    expect(totals(RAILS, "1000", "USD")).toEqual({ ACH: "1.05", Wire: "2.00", Card: "1.10", SWIFT: "6.00", SEPA: "1.02", Crypto: "1.20" });
    const simulation = simulate(RAILS, "1000", "USD");
    expect(simulation.amount).toBe("1000.00");
    expect(simulation.best?.name).toBe("SEPA");
    expect(simulation.results.filter((result) => result.isOptimal)).toHaveLength(1);
    expect(simulation.best?.costPercent).toBe(0.102);
    expect(simulation.best?.costBand).toBe("green");
  });

  it("EUR 1000: the FX spread share of the amount dominates; Card is the Best Option", () => {
    // ACH 0.05 + 10 + 1 = 11.05; Wire 1 + 20 + 1 = 22; Card 0.10 + 5 + 1 = 6.10; SWIFT 5 + 30 + 1 = 36; SEPA 0.02 + 8 + 1 = 9.02; Crypto 0.20 + 50 + 1 = 51.20
    expect(totals(RAILS, "1000", "EUR")).toEqual({ ACH: "11.05", Wire: "22.00", Card: "6.10", SWIFT: "36.00", SEPA: "9.02", Crypto: "51.20" });
    expect(simulate(RAILS, "1000", "EUR").best?.name).toBe("Card");
    expect(totals(RAILS, "1000", "GBP")).toEqual(totals(RAILS, "1000", "EUR"));
  });

  it("JPY 10000: whole yen, the fixed fee rounded half-up to a yen (0.05 -> 0, 1 -> 1, 5 -> 5)", () => {
    // network 10; ACH 0 + 100 + 10; Wire 1 + 200 + 10; Card 0 + 50 + 10; SWIFT 5 + 300 + 10; SEPA 0 + 80 + 10; Crypto 0 + 500 + 10
    expect(totals(RAILS, "10000", "JPY")).toEqual({ ACH: "110", Wire: "211", Card: "60", SWIFT: "315", SEPA: "90", Crypto: "510" });
    expect(simulate(RAILS, "10000", "JPY").best?.name).toBe("Card");
  });

  it("colour bands of the cost percentage: green < 1, yellow < 2, red otherwise (USD 10)", () => {
    const bands = Object.fromEntries(simulate(RAILS, "10", "USD").results.map((result) => [result.name, [result.totalCost, result.costPercent, result.costBand]]));
    // SEPA 0.02 + 0.01 = 0.03 (0.3 %); Card 0.10 + 0.01 = 0.11 (1.1 %); Wire 1.01 (10.1 %)
    expect(bands.SEPA).toEqual(["0.03", 0.3, "green"]);
    expect(bands.Card).toEqual(["0.11", 1.1, "yellow"]);
    expect(bands.Wire).toEqual(["1.01", 10.1, "red"]);
  });

  it("only active rails are compared: a stopped or maintenance rail drops out, the next cheapest becomes the Best Option", () => {
    const sepaDown = RAILS.map((rail) => (rail.id === "sepa" ? { ...rail, status: "down" as const } : rail));
    expect(Object.keys(totals(sepaDown, "1000", "USD"))).toEqual(["ACH", "Wire", "Card", "SWIFT", "Crypto"]);
    expect(simulate(sepaDown, "1000", "USD").best?.name).toBe("ACH");
    const achMaintenance = sepaDown.map((rail) => (rail.id === "ach" ? { ...rail, status: "maintenance" as const } : rail));
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
    expect(summary).toMatchObject({ total: 6, active: 6, maintenance: 0, down: 0, sampleFigures: true });
    // (98.5 + 99.2 + 99.8 + 99 + 98.8 + 95.5) / 6 = 590.8 / 6
    expect(summary.averageSuccessRate).toBeCloseTo(590.8 / 6, 10);
    const changed = RAILS.map((rail) => (rail.id === "crypto" ? { ...rail, status: "down" as const } : rail.id === "swift" ? { ...rail, status: "maintenance" as const } : rail));
    const after = summarise(changed);
    expect(after).toMatchObject({ total: 6, active: 4, maintenance: 1, down: 1 });
    // active: ACH, Wire, Card, SEPA = (98.5 + 99.2 + 99.8 + 98.8) / 4
    expect(after.activeSuccessRate).toBeCloseTo(396.3 / 4, 10);
    expect(summarise([])).toMatchObject({ total: 0, averageSuccessRate: null, activeSuccessRate: null, sampleFigures: false });
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
    ]);
  });
});
