import { describe, expect, it } from "vitest";
import { checkNewsletterEmail, NEWSLETTER_MESSAGES } from "./newsletter";

describe("checkNewsletterEmail", () => {
  it("accepts an ordinary address, trimmed", () => {
    expect(checkNewsletterEmail("  ada@example.com ")).toEqual({ ok: true, email: "ada@example.com" });
    expect(checkNewsletterEmail("a.b+c@mail.example.co.uk")).toEqual({ ok: true, email: "a.b+c@mail.example.co.uk" });
  });

  it("asks for an address when empty", () => {
    expect(checkNewsletterEmail("   ")).toEqual({ ok: false, message: NEWSLETTER_MESSAGES.empty });
  });

  it("rejects malformed addresses", () => {
    for (const bad of [
      "ada",
      "ada@",
      "@example.com",
      "ada@example",
      "ada@@example.com",
      "a da@example.com",
      "ada@example..com",
      `${"a".repeat(250)}@example.com`,
    ]) {
      expect(checkNewsletterEmail(bad)).toEqual({ ok: false, message: NEWSLETTER_MESSAGES.invalid });
    }
  });
});
