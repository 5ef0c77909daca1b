/** Key formats of webhook endpoints (docs/webhooks.md#endpoints-and-secrets); nothing else builds these keys. */

/** Endpoint ids: `we_` and 26 lower-case letters and digits (a random 128-bit value, base32). */
export const ENDPOINT_ID_PATTERN = /^we_[a-z2-7]{26}$/;
export const isEndpointId = (value: string): boolean => ENDPOINT_ID_PATTERN.test(value);

/** An endpoint's settings and secrets, by id (delivery-keys.ts holds the dispatcher's items about it). */
export const ENDPOINT_PREFIX = "WHEP#";
export const endpointPartition = (endpointId: string) => `${ENDPOINT_PREFIX}${endpointId}`;
export const endpointKey = (endpointId: string) => ({ pk: endpointPartition(endpointId), sk: "ENDPOINT" });

/** The owner's endpoints, oldest first, through gsi1. */
export const endpointsByOwner = (ownerId: string, createdAt?: string, endpointId?: string) => ({
  gsi1pk: `OWNER#${ownerId}#WEBHOOKS`,
  ...(createdAt && endpointId ? { gsi1sk: `${createdAt}#${endpointId}` } : {}),
});

/**
 * The sparse index of enabled endpoints (gsi3): only an enabled endpoint carries these
 * attributes, so the dispatcher finds the owners it has work for in one partition, by owner.
 */
export const ENABLED_ENDPOINTS_PARTITION = "WEBHOOKS#ENABLED";
export const enabledEndpointIndex = (ownerId: string, endpointId: string) => ({
  gsi3pk: ENABLED_ENDPOINTS_PARTITION,
  gsi3sk: `${ownerId}#${endpointId}`,
});

/** How many endpoints an owner has: the counter that holds the per-user limit under concurrent creates. */
export const endpointCountKey = (ownerId: string) => ({ pk: `OWNER#${ownerId}#WEBHOOKS`, sk: "COUNT" });

/** A creation's Idempotency-Key, under a hash of (owner, key): the endpoint it created and the request's hash. */
export const endpointIdempotencyKey = (keyHash: string) => ({ pk: `WEBHOOKIDEM#${keyHash}`, sk: "IDEMPOTENCY" });
