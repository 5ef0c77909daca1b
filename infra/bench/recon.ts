/**
 * Settlement reconciliation benchmark: `npm run bench:recon -- --lines 200000 [--breaks 200]
 * [--heap-mb 160]` (several sizes: `--lines 100000,200000`).
 *
 * Starts its own in-memory DynamoDB Local and S3 emulator (stopped on exit, error and Ctrl-C).
 * For each size N: seeds N settlement expectations of one rail-day with BatchWriteItem straight
 * into the table (not through payments: N real payments would take the payments benchmark's time
 * many times over, and reconciliation reads only the expectations), generates an N-line file with
 * planted breaks spread over every class (written to a temporary file, never held as lines), puts
 * it into the settlements bucket and reconciles it with the core entry point the S3 event calls.
 * The reconciliation runs in a fresh Node process from a bundle built as the deployed functions
 * are (recon-child.ts), as in the cloud's Lambda, which reports its time, its peak RSS and the
 * items it read and wrote (counted on its client). Prints lines/s, those
 * figures and the break counts found against the planted ones: a mismatch exits non-zero.
 */
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { once } from "node:events";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { spawn } from "node:child_process";
import { parseArgs } from "node:util";
import { ensureSystemAccounts } from "@fintech/core/ledger/accounts";
import { generateSettlementFile, plantedCounts, type PlantedBreak } from "@fintech/core/reconciliation/generator";
import type { Rail } from "@fintech/core/rails/model";
import { settlementFileKey } from "@fintech/core/reconciliation/model";
import { listRails } from "@fintech/core/rails/store";
import { loadConfig } from "@fintech/core/shared/config";
import { createContext, type CoreContext } from "@fintech/core/shared/context";
import { putSettlementObject, seedExpectations, syntheticExpectations } from "@fintech/testing/reconciliation";
import { ensureTable } from "../local/bootstrap";
import "../local/cli"; // the local scripts' set-up: silences the SDK's Node 22 notice
import { startDynamoDbLocal, type DynamoDbLocal } from "../local/dynamodb-local";
import { localKeyEnv } from "../local/keys";
import { startS3Emulator, type S3Emulator } from "../local/s3-emulator";
import { deployedBuildOptions } from "../bundling";
import type { ChildRun } from "./recon-child";
import { releaseStore, stopOnceOnExit } from "./teardown";

const BUCKETS = { kyc: "bench-kyc-documents", settlements: "bench-settlements" };

function options(): { sizes: number[]; breaks: number | null; heapMb: number | null } {
  const { values } = parseArgs({
    options: {
      lines: { type: "string", default: "200000" },
      breaks: { type: "string" },
      "heap-mb": { type: "string" },
    },
    strict: true,
  });
  const sizes = values.lines.split(",").map(Number);
  if (sizes.some((size) => !Number.isInteger(size) || size < 10)) throw new Error("--lines must be integers >= 10");
  const breaks = values.breaks === undefined ? null : Number(values.breaks);
  if (breaks !== null && (!Number.isInteger(breaks) || breaks < 0)) throw new Error("--breaks must be an integer >= 0");
  const heapMb = values["heap-mb"] === undefined ? null : Number(values["heap-mb"]);
  if (heapMb !== null && (!Number.isInteger(heapMb) || heapMb < 64))
    throw new Error("--heap-mb must be an integer >= 64");
  return { sizes, breaks, heapMb };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** Generates the N-line file to disk and puts it into the bucket; returns what was planted. */
async function writeFile(
  core: CoreContext,
  directory: string,
  rail: Rail,
  date: string,
  size: number,
  index: number,
  breaks: number,
  key: string,
): Promise<{ lineCount: number; planted: PlantedBreak[] }> {
  const generated = generateSettlementFile([...syntheticExpectations(rail.id, date, size, `B${index}`)], {
    railId: rail.id,
    date,
    settlementSeconds: rail.settlementSeconds,
    breaks,
  });
  const filePath = path.join(directory, `${date}.csv`);
  const out = createWriteStream(filePath);
  for (const row of generated.rows()) if (!out.write(`${row}\n`)) await once(out, "drain");
  out.end();
  await once(out, "finish");
  const body = readFileSync(filePath);
  await putSettlementObject(core, key, body);
  console.log(
    `file: ${generated.lineCount.toLocaleString("en-US")} lines, ${mb(body.byteLength)}, ${breaks} planted breaks`,
  );
  return { lineCount: generated.lineCount, planted: generated.planted };
}

/** Bundles recon-child.ts as the deployed functions are bundled, into `directory`. */
async function bundleChild(directory: string): Promise<string> {
  const esbuild = await import("esbuild");
  const outfile = path.join(directory, "recon-child.mjs");
  await esbuild.build({
    ...deployedBuildOptions(),
    entryPoints: [path.join(import.meta.dirname, "recon-child.ts")],
    outfile,
  });
  return outfile;
}

/**
 * Reconciles in a fresh Node process running the bundled recon-child.ts, as the cloud's Lambda
 * runs its bundle: its memory is the reconciliation's (the emulators and the seeding stay in this one).
 */
async function reconcileInChild(
  bundle: string,
  configInput: Record<string, string>,
  key: string,
  heapMb: number | null,
): Promise<ChildRun> {
  // --heap-mb caps V8's old space as a Lambda's NODE_OPTIONS would: V8 otherwise grows the heap long before it collects.
  const heap = heapMb === null ? [] : [`--max-old-space-size=${heapMb}`];
  const child = spawn(process.execPath, [...heap, bundle, key], {
    env: { ...process.env, BENCH_CONFIG: JSON.stringify(configInput) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const [code] = (await once(child, "exit")) as [number | null];
  if (code !== 0) throw new Error(`the reconciling process exited with ${code}: ${output.slice(-500)}`);
  return JSON.parse(output.trim().split("\n").pop() ?? "{}") as ChildRun;
}

async function main(): Promise<void> {
  const opts = options();
  const directory = mkdtempSync(path.join(tmpdir(), "fintech-bench-recon-"));
  const tableName = `bench-recon-${Date.now()}`;
  let dynamo: DynamoDbLocal | null = null;
  let s3: S3Emulator | null = null;
  let ctx: CoreContext | null = null;
  const stop = stopOnceOnExit(async () => {
    await releaseStore(tableName, ctx ? [ctx] : [], dynamo);
    await s3?.stop();
    rmSync(directory, { recursive: true, force: true });
  });
  let failed = false;
  try {
    console.log(
      `machine: ${availableParallelism()} CPUs, load average ${loadavg()
        .map((load) => load.toFixed(1))
        .join(" ")} at start`,
    );
    dynamo = await startDynamoDbLocal();
    s3 = await startS3Emulator({
      directory: path.join(directory, "s3"),
      corsOrigins: ["http://127.0.0.1"],
      bucketNames: BUCKETS,
    });
    const configInput: Record<string, string> = {
      STAGE: "bench",
      TABLE_NAME: tableName,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      S3_ENDPOINT: s3.endpoint,
      KYC_BUCKET: BUCKETS.kyc,
      SETTLEMENTS_BUCKET: BUCKETS.settlements,
      ...localKeyEnv(null),
      LOG_LEVEL: "silent",
    };
    ctx = createContext(loadConfig(configInput));
    const childBundle = await bundleChild(directory);
    const core = ctx;
    await ensureTable(core.db);
    // Idempotent; on a loaded machine DynamoDB Local may time out one of its transactions: try again.
    for (let attempt = 1; ; attempt++) {
      try {
        await ensureSystemAccounts(core);
        break;
      } catch (error) {
        if (attempt >= 5) throw error;
      }
    }
    const rail = (await listRails(core)).find((item) => item.id === "ach")!;
    const timings: { lines: number; seconds: number }[] = [];

    for (const [index, size] of opts.sizes.entries()) {
      const date = `2030-01-${String(10 + index).padStart(2, "0")}`;
      const breaks = opts.breaks ?? Math.max(5, Math.round(size / 1000));
      const seedStart = performance.now();
      await seedExpectations(core, syntheticExpectations(rail.id, date, size, `B${index}`), 16);
      console.log(
        `\n${size.toLocaleString("en-US")} expectations of ${rail.name} ${date} seeded by BatchWriteItem in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
      );
      const key = settlementFileKey(rail.id, date);
      const generated = await writeFile(core, directory, rail, date, size, index, breaks, key);
      const run = await reconcileInChild(childBundle, configInput, key, opts.heapMb);
      const { outcome, seconds } = run;
      if (outcome.outcome !== "reconciled") throw new Error(`not reconciled: ${JSON.stringify(outcome)}`);
      timings.push({ lines: generated.lineCount, seconds });
      const found = Object.fromEntries(Object.entries(outcome.file.breakCounts).filter(([, count]) => count > 0));
      const planted = plantedCounts(generated.planted);
      const equal = JSON.stringify(Object.entries(found).sort()) === JSON.stringify(Object.entries(planted).sort());
      if (!equal) failed = true;
      console.log(
        `reconciled in ${seconds.toFixed(1)} s: ${Math.round(generated.lineCount / seconds).toLocaleString("en-US")} lines/s`,
      );
      console.log(
        `peak RSS of the reconciling process: ${mb(run.peakRss)} (${mb(run.rssBefore)} before it started reconciling)`,
      );
      console.log(
        `items read ${run.counts.read.toLocaleString("en-US")}, items written ${run.counts.written.toLocaleString("en-US")}`,
      );
      console.log(`breaks found   ${JSON.stringify(found)}`);
      console.log(`breaks planted ${JSON.stringify(planted)} ${equal ? "(equal)" : "(DIFFERENT)"}`);
      console.log(`status ${outcome.file.statusLabel}, variance ${outcome.file.variance} %`);
    }
    if (timings.length > 1) {
      const [small, large] = [timings[0]!, timings[timings.length - 1]!];
      console.log(
        `\ntime(${large.lines}) / time(${small.lines}) = ${(large.seconds / small.seconds).toFixed(2)} for ${(large.lines / small.lines).toFixed(2)}x the lines`,
      );
    }
  } finally {
    await stop();
  }
  if (failed) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
