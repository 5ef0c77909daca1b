/**
 * Imports a built function in a fresh Node process with the environment Lambda would give it, the
 * way the runtime starts a cold instance: the bundle import test fails on any error here, and
 * `npm run bench:cold` times the same import. Nothing is contacted: bound secrets get stand-in
 * values directly in the environment (so none is fetched from SSM), and every value CloudFormation
 * would resolve at deploy time (names, URLs, the origin secret) gets a placeholder.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { DeployedFunction } from "./deployed";

/** How SST marks a bound Config.Secret: the value is fetched from SSM at cold start unless already set. */
const BOUND_SECRET = /^SST_Secret_value_(.+)$/;
const FETCH_FROM_SSM = "__FETCH_FROM_SSM__";

/** A stand-in secret: a keyring of one version, the shape every bound key secret has (core/src/shared/keyring.ts). */
export const standInSecret = () => `1:${randomBytes(32).toString("hex")}`;

/** A placeholder for a value CloudFormation resolves at deploy time; a URL where the name says so. */
function placeholder(name: string): string {
  return name.endsWith("_URL") ? `https://placeholder.invalid/${name.toLowerCase()}` : randomBytes(24).toString("hex");
}

export interface LambdaEnvironmentOptions {
  region?: string;
  /** PATH for the child (Node itself must be found). */
  path?: string;
}

/**
 * The environment of `fn` as Lambda would set it: the template's variables (placeholders for the
 * values resolved at deploy time, every bound secret set directly), plus the runtime's own
 * (function name, memory, region, credentials, task root). Derived from the template, so a secret
 * or setting another stack change adds is covered without touching this file.
 */
export function lambdaEnvironment(
  fn: DeployedFunction,
  { region = "us-east-1", path = process.env.PATH ?? "" }: LambdaEnvironmentOptions = {},
): Record<string, string> {
  const env: Record<string, string> = {
    PATH: path,
    LANG: "en_US.UTF-8",
    TZ: ":UTC",
    AWS_REGION: region,
    AWS_DEFAULT_REGION: region,
    AWS_ACCESS_KEY_ID: "ASIAPLACEHOLDERKEYID",
    AWS_SECRET_ACCESS_KEY: randomBytes(30).toString("base64"),
    AWS_SESSION_TOKEN: randomBytes(60).toString("base64"),
    AWS_EXECUTION_ENV: `AWS_Lambda_${fn.runtime}`,
    AWS_LAMBDA_FUNCTION_NAME: `${fn.stackName}-${fn.logicalId}`,
    AWS_LAMBDA_FUNCTION_VERSION: "$LATEST",
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMB),
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${fn.stackName}-${fn.logicalId}`,
    AWS_LAMBDA_LOG_STREAM_NAME: "cold-start",
    AWS_LAMBDA_INITIALIZATION_TYPE: "on-demand",
    LAMBDA_TASK_ROOT: fn.assetDir,
    _HANDLER: fn.handler,
  };
  for (const [name, value] of Object.entries(fn.environment)) {
    env[name] = typeof value === "string" ? value : placeholder(name);
    const secret = BOUND_SECRET.exec(name)?.[1];
    if (secret && value === FETCH_FROM_SSM) env[secret] = standInSecret();
  }
  return env;
}

export interface ColdImport {
  /** Module init: from the import's start to the handler being ready. */
  wallMs: number;
  /** CPU time of that import, every thread of the process (compile, GC) included. */
  cpuMs: number;
}

export class ColdImportError extends Error {}

/**
 * The runtime's `awslambda` global, enough for a handler to be created at import
 * (hono/aws-lambda's streamHandle wraps itself with streamifyResponse at module init).
 */
const RUNTIME_GLOBALS = `globalThis.awslambda = Object.assign(globalThis.awslambda ?? {}, { streamifyResponse: (handler) => handler, HttpResponseStream: { from: (stream) => stream } });`;

/**
 * Imports `fn`'s built handler in a fresh Node process with `env`, from its asset folder as the
 * runtime does, and checks that the handler export is a function. Rejects with the import's own
 * error (message and stack) when the module cannot start.
 */
export function importColdly(
  fn: DeployedFunction,
  env: Record<string, string>,
  nodeOptions: readonly string[] = [],
): Promise<ColdImport> {
  const script = [
    RUNTIME_GLOBALS,
    "const cpu = process.cpuUsage(); const started = performance.now();",
    "let handler;",
    `try { handler = (await import(${JSON.stringify(fn.handlerFile)}))[${JSON.stringify(fn.exportName)}]; }`,
    "catch (error) { process.stdout.write(JSON.stringify({ error: String(error?.stack ?? error) })); process.exit(0); }",
    "const used = process.cpuUsage(cpu);",
    "const wallMs = performance.now() - started;",
    `if (typeof handler !== "function") { process.stdout.write(JSON.stringify({ error: "the module exports no function ${fn.exportName}" })); process.exit(0); }`,
    "process.stdout.write(JSON.stringify({ wallMs, cpuMs: (used.user + used.system) / 1000 }));",
    // The handler's module may hold sockets or timers open (SDK clients, metric flushes): Lambda
    // would freeze the instance here, so end the process instead of waiting for them.
    "process.exit(0);",
  ].join("\n");
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...nodeOptions, "--input-type=module", "-e", script],
      { cwd: fn.assetDir, env, encoding: "utf8", timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        let result: (ColdImport & { error?: undefined }) | { error: string } | undefined;
        try {
          result = JSON.parse(stdout) as typeof result;
        } catch {
          result = undefined;
        }
        if (!result) {
          reject(
            new ColdImportError(
              `${fn.handler}: the import process ended without a result (${error?.message ?? "no error"}): ${stderr.slice(0, 2_000)}`,
            ),
          );
        } else if (result.error !== undefined) {
          reject(
            new ColdImportError(`${fn.handler} (${fn.stackName}/${fn.logicalId}) failed at import:\n${result.error}`),
          );
        } else {
          resolve(result);
        }
      },
    );
  });
}
