import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CURRENCIES,
  fromDecimalString,
  MAX_AMOUNT_MAJOR,
  parseAmount,
  parseDecimal,
  toDecimalString,
  type Currency,
} from "./model";

const ok = (minor: number) => ({ ok: true, minor });
const refused = (message: string) => ({ ok: false, message });

describe("parseAmount", () => {
  it("parses decimal strings and JSON numbers exactly into minor units", () => {
    expect(parseAmount("100.1", "USD")).toEqual(ok(10010));
    expect(parseAmount("100.10", "USD")).toEqual(ok(10010));
    expect(parseAmount(100.1, "USD")).toEqual(ok(10010));
    expect(parseAmount(100.1, "USD")).toEqual(ok(10010));
    expect(parseAmount("0.01", "USD")).toEqual(ok(1));
    expect(parseAmount(0.01, "EUR")).toEqual(ok(1));
    // 0.1 + 0.2 is not 0.3 in binary floating point, and the parser does not pretend it is.
    expect(parseAmount(0.1 + 0.2, "USD")).toEqual(refused("USD amounts can have at most 2 decimal places"));
    expect(parseAmount(19.99, "GBP")).toEqual(ok(1999));
    expect(parseAmount("007.50", "USD")).toEqual(ok(750));
    expect(parseAmount("12", "JPY")).toEqual(ok(12));
    expect(parseAmount("12.0", "JPY")).toEqual(ok(12));
    expect(parseAmount("12.000", "USD")).toEqual(ok(1200));
  });

  it("reads a bare fraction: '.5' is 0.50", () => {
    expect(parseAmount(".5", "USD")).toEqual(ok(50));
    expect(parseAmount(".05", "EUR")).toEqual(ok(5));
    expect(parseAmount(0.5, "USD")).toEqual(ok(50));
    expect(parseAmount(".5", "JPY")).toEqual(refused("JPY amounts cannot have decimals"));
  });

  it("refuses spaces, around or inside, and separators", () => {
    for (const text of [" 12 ", "  12.50 ", "\t7\n", "12 .50", "1 000", "1,000", "1_000", "12,50", "$12", "12USD"]) {
      expect(parseAmount(text, "USD"), text).toEqual(refused("Amount must be a number"));
    }
  });

  it("refuses more decimals than the currency has, never rounding", () => {
    expect(parseAmount("0.001", "USD")).toEqual(refused("USD amounts can have at most 2 decimal places"));
    expect(parseAmount("100.105", "EUR")).toEqual(refused("EUR amounts can have at most 2 decimal places"));
    expect(parseAmount(0.001, "USD")).toEqual(refused("USD amounts can have at most 2 decimal places"));
    expect(parseAmount("12.5", "JPY")).toEqual(refused("JPY amounts cannot have decimals"));
    expect(parseAmount(12.5, "JPY")).toEqual(refused("JPY amounts cannot have decimals"));
  });

  it("refuses zero and negative amounts", () => {
    for (const value of ["0", "0.00", "000", 0, -0, "-5", -5, "-0.01", -0.01]) {
      expect(parseAmount(value, "USD"), String(value)).toEqual(refused("Amount must be greater than 0"));
    }
    expect(parseAmount("0", "JPY")).toEqual(refused("Amount must be greater than 0"));
  });

  it("refuses huge amounts, both above the cap and beyond safe integers", () => {
    expect(parseAmount(String(MAX_AMOUNT_MAJOR), "USD")).toEqual(ok(MAX_AMOUNT_MAJOR * 100));
    expect(parseAmount("1000000000.01", "USD")).toEqual(refused("Amount is too large"));
    expect(parseAmount("1000000001", "JPY")).toEqual(refused("Amount is too large"));
    expect(parseAmount("99999999999999999999999", "USD")).toEqual(refused("Amount is too large"));
    expect(parseAmount(Number.MAX_SAFE_INTEGER, "USD")).toEqual(refused("Amount is too large"));
    expect(parseAmount(`1${"0".repeat(400)}`, "USD")).toEqual(refused("Amount is too large"));
    // Huge or tiny JSON numbers print in exponent form, which is refused, not misread.
    expect(parseAmount(1e21, "USD").ok).toBe(false);
    expect(parseAmount(Number.MAX_VALUE, "USD").ok).toBe(false);
  });

  it("refuses exponent forms, tiny numbers and non-numbers", () => {
    for (const value of [1e-7, "1e-7", "1e3", "1E3", 5e-324])
      expect(parseAmount(value, "USD").ok, String(value)).toBe(false);
    for (const value of [
      "",
      " ",
      ".",
      "abc",
      "5.",
      "+5",
      "0x10",
      "0x0",
      "0b0",
      "0o7",
      "1e-400",
      "1e3",
      "-",
      "--5",
      "１２",
      "NaN",
      "Infinity",
      "-Infinity",
    ]) {
      expect(parseAmount(value, "USD"), JSON.stringify(value)).toEqual(refused("Amount must be a number"));
    }
    expect(parseAmount(Number.NaN, "USD")).toEqual(refused("Amount must be a number"));
    expect(parseAmount(Number.POSITIVE_INFINITY, "USD")).toEqual(refused("Amount must be a number"));
    expect(parseAmount(true, "USD")).toEqual(refused("Amount must be a number"));
    expect(parseAmount({ amount: 1 }, "USD")).toEqual(refused("Amount must be a number"));
    expect(parseAmount(undefined, "USD")).toEqual(refused("Amount is required"));
    expect(parseAmount(null, "USD")).toEqual(refused("Amount is required"));
  });
});

describe("parseDecimal (optional amounts: opening balances, thresholds)", () => {
  it("accepts zero in decimal notation only", () => {
    for (const value of ["0", "0.00", ".0", 0, "-0"]) expect(parseDecimal(value, "USD"), String(value)).toEqual(ok(0));
    expect(parseDecimal("12.5", "USD")).toEqual(ok(1250));
  });

  it("never reads hex, binary, exponents or underflow as zero", () => {
    for (const value of ["0x0", "0b0", "0o0", "1e-400", "0e0", "0x10", " 0 ", "Infinity", "NaN"]) {
      expect(parseDecimal(value, "USD"), value).toEqual(refused("Amount must be a number"));
    }
    expect(parseDecimal(-5, "USD")).toEqual(refused("Amount must be greater than 0"));
  });
});

describe("toDecimalString and back", () => {
  it("formats minor units exactly, with the currency's decimals", () => {
    expect(toDecimalString(0, "USD")).toBe("0.00");
    expect(toDecimalString(1, "USD")).toBe("0.01");
    expect(toDecimalString(10, "USD")).toBe("0.10");
    expect(toDecimalString(10010, "USD")).toBe("100.10");
    expect(toDecimalString(-1, "EUR")).toBe("-0.01");
    expect(toDecimalString(-12345, "GBP")).toBe("-123.45");
    expect(toDecimalString(0, "JPY")).toBe("0");
    expect(toDecimalString(1234, "JPY")).toBe("1234");
    expect(toDecimalString(MAX_AMOUNT_MAJOR * 100, "USD")).toBe("1000000000.00");
    expect(fromDecimalString("-0.01", "USD")).toBe(-1);
    expect(fromDecimalString("0.00", "USD")).toBe(0);
    expect(fromDecimalString("-0.00", "USD")).toBe(0);
    // Balances and report totals exceed one journal's cap: read back exactly, not as 0.
    expect(fromDecimalString("1000000007.63", "USD")).toBe(100000000763);
    expect(fromDecimalString("-25000000000.10", "EUR")).toBe(-2500000000010);
    expect(fromDecimalString("3000000000", "JPY")).toBe(3000000000);
    expect(fromDecimalString("not money", "USD")).toBe(0);
  });

  it("round-trips every amount in range through the decimal string (and JSON number) exactly", () => {
    const currencies = Object.keys(CURRENCIES) as Currency[];
    fc.assert(
      fc.property(
        fc.constantFrom(...currencies),
        fc.integer({ min: 1, max: MAX_AMOUNT_MAJOR * 100 }),
        (currency, raw) => {
          const minor = currency === "JPY" ? Math.min(raw, MAX_AMOUNT_MAJOR) : raw;
          const text = toDecimalString(minor, currency);
          expect(parseAmount(text, currency)).toEqual(ok(minor));
          expect(parseAmount(minor / 10 ** CURRENCIES[currency], currency)).toEqual(ok(minor));
          expect(fromDecimalString(`-${text}`, currency)).toBe(-minor);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
