/**
 * The entries of the top navigation (docs/product/session.md#top-navigation); desktop and mobile
 * menus render the same data.
 */

export type NavEntry =
  | { kind: "link"; label: string; to: string; description?: string }
  /** Shown dimmed with no target: features announced but not available. */
  | { kind: "inert"; label: string; description?: string }
  | { kind: "submenu"; id: NavSubmenuId; label: string; description?: string; entries: NavEntry[] };

export type NavMenuId = "platform" | "developers" | "user";
export type NavSubmenuId = "kyc" | "operations";

export const platformEntries: NavEntry[] = [
  { kind: "link", label: "Core Ledger", to: "/ledger", description: "Double-entry, multi-currency accounts" },
  {
    kind: "submenu",
    id: "kyc",
    label: "KYC & Compliance",
    description: "Identity verification and review",
    entries: [
      { kind: "link", label: "KYC Verification", to: "/kyc" },
      { kind: "link", label: "KYC Dashboard", to: "/kyc/dashboard" },
    ],
  },
  { kind: "link", label: "Payment Rails", to: "/payment-rails", description: "UPI, SEPA and crypto orchestration" },
  { kind: "link", label: "Treasury & FX", to: "/treasury", description: "Rates, quotes and currency positions" },
  {
    kind: "submenu",
    id: "operations",
    label: "Operations",
    description: "Reconciliation, compliance and the ops console",
    entries: [
      { kind: "link", label: "Reconciliation", to: "/reconciliation" },
      { kind: "link", label: "Compliance Reports", to: "/compliance" },
      { kind: "link", label: "Ops Console", to: "/ops" },
    ],
  },
  {
    kind: "link",
    label: "Analytics & Insights",
    to: "/ledger?tab=analytics",
    description: "Volumes and balances over time",
  },
];

export const developerEntries: NavEntry[] = [
  { kind: "link", label: "Explore API", to: "/developers/api-explorer", description: "Browse and try every endpoint" },
  { kind: "link", label: "gRPC Streaming Demo", to: "/grpc-demo", description: "Live payment events" },
  { kind: "link", label: "View Documentation", to: "/developers/docs", description: "Guides and reference" },
  { kind: "link", label: "API keys", to: "/developers/api-keys", description: "Keys for your scripts and servers" },
  {
    kind: "link",
    label: "Webhooks",
    to: "/developers/webhooks",
    description: "Signed event deliveries to your server",
  },
  {
    kind: "link",
    label: "Quick Start",
    to: "/developers/quickstart",
    description: "From a new account to a first transfer",
  },
  {
    kind: "link",
    label: "SDKs & Libraries",
    to: "/developers/docs#getting-started",
    description: "The typed TypeScript SDK",
  },
];

export const topLinks = [
  { label: "Status", to: "/status" },
  { label: "About the Creator", to: "/about" },
] as const;

/** The signed-in user's menu: the account settings and their sections (account/SettingsScreen.tsx). */
export const accountLinks = [
  { label: "Account Settings", to: "/settings" },
  { label: "Password & Sessions", to: "/settings#password" },
  { label: "API Keys", to: "/settings#api-keys" },
] as const;
