import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Written into the data directory while a local stack uses it; holds that process's pid. */
export const DATA_LOCK_FILE = "stack.lock";

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The data directory ${dataDir} is in use by another local stack (pid ${pid}). ` +
        `Stop that one first, or start this one with another DATA_DIR.`,
    );
    this.name = "DataDirInUseError";
  }
}

export interface DataDirLock {
  release(): void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readHolder(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * One local stack per data directory: two DynamoDB Local processes on the same files corrupt
 * them. The lock is a file created exclusively, holding our pid. A lock whose process is gone
 * (a crash, kill -9) is stale and taken over; a live one refuses with DataDirInUseError.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, DATA_LOCK_FILE);
  const mine = String(process.pid);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, mine, { flag: "wx" });
      return {
        release() {
          if (readHolder(file) === process.pid) rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = readHolder(file);
      if (holder !== null && isAlive(holder)) throw new DataDirInUseError(dataDir, holder);
      rmSync(file, { force: true });
    }
  }
  // Another process took the stale lock over between our two attempts.
  throw new DataDirInUseError(dataDir, readHolder(file) ?? 0);
}
