/**
 * KYC uploads under attack and load: `npm run bench:uploads [-- --runs 20] [-- --parallel 50]`
 *
 * Starts its own in-memory DynamoDB Local and S3 emulator (stopped on exit, error and Ctrl-C) and
 * the real Hono app in process (app.request, no sockets), then prints:
 *   - the 100-megapixel PNG bomb (10,000 x 10,000, a few KB; packages/core/src/kyc/documents/
 *     sample-images.ts) sent to POST /api/v1/kyc/upload and as either picture of POST
 *     /api/v1/kyc/verify/didit: the reply and its time, the first request (which loads sharp)
 *     apart from the next `runs` (min / median / p95 / max);
 *   - for scale, what decoding that bomb costs when nothing stops it (sharp with no pixel limit,
 *     the same analysis pipeline as the checks);
 *   - `parallel` uploads of one picture to one submission at once: the replies by status and
 *     code, and their times (median / max) per status; next to them, as many plain reads (GET
 *     /kyc/status) at once, what the crowd costs on this machine before any upload work.
 * Only 127.0.0.1 is contacted.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import sharp from "sharp";
import { ensureSystemAccounts } from "@fintech/core/ledger/accounts";
import { decompressionBombPng, sampleDocumentImage } from "@fintech/testing/kyc/sample-images";
import { seedSubmission } from "@fintech/testing/kyc/review-fixtures";
import { loadConfig } from "@fintech/core/shared/config";
import { createContext, type CoreContext } from "@fintech/core/shared/context";
import { createApp } from "@fintech/functions/app";
import { ensureTable } from "../local/bootstrap";
import "../local/cli"; // the local scripts' set-up: silences the SDK's Node 22 notice
import { startDynamoDbLocal, type DynamoDbLocal } from "../local/dynamodb-local";
import { localKeyEnv } from "../local/keys";
import { startS3Emulator, type S3Emulator } from "../local/s3-emulator";
import { releaseStore, stopOnceOnExit } from "./teardown";

const BUCKETS = { kyc: "bench-kyc-documents", settlements: "bench-settlements" };

function options() {
  const { values } = parseArgs({
    options: { runs: { type: "string", default: "20" }, parallel: { type: "string", default: "50" } },
    strict: true,
  });
  const int = (name: string, text: string) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
    return value;
  };
  return { runs: int("runs", values.runs), parallel: int("parallel", values.parallel) };
}

type App = ReturnType<typeof createApp>;
interface Reply {
  status: number;
  code: string | null;
  ms: number;
}

async function timed(request: () => Promise<Response>): Promise<Reply> {
  const started = performance.now();
  const response = await request();
  const body = (await response.json().catch(() => null)) as { code?: string } | null;
  return { status: response.status, code: body?.code ?? null, ms: performance.now() - started };
}

const uploadRequest = (app: App, token: string, bytes: Uint8Array) => () => {
  const form = new FormData();
  form.append("document_type", "passport");
  form.append("file", new Blob([bytes], { type: "image/png" }), "passport.png");
  return Promise.resolve(
    app.request("/api/v1/kyc/upload", { method: "POST", body: form, headers: { Authorization: `Bearer ${token}` } }),
  );
};

const diditRequest = (app: App, token: string, body: Record<string, string>) => () =>
  Promise.resolve(
    app.request("/api/v1/kyc/verify/didit", {
      method: "POST",
      body: JSON.stringify({ document_type: "passport", country_code: "IN", ...body }),
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    }),
  );

const percentile = (values: number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))] ?? Number.NaN;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

/** One line per case: the first request, then `runs` more (their min / median / p95 / max). */
async function measure(label: string, runs: number, request: () => Promise<Response>): Promise<void> {
  const first = await timed(request);
  const rest: Reply[] = [];
  for (let run = 0; run < runs; run++) rest.push(await timed(request));
  const answers = [...new Set([first, ...rest].map((reply) => `${reply.status} ${reply.code}`))].join(", ");
  const times = rest.map((reply) => reply.ms);
  console.log(
    `  ${label.padEnd(34)} ${answers.padEnd(20)} first ${ms(first.ms).padStart(9)}   next ${runs}: min ${ms(Math.min(...times))}, median ${ms(percentile(times, 0.5))}, p95 ${ms(percentile(times, 0.95))}, max ${ms(Math.max(...times))}`,
  );
}

async function signUp(app: App, index: number): Promise<{ token: string; userId: string }> {
  const response = await app.request("/api/v1/auth/register", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      email: `bench-uploads-${index}-${randomUUID().slice(0, 8)}@example.com`,
      password: "long enough pw",
      first_name: "Bench",
      last_name: "User",
    }),
  });
  const body = (await response.json()) as { data?: { token: string; user: { id: string } } };
  if (response.status !== 201 || !body.data)
    throw new Error(`Sign-up failed: ${response.status} ${JSON.stringify(body)}`);
  return { token: body.data.token, userId: body.data.user.id };
}

async function main() {
  const opts = options();
  const tableName = `bench-uploads-${randomUUID().slice(0, 8)}`;
  const directory = mkdtempSync(path.join(tmpdir(), "fintech-bench-uploads-"));
  let dynamo: DynamoDbLocal | null = null;
  let s3: S3Emulator | null = null;
  let ctx: CoreContext | null = null;
  const stop = stopOnceOnExit(async () => {
    await releaseStore(tableName, ctx ? [ctx] : [], dynamo);
    await s3?.stop();
    rmSync(directory, { recursive: true, force: true });
  });

  try {
    console.log(
      `machine: ${availableParallelism()} CPUs, load average ${loadavg()
        .map((load) => load.toFixed(1))
        .join(" ")} at start`,
    );
    dynamo = await startDynamoDbLocal();
    s3 = await startS3Emulator({ directory, corsOrigins: ["http://127.0.0.1"], bucketNames: BUCKETS });
    ctx = createContext(
      loadConfig({
        STAGE: "bench",
        TABLE_NAME: tableName,
        DYNAMODB_ENDPOINT: dynamo.endpoint,
        S3_ENDPOINT: s3.endpoint,
        KYC_BUCKET: BUCKETS.kyc,
        SETTLEMENTS_BUCKET: BUCKETS.settlements,
        ...localKeyEnv(null),
        LOG_LEVEL: "silent",
        PASSWORD_HASH_COST: "1024",
        AUTH_RATE_LIMIT_PER_IP: "1000000",
      }),
    );
    const core = ctx;
    await ensureTable(core.db);
    await ensureSystemAccounts(core);
    const app = createApp(core);
    console.log(
      `DynamoDB Local (in memory) on ${dynamo.endpoint}, S3 emulator on ${s3.endpoint}; the app in process (app.request)`,
    );

    const bomb = decompressionBombPng(10_000, 10_000);
    const good = await sampleDocumentImage({ seed: 1 });
    console.log(
      `\nthe bomb: a ${bomb.byteLength.toLocaleString("en-US")}-byte PNG declaring 10,000 x 10,000 (100 megapixels)`,
    );
    const attacker = await signUp(app, 0);
    await seedSubmission(core, { userId: attacker.userId, country: "IN" });
    await measure("POST /kyc/upload", opts.runs, uploadRequest(app, attacker.token, bomb));
    await measure(
      "POST /kyc/verify/didit (document)",
      opts.runs,
      diditRequest(app, attacker.token, { document_image: bomb.toString("base64") }),
    );
    await measure(
      "POST /kyc/verify/didit (face)",
      opts.runs,
      diditRequest(app, attacker.token, {
        document_image: good.toString("base64"),
        face_image: bomb.toString("base64"),
      }),
    );

    const decodeStarted = performance.now();
    const cpuBefore = process.cpuUsage();
    await sharp(bomb, { limitInputPixels: false })
      .greyscale()
      .resize({ width: 1024, height: 1024, fit: "inside" })
      .raw()
      .toBuffer();
    const cpu = process.cpuUsage(cpuBefore);
    console.log(
      `  for scale, decoding it unchecked:   ${ms(performance.now() - decodeStarted)} wall, ${ms((cpu.user + cpu.system) / 1000)} CPU`,
    );

    console.log(
      `\n${opts.parallel} uploads of one ${good.byteLength.toLocaleString("en-US")}-byte PNG to one submission, all at once`,
    );
    const applicant = await signUp(app, 1);
    await seedSubmission(core, { userId: applicant.userId, country: "IN" });
    const started = performance.now();
    const replies = await Promise.all(
      Array.from({ length: opts.parallel }, () => timed(uploadRequest(app, applicant.token, good))),
    );
    const wall = performance.now() - started;
    const groups = new Map<string, number[]>();
    for (const reply of replies)
      groups.set(`${reply.status} ${reply.code ?? ""}`.trim(), [
        ...(groups.get(`${reply.status} ${reply.code ?? ""}`.trim()) ?? []),
        reply.ms,
      ]);
    for (const [answer, times] of [...groups.entries()].sort()) {
      console.log(
        `  ${answer.padEnd(26)} ${String(times.length).padStart(3)} replies   median ${ms(percentile(times, 0.5))}, max ${ms(Math.max(...times))}`,
      );
    }
    console.log(`  all ${opts.parallel} answered in ${ms(wall)}`);
    // The same number of plain authenticated reads at once: what this machine and store take for the crowd alone.
    const reads = await Promise.all(
      Array.from({ length: opts.parallel }, () =>
        timed(() =>
          Promise.resolve(
            app.request("/api/v1/kyc/status", { headers: { Authorization: `Bearer ${applicant.token}` } }),
          ),
        ),
      ),
    );
    const readTimes = reads.map((reply) => reply.ms);
    console.log(
      `  for scale, ${opts.parallel} GET /kyc/status at once: median ${ms(percentile(readTimes, 0.5))}, max ${ms(Math.max(...readTimes))}`,
    );
  } finally {
    await stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
