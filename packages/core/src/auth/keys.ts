/** Key formats of the auth domain; nothing else builds these keys. */
export const userKey = (userId: string) => ({ pk: `USER#${userId}`, sk: "PROFILE" });
export const emailKey = (email: string) => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: "EMAIL" });
/** All users, newest first, for admin listings. */
export const usersIndex = (createdAt: string, userId: string) => ({
  gsi1pk: "USERS",
  gsi1sk: `${createdAt}#${userId}`,
});
/**
 * An API key is stored under the hash of its secret (the key itself is never stored), so the
 * bearer check is one GetItem; the owner's keys are listed through gsi1, newest first.
 */
export const apiKeyKey = (secretHash: string) => ({ pk: `APIKEY#${secretHash}`, sk: "APIKEY" });
export const apiKeysByOwner = (ownerId: string, createdAt?: string, keyId?: string) => ({
  gsi1pk: `OWNER#${ownerId}#APIKEYS`,
  ...(createdAt && keyId ? { gsi1sk: `${createdAt}#${keyId}` } : {}),
});
/** A pending change of sign-in email, under the hash of its link's secret (the secret is never stored). */
export const emailChangeKey = (tokenHash: string) => ({ pk: `EMAILCHANGE#${tokenHash}`, sk: "EMAILCHANGE" });
/** A signed-in session's record (its device, when it was created and last seen), beside its user's profile. */
export const SESSION_SORT_PREFIX = "SESSION#";
export const sessionKey = (userId: string, sessionId: string) => ({
  pk: `USER#${userId}`,
  sk: `${SESSION_SORT_PREFIX}${sessionId}`,
});
/** A pending password reset, under the hash of its link's secret. */
export const passwordResetKey = (tokenHash: string) => ({ pk: `PWRESET#${tokenHash}`, sk: "PWRESET" });
/** A pending email verification, under the hash of its link's secret. */
export const emailVerificationKey = (tokenHash: string) => ({ pk: `EMAILVERIFY#${tokenHash}`, sk: "EMAILVERIFY" });
