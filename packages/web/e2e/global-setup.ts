import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { KEY_SECRET_NAMES } from "@fintech/core/shared/secret-names";
import { startLocalStack } from "../../../infra/local/stack";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    /** An admin seeded for this run (random password, never one written in code). */
    admin: { email: string; password: string };
  }
}

const WEB_ROOT = path.resolve(import.meta.dirname, "..");

/**
 * Browser tests run against the real embedded stack, started by the same code as `npm start`
 * (in memory, on a free port), serving a fresh production build of the SPA.
 */
export default async function setup(project: TestProject) {
  // A private output folder: parallel runs (and a running `npm start`) never share a dist.
  const outDir = mkdtempSync(path.join(os.tmpdir(), "fintech-e2e-dist-"));
  // Vitest sets NODE_ENV=test, which would make Vite bundle development React.
  const build = spawnSync("npx", ["vite", "build", "--logLevel", "warn", "--outDir", outDir, "--emptyOutDir"], {
    cwd: WEB_ROOT,
    encoding: "utf8",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (build.status !== 0) throw new Error(`vite build failed:\n${build.stdout}\n${build.stderr}`);
  // Admin-only actions (locking an account) are driven through the API by this run's own admin.
  const admin = {
    email: `e2e-admin-${randomBytes(4).toString("hex")}@example.com`,
    password: randomBytes(18).toString("base64url"),
  };
  const stack = await startLocalStack({
    port: 0,
    dataDir: null,
    fresh: true,
    staticDir: outDir,
    // Fresh keys for the run (infra/local/keys.ts), whatever keyrings the shell may carry.
    env: {
      ...process.env,
      ...Object.fromEntries(KEY_SECRET_NAMES.map((name) => [name, undefined])),
      LOG_LEVEL: "warn",
      PASSWORD_HASH_COST: "4096",
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
    },
  });
  project.provide("baseUrl", stack.url);
  project.provide("admin", admin);
  return async () => {
    await stack.stop();
    rmSync(outDir, { recursive: true, force: true });
  };
}
