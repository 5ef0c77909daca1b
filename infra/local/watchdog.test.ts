import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { spawnWatched } from "./watchdog";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitUntil(condition: () => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return condition();
}

/** The pid of the watched command, found by its unique argument. */
function pidOf(marker: string): number | null {
  const found = spawnSync("pgrep", ["-f", `sleep ${marker}`], { encoding: "utf8" })
    .stdout.trim()
    .split("\n")
    .filter(Boolean);
  return found.length ? Number(found[0]) : null;
}

describe("spawnWatched", () => {
  it("stops the command when asked", async () => {
    const marker = `${1000 + Math.floor(Math.random() * 1000)}.1`;
    const watched = spawnWatched("sleep", [marker]);
    expect(await waitUntil(() => pidOf(marker) !== null)).toBe(true);
    await watched.stop();
    expect(await waitUntil(() => pidOf(marker) === null)).toBe(true);
  });

  it("kills the command when the parent process dies without cleaning up (SIGKILL)", async () => {
    const marker = `${2000 + Math.floor(Math.random() * 1000)}.2`;
    const parent = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "-e",
        `
      const { spawnWatched } = await import(${JSON.stringify(path.join(import.meta.dirname, "watchdog.ts"))});
      spawnWatched("sleep", [${JSON.stringify(marker)}]);
      setInterval(() => {}, 1000);
    `,
      ],
      { stdio: "ignore" },
    );
    expect(await waitUntil(() => pidOf(marker) !== null, 15_000)).toBe(true);
    const child = pidOf(marker)!;
    parent.kill("SIGKILL");
    expect(await waitUntil(() => !alive(child))).toBe(true);
  });
});
