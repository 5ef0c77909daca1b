/**
 * Cold-start benchmark: `npm run bench:cold [-- --runs 15] [-- --compare]`
 *
 * Builds the API function with SST's own Node builder (sst/runtime/handlers/node.js, the code
 * `sst deploy` runs) and the bundling object sst.config.ts deploys (infra/bundling.ts), then
 * prints the bundle's size, its gzip size (what the zip costs to fetch) and the median time to
 * import it (module init: parse, evaluate, build the context) in fresh Node processes.
 * `--compare` adds the same figures for SST's defaults (unminified, every zod locale) and for
 * the AWS SDK left external (resolved from node_modules at import, as the runtime's copy is).
 *
 * This script imports sst although infra/ otherwise never does: measuring SST's build is its job.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { availableParallelism, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { functionBundling, type FunctionBundling } from "../bundling";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const API_HANDLER = "packages/functions/src/lambda/api.handler";

interface Variant {
  name: string;
  nodejs: Partial<FunctionBundling>;
}

interface Figures {
  variant: string;
  bytes: number;
  gzipBytes: number;
  init: InitTime[];
}

const { values } = parseArgs({
  options: { runs: { type: "string", default: "15" }, compare: { type: "boolean", default: false } },
});
const runs = Math.max(1, Number.parseInt(values.runs ?? "15", 10) || 15);

/** SST refuses to build outside a project: the minimum it reads, as the stack tests set it. */
async function useSstProject(scratch: string) {
  const { setProject } = await import("sst/project.js");
  setProject({
    version: "2.49.8",
    cdkVersion: "2.224.0",
    constructsVersion: "10.3.0",
    config: { name: "fintech-platform", stage: "bench", region: "us-east-1", ssmPrefix: "/sst/fintech-platform/bench/" },
    stacks: () => undefined,
    metafile: { inputs: {}, outputs: {} },
    paths: { root: REPO_ROOT, config: path.join(REPO_ROOT, "sst.config.ts"), out: scratch, artifacts: path.join(scratch, "artifacts") },
  } as Parameters<typeof setProject>[0]);
  const { useNodeHandler } = await import("sst/runtime/handlers/node.js");
  return useNodeHandler();
}

/** The .mjs files of a built function (the source map, if any, is not deployed in the zip). */
function bundleFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".mjs"))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

interface InitTime {
  wallMs: number;
  /** CPU time of the import: what a busy, shared machine distorts least. */
  cpuMs: number;
}

/** Module init of the built handler in a fresh process, as a cold Lambda instance runs it. */
function importTime(file: string): InitTime {
  const script = [
    "const cpu = process.cpuUsage(); const t = performance.now();",
    `await import(${JSON.stringify(path.resolve(file))});`,
    "const used = process.cpuUsage(cpu);",
    "process.stdout.write(JSON.stringify({ wallMs: performance.now() - t, cpuMs: (used.user + used.system) / 1000 }));",
  ].join("\n");
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH,
      // What the stack passes, with placeholders: nothing is contacted at init.
      STAGE: "bench",
      AWS_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: "bench",
      AWS_SECRET_ACCESS_KEY: "bench",
      TABLE_NAME: "bench-table",
      KYC_BUCKET: "bench-kyc",
      SETTLEMENTS_BUCKET: "bench-settlements",
      JWT_SECRET: "bench-secret-that-is-long-enough-for-hs256",
      ORIGIN_SECRET: "bench-origin-secret-long-enough-to-be-accepted",
      LOG_LEVEL: "silent",
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "1",
    },
    encoding: "utf8",
  });
  return JSON.parse(out) as InitTime;
}

const median = (numbers: number[]) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function measure(variant: Variant, scratchRoot: string, builder: Awaited<ReturnType<typeof useSstProject>>): Promise<Figures> {
  // Inside the repository, so a bundle with an external SDK resolves it from node_modules.
  const out = path.join(scratchRoot, variant.name.replace(/\W+/g, "-"));
  const result = await builder.build({
    functionID: `bench-${variant.name}`,
    mode: "deploy",
    out,
    props: { handler: API_HANDLER, runtime: "nodejs22.x", architecture: "arm_64", nodejs: variant.nodejs },
  });
  if (result.type === "error") throw new Error(`Build failed (${variant.name}):\n${result.errors.join("\n")}`);
  const files = bundleFiles(out);
  const bytes = files.reduce((sum, file) => sum + statSync(file).size, 0);
  const gzipBytes = files.reduce((sum, file) => sum + gzipSync(readFileSync(file), { level: 9 }).length, 0);
  const handlerFile = files.find((file) => file.endsWith(`${path.sep}api.mjs`));
  if (!handlerFile) throw new Error(`No api.mjs in ${out}`);
  importTime(handlerFile); // warm the OS file cache once, as the runtime's image would be
  const init = Array.from({ length: runs }, () => importTime(handlerFile));
  return { variant: variant.name, bytes, gzipBytes, init };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main() {
  const scratchRoot = mkdtempSync(path.join(REPO_ROOT, "node_modules", ".bench-cold-"));
  try {
    const builder = await useSstProject(scratchRoot);
    const deployed = functionBundling();
    const variants: Variant[] = [{ name: "deployed (infra/bundling.ts)", nodejs: deployed }];
    if (values.compare) {
      variants.push(
        { name: "deployed, AWS SDK external", nodejs: functionBundling({ externalSdk: true }) },
        { name: "deployed, all zod locales", nodejs: { ...deployed, esbuild: { ...deployed.esbuild, plugins: [] } } },
        { name: "SST defaults (esm only)", nodejs: { format: "esm" } },
      );
    }
    const rows: Figures[] = [];
    for (const variant of variants) rows.push(await measure(variant, scratchRoot, builder));

    console.log(`API function ${API_HANDLER}, Node ${process.version}, ${runs} fresh imports each (median, min-max)`);
    console.table(
      rows.map((row) => {
        const wall = row.init.map((time) => time.wallMs);
        return {
          build: row.variant,
          bundle: kb(row.bytes),
          gzip: kb(row.gzipBytes),
          "init median": `${median(wall).toFixed(1)} ms`,
          "init range": `${Math.min(...wall).toFixed(1)}-${Math.max(...wall).toFixed(1)} ms`,
          "init CPU median": `${median(row.init.map((time) => time.cpuMs)).toFixed(1)} ms`,
        };
      }),
    );
    const deployedRow = rows[0]!;
    const initMs = median(deployedRow.init.map((time) => time.wallMs));
    console.log(
      `Targets: gzip < 250 KB ${deployedRow.gzipBytes < 250 * 1024 ? "met" : "MISSED"}; ` +
        `module init < 150 ms ${initMs < 150 ? "met" : "MISSED"} (load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores)`,
    );
  } finally {
    // SST's logger opens <out>/debug.log lazily; removing the folder before that open makes
    // the process fail on exit, so wait for it (the stack tests do the same).
    const log = path.join(scratchRoot, "debug.log");
    for (let waited = 0; !existsSync(log) && waited < 2_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    rmSync(scratchRoot, { recursive: true, force: true });
  }
}

await main();
