/**
 * sharp for the Lambda functions that check KYC pictures, staged for their platform (Linux arm64,
 * glibc) at exactly the version package-lock.json records.
 *
 * Why: sharp is a native module (libvips), so esbuild cannot bundle it and the function ships the
 * installed package beside its bundle. node_modules holds the build machine's binaries (Linux x64
 * here), and SST's own fallback would run `npm install sharp@0.32.6` inside each build. Instead
 * this installs the lock's sharp with npm's platform flags into a git-ignored folder, checks every
 * package's integrity against the lock's entries (the same hashes `npm ci` verifies), and keeps
 * it: the deploy path (`npm run sst:deploy` / `sst:build`) and the stack tests' synthesis both
 * stage it first and copy the same folder, so what is deployed is what is tested. A staged copy
 * that still matches the lock is reused; npm is only asked when it does not.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Lambda's two architectures, as npm names the CPU. */
export type LambdaCpu = "arm64" | "x64";

/** Where staged copies live, relative to the repository root (git-ignored). */
export const NATIVE_STAGING_DIR = ".native";

export interface LockedPackage {
  name: string;
  version: string;
  /** The lock's Subresource Integrity hash of the package's tarball. */
  integrity: string;
}

interface LockEntry {
  version?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  libc?: string[];
}

interface Lockfile {
  packages: Record<string, LockEntry>;
}

const fitsLambda = (entry: LockEntry, cpu: LambdaCpu) =>
  (!entry.os || entry.os.includes("linux")) &&
  (!entry.cpu || entry.cpu.includes(cpu)) &&
  (!entry.libc || entry.libc.includes("glibc"));

const isPlatformSpecific = (entry: LockEntry) => Boolean(entry.os || entry.cpu || entry.libc);

/**
 * sharp and everything it loads on Linux `cpu` with glibc, as the lock records them: its
 * dependencies, and those optional dependencies (the prebuilt binaries) built for that platform.
 */
export function sharpPackagesFromLock(
  lock: Lockfile,
  cpu: LambdaCpu,
): (LockedPackage & { platformSpecific: boolean })[] {
  const found = new Map<string, LockedPackage & { platformSpecific: boolean }>();
  const visit = (name: string, optional: boolean) => {
    if (found.has(name)) return;
    const entry = lock.packages[`node_modules/${name}`];
    if (!entry) {
      if (optional) return;
      throw new Error(`package-lock.json has no entry for node_modules/${name}`);
    }
    if (!fitsLambda(entry, cpu)) return;
    if (!entry.version || !entry.integrity)
      throw new Error(`package-lock.json records no version or integrity for ${name}`);
    found.set(name, {
      name,
      version: entry.version,
      integrity: entry.integrity,
      platformSpecific: isPlatformSpecific(entry),
    });
    for (const dependency of Object.keys(entry.dependencies ?? {})) visit(dependency, false);
    for (const dependency of Object.keys(entry.optionalDependencies ?? {})) visit(dependency, true);
  };
  visit("sharp", false);
  if (![...found.values()].some((pkg) => pkg.name === `@img/sharp-linux-${cpu}`)) {
    throw new Error(`package-lock.json has no @img/sharp-linux-${cpu} for sharp: it cannot run on Lambda ${cpu}`);
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

function readLock(root: string): Lockfile {
  return JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8")) as Lockfile;
}

export interface StagedSharp {
  cpu: LambdaCpu;
  /** The staged node_modules folder, relative to the repository root (SST's copyFiles take that). */
  nodeModules: string;
  packages: LockedPackage[];
}

const stagingFolder = (cpu: LambdaCpu) => path.join(NATIVE_STAGING_DIR, `sharp-linux-${cpu}`);
const MANIFEST = "staged.json";

const samePackages = (a: readonly LockedPackage[], b: readonly LockedPackage[]) =>
  JSON.stringify(a.map(({ name, version, integrity }) => [name, version, integrity])) ===
  JSON.stringify(b.map(({ name, version, integrity }) => [name, version, integrity]));

/** Whether `folder` holds exactly `expected`: its manifest matches and every package is in place at its version. */
function holds(folder: string, expected: readonly LockedPackage[]): boolean {
  const manifest = path.join(folder, MANIFEST);
  if (!existsSync(manifest)) return false;
  const recorded = (JSON.parse(readFileSync(manifest, "utf8")) as { packages: LockedPackage[] }).packages;
  if (!samePackages(recorded, expected)) return false;
  return expected.every((pkg) => {
    const file = path.join(folder, "node_modules", pkg.name, "package.json");
    return existsSync(file) && (JSON.parse(readFileSync(file, "utf8")) as { version?: string }).version === pkg.version;
  });
}

/**
 * The staged copy for `cpu` if it is complete and matches the lock, else undefined. Synchronous,
 * for the stacks: they never install anything themselves.
 */
export function stagedSharp(cpu: LambdaCpu = "arm64", root = REPO_ROOT): StagedSharp | undefined {
  const expected = sharpPackagesFromLock(readLock(root), cpu);
  const folder = stagingFolder(cpu);
  if (!holds(path.join(root, folder), expected)) return undefined;
  return {
    cpu,
    nodeModules: path.join(folder, "node_modules"),
    packages: expected.map(({ name, version, integrity }) => ({ name, version, integrity })),
  };
}

/** What npm recorded for each package it installed (its hidden lockfile), to check against ours. */
function installedEntries(dir: string): Record<string, LockEntry> {
  return (JSON.parse(readFileSync(path.join(dir, "node_modules", ".package-lock.json"), "utf8")) as Lockfile).packages;
}

export interface StageOptions {
  root?: string;
  /** Progress lines (the deploy script prints them; the tests stay quiet). */
  log?: (line: string) => void;
}

/**
 * Makes sure the staged copy for `cpu` exists and matches the lock, installing it with npm if not.
 * Safe to run from several processes at once: each installs into its own folder, and the first
 * complete one is moved into place.
 */
export function stageSharp(
  cpu: LambdaCpu = "arm64",
  { root = REPO_ROOT, log = () => undefined }: StageOptions = {},
): StagedSharp {
  const ready = stagedSharp(cpu, root);
  if (ready) return ready;

  const expected = sharpPackagesFromLock(readLock(root), cpu);
  const stagingRoot = path.join(root, NATIVE_STAGING_DIR);
  mkdirSync(stagingRoot, { recursive: true });
  const work = mkdtempSync(path.join(stagingRoot, `.install-${cpu}-`));
  try {
    log(`Installing ${expected.map((pkg) => `${pkg.name}@${pkg.version}`).join(", ")} for Linux ${cpu} (glibc)`);
    // The platform packages come in as sharp's optional dependencies (npm refuses them as direct
    // ones on another platform); the others are pinned to the lock's versions.
    const direct = Object.fromEntries(
      expected.filter((pkg) => !pkg.platformSpecific).map((pkg) => [pkg.name, pkg.version]),
    );
    writeFileSync(path.join(work, "package.json"), JSON.stringify({ private: true, dependencies: direct }, null, 2));
    execFileSync(
      "npm",
      [
        "install",
        "--no-audit",
        "--no-fund",
        "--no-package-lock",
        "--ignore-scripts",
        "--os=linux",
        `--cpu=${cpu}`,
        "--libc=glibc",
      ],
      { cwd: work, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, npm_config_loglevel: "error" } },
    );
    const installed = installedEntries(work);
    for (const pkg of expected) {
      const entry = installed[`node_modules/${pkg.name}`];
      if (entry?.version !== pkg.version || entry.integrity !== pkg.integrity) {
        throw new Error(
          `${pkg.name}: npm installed ${entry?.version ?? "nothing"} (${entry?.integrity ?? "no integrity"}), package-lock.json has ${pkg.version} (${pkg.integrity})`,
        );
      }
    }

    const folder = path.join(root, stagingFolder(cpu));
    const candidate = `${work}-staged`;
    for (const pkg of expected) {
      cpSync(path.join(work, "node_modules", pkg.name), path.join(candidate, "node_modules", pkg.name), {
        recursive: true,
      });
    }
    const packages = expected.map(({ name, version, integrity }) => ({ name, version, integrity }));
    writeFileSync(path.join(candidate, MANIFEST), `${JSON.stringify({ cpu, libc: "glibc", packages }, null, 2)}\n`);
    if (stagedSharp(cpu, root)) {
      // Another process staged the same packages meanwhile (the stack test files synthesise in
      // parallel): keep that copy, which may be in use.
      rmSync(candidate, { recursive: true, force: true });
    } else {
      rmSync(folder, { recursive: true, force: true });
      try {
        renameSync(candidate, folder);
      } catch (error) {
        rmSync(candidate, { recursive: true, force: true });
        if (!stagedSharp(cpu, root)) throw error;
      }
    }
    log(`Staged in ${stagingFolder(cpu)}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const staged = stagedSharp(cpu, root);
  if (!staged) throw new Error(`Staging sharp for Linux ${cpu} did not leave a complete copy in ${stagingFolder(cpu)}`);
  return staged;
}
