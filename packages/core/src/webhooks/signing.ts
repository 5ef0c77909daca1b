import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

/**
 * Signatures per the Standard Webhooks specification (docs/webhooks.md#signatures), made by its
 * reference library: HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<body>` with the
 * endpoint's secret, sent as `v1,<base64>`. While a rotated-out secret is still valid every
 * request carries one signature per secret, space-separated, so a receiver holding either
 * verifies it, and the library's verify accepts any matching one.
 */

/** The prefix of a signing secret as the Standard Webhooks libraries take it. */
export const SECRET_PREFIX = "whsec_";
/** Random bytes in a secret: the key of HMAC-SHA256, as long as its output. */
export const SECRET_BYTES = 32;
/** How a user-agent of the platform's webhook requests reads. */
export const WEBHOOK_USER_AGENT = "FintechPlatform-Webhooks/1.0";

/** A fresh signing secret: `whsec_` + base64 of 32 random bytes. */
export const newSigningSecret = (): string => `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString("base64")}`;

/** The headers of one delivery attempt: id, timestamp, one signature per secret, and the body's type. */
export function signedHeaders(secrets: string[], eventId: string, at: Date, body: string): Record<string, string> {
  if (secrets.length === 0) throw new RangeError("a webhook needs at least one signing secret");
  return {
    "webhook-id": eventId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(eventId, at, body)).join(" "),
    "content-type": "application/json",
  };
}
