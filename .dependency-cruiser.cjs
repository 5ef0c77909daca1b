/**
 * Import rules checked by `npm run lint:imports` (part of `npm test`). Why each rule exists:
 * docs/architecture.md#import-rules.
 */

/** Core modules the browser bundle may import: pure models and data, no AWS SDK, no Node built-ins. */
const browserSafeCore = [
  "approvals/model",
  "auth/model",
  "compliance/model",
  "events/feed-paths",
  "fx/model",
  "kyc/country-requirements",
  "kyc/identity-numbers",
  "kyc/model",
  "kyc/review-model",
  "kyc/risk/model",
  "kyc/risk/seed-rules",
  "ledger/integrity-model",
  "ledger/model",
  "limits/model",
  "metrics/model",
  "metrics/response-times",
  "money/model",
  "ops/model",
  "payments/model",
  "rails/cost",
  "rails/cost-bands",
  "rails/edit-form",
  "rails/eligibility",
  "rails/metrics-model",
  "rails/model",
  "rails/quote-input",
  "rails/quotes",
  "rails/reference-rates",
  "rails/regions",
  "rails/seed-rails",
  "reconciliation/model",
  "screening/model",
  "shared/field-errors",
  "status/model",
  "webhooks/model",
];
const browserSafePattern = `^packages/core/src/(${browserSafeCore.join("|")})\\.ts$`;

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import cycle: move the shared piece into a module both sides may import.",
      from: {},
      to: { circular: true },
    },
    {
      name: "web-imports-browser-safe-core-only",
      severity: "error",
      comment: "The web bundle may import only core's browser-safe modules (the allow-list in this file).",
      from: { path: "^packages/web/src/" },
      to: { path: "^packages/core/src/", pathNot: browserSafePattern },
    },
    {
      name: "browser-safe-core-stays-browser-safe",
      severity: "error",
      comment: "A browser-safe core module imports only other browser-safe modules and browser-safe packages.",
      from: { path: browserSafePattern },
      to: {
        pathNot: [browserSafePattern, "^node_modules/(zod|ibantools|stdnum|i18n-iso-countries)/"],
      },
    },
    {
      name: "core-stays-free-of-http-and-wiring",
      severity: "error",
      comment: "Core holds the domain: it imports no routes, no infrastructure and no HTTP framework.",
      from: { path: "^packages/core/src/" },
      to: { path: ["^packages/functions/", "^infra/", "^stacks/", "^node_modules/hono/", "^node_modules/@hono/"] },
    },
    {
      name: "core-tests-load-no-http",
      severity: "error",
      comment:
        "Core tests build their context with @fintech/testing/context; the HTTP test app (@fintech/testing/app) is for functions' and infra's tests.",
      from: { path: "^packages/core/src/" },
      to: { path: "^packages/testing/src/app\\.ts$" },
    },
    {
      name: "production-code-imports-no-test-support",
      severity: "error",
      comment:
        "Test support (@fintech/testing, the web tests' fakes) is for tests, browser tests, the SDK's tests and benchmarks only.",
      from: {
        pathNot: [
          "\\.test\\.tsx?$",
          "^packages/testing/",
          "^packages/web/e2e/",
          "^packages/web/src/.*/testing\\.ts$",
          "^packages/sdk/test/",
          "^infra/bench/",
        ],
      },
      to: { path: ["^packages/testing/", "^packages/web/src/.*/testing\\.ts$"] },
    },
    {
      name: "lambda-adapter-only-in-lambda-entries",
      severity: "error",
      comment: "Only the Lambda entry files know they run on Lambda; the app stays runnable on Node.",
      from: { pathNot: ["^packages/functions/src/lambda/", "^infra/functions/", "^infra/bench/"] },
      to: { path: "^node_modules/hono/dist/.*adapter/aws-lambda" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // Packages stay in the graph as leaves (doNotFollow), so the rules about hono and the Lambda
    // adapter see them; only the workspaces' own build output is left out.
    exclude: { path: ["\\.tsbuild", "^packages/[^/]+/(build|dist)/", "\\.sst/"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.tests.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
    combinedDependencies: true,
    preserveSymlinks: false,
  },
};
