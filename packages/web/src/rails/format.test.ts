import { describe, expect, it } from "vitest";
import { errorRateBand } from "@fintech/core/rails/cost-bands";
import { changeLines, errorBarPercent, fractionAsPercent, percentText, secondsText, timeBarPercent } from "./format";

describe("rails console presentation (docs/product/payment-rails.md#colour-bands)", () => {
  it("error-rate bar (core's band): under 1 green, under 5 yellow, otherwise red", () => {
    expect(errorRateBand(0)).toBe("green");
    expect(errorRateBand(0.99)).toBe("green");
    expect(errorRateBand(1)).toBe("yellow");
    expect(errorRateBand(4.99)).toBe("yellow");
    expect(errorRateBand(5)).toBe("red");
    expect(errorRateBand(40)).toBe("red");
  });

  it("time bar is the average time out of 3 s, clamped", () => {
    expect(timeBarPercent(1.5)).toBe(50);
    expect(timeBarPercent(3)).toBe(100);
    expect(timeBarPercent(6)).toBe(100);
    expect(timeBarPercent(0)).toBe(0);
    expect(timeBarPercent(-1)).toBe(0);
    expect(timeBarPercent(Number.NaN)).toBe(0);
    expect(timeBarPercent(0.3)).toBeCloseTo(10, 10);
  });

  it("error bar is the error rate in percent, clamped", () => {
    expect(errorBarPercent(1.5)).toBe(1.5);
    expect(errorBarPercent(150)).toBe(100);
    expect(errorBarPercent(-2)).toBe(0);
  });

  it("fractions show as percentages without float noise", () => {
    expect(fractionAsPercent(0.01)).toBe("1%");
    expect(fractionAsPercent(0.005)).toBe("0.5%");
    expect(fractionAsPercent(0.008)).toBe("0.8%");
    expect(fractionAsPercent(0.05)).toBe("5%");
    expect(fractionAsPercent(0.00125)).toBe("0.125%");
    expect(fractionAsPercent(0.07)).toBe("7%");
    expect(fractionAsPercent(0)).toBe("0%");
  });

  it("percent and seconds texts", () => {
    expect(percentText(98.5)).toBe("98.5");
    expect(percentText(99.8)).toBe("99.8");
    expect(percentText(100 / 3)).toBe("33.33");
    expect(percentText(Number.POSITIVE_INFINITY)).toBe("0");
    expect(secondsText(1.2)).toBe("1.2 s");
    expect(secondsText(0.1)).toBe("0.1 s");
  });
});

describe("a recorded rail change as text", () => {
  it("reads stored units as the form shows them, without the cents twin of the fixed fee", () => {
    expect(
      changeLines({
        before: {
          fxSpread: 0.05,
          fixedFee: "0.20",
          fixedFeeMinor: 20,
          errorInjection: 0,
          status: "active",
          slaTarget: 99.9,
        },
        after: {
          fxSpread: 0.045,
          fixedFee: "0.25",
          fixedFeeMinor: 25,
          errorInjection: 0.025,
          status: "down",
          slaTarget: 99.5,
        },
      }),
    ).toEqual([
      "FX spread 5% → 4.5%",
      "Fixed fee $0.20 → $0.25",
      "Error injection 0% → 2.5%",
      "Status active → down",
      "SLA target 99.9% → 99.5%",
    ]);
    expect(changeLines({ before: { colour: "red" }, after: { colour: "blue" } })).toEqual(["colour red → blue"]);
  });
});
