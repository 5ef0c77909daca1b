import { hkdfSync } from "node:crypto";
import type { KeySecretName } from "./secret-names";

/**
 * One purpose's keys, by version. A secret's value is a keyring: `version:secret` entries
 * separated by commas, the newest first, e.g. `2:9f...c1,1:4b...7e`. The newest signs and
 * hashes; the others are still accepted, so a rotation is: put a new entry in front, deploy, and
 * remove the old one once nothing needs it any more (sessions: after TOKEN_TTL_SECONDS).
 *
 * What "nothing needs it" means depends on the purpose. Signatures (sessions, cursors, tickets)
 * expire by themselves. Hashes do not: an API key or an identity number is only ever stored as
 * an HMAC, which cannot be recomputed under a new key without the raw value. So lookups try every
 * retained version (API keys are re-keyed to the newest when used), and retiring a version ends
 * matching under it: API keys not used since the rotation stop working, and identity numbers
 * recorded only under that version are no longer found on other users.
 *
 * Each entry is key material, not the key itself: the key for a use is HKDF(material, label).
 * That turns any material into a uniform 32-byte key, and lets one keyring serve two close uses
 * with keys that never verify for each other (the cursor keyring signs paging cursors, feed
 * cursors and stream tickets: all short-lived, server-issued, verified by this app alone, and
 * rotated together).
 */
export interface KeyVersion {
  readonly version: string;
  /** The key for one use of this version, derived with the use's label. */
  key(label: string): Buffer;
}

export interface Keyring {
  readonly name: KeySecretName;
  /** False when the secret is not set for this function; then any use throws. */
  readonly configured: boolean;
  /** Newest first. */
  readonly versions: readonly KeyVersion[];
  /** The version that signs and hashes. */
  readonly current: KeyVersion;
  find(version: string): KeyVersion | undefined;
}

export class KeyringError extends Error {}

/** Versions name keys in tokens (`kid`) and on stored hashes: short and plain. */
const VERSION = /^[A-Za-z0-9_-]{1,16}$/;
/** Material is a generated secret: at least 32 printable characters, no separators. */
const MATERIAL = /^[\x21-\x2b\x2d-\x7e]{32,512}$/;
/** Lookups of hashes try every version, so the list stays short. */
export const MAX_KEY_VERSIONS = 4;

function keyVersion(version: string, material: string): KeyVersion {
  const keys = new Map<string, Buffer>();
  return {
    version,
    key(label) {
      let key = keys.get(label);
      if (!key) {
        key = Buffer.from(hkdfSync("sha256", material, "", label, 32));
        keys.set(label, key);
      }
      return key;
    },
  };
}

/** Every problem with a keyring's text, in words an operator can act on (never the material). */
export function keyringProblems(text: string): string[] {
  const entries = text.split(",").map((entry) => entry.trim());
  if (entries.length > MAX_KEY_VERSIONS)
    return [`at most ${MAX_KEY_VERSIONS} versions may be kept (found ${entries.length})`];
  const problems: string[] = [];
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    const colon = entry.indexOf(":");
    const version = colon > 0 ? entry.slice(0, colon) : "";
    const material = colon > 0 ? entry.slice(colon + 1) : "";
    if (!VERSION.test(version))
      problems.push(`entry ${index + 1} must start with a version (1-16 letters, digits, - or _) and a colon`);
    else if (seen.has(version)) problems.push(`version ${version} appears twice`);
    else if (!MATERIAL.test(material))
      problems.push(`the secret of version ${version} must be 32 to 512 printable characters without commas or spaces`);
    seen.add(version);
  });
  return problems;
}

/** The entries of a well-formed keyring's text, newest first (deploy:check compares materials). */
export function keyringEntries(text: string): { version: string; material: string }[] {
  return text.split(",").map((entry) => {
    const trimmed = entry.trim();
    const colon = trimmed.indexOf(":");
    return { version: trimmed.slice(0, colon), material: trimmed.slice(colon + 1) };
  });
}

export function parseKeyring(name: KeySecretName, text: string): Keyring {
  const problems = keyringProblems(text);
  if (problems.length > 0) throw new KeyringError(`${name}: ${problems.join("; ")}`);
  const versions = keyringEntries(text).map((entry) => keyVersion(entry.version, entry.material));
  const byVersion = new Map(versions.map((version) => [version.version, version]));
  return { name, configured: true, versions, current: versions[0]!, find: (version) => byVersion.get(version) };
}

/**
 * A keyring whose secret this function was not given: each function is bound only the secrets
 * it uses, and using another one is a deployment mistake, reported by name.
 */
export function unconfiguredKeyring(name: KeySecretName): Keyring {
  const missing = (): never => {
    throw new KeyringError(`${name} is not set for this function (bind the secret in stacks/, or set it locally)`);
  };
  return {
    name,
    configured: false,
    get versions() {
      return missing();
    },
    get current() {
      return missing();
    },
    find: () => missing(),
  };
}

/** A fresh keyring text with one version: what the local stack and deploy docs generate. */
export const keyringText = (version: string, material: string): string => `${version}:${material}`;
