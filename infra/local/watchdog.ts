import { spawn, type ChildProcess } from "node:child_process";

/**
 * Runs a command under a tiny shell that kills it as soon as our stdin pipe closes. The pipe
 * closes when this Node process exits for any reason (Ctrl-C, crash, even SIGKILL), so a child
 * such as DynamoDB Local's JVM can never be left behind as an orphan.
 */
const WATCHDOG = `
"$@" <&- &
child=$!
exec 3<&0
( cat <&3 >/dev/null; kill "$child" 2>/dev/null ) &
wait "$child"
`;

export interface WatchedProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

export function spawnWatched(command: string, args: string[], options: { cwd?: string } = {}): WatchedProcess {
  const child = spawn("sh", ["-c", WATCHDOG, "watchdog", command, ...args], {
    cwd: options.cwd,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin?.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
