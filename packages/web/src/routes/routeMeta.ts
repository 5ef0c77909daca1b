/**
 * What the app knows about each screen without loading it: path, title, guard, layout and whether
 * it is built. Marketing sections read it (isLiveScreen), so it must not import any screen; the
 * lazy loaders live in routeTable.ts.
 */

export type LayoutKind = "standard" | "header-only" | "none";

export interface RouteMeta {
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
}

/**
 * docs/product/README.md#routes, plus the account settings and the pages mailed links lead to. Any
 * other path redirects to / (see AppRoutes).
 */
const routes = [
  { path: "/", title: "Home", guarded: false, layout: "standard", live: true },
  {
    path: "/landing",
    title: "Welcome",
    guarded: false,
    layout: "header-only",
    live: true,
  },
  {
    path: "/status",
    title: "System Status",
    guarded: true,
    layout: "standard",
    live: true,
  },
  {
    path: "/ledger",
    title: "Ledger",
    guarded: true,
    layout: "standard",
    live: true,
  },
  {
    path: "/kyc",
    title: "Know Your Customer",
    guarded: true,
    layout: "standard",
    live: true,
  },
  {
    path: "/kyc/dashboard",
    title: "KYC Management",
    guarded: true,
    layout: "standard",
    live: true,
  },
  {
    path: "/payments",
    title: "Payments",
    guarded: true,
    layout: "none",
    live: true,
  },
  {
    path: "/payments/send",
    title: "Send money",
    guarded: true,
    layout: "standard",
    live: true,
  },
  {
    path: "/payments/:id",
    title: "Payment details",
    guarded: true,
    layout: "standard",
    live: true,
  },
  {
    path: "/payment-rails",
    title: "Payment Rails",
    guarded: true,
    layout: "standard",
    live: true,
  },
  {
    path: "/reconciliation",
    title: "Reconciliation",
    guarded: true,
    layout: "standard",
    live: true,
  },
  {
    path: "/treasury",
    title: "Treasury & FX",
    guarded: true,
    layout: "standard",
    live: true,
  },
  {
    path: "/compliance",
    title: "Compliance Reports",
    guarded: true,
    layout: "standard",
    live: true,
  },
  {
    path: "/ops",
    title: "Ops Console",
    guarded: true,
    layout: "standard",
    live: true,
  },
  {
    path: "/developers",
    title: "Developers",
    guarded: false,
    layout: "standard",
    live: true,
  },
  {
    path: "/developers/api-explorer",
    title: "API Explorer",
    guarded: false,
    layout: "standard",
    live: true,
  },
  {
    path: "/developers/quickstart",
    title: "Quickstart",
    guarded: false,
    layout: "standard",
    live: true,
  },
  {
    path: "/developers/examples",
    title: "Examples",
    guarded: false,
    layout: "standard",
    live: true,
  },
  {
    path: "/developers/api-keys",
    title: "API keys",
    guarded: true,
    layout: "standard",
    live: true,
  },
  {
    path: "/developers/webhooks",
    title: "Webhooks",
    guarded: true,
    layout: "standard",
    live: true,
  },
  {
    path: "/developers/docs",
    title: "Documentation",
    guarded: false,
    layout: "standard",
    live: true,
  },
  {
    path: "/grpc-demo",
    title: "gRPC Streaming Demo",
    guarded: false,
    layout: "standard",
    live: true,
  },
  {
    path: "/grpc-test",
    title: "gRPC Test Suite",
    guarded: false,
    layout: "standard",
    live: true,
  },
  {
    path: "/router-test",
    title: "Router Test",
    guarded: false,
    layout: "standard",
    live: true,
  },
  {
    path: "/about",
    title: "About the Creator",
    guarded: false,
    layout: "standard",
    live: true,
  },
  {
    path: "/profile",
    title: "Account settings",
    guarded: true,
    layout: "standard",
    live: true,
  },
  {
    path: "/confirm-email",
    title: "Confirm your email",
    guarded: false,
    layout: "standard",
    live: true,
  },
  {
    path: "/settings",
    title: "Account settings",
    guarded: true,
    layout: "standard",
    live: true,
  },
  {
    path: "/reset-password",
    title: "Reset your password",
    guarded: false,
    layout: "standard",
    live: true,
  },
  {
    path: "/verify-email",
    title: "Verify your email",
    guarded: false,
    layout: "standard",
    live: true,
  },
] as const satisfies readonly RouteMeta[];

export type RoutePath = (typeof routes)[number]["path"];

export const routeMeta: readonly (RouteMeta & { path: RoutePath })[] = routes;

/** Whether the route's screen is built (not a coming-soon placeholder); unknown paths are not. */
export function isLiveScreen(path: string): boolean {
  return routeMeta.find((entry) => entry.path === path)?.live ?? false;
}
