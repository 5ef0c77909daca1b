import { spawnSync } from "node:child_process";

export class MissingJavaError extends Error {
  constructor(detail: string) {
    super(
      `DynamoDB Local needs a Java 17 (or newer) runtime, and ${detail}.\n` +
        `Install it with: sudo apt-get install -y openjdk-17-jre-headless`,
    );
    this.name = "MissingJavaError";
  }
}

/** Fails fast, with the package to install, before any child process is started. */
export function assertJavaAvailable(command = "java"): void {
  const probe = spawnSync(command, ["-version"], { encoding: "utf8" });
  if (probe.error || probe.status !== 0) throw new MissingJavaError(`'${command}' could not be run`);
  const version = /version "(\d+)/.exec(probe.stderr + probe.stdout)?.[1];
  if (version && Number(version) < 17) throw new MissingJavaError(`the installed one is Java ${version}`);
}
