import { createHmac, randomBytes } from "node:crypto";
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import type { CoreContext } from "../shared/context";
import { cancellationCodes, isAwsError, queryAll } from "../shared/dynamo";
import type { KeyVersion } from "../shared/keyring";
import { conflict, notFound, unauthorized } from "../shared/errors";
import { newId } from "../shared/ids";
import { parseWith } from "../shared/validation";
import { apiKeyKey, apiKeysByOwner } from "./keys";
import { limitAccountChange } from "./account-limits";
import {
  API_KEY_PREFIX,
  API_KEY_VISIBLE_LENGTH,
  ApiKeyView,
  CreateApiKeyInput,
  DEFAULT_API_KEY_SCOPES,
  MAX_ACTIVE_API_KEYS,
  normaliseScopes,
  type ApiKeyScope,
  type PublicUser,
} from "./model";
import { findUserById, toPublicUser } from "./users";

/**
 * API keys (docs/auth.md#api-keys): random 32-byte secrets shown to their owner once. Only an HMAC
 * of the key is stored (keyed with API_KEY_HASH_KEYS, so a stolen table alone does not let anyone
 * test guesses), and it is the item's key: authenticating a key is one GetItem. A key acts for its
 * owner on the owner's own resources, always with the role `user`: it never reaches an admin route,
 * even when its owner is an admin. Its scopes (model.ts API_KEY_SCOPES) say which parts of the API
 * it reaches; the HTTP layer checks them on every request.
 *
 * Rotation: the hash cannot be recomputed without the key, so a key stored under an older
 * version of the keyring is looked up under each retained version in turn, and moved to the
 * newest on its first use (same id, same record). Removing a version from the keyring ends the
 * keys that were not used since (see shared/keyring.ts).
 */
const LABEL = "fintech/api-key-hash/v1";
/** Refresh last_used_at at most this often per key, so a busy key costs no write per request. */
export const LAST_USED_RESOLUTION_MS = 60_000;
const KEY_SHAPE = /^fpk_[A-Za-z0-9_-]{43}$/;

const StoredApiKey = ApiKeyView.extend({
  owner_id: z.string(),
  /** The API_KEY_HASH_KEYS version the item's hash was made with (absent on an unversioned key). */
  hash_version: z.string().optional(),
  /** A key stored without scopes reads as DEFAULT_API_KEY_SCOPES. Unknown scopes are dropped. */
  scopes: z
    .array(z.string())
    .optional()
    .transform((stored): ApiKeyScope[] =>
      stored === undefined ? [...DEFAULT_API_KEY_SCOPES] : normaliseScopes(stored),
    ),
});
type StoredApiKey = z.infer<typeof StoredApiKey>;

const hashOf = (version: KeyVersion, key: string) =>
  createHmac("sha256", version.key(LABEL)).update(key).digest("base64url");

export const isApiKey = (bearer: string): boolean => bearer.startsWith(API_KEY_PREFIX);

const view = (stored: StoredApiKey): ApiKeyView => ApiKeyView.parse(stored);

/** The owner's keys, newest first, with the table key of each (the hash, which stays on the server). */
async function ownerKeys(ctx: CoreContext, ownerId: string) {
  const items = await queryAll(ctx.db, {
    IndexName: "gsi1",
    KeyConditionExpression: "gsi1pk = :pk",
    ExpressionAttributeValues: { ":pk": apiKeysByOwner(ownerId).gsi1pk },
    ScanIndexForward: false,
  });
  return items.map((item) => ({
    itemKey: { pk: String(item.pk), sk: String(item.sk) },
    stored: StoredApiKey.parse(item),
  }));
}

export async function listApiKeys(ctx: CoreContext, ownerId: string): Promise<ApiKeyView[]> {
  return (await ownerKeys(ctx, ownerId)).map((entry) => view(entry.stored));
}

function apiKeyItem(version: KeyVersion, key: string, stored: StoredApiKey) {
  return {
    ...apiKeyKey(hashOf(version, key)),
    ...apiKeysByOwner(stored.owner_id, stored.created_at, stored.id),
    entity: "api_key",
    ...stored,
    hash_version: version.version,
  };
}

/**
 * Creates a key with the scopes asked for (every scope when none are given); the reply is the
 * only place its secret ever appears. Every attempt counts against the owner's creation limit
 * (account-limits.ts), a refused one too.
 */
export async function createApiKey(
  ctx: CoreContext,
  ownerId: string,
  body: unknown,
): Promise<ApiKeyView & { key: string }> {
  await limitAccountChange(ctx, "apiKeyCreation", ownerId);
  const input = parseWith(CreateApiKeyInput, body);
  const active = (await ownerKeys(ctx, ownerId)).filter((entry) => entry.stored.revoked_at === null);
  if (active.length >= MAX_ACTIVE_API_KEYS) {
    throw conflict(`You have ${MAX_ACTIVE_API_KEYS} active API keys; revoke one first`, "api_key_limit");
  }
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  const current = ctx.config.API_KEY_HASH_KEYS.current;
  const stored: StoredApiKey = {
    id: newId(),
    owner_id: ownerId,
    name: input.name,
    prefix: key.slice(0, API_KEY_VISIBLE_LENGTH),
    created_at: ctx.clock().toISOString(),
    last_used_at: null,
    revoked_at: null,
    hash_version: current.version,
    scopes: input.scopes ?? [...DEFAULT_API_KEY_SCOPES],
  };
  await ctx.db.doc.send(
    new PutCommand({
      TableName: ctx.db.table,
      Item: { ...apiKeyItem(current, key, stored) },
      ConditionExpression: "attribute_not_exists(pk)",
    }),
  );
  ctx.logger.info("api key created", {
    owner_id: ownerId,
    key_id: stored.id,
    prefix: stored.prefix,
    scopes: stored.scopes,
  });
  return { ...view(stored), key };
}

/** Revokes one of the owner's keys (another user's id is a 404); the record stays, for the audit. */
const REVOKE_ATTEMPTS = 4;

export async function revokeApiKey(ctx: CoreContext, ownerId: string, keyId: string): Promise<ApiKeyView> {
  const revokedAt = ctx.clock().toISOString();
  for (let attempt = 1; attempt <= REVOKE_ATTEMPTS; attempt++) {
    const found =
      keyId.length <= 64 ? (await ownerKeys(ctx, ownerId)).find((entry) => entry.stored.id === keyId) : undefined;
    if (!found) throw notFound("API key not found", "api_key_not_found");
    if (found.stored.revoked_at) return view(found.stored);
    try {
      await ctx.db.doc.send(
        new UpdateCommand({
          TableName: ctx.db.table,
          Key: found.itemKey,
          UpdateExpression: "SET revoked_at = :at",
          // Stored as null until revoked. The item must still be there: a key re-keyed to a new hash
          // version since the listing lives under another key now, and is looked up again.
          ConditionExpression: "attribute_exists(pk) AND attribute_type(revoked_at, :null)",
          ExpressionAttributeValues: { ":at": revokedAt, ":null": "NULL" },
        }),
      );
      ctx.logger.info("api key revoked", { owner_id: ownerId, key_id: keyId });
      return view({ ...found.stored, revoked_at: revokedAt });
    } catch (error) {
      if (!isAwsError(error, "ConditionalCheckFailedException")) throw error;
    }
  }
  throw conflict("The API key changed while revoking it; try again", "concurrent_update");
}

/**
 * A 401 unless the key is still active and its owner still exists: what an open stream asks
 * every so often. Keys are never deleted, so a key missing from the owner's list is not theirs.
 * Answers the key's scopes (a stream ticket acts with them).
 */
export async function assertApiKeyActive(
  ctx: CoreContext,
  ownerId: string,
  keyId: string,
): Promise<{ scopes: ApiKeyScope[] }> {
  const invalid = () => unauthorized("Invalid or revoked API key", "invalid_api_key");
  const found = (await ownerKeys(ctx, ownerId)).find((entry) => entry.stored.id === keyId);
  if (!found || found.stored.revoked_at) throw invalid();
  if (!(await findUserById(ctx.db, ownerId))) throw invalid();
  return { scopes: found.stored.scopes };
}

/**
 * The owner an API key acts for, as a session would: the user must still exist, and the role is
 * always `user`. Unknown, malformed and revoked keys are the same 401.
 */
export async function authenticateApiKey(
  ctx: CoreContext,
  key: string,
): Promise<{ sub: string; role: "user"; user: PublicUser; apiKeyId: string; scopes: ApiKeyScope[] }> {
  const invalid = () => unauthorized("Invalid or revoked API key", "invalid_api_key");
  if (!KEY_SHAPE.test(key)) throw invalid();
  const found = await findByKey(ctx, key);
  if (!found) throw invalid();
  const { stored } = found;
  if (stored.revoked_at) throw invalid();
  const owner = await findUserById(ctx.db, stored.owner_id);
  if (!owner) throw invalid();
  const keyring = ctx.config.API_KEY_HASH_KEYS;
  if (found.version !== keyring.current) await rekey(ctx, key, found);
  else await touch(ctx, found.itemKey, stored);
  return {
    sub: owner.id,
    role: "user",
    user: { ...toPublicUser(owner), role: "user" },
    apiKeyId: stored.id,
    scopes: stored.scopes,
  };
}

interface FoundKey {
  version: KeyVersion;
  itemKey: { pk: string; sk: string };
  stored: StoredApiKey;
}

/**
 * The key's item under the newest hash version that has it: one GetItem, more only after a rotation.
 * A concurrent use may move the item to the newest version between our reads of the newest and an
 * older one (rekey), so a key found nowhere is looked up once more from the newest: a move only
 * goes forward, and a key that is really unknown costs one more pass.
 */
async function findByKey(ctx: CoreContext, key: string): Promise<FoundKey | null> {
  for (let pass = 0; pass < 2; pass++) {
    for (const version of ctx.config.API_KEY_HASH_KEYS.versions) {
      const itemKey = apiKeyKey(hashOf(version, key));
      const reply = await ctx.db.doc.send(
        new GetCommand({ TableName: ctx.db.table, Key: itemKey, ConsistentRead: true }),
      );
      if (reply.Item) return { version, itemKey, stored: StoredApiKey.parse(reply.Item) };
    }
    if (ctx.config.API_KEY_HASH_KEYS.versions.length === 1) return null;
  }
  return null;
}

/**
 * Moves a key's item to the newest hash version, in one transaction: the record under the new
 * hash, the old one gone, on condition that it is still as read (a revocation in between wins,
 * and two uses at once move it once). The use is recorded on the way. A lost race changes
 * nothing and the key still works: it is moved at its next use.
 */
async function rekey(ctx: CoreContext, key: string, found: FoundKey): Promise<void> {
  const current = ctx.config.API_KEY_HASH_KEYS.current;
  const moved: StoredApiKey = {
    ...found.stored,
    last_used_at: ctx.clock().toISOString(),
    hash_version: current.version,
  };
  try {
    await ctx.db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: ctx.db.table,
              Item: apiKeyItem(current, key, moved),
              ConditionExpression: "attribute_not_exists(pk)",
            },
          },
          {
            Delete: {
              TableName: ctx.db.table,
              Key: found.itemKey,
              ConditionExpression: "attribute_exists(pk) AND attribute_type(revoked_at, :null)",
              ExpressionAttributeValues: { ":null": "NULL" },
            },
          },
        ],
      }),
    );
    ctx.logger.info("api key re-keyed", {
      owner_id: found.stored.owner_id,
      key_id: found.stored.id,
      from: found.version.version,
      to: current.version,
    });
  } catch (error) {
    if (cancellationCodes(error) === null) ctx.logger.warn("api key re-key failed", { error });
  }
}

/** Records the use, at most once per LAST_USED_RESOLUTION_MS; a lost race or a failure is ignored. */
async function touch(ctx: CoreContext, itemKey: { pk: string; sk: string }, stored: StoredApiKey): Promise<void> {
  const now = ctx.clock();
  if (stored.last_used_at && now.getTime() - Date.parse(stored.last_used_at) < LAST_USED_RESOLUTION_MS) return;
  try {
    await ctx.db.doc.send(
      new UpdateCommand({
        TableName: ctx.db.table,
        Key: itemKey,
        UpdateExpression: "SET last_used_at = :now",
        ConditionExpression: "attribute_exists(pk) AND (last_used_at = :seen OR attribute_type(last_used_at, :null))",
        ExpressionAttributeValues: { ":now": now.toISOString(), ":seen": stored.last_used_at ?? "", ":null": "NULL" },
      }),
    );
  } catch (error) {
    if (!isAwsError(error, "ConditionalCheckFailedException"))
      ctx.logger.warn("api key last-used update failed", { error });
  }
}
