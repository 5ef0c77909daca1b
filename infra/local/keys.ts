import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { keyringProblems, keyringText } from "@fintech/core/shared/keyring";
import { KEY_SECRETS, type KeySecretName } from "@fintech/core/shared/secret-names";

/**
 * The local stack's key secrets (packages/core/src/shared/secret-names.ts): one file per purpose
 * under <data dir>/keys/, generated on first start (owner-only), so sessions and API keys survive
 * restarts. Without a data directory every start gets fresh keys. A value in the environment wins.
 *
 * A data directory from before keys had purposes holds one `jwt-secret` from which every key was
 * derived. It is migrated once: sessions and cursors get fresh keys (signed-in browsers sign in
 * again), and the API-key and identity-number keyrings keep it as their previous version
 * `legacy` behind a fresh one, so stored API keys still work (each moves to the new key when
 * used) and identity numbers recorded before still match. Removing the `legacy` entry from those
 * two files retires it (shared/keyring.ts says what that ends). The old file is removed.
 */
export const LEGACY_SECRET_FILE = "jwt-secret";
export const KEYS_DIR = "keys";
export const LEGACY_VERSION = "legacy";

const freshMaterial = () => randomBytes(32).toString("hex");
const freshKeyring = () => keyringText("1", freshMaterial());

/** Keyrings whose stored hashes cannot be recomputed, and so keep the old secret as a version. */
const HASH_KEYRINGS: readonly KeySecretName[] = [KEY_SECRETS.apiKeyHash, KEY_SECRETS.identityHash];

export function localKeyEnv(
  dataDir: string | null,
  env: Record<string, string | undefined> = {},
): Record<KeySecretName, string> {
  const names = Object.values(KEY_SECRETS);
  if (!dataDir)
    return Object.fromEntries(names.map((name) => [name, env[name] ?? freshKeyring()])) as Record<
      KeySecretName,
      string
    >;
  const directory = path.join(dataDir, KEYS_DIR);
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const legacyFile = path.join(dataDir, LEGACY_SECRET_FILE);
  const legacy = existsSync(legacyFile) ? readFileSync(legacyFile, "utf8").trim() : null;
  // Kept only if it can be a keyring entry; one that cannot signed nothing worth keeping.
  const legacyEntry =
    legacy && keyringProblems(keyringText(LEGACY_VERSION, legacy)).length === 0
      ? keyringText(LEGACY_VERSION, legacy)
      : null;
  const keys = {} as Record<KeySecretName, string>;
  for (const name of names) {
    const file = path.join(directory, name);
    if (existsSync(file)) {
      keys[name] = readFileSync(file, "utf8").trim();
    } else {
      keys[name] = legacyEntry && HASH_KEYRINGS.includes(name) ? `${freshKeyring()},${legacyEntry}` : freshKeyring();
      writeFileSync(file, `${keys[name]}\n`, { mode: 0o600 });
    }
  }
  // Migrated: its material lives on only in the keyrings whose hashes need it.
  if (legacy !== null) rmSync(legacyFile, { force: true });
  for (const name of names) if (env[name]) keys[name] = env[name];
  return keys;
}
