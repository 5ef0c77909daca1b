import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { REPO_ROOT } from "./cli";
import { DATA_LOCK_FILE, DataDirInUseError, lockDataDir } from "./data-lock";

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "fintech-lock-"));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

/** The pid of a process that has exited: a lock left behind by a crash. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

describe("lockDataDir", () => {
  it("refuses a second holder while the first is alive, and frees the directory on release", () => {
    const first = lockDataDir(dataDir);
    expect(readFileSync(path.join(dataDir, DATA_LOCK_FILE), "utf8")).toBe(String(process.pid));
    expect(() => lockDataDir(dataDir)).toThrow(DataDirInUseError);
    expect(() => lockDataDir(dataDir)).toThrow(`in use by another local stack (pid ${process.pid})`);
    first.release();
    expect(existsSync(path.join(dataDir, DATA_LOCK_FILE))).toBe(false);
    lockDataDir(dataDir).release();
  });

  it("takes over a stale lock whose process is gone", () => {
    writeFileSync(path.join(dataDir, DATA_LOCK_FILE), String(deadPid()));
    const lock = lockDataDir(dataDir);
    expect(readFileSync(path.join(dataDir, DATA_LOCK_FILE), "utf8")).toBe(String(process.pid));
    lock.release();
  });

  it("takes over an unreadable lock", () => {
    writeFileSync(path.join(dataDir, DATA_LOCK_FILE), "not a pid");
    lockDataDir(dataDir).release();
  });
});

describe("npm start on a data directory in use", () => {
  it("exits 1 with one clear line, before starting anything", async () => {
    const lock = lockDataDir(dataDir);
    try {
      const child = spawn(process.execPath, ["--import", "tsx", path.join(REPO_ROOT, "infra/local/start.ts")], {
        cwd: REPO_ROOT,
        env: { ...process.env, DATA_DIR: dataDir, PORT: "0", AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
      expect(code).toBe(1);
      const lines = stderr.split("\n").filter((line) => line.trim());
      expect(lines).toEqual([
        `Fintech platform could not start: The data directory ${dataDir} is in use by another local stack (pid ${process.pid}). Stop that one first, or start this one with another DATA_DIR.`,
      ]);
    } finally {
      lock.release();
    }
  });
});
