import { createHmac, randomBytes } from "node:crypto";
import { GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import type { CoreContext } from "../shared/context";
import { derivedKey } from "../shared/derived-keys";
import { isAwsError, queryAll } from "../shared/dynamo";
import { conflict, notFound, unauthorized } from "../shared/errors";
import { newId } from "../shared/ids";
import { parseWith } from "../shared/validation";
import { apiKeyKey, apiKeysByOwner } from "./keys";
import { API_KEY_PREFIX, API_KEY_VISIBLE_LENGTH, ApiKeyView, CreateApiKeyInput, MAX_ACTIVE_API_KEYS, type PublicUser } from "./model";
import { findUserById, toPublicUser } from "./users";

/**
 * API keys (the docs' "bearer API key"): random 32-byte secrets shown to their owner once. Only
 * an HMAC of the key is stored (keyed with a purpose key derived from JWT_SECRET, so a stolen
 * table alone does not let anyone test guesses), and it is the item's key: authenticating a key
 * is one GetItem. A key acts for its owner on the owner's own resources, always with the role
 * `user`: it never reaches an admin route, even when its owner is an admin.
 */
const PURPOSE = "fintech/api-key-hash/v1";
/** Refresh last_used_at at most this often per key, so a busy key costs no write per request. */
export const LAST_USED_RESOLUTION_MS = 60_000;
const KEY_SHAPE = /^fpk_[A-Za-z0-9_-]{43}$/;

const StoredApiKey = ApiKeyView.extend({ owner_id: z.string() });
type StoredApiKey = z.infer<typeof StoredApiKey>;

const hashOf = (ctx: CoreContext, key: string) => createHmac("sha256", derivedKey(ctx.config.JWT_SECRET, PURPOSE)).update(key).digest("base64url");

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
  return items.map((item) => ({ itemKey: { pk: String(item.pk), sk: String(item.sk) }, stored: StoredApiKey.parse(item) }));
}

export async function listApiKeys(ctx: CoreContext, ownerId: string): Promise<ApiKeyView[]> {
  return (await ownerKeys(ctx, ownerId)).map((entry) => view(entry.stored));
}

/** Creates a key; the reply is the only place its secret ever appears. */
export async function createApiKey(ctx: CoreContext, ownerId: string, body: unknown): Promise<ApiKeyView & { key: string }> {
  const input = parseWith(CreateApiKeyInput, body);
  const active = (await ownerKeys(ctx, ownerId)).filter((entry) => entry.stored.revoked_at === null);
  if (active.length >= MAX_ACTIVE_API_KEYS) {
    throw conflict(`You have ${MAX_ACTIVE_API_KEYS} active API keys; revoke one first`, "api_key_limit");
  }
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  const stored: StoredApiKey = {
    id: newId(),
    owner_id: ownerId,
    name: input.name,
    prefix: key.slice(0, API_KEY_VISIBLE_LENGTH),
    created_at: ctx.clock().toISOString(),
    last_used_at: null,
    revoked_at: null,
  };
  await ctx.db.doc.send(
    new PutCommand({
      TableName: ctx.db.table,
      Item: { ...apiKeyKey(hashOf(ctx, key)), ...apiKeysByOwner(ownerId, stored.created_at, stored.id), entity: "api_key", ...stored },
      ConditionExpression: "attribute_not_exists(pk)",
    }),
  );
  ctx.logger.info("api key created", { owner_id: ownerId, key_id: stored.id, prefix: stored.prefix });
  return { ...view(stored), key };
}

/** Revokes one of the owner's keys (another user's id is a 404); the record stays, for the audit. */
export async function revokeApiKey(ctx: CoreContext, ownerId: string, keyId: string): Promise<ApiKeyView> {
  const found = keyId.length <= 64 ? (await ownerKeys(ctx, ownerId)).find((entry) => entry.stored.id === keyId) : undefined;
  if (!found) throw notFound("API key not found", "api_key_not_found");
  if (found.stored.revoked_at) return view(found.stored);
  const revokedAt = ctx.clock().toISOString();
  try {
    await ctx.db.doc.send(
      new UpdateCommand({
        TableName: ctx.db.table,
        Key: found.itemKey,
        UpdateExpression: "SET revoked_at = :at",
        // Stored as null until revoked; a concurrent revocation keeps its own time.
        ConditionExpression: "attribute_type(revoked_at, :null)",
        ExpressionAttributeValues: { ":at": revokedAt, ":null": "NULL" },
      }),
    );
  } catch (error) {
    if (!isAwsError(error, "ConditionalCheckFailedException")) throw error;
  }
  ctx.logger.info("api key revoked", { owner_id: ownerId, key_id: keyId });
  return view({ ...found.stored, revoked_at: found.stored.revoked_at ?? revokedAt });
}

/**
 * The owner an API key acts for, as a session would: the user must still exist, and the role is
 * always `user`. Unknown, malformed and revoked keys are the same 401.
 */
export async function authenticateApiKey(ctx: CoreContext, key: string): Promise<{ sub: string; role: "user"; user: PublicUser; apiKeyId: string }> {
  const invalid = () => unauthorized("Invalid or revoked API key", "invalid_api_key");
  if (!KEY_SHAPE.test(key)) throw invalid();
  const itemKey = apiKeyKey(hashOf(ctx, key));
  const reply = await ctx.db.doc.send(new GetCommand({ TableName: ctx.db.table, Key: itemKey, ConsistentRead: true }));
  if (!reply.Item) throw invalid();
  const stored = StoredApiKey.parse(reply.Item);
  if (stored.revoked_at) throw invalid();
  const owner = await findUserById(ctx.db, stored.owner_id);
  if (!owner) throw invalid();
  await touch(ctx, itemKey, stored);
  return { sub: owner.id, role: "user", user: { ...toPublicUser(owner), role: "user" }, apiKeyId: stored.id };
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
    if (!isAwsError(error, "ConditionalCheckFailedException")) ctx.logger.warn("api key last-used update failed", { error });
  }
}
