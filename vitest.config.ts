import { defineConfig } from "vitest/config";

/**
 * Four projects: server code against DynamoDB Local + the S3 emulator (started once by the
 * global setup), stack synthesis, web unit tests, and browser tests in Chromium against the
 * full local stack.
 */
export default defineConfig({
  test: {
    // Vitest's default is one worker on a 2-core machine; much of the suite waits on DynamoDB
    // Local and Chromium, so a second worker overlaps those waits (about a minute off the run).
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: "server",
          include: [
            "packages/core/src/**/*.test.ts",
            "packages/functions/src/**/*.test.ts",
            "packages/sdk/test/**/*.test.ts",
            "infra/**/*.test.ts",
          ],
          environment: "node",
          globalSetup: ["infra/local/test-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "stacks",
          include: ["stacks/**/*.test.ts"],
          environment: "node",
          env: {
            NODE_ENV: "test",
            SST_STAGE: "test",
            AWS_ACCESS_KEY_ID: "test",
            AWS_SECRET_ACCESS_KEY: "test",
            AWS_REGION: "us-east-1",
          },
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: "web",
          include: ["packages/web/src/**/*.test.{ts,tsx}"],
          environment: "node",
        },
      },
      {
        test: {
          name: "e2e",
          include: ["packages/web/e2e/**/*.test.ts"],
          environment: "node",
          globalSetup: ["packages/web/e2e/global-setup.ts"],
          // The browser files run after every other project (a later group), two at a time
          // against the one local stack: alone they leave a core idle while a page settles,
          // and beside the server files they would compete with DynamoDB Local for the CPU.
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
