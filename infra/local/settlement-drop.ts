import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { dropSettlementFile } from "@fintech/core/reconciliation/drop";
import { plantedCounts } from "@fintech/core/reconciliation/generator";
import { RailId, SettlementDate } from "@fintech/core/reconciliation/model";
import { loadConfig } from "@fintech/core/shared/config";
import { createContext } from "@fintech/core/shared/context";
import { REPO_ROOT } from "./cli";
import { LOCAL_ENDPOINTS_FILE } from "./stack";

/**
 * `npm run settlement:drop -- --rail ACH --date 2026-11-27 [--breaks N] [--suffix -resend]`:
 * generates the rail-day's settlement file from that day's real settled attempts (the
 * expectations the payment worker wrote), with N planted breaks spread over every class, and puts
 * it into the settlements bucket under incoming/, as a rail's processor would (with a checksum:
 * the bucket has Object Lock). The bucket's event then reconciles it. Prints what it planted.
 *
 * Locally it talks to the running `npm start` stack (its endpoints file); in the cloud set
 * TABLE_NAME, SETTLEMENTS_BUCKET and AWS credentials/region.
 */
const { values } = parseArgs({
  options: {
    rail: { type: "string" },
    date: { type: "string" },
    breaks: { type: "string", default: "0" },
    suffix: { type: "string", default: "" },
  },
  strict: true,
});

function localEnvironment(): Record<string, string> {
  const file = path.join(path.resolve(REPO_ROOT, process.env.DATA_DIR ?? ".data"), LOCAL_ENDPOINTS_FILE);
  if (process.env.TABLE_NAME || !existsSync(file)) return {};
  const endpoints = JSON.parse(readFileSync(file, "utf8")) as { dynamodb: string; s3: string; table: string };
  return { DYNAMODB_ENDPOINT: endpoints.dynamodb, S3_ENDPOINT: endpoints.s3, TABLE_NAME: endpoints.table };
}

async function main(): Promise<void> {
  const railId = RailId.safeParse((values.rail ?? "").toLowerCase());
  const date = SettlementDate.safeParse(values.date ?? "");
  const breaks = Number(values.breaks);
  const suffix = values.suffix ?? "";
  if (
    !railId.success ||
    !date.success ||
    !Number.isSafeInteger(breaks) ||
    breaks < 0 ||
    !/^[A-Za-z0-9._-]{0,40}$/.test(suffix)
  )
    throw new Error("Usage: npm run settlement:drop -- --rail ACH --date YYYY-MM-DD [--breaks N] [--suffix -resend]");
  const local = localEnvironment();
  if (!process.env.TABLE_NAME && !local.TABLE_NAME)
    throw new Error("No running local stack found (start it with `npm start`), and TABLE_NAME is not set");
  const core = createContext(loadConfig({ ...process.env, ...local, LOG_LEVEL: "warn" }));
  try {
    const dropped = await dropSettlementFile(core, { railId: railId.data, date: date.data, breaks, suffix });
    console.log(`Put s3://${core.storage.settlementsBucket}/${dropped.key}`);
    console.log(`  ${dropped.attempts} settled attempts on ${date.data}; ${dropped.lines} lines`);
    if (dropped.attempts === 0)
      console.log("  (no settled attempts that day: send payments to an external beneficiary first)");
    console.log(`  planted: ${JSON.stringify(plantedCounts(dropped.planted))}`);
    for (const plant of dropped.planted) console.log(`    ${plant.class.padEnd(18)} ${plant.reference}`);
  } finally {
    core.db.raw.destroy();
    core.storage.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
