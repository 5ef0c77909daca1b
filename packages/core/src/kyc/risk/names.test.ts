import { describe, expect, it } from "vitest";
import { jaroWinkler, nameSimilarity, normaliseName, sortedTokens } from "./names";

describe("Jaro-Winkler", () => {
  // Winkler's published vectors (prefix scale 0.1, prefix up to 4).
  it.each([
    ["MARTHA", "MARHTA", 0.961],
    ["DWAYNE", "DUANE", 0.84],
    ["DIXON", "DICKSONX", 0.813],
  ])("%s / %s = %d", (a, b, expected) => {
    expect(jaroWinkler(a, b)).toBeCloseTo(expected, 3);
    expect(jaroWinkler(b, a)).toBeCloseTo(expected, 3);
  });

  it("is 1 for equal strings and 0 for strings with nothing in common", () => {
    expect(jaroWinkler("ASHA", "ASHA")).toBe(1);
    expect(jaroWinkler("ABC", "XYZ")).toBe(0);
  });
});

describe("names", () => {
  it("normalises case, accents, punctuation and honorifics", () => {
    expect(normaliseName("  Dr. José  O'Neil-Álvarez ")).toBe("JOSE O NEIL ALVAREZ");
    expect(normaliseName("Mr Müller")).toBe("MULLER");
    expect(normaliseName("...")).toBe("");
  });

  it("ignores the order of a name's parts", () => {
    expect(sortedTokens("KIM JONG UN")).toBe("JONG KIM UN");
    expect(nameSimilarity("Kim Jong Un", "Jong Un Kim")).toBe(1);
    expect(nameSimilarity("SMITH, John", "john smith")).toBe(1);
  });

  it("scores spelling variants high and different people low", () => {
    expect(nameSimilarity("Vladimir Putin", "Vladimir Poutine")).toBeGreaterThan(0.92);
    expect(nameSimilarity("Mohammed Ali", "Muhammad Ali")).toBeGreaterThan(0.85);
    expect(nameSimilarity("Asha Rao", "Test User")).toBeLessThan(0.6);
    expect(nameSimilarity("", "Test User")).toBe(0);
  });
});
