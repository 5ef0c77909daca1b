import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Currency } from "../money/model";
import {
  costBand,
  costBandOfPercent,
  costPercent,
  divideHalfUp,
  errorRateBand,
  fractionToPercentText,
  quoteRails,
  QuoteInput,
  railCostMinor,
  railEditDefaults,
  RailEditInput,
  railPatchFromEdit,
  Rail,
  RAIL_MESSAGES,
  simulatorAmountMinor,
  type QuoteRail,
} from "./model";
import { SEED_RAILS } from "./seed-rails";

const seed = (id: string) => SEED_RAILS.find((rail) => rail.id === id)!;
const asQuoteRails = (): QuoteRail[] => SEED_RAILS.map((rail) => ({ ...rail }));

/**
 * The formula (spec §9): total = fixed fee + FX spread × amount (0 in USD) + 0.1 % × amount.
 * Each part rounded half-up to the currency's minor unit; the fixed fee (USD figure) is taken as
 * that many units of the amount's currency. Every row below is computed by hand in its comment.
 * Rails: ACH fixed 0.05 spread 0.01 | Wire 1 / 0.02 | Card 0.10 / 0.005 | SWIFT 5 / 0.03 |
 * SEPA 0.02 / 0.008 | Crypto 0.20 / 0.05.
 */
type Row = [railId: string, currency: Currency, amount: string, fixed: string, fx: string, network: string, total: string];
const TABLE: Row[] = [
  // USD 1000.00: no FX spread; network 0.1 % of 1000.00 = 1.00
  ["ach", "USD", "1000", "0.05", "0.00", "1.00", "1.05"], // 0.05 + 0 + 1.00
  ["wire", "USD", "1000", "1.00", "0.00", "1.00", "2.00"], // 1.00 + 0 + 1.00
  ["card", "USD", "1000", "0.10", "0.00", "1.00", "1.10"], // 0.10 + 0 + 1.00
  ["swift", "USD", "1000", "5.00", "0.00", "1.00", "6.00"], // 5.00 + 0 + 1.00
  ["sepa", "USD", "1000", "0.02", "0.00", "1.00", "1.02"], // 0.02 + 0 + 1.00
  ["crypto", "USD", "1000", "0.20", "0.00", "1.00", "1.20"], // 0.20 + 0 + 1.00
  // EUR 1000.00: FX = spread × 1000; network 1.00; fixed fee taken as EUR
  ["ach", "EUR", "1000", "0.05", "10.00", "1.00", "11.05"], // 0.01 × 1000 = 10
  ["wire", "EUR", "1000", "1.00", "20.00", "1.00", "22.00"], // 0.02 × 1000 = 20
  ["card", "EUR", "1000", "0.10", "5.00", "1.00", "6.10"], // 0.005 × 1000 = 5
  ["swift", "EUR", "1000", "5.00", "30.00", "1.00", "36.00"], // 0.03 × 1000 = 30
  ["sepa", "EUR", "1000", "0.02", "8.00", "1.00", "9.02"], // 0.008 × 1000 = 8
  ["crypto", "EUR", "1000", "0.20", "50.00", "1.00", "51.20"], // 0.05 × 1000 = 50
  // GBP 1234.56 (123456 pence): network 123456 × 0.001 = 123.456 -> 123 (half-up: .456 rounds down) = 1.23
  ["ach", "GBP", "1234.56", "0.05", "12.35", "1.23", "13.63"], // 0.01 × 123456 = 1234.56p -> 1235p; 5 + 1235 + 123 = 1363p
  ["wire", "GBP", "1234.56", "1.00", "24.69", "1.23", "26.92"], // 0.02 × 123456 = 2469.12p -> 2469p; 100 + 2469 + 123 = 2692p
  ["card", "GBP", "1234.56", "0.10", "6.17", "1.23", "7.50"], // 0.005 × 123456 = 617.28p -> 617p; 10 + 617 + 123 = 750p
  ["swift", "GBP", "1234.56", "5.00", "37.04", "1.23", "43.27"], // 0.03 × 123456 = 3703.68p -> 3704p; 500 + 3704 + 123 = 4327p
  ["sepa", "GBP", "1234.56", "0.02", "9.88", "1.23", "11.13"], // 0.008 × 123456 = 987.648p -> 988p; 2 + 988 + 123 = 1113p
  ["crypto", "GBP", "1234.56", "0.20", "61.73", "1.23", "63.16"], // 0.05 × 123456 = 6172.8p -> 6173p; 20 + 6173 + 123 = 6316p
  // JPY 12345 (no decimals): network 12.345 -> 12; fixed fee in whole yen: 0.05 -> 0, 1 -> 1, 0.10 -> 0, 5 -> 5, 0.02 -> 0, 0.20 -> 0
  ["ach", "JPY", "12345", "0", "123", "12", "135"], // 0.01 × 12345 = 123.45 -> 123; 0 + 123 + 12
  ["wire", "JPY", "12345", "1", "247", "12", "260"], // 0.02 × 12345 = 246.9 -> 247; 1 + 247 + 12
  ["card", "JPY", "12345", "0", "62", "12", "74"], // 0.005 × 12345 = 61.725 -> 62; 0 + 62 + 12
  ["swift", "JPY", "12345", "5", "370", "12", "387"], // 0.03 × 12345 = 370.35 -> 370; 5 + 370 + 12
  ["sepa", "JPY", "12345", "0", "99", "12", "111"], // 0.008 × 12345 = 98.76 -> 99; 0 + 99 + 12
  ["crypto", "JPY", "12345", "0", "617", "12", "629"], // 0.05 × 12345 = 617.25 -> 617; 0 + 617 + 12
  // Half-up at exactly .5: JPY 1500 network 1.5 -> 2; Card FX 0.005 × 1500 = 7.5 -> 8; SEPA FX 12; Crypto 75
  ["card", "JPY", "1500", "0", "8", "2", "10"], // 0 + 8 + 2
  ["sepa", "JPY", "1500", "0", "12", "2", "14"], // 0.008 × 1500 = 12; 0 + 12 + 2
  // USD 0.50 (50 cents): network 0.05 cents -> 0; ACH total = fixed 0.05
  ["ach", "USD", "0.50", "0.05", "0.00", "0.00", "0.05"],
  // USD 5.00: network 0.5 cent -> 1 cent (half-up)
  ["sepa", "USD", "5", "0.02", "0.00", "0.01", "0.03"],
];

describe("the cost formula, pinned to hand-computed values", () => {
  it.each(TABLE)("%s %s %s: fixed %s + FX %s + network %s = %s", (railId, currency, amount, fixed, fx, network, total) => {
    const amountMinor = QuoteInput.parse({ amount, currency }).amountMinor;
    const [result] = quoteRails([{ ...seed(railId) }], amountMinor, currency);
    expect(result).toMatchObject({ railId, totalCost: total, breakdown: { fixedFee: fixed, fxSpread: fx, networkFee: network } });
    // The minor units agree with the strings, and the breakdown adds up to the total.
    const { totalMinor, breakdownMinor } = railCostMinor(seed(railId), amountMinor, currency);
    expect(result!.totalCostMinor).toBe(totalMinor);
    expect(breakdownMinor.fixedFee + breakdownMinor.fxSpread + breakdownMinor.networkFee).toBe(totalMinor);
  });

  it("marks exactly one Best Option: the cheapest active rail", () => {
    const best = (currency: Currency, amount: string) => quoteRails(asQuoteRails(), QuoteInput.parse({ amount, currency }).amountMinor, currency).filter((result) => result.isOptimal).map((result) => result.railId);
    expect(best("USD", "1000")).toEqual(["sepa"]); // 1.02 is the lowest of 1.05, 2.00, 1.10, 6.00, 1.02, 1.20
    expect(best("EUR", "1000")).toEqual(["card"]); // 6.10 is the lowest of 11.05, 22.00, 6.10, 36.00, 9.02, 51.20
    expect(best("GBP", "1234.56")).toEqual(["card"]); // 7.50
    expect(best("JPY", "12345")).toEqual(["card"]); // 74
  });

  it("compares only active rails, and stopping the best moves Best Option", () => {
    const rails = asQuoteRails().map((rail) => (rail.id === "sepa" ? { ...rail, status: "down" as const } : rail.id === "crypto" ? { ...rail, status: "maintenance" as const } : rail));
    const results = quoteRails(rails, 100_000, "USD");
    expect(results.map((result) => result.railId)).toEqual(["ach", "wire", "card", "swift"]);
    expect(results.find((result) => result.isOptimal)?.railId).toBe("ach"); // 1.05 now the lowest
    expect(quoteRails(rails.map((rail) => ({ ...rail, status: "down" as const })), 100_000, "USD")).toEqual([]);
  });

  it("breaks ties by lower average time, then higher success rate, then id", () => {
    const twin = (id: string, avgProcessingTime: number, successRate: number): QuoteRail => ({ id, name: id, status: "active", fixedFeeMinor: 5, fxSpread: 0.01, avgProcessingTime, successRate });
    const pick = (rails: QuoteRail[]) => quoteRails(rails, 100_000, "USD").find((result) => result.isOptimal)?.railId;
    expect(pick([twin("a", 1, 99), twin("b", 0.5, 90)])).toBe("b");
    expect(pick([twin("a", 1, 99), twin("b", 1, 99.5)])).toBe("b");
    expect(pick([twin("b", 1, 99), twin("a", 1, 99)])).toBe("a");
  });

  it("computes costs only when the amount is above 0", () => {
    expect(quoteRails(asQuoteRails(), 0, "USD")).toEqual([]);
    expect(railCostMinor(seed("ach"), 0, "EUR")).toEqual({ totalMinor: 5, breakdownMinor: { fixedFee: 5, fxSpread: 0, networkFee: 0 } });
  });

  it("is exact at the largest amount (no float drift): 1,000,000,000 EUR over Crypto", () => {
    // 0.05 × 1e9 = 50,000,000.00; 0.001 × 1e9 = 1,000,000.00; + 0.20
    expect(quoteRails([{ ...seed("crypto") }], 100_000_000_000, "EUR")[0]!.totalCost).toBe("51000000.20");
  });

  it("property: the breakdown always sums to the total and every part is within half a unit of the exact value", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000_000 }), fc.constantFrom(...SEED_RAILS), fc.constantFrom<Currency>("USD", "EUR", "GBP", "JPY"), (amountMinor, rail, currency) => {
        const { totalMinor, breakdownMinor } = railCostMinor(rail, amountMinor, currency);
        expect(breakdownMinor.fixedFee + breakdownMinor.fxSpread + breakdownMinor.networkFee).toBe(totalMinor);
        expect(Math.abs(breakdownMinor.networkFee - amountMinor / 1000)).toBeLessThanOrEqual(0.5);
        const exactFx = currency === "USD" ? 0 : (amountMinor * Math.round(rail.fxSpread * 100_000)) / 100_000;
        expect(Math.abs(breakdownMinor.fxSpread - exactFx)).toBeLessThanOrEqual(0.5 + 1e-6);
      }),
    );
  });

  it("rounds half-up", () => {
    expect([divideHalfUp(5n, 2n), divideHalfUp(4n, 3n), divideHalfUp(0n, 7n), divideHalfUp(7n, 2n), divideHalfUp(1n, 3n)]).toEqual([3n, 1n, 0n, 4n, 0n]);
  });
});

describe("cost percentage and colour band", () => {
  it("percent of the amount to 3 decimals, band from the exact ratio", () => {
    expect(costPercent(105, 100_000)).toBe(0.105); // 1.05 of 1000
    expect(costPercent(610, 100_000)).toBe(0.61);
    expect(costPercent(1, 0)).toBeNull();
    expect(costBand(99, 10_000)).toBe("green"); // 0.99 %
    expect(costBand(100, 10_000)).toBe("yellow"); // exactly 1 %: not under 1
    expect(costBand(199, 10_000)).toBe("yellow");
    expect(costBand(200, 10_000)).toBe("red"); // exactly 2 %
    expect(costBand(99_999, 10_000_000)).toBe("green"); // 0.99999 %: shows 1 but is under 1
    expect(costBand(1, 0)).toBeNull();
    expect([costBandOfPercent(0.5), costBandOfPercent(1), costBandOfPercent(1.99), costBandOfPercent(2)]).toEqual(["green", "yellow", "yellow", "red"]);
  });

  it("the quote carries them: EUR 1000 over SWIFT is 3.6 %, red; USD 1000 over SEPA 0.102 %, green", () => {
    const results = quoteRails(asQuoteRails(), 100_000, "EUR");
    expect(results.find((result) => result.railId === "swift")).toMatchObject({ costPercent: 3.6, costBand: "red" });
    expect(results.find((result) => result.railId === "card")).toMatchObject({ costPercent: 0.61, costBand: "green" });
    expect(results.find((result) => result.railId === "ach")).toMatchObject({ costPercent: 1.105, costBand: "yellow" });
    expect(quoteRails(asQuoteRails(), 100_000, "USD").find((result) => result.railId === "sepa")).toMatchObject({ costPercent: 0.102, costBand: "green" });
  });

  it("error-rate bar: under 1 green, under 5 yellow, else red", () => {
    expect([errorRateBand(0.2), errorRateBand(1), errorRateBand(4.9), errorRateBand(5)]).toEqual(["green", "yellow", "yellow", "red"]);
  });
});

describe("the edit form (spec §5): units and messages", () => {
  const valid = { name: "SEPA Instant", type: "SEPA", status: "active", fixedFee: 0.02, fxSpreadPercent: 0.8, slaTarget: 99.9 };
  const message = (input: unknown) => {
    const parsed = RailEditInput.safeParse(input);
    return parsed.success ? null : parsed.error.issues[0]!.message;
  };

  it("stores FX spread and error injection entered in percent as fractions (÷ 100), exactly", () => {
    expect(railPatchFromEdit(RailEditInput.parse(valid))).toEqual({ name: "SEPA Instant", type: "SEPA", status: "active", fixedFee: "0.02", fixedFeeMinor: 2, fxSpread: 0.008, slaTarget: 99.9, errorInjection: 0 });
    expect(railPatchFromEdit(RailEditInput.parse({ ...valid, fxSpreadPercent: "0.001", errorInjectionPercent: 12.5 }))).toMatchObject({ fxSpread: 0.00001, errorInjection: 0.125 });
    expect(railPatchFromEdit(RailEditInput.parse({ ...valid, fxSpreadPercent: 100, errorInjectionPercent: 100, fixedFee: "15.5" }))).toMatchObject({ fxSpread: 1, errorInjection: 1, fixedFee: "15.50", fixedFeeMinor: 1550 });
    expect(railPatchFromEdit(RailEditInput.parse({ ...valid, fxSpreadPercent: 0.5 }))).toMatchObject({ fxSpread: 0.005 });
    expect(railPatchFromEdit(RailEditInput.parse({ ...valid, errorInjectionPercent: "" }))).toMatchObject({ errorInjection: 0 });
    expect(railPatchFromEdit(RailEditInput.parse({ ...valid, errorInjectionPercent: null }))).toMatchObject({ errorInjection: 0 });
  });

  it("round-trips through the form's defaults (percent shown, fraction stored)", () => {
    for (const seedRail of SEED_RAILS) {
      const rail = Rail.parse({ ...seedRail, lastPing: null, version: 1, updated_at: "2026-01-01T00:00:00.000Z", updated_by: "x", lastChange: null });
      const { version: _version, ...defaults } = railEditDefaults(rail);
      const patch = railPatchFromEdit(RailEditInput.parse(defaults));
      expect(patch).toMatchObject({ fxSpread: rail.fxSpread, fixedFeeMinor: rail.fixedFeeMinor, slaTarget: rail.slaTarget, errorInjection: 0 });
    }
    expect(fractionToPercentText(0.005)).toBe("0.5");
    expect(fractionToPercentText(0.00001)).toBe("0.001");
    expect(fractionToPercentText(0.03)).toBe("3");
    expect(fractionToPercentText(0.125, 1)).toBe("12.5");
  });

  it("gives a clear message for every bad field", () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...valid, name: "  " }, RAIL_MESSAGES.nameRequired],
      [{ ...valid, name: undefined }, RAIL_MESSAGES.nameRequired],
      [{ ...valid, name: "x".repeat(61) }, RAIL_MESSAGES.nameTooLong],
      [{ ...valid, type: "Cheque" }, RAIL_MESSAGES.type],
      [{ ...valid, status: "paused" }, RAIL_MESSAGES.status],
      [{ ...valid, fixedFee: undefined }, RAIL_MESSAGES.fixedFeeRequired],
      [{ ...valid, fixedFee: "" }, RAIL_MESSAGES.fixedFeeRequired],
      [{ ...valid, fixedFee: 0.001 }, RAIL_MESSAGES.fixedFeeStep],
      [{ ...valid, fixedFee: -1 }, RAIL_MESSAGES.fixedFee],
      [{ ...valid, fixedFee: 10_000.01 }, RAIL_MESSAGES.fixedFee],
      [{ ...valid, fixedFee: "1e3" }, RAIL_MESSAGES.fixedFee],
      [{ ...valid, fxSpreadPercent: 0.0001 }, RAIL_MESSAGES.fxSpreadStep],
      [{ ...valid, fxSpreadPercent: 100.001 }, RAIL_MESSAGES.fxSpread],
      [{ ...valid, fxSpreadPercent: "abc" }, RAIL_MESSAGES.fxSpread],
      [{ ...valid, slaTarget: 99.95 }, RAIL_MESSAGES.slaStep],
      [{ ...valid, slaTarget: 100.1 }, RAIL_MESSAGES.sla],
      [{ ...valid, slaTarget: "" }, RAIL_MESSAGES.slaRequired],
      [{ ...valid, errorInjectionPercent: 101 }, RAIL_MESSAGES.errorInjection],
      [{ ...valid, errorInjectionPercent: 0.05 }, RAIL_MESSAGES.errorInjectionStep],
      [{ ...valid, version: 0 }, RAIL_MESSAGES.version],
      [{ ...valid, version: "2" }, RAIL_MESSAGES.version],
    ];
    for (const [input, expected] of cases) expect(message(input), JSON.stringify(input)).toBe(expected);
    expect(message({ ...valid, cost: 1 })).toMatch(/cost/);
    expect(message(valid)).toBeNull();
    expect(message({ ...valid, fixedFee: 0, fxSpreadPercent: 0, slaTarget: 0, errorInjectionPercent: 0 })).toBeNull();
  });
});

describe("quote input and the simulator's amount", () => {
  it("amount is a decimal string or number, 0 or more, at most the currency's decimals", () => {
    expect(QuoteInput.parse({ amount: "1000", currency: "USD" })).toEqual({ amountMinor: 100_000, currency: "USD" });
    expect(QuoteInput.parse({ amount: 12.5, currency: "EUR" })).toEqual({ amountMinor: 1250, currency: "EUR" });
    expect(QuoteInput.parse({ amount: 0, currency: "JPY" })).toEqual({ amountMinor: 0, currency: "JPY" });
    const message = (input: unknown) => {
      const parsed = QuoteInput.safeParse(input);
      return parsed.success ? null : parsed.error.issues[0]!.message;
    };
    expect(message({ amount: "-1", currency: "USD" })).toBe("Amount must be 0 or more");
    expect(message({ amount: "abc", currency: "USD" })).toBe("Amount must be a number");
    expect(message({ amount: "1.5", currency: "JPY" })).toBe("JPY amounts cannot have decimals");
    expect(message({ amount: "1", currency: "INR" })).toBe("Currency must be one of USD, EUR, GBP, JPY");
    expect(message({ currency: "USD" })).toBe("Amount is required");
    expect(message({ amount: "1e400", currency: "USD" })).toBe("Amount must be a number");
    expect(message({ amount: "99999999999", currency: "USD" })).toBe("Amount is too large");
  });

  it("simulator: floored at 0, invalid counts as 0, extra decimals cut", () => {
    expect(simulatorAmountMinor("1000", "USD")).toBe(100_000);
    expect(simulatorAmountMinor("-5", "USD")).toBe(0);
    expect(simulatorAmountMinor("abc", "EUR")).toBe(0);
    expect(simulatorAmountMinor("", "EUR")).toBe(0);
    expect(simulatorAmountMinor("10.999", "USD")).toBe(1099);
    expect(simulatorAmountMinor("12.7", "JPY")).toBe(12);
    expect(simulatorAmountMinor(".5", "GBP")).toBe(50);
    expect(simulatorAmountMinor(250.25, "USD")).toBe(25_025);
    expect(simulatorAmountMinor(Number.NaN, "USD")).toBe(0);
  });
});
