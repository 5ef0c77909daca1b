import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PUBLIC_DIR, publicPath, renderPortfolioDocuments } from "../../build/portfolioDocuments";
import { portfolioContact } from "./portfolioSeed";

describe("the portfolio's downloadable documents", () => {
  it("are PDFs the SPA serves, written from the seed module and up to date with it", async () => {
    const documents = await renderPortfolioDocuments();
    expect(documents.map(({ document }) => document.href)).toEqual([
      portfolioContact.resume.href,
      portfolioContact.paper.href,
    ]);
    for (const { document, bytes } of documents) {
      expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      const committed = readFileSync(publicPath(PUBLIC_DIR, document));
      // Fails after a change to portfolioSeed.ts: run `npm run portfolio:documents -w @fintech/web`.
      expect(committed.equals(bytes), `${document.href} is stale`).toBe(true);
    }
  });
});
