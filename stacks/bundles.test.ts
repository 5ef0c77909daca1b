import { REPO_ROOT, synth, type SynthesizedApp } from "./testing";
import type { CfnFunction } from "aws-cdk-lib/aws-lambda";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ColdImportError, importColdly, lambdaEnvironment } from "../infra/functions/cold-start";
import { deployedFunctions, type DeployedFunction } from "../infra/functions/deployed";
import { stagedSharp } from "../infra/native/sharp";

const SYNTH_TIMEOUT_MS = 300_000;
/** Each import is a fresh Node process: two at a time on a 2-core machine. */
const IMPORTS_AT_ONCE = 2;

const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;

/** A function's code: its handler file and the chunks beside it (the bundles are code-split). */
const codeOf = (fn: DeployedFunction) => {
  const dir = path.dirname(fn.handlerFile);
  return readdirSync(dir)
    .filter((name) => name.endsWith(".mjs"))
    .map((name) => readFileSync(path.join(dir, name), "utf8"))
    .join("\n");
};

/**
 * Every function the stacks deploy, built as `sst deploy` builds it (SST's esbuild, the bundling
 * of infra/bundling.ts, the staged sharp beside the picture checkers), imported in a fresh Node
 * process with the environment Lambda would give it. A bundle that cannot start (a runtime
 * `require` of a file the bundle does not hold, a missing setting, a native module loaded at
 * import) fails here instead of at its first cold start in the cloud.
 */
describe("the deployed functions", () => {
  let built: SynthesizedApp;
  let functions: DeployedFunction[];
  beforeAll(async () => {
    built = await synth({ stage: "production" });
    functions = deployedFunctions(built.app.synth(), REPO_ROOT);
  }, SYNTH_TIMEOUT_MS);

  it("are every Function construct of the app, each built from its own handler", async () => {
    const { Function: SstFunction } = await import("sst/constructs");
    const constructs = built.app.node.findAll().filter((construct) => construct instanceof SstFunction);
    expect(constructs.length).toBeGreaterThanOrEqual(5);
    // The handler SST built for each construct, read from the construct tree rather than the templates.
    const handlers = constructs.map((construct) => (construct.node.defaultChild as CfnFunction).handler);
    expect(functions.map((fn) => fn.handler).sort()).toEqual(handlers.sort());
    expect(functions.map((fn) => fn.handler)).toEqual(
      expect.arrayContaining(
        [
          "api",
          "feeds",
          "kyc-object",
          "payment-worker",
          "payment-sweeper",
          "mail-delivery",
          "settlement-object",
          "nightly-reconciliation",
          "webhook-fanout",
          "webhook-dispatcher",
          "webhook-sweeper",
        ].map((name) => `packages/functions/src/lambda/${name}.handler`),
      ),
    );
  });

  it("all run on nodejs22.x, arm64", () => {
    for (const fn of functions)
      expect({ handler: fn.handler, runtime: fn.runtime, architecture: fn.architecture }).toEqual({
        handler: fn.handler,
        runtime: "nodejs22.x",
        architecture: "arm64",
      });
  });

  it("all start: each bundle imports in a fresh Node process with a Lambda-like environment", async () => {
    const failures: string[] = [];
    for (let index = 0; index < functions.length; index += IMPORTS_AT_ONCE) {
      const batch = functions.slice(index, index + IMPORTS_AT_ONCE);
      const results = await Promise.allSettled(batch.map((fn) => importColdly(fn, lambdaEnvironment(fn))));
      for (const result of results)
        if (result.status === "rejected") failures.push(String((result.reason as Error).message));
    }
    expect(failures).toEqual([]);
  });

  it("set every bound secret directly, so nothing is fetched from SSM", () => {
    for (const fn of functions) {
      const env = lambdaEnvironment(fn);
      for (const name of Object.keys(fn.environment).filter((key) => key.startsWith("SST_Secret_value_"))) {
        expect(env[name.slice("SST_Secret_value_".length)], `${fn.handler} ${name}`).toMatch(/^1:[0-9a-f]{64}$/);
      }
    }
    // The API binds secrets: the environment is really derived from the template.
    const api = functions.find((fn) => fn.handler.endsWith("/api.handler"))!;
    expect(Object.keys(api.environment).some((key) => key.startsWith("SST_Secret_value_"))).toBe(true);
  });

  it("ship sharp only beside the picture checkers, at the lock's version, for their own architecture", () => {
    const staged = stagedSharp("arm64")!;
    const shipping = functions.filter((fn) => existsSync(path.join(fn.assetDir, "node_modules", "sharp")));
    expect(shipping.map((fn) => fn.handler).sort()).toEqual([
      "packages/functions/src/lambda/api.handler",
      "packages/functions/src/lambda/kyc-object.handler",
    ]);
    for (const fn of shipping) {
      for (const pkg of staged.packages) {
        expect(
          readJson(path.join(fn.assetDir, "node_modules", pkg.name, "package.json")).version,
          `${fn.handler} ${pkg.name}`,
        ).toBe(pkg.version);
      }
      const binary = readJson(
        path.join(
          fn.assetDir,
          "node_modules",
          "@img",
          `sharp-linux-${fn.architecture === "arm64" ? "arm64" : "x64"}`,
          "package.json",
        ),
      );
      expect(binary.cpu).toEqual([fn.architecture === "arm64" ? "arm64" : "x64"]);
      expect(existsSync(path.join(fn.assetDir, "node_modules", "@img", "sharp-linux-x64"))).toBe(
        fn.architecture === "x86_64",
      );
      // sharp stays external and is imported lazily, at the first picture check: these bundles
      // started above on this x64 machine although the sharp beside them is arm64's.
      expect(/import\("sharp"\)/.test(codeOf(fn)), fn.handler).toBe(true);
    }
  });

  it("give the feeds the stream routes, not the whole API", () => {
    const feeds = codeOf(functions.find((fn) => fn.handler.endsWith("/feeds.handler"))!);
    const api = codeOf(functions.find((fn) => fn.handler.endsWith("/api.handler"))!);
    // (Booleans, not the bundles: a failure must not print megabytes of minified code.)
    for (const operation of ["streamLedgerEvents", "streamKycEvents"])
      expect(feeds.includes(operation), operation).toBe(true);
    // Operations of the API alone (API keys, status, rails, KYC review) are not in the feeds bundle.
    for (const operation of ["createApiKey", "getRequestMetrics", "railRoutingDecisions", "getKycDashboardStats"]) {
      expect(api.includes(operation), `api: ${operation}`).toBe(true);
      expect(feeds.includes(operation), `feeds: ${operation}`).toBe(false);
    }
  });
});

describe("the cold import", () => {
  const scratch = mkdtempSync(path.join(tmpdir(), "cold-import-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  const fakeFunction = (source: string): DeployedFunction => {
    const handlerFile = path.join(scratch, `handler-${Math.random().toString(36).slice(2)}.mjs`);
    writeFileSync(handlerFile, source);
    return {
      stackName: "test",
      logicalId: "Fake",
      handler: "handler.handler",
      module: "handler",
      exportName: "handler",
      runtime: "nodejs22.x",
      architecture: "arm64",
      memoryMB: 128,
      environment: { SST_Secret_value_SESSION_KEYS: "__FETCH_FROM_SSM__", TABLE_NAME: { "Fn::ImportValue": "x" } },
      assetDir: scratch,
      handlerFile,
    };
  };

  it("fails on the error a bundle throws at import, e.g. a runtime require of a file it does not hold", async () => {
    const fn = fakeFunction(
      `import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\nfor (const locale of ["br"]) require("./langs/" + locale + ".json");\nexport const handler = () => {};\n`,
    );
    await expect(importColdly(fn, lambdaEnvironment(fn))).rejects.toThrow(ColdImportError);
    await expect(importColdly(fn, lambdaEnvironment(fn))).rejects.toThrow(/Cannot find module '\.\/langs\/br\.json'/);
  });

  it("fails when the handler is not exported, and passes a module that starts", async () => {
    const missing = fakeFunction("export const other = () => {};\n");
    await expect(importColdly(missing, lambdaEnvironment(missing))).rejects.toThrow(/exports no function handler/);
    const fine = fakeFunction(
      "if (!process.env.SESSION_KEYS?.startsWith('1:') || !process.env.TABLE_NAME || !process.env.AWS_LAMBDA_FUNCTION_NAME) throw new Error('environment');\nexport const handler = () => {};\n",
    );
    const timing = await importColdly(fine, lambdaEnvironment(fine));
    expect(timing.cpuMs).toBeGreaterThan(0);
  });
});
