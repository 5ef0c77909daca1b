/** The entries of the top navigation (spec 000 §2.2); desktop and mobile menus render the same data. */

export type NavEntry =
  | { kind: "link"; label: string; to: string; description?: string }
  /** Shown dimmed with no target: features announced but not available. */
  | { kind: "inert"; label: string; description?: string }
  | { kind: "submenu"; id: NavSubmenuId; label: string; description?: string; entries: NavEntry[] };

export type NavMenuId = "platform" | "developers" | "user";
export type NavSubmenuId = "kyc";

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
  { kind: "inert", label: "Analytics & Insights", description: "Coming soon" },
];

export const developerEntries: NavEntry[] = [
  { kind: "link", label: "Explore API", to: "/developers/api-explorer", description: "Browse and try every endpoint" },
  { kind: "link", label: "gRPC Streaming Demo", to: "/grpc-demo", description: "Live payment events" },
  { kind: "link", label: "View Documentation", to: "/developers/docs", description: "Guides and reference" },
  { kind: "link", label: "API keys", to: "/developers/api-keys", description: "Keys for your scripts and servers" },
  { kind: "inert", label: "Quick Start", description: "Coming soon" },
  { kind: "inert", label: "SDKs & Libraries", description: "Coming soon" },
];

export const topLinks = [
  { label: "Status", to: "/status" },
  { label: "About the Creator", to: "/about" },
] as const;

/** The signed-in user's menu; Billing and Account Settings have no screen yet and fall back to home. */
export const accountLinks = [
  { label: "Profile Settings", to: "/profile" },
  { label: "Billing & Usage", to: "/billing" },
  { label: "Account Settings", to: "/settings" },
] as const;
