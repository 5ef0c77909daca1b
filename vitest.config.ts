import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * Five projects: unit tests of the server-side code (no emulator), server tests against DynamoDB
 * Local + the S3 emulator (started once by the global setup), stack synthesis, web unit tests,
 * and browser tests in Chromium against the full local stack.
 */

const ROOT = import.meta.dirname;
/** Where the server-side tests live; each of their test files is in `unit` or in `server`. */
const SERVER_SIDE_ROOTS = ["packages/core/src", "packages/functions/src", "packages/sdk/test", "infra"];
const GLOBAL_SETUP = "packages/testing/src/global-setup.ts";

/**
 * A test needs the emulators when it reads the global setup's values (`inject` from vitest), or
 * imports a module that does (`@fintech/testing/context` and `@fintech/testing/app` do), through
 * any chain of relative or `@fintech/testing/*` imports. Everything else runs in `unit`, with no
 * global setup, so a unit test that reached for the emulators would fail there.
 */
const READS_GLOBAL_SETUP = /import\s*\{[^}]*\binject\b[^}]*\}\s*from\s*"vitest"/;
const IMPORT_SPECIFIER = /(?:^|\n)\s*(?:import|export)\b[^;"]*?"([^"]+)"/g;

function resolveImport(fromFile: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith(".")) base = path.resolve(path.dirname(fromFile), specifier);
  else if (specifier.startsWith("@fintech/testing/"))
    base = path.join(ROOT, "packages/testing/src", specifier.slice("@fintech/testing/".length));
  else return null;
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")];
  return candidates.find((candidate) => /\.tsx?$/.test(candidate) && existsSync(candidate)) ?? null;
}

const emulatorNeeds = new Map<string, boolean>();
function needsEmulators(file: string): boolean {
  const known = emulatorNeeds.get(file);
  if (known !== undefined) return known;
  emulatorNeeds.set(file, false); // an import cycle adds nothing
  const source = readFileSync(file, "utf8");
  let needs = READS_GLOBAL_SETUP.test(source);
  for (const match of source.matchAll(IMPORT_SPECIFIER)) {
    if (needs) break;
    const imported = resolveImport(file, match[1]!);
    if (imported) needs = needsEmulators(imported);
  }
  emulatorNeeds.set(file, needs);
  return needs;
}

const serverSideTests = SERVER_SIDE_ROOTS.flatMap((root) =>
  readdirSync(path.join(ROOT, root), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".test.ts") && !file.split(path.sep).includes("node_modules"))
    .map((file) => path.posix.join(root, file.split(path.sep).join("/"))),
).sort();
const emulatorTests = serverSideTests.filter((file) => needsEmulators(path.join(ROOT, file)));
const unitTests = serverSideTests.filter((file) => !emulatorTests.includes(file));

export default defineConfig({
  test: {
    // Vitest's default is one worker on a 2-core machine; much of the suite waits on DynamoDB
    // Local and Chromium, so a second worker overlaps those waits.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: "unit",
          include: unitTests,
          environment: "node",
          // One module graph per worker instead of one per file: most of these files' time is
          // importing. It holds while every test file undoes what it changes (fake timers, globals).
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "server",
          include: emulatorTests,
          environment: "node",
          globalSetup: [GLOBAL_SETUP],
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
          // As in `unit`: the files share a module graph per worker, so each undoes what it changes.
          isolate: false,
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
