/**
 * The key secrets, one per purpose, named once for the app (config.ts), the stacks (each is an
 * SST Config.Secret bound to the functions that use it), the local stack (one file each under
 * .data/keys/) and `npm run deploy:check`. No imports: the stacks load this file as it is.
 *
 * Each value is a keyring: `version:secret` entries separated by commas, the newest first (it
 * signs and hashes), older ones still accepted (see keyring.ts and docs/cloud.md#keys).
 */
export const KEY_SECRETS = {
  /** Signs session tokens (HS256, the version in the JWT header's `kid`). */
  session: "SESSION_KEYS",
  /** Signs paging cursors, feed cursors (Last-Event-ID) and stream tickets. */
  cursor: "CURSOR_KEYS",
  /** Keys the HMAC under which API keys are stored (the key itself never is). */
  apiKeyHash: "API_KEY_HASH_KEYS",
  /** Keys the HMAC of Aadhaar numbers and PANs, by which the same number on two users is found. */
  identityHash: "IDENTITY_HASH_KEYS",
  /** Keys the encryption (AES-256-GCM) of webhook signing secrets at rest; old versions still decrypt. */
  webhookSecret: "WEBHOOK_SECRET_KEYS",
} as const;

export type KeyPurpose = keyof typeof KEY_SECRETS;
export type KeySecretName = (typeof KEY_SECRETS)[KeyPurpose];

export const KEY_PURPOSES = Object.keys(KEY_SECRETS) as KeyPurpose[];
export const KEY_SECRET_NAMES: readonly KeySecretName[] = KEY_PURPOSES.map((purpose) => KEY_SECRETS[purpose]);

/**
 * The previous CloudFront origin secret, accepted beside ORIGIN_SECRET while a rotation
 * propagates (packages/functions/src/http/origin-verify.ts).
 */
export const ORIGIN_SECRET_PREVIOUS = "ORIGIN_SECRET_PREVIOUS";
