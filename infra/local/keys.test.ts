import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "@fintech/core/shared/config";
import { KEY_SECRET_NAMES } from "@fintech/core/shared/secret-names";
import { KEYS_DIR, LEGACY_SECRET_FILE, localKeyEnv } from "./keys";

/** The local stack's keys: one per purpose, kept under the data directory, migrated once. */

const directories: string[] = [];
const dataDir = () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), "fintech-keys-"));
  directories.push(directory);
  return directory;
};
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

const materialsOf = (keys: Record<string, string>) =>
  Object.values(keys).flatMap((text) => text.split(",").map((entry) => entry.slice(entry.indexOf(":") + 1)));

describe("local keys", () => {
  it("are generated once per purpose, distinct, owner-only, and read back on the next start", () => {
    const directory = dataDir();
    const first = localKeyEnv(directory);
    expect(Object.keys(first).sort()).toEqual([...KEY_SECRET_NAMES].sort());
    expect(new Set(materialsOf(first)).size).toBe(KEY_SECRET_NAMES.length);
    for (const name of KEY_SECRET_NAMES) {
      const file = path.join(directory, KEYS_DIR, name);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(first[name]).toMatch(/^1:[0-9a-f]{64}$/);
    }
    expect(localKeyEnv(directory)).toEqual(first);
    // What the app loads without complaint.
    expect(loadConfig(first).SESSION_KEYS.current.version).toBe("1");
  });

  it("are fresh on every start without a data directory; the environment wins over both", () => {
    expect(localKeyEnv(null).SESSION_KEYS).not.toBe(localKeyEnv(null).SESSION_KEYS);
    const directory = dataDir();
    expect(localKeyEnv(directory, { CURSOR_KEYS: "9:from-the-environment-long-enough-for-a-key" }).CURSOR_KEYS).toBe(
      "9:from-the-environment-long-enough-for-a-key",
    );
    expect(localKeyEnv(null, { CURSOR_KEYS: "9:from-the-environment-long-enough-for-a-key" }).CURSOR_KEYS).toBe(
      "9:from-the-environment-long-enough-for-a-key",
    );
  });

  it("migrate an old jwt-secret: kept as the previous version of the two hash keyrings only, then the file goes", () => {
    const directory = dataDir();
    const old = "a".repeat(64);
    writeFileSync(path.join(directory, LEGACY_SECRET_FILE), `${old}\n`);
    const keys = localKeyEnv(directory);
    expect(existsSync(path.join(directory, LEGACY_SECRET_FILE))).toBe(false);
    expect(keys.API_KEY_HASH_KEYS).toMatch(new RegExp(`^1:[0-9a-f]{64},legacy:${old}$`));
    expect(keys.IDENTITY_HASH_KEYS).toMatch(new RegExp(`^1:[0-9a-f]{64},legacy:${old}$`));
    expect(keys.SESSION_KEYS).not.toContain(old);
    expect(keys.CURSOR_KEYS).not.toContain(old);
    expect(readFileSync(path.join(directory, KEYS_DIR, "API_KEY_HASH_KEYS"), "utf8").trim()).toBe(
      keys.API_KEY_HASH_KEYS,
    );
    // Stable from then on.
    expect(localKeyEnv(directory)).toEqual(keys);
  });
});
