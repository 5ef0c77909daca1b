import type { ComponentType } from "react";

export type LayoutKind = "standard" | "header-only" | "none";

export interface RouteEntry {
  path: string;
  /** Document title of the screen. */
  title: string;
  /** Signed-in users only (the guard shows 'Authentication Required' otherwise). */
  guarded: boolean;
  layout: LayoutKind;
  /**
   * False while the screen is a PlaceholderScreen that says what is coming. Marketing copy reads
   * it, so no page calls a placeholder live; flip it in the change that builds the screen.
   */
  live: boolean;
  /** Each screen is its own chunk, so a visitor of /landing downloads only that screen. */
  load: () => Promise<{ default: ComponentType }>;
}

/** Spec 000 §2.1, plus the account settings and the pages mailed links lead to. Any other path redirects to / (see AppRoutes). */
export const routeTable: readonly RouteEntry[] = [
  { path: "/", title: "Home", guarded: false, layout: "standard", live: true, load: () => import("./HomePage") },
  {
    path: "/landing",
    title: "Welcome",
    guarded: false,
    layout: "header-only",
    live: true,
    load: () => import("./LandingPage"),
  },
  {
    path: "/status",
    title: "System Status",
    guarded: true,
    layout: "standard",
    live: true,
    load: () => import("./StatusPage"),
  },
  {
    path: "/ledger",
    title: "Ledger",
    guarded: true,
    layout: "standard",
    live: true,
    load: () => import("./LedgerPage"),
  },
  {
    path: "/kyc",
    title: "Know Your Customer",
    guarded: true,
    layout: "standard",
    live: true,
    load: () => import("./KycPage"),
  },
  {
    path: "/kyc/dashboard",
    title: "KYC Management",
    guarded: true,
    layout: "standard",
    live: true,
    load: () => import("./KycDashboardPage"),
  },
  {
    path: "/payments",
    title: "Payments",
    guarded: true,
    layout: "none",
    live: true,
    load: () => import("./PaymentsPage"),
  },
  {
    path: "/payments/send",
    title: "Send money",
    guarded: true,
    layout: "standard",
    live: true,
    load: () => import("./SendMoneyPage"),
  },
  {
    path: "/payments/:id",
    title: "Payment details",
    guarded: true,
    layout: "standard",
    live: true,
    load: () => import("./PaymentDetailPage"),
  },
  {
    path: "/payment-rails",
    title: "Payment Rails",
    guarded: true,
    layout: "standard",
    live: true,
    load: () => import("./PaymentRailsPage"),
  },
  {
    path: "/developers",
    title: "Developers",
    guarded: false,
    layout: "standard",
    live: true,
    load: () => import("./DevelopersPage"),
  },
  {
    path: "/developers/api-explorer",
    title: "API Explorer",
    guarded: false,
    layout: "standard",
    live: true,
    load: () => import("./ApiExplorerPage"),
  },
  {
    path: "/developers/quickstart",
    title: "Quickstart",
    guarded: false,
    layout: "standard",
    live: true,
    load: () => import("./QuickstartPage"),
  },
  {
    path: "/developers/examples",
    title: "Examples",
    guarded: false,
    layout: "standard",
    live: true,
    load: () => import("./ExamplesPage"),
  },
  {
    path: "/developers/api-keys",
    title: "API keys",
    guarded: true,
    layout: "standard",
    live: true,
    load: () => import("./ApiKeysPage"),
  },
  {
    path: "/developers/docs",
    title: "Documentation",
    guarded: false,
    layout: "standard",
    live: true,
    load: () => import("./DocsPage"),
  },
  {
    path: "/grpc-demo",
    title: "gRPC Streaming Demo",
    guarded: false,
    layout: "standard",
    live: false,
    load: () => import("./GrpcDemoPage"),
  },
  {
    path: "/grpc-test",
    title: "gRPC Test Suite",
    guarded: false,
    layout: "standard",
    live: false,
    load: () => import("./GrpcTestPage"),
  },
  {
    path: "/router-test",
    title: "Router Test",
    guarded: false,
    layout: "standard",
    live: true,
    load: () => import("./RouterTestPage"),
  },
  {
    path: "/about",
    title: "About the Creator",
    guarded: false,
    layout: "standard",
    live: true,
    load: () => import("./AboutPage"),
  },
  {
    path: "/profile",
    title: "Account settings",
    guarded: true,
    layout: "standard",
    live: true,
    load: () => import("./ProfilePage"),
  },
  {
    path: "/confirm-email",
    title: "Confirm your email",
    guarded: false,
    layout: "standard",
    live: true,
    load: () => import("./ConfirmEmailPage"),
  },
  {
    path: "/settings",
    title: "Account settings",
    guarded: true,
    layout: "standard",
    live: true,
    load: () => import("./SettingsPage"),
  },
  {
    path: "/reset-password",
    title: "Reset your password",
    guarded: false,
    layout: "standard",
    live: true,
    load: () => import("./ResetPasswordPage"),
  },
  {
    path: "/verify-email",
    title: "Verify your email",
    guarded: false,
    layout: "standard",
    live: true,
    load: () => import("./VerifyEmailPage"),
  },
];

/** Whether the route's screen is built (not a coming-soon placeholder); unknown paths are not. */
export function isLiveScreen(path: string): boolean {
  return routeTable.find((entry) => entry.path === path)?.live ?? false;
}
