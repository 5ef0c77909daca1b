import { describe, expect, it } from "vitest";
import { examples, exampleSections } from "../examples/examples";
import { hubDestinations } from "../hub/destinations";
import { quickstart } from "../quickstart/quickstart";
import { CodeBlock, DocPage, environmentPrelude, inlineSegments, isCodeBlock, matchesSearch } from "./content";
import { guides } from "./guides";
import { routeMeta } from "../../routes/routeMeta";
import { readRepositoryUrl } from "./support";

const pages = [...guides, quickstart, examples];

describe("developer pages as data", () => {
  it("are the five guides of docs/product/developer-tools.md#documentation with their anchors, in order", () => {
    expect(guides.map((guide) => [guide.id, guide.title])).toEqual([
      ["getting-started", "Getting Started"],
      ["authentication", "Authentication"],
      ["ledger", "Ledger API"],
      ["payments", "Payment Processing"],
      ["realtime", "Real-time APIs"],
    ]);
  });

  it.each(pages.map((page) => [page.id, page] as const))(
    "%s is valid content (every not-runnable block says why)",
    (_id, page) => {
      expect(() => DocPage.parse(page)).not.toThrow();
    },
  );

  it("refuses a not-runnable block without a reason, and a reason on a runnable one", () => {
    expect(CodeBlock.safeParse({ kind: "code", language: "shell", code: "npm start", runnable: false }).success).toBe(
      false,
    );
    expect(
      CodeBlock.safeParse({ kind: "code", language: "shell", code: "ls", notRunnableBecause: "why" }).success,
    ).toBe(false);
    expect(
      CodeBlock.safeParse({
        kind: "code",
        language: "json",
        code: "{}",
        runnable: false,
        notRunnableBecause: "replies never run",
      }).success,
    ).toBe(false);
  });

  it("documents payments that work: create with an Idempotency-Key, follow to completed, the fee, rail and routing, payees", () => {
    const payments = guides.find((guide) => guide.id === "payments")!;
    const code = JSON.stringify(payments.content.filter(isCodeBlock));
    for (const call of [
      "/api/v1/rails/quote",
      "/v1/payments",
      "/v1/payments/$PAYMENT",
      "/v1/payments/stream",
      "Idempotency-Key",
      "forceRail",
      "toEmail",
      "beneficiary",
      "routing.reason",
    ]) {
      expect(code).toContain(call);
    }
    const text = JSON.stringify(payments.content);
    for (const fact of ["preferredRail", "completed", "failureReason", "voided", "hold is released"])
      expect(text).toContain(fact);
    expect(JSON.stringify(guides)).not.toMatch(/not built|payments themselves are not/i);
  });

  it("mentions the SDK's error codes, timeout and retries where the spec asks", () => {
    const text = JSON.stringify(guides.map((guide) => guide.content));
    for (const fact of ["INVALID_API_KEY", "NETWORK_ERROR", "30000 ms", "3 times", "24 hours"])
      expect(text).toContain(fact);
  });

  it("gives every example section of the examples page its anchored heading", () => {
    const anchors = examples.content.flatMap((block) => (block.kind === "heading" && block.id ? [block.id] : []));
    expect(anchors).toEqual(exampleSections.map((section) => section.id));
  });

  it("links the hub to every developer screen", () => {
    expect(hubDestinations.map((destination) => destination.to).sort()).toEqual(
      [
        "/developers/api-explorer",
        "/developers/api-keys",
        "/developers/docs",
        "/developers/examples",
        "/developers/quickstart",
        "/developers/webhooks",
      ].sort(),
    );
  });
});

describe("search", () => {
  it("matches title or description, case-insensitively; empty matches all", () => {
    const titles = (query: string) => guides.filter((guide) => matchesSearch(guide, query)).map((guide) => guide.title);
    expect(titles("LEDGER API")).toEqual(["Ledger API"]);
    expect(titles("ledger")).toEqual(["Ledger API", "Real-time APIs"]); // "the ledger event stream"
    expect(titles("idempotency")).toEqual(["Ledger API", "Payment Processing"]);
    expect(titles("last-event-id")).toEqual(["Real-time APIs"]);
    expect(titles("  ")).toHaveLength(5);
    expect(titles("kubernetes")).toEqual([]);
  });
});

describe("inline text", () => {
  it("splits code and links from text", () => {
    expect(inlineSegments("Send `Idempotency-Key` — see [Ledger API](/developers/docs#ledger).")).toEqual([
      { kind: "text", text: "Send " },
      { kind: "code", text: "Idempotency-Key" },
      { kind: "text", text: " — see " },
      { kind: "link", text: "Ledger API", href: "/developers/docs#ledger" },
      { kind: "text", text: "." },
    ]);
    expect(inlineSegments("plain")).toEqual([{ kind: "text", text: "plain" }]);
  });

  it("links only to pages that exist", () => {
    const routes = routeMeta.filter((route) => route.live).map((route) => route.path);
    const hrefs = pages.flatMap((page) =>
      page.content.flatMap((block) => {
        const texts = block.kind === "paragraph" ? [block.text] : block.kind === "list" ? block.items : [];
        return texts.flatMap((text) =>
          inlineSegments(text).flatMap((segment) => (segment.kind === "link" ? [segment.href] : [])),
        );
      }),
    );
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) {
      const [route, anchor] = href.split("#");
      expect(routes).toContain(route);
      if (anchor) expect(guides.map((guide) => guide.id)).toContain(anchor);
    }
  });
});

describe("before you start", () => {
  it("exports each variable the page needs, with what it is", () => {
    expect(environmentPrelude({ requires: ["BASE_URL", "API_KEY"] })).toBe(
      "export BASE_URL=http://localhost:3000  # where the API runs (npm start serves it here)\n" +
        "export API_KEY=fpk_...                 # an API key from /developers/api-keys",
    );
  });
});

describe("the code repository link", () => {
  it("takes only an absolute https address", () => {
    expect(readRepositoryUrl("https://github.com/example/fintech")).toBe("https://github.com/example/fintech");
    expect(readRepositoryUrl("javascript:alert(1)")).toBeNull();
    expect(readRepositoryUrl("http://example.com")).toBeNull();
    expect(readRepositoryUrl("")).toBeNull();
    expect(readRepositoryUrl(undefined)).toBeNull();
  });
});
