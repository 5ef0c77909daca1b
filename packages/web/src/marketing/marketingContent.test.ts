import { describe, expect, it } from "vitest";
import { isLiveScreen, routeMeta } from "../routes/routeMeta";
import {
  featureCards,
  gallerySlides,
  GALLERY_INTERVAL_MS,
  landingBlocks,
  landingFooterColumns,
  landingHero,
  landingStats,
  productTiles,
  sampleTransactions,
  summaryStats,
} from "./marketingContent";

const routes = new Set<string>(routeMeta.map((entry) => entry.path));

describe("home content (docs/product/marketing-site.md#home-page, docs/product/marketing-site.md#product-tiles)", () => {
  it("has the fourteen tiles in the documented order, each opening a live screen or marked as planned", () => {
    expect(productTiles.map((tile) => [tile.title, tile.to])).toEqual([
      ["Core Ledger", "/ledger"],
      ["Payment Orchestration", "/payments"],
      ["Smart Routing", "/payment-rails"],
      ["KYC & Risk", "/kyc"],
      ["Reconciliation", "/reconciliation"],
      ["Compliance Reports", "/compliance"],
      ["Treasury & FX", "/treasury"],
      ["Webhooks & SDKs", "/developers/webhooks"],
      ["Dual API Surface", "/developers/api-explorer"],
      ["Ops Console", "/ops"],
      ["Observability", "/status"],
      ["Security Basics", "/developers/docs#authentication"],
      ["One-Command Setup", "/developers/quickstart"],
      ["Clean Code & Docs", "/developers/docs"],
    ]);
    for (const tile of productTiles) {
      if (tile.to) expect(isLiveScreen(new URL(tile.to, "http://app.test").pathname), tile.to).toBe(true);
    }
  });

  it("has twelve features; exactly the ten with actions navigate, each to a real route", () => {
    expect(featureCards).toHaveLength(12);
    const actions = featureCards.filter((card) => card.action).map((card) => card.action!.to);
    expect(actions).toEqual([
      "/ledger",
      "/payment-rails",
      "/kyc",
      "/grpc-demo",
      "/developers/api-explorer",
      "/status",
      "/reconciliation",
      "/treasury",
      "/ops",
      "/compliance",
    ]);
    for (const to of actions) expect(routes.has(to)).toBe(true);
    expect(featureCards.filter((card) => !card.action).map((card) => card.title)).toEqual(["Routing", "Setup"]);
  });

  it("has the six gallery slides with their routes, every one a real route", () => {
    expect(gallerySlides.map((slide) => [slide.title, slide.to])).toEqual([
      ["gRPC Live Streaming", "/grpc-demo"],
      ["KYC over 220+ countries", "/kyc"],
      ["Payment Orchestration Dashboard", "/payment-rails"],
      ["Core Ledger", "/ledger"],
      ["KYC & Compliance Dashboard", "/kyc/dashboard"],
      ["Developer Console", "/developers/api-explorer"],
    ]);
    for (const slide of gallerySlides) {
      expect(routes.has(slide.to)).toBe(true);
      expect(slide.chips.length).toBeGreaterThan(0);
      expect(slide.category).not.toBe("");
    }
    expect(GALLERY_INTERVAL_MS).toBe(5000);
  });

  it("has the summary figures", () => {
    expect(summaryStats.map((stat) => `${stat.value} ${stat.label}`)).toEqual([
      "14 Core domains",
      "80% Test coverage",
      "3 Payment rails",
      "1-CMD Setup",
    ]);
  });

  it("has four sample transactions in integer minor units", () => {
    expect(sampleTransactions).toHaveLength(4);
    for (const txn of sampleTransactions) expect(Number.isSafeInteger(txn.amountMinor)).toBe(true);
    expect(new Set(sampleTransactions.map((txn) => txn.id)).size).toBe(4);
  });
});

describe("landing content (docs/product/marketing-site.md#landing-page)", () => {
  it("links both hero calls to action to /ledger and has the stats and six blocks", () => {
    expect(landingHero.to).toBe("/ledger");
    expect(routes.has(landingHero.to)).toBe(true);
    expect(landingStats.map((stat) => stat.value)).toEqual(["10M+", "500+", "99.99%", "50+"]);
    expect(landingBlocks.map((block) => block.title)).toEqual([
      "Bank-grade security",
      "Real-time analytics",
      "Payment processing",
      "Core banking",
      "Global reach",
      "User management",
    ]);
    const users = landingBlocks.find((block) => block.title === "User management")!;
    expect(isLiveScreen(landingHero.docsTo)).toBe(true);
    expect(users.description).toMatch(/role-based access/i);
    expect(users.description).toMatch(/KYC/);
  });
});

describe("landing footer", () => {
  it("links every entry that names a built screen, and only those", () => {
    const items = landingFooterColumns.flatMap((column) => column.items);
    expect(items.filter((item) => item.to).map((item) => item.label)).toEqual([
      "Core Banking",
      "Payments",
      "KYC",
      "Analytics",
      "Documentation",
      "API Reference",
      "SDKs",
      "Status",
      "About",
    ]);
    for (const item of items)
      if (item.to) expect(isLiveScreen(new URL(item.to, "http://app.test").pathname), item.to).toBe(true);
  });
});
