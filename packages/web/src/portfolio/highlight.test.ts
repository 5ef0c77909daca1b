import { describe, expect, it } from "vitest";
import { highlightSnippet } from "./highlight";
import { portfolioSnippet } from "./portfolioSeed";

describe("highlightSnippet", () => {
  it("marks keywords, property names, strings and literals", () => {
    expect(highlightSnippet('const a = { name: "Ada", ok: true };')).toEqual([
      { kind: "keyword", text: "const" },
      { kind: "plain", text: " a = { " },
      { kind: "property", text: "name" },
      { kind: "plain", text: ": " },
      { kind: "string", text: '"Ada"' },
      { kind: "plain", text: ", " },
      { kind: "property", text: "ok" },
      { kind: "plain", text: ": " },
      { kind: "literal", text: "true" },
      { kind: "plain", text: " };" },
    ]);
  });

  it("keeps every character of every prefix, in order (what the typing animation shows)", () => {
    for (let length = 0; length <= portfolioSnippet.length; length += 1) {
      const prefix = portfolioSnippet.slice(0, length);
      expect(
        highlightSnippet(prefix)
          .map((token) => token.text)
          .join(""),
      ).toBe(prefix);
    }
  });

  it("treats a string still being typed as a string", () => {
    expect(highlightSnippet('name: "Al')).toEqual([
      { kind: "property", text: "name" },
      { kind: "plain", text: ": " },
      { kind: "string", text: '"Al' },
    ]);
  });
});
