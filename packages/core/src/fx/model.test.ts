import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bidAsk, FX_PAIRS, quoteFigures, SetRateInput, SpreadText } from "./model";
import { crossRate, parseEcbCsv } from "./rates";
import { seedRate } from "./seed-rates";

/** The quote arithmetic against hand-computed figures, the ECB file's parsing and cross rates. */

const ecbSample = readFileSync(new URL("./fixtures/eurofxref.csv", import.meta.url), "utf8");

describe("quote figures (hand-computed)", () => {
  const eurusd = { mid: "1.25", spread: "0.005" };
  it.each([
    // from, to, sell minor, mid from->to, spread minor, buy minor, customer rate
    ["USD", "EUR", 10_000, "0.8000", 50, 7_960, "0.7960"],
    ["EUR", "USD", 10_000, "1.2500", 50, 12_437, "1.2437"],
    ["USD", "EUR", 1, "0.8000", 0, 0, null],
    ["USD", "EUR", 99, "0.8000", 0, 79, "0.79797979"],
  ] as const)("%s -> %s, %i minor", (from, to, sell, mid, spreadMinor, buy, customer) => {
    const figures = quoteFigures(eurusd, from, to, sell);
    if (customer === null) {
      expect(figures).toBeNull();
      return;
    }
    expect(figures).toMatchObject({
      midRate: mid,
      spreadMinor,
      buyMinor: buy,
      customerRate: customer,
      sellMinor: sell,
    });
  });

  it("rounds down to a currency with no minor unit", () => {
    // 10.00 USD, spread 0.05: 9.95 × 150.123 = 1493.72385 JPY -> 1493.
    expect(quoteFigures({ mid: "150.123", spread: "0.005" }, "USD", "JPY", 1_000)).toMatchObject({
      spreadMinor: 5,
      buyMinor: 1_493,
    });
    // 1,000 JPY to USD at 1/150.123 (0.0066612044... -> 0.00666120): 995 × 0.0066612 = 6.6278... -> 6.62.
    expect(quoteFigures({ mid: "150.123", spread: "0.005" }, "JPY", "USD", 1_000)).toMatchObject({
      midRate: "0.0066612",
      spreadMinor: 5,
      buyMinor: 662,
    });
  });

  it("shows bid and ask around the mid, the spread never hidden in the mid", () => {
    expect(bidAsk(eurusd)).toEqual({ bid: "1.24375", ask: "1.25625" });
  });

  it("validates rates and spreads as exact decimals", () => {
    expect(SetRateInput.safeParse({ rate: "1.08700000" }).data).toEqual({ rate: "1.0870" });
    for (const rate of ["0", "-1", "1e3", "abc", "1.123456789", " ", "Infinity"])
      expect(SetRateInput.safeParse({ rate }).success, rate).toBe(false);
    expect(SpreadText.safeParse("0.005000").data).toBe("0.0050");
    for (const spread of ["0.5", "1", "-0.01", "0.0000001", "x"])
      expect(SpreadText.safeParse(spread).success).toBe(false);
    expect(SetRateInput.safeParse({}).success).toBe(false);
  });

  it("seeds every pair from the reference rates", () => {
    expect(FX_PAIRS).toHaveLength(10);
    expect(seedRate("EURUSD").mid).toBe("1.08695652");
    expect(seedRate("USDJPY").mid).toBe("150.0000");
  });
});

describe("the ECB file", () => {
  it("parses the daily file, ignoring currencies the platform does not carry", () => {
    const { days, ignored } = parseEcbCsv(ecbSample);
    expect(days).toHaveLength(1);
    expect(days[0]!.date).toBe("2026-11-26");
    expect(ignored).toContain("BGN");
    expect(ignored).not.toContain("USD");
    expect(crossRate(days[0]!, "EURUSD")).toBe("1.1632");
    // 1.1632 / 0.88348 = 1.316611581... half-up to 8 places.
    expect(crossRate(days[0]!, "GBPUSD")).toBe("1.31661158");
    // 179.73 / 1.1632 = 154.5134112...
    expect(crossRate(days[0]!, "USDJPY")).toBe("154.51341128");
  });

  it.each([
    ["", "Line 1"],
    ["Currency, USD\n1 May 2026, 1.1\n", "Line 1"],
    ["Date, USD\n", "Line 2"],
    ["Date, USD, GBP\n14 November 2025, 1.16, abc\n", 'Line 2: GBP rate "abc"'],
    ["Date, USD\n31 February 2026, 1.16\n", "Line 2"],
    ["Date, USD\n2026-05-01, 1.16\n2026-05-02, -1\n", "Line 3"],
    ['Date, USD\n"2026-05-01, 1.16\n', "not valid CSV"],
    ["Date, BGN\n2026-05-01, 1.95\n", "no rate"],
  ])("refuses a bad file with the line: %j", (text, message) => {
    expect(() => parseEcbCsv(text)).toThrow(message);
  });
});
