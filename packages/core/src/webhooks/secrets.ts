import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { AppConfig } from "../shared/config";

/**
 * Signing secrets at rest (docs/webhooks.md#endpoints-and-secrets). A secret must be used in
 * the clear to sign, so it cannot be stored as a hash like an API key; it is stored encrypted with
 * AES-256-GCM under a key of WEBHOOK_SECRET_KEYS (shared/keyring.ts), and the version that
 * encrypted it is stored beside it, so rotating the keyring leaves every stored secret readable
 * for as long as its version is kept. The endpoint's id is the additional data: a ciphertext
 * copied onto another endpoint does not decrypt.
 */

const LABEL = "fintech/webhook-secret/v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface SealedSecret {
  /** base64url of iv, tag and ciphertext. */
  ciphertext: string;
  /** The WEBHOOK_SECRET_KEYS version it was encrypted under. */
  key_version: string;
}

export class SecretUnreadableError extends Error {}

type Keys = Pick<AppConfig, "WEBHOOK_SECRET_KEYS">;

export function sealSecret(config: Keys, endpointId: string, secret: string): SealedSecret {
  const version = config.WEBHOOK_SECRET_KEYS.current;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", version.key(LABEL), iv);
  cipher.setAAD(Buffer.from(endpointId));
  const encrypted = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return {
    ciphertext: Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString("base64url"),
    key_version: version.version,
  };
}

export function openSecret(config: Keys, endpointId: string, sealed: SealedSecret): string {
  const version = config.WEBHOOK_SECRET_KEYS.find(sealed.key_version);
  if (!version)
    throw new SecretUnreadableError(
      `webhook secret of ${endpointId} is sealed under WEBHOOK_SECRET_KEYS version ${sealed.key_version}, no longer kept`,
    );
  const bytes = Buffer.from(sealed.ciphertext, "base64url");
  try {
    const decipher = createDecipheriv("aes-256-gcm", version.key(LABEL), bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(endpointId));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretUnreadableError(
      `webhook secret of ${endpointId} does not decrypt under version ${sealed.key_version}`,
    );
  }
}

/** The last characters of a secret, shown so a user can tell which secret a receiver holds. */
export const secretHint = (secret: string): string => secret.slice(-4);
