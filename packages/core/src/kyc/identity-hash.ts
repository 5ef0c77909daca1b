import { createHmac } from "node:crypto";
import type { CoreContext } from "../shared/context";
import type { IdentityNumberRecord, IdentityNumberType } from "./model";

/**
 * Keyed hashes (HMAC) of normalised Aadhaar numbers and PANs: they find the same number on another
 * user and reveal nothing without IDENTITY_HASH_KEYS. The label is the one unversioned hashes were
 * made with, so those still match under a version that keeps that material (shared/keyring.ts).
 *
 * A hash cannot be recomputed under a new key without the number, so a number is hashed, and its
 * claim recorded, under every retained version: a number recorded before a rotation and the
 * same number recorded after it share the older version's hash. Removing a version ends matching
 * under it: a number recorded only under that version is no longer found by numbers recorded
 * afterwards (claims already stored still find each other, by their stored hashes).
 */
const LABEL = "kyc-identity-number";

export interface IdentityNumberHash {
  version: string;
  hash: string;
}

/** The number's hash under each retained version, the newest first. */
export function identityNumberHashes(
  ctx: CoreContext,
  type: IdentityNumberType,
  normalised: string,
): IdentityNumberHash[] {
  return ctx.config.IDENTITY_HASH_KEYS.versions.map((version) => ({
    version: version.version,
    hash: createHmac("sha256", version.key(LABEL)).update(`${type}:${normalised}`).digest("hex"),
  }));
}

/** Every hash a recorded number was claimed under (an unversioned record has one). */
export const recordedHashes = (record: IdentityNumberRecord): string[] => record.hashes ?? [record.hash];
