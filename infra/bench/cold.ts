/**
 * Cold-start benchmark: `npm run bench:cold [-- --runs 10] [-- --compare] [-- --breakdown]`
 *
 * Synthesises the app offline as the stack tests do: SST's own builder (sst/runtime/handlers/
 * node.js, what `sst deploy` runs) bundles every function with sst.config.ts's defaults and
 * infra/bundling.ts, and the picture checkers get the staged sharp (infra/native/sharp.ts). Then,
 * for every function CloudFormation would create (read from the cloud assembly), it prints the
 * bundle's size (every chunk), how much of it a cold start loads (the handler and the chunks it
 * imports statically), the size of the zip that would be uploaded, and the median init (wall and
 * CPU) of `runs` imports in fresh Node processes with the function's Lambda-like environment
 * (infra/functions/cold-start.ts: the same import the bundle test makes; nothing is contacted).
 * `--compare` adds the API built with SST's defaults and with the AWS SDK left to the runtime.
 * `--breakdown` adds what every function's start is made of: modules built the same way that
 * add one layer at a time (the AWS SDK clients, the core context, the middleware), measured in
 * the same rounds, so the difference between two rows is what that layer costs.
 *
 * This script imports sst although infra/ otherwise never does: measuring SST's build is its job.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { deflateRawSync } from "node:zlib";
import type { SSTConfig } from "sst";
import { deployedBuildOptions, functionBundling, type FunctionBundling } from "../bundling";
import { importColdly, lambdaEnvironment, type ColdImport } from "../functions/cold-start";
import { assetFiles, deployedFunctions, initialFiles, type DeployedFunction } from "../functions/deployed";
import { stageSharp } from "../native/sharp";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const STAGE = "bench";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "10" },
    compare: { type: "boolean", default: false },
    breakdown: { type: "boolean", default: false },
  },
});
const runs = Math.max(1, Number.parseInt(values.runs ?? "10", 10) || 10);

// Offline synthesis, as stacks/testing.ts does it: SST skips its bootstrap lookups (CloudFormation,
// SSM) only when NODE_ENV is "test", and the AWS SDK must never look for real credentials.
process.env.NODE_ENV = "test";
process.env.AWS_ACCESS_KEY_ID = "AKIAOFFLINEBENCH";
process.env.AWS_SECRET_ACCESS_KEY = "offline-bench-secret";
process.env.JSII_DEPRECATED = "quiet";

/** The real app (sst.config.ts), synthesised into `scratch` with real bundles; its cloud assembly. */
async function synthesise(scratch: string) {
  // A stand-in for the built SPA, so synthesis never runs Vite.
  const site = path.join(scratch, "web-dist");
  mkdirSync(site, { recursive: true });
  writeFileSync(path.join(site, "index.html"), "<!doctype html><title>bench</title>");
  process.env.WEB_PREBUILT_DIST = site;
  process.chdir(REPO_ROOT);

  // sst.config.ts by path: it belongs to the stacks' project, not to infra's.
  const configModule = pathToFileURL(path.join(REPO_ROOT, "sst.config.ts")).href;
  const [{ setProject }, { App }, { default: config }] = await Promise.all([
    import("sst/project.js"),
    import("sst/constructs"),
    import(configModule) as Promise<{ default: SSTConfig }>,
  ]);
  const options = await config.config({ stage: STAGE });
  setProject({
    version: "2.49.8",
    cdkVersion: "2.224.0",
    constructsVersion: "10.3.0",
    config: { ...options, stage: STAGE, ssmPrefix: `/sst/${options.name}/${STAGE}/` },
    stacks: config.stacks,
    metafile: { inputs: {}, outputs: {} },
    paths: {
      root: REPO_ROOT,
      config: path.join(REPO_ROOT, "sst.config.ts"),
      out: scratch,
      artifacts: path.join(scratch, "artifacts"),
    },
  } as Parameters<typeof setProject>[0]);
  const app = new App(
    {
      mode: "deploy",
      name: options.name,
      stage: STAGE,
      region: options.region ?? "us-east-1",
      account: "123456789012",
    },
    { outdir: path.join(scratch, "cdk.out") },
  );
  await config.stacks(app);
  await app.finish();
  return app.synth();
}

/**
 * The size of the zip cdk-assets makes of an asset folder (archiver's zip: deflate at zlib's
 * default level, a local header and a central directory entry per file, one end record).
 */
function zipBytes(assetDir: string): number {
  const END_RECORD = 22;
  return assetFiles(assetDir).reduce((sum, { file }) => {
    const name = Buffer.byteLength(file);
    const data = readFileSync(path.join(assetDir, file));
    return sum + 30 + name + Math.min(data.length, deflateRawSync(data).length) + 46 + name;
  }, END_RECORD);
}

/** The code of a built function: its handler file and the chunks beside it (not sharp's package). */
const bundleBytes = (handlerFile: string) =>
  assetFiles(path.dirname(handlerFile))
    .filter(({ file }) => file.endsWith(".mjs") && !file.split(path.sep).includes("node_modules"))
    .reduce((sum, { bytes }) => sum + bytes, 0);

const median = (numbers: number[]) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * `runs` fresh imports of every function, in rounds (one import of each per round), so a load
 * that comes and goes on a shared machine weighs on every function alike.
 */
async function initTimes(functions: readonly DeployedFunction[]): Promise<ColdImport[][]> {
  const environments = functions.map((fn) => lambdaEnvironment(fn));
  // Warm the OS file cache once, as the runtime's image would be.
  for (const [index, fn] of functions.entries()) await importColdly(fn, environments[index]!);
  const times: ColdImport[][] = functions.map(() => []);
  for (let run = 0; run < runs; run++) {
    for (const [index, fn] of functions.entries()) times[index]!.push(await importColdly(fn, environments[index]!));
  }
  return times;
}

interface Row {
  function: string;
  arch: string;
  memoryMB: number;
  bundleBytes: number;
  initBytes: number;
  zipBytes: number;
  init: ColdImport[];
}

/** The API built by SST's builder with other bundling, for `--compare`. */
async function apiVariant(
  api: DeployedFunction,
  scratch: string,
  name: string,
  nodejs: Partial<FunctionBundling>,
): Promise<DeployedFunction> {
  const { useNodeHandler } = await import("sst/runtime/handlers/node.js");
  const out = path.join(scratch, "variants", name.replace(/\W+/g, "-"));
  const result = await useNodeHandler().build({
    functionID: `bench-${name}`,
    mode: "deploy",
    out,
    props: { handler: api.handler, runtime: "nodejs22.x", architecture: "arm_64", nodejs },
  });
  if (result.type === "error") throw new Error(`Build failed (${name}):\n${result.errors.join("\n")}`);
  const handlerFile = path.join(out, `${api.module}.mjs`);
  return { ...api, logicalId: `Api (${name})`, assetDir: out, handlerFile };
}

/** Cumulative layers of a function's start, each a module that adds one thing to the previous. */
const LAYERS: readonly { name: string; source: (root: string) => string }[] = [
  { name: "(empty module)", source: () => "export const handler = () => undefined;" },
  {
    name: "+ DynamoDB client",
    source: () =>
      [
        'import { DynamoDBClient } from "@aws-sdk/client-dynamodb";',
        'import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";',
        "const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));",
        "export const handler = () => db;",
      ].join("\n"),
  },
  {
    name: "+ SSM client",
    source: () =>
      [
        'import { DynamoDBClient } from "@aws-sdk/client-dynamodb";',
        'import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";',
        'import { SSMClient } from "@aws-sdk/client-ssm";',
        "const clients = [DynamoDBDocumentClient.from(new DynamoDBClient({})), new SSMClient({})];",
        "export const handler = () => clients;",
      ].join("\n"),
  },
  {
    name: "core context (lambda/context.ts)",
    source: (root) =>
      [
        `import { lambdaContext } from ${JSON.stringify(path.join(root, "packages/functions/src/lambda/context.ts"))};`,
        "const core = await lambdaContext();",
        "export const handler = () => core;",
      ].join("\n"),
  },
  {
    name: "+ middleware (compose.ts)",
    source: (root) =>
      [
        'import { Hono } from "hono";',
        'import { handle } from "hono/aws-lambda";',
        `import { createRequestMetrics } from ${JSON.stringify(path.join(root, "packages/core/src/metrics/service.ts"))};`,
        `import { composeApp } from ${JSON.stringify(path.join(root, "packages/functions/src/compose.ts"))};`,
        `import { lambdaContext } from ${JSON.stringify(path.join(root, "packages/functions/src/lambda/context.ts"))};`,
        "const core = await lambdaContext();",
        "export const handler = handle(composeApp(core, createRequestMetrics(core), new Hono()));",
      ].join("\n"),
  },
];

/**
 * The layers as functions: built with esbuild and the deployed bundling, with SST's ESM banner,
 * into `scratch`, and started with the API's environment (so the context finds its settings).
 */
async function layerFunctions(api: DeployedFunction, scratch: string): Promise<DeployedFunction[]> {
  const esbuild = await import("esbuild");
  const bundling = functionBundling();
  const dir = path.join(scratch, "layers");
  mkdirSync(dir, { recursive: true });
  const layers: DeployedFunction[] = [];
  for (const [index, layer] of LAYERS.entries()) {
    const entry = path.join(dir, `layer-${index}.ts`);
    writeFileSync(entry, layer.source(REPO_ROOT));
    const outdir = path.join(dir, `layer-${index}`);
    const handlerFile = path.join(outdir, `layer-${index}.mjs`);
    await esbuild.build({
      ...deployedBuildOptions(bundling),
      entryPoints: [entry],
      // Split as deployed: what a layer loads at first use (a dynamic import) is a chunk of its own.
      splitting: bundling.splitting,
      outdir,
      outExtension: { ".js": ".mjs" },
    });
    layers.push({ ...api, logicalId: layer.name, module: `layer-${index}`, assetDir: outdir, handlerFile });
  }
  return layers;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const size = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : kb(bytes));

async function main() {
  stageSharp("arm64", { log: (line) => console.log(line) });
  // Inside the repository, so a variant with an external SDK resolves it from node_modules.
  const scratch = mkdtempSync(path.join(REPO_ROOT, "node_modules", ".bench-cold-"));
  try {
    console.log(`Synthesising the app (stage ${STAGE}) with SST's builder...`);
    const assembly = await synthesise(scratch);
    const functions = deployedFunctions(assembly, REPO_ROOT);
    if (values.compare) {
      const api = functions.find((fn) => fn.handler.endsWith("/api.handler"));
      if (!api) throw new Error("No API function in the app");
      const deployed = functionBundling();
      functions.push(
        await apiVariant(api, scratch, "AWS SDK external", functionBundling({ externalSdk: true })),
        await apiVariant(api, scratch, "SST defaults", {
          format: "esm",
          esbuild: { external: [...(deployed.esbuild.external ?? [])] },
        }),
      );
    }

    const layers = values.breakdown
      ? await layerFunctions(functions.find((fn) => fn.handler.endsWith("/api.handler"))!, scratch)
      : [];
    const measured = [...functions, ...layers];
    const times = await initTimes(measured);
    const rows: Row[] = measured.map((fn, index) => ({
      function: fn.logicalId.replace(/[0-9A-F]{8}$/, ""),
      arch: fn.architecture,
      memoryMB: fn.memoryMB,
      bundleBytes: bundleBytes(fn.handlerFile),
      initBytes: initialFiles(fn.handlerFile).reduce((sum, file) => sum + statSync(file).size, 0),
      zipBytes: layers.includes(fn) ? 0 : zipBytes(fn.assetDir),
      init: times[index]!,
    }));

    console.log(
      `\nEvery function of the app: Node ${process.version}, ${runs} fresh imports each, in rounds (median, min-max)`,
    );
    if (layers.length > 0)
      console.log("The rows from (empty module) on add one layer each to the row above (--breakdown).");
    console.table(
      rows.map((row) => {
        const wall = row.init.map((time) => time.wallMs);
        return {
          function: row.function,
          arch: row.arch,
          memory: `${row.memoryMB} MB`,
          bundle: kb(row.bundleBytes),
          "loaded at init": kb(row.initBytes),
          zip: row.zipBytes ? size(row.zipBytes) : "",
          "init wall": `${median(wall).toFixed(0)} ms (${Math.min(...wall).toFixed(0)}-${Math.max(...wall).toFixed(0)})`,
          "init CPU": `${median(row.init.map((time) => time.cpuMs)).toFixed(0)} ms`,
        };
      }),
    );
    const cpuOf = (prefix: string) => {
      const row = rows.find((candidate) => candidate.function === prefix);
      return row ? median(row.init.map((time) => time.cpuMs)) : undefined;
    };
    const target = (name: string, ms: number) => {
      const cpu = cpuOf(name);
      return `${name} init CPU <= ${ms} ms ${cpu === undefined ? "(no such function)" : cpu <= ms ? "met" : "MISSED"}`;
    };
    console.log(
      `Targets: ${target("Api", 250)}; ${target("Feeds", 150)} (load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores)`,
    );
  } finally {
    // SST's logger opens <out>/debug.log lazily; removing the folder before that open makes
    // the process fail on exit, so wait for it (the stack tests do the same).
    const log = path.join(scratch, "debug.log");
    for (let waited = 0; !existsSync(log) && waited < 2_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
