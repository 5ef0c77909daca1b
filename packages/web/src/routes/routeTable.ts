import type { ComponentType } from "react";
import { routeMeta, type RouteMeta, type RoutePath } from "./routeMeta";

type ScreenLoader = () => Promise<{ default: ComponentType }>;

export interface RouteEntry extends RouteMeta {
  /** Each screen is its own chunk, so a visitor of /landing downloads only that screen. */
  load: ScreenLoader;
}

/** One loader per route of routeMeta.ts; the Record type makes a route without a screen a type error. */
const screenLoaders: Record<RoutePath, ScreenLoader> = {
  "/": () => import("./HomePage"),
  "/landing": () => import("./LandingPage"),
  "/status": () => import("./StatusPage"),
  "/ledger": () => import("./LedgerPage"),
  "/kyc": () => import("./KycPage"),
  "/kyc/dashboard": () => import("./KycDashboardPage"),
  "/payments": () => import("./PaymentsPage"),
  "/payments/send": () => import("./SendMoneyPage"),
  "/payments/:id": () => import("./PaymentDetailPage"),
  "/payment-rails": () => import("./PaymentRailsPage"),
  "/reconciliation": () => import("./ReconciliationPage"),
  "/treasury": () => import("./TreasuryPage"),
  "/compliance": () => import("./CompliancePage"),
  "/ops": () => import("./OpsPage"),
  "/developers": () => import("./DevelopersPage"),
  "/developers/api-explorer": () => import("./ApiExplorerPage"),
  "/developers/quickstart": () => import("./QuickstartPage"),
  "/developers/examples": () => import("./ExamplesPage"),
  "/developers/api-keys": () => import("./ApiKeysPage"),
  "/developers/webhooks": () => import("./WebhooksPage"),
  "/developers/docs": () => import("./DocsPage"),
  "/grpc-demo": () => import("./GrpcDemoPage"),
  "/grpc-test": () => import("./GrpcTestPage"),
  "/router-test": () => import("./RouterTestPage"),
  "/about": () => import("./AboutPage"),
  "/profile": () => import("./ProfilePage"),
  "/confirm-email": () => import("./ConfirmEmailPage"),
  "/settings": () => import("./SettingsPage"),
  "/reset-password": () => import("./ResetPasswordPage"),
  "/verify-email": () => import("./VerifyEmailPage"),
};

/** The routes with their screens, in routeMeta's order (AppRoutes builds the router from it). */
export const routeTable: readonly RouteEntry[] = routeMeta.map((meta) => ({ ...meta, load: screenLoaders[meta.path] }));
