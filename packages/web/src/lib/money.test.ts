import { describe, expect, it } from "vitest";
import { currencyDecimals, formatMoney, formatMoneyCompact, MINUS_SIGN, minorToDecimal, moneySign } from "./money";

describe("formatMoney", () => {
  it("formats minor units with the currency's symbol, en-US grouping and its decimals", () => {
    expect(formatMoney(123456, "USD")).toBe("$1,234.56");
    expect(formatMoney(2000, "EUR")).toBe("€20.00");
    expect(formatMoney(5, "GBP")).toBe("£0.05");
    expect(formatMoney(1200, "JPY")).toBe("¥1,200");
  });

  it("formats the API's decimal strings exactly, including ones no float can hold", () => {
    expect(formatMoney("120.5", "USD")).toBe("$120.50");
    expect(formatMoney(".5", "USD")).toBe("$0.50");
    expect(formatMoney("90071992547409931.07", "USD")).toBe("$90,071,992,547,409,931.07");
    expect(formatMoney(90071992547409931n, "USD")).toBe("$900,719,925,474,099.31");
  });

  it("writes negatives with a true minus sign (U+2212) before the symbol", () => {
    expect(formatMoney(-2000, "EUR")).toBe("−€20.00");
    expect(formatMoney("-20", "EUR").startsWith(MINUS_SIGN)).toBe(true);
    expect(formatMoney("-20", "EUR")).not.toContain("-");
  });

  it("signs both ways on request, and leaves zero unsigned with exceptZero", () => {
    expect(formatMoney(500, "GBP", { signDisplay: "always" })).toBe("+£5.00");
    expect(formatMoney(-500, "GBP", { signDisplay: "exceptZero" })).toBe("−£5.00");
    expect(formatMoney(0, "GBP", { signDisplay: "exceptZero" })).toBe("£0.00");
  });

  it("shows an empty or unreadable figure as zero, never '-'", () => {
    expect(formatMoney(null, "USD")).toBe("$0.00");
    expect(formatMoney(undefined, "USD")).toBe("$0.00");
    expect(formatMoney("", "USD")).toBe("$0.00");
    expect(formatMoney("abc", "USD")).toBe("$0.00");
  });
});

describe("formatMoneyCompact", () => {
  it("shortens large axis figures and keeps small ones exact", () => {
    expect(formatMoneyCompact(150_000, "USD")).toBe("$1.5K");
    expect(formatMoneyCompact(25, "EUR")).toBe("€0.25");
    expect(formatMoneyCompact(-200_000_000, "GBP")).toBe("−£2M");
    expect(formatMoneyCompact(0, "USD")).toBe("$0");
  });
});

describe("minor units and signs", () => {
  it("converts minor units to the exact decimal string for the currency's decimals", () => {
    expect(currencyDecimals("USD")).toBe(2);
    expect(currencyDecimals("JPY")).toBe(0);
    expect(minorToDecimal(5, "USD")).toBe("0.05");
    expect(minorToDecimal(-123450, "USD")).toBe("-1234.50");
    expect(minorToDecimal(1200, "JPY")).toBe("1200");
  });

  it("reads the sign of an amount without float maths", () => {
    expect(moneySign("-0.00", "USD")).toBe(0);
    expect(moneySign("0.01", "USD")).toBe(1);
    expect(moneySign(-1, "USD")).toBe(-1);
    expect(moneySign(null, "USD")).toBe(0);
  });
});
