import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT, sharpPackagesFromLock, stagedSharp } from "./sharp";

const lock = JSON.parse(readFileSync(path.join(REPO_ROOT, "package-lock.json"), "utf8")) as Parameters<
  typeof sharpPackagesFromLock
>[0];
const names = (cpu: "arm64" | "x64") => sharpPackagesFromLock(lock, cpu).map((pkg) => pkg.name);

describe("sharp for Lambda, from the lock", () => {
  it("is sharp, its dependencies and the prebuilt binaries of Linux on that CPU with glibc, at the lock's versions", () => {
    expect(names("arm64")).toEqual([
      "@img/colour",
      "@img/sharp-libvips-linux-arm64",
      "@img/sharp-linux-arm64",
      "detect-libc",
      "semver",
      "sharp",
    ]);
    expect(names("x64")).toEqual([
      "@img/colour",
      "@img/sharp-libvips-linux-x64",
      "@img/sharp-linux-x64",
      "detect-libc",
      "semver",
      "sharp",
    ]);
    for (const pkg of sharpPackagesFromLock(lock, "arm64")) {
      expect(pkg).toMatchObject({
        version: lock.packages[`node_modules/${pkg.name}`]!.version,
        integrity: lock.packages[`node_modules/${pkg.name}`]!.integrity,
      });
    }
  });

  it("refuses a lock without the binary for the CPU (sharp could not run there)", () => {
    const { ["node_modules/@img/sharp-linux-arm64"]: _binary, ...packages } = lock.packages;
    expect(() => sharpPackagesFromLock({ packages }, "arm64")).toThrow(/no @img\/sharp-linux-arm64/);
  });

  describe("a staged copy", () => {
    const scratch = mkdtempSync(path.join(tmpdir(), "sharp-staging-"));
    afterAll(() => rmSync(scratch, { recursive: true, force: true }));

    /** A repository root holding the real lock and a staged folder made by hand. */
    function rootWith(packages: { name: string; version: string; integrity: string }[], manifest = packages) {
      const root = mkdtempSync(path.join(scratch, "root-"));
      cpSync(path.join(REPO_ROOT, "package-lock.json"), path.join(root, "package-lock.json"));
      const folder = path.join(root, ".native", "sharp-linux-arm64");
      for (const pkg of packages) {
        mkdirSync(path.join(folder, "node_modules", pkg.name), { recursive: true });
        writeFileSync(
          path.join(folder, "node_modules", pkg.name, "package.json"),
          JSON.stringify({ name: pkg.name, version: pkg.version }),
        );
      }
      writeFileSync(
        path.join(folder, "staged.json"),
        JSON.stringify({ cpu: "arm64", libc: "glibc", packages: manifest }),
      );
      return root;
    }
    const expected = sharpPackagesFromLock(lock, "arm64").map(({ name, version, integrity }) => ({
      name,
      version,
      integrity,
    }));

    it("is reused while it matches the lock", () => {
      expect(stagedSharp("arm64", rootWith(expected))?.packages).toEqual(expected);
    });

    it("is not, when a package's integrity, version or folder differs from the lock", () => {
      const tampered = expected.map((pkg) => (pkg.name === "sharp" ? { ...pkg, integrity: "sha512-other" } : pkg));
      expect(stagedSharp("arm64", rootWith(expected, tampered))).toBeUndefined();
      const older = expected.map((pkg) => (pkg.name === "sharp" ? { ...pkg, version: "0.34.0" } : pkg));
      expect(stagedSharp("arm64", rootWith(older, expected))).toBeUndefined();
      expect(
        stagedSharp(
          "arm64",
          rootWith(
            expected.filter((pkg) => pkg.name !== "semver"),
            expected,
          ),
        ),
      ).toBeUndefined();
    });
  });
});
