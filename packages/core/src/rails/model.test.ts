import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Currency } from "../money/model";
import { costBand, costBandOfPercent, costPercent, errorRateBand } from "./cost-bands";
import { divideHalfUp, railCostMinor } from "./cost";
import { fractionToPercentText, railEditDefaults, RailEditInput, railPatchFromEdit, RAIL_MESSAGES } from "./edit-form";
import { ineligibility } from "./eligibility";
import { quoteRails, quoteSavings, type QuoteRail } from "./quotes";
import { QuoteInput, QUOTE_MESSAGES, simulatorAmountMinor } from "./quote-input";
import { Rail } from "./model";
import { SEED_RAILS } from "./seed-rails";

const seed = (id: string) => SEED_RAILS.find((rail) => rail.id === id)!;
const asQuoteRails = (): QuoteRail[] => SEED_RAILS.map((rail) => ({ ...rail }));

/**
 * The formula: total = fixed fee (converted from the rail's fee currency at the reference rate)
 * + FX spread × amount (only when the payout currency differs) + 0.1 % × amount, each part
 * rounded half-up to the currency's minor unit. Rates per USD: EUR 0.92, GBP 0.79, JPY 150.
 * Rails: ACH USD 0.05 / spread 0.01 | Wire USD 1 / 0.02 | Card USD 0.10 / 0.005 | SWIFT USD 5 /
 * 0.03 | SEPA EUR 0.02 / 0.008 | Crypto USD 0.20 / 0.05. Every row is computed by hand.
 */
type Row = [
  railId: string,
  currency: Currency,
  payout: Currency,
  amount: string,
  fixed: string,
  fx: string,
  network: string,
  total: string,
];
const TABLE: Row[] = [
  // USD 1000.00 paid out in USD: no FX; network 1.00; SEPA's EUR 0.02 = 2 / 0.92 = 2.17 cents -> 0.02
  ["ach", "USD", "USD", "1000", "0.05", "0.00", "1.00", "1.05"],
  ["wire", "USD", "USD", "1000", "1.00", "0.00", "1.00", "2.00"],
  ["card", "USD", "USD", "1000", "0.10", "0.00", "1.00", "1.10"],
  ["swift", "USD", "USD", "1000", "5.00", "0.00", "1.00", "6.00"],
  ["sepa", "USD", "USD", "1000", "0.02", "0.00", "1.00", "1.02"],
  ["crypto", "USD", "USD", "1000", "0.20", "0.00", "1.00", "1.20"],
  // EUR 1000.00 paid out in EUR: same currency, so no FX at all
  ["sepa", "EUR", "EUR", "1000", "0.02", "0.00", "1.00", "1.02"],
  ["card", "EUR", "EUR", "1000", "0.09", "0.00", "1.00", "1.09"], // USD 0.10 × 0.92 = 0.092 -> 0.09
  // EUR 1000.00 paid out in USD: FX = spread × 1000; fixed fees converted USD -> EUR at 0.92
  ["ach", "EUR", "USD", "1000", "0.05", "10.00", "1.00", "11.05"], // 5 × 0.92 = 4.6 -> 5 cents
  ["wire", "EUR", "USD", "1000", "0.92", "20.00", "1.00", "21.92"], // 100 × 0.92 = 92
  ["card", "EUR", "USD", "1000", "0.09", "5.00", "1.00", "6.09"], // 10 × 0.92 = 9.2 -> 9
  ["swift", "EUR", "USD", "1000", "4.60", "30.00", "1.00", "35.60"], // 500 × 0.92 = 460
  ["sepa", "EUR", "USD", "1000", "0.02", "8.00", "1.00", "9.02"], // already EUR
  ["crypto", "EUR", "USD", "1000", "0.18", "50.00", "1.00", "51.18"], // 20 × 0.92 = 18.4 -> 18
  // GBP 1234.56 (123456 pence) paid out in USD: network 123.456 -> 123;
  // fixed fees × 0.79 (SEPA: 2 × 0.79 / 0.92 = 1.72 -> 2)
  ["ach", "GBP", "USD", "1234.56", "0.04", "12.35", "1.23", "13.62"], // 3.95 -> 4; 1234.56 -> 1235; 4 + 1235 + 123
  ["wire", "GBP", "USD", "1234.56", "0.79", "24.69", "1.23", "26.71"], // 79 + 2469 + 123
  ["card", "GBP", "USD", "1234.56", "0.08", "6.17", "1.23", "7.48"], // 7.9 -> 8; 617.28 -> 617
  ["swift", "GBP", "USD", "1234.56", "3.95", "37.04", "1.23", "42.22"], // 395 + 3704 + 123
  ["sepa", "GBP", "USD", "1234.56", "0.02", "9.88", "1.23", "11.13"], // 2 + 988 + 123
  ["crypto", "GBP", "USD", "1234.56", "0.16", "61.73", "1.23", "63.12"], // 15.8 -> 16; 6172.8 -> 6173
  // JPY 12345 paid out in USD: fixed fees in whole yen at 150 (ACH 7.5 -> 8; SEPA 2 × 150 / 92 = 3.26 -> 3)
  ["ach", "JPY", "USD", "12345", "8", "123", "12", "143"],
  ["wire", "JPY", "USD", "12345", "150", "247", "12", "409"],
  ["card", "JPY", "USD", "12345", "15", "62", "12", "89"], // 61.725 -> 62
  ["swift", "JPY", "USD", "12345", "750", "370", "12", "1132"],
  ["sepa", "JPY", "USD", "12345", "3", "99", "12", "114"],
  ["crypto", "JPY", "USD", "12345", "30", "617", "12", "659"],
  // Half-up at exactly .5: JPY 1500 network 1.5 -> 2; Card FX 7.5 -> 8
  ["card", "JPY", "USD", "1500", "15", "8", "2", "25"],
  // USD 0.50: network 0.05 cents -> 0; USD 5.00: network 0.5 cent -> 1
  ["ach", "USD", "USD", "0.50", "0.05", "0.00", "0.00", "0.05"],
  ["sepa", "USD", "USD", "5", "0.02", "0.00", "0.01", "0.03"],
];

describe("the cost formula, pinned to hand-computed values", () => {
  it.each(TABLE)(
    "%s %s -> %s %s: fixed %s + FX %s + network %s = %s",
    (railId, currency, payout, amount, fixed, fx, network, total) => {
      const amountMinor = QuoteInput.parse({ amount, currency }).amountMinor;
      const [result] = quoteRails([{ ...seed(railId) }], amountMinor, currency, { payoutCurrency: payout });
      expect(result).toMatchObject({
        railId,
        totalCost: total,
        breakdown: { fixedFee: fixed, fxSpread: fx, networkFee: network },
      });
      // The minor units agree with the strings, and the breakdown adds up to the total.
      const { totalMinor, breakdownMinor } = railCostMinor(seed(railId), amountMinor, currency, payout);
      expect(result!.totalCostMinor).toBe(totalMinor);
      expect(breakdownMinor.fixedFee + breakdownMinor.fxSpread + breakdownMinor.networkFee).toBe(totalMinor);
    },
  );

  it("applies FX only when the currencies differ: same-currency FX is 0 for every rail, currency and amount", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000_000_000 }),
        fc.constantFrom(...SEED_RAILS),
        fc.constantFrom<Currency>("USD", "EUR", "GBP", "JPY", "INR"),
        (amountMinor, rail, currency) => {
          expect(railCostMinor(rail, amountMinor, currency).breakdownMinor.fxSpread).toBe(0);
          for (const result of quoteRails([{ ...rail }], amountMinor, currency))
            expect(result.breakdownMinor.fxSpread).toBe(0);
        },
      ),
    );
  });

  it("states each fixed fee in its own currency and the rate it was converted at", () => {
    const [sepa] = quoteRails([{ ...seed("sepa") }], 100_000, "USD");
    expect(sepa!.fixedFeeOriginal).toEqual({ amount: "0.02", currency: "EUR", rate: "1 EUR = 1.0870 USD" });
    const [ach] = quoteRails([{ ...seed("ach") }], 100_000, "USD");
    expect(ach!.fixedFeeOriginal).toEqual({ amount: "0.05", currency: "USD", rate: null });
    const [card] = quoteRails([{ ...seed("card") }], 100_000, "JPY");
    expect(card).toMatchObject({
      breakdown: { fixedFee: "15" },
      fixedFeeOriginal: { amount: "0.10", currency: "USD", rate: "1 USD = 150.0000 JPY" },
    });
  });

  it("marks exactly one Best Option: the cheapest ELIGIBLE rail (SEPA is cheap but carries EUR only)", () => {
    const best = (currency: Currency, amount: string, country?: string) =>
      quoteRails(asQuoteRails(), QuoteInput.parse({ amount, currency }).amountMinor, currency, { country })
        .filter((result) => result.isOptimal)
        .map((result) => result.railId);
    // ACH 1.05, Wire 2.00, Card 1.10, SWIFT 6.00, Crypto 1.20 (SEPA 1.02 cannot carry USD)
    expect(best("USD", "1000")).toEqual(["ach"]);
    expect(best("EUR", "1000")).toEqual(["sepa"]); // 1.02 to Germany
    expect(best("EUR", "1000", "US")).toEqual(["card"]); // SEPA does not reach the US
    expect(best("INR", "1000")).toEqual(["upi"]);
    expect(best("INR", "200000")).toEqual(["swift"]); // above UPI's 1,00,000
    const usd = quoteRails(asQuoteRails(), 100_000, "USD");
    expect(usd.find((result) => result.railId === "sepa")).toMatchObject({
      eligible: false,
      isOptimal: false,
      ineligibleReason: "SEPA carries EUR only",
    });
  });

  it("savings: the Best Option against the first eligible rail, never negative", () => {
    const usd = quoteRails(asQuoteRails(), 100_000, "USD");
    expect(quoteSavings(usd)).toEqual({
      baselineRailId: "ach",
      baselineName: "ACH",
      optimalRailId: "ach",
      savingMinor: 0,
    });
    const eur = quoteRails(asQuoteRails(), 100_000, "EUR", { country: "US" });
    expect(quoteSavings(eur)).toMatchObject({ baselineRailId: "card", optimalRailId: "card", savingMinor: 0 });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000_000 }),
        fc.constantFrom<Currency>("USD", "EUR", "GBP", "JPY", "INR"),
        fc.constantFrom<Currency>("USD", "EUR", "GBP", "JPY", "INR"),
        fc.constantFrom("US", "DE", "IN", "JP", "GB", "BR"),
        (amountMinor, currency, payout, country) => {
          const savings = quoteSavings(
            quoteRails(asQuoteRails(), amountMinor, currency, { payoutCurrency: payout, country }),
          );
          if (savings) expect(savings.savingMinor).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });

  it("compares only active rails, and stopping the best moves Best Option", () => {
    const rails = asQuoteRails().map((rail) =>
      rail.id === "ach"
        ? { ...rail, status: "down" as const }
        : rail.id === "crypto"
          ? { ...rail, status: "maintenance" as const }
          : rail,
    );
    const results = quoteRails(rails, 100_000, "USD");
    expect(results.map((result) => result.railId)).toEqual(["wire", "card", "swift", "sepa", "upi"]);
    expect(results.find((result) => result.isOptimal)?.railId).toBe("card"); // 1.10 now the lowest eligible
    expect(
      quoteRails(
        rails.map((rail) => ({ ...rail, status: "down" as const })),
        100_000,
        "USD",
      ),
    ).toEqual([]);
  });

  it("breaks ties by lower average time, then higher success rate, then id", () => {
    const twin = (id: string, avgProcessingTime: number, successRate: number): QuoteRail => ({
      ...seed("card"),
      id,
      name: id,
      status: "active",
      fixedFeeMinor: 5,
      fxSpread: 0.01,
      avgProcessingTime,
      successRate,
    });
    const pick = (rails: QuoteRail[]) => quoteRails(rails, 100_000, "USD").find((result) => result.isOptimal)?.railId;
    expect(pick([twin("a", 1, 99), twin("b", 0.5, 90)])).toBe("b");
    expect(pick([twin("a", 1, 99), twin("b", 1, 99.5)])).toBe("b");
    expect(pick([twin("b", 1, 99), twin("a", 1, 99)])).toBe("a");
  });

  it("computes costs only when the amount is above 0", () => {
    expect(quoteRails(asQuoteRails(), 0, "USD")).toEqual([]);
    expect(railCostMinor(seed("ach"), 0, "EUR")).toMatchObject({
      totalMinor: 5,
      breakdownMinor: { fixedFee: 5, fxSpread: 0, networkFee: 0 },
    });
  });

  it("is exact at the largest amount (no float drift): 1,000,000,000 EUR over Crypto, paid out in USD", () => {
    // 0.05 × 1e9 = 50,000,000.00; 0.001 × 1e9 = 1,000,000.00; + USD 0.20 = EUR 0.18
    expect(quoteRails([{ ...seed("crypto") }], 100_000_000_000, "EUR", { payoutCurrency: "USD" })[0]!.totalCost).toBe(
      "51000000.18",
    );
  });

  it("property: the breakdown always sums to the total and every part is within half a unit of the exact value", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000_000_000 }),
        fc.constantFrom(...SEED_RAILS),
        fc.constantFrom<Currency>("USD", "EUR", "GBP", "JPY", "INR"),
        fc.constantFrom<Currency>("USD", "EUR", "GBP", "JPY", "INR"),
        (amountMinor, rail, currency, payout) => {
          const { totalMinor, breakdownMinor } = railCostMinor(rail, amountMinor, currency, payout);
          expect(breakdownMinor.fixedFee + breakdownMinor.fxSpread + breakdownMinor.networkFee).toBe(totalMinor);
          expect(Math.abs(breakdownMinor.networkFee - amountMinor / 1000)).toBeLessThanOrEqual(0.5);
          const exactFx = currency === payout ? 0 : (amountMinor * Math.round(rail.fxSpread * 100_000)) / 100_000;
          expect(Math.abs(breakdownMinor.fxSpread - exactFx)).toBeLessThanOrEqual(0.5 + 1e-6);
        },
      ),
    );
  });

  it("eligibility: currency, destination (SEPA by region), then amount limits in the fee currency", () => {
    const payment = (amountMinor: number, currency: Currency, country: string) => ({ amountMinor, currency, country });
    expect(ineligibility(seed("sepa"), payment(100, "EUR", "FR"))).toBeNull();
    expect(ineligibility(seed("sepa"), payment(100, "EUR", "US"))).toBe(
      "SEPA does not reach US (it covers SEPA (36 countries))",
    );
    expect(ineligibility(seed("ach"), payment(100, "EUR", "US"))).toBe("ACH carries USD only");
    expect(ineligibility(seed("upi"), payment(10_000_001, "INR", "IN"))).toBe(
      "UPI carries at most 100000.00 INR per payment",
    );
    expect(ineligibility(seed("card"), payment(1_000_000, "EUR", "DE"))).toBe(
      "Card carries at most 10000.00 USD per payment (10000.00 EUR is about 10869.57 USD)",
    );
    expect(ineligibility(seed("wire"), payment(99, "USD", "US"))).toBe("Wire carries at least 1.00 USD per payment");
    expect(ineligibility(seed("swift"), payment(5, "INR", "IN"))).toMatch(/SWIFT carries at least 1.00 USD/);
  });
  it("rounds half-up", () => {
    expect([
      divideHalfUp(5n, 2n),
      divideHalfUp(4n, 3n),
      divideHalfUp(0n, 7n),
      divideHalfUp(7n, 2n),
      divideHalfUp(1n, 3n),
    ]).toEqual([3n, 1n, 0n, 4n, 0n]);
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
    expect([costBandOfPercent(0.5), costBandOfPercent(1), costBandOfPercent(1.99), costBandOfPercent(2)]).toEqual([
      "green",
      "yellow",
      "yellow",
      "red",
    ]);
  });

  it("the quote carries them: EUR 1000 to the US over SWIFT is 3.56 %, red, paid out in USD; USD 1000 over ACH 0.105 %, green", () => {
    const results = quoteRails(asQuoteRails(), 100_000, "EUR", { payoutCurrency: "USD" });
    expect(results.find((result) => result.railId === "swift")).toMatchObject({ costPercent: 3.56, costBand: "red" });
    expect(results.find((result) => result.railId === "card")).toMatchObject({ costPercent: 0.609, costBand: "green" });
    expect(quoteRails(asQuoteRails(), 100_000, "USD").find((result) => result.railId === "ach")).toMatchObject({
      costPercent: 0.105,
      costBand: "green",
    });
  });

  it("error-rate bar: under 1 green, under 5 yellow, else red", () => {
    expect([errorRateBand(0.2), errorRateBand(1), errorRateBand(4.9), errorRateBand(5)]).toEqual([
      "green",
      "yellow",
      "yellow",
      "red",
    ]);
  });
});

describe("the edit form (docs/product/payment-rails.md#validation): units and messages", () => {
  const valid = {
    name: "SEPA Instant",
    type: "SEPA",
    status: "active",
    fixedFee: 0.02,
    fxSpreadPercent: 0.8,
    slaTarget: 99.9,
  };
  const message = (input: unknown) => {
    const parsed = RailEditInput.safeParse(input);
    return parsed.success ? null : parsed.error.issues[0]!.message;
  };

  it("stores FX spread and error injection entered in percent as fractions (÷ 100), exactly", () => {
    expect(railPatchFromEdit(RailEditInput.parse(valid), seed("sepa"))).toEqual({
      name: "SEPA Instant",
      type: "SEPA",
      status: "active",
      fixedFee: "0.02",
      fixedFeeMinor: 2,
      fxSpread: 0.008,
      slaTarget: 99.9,
      errorInjection: 0,
      feeCurrency: "EUR",
      currencies: ["EUR"],
      countries: ["SEPA"],
      minAmount: "0.01",
      minAmountMinor: 1,
      maxAmount: null,
      maxAmountMinor: null,
      settlementSeconds: 86_400,
    });
    expect(
      railPatchFromEdit(
        RailEditInput.parse({ ...valid, fxSpreadPercent: "0.001", errorInjectionPercent: 12.5 }),
        seed("sepa"),
      ),
    ).toMatchObject({ fxSpread: 0.00001, errorInjection: 0.125 });
    expect(
      railPatchFromEdit(
        RailEditInput.parse({ ...valid, fxSpreadPercent: 100, errorInjectionPercent: 100, fixedFee: "15.5" }),
        seed("sepa"),
      ),
    ).toMatchObject({ fxSpread: 1, errorInjection: 1, fixedFee: "15.50", fixedFeeMinor: 1550 });
    expect(railPatchFromEdit(RailEditInput.parse({ ...valid, fxSpreadPercent: 0.5 }), seed("sepa"))).toMatchObject({
      fxSpread: 0.005,
    });
    expect(railPatchFromEdit(RailEditInput.parse({ ...valid, errorInjectionPercent: "" }), seed("sepa"))).toMatchObject(
      { errorInjection: 0 },
    );
    expect(
      railPatchFromEdit(RailEditInput.parse({ ...valid, errorInjectionPercent: null }), seed("sepa")),
    ).toMatchObject({ errorInjection: 0 });
  });

  it("round-trips through the form's defaults (percent shown, fraction stored)", () => {
    for (const seedRail of SEED_RAILS) {
      const rail = Rail.parse({
        ...seedRail,
        lastPing: null,
        version: 1,
        updated_at: "2026-01-01T00:00:00.000Z",
        updated_by: "x",
        lastChange: null,
      });
      const { version: _version, ...defaults } = railEditDefaults(rail);
      const patch = railPatchFromEdit(RailEditInput.parse(defaults), rail);
      expect(patch).toMatchObject({
        fxSpread: rail.fxSpread,
        fixedFeeMinor: rail.fixedFeeMinor,
        slaTarget: rail.slaTarget,
        errorInjection: 0,
        currencies: rail.currencies,
        countries: rail.countries,
        feeCurrency: rail.feeCurrency,
        minAmountMinor: rail.minAmountMinor,
        maxAmountMinor: rail.maxAmountMinor,
        settlementSeconds: rail.settlementSeconds,
      });
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
      [{ ...valid, feeCurrency: "XAU" }, RAIL_MESSAGES.feeCurrency],
      [{ ...valid, currencies: [] }, RAIL_MESSAGES.currencies],
      [{ ...valid, currencies: ["USD", "BTC"] }, RAIL_MESSAGES.currencies],
      [{ ...valid, countries: [] }, RAIL_MESSAGES.countries],
      [{ ...valid, countries: ["usa1"] }, RAIL_MESSAGES.countries],
      [{ ...valid, countries: ["ASEAN"] }, RAIL_MESSAGES.unknownRegion("ASEAN")],
      [{ ...valid, minAmount: -1 }, RAIL_MESSAGES.minAmount],
      [{ ...valid, maxAmount: 0 }, RAIL_MESSAGES.maxAmount],
      [{ ...valid, minAmount: 10, maxAmount: 5 }, RAIL_MESSAGES.minAboveMax],
      [{ ...valid, settlementSeconds: 0 }, RAIL_MESSAGES.settlementSeconds],
      [{ ...valid, settlementSeconds: 1.5 }, RAIL_MESSAGES.settlementSeconds],
    ];
    for (const [input, expected] of cases) expect(message(input), JSON.stringify(input)).toBe(expected);
    expect(message({ ...valid, cost: 1 })).toMatch(/cost/);
    expect(message(valid)).toBeNull();
    expect(message({ ...valid, fixedFee: 0, fxSpreadPercent: 0, slaTarget: 0, errorInjectionPercent: 0 })).toBeNull();
  });
});

describe("quote input and the simulator's amount", () => {
  it("amount is a decimal string or number, 0 or more, at most the currency's decimals", () => {
    expect(QuoteInput.parse({ amount: "1000", currency: "USD" })).toEqual({
      amountMinor: 100_000,
      currency: "USD",
      payoutCurrency: "USD",
      country: "US",
    });
    expect(QuoteInput.parse({ amount: 12.5, currency: "EUR", payoutCurrency: "GBP" })).toEqual({
      amountMinor: 1250,
      currency: "EUR",
      payoutCurrency: "GBP",
      country: "GB",
    });
    expect(QuoteInput.parse({ amount: 0, currency: "JPY", country: "de" })).toEqual({
      amountMinor: 0,
      currency: "JPY",
      payoutCurrency: "JPY",
      country: "DE",
    });
    const message = (input: unknown) => {
      const parsed = QuoteInput.safeParse(input);
      return parsed.success ? null : parsed.error.issues[0]!.message;
    };
    expect(message({ amount: "-1", currency: "USD" })).toBe("Amount must be 0 or more");
    expect(message({ amount: "abc", currency: "USD" })).toBe("Amount must be a number");
    expect(message({ amount: "1.5", currency: "JPY" })).toBe("JPY amounts cannot have decimals");
    expect(message({ amount: "1", currency: "CHF" })).toBe("Currency must be one of USD, EUR, GBP, JPY, INR");
    expect(message({ amount: "1", currency: "USD", country: "USA" })).toBe(QUOTE_MESSAGES.country);
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
