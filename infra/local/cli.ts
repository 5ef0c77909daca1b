import path from "node:path";
import { ConfigError } from "@fintech/core/shared/config";
import { DataDirInUseError } from "./data-lock";
import { MissingJavaError } from "./java";
import { PortInUseError, type LocalStack, type LocalStackOptions } from "./stack";

// The SDK warns on every start that releases after January 2027 need Node 22; this machine
// runs Node 20 (README.md#requirements), so the warning is noise for local runs.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

export const REPO_ROOT = path.resolve(import.meta.dirname, "../..");

/** Flags shared by `npm start` and `npm run dev`. */
export function cliOptions(
  argv: string[],
  env: NodeJS.ProcessEnv,
): Pick<LocalStackOptions, "port" | "dataDir" | "fresh"> {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got '${env.PORT}'`);
  return {
    port,
    dataDir: path.resolve(REPO_ROOT, env.DATA_DIR ?? ".data"),
    fresh: argv.includes("--fresh") || env.FRESH === "1" || env.FRESH === "true",
  };
}

/** Runs the stack until Ctrl-C / SIGTERM, then stops every child; exits non-zero on start-up failure. */
export async function runUntilSignalled(start: () => Promise<LocalStack>, label: string): Promise<void> {
  let stack: LocalStack;
  try {
    stack = await start();
  } catch (error) {
    const known =
      error instanceof PortInUseError ||
      error instanceof MissingJavaError ||
      error instanceof ConfigError ||
      error instanceof DataDirInUseError;
    console.error(
      `\n${label} could not start: ${known ? (error as Error).message : ((error as Error).stack ?? error)}\n`,
    );
    process.exit(1);
  }
  console.log(`\n  ${label} is running at ${stack.url}`);
  console.log(
    `  DynamoDB Local ${stack.endpoints.dynamodb} · S3 emulator ${stack.endpoints.s3} · table ${stack.config.TABLE_NAME}`,
  );
  console.log("  Press Ctrl-C to stop.\n");
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping...`);
    await stack.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}
