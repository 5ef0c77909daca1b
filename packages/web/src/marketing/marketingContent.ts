/**
 * MARKETING CONTENT AND SAMPLE DATA: the single source of the copy, product tiles, feature cards,
 * gallery slides, figures and sample transactions of the Home (/) and Landing (/landing) pages.
 *
 * docs/product/marketing-site.md#claims-and-sample-data: "Much of the data on marketing, analytics
 * and demo screens is hard-coded sample data, not real." Everything here is static marketing text
 * or sample data, and the screens label the sample data as such. The only live figures on these
 * pages (backend and database health) come from GET /health, not from this file.
 */

import type { GlyphName } from "./art/glyphs";

export type ArtName = "stream" | "globe" | "rails" | "ledger" | "review" | "console";

// ---------------------------------------------------------------------------------------------
// Home hero

export const homeHero = {
  eyebrow: "Enterprise fintech infrastructure",
  /** Also the document's only h1 on /. */
  title: "Build production-ready fintech applications",
  lead:
    "A double-entry core ledger, payment orchestration over UPI, SEPA and crypto rails, KYC and risk, " +
    "and a dual gRPC and REST API surface, set up with one command.",
  primary: "Start Building",
  secondary: "View Documentation",
  tilesHint: "Scroll to explore the fourteen product areas",
} as const;

export interface ProductTile {
  title: string;
  blurb: string;
  /**
   * The live screen the tile opens (a route of routeTable, with a guide's hash where one fits), or
   * null for a product area that has no screen yet: that tile is shown as planned and does nothing.
   */
  to: string | null;
  glyph: GlyphName;
  /** Two Tailwind gradient stops for the thumbnail. */
  tint: string;
}

/**
 * The fourteen hero tiles, in the order of docs/product/marketing-site.md#product-tiles; each opens
 * its area's screen or says it is planned.
 */
export const productTiles: readonly ProductTile[] = [
  {
    title: "Core Ledger",
    blurb: "Double entry, multi-currency",
    to: "/ledger",
    glyph: "ledger",
    tint: "from-indigo-500 to-violet-600",
  },
  {
    title: "Payment Orchestration",
    blurb: "UPI, SEPA and crypto rails",
    to: "/payments",
    glyph: "payments",
    tint: "from-sky-500 to-indigo-600",
  },
  {
    title: "Smart Routing",
    blurb: "Cost and SLA optimiser",
    to: "/payment-rails",
    glyph: "routing",
    tint: "from-teal-500 to-sky-600",
  },
  {
    title: "KYC & Risk",
    blurb: "Identity checks, risk stub",
    to: "/kyc",
    glyph: "kyc",
    tint: "from-emerald-500 to-teal-600",
  },
  {
    title: "Reconciliation",
    blurb: "Nightly settlement import",
    to: "/reconciliation",
    glyph: "reconciliation",
    tint: "from-lime-600 to-emerald-600",
  },
  {
    title: "Compliance Reports",
    blurb: "SAR/CTR, GST, PDF and CSV",
    to: "/compliance",
    glyph: "compliance",
    tint: "from-amber-500 to-orange-600",
  },
  {
    title: "Treasury & FX",
    blurb: "Daily rates, quotes, spreads",
    to: "/treasury",
    glyph: "treasury",
    tint: "from-orange-500 to-rose-600",
  },
  {
    title: "Webhooks & SDKs",
    blurb: "Signed, retried, generated",
    to: "/developers/webhooks",
    glyph: "webhooks",
    tint: "from-rose-500 to-pink-600",
  },
  {
    title: "Dual API Surface",
    blurb: "gRPC plus a REST mirror",
    to: "/developers/api-explorer",
    glyph: "api",
    tint: "from-pink-500 to-fuchsia-600",
  },
  {
    title: "Ops Console",
    blurb: "Live tables and updates",
    to: "/ops",
    glyph: "ops",
    tint: "from-fuchsia-500 to-purple-600",
  },
  {
    title: "Observability",
    blurb: "Structured logs, metrics",
    to: "/status",
    glyph: "monitoring",
    tint: "from-purple-500 to-indigo-600",
  },
  {
    title: "Security Basics",
    blurb: "Rate limits, CSRF, hashing",
    to: "/developers/docs#authentication",
    glyph: "security",
    tint: "from-slate-500 to-slate-700",
  },
  {
    title: "One-Command Setup",
    blurb: "Local stack in one step",
    to: "/developers/quickstart",
    glyph: "terminal",
    tint: "from-cyan-500 to-blue-600",
  },
  {
    title: "Clean Code & Docs",
    blurb: "Typed, tested, documented",
    to: "/developers/docs",
    glyph: "docs",
    tint: "from-blue-500 to-indigo-700",
  },
];

// ---------------------------------------------------------------------------------------------
// Features section (12 cards; six open a screen, six describe only)

export interface FeatureCard {
  title: string;
  description: string;
  glyph: GlyphName;
  /**
   * Cards with an action navigate on click; the others are descriptive only
   * (docs/product/marketing-site.md#home-page).
   */
  action?: { to: string; label: string };
}

export const featuresIntro = {
  eyebrow: "Platform",
  title: "Everything a fintech product needs",
  lead: "Twelve building blocks, from the journal to the ops console. Six open a screen; the ones marked Coming soon show what is planned.",
} as const;

export const featureCards: readonly FeatureCard[] = [
  {
    title: "Core Ledger",
    description: "Double-entry, multi-currency accounts with idempotent journal posting and point-in-time balances.",
    glyph: "ledger",
    action: { to: "/ledger", label: "Open the ledger" },
  },
  {
    title: "Payment Orchestration",
    description: "UPI, SEPA and crypto rails with an asynchronous status lifecycle and real-time updates.",
    glyph: "payments",
    action: { to: "/payment-rails", label: "Open payment rails" },
  },
  {
    title: "KYC & Risk Engine",
    description: "Synthetic profiles, hot-reload policy rules and KYC flows for 220+ countries.",
    glyph: "kyc",
    action: { to: "/kyc", label: "Start a KYC check" },
  },
  {
    title: "gRPC Streaming",
    description:
      "Server-Sent Events with JSON behind gRPC-style URLs, plus a REST mirror, with a live stream of payment events.",
    glyph: "stream",
    action: { to: "/grpc-demo", label: "Watch the stream" },
  },
  {
    title: "Self-Serve APIs",
    description: "HMAC-signed webhooks with retries and generated SDKs for Go and TypeScript.",
    glyph: "api",
    action: { to: "/developers/api-explorer", label: "Explore the API" },
  },
  {
    title: "Security & Observability",
    description: "Rate limiting, CSRF protection, structured logs and metrics, with a live status page.",
    glyph: "security",
    action: { to: "/status", label: "View system status" },
  },
  {
    title: "Reconciliation",
    description: "Nightly settlement CSV import with variance flagging against the ledger.",
    glyph: "reconciliation",
    action: { to: "/reconciliation", label: "Open reconciliation" },
  },
  {
    title: "Treasury & FX",
    description: "Daily rates and configurable spreads, with the FX margin booked to revenue.",
    glyph: "treasury",
    action: { to: "/treasury", label: "Open treasury" },
  },
  {
    title: "Ops Console",
    description: "Live tables with server-sent updates and analytics for the operations team.",
    glyph: "ops",
    action: { to: "/ops", label: "Open the ops console" },
  },
  {
    title: "Routing",
    description: "A smart routing optimiser with cost and SLA analysis and savings per transaction.",
    glyph: "routing",
  },
  {
    title: "Compliance Reporting",
    description: "SAR/CTR and GST reports with PDF and CSV export.",
    glyph: "compliance",
    action: { to: "/compliance", label: "Open compliance reports" },
  },
  {
    title: "Setup",
    description: "One command starts the API, the database and the web app on your machine.",
    glyph: "terminal",
  },
];

// ---------------------------------------------------------------------------------------------
// Galleries (6 slides; the showcase auto-advances, the demo gallery has arrows and tabs)

export interface GallerySlide {
  title: string;
  to: string;
  category: string;
  summary: string;
  description: string;
  chips: readonly string[];
  art: ArtName;
}

export const showcaseIntro = {
  eyebrow: "Showcase",
  title: "See the platform at work",
} as const;

export const galleryIntro = {
  eyebrow: "Demo gallery",
  title: "Try every demo",
  lead: "Pick a demo and read what it does. Demos marked Coming soon open a preview of what is planned.",
} as const;

export const gallerySlides: readonly GallerySlide[] = [
  {
    title: "gRPC Live Streaming",
    to: "/grpc-demo",
    category: "Real-time",
    summary: "Payment, risk and reconciliation events as they happen.",
    description:
      "Connect to the event stream and watch payments move through their lifecycle, with a webhook debugger and a connection test.",
    chips: ["Event stream", "Payment monitor", "Webhook debug"],
    art: "stream",
  },
  {
    title: "KYC over 220+ countries",
    to: "/kyc",
    category: "Identity",
    summary: "A five-step verification wizard with document upload.",
    description:
      "Choose a country, upload an identity document, verify Aadhaar and PAN numbers and finish, with progress shown at every step.",
    chips: ["Document upload", "Aadhaar & PAN", "Risk levels"],
    art: "globe",
  },
  {
    title: "Payment Orchestration Dashboard",
    to: "/payment-rails",
    category: "Payments",
    summary: "Six rails, a cost simulator and smart routing.",
    description:
      "Compare ACH, Wire, Card, SWIFT, SEPA and crypto rails by cost, success rate and speed, and simulate what a payment would cost on each.",
    chips: ["Six rails", "Cost simulator", "Settlement files"],
    art: "rails",
  },
  {
    title: "Core Ledger",
    to: "/ledger",
    category: "Ledger",
    summary: "Accounts, transfers and deposits on a double-entry journal.",
    description:
      "Connect accounts, transfer funds and make deposits; every journal is balanced per currency and every balance has its history.",
    chips: ["Double entry", "Multi-currency", "Idempotent posting"],
    art: "ledger",
  },
  {
    title: "KYC & Compliance Dashboard",
    to: "/kyc/dashboard",
    category: "Compliance",
    summary: "Review, approve or reject submissions.",
    description:
      "Search and filter submissions, open a customer's risk assessment and documents, and approve or reject with notes.",
    chips: ["Review queue", "Risk scores", "Approve / reject"],
    art: "review",
  },
  {
    title: "Developer Console",
    to: "/developers/api-explorer",
    category: "Tooling",
    summary: "Every endpoint with request, response and curl.",
    description:
      "Browse the API by category, with request bodies, response examples and a ready-to-run curl command for each endpoint.",
    chips: ["Endpoint catalogue", "curl samples", "Copy-ready bodies"],
    art: "console",
  },
];

/** Gallery auto-advance (docs/product/marketing-site.md#constants). */
export const GALLERY_INTERVAL_MS = 5000;

/**
 * Summary tiles under the gallery (docs/product/marketing-site.md#claims-and-sample-data,
 * docs/product/marketing-site.md#home-page).
 */
export const summaryStats = [
  { value: "14", label: "Core domains" },
  { value: "80%", label: "Test coverage" },
  { value: "3", label: "Payment rails" },
  { value: "1-CMD", label: "Setup" },
] as const;

// ---------------------------------------------------------------------------------------------
// Analytics showcase

export const analyticsIntro = {
  eyebrow: "Analytics",
  title: "Operations at a glance",
  lead: "The health panel is live from this deployment's API; the other figures are sample data.",
} as const;

export const analyticsTiles = [
  { label: "Total volume", value: "$2.4M", change: "+12.5% vs last week" },
  { label: "Transactions", value: "18,429", change: "+8.3% vs last week" },
  { label: "Success rate", value: "99.2%", change: "+0.4 pts" },
  { label: "Avg. settlement", value: "1.2 s", change: "-0.3 s" },
] as const;

export type SampleStatus = "completed" | "pending" | "failed";

export interface SampleTransaction {
  id: string;
  counterparty: string;
  rail: string;
  /** Integer minor units; negative for money out. */
  amountMinor: number;
  currency: string;
  status: SampleStatus;
  when: string;
}

/** Four sample recent transactions (docs/product/marketing-site.md#home-page): sample data, never sent anywhere. */
export const sampleTransactions: readonly SampleTransaction[] = [
  {
    id: "txn_sample_01",
    counterparty: "Acme Manufacturing",
    rail: "Wire",
    amountMinor: -1250000,
    currency: "USD",
    status: "completed",
    when: "2 min ago",
  },
  {
    id: "txn_sample_02",
    counterparty: "Berlin Logistics GmbH",
    rail: "SEPA",
    amountMinor: 324050,
    currency: "EUR",
    status: "pending",
    when: "14 min ago",
  },
  {
    id: "txn_sample_03",
    counterparty: "Northwind Retail",
    rail: "Card",
    amountMinor: 8999,
    currency: "USD",
    status: "completed",
    when: "38 min ago",
  },
  {
    id: "txn_sample_04",
    counterparty: "Thames Capital Ltd",
    rail: "SWIFT",
    amountMinor: -540000,
    currency: "GBP",
    status: "failed",
    when: "1 h ago",
  },
];

/** Seed of the 24-bar sample chart, so its "random" bars are the same on every render. */
export const CHART_SEED = 20240917;

export const chartPeriods = ["24H", "7D", "30D"] as const;

// ---------------------------------------------------------------------------------------------
// Landing page (/landing)

export const landingHero = {
  eyebrow: "Fintech infrastructure platform",
  title: "The banking core your product deserves",
  lead:
    "Core banking, payment processing, KYC and real-time analytics on one platform, " +
    "with bank-grade security from the first commit.",
  tryDemo: "Try Live Demo",
  startBuilding: "Start Building Now",
  viewDocs: "View Documentation",
  scheduleDemo: "Schedule Demo",
  /** Both hero links lead here (docs/product/marketing-site.md#landing-page). */
  to: "/ledger",
  /** The documentation is built, so View Documentation is a link; only demo scheduling is not. */
  docsTo: "/developers/docs",
  comingSoon: "Demo scheduling is coming soon.",
} as const;

/** Landing stats (docs/product/marketing-site.md#claims-and-sample-data): marketing claims, static. */
export const landingStats = [
  { value: "10M+", label: "Transactions" },
  { value: "500+", label: "Institutions" },
  { value: "99.99%", label: "Uptime" },
  { value: "50+", label: "Countries" },
] as const;

export interface LandingBlock {
  title: string;
  description: string;
  points: readonly string[];
  glyph: GlyphName;
}

export const landingBlocksIntro = {
  eyebrow: "Why teams choose us",
  title: "Built for regulated money movement",
} as const;

export const landingBlocks: readonly LandingBlock[] = [
  {
    title: "Bank-grade security",
    description: "Memory-hard password hashing, signed expiring tokens and rate limits on every sign-in.",
    points: ["Encrypted document storage", "Security headers and CORS", "Audit trail from the outbox"],
    glyph: "security",
  },
  {
    title: "Real-time analytics",
    description: "Live event streams and dashboards show money as it moves, not the next morning.",
    points: ["Server-sent event feeds", "Throughput monitoring", "Variance flagging"],
    glyph: "analytics",
  },
  {
    title: "Payment processing",
    description: "Route payments over UPI, SEPA and crypto rails with an asynchronous lifecycle.",
    points: ["Smart rail selection", "Cost simulation", "Signed webhooks with retry"],
    glyph: "payments",
  },
  {
    title: "Core banking",
    description: "A double-entry ledger with multi-currency accounts and idempotent postings.",
    points: ["Balanced journals", "Point-in-time balances", "Approve and unpost flows"],
    glyph: "bank",
  },
  {
    title: "Global reach",
    description: "Serve customers across borders with multi-currency accounts and FX.",
    points: ["USD, EUR and GBP accounts", "Daily FX rates and spreads", "KYC for 220+ countries"],
    glyph: "globe",
  },
  {
    title: "User management",
    description: "Role-based access control and KYC integration for every customer and reviewer.",
    points: ["User and admin roles", "KYC review workflow", "Owner-scoped data access"],
    glyph: "users",
  },
];

export const landingClosing = {
  title: "Ready to build?",
  lead: "Open the ledger workspace and post your first balanced journal in minutes.",
} as const;

/** A landing footer entry: a link to the built screen it names, or plain text while there is none. */
export interface LandingFooterItem {
  label: string;
  to?: string;
}

/** The landing page's own footer strip (docs/product/marketing-site.md#landing-page). */
export const landingFooterColumns: readonly { title: string; items: readonly LandingFooterItem[] }[] = [
  {
    title: "Product",
    items: [
      { label: "Core Banking", to: "/ledger" },
      { label: "Payments", to: "/payments" },
      { label: "KYC", to: "/kyc" },
      { label: "Analytics", to: "/ledger?tab=analytics" },
    ],
  },
  {
    title: "Developers",
    items: [
      { label: "Documentation", to: "/developers/docs" },
      { label: "API Reference", to: "/developers/api-explorer" },
      { label: "SDKs", to: "/developers/docs#getting-started" },
      { label: "Status", to: "/status" },
    ],
  },
  {
    title: "Company",
    items: [{ label: "About", to: "/about" }, { label: "Careers" }, { label: "Contact" }, { label: "Press" }],
  },
];
